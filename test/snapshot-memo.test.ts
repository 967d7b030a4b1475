// The snapshot memo (src/snapshot/walk-memo.ts): a check that gets the file system answers a
// snapshot was computed from has that snapshot without walking, and any change that could change
// the snapshot changes an answer. Each check below compares a snapshot through the memo with a
// fresh walk of the same tree, after every kind of change a codebase sees.
import nodeFs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FsAdapter } from '../src/fs/adapter.js';
import { CKGDatabase, createDefaultRegistry, MemoryStorage, type FileSystem } from '../src/index.js';
import { DEFAULT_SKIPPED_DIRECTORIES, ListingCache } from '../src/indexer/walker.js';
import { snapshotMemoKeyOf } from '../src/indexer/saved-listings.js';
import { computeSnapshot, type Snapshot } from '../src/snapshot/key.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';
import { gitAdd, gitCommitAll, gitInit } from './helpers/git.js';

const registry = createDefaultRegistry();
const walkOptions = { registry, maxFileSize: 1 << 20, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: true };
const PAST = Date.UTC(2020, 0, 1);

const trees: FixtureTree[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.cleanup();
});

/** The tree's fs with every file opened or read and every folder listed counted (by path). */
function counting(tree: FixtureTree): { fs: FileSystem; reads: string[] } {
  const reads: string[] = [];
  const raw = tree.fs as unknown as typeof nodeFs;
  const fs = new Proxy(raw, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'readFileSync' || property === 'openSync' || property === 'readdirSync') {
        return (...args: unknown[]) => {
          reads.push(`${String(property)} ${String(args[0])}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { fs: fs as unknown as FileSystem, reads };
}

/** Sets every file's and folder's mtime below (and of) the root to `ms`, `.git` included. */
function age(tree: FixtureTree, ms: number): void {
  const fs = tree.fs as unknown as typeof nodeFs;
  const visit = (path: string): void => {
    if (fs.lstatSync(path).isDirectory()) for (const name of fs.readdirSync(path) as string[]) visit(`${path}/${name}`);
    fs.utimesSync(path, new Date(ms), new Date(ms));
  };
  visit(tree.root);
}

const view = (s: Snapshot): unknown => ({
  key: s.key,
  mode: s.mode,
  files: s.walk.files.map((f) => [f.path, f.size, f.mtimeMs, f.language.id]),
  skipped: s.walk.skipped,
  unknown: [...s.walk.unknownExtensions],
  gitignored: s.walk.gitignored?.rules(),
});

const FILES = {
  'app/main.py': 'def main():\n    return 1\n',
  'app/util.py': 'def util():\n    return 2\n',
  'lib/deep/mod.py': 'def mod():\n    return 3\n',
  'gen/out.py': 'def generated():\n    pass\n',
  '.gitignore': 'gen/\n',
  'README.md': '# readme\n',
  'run': '#!/usr/bin/env python3\nprint(1)\n',
};

/** Changes a codebase sees, each applied to the tree in turn. */
const CHANGES: readonly [string, (t: FixtureTree) => void | Promise<void>][] = [
  ['a file edited (same size)', (t) => t.write('app/main.py', 'def main():\n    return 9\n')],
  ['a file edited (new size)', (t) => t.write('app/util.py', 'def util():\n    return 22\n')],
  ['a file added', (t) => t.write('lib/deep/new.py', 'def new():\n    pass\n')],
  ['a file removed', (t) => t.remove('lib/deep/mod.py')],
  ['a folder added', (t) => t.write('pkg/a.py', 'def a():\n    pass\n')],
  ['.gitignore edited', (t) => t.write('.gitignore', 'app/util.py\n')],
  ['a .gitignore added below', (t) => t.write('lib/.gitignore', '*.py\n')],
  ['a script gains a #! line', (t) => t.write('run', '#!/bin/sh\necho 1\n')],
  ['a manifest added (go.mod)', (t) => t.write('go.mod', 'module example.com/x\n')],
  ['an ignored folder gains a file', (t) => t.write('gen/more.py', 'def more():\n    pass\n')],
];

describe('snapshot memo', () => {
  for (const backend of BACKENDS) {
    for (const git of [false, true]) {
      it(`after every kind of change, agrees with a fresh walk (${backend}${git ? ', git' : ''})`, async () => {
        const tree = makeTree(backend, FILES);
        trees.push(tree);
        if (git) {
          await gitInit(tree);
          await gitCommitAll(tree);
        }
        const listings = new ListingCache({ memoizeSnapshots: true });
        let round = 0;
        const check = async (): Promise<Snapshot> => {
          const fresh = await computeSnapshot(new FsAdapter(tree.fs), tree.root, walkOptions);
          const { fs, reads } = counting(tree);
          const remembered = await computeSnapshot(new FsAdapter(fs), tree.root, { ...walkOptions, listings });
          expect(view(remembered)).toEqual(view(fresh));
          // Back-dated, the tree's answers are trusted: the next check replays them, reading nothing.
          age(tree, PAST + ++round * 10_000);
          const recorded = await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings });
          expect(listings.snapshotMemo).toBeDefined();
          const replay = counting(tree);
          const replayed = await computeSnapshot(new FsAdapter(replay.fs), tree.root, { ...walkOptions, listings });
          expect(replay.reads).toEqual([]);
          expect(view(replayed)).toEqual(view(recorded));
          return replayed;
        };
        let before = await check();
        for (const [what, change] of CHANGES) {
          await change(tree);
          const after = await check();
          expect(after.key, what).not.toBe(before.key);
          before = after;
        }
        if (git) {
          for (const [what, change] of [
            ['a commit', (t: FixtureTree) => gitCommitAll(t, 'second')],
            ['a staged edit', async (t: FixtureTree) => {
              t.write('app/main.py', 'def main():\n    return 7\n');
              await gitAdd(t, 'app/main.py');
            }],
          ] as const) {
            await change(tree);
            const after = await check();
            expect(after.key, what).not.toBe(before.key);
            before = after;
          }
        }
      });
    }
  }

  it('is made only for a cache that asks for it (indexes kept between processes)', async () => {
    const tree = makeTree('memfs', FILES);
    trees.push(tree);
    age(tree, PAST);
    const plain = new ListingCache();
    await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings: plain });
    expect(plain.snapshotMemo).toBeUndefined();
    const memoizing = new ListingCache({ memoizeSnapshots: true });
    await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings: memoizing });
    expect(memoizing.snapshotMemo).toBeDefined();
  });

  it('is not kept when the tree changed within the racy window (its listings or reads could be stale)', async () => {
    const tree = makeTree('memfs', FILES);
    trees.push(tree);
    const listings = new ListingCache({ memoizeSnapshots: true });
    await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings });
    expect(listings.snapshotMemo).toBeUndefined();
    age(tree, PAST);
    // Only the .gitignore is new: it is read, so no memo either.
    tree.write('.gitignore', 'gen/\n');
    await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings });
    expect(listings.snapshotMemo).toBeUndefined();
    age(tree, PAST);
    await computeSnapshot(new FsAdapter(tree.fs), tree.root, { ...walkOptions, listings });
    expect(listings.snapshotMemo).toBeDefined();
  });

  it('serves a later process from storage, and damaged or foreign memo bytes are ignored', async () => {
    const tree = makeTree('memfs', FILES);
    trees.push(tree);
    age(tree, PAST);
    const storage = new MemoryStorage();
    const options = { codebasePath: tree.root, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] };
    const built = await CKGDatabase.open({ ...options, fs: tree.fs });
    const memoKey = snapshotMemoKeyOf(built.storageKey!);
    built.close();
    const saved = await storage.get(memoKey);
    expect(saved).toBeInstanceOf(Uint8Array);

    // A new database, as a new process would open it: nothing is listed or read but the index.
    const second = counting(tree);
    const reused = await CKGDatabase.open({ ...options, fs: second.fs });
    expect(reused.origin).toBe('storage');
    expect(second.reads).toEqual([]);
    expect(reused.report?.unknownExtensions).toEqual({ '.md': 1 });
    reused.close();

    // A memo that names a file that is not there (tampered: the checksum catches it), a short
    // one, a foreign one: each is ignored, the walk runs and the answer is right.
    const text = new TextDecoder().decode(saved!.subarray(4));
    expect(text).toContain('app/util.py');
    const tampered = saved!.slice();
    tampered.set(new TextEncoder().encode(text.replace('app/util.py', 'app/utix.py')), 4);
    for (const bytes of [tampered, saved!.subarray(0, 3), new TextEncoder().encode('\0\0\0\0{"format":"other"}')]) {
      await storage.set(memoKey, bytes);
      const { fs, reads } = counting(tree);
      const db = await CKGDatabase.open({ ...options, fs });
      try {
        expect(reads.some((r) => r.startsWith('readdirSync'))).toBe(false); // the saved listings serve the walk
        expect(reads.some((r) => r.endsWith('.gitignore'))).toBe(true);
        expect(await db.queryFunction('util')).toHaveLength(1);
      } finally {
        db.close();
      }
    }

    // Without keepFolderListings nothing is kept beside the index.
    const alone = new MemoryStorage();
    (await CKGDatabase.open({ ...options, storage: alone, keepFolderListings: false, fs: tree.fs })).close();
    expect((await alone.list()).map((e) => e.key)).toHaveLength(1);
  });
});
