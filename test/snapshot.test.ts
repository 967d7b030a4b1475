import { execFileSync } from 'node:child_process';
import nodeFs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SKIPPED_DIRECTORIES } from '../src/indexer/walker.js';
import { FsAdapter } from '../src/fs/adapter.js';
import { CKGDatabase, createDefaultRegistry, MemoryStorage } from '../src/index.js';
import { sha256Hex, sha256HexSync } from '../src/snapshot/digest.js';
import { parseGitIndex } from '../src/snapshot/git-index.js';
import { computeSnapshot, type Snapshot } from '../src/snapshot/key.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';
import { gitAdd, gitCommitAll, gitInit } from './helpers/git.js';

const registry = createDefaultRegistry();
const walkOptions = { registry, maxFileSize: 1 << 20, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: true };

function snapshot(tree: FixtureTree, root = tree.root): Promise<Snapshot> {
  return computeSnapshot(new FsAdapter(tree.fs), root, walkOptions);
}

const PAST = Date.UTC(2020, 0, 1);

/** Sets a file's mtime (and atime) explicitly: edits within one clock tick stay distinguishable. */
function setMtime(tree: FixtureTree, rel: string, ms: number): void {
  (tree.fs as unknown as typeof nodeFs).utimesSync(`${tree.root}/${rel}`, new Date(ms), new Date(ms));
}

/** Back-dates every listed file so git sees it as clean, not "racily clean". */
function backdate(tree: FixtureTree, rels: string[]): void {
  for (const rel of rels) setMtime(tree, rel, PAST);
}

const trees: FixtureTree[] = [];
function tree(backend: (typeof BACKENDS)[number], files: Record<string, string>): FixtureTree {
  const t = makeTree(backend, files);
  trees.push(t);
  return t;
}
/** A second codebase: another folder of the same memfs volume, or another temp dir. */
function sibling(base: FixtureTree, backend: (typeof BACKENDS)[number], name: string, files: Record<string, string>): FixtureTree {
  if (backend === 'node') return tree('node', files);
  const vol = base.fs as unknown as typeof nodeFs;
  const root = `/work/${name}`;
  const write = (rel: string, content: string | Uint8Array): void => {
    const path = `${root}/${rel}`;
    vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    vol.writeFileSync(path, content);
  };
  vol.mkdirSync(root, { recursive: true });
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return { root, fs: base.fs, write, remove: (rel) => vol.rmSync(`${root}/${rel}`, { recursive: true, force: true }), cleanup: () => undefined };
}

afterEach(() => {
  for (const t of trees.splice(0)) t.cleanup();
});

describe('sha256', () => {
  it('matches known vectors in both the WebCrypto and the pure-JS path', async () => {
    const cases: [string, string][] = [
      ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
      ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    ];
    for (const [input, hex] of cases) {
      const bytes = new TextEncoder().encode(input);
      expect(sha256HexSync(bytes)).toBe(hex);
      expect(await sha256Hex(bytes)).toBe(hex);
    }
    const big = new Uint8Array(100_003).map((_, i) => (i * 31) & 255);
    expect(sha256HexSync(big)).toBe(await sha256Hex(big));
  });
});

