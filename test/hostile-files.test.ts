// Bad files, folders and links never stop, hang or mislead an index: unreadable or vanishing
// folders are skipped with a reason, nothing that is not a regular file is read (FIFOs would
// block), and nothing outside the codebase root is read through a symlink.
import { execFile, execFileSync } from 'node:child_process';
import nodeFs from 'node:fs';
import { promisify } from 'node:util';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool, type FileSystem } from '../src/index.js';
import { sealDatabase } from '../src/db/integrity.js';
import initSqlJs from 'sql.js';
import { makeTree } from './helpers/fixtures.js';

const run = promisify(execFile);

/** A memfs volume whose listing or stat of some paths fails as a real file system would. */
function failingFs(vol: Volume, fail: { readonly readdir?: string; readonly stat?: string; readonly vanish?: { when: string; remove: string } }): FileSystem {
  const v = vol as unknown as typeof nodeFs;
  const denied = (op: string, path: string): Error => Object.assign(new Error(`EACCES: permission denied, ${op} '${path}'`), { code: 'EACCES' });
  return {
    promises: v.promises,
    lstatSync: v.lstatSync.bind(v),
    statSync: (path: string) => {
      if (path === fail.stat) throw denied('stat', path);
      return v.statSync(path);
    },
    readFileSync: v.readFileSync.bind(v),
    realpathSync: v.realpathSync.bind(v),
    readdirSync: (path: string, options?: unknown) => {
      if (path === fail.readdir) throw denied('scandir', path);
      const listing = (v.readdirSync as (p: string, o?: unknown) => unknown)(path, options);
      if (path === fail.vanish?.when) vol.rmSync(fail.vanish.remove, { recursive: true });
      return listing;
    },
  } as unknown as FileSystem;
}

describe('folders and links that cannot be read', () => {
  const files = { '/r/ok/a.py': 'def fine():\n    pass\n', '/r/locked/b.py': 'def hidden():\n    pass\n', '/r/gone/c.py': 'def gone():\n    pass\n', '/r/z.py': 'def last():\n    pass\n' };

  it('skips an unreadable folder with its reason and indexes the rest', async () => {
    const fs = failingFs(Volume.fromJSON(files), { readdir: '/r/locked' });
    const db = await CKGDatabase.open({ codebasePath: '/r', fs });
    try {
      expect(db.report!.skipped).toEqual([{ path: '/r/locked', reason: 'unreadable', detail: expect.stringMatching(/Cannot list \/r\/locked: EACCES/) }]);
      expect((await db.queryFunction('fine')).length + (await db.queryFunction('gone')).length + (await db.queryFunction('last')).length).toBe(3);
      // Every tool call re-walks: it must answer too.
      const tool = new CKGTool({ fs });
      expect(await tool.execute({ command: 'search_function', path: '/r', identifier: 'last', print_body: false })).toEqual({ output: 'Found 1 function named last:\n1. /r/z.py:1-2\n' });
      await tool.close();
    } finally {
      db.close();
    }
  });

  it('passes over a folder deleted during the walk', async () => {
    const fs = failingFs(Volume.fromJSON(files), { vanish: { when: '/r', remove: '/r/gone' } });
    const db = await CKGDatabase.open({ codebasePath: '/r', fs });
    try {
      expect(db.report!.skipped).toEqual([]);
      expect(db.stats().files).toBe(3);
    } finally {
      db.close();
    }
  });

  it('skips a symlink whose target cannot be stat\'ed (as /proc/1/cwd for a non-root user)', async () => {
    const vol = Volume.fromJSON(files);
    vol.symlinkSync('/r/ok', '/r/cwd');
    vol.symlinkSync('/r/ok/a.py', '/r/denied.py');
    const db = await CKGDatabase.open({ codebasePath: '/r', fs: failingFs(vol, { stat: '/r/denied.py' }) });
    try {
      expect(db.report!.skipped).toEqual([{ path: '/r/denied.py', reason: 'unreadable', detail: expect.stringMatching(/EACCES/) }]);
      expect(db.stats().files).toBe(4);
    } finally {
      db.close();
    }
  });
});

