// The walker's file selection beyond extensions: extensionless scripts by their `#!` line,
// files git tracks under `.gitignore`d paths, and the report of what `.gitignore` left out.
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { CKGDatabase } from '../src/index.js';
import { interpreterNames } from '../src/indexer/shebang.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';
import { gitCommitAll, gitFs, gitInit } from './helpers/git.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/**
 * Moves the mtimes of these paths (relative to the root; `''` is the root) an hour back, so a
 * walk trusts them: folder listings, their plans and `#!` results are then kept between walks
 * (recent mtimes are "racy" and always re-read), which is what the updates below must see through.
 */
function age(tree: FixtureTree, paths: readonly string[]): void {
  const past = new Date(Date.now() - 3_600_000);
  const fs = tree.fs as unknown as { utimesSync(path: string, atime: Date, mtime: Date): void };
  for (const rel of paths) fs.utimesSync(rel === '' ? tree.root : `${tree.root}/${rel}`, past, past);
}

describe('interpreterNames', () => {
  it('reads the program of a #! line, through env and its options, most specific name first', () => {
    expect(interpreterNames(encode('#!/bin/bash\necho'))).toEqual(['bash']);
    expect(interpreterNames(encode('#!/usr/bin/env python3\n'))).toEqual(['python3', 'python']);
    expect(interpreterNames(encode('#!/usr/bin/python3.11 -u\n'))).toEqual(['python3.11', 'python3', 'python']);
    expect(interpreterNames(encode('#! /usr/bin/env -S -u HOME LANG=C node --experimental-vm-modules\n'))).toEqual(['node']);
    expect(interpreterNames(encode('#!/usr/bin/env lua5.1'))).toEqual(['lua5.1', 'lua5', 'lua']);
    expect(interpreterNames(encode('# a comment\n'))).toEqual([]);
    expect(interpreterNames(encode('#!/usr/bin/env\n'))).toEqual([]);
  });
});

describe.each(BACKENDS)('extensionless scripts (%s)', (backend) => {
  it('are indexed in the language their #! line names; others stay uncovered', async () => {
    const tree = makeTree(backend, {
      'bin/deploy': '#!/bin/bash\nset -e\nrelease() {\n  echo "release $1"\n}\nrelease "$@"\n',
      'bin/report': '#!/usr/bin/env python3\n\ndef summarize(rows):\n    return len(rows)\n',
      'bin/serve': '#!/usr/bin/env -S node --enable-source-maps\nfunction listen(port) {\n  return port;\n}\n',
      'bin/notes': 'just some text\n',
      'Makefile': 'all:\n\techo\n',
      'lib/app.py': 'def main():\n    pass\n',
    });
    try {
      age(tree, ['bin/deploy', 'bin/report', 'bin/serve', 'bin/notes', 'Makefile', 'lib/app.py', 'bin', 'lib', '']);
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, trustFolderMtimes: true });
      try {
        expect(db.report).toMatchObject({ filesIndexed: 4, unknownExtensions: { '(none)': 2 } });
        expect((await db.queryFunction('release'))[0]).toMatchObject({ filePath: `${tree.root}/bin/deploy`, startLine: 3, endLine: 5 });
        expect((await db.queryFunction('summarize'))[0]?.filePath).toBe(`${tree.root}/bin/report`);
        expect((await db.queryFunction('listen'))[0]?.filePath).toBe(`${tree.root}/bin/serve`);
        // A #! line added later makes the file a script at the next update (and one removed, not).
        tree.write('bin/notes', '#!/usr/bin/env ruby\ndef greet\n  puts "hi"\nend\n');
        tree.write('bin/report', 'no longer a script\n');
        await db.update();
        expect((await db.queryFunction('greet'))[0]?.filePath).toBe(`${tree.root}/bin/notes`);
        expect(await db.queryFunction('summarize')).toEqual([]);
        expect(db.report?.unknownExtensions).toEqual({ '(none)': 2 });
      } finally {
        db.close();
      }
    } finally {
      tree.cleanup();
    }
  });
});

describe.each(BACKENDS)('.gitignore and git (%s)', (backend) => {
  it('indexes files git tracks under ignored paths, as git keeps them, and only those', async () => {
    const tree = makeTree(backend, {
      '.gitignore': 'generated/\n*.gen.py\n',
      'app.py': 'def main():\n    pass\n',
      'generated/api.py': 'def tracked_api():\n    pass\n',
      'generated/scratch.py': 'def untracked_scratch():\n    pass\n',
      'schema.gen.py': 'def tracked_schema():\n    pass\n',
      'other.gen.py': 'def untracked_other():\n    pass\n',
    });
    try {
      await gitInit(tree);
      await gitCommitAll(tree); // honours .gitignore: app.py and .gitignore only
      const fs = gitFs(tree);
      await git.add({ fs, dir: tree.root, filepath: 'generated/api.py', force: true });
      await git.add({ fs, dir: tree.root, filepath: 'schema.gen.py', force: true });
      age(tree, ['', 'generated']);
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, trustFolderMtimes: true });
      try {
        const found = async (name: string): Promise<boolean> => (await db.queryFunction(name)).length > 0;
        expect(await found('tracked_api')).toBe(true);
        expect(await found('tracked_schema')).toBe(true);
        expect(await found('untracked_scratch')).toBe(false);
        expect(await found('untracked_other')).toBe(false);
        expect(db.report?.filesIndexed).toBe(3);
        // Tracking one more ignored file (no folder listing changes) is seen by the next update.
        await git.add({ fs, dir: tree.root, filepath: 'generated/scratch.py', force: true });
        await db.update();
        expect(await found('untracked_scratch')).toBe(true);
      } finally {
        db.close();
      }
      // Without .gitignore handling everything is indexed; no git, no exceptions.
      const all = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, respectGitignore: false });
      try {
        expect(all.report?.filesIndexed).toBe(5);
      } finally {
        all.close();
      }
    } finally {
      tree.cleanup();
    }
  });

  it('says which rule excluded the files when .gitignore leaves out everything', async () => {
    // Debian's kernel source: `/*` then `!/debian/` at the end of the root .gitignore.
    const tree = makeTree(backend, {
      '.gitignore': '*.o\n\n# Debian packaging\n/*\n!/debian/\n',
      'kernel/fork.c': 'int copy_process(void) { return 0; }\n',
      'kernel/sched/core.c': 'void schedule(void) {}\n',
      'mm/mmap.c': 'int do_mmap(void) { return 0; }\n',
      'init.c': 'int main(void) { return 0; }\n',
      'README': 'Linux kernel\n',
      'debian/rules.py': 'def build():\n    pass\n',
    });
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
      try {
        expect(db.report?.filesIndexed).toBe(1); // debian/rules.py
        expect(db.report?.gitignoreExclusions).toEqual([{ gitignore: `${tree.root}/.gitignore`, rule: '/*', files: 4, complete: true }]);
      } finally {
        db.close();
      }
    } finally {
      tree.cleanup();
    }
  });

  it('says nothing when .gitignore leaves out less than is indexed', async () => {
    const tree = makeTree(backend, {
      '.gitignore': 'dist/\n',
      'src/a.py': 'def a():\n    pass\n',
      'src/b.py': 'def b():\n    pass\n',
      'dist/bundle.js': 'function bundled() {}\n',
    });
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
      try {
        expect(db.report?.filesIndexed).toBe(2);
        expect(db.report?.gitignoreExclusions).toBeUndefined();
      } finally {
        db.close();
      }
    } finally {
      tree.cleanup();
    }
  });
});