describe.each(BACKENDS)('snapshot key (%s)', (backend) => {
  it('outside git: digest of path, size and mtime of indexable files only', async () => {
    const t = tree(backend, { 'a.py': 'def a():\n    pass\n', 'pkg/b.py': 'def b():\n    pass\n' });
    const first = await snapshot(t);
    expect(first.mode).toBe('files');
    expect(first.key).toMatch(/^files:[0-9a-f]{64}$/);
    expect((await snapshot(t)).key).toBe(first.key);
    t.write('README.md', '# not indexed\n');
    expect((await snapshot(t)).key).toBe(first.key);
    t.write('pkg/b.py', 'def b():\n    return 1\n');
    const edited = await snapshot(t);
    expect(edited.key).not.toBe(first.key);
    t.remove('pkg/b.py');
    const removed = await snapshot(t);
    expect(removed.key).not.toBe(edited.key);
    expect(removed.key).not.toBe(first.key);
  });

  it('in git: HEAD plus work-tree changes, and a second edit to a modified file changes it again', async () => {
    const t = tree(backend, { 'a.py': 'def a():\n    pass\n', 'b.py': 'def b():\n    pass\n' });
    backdate(t, ['a.py', 'b.py']);
    await gitInit(t);
    const head = await gitCommitAll(t);
    const clean = await snapshot(t);
    expect(clean.mode).toBe('git');
    expect(clean.key.startsWith(`git:${head}:`)).toBe(true);
    expect((await snapshot(t)).key).toBe(clean.key);

    t.write('a.py', 'def a():\n    return 1\n');
    setMtime(t, 'a.py', PAST + 1000);
    const once = await snapshot(t);
    expect(once.key).not.toBe(clean.key);
    // Same size, new content: porcelain status would still say " M a.py" (reference defect 14).
    t.write('a.py', 'def a():\n    return 2\n');
    setMtime(t, 'a.py', PAST + 2000);
    const twice = await snapshot(t);
    expect(twice.key).not.toBe(once.key);
    expect(twice.key).not.toBe(clean.key);

    // New untracked file, then its removal.
    t.write('c.py', 'def c():\n    pass\n');
    const untracked = await snapshot(t);
    expect(untracked.key).not.toBe(twice.key);
    t.remove('c.py');
    expect((await snapshot(t)).key).toBe(twice.key);

    // A tracked file deleted from the work tree.
    t.remove('b.py');
    expect((await snapshot(t)).key).not.toBe(twice.key);
  });

  it('keys staged content by blob id: an edit that is `git add`ed never maps back to the commit key', async () => {
    const t = tree(backend, { 'a.py': 'def a():\n    pass\n' });
    backdate(t, ['a.py']);
    await gitInit(t);
    await gitCommitAll(t);
    const committed = await snapshot(t);
    t.write('a.py', 'def a():\n    return 42\n');
    setMtime(t, 'a.py', PAST + 5000);
    await gitAdd(t, 'a.py');
    const staged = await snapshot(t);
    expect(staged.key).not.toBe(committed.key);
    // Clean against the index: the key holds the new blob id, not the file's stat.
    expect(staged.key).toBe((await snapshot(t)).key);
  });

  it('is the same for two clones at one commit (blob ids, not mtimes), while their storage keys differ', async () => {
    const files = { 'app/main.py': 'def main():\n    pass\n' };
    const one = tree(backend, files);
    const clone = sibling(one, backend, 'clone', files);
    backdate(one, ['app/main.py']);
    setMtime(clone, 'app/main.py', PAST + 7000); // a different checkout time
    for (const t of [one, clone]) {
      await gitInit(t);
      await gitCommitAll(t);
    }
    const [a, b] = [await snapshot(one), await snapshot(clone)];
    expect(a.mode).toBe('git');
    expect(a.key).toBe(b.key);

    const storage = new MemoryStorage();
    const dbA = await CKGDatabase.open({ codebasePath: one.root, fs: one.fs, storage });
    const dbB = await CKGDatabase.open({ codebasePath: clone.root, fs: clone.fs, storage });
    try {
      expect(dbA.storageKey).not.toBe(dbB.storageKey);
      expect(dbB.origin).toBe('built');
      expect((await dbB.queryFunction('main')).map((f) => f.filePath)).toEqual([`${clone.root}/app/main.py`]);
      expect((await storage.list()).length).toBe(2);
    } finally {
      dbA.close();
      dbB.close();
    }
  });

  it('separates a sub-folder from its repository', async () => {
    const t = tree(backend, { 'top.py': 'def top():\n    pass\n', 'sub/inner.py': 'def inner():\n    pass\n' });
    await gitInit(t);
    await gitCommitAll(t);
    const whole = await snapshot(t);
    const sub = await snapshot(t, `${t.root}/sub`);
    expect(sub.mode).toBe('git');
    expect(sub.key).not.toBe(whole.key);
    // An edit outside the sub-folder changes the repository's key only.
    t.write('top.py', 'def top():\n    return 1\n');
    expect((await snapshot(t, `${t.root}/sub`)).key).toBe(sub.key);
    expect((await snapshot(t)).key).not.toBe(whole.key);

    const storage = new MemoryStorage();
    const dbSub = await CKGDatabase.open({ codebasePath: `${t.root}/sub`, fs: t.fs, storage });
    const dbAll = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    try {
      expect(dbSub.storageKey).not.toBe(dbAll.storageKey);
      expect(dbAll.origin).toBe('built');
      expect(await dbAll.queryFunction('top')).toHaveLength(1);
      expect(await dbSub.queryFunction('top')).toHaveLength(0);
    } finally {
      dbSub.close();
      dbAll.close();
    }
  });

  it('gives unborn repositories an unborn marker and never one shared index', async () => {
    const one = tree(backend, { 'x.py': 'def x():\n    pass\n' });
    const two = sibling(one, backend, 'other', { 'y.py': 'def y():\n    pass\n' });
    await gitInit(one);
    await gitInit(two);
    const s1 = await snapshot(one);
    expect(s1.mode).toBe('git');
    expect(s1.key.startsWith('git:unborn:refs/heads/main:')).toBe(true);
    const storage = new MemoryStorage();
    const db1 = await CKGDatabase.open({ codebasePath: one.root, fs: one.fs, storage });
    const db2 = await CKGDatabase.open({ codebasePath: two.root, fs: two.fs, storage });
    try {
      expect(db1.storageKey).not.toBe(db2.storageKey);
      expect(db2.origin).toBe('built');
      expect(await db2.queryFunction('x')).toHaveLength(0);
      expect(await db2.queryFunction('y')).toHaveLength(1);
    } finally {
      db1.close();
      db2.close();
    }
  });

  it('leaves .gitignored files and node_modules out of both the index and the key', async () => {
    const t = tree(backend, {
      // `*.PY` must not hide app.py: git matches case-sensitively (core.ignorecase=false).
      '.gitignore': 'generated/\n*.gen.py\n*.PY\n',
      'src/app.py': 'def app():\n    pass\n',
      'generated/out.py': 'def generated_fn():\n    pass\n',
      'src/x.gen.py': 'def gen_fn():\n    pass\n',
      'node_modules/pkg/mod.py': 'def dep_fn():\n    pass\n',
    });
    await gitInit(t);
    await gitCommitAll(t);
    const before = await snapshot(t);
    expect(before.walk.files.map((f) => f.path)).toEqual([`${t.root}/src/app.py`]);
    t.write('generated/out.py', 'def generated_fn():\n    return 2\n');
    t.write('src/x.gen.py', 'def gen_fn():\n    return 2\n');
    t.write('node_modules/pkg/mod.py', 'def dep_fn():\n    return 2\n');
    t.write('generated/new.py', 'def more():\n    pass\n');
    expect((await snapshot(t)).key).toBe(before.key);
    const db = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs });
    try {
      for (const name of ['generated_fn', 'gen_fn', 'dep_fn', 'more']) expect(await db.queryFunction(name)).toHaveLength(0);
      expect(await db.queryFunction('app')).toHaveLength(1);
    } finally {
      db.close();
    }
    // Without a .gitignore (and outside git), node_modules is still skipped.
    const plain = tree(backend, { 'a.py': 'def a():\n    pass\n', 'node_modules/p/m.py': 'def m():\n    pass\n' });
    const k = await snapshot(plain);
    plain.write('node_modules/p/m.py', 'def m():\n    return 1\n');
    expect((await snapshot(plain)).key).toBe(k.key);
    expect(k.walk.files).toHaveLength(1);
  });

  it('does not trust stat data of "racily clean" entries (file as new as the index)', async () => {
    const t = tree(backend, { 'a.py': 'def a():\n    pass\n' });
    backdate(t, ['a.py']);
    await gitInit(t);
    await gitCommitAll(t);
    const clean = await snapshot(t);
    // Same size and the recorded mtime, other content, and an index written in that same tick:
    // stat data match, so only the racy rule keeps the old blob id out of the key.
    t.write('a.py', 'def b():\n    pass\n');
    setMtime(t, 'a.py', PAST);
    setMtime(t, '.git/index', PAST);
    const racy = await snapshot(t);
    expect(racy.key).not.toBe(clean.key);
  });
});

