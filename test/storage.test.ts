import nodeFs, { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Volume } from 'memfs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CKGDatabase,
  CKGError,
  CKGTool,
  DEFAULT_STORAGE_MAX_AGE_MS,
  expireStorage,
  MemoryStorage,
  type ProgressEvent,
  type Storage,
} from '../src/index.js';
import { DirectoryStorage, defaultCacheDirectory, type DirectoryStorageFs } from '../src/node/index.js';
import { sealDatabase } from '../src/db/integrity.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';
import { gitCommitAll, gitInit } from './helpers/git.js';

const DAY = 24 * 60 * 60 * 1000;
const FILES = {
  'app.py': 'def parse_config(path):\n    return path\n\nclass Widget:\n    def render(self):\n        pass\n',
  'lib/util.py': 'def helper():\n    pass\n',
  'lib/more.py': 'def more():\n    pass\n',
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function tree(backend: (typeof BACKENDS)[number], files: Record<string, string> = FILES): FixtureTree {
  const t = makeTree(backend, files);
  cleanups.push(() => t.cleanup());
  return t;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ckg-storage-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A storage that counts calls, around a real one. */
function counting(inner: Storage): Storage & { gets: number; sets: number } {
  const s = {
    gets: 0,
    sets: 0,
    get: (k: string) => {
      s.gets++;
      return inner.get(k);
    },
    set: (k: string, b: Uint8Array) => {
      s.sets++;
      return inner.set(k, b);
    },
    delete: (k: string) => inner.delete(k),
    list: () => inner.list(),
  };
  return s;
}

/** The storages under test: in memory, and a folder on disk. */
function storages(): [string, () => Storage][] {
  return [
    ['MemoryStorage', () => new MemoryStorage()],
    ['DirectoryStorage', () => new DirectoryStorage({ directory: join(tempDir(), 'cache') })],
  ];
}

describe.each(BACKENDS)('CKGDatabase.open with storage (%s fs)', (backend) => {
  describe.each(storages())('%s', (_name, makeStorage) => {
    it('builds once, then reuses without parsing, then updates only what changed', async () => {
      const t = tree(backend);
      const storage = counting(makeStorage());
      const first = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
      expect(first.origin).toBe('built');
      expect(first.report?.filesParsed).toBe(3);
      expect(first.rebuildReason).toBeUndefined();
      expect(storage.sets).toBe(1);
      const key = first.storageKey!;
      expect(key).toMatch(/^ckg-[A-Za-z0-9_-]+-[0-9a-f]{32}$/);
      first.close();

      const again = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
      expect(again.origin).toBe('storage');
      expect(again.report?.filesParsed).toBe(0);
      expect(again.report?.filesIndexed).toBe(3);
      expect(again.storageKey).toBe(key);
      expect(storage.sets).toBe(1); // nothing new to store
      expect((await again.queryFunction('parse_config')).map((f) => f.filePath)).toEqual([`${t.root}/app.py`]);
      expect(await again.queryFunction('render', 'class_method')).toHaveLength(1);
      again.close();

      t.write('lib/util.py', 'def helper():\n    pass\n\ndef added_later():\n    pass\n');
      const updated = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
      expect(updated.origin).toBe('updated');
      expect(updated.report?.filesParsed).toBe(1);
      expect(await updated.queryFunction('added_later')).toHaveLength(1);
      expect(storage.sets).toBe(2);
      updated.close();

      const last = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
      expect(last.origin).toBe('storage');
      expect(await last.queryFunction('added_later')).toHaveLength(1);
      last.close();
    });
  });

  it('rebuilds over corrupt bytes and bytes of another schema version, and says why', async () => {
    const t = tree(backend);
    const storage = new MemoryStorage();
    const first = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    const key = first.storageKey!;
    const good = first.export();
    first.close();

    await storage.set(key, new TextEncoder().encode('definitely not SQLite'));
    const corrupt = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    expect(corrupt.origin).toBe('built');
    expect(corrupt.rebuildReason).toMatch(/^CORRUPT_DATABASE/);
    expect(await corrupt.queryFunction('helper')).toHaveLength(1);
    corrupt.close();
    // The rebuilt bytes replaced the corrupt ones.
    const healed = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    expect(healed.origin).toBe('storage');
    healed.close();

    // Truncated bytes: a crash mid-write of a naive storage.
    await storage.set(key, good.slice(0, Math.floor(good.length / 2)));
    const truncated = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    expect(truncated.origin).toBe('built');
    expect(truncated.rebuildReason).toMatch(/CORRUPT_DATABASE|SCHEMA_MISMATCH/);
    truncated.close();

    const { default: initSqlJs } = await import('sql.js');
    const SQL = await initSqlJs();
    const raw = new SQL.Database(good);
    raw.run("UPDATE meta SET value = '0' WHERE key = 'schema_version'");
    await storage.set(key, sealDatabase(raw.export())); // as another version would have written them
    raw.close();
    const old = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    expect(old.origin).toBe('built');
    expect(old.rebuildReason).toMatch(/^SCHEMA_MISMATCH/);
    expect(old.report?.filesParsed).toBe(3);
    old.close();
  });

  it('fromBytes with fs and codebasePath reuses, updates or rebuilds kept bytes', async () => {
    const t = tree(backend);
    const built = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs });
    const bytes = built.export();
    built.close();
    const reused = await CKGDatabase.fromBytes(bytes, { fs: t.fs, codebasePath: t.root });
    expect(reused.origin).toBe('storage');
    expect(reused.report?.filesParsed).toBe(0);
    reused.close();
    t.write('lib/more.py', 'def more():\n    return 1\n\ndef most():\n    pass\n');
    const updated = await CKGDatabase.fromBytes(bytes, { fs: t.fs, codebasePath: t.root });
    expect(updated.origin).toBe('updated');
    expect(updated.report?.filesParsed).toBe(1);
    expect(await updated.queryFunction('most')).toHaveLength(1);
    updated.close();
    const rebuilt = await CKGDatabase.fromBytes(new Uint8Array([1, 2, 3]), { fs: t.fs, codebasePath: t.root });
    expect(rebuilt.origin).toBe('built');
    expect(rebuilt.rebuildReason).toMatch(/^CORRUPT_DATABASE/);
    rebuilt.close();
    // Without fs there is nothing to rebuild from: the error is thrown.
    await expect(CKGDatabase.fromBytes(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 'CORRUPT_DATABASE' });
  });

  it('shares one build between concurrent opens of one codebase', async () => {
    const t = tree(backend);
    const storage = counting(new MemoryStorage());
    const parsed: string[] = [];
    const onProgress = (e: ProgressEvent): void => {
      if (e.phase === 'parse' && e.currentFile) parsed.push(e.currentFile);
    };
    const dbs = await Promise.all([1, 2, 3].map(() => CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage, onProgress })));
    try {
      expect(parsed.sort()).toEqual([`${t.root}/app.py`, `${t.root}/lib/more.py`, `${t.root}/lib/util.py`]);
      expect(storage.gets).toBe(1);
      expect(storage.sets).toBe(1);
      for (const db of dbs) {
        expect(db.origin).toBe('built');
        expect(await db.queryFunction('helper')).toHaveLength(1);
      }
      // Independent handles: closing one leaves the others usable.
      dbs[0]!.close();
      expect(await dbs[1]!.queryClass('Widget')).toHaveLength(1);
    } finally {
      for (const db of dbs) db.close();
    }
  });

  it('keeps working when the storage fails, and reports it', async () => {
    const t = tree(backend);
    const broken: Storage = {
      get: () => Promise.reject(new Error('disk on fire')),
      set: () => Promise.reject(new Error('disk full')),
      delete: () => Promise.resolve(),
      list: () => Promise.resolve([]),
    };
    const db = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage: broken });
    try {
      expect(db.origin).toBe('built');
      expect(db.rebuildReason).toMatch(/disk on fire/);
      expect(db.storageError).toBeInstanceOf(CKGError);
      expect(db.storageError?.code).toBe('STORAGE_ERROR');
      expect(db.storageError?.message).toMatch(/disk full/);
      expect(await db.queryFunction('helper')).toHaveLength(1);
    } finally {
      db.close();
    }
    await expect(CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage: {} as Storage })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('refresh() is a no-op when unchanged and updates and stores when changed', async () => {
    const t = tree(backend);
    const storage = counting(new MemoryStorage());
    const db = await CKGDatabase.open({ codebasePath: t.root, fs: t.fs, storage });
    try {
      const key = await db.snapshotKey();
      expect(await db.refresh()).toBeUndefined();
      expect(storage.sets).toBe(1);
      t.write('app.py', 'def parse_config(path):\n    return path\n\ndef renamed():\n    pass\n');
      expect(await db.snapshotKey()).not.toBe(key);
      const report = await db.refresh();
      expect(report?.filesParsed).toBe(1);
      expect(storage.sets).toBe(2);
      expect(await db.queryFunction('renamed')).toHaveLength(1);
      expect(await db.queryClass('Widget')).toHaveLength(0);
      expect(await db.refresh()).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('CKGTool with storage', () => {
  it.each(BACKENDS)('sees an edit made between two queries (%s), and reuses the stored index in a new tool', async (backend) => {
    const t = tree(backend);
    await gitInit(t);
    await gitCommitAll(t);
    const storage = counting(new MemoryStorage());
    const tool = new CKGTool({ fs: t.fs, storage });
    const ask = async (identifier: string): Promise<string> => {
      const r = await tool.execute({ command: 'search_function', path: t.root, identifier, print_body: false });
      if (!('output' in r)) throw new Error(r.error);
      return r.output;
    };
    expect(await ask('helper')).toMatch(/^Found 1 function/);
    expect(await ask('helper')).toMatch(/^Found 1 function/);
    expect(storage.sets).toBe(1); // the unchanged second query stored nothing
    t.write('lib/util.py', 'def helper_v2():\n    pass\n');
    expect(await ask('helper_v2')).toMatch(/^Found 1 function/);
    expect(await ask('helper')).not.toMatch(/^Found/);
    expect(storage.sets).toBe(2);
    await tool.close();

    const parsed: number[] = [];
    const next = new CKGTool({ fs: t.fs, storage, onProgress: (e) => e.phase === 'done' && parsed.push(e.filesDone) });
    expect((await next.execute({ command: 'search_class', path: t.root, identifier: 'Widget' })) ).toMatchObject({ output: expect.stringMatching(/Widget/) });
    expect(parsed).toEqual([]); // reused from storage: no build ran
    await next.close();
  });

  it('expires entries unused for 7 days when created', async () => {
    const t = tree('memfs');
    let now = Date.now() - 8 * DAY;
    const storage = new MemoryStorage({ now: () => now });
    await storage.set('ckg-old-0123', new Uint8Array([1]));
    now = Date.now() - 6 * DAY;
    await storage.set('ckg-fresh-0123', new Uint8Array([2]));
    now = Date.now();
    const tool = new CKGTool({ fs: t.fs, storage });
    await tool.execute({ command: 'search_function', path: t.root, identifier: 'helper' });
    const keys = (await storage.list()).map((e) => e.key).sort();
    expect(keys).not.toContain('ckg-old-0123');
    expect(keys).toContain('ckg-fresh-0123');
    expect(keys).toHaveLength(2); // plus the index the query built
    await tool.close();
  });
});

describe('expireStorage', () => {
  it('removes by last use, not by build time (MemoryStorage)', async () => {
    let now = 1_000_000_000_000;
    const storage = new MemoryStorage({ now: () => now });
    await storage.set('read-daily', new Uint8Array([1]));
    await storage.set('forgotten', new Uint8Array([2]));
    for (let day = 1; day <= 9; day++) {
      now += DAY;
      await storage.get('read-daily');
    }
    expect(await expireStorage(storage, { now })).toEqual(['forgotten']);
    expect((await storage.list()).map((e) => e.key)).toEqual(['read-daily']);
    expect(await expireStorage(storage, { now: now + DEFAULT_STORAGE_MAX_AGE_MS + 1 })).toEqual(['read-daily']);
    await expect(expireStorage(storage, { maxAgeMs: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('removes by last use (DirectoryStorage: get refreshes the mtime)', async () => {
    const dir = join(tempDir(), 'cache');
    const storage = new DirectoryStorage({ directory: dir });
    await storage.set('built-long-ago-read-today', new Uint8Array([1]));
    await storage.set('built-long-ago-unused', new Uint8Array([2]));
    const old = new Date(Date.now() - 30 * DAY);
    for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
    expect(await storage.get('built-long-ago-read-today')).toEqual(new Uint8Array([1]));
    expect((await expireStorage(storage)).sort()).toEqual(['built-long-ago-unused']);
    expect((await storage.list()).map((e) => e.key)).toEqual(['built-long-ago-read-today']);
  });
});

describe('DirectoryStorage', () => {
  it('round-trips bytes, lists keys with last use, deletes, and encodes unusual keys', async () => {
    const dir = join(tempDir(), 'nested', 'cache');
    const storage = new DirectoryStorage({ directory: dir });
    expect(await storage.list()).toEqual([]);
    expect(await storage.get('missing')).toBeUndefined();
    const odd = 'a/b\\c:..\u00e9 key';
    await storage.set('plain-key', new Uint8Array([1, 2, 3]));
    await storage.set(odd, new Uint8Array([4]));
    expect(await storage.get('plain-key')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await storage.get(odd)).toEqual(new Uint8Array([4]));
    expect(readdirSync(dir).every((n) => !n.includes('/') && n.endsWith('.db'))).toBe(true);
    const listed = await storage.list();
    expect(listed.map((e) => e.key).sort()).toEqual([odd, 'plain-key'].sort());
    expect(listed.every((e) => Math.abs(e.lastUsed - Date.now()) < 60_000)).toBe(true);
    await storage.delete(odd);
    await storage.delete('never-there');
    expect((await storage.list()).map((e) => e.key)).toEqual(['plain-key']);
    expect((nodeFs.statSync(dir).mode & 0o777).toString(8)).toBe('700');
  });

  it('writes atomically: no temp file left, and a failing write keeps the old bytes', async () => {
    const dir = join(tempDir(), 'cache');
    const ok = new DirectoryStorage({ directory: dir });
    await ok.set('k', new Uint8Array([1, 1, 1]));
    await ok.set('k', new Uint8Array([2, 2, 2, 2]));
    expect(readdirSync(dir)).toEqual(['k.db']);

    // A disk that fills up halfway through the write.
    const failing: DirectoryStorageFs = {
      ...fsp,
      open: (async (...args: Parameters<typeof fsp.open>) => {
        const handle = await fsp.open(...args);
        return Object.assign(Object.create(handle) as typeof handle, {
          writeFile: async (data: Uint8Array) => {
            await handle.write(data.subarray(0, data.length >> 1));
            throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
          },
          sync: () => handle.sync(),
          close: () => handle.close(),
        });
      }) as typeof fsp.open,
    };
    const full = new DirectoryStorage({ directory: dir, fs: failing });
    await expect(full.set('k', new Uint8Array(1000).fill(9))).rejects.toMatchObject({ code: 'STORAGE_ERROR' });
    expect(readdirSync(dir)).toEqual(['k.db']);
    expect(await ok.get('k')).toEqual(new Uint8Array([2, 2, 2, 2]));

    // A temp file left by a killed process is ignored by list() and removed once stale.
    writeFileSync(join(dir, '.k.db.999.abc.tmp'), 'half');
    expect((await ok.list()).map((e) => e.key)).toEqual(['k']);
    expect(readdirSync(dir)).toContain('.k.db.999.abc.tmp');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(dir, '.k.db.999.abc.tmp'), old, old);
    await ok.list();
    expect(readdirSync(dir)).toEqual(['k.db']);
  });

  it('works over a memfs volume and defaults to the user cache folder', async () => {
    const vol = Volume.fromJSON({});
    const storage = new DirectoryStorage({ directory: '/cache/ckg', fs: vol.promises as unknown as DirectoryStorageFs });
    await storage.set('k', new Uint8Array([7]));
    expect(await storage.get('k')).toEqual(new Uint8Array([7]));
    expect(vol.readdirSync('/cache/ckg')).toEqual(['k.db']);
    expect(defaultCacheDirectory({ XDG_CACHE_HOME: '/x/cache' }, 'linux')).toBe('/x/cache/ckg-wasm');
    expect(defaultCacheDirectory({}, 'linux')).toMatch(/\/\.cache\/ckg-wasm$/);
    expect(new DirectoryStorage().directory).toBe(defaultCacheDirectory());
  });
});