describe('symlinks and the codebase root', () => {
  it('never reads a file outside the root through a symlink, nor prints it', async () => {
    const outside = makeTree('node', { 'secret.py': 'def stolen():\n    return "s3cr3t"\n' });
    const tree = makeTree('node', { 'app.py': 'def app():\n    pass\n', 'bin/tool': 'def from_tool():\n    pass\n' });
    try {
      nodeFs.symlinkSync(`${outside.root}/secret.py`, `${tree.root}/innocent.py`);
      // A link to a file inside the root that the walk does not index itself is indexed under the link.
      nodeFs.symlinkSync(`${tree.root}/bin/tool`, `${tree.root}/tool.py`);
      const tool = new CKGTool({ fs: nodeFs });
      try {
        expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'stolen' })).toEqual({ output: 'No functions named stolen found.' });
        expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'from_tool', print_body: false })).toEqual({
          output: `Found 1 function named from_tool:\n1. ${tree.root}/tool.py:1-2\n`,
        });
      } finally {
        await tool.close();
      }
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: nodeFs });
      try {
        expect(db.report!.skipped).toEqual([{ path: `${tree.root}/innocent.py`, reason: 'outside-codebase', detail: `${outside.root}/secret.py` }]);
        // A file that becomes a link out of the root after indexing: its body is not read from there.
        nodeFs.writeFileSync(`${outside.root}/app.py`, 'def app():\n    pass\n');
        nodeFs.rmSync(`${tree.root}/app.py`);
        nodeFs.symlinkSync(`${outside.root}/app.py`, `${tree.root}/app.py`);
        const [row] = await db.queryFunction('app');
        expect(row).toBeUndefined(); // re-indexed: the link out of the root is left out
      } finally {
        db.close();
      }
    } finally {
      tree.cleanup();
      outside.cleanup();
    }
  });

  it('never reads a body from a path outside the root, whatever the bytes say', async () => {
    const tree = makeTree('node', { 'a.py': 'def victim():\n    return 1\n' });
    const outside = makeTree('node', { 'a.py': 'def victim():\n    return 1\n' }); // same bytes: the hash would match
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: nodeFs });
      const SQL = await initSqlJs();
      const raw = new SQL.Database(db.export());
      db.close();
      raw.run('UPDATE files SET path = ?', [`${outside.root}/a.py`]);
      const crafted = sealDatabase(raw.export());
      raw.close();
      // Every path the database opens or reads is recorded.
      const touched: string[] = [];
      const spy = new Proxy(nodeFs, {
        get(target, prop) {
          const value = Reflect.get(target, prop) as unknown;
          if (typeof value !== 'function' || !['openSync', 'readFileSync', 'realpathSync'].includes(String(prop))) return value;
          return (path: unknown, ...rest: unknown[]) => {
            touched.push(String(path));
            return (value as (...a: unknown[]) => unknown).call(target, path, ...rest);
          };
        },
      });
      const opened = await CKGDatabase.fromBytes(crafted, { fs: spy as unknown as FileSystem });
      try {
        // The stored path is refused; the query re-indexes the codebase and answers from it.
        expect((await opened.queryFunction('victim')).map((f) => [f.filePath, f.body])).toEqual([[`${tree.root}/a.py`, 'def victim():\n    return 1']]);
        expect(touched.filter((p) => p.startsWith(outside.root))).toEqual([]);
      } finally {
        opened.close();
      }
    } finally {
      tree.cleanup();
      outside.cleanup();
    }
  });
});

