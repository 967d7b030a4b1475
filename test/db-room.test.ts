// The database file grows in place when opened with room (src/db/room.ts): these tests run real
// sql.js and fail if its MEMFS stops adopting the array our bytes' `slice` hands it.
import { getHeapStatistics } from 'node:v8';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { roomFor, withRoom } from '../src/db/room.js';
import { CKGDatabase, MemoryStorage } from '../src/index.js';
import { makeTree } from './helpers/fixtures.js';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await initSqlJs();
});

/** A small database image, and an array that records what `slice` handed to sql.js. */
function seedImage(): Uint8Array {
  const seed = new SQL.Database();
  try {
    seed.run('PRAGMA journal_mode = OFF');
    seed.run('CREATE TABLE t (n INTEGER, s TEXT)');
    return seed.export();
  } finally {
    seed.close();
  }
}

/** Writes about `megabytes` MB of rows and returns the exported image. */
function fill(db: InstanceType<SqlJsStatic['Database']>, megabytes: number): Uint8Array {
  db.run('PRAGMA journal_mode = OFF');
  db.run('BEGIN');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
  try {
    const text = 'x'.repeat(100);
    for (let i = 0; i < megabytes * 10_000; i++) insert.run([i, text + i]);
  } finally {
    insert.free();
  }
  db.run('COMMIT');
  return db.export();
}

describe('database room', () => {
  it('sql.js writes every page into the array the room gave it, which never moves', () => {
    const image = seedImage();
    const given: Uint8Array[] = [];
    const bytes = withRoom(image, 64 * 2 ** 20);
    const slice = bytes.slice.bind(bytes);
    Object.defineProperty(bytes, 'slice', { value: (start?: number, end?: number) => given[given.push(slice(start, end)) - 1] });
    const db = new SQL.Database(bytes);
    let exported: Uint8Array;
    try {
      exported = fill(db, 8);
    } finally {
      db.close();
    }
    expect(given).toHaveLength(1);
    const file = given[0]!;
    expect(file.length).toBe(64 * 2 ** 20);
    expect(exported.length).toBeGreaterThan(8 * 2 ** 20);
    // Past the header (whose WAL bytes export rewrites), the file is the export, in our array:
    // had MEMFS outgrown it, the array would still hold only the seed's pages.
    const pageSize = 4096;
    expect(Buffer.compare(file.subarray(pageSize, exported.length), exported.subarray(pageSize))).toBe(0);
    expect(file.subarray(exported.length).every((b) => b === 0)).toBe(true);
    // The caller's bytes are untouched.
    expect(image.length).toBeLessThan(pageSize * 4);
  });

  it('opens the same database as plain bytes do, and the caller array is not changed', () => {
    const image = seedImage();
    const copy = image.slice();
    const plain = new SQL.Database(image);
    const roomy = new SQL.Database(withRoom(image, roomFor(image.length)));
    try {
      expect(Buffer.compare(fill(roomy, 1), fill(plain, 1))).toBe(0);
    } finally {
      plain.close();
      roomy.close();
    }
    expect(Buffer.compare(image, copy)).toBe(0);
  });

  it('falls back to smaller room, then to a plain copy, when the allocator refuses', () => {
    const image = seedImage();
    // Past the largest typed array V8 makes: every attempt down to 2^33 throws a RangeError.
    const db = new SQL.Database(withRoom(image, 2 ** 40));
    try {
      expect(fill(db, 1).length).toBeGreaterThan(2 ** 20);
    } finally {
      db.close();
    }
  });

  it('sizes room from the length and the limit', () => {
    expect(roomFor(0, 2 ** 31)).toBe(32 * 2 ** 20);
    expect(roomFor(100 * 2 ** 20, 2 ** 31)).toBe(200 * 2 ** 20);
    expect(roomFor(100 * 2 ** 20, 150 * 2 ** 20)).toBe(150 * 2 ** 20);
    expect(roomFor(300 * 2 ** 20, 150 * 2 ** 20)).toBe(300 * 2 ** 20);
  });

  it('an index built and updated with room reads back the same as one opened from its bytes', async () => {
    const { fs, root, write } = makeTree('memfs', { 'a.py': 'def f():\n    g()\n\ndef g():\n    pass\n' });
    const storage = new MemoryStorage();
    const db = await CKGDatabase.open({ codebasePath: root, fs, storage });
    try {
      write('b.py', 'from a import f\n\ndef h():\n    f()\n');
      await db.update();
      const reopened = await CKGDatabase.open({ codebasePath: root, fs, storage });
      try {
        expect(await reopened.edges({ kind: 'calls' })).toEqual(await db.edges({ kind: 'calls' }));
        expect((await reopened.edges({ kind: 'calls', to: 'a.f' })).map((e) => e.from.qualifiedName)).toEqual(['b.h']);
      } finally {
        await reopened.close();
      }
    } finally {
      await db.close();
    }
  });

  it('reserves room outside what V8 counts as external memory', async () => {
    // Counted, the 2 GB room of a fresh build made V8 pause the thread for a memory-reducing
    // full collection (80-180 ms on Django) as soon as the store was created.
    // Below the 64 MB jump that starts a collection, so that none frees other memory meanwhile.
    const image = seedImage();
    const before = getHeapStatistics().external_memory;
    const file = withRoom(image, 48 * 2 ** 20).slice(0);
    const counted = getHeapStatistics().external_memory - before;
    expect(file.length).toBe(48 * 2 ** 20);
    expect(counted).toBeLessThan(8 * 2 ** 20);
    // And a fresh index works in such room.
    const { fs, root } = makeTree('memfs', { 'a.py': 'def f():\n    pass\n' });
    const db = await CKGDatabase.open({ codebasePath: root, fs });
    try {
      expect(await db.queryFunction('f')).toHaveLength(1);
    } finally {
      await db.close();
    }
  });
});