describe('git index reader', () => {
  function hasGit(): boolean {
    try {
      execFileSync('git', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  it('reads the index real git writes (v2 and v3), and falls back for v4', async () => {
    // Real git is part of the test environment (the CI image and this machine have it).
    expect(hasGit()).toBe(true);
    const t = tree('node', {
      'a.py': 'def a():\n    pass\n',
      'dir/b.py': 'def b():\n    pass\n',
      'dir/é/ünï.py': 'def u():\n    pass\n', // non-ASCII paths between ASCII ones
      'dir/z.py': 'def z():\n    pass\n',
      'notes.txt': 'x\n',
    });
    const run = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd: t.root, encoding: 'utf8' });
    run('init', '-q');
    run('add', '-A');
    run('commit', '-qm', 'init');
    const oid = run('rev-parse', 'HEAD:dir/b.py').trim();
    const v2 = parseGitIndex(nodeFs.readFileSync(`${t.root}/.git/index`));
    expect(v2.version).toBe(2);
    expect([...v2.entries.keys()].sort()).toEqual(['a.py', 'dir/b.py', 'dir/z.py', 'dir/é/ünï.py', 'notes.txt']);
    expect(v2.entry('dir/b.py')?.oid).toBe(oid);
    expect(v2.entry('dir/é/ünï.py')?.oid).toBe(run('rev-parse', 'HEAD:dir/é/ünï.py').trim());
    expect(v2.entry('dir/z.py')?.oid).toBe(run('rev-parse', 'HEAD:dir/z.py').trim());
    const stat = nodeFs.statSync(`${t.root}/dir/b.py`);
    expect(v2.entry('dir/b.py')?.size).toBe(stat.size);
    expect(Math.abs(v2.entry('dir/b.py')!.mtimeMs - stat.mtimeMs)).toBeLessThan(0.001);
    expect([...parseGitIndex(nodeFs.readFileSync(`${t.root}/.git/index`), 'dir/').entries.keys()]).toEqual(['dir/b.py', 'dir/z.py', 'dir/é/ünï.py']);
    // Real git's HEAD and index give a git-mode key whose HEAD is `git rev-parse HEAD`.
    const fromGit = await snapshot(t);
    expect(fromGit.key.startsWith(`git:${run('rev-parse', 'HEAD').trim()}:`)).toBe(true);

    run('update-index', '--index-version', '3');
    run('update-index', '--skip-worktree', 'a.py'); // sets the extended flag: a true v3 entry
    const v3 = parseGitIndex(nodeFs.readFileSync(`${t.root}/.git/index`));
    expect(v3.version).toBe(3);
    expect(v3.entry('dir/b.py')?.oid).toBe(oid);
    expect(v3.entries.has('a.py')).toBe(false); // skip-worktree entries are never "clean"
    expect(v3.conflicted.has('a.py')).toBe(true);

    run('update-index', '--no-skip-worktree', 'a.py');
    run('update-index', '--index-version', '4');
    const v4 = await snapshot(t);
    expect(v4.mode).toBe('files');
    expect(v4.fallbackReason).toMatch(/index version 4/);
  });

  it('rejects damaged index bytes instead of misreading them', () => {
    expect(() => parseGitIndex(new TextEncoder().encode('DIRC'))).toThrow(/too short/);
    const bad = new Uint8Array(40);
    bad.set(new TextEncoder().encode('DIRX'));
    expect(() => parseGitIndex(bad)).toThrow(/signature/);
  });
});

describe('gitignore prefilter', () => {
  it('never clears a path that `ignore` (case-sensitive, like git) would ignore', async () => {
    const fc = (await import('fast-check')).default;
    const { default: ignore } = await import('ignore');
    const { ignorePrefilter } = await import('../src/indexer/ignore-prefilter.js');
    const segment = fc.constantFrom('a', 'b.c', 'x.o', 'lib', 'build', 'Build', 'gen', 'mod.c', 'tab.h', 'foo~', '#tmp#', 'cscope.out', 'v1.2', 'S.S', 'n');
    const rule = fc.oneof(
      fc.constantFrom('*', 'b*', '*.o', '*.c', '*~', 'build', '/build', 'build/', '/lib/gen', 'lib/*/gen/', '**/gen', 'a/**/b.c', 'cscope.*', '*.tab.[ch]', '\\#*#', '/*.c', '*.S', 'mod.*', '?.c', '!x.o', '!build/', 'gen/**', '#comment', ''),
      segment,
      segment.map((s) => `!${s}`),
      fc.tuple(segment, segment).map(([a, b]) => `${a}/${b}`),
    );
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 8 }),
        fc.array(fc.tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean()), { minLength: 1, maxLength: 12 }),
        (rules, paths) => {
          const text = rules.join('\n');
          const exact = ignore({ ignorecase: false }).add(text);
          // One prefilter for many paths: it caches per folder, as in a walk.
          const prefilter = ignorePrefilter(text);
          return paths.every(([segments, isDir]) => {
            const rel = segments.join('/');
            const mayMatch = prefilter.folder(segments.slice(0, -1).join('/'))(segments.at(-1)!);
            return !exact.ignores(isDir ? `${rel}/` : rel) || mayMatch;
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('glob literal guard', () => {
  it('is contained in every segment the glob matches', async () => {
    const fc = (await import('fast-check')).default;
    const { default: picomatch } = await import('picomatch');
    const { literalGuard } = await import('../src/indexer/ignore-prefilter.js');
    expect(literalGuard('*.tab.[ch]')).toBe('.tab.');
    expect(literalGuard('\\#*#')).toBe('#');
    expect(literalGuard('*')).toBeUndefined();
    const part = fc.constantFrom('*', '?', '[ch]', '[!a]', '[]a]', '[a-c]', '[[:alpha:]]', '\\#', '\\*', 'a', 'b', 'c', '.', '#', 'tab', ']', '[');
    const char = fc.constantFrom('a', 'b', 'c', 'h', '.', '#', '*', ']', '[', 't', 'x');
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), fc.array(fc.string({ unit: char, maxLength: 8 }), { minLength: 1, maxLength: 20 }), (parts, segments) => {
        const glob = parts.join('');
        let re: RegExp;
        try {
          re = picomatch.makeRe(glob, { dot: true });
        } catch {
          return true; // not a glob picomatch reads: the prefilter never builds a guard for it
        }
        const guard = literalGuard(glob);
        return segments.every((segment) => guard === undefined || !re.test(segment) || segment.includes(guard));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('file systems without optional features', () => {
  it('walks and keys a git repository through a minimal promise-only fs (names-only readdir, no write methods)', async () => {
    const t = tree('memfs', { 'a.py': 'def a():\n    pass\n', 'pkg/b.py': 'def b():\n    pass\n', 'README.md': '#\n' });
    await gitInit(t);
    const head = await gitCommitAll(t);
    const full = t.fs as unknown as typeof nodeFs;
    const minimal = {
      promises: {
        readFile: (p: string) => full.promises.readFile(p),
        readdir: (p: string) => full.promises.readdir(p).then((names) => names.map(String)),
        stat: (p: string) => full.promises.stat(p),
        lstat: (p: string) => full.promises.lstat(p),
      },
    };
    const viaMinimal = await computeSnapshot(new FsAdapter(minimal), t.root, walkOptions);
    const viaFull = await snapshot(t);
    expect(viaMinimal.key).toBe(viaFull.key);
    expect(viaMinimal.key.startsWith(`git:${head}:`)).toBe(true);
    expect(viaMinimal.walk.files.map((f) => f.path)).toEqual([`${t.root}/a.py`, `${t.root}/pkg/b.py`]);
  });
});