describe('FIFOs and other special files (node:fs, in a child process bounded by a timeout)', () => {
  const child = async (what: 'build' | 'update' | 'query', root: string, swap?: () => void): Promise<Record<string, unknown>> => {
    const script = new URL('./helpers/read-in-child.mjs', import.meta.url);
    const running = run(process.execPath, [script.pathname, what, root], { timeout: 40_000 });
    if (swap) {
      while (!nodeFs.existsSync(`${root}.ready`)) await new Promise((r) => setTimeout(r, 20));
      swap();
      nodeFs.writeFileSync(`${root}.go`, '');
    }
    const { stdout } = await running;
    return JSON.parse(stdout) as Record<string, unknown>;
  };
  const mkfifo = (path: string): void => void execFileSync('mkfifo', [path]);

  it('does not open a FIFO named like a source file, nor one as .git/HEAD', async () => {
    const tree = makeTree('node', { 'a.py': 'def victim():\n    pass\n', '.git/config': '' });
    try {
      mkfifo(`${tree.root}/pipe.py`);
      mkfifo(`${tree.root}/.git/HEAD`);
      const out = await child('build', tree.root);
      expect(out).toEqual({ skipped: [], functions: 1 });
    } finally {
      tree.cleanup();
    }
  });

  it('does not read an indexed file replaced by a FIFO, for an update or a lazy body', async () => {
    for (const what of ['update', 'query'] as const) {
      const tree = makeTree('node', { 'a.py': 'def victim():\n    pass\n', 'b.py': 'def other():\n    pass\n' });
      try {
        const out = await child(what, tree.root, () => {
          nodeFs.rmSync(`${tree.root}/a.py`);
          mkfifo(`${tree.root}/a.py`);
        });
        if (what === 'update') expect(out).toEqual({ skipped: [], functions: 1 }); // a FIFO is not a source file: a.py is gone
        else expect(out).toMatchObject({ bodies: [] }); // the query noticed the change and re-indexed
      } finally {
        tree.cleanup();
        nodeFs.rmSync(`${tree.root}.ready`, { force: true });
        nodeFs.rmSync(`${tree.root}.go`, { force: true });
      }
    }
  });

  it('refuses a FIFO swapped in between the walk and the read (checked on the open descriptor)', async () => {
    const { FsAdapter } = await import('../src/fs/adapter.js');
    const tree = makeTree('node', {});
    try {
      mkfifo(`${tree.root}/late.py`);
      // The adapter is what the indexer reads with: it opens non-blocking and checks with fstat.
      // (Non-blocking: were it blocking, this test would hang here, as the child above would.)
      await expect(new FsAdapter(nodeFs).readBytes(`${tree.root}/late.py`)).rejects.toMatchObject({ code: 'FS_ERROR', message: expect.stringMatching(/not a regular file/) });
      expect(new FsAdapter(nodeFs).readRange.bind(new FsAdapter(nodeFs), `${tree.root}/late.py`, 0, 10)).toThrow(/not a regular file/);
    } finally {
      tree.cleanup();
    }
  });
});

describe('nothing from the codebase runs, nothing is written', () => {
  it('indexes a booby-trapped repository without running or writing anything', async () => {
    const marker = `${nodeFs.mkdtempSync('/tmp/ckg-trap-')}/ran`;
    const trap = `touch ${marker}`;
    const tree = makeTree('node', {
      'setup.py': `import os\nos.system(${JSON.stringify(trap)})\n\ndef setup_trap():\n    pass\n`,
      'conftest.py': `import os\nos.system(${JSON.stringify(trap)})\n`,
      'package.json': JSON.stringify({ scripts: { preinstall: trap, postinstall: trap, prepare: trap } }),
      'Makefile': `all:\n\t${trap}\n`,
      '.envrc': trap,
      '.gitattributes': '*.py filter=trap\n',
      '.git/config': `[filter "trap"]\n\tclean = ${trap}\n\tsmudge = ${trap}\n[core]\n\tfsmonitor = ${trap}\n`,
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/hooks/post-checkout': `#!/bin/sh\n${trap}\n`,
      '.git/hooks/pre-commit': `#!/bin/sh\n${trap}\n`,
      'build.rs': `fn main() { std::process::Command::new("sh").arg("-c").arg(${JSON.stringify(trap)}).status().unwrap(); }\n`,
      'app.js': `require('child_process').execSync(${JSON.stringify(trap)});\nfunction appTrap() {}\n`,
    });
    try {
      nodeFs.chmodSync(`${tree.root}/.git/hooks/post-checkout`, 0o755);
      const before = new Map(nodeFs.readdirSync(tree.root, { recursive: true }).map((p) => [String(p), nodeFs.statSync(`${tree.root}/${String(p)}`).mtimeMs]));
      const tool = new CKGTool({ fs: nodeFs });
      try {
        expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'setup_trap', print_body: false })).toEqual({ output: `Found 1 function named setup_trap:\n1. ${tree.root}/setup.py:4-5\n` });
        nodeFs.appendFileSync(`${tree.root}/app.js`, 'function later() {}\n');
        before.set('app.js', nodeFs.statSync(`${tree.root}/app.js`).mtimeMs);
        expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'later', print_body: false })).toMatchObject({ output: expect.stringMatching(/^Found 1 function/) });
      } finally {
        await tool.close();
      }
      expect(nodeFs.existsSync(marker)).toBe(false);
      // Nothing in the codebase was created or changed.
      const after = new Map(nodeFs.readdirSync(tree.root, { recursive: true }).map((p) => [String(p), nodeFs.statSync(`${tree.root}/${String(p)}`).mtimeMs]));
      expect(after).toEqual(before);
    } finally {
      tree.cleanup();
    }
  });
});
