// Damaged database bytes are detected when opened (a checksum sealed into the SQLite header,
// then SQLite's structure, the schema and the rows' consistency) and rebuilt with a reason:
// never a wrong answer, never a raw sql.js error.
import initSqlJs from 'sql.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, MemoryStorage } from '../src/index.js';
import { readSeal } from '../src/db/integrity.js';
import { makeTree } from './helpers/fixtures.js';

const SOURCES: Record<string, string> = {};
for (let i = 0; i < 12; i++) {
  SOURCES[`pkg/m${i}.py`] = `class Model${i}:\n    def save_${i}(self):\n        return ${i}\n\ndef helper_${i}(x):\n    return x + ${i}\n`;
}
const NAMES = Array.from({ length: 12 }, (_, i) => i);

/** Every answer the index gives for the names it holds (and one it does not). */
async function answers(db: CKGDatabase): Promise<string> {
  const out: unknown[] = [];
  for (const i of NAMES) {
    out.push(await db.queryFunction(`helper_${i}`), await db.queryFunction(`save_${i}`, 'class_method'), await db.queryClass(`Model${i}`));
  }
  out.push(await db.queryFunction('absent'), db.stats());
  return JSON.stringify(out);
}

/** `bytes` changed by SQL, as another tool writing the file would; `unseal` also drops the seal. */
async function rewritten(bytes: Uint8Array, sql: string, unseal: boolean): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const raw = new SQL.Database(bytes);
  try {
    raw.exec(sql);
    if (unseal) raw.exec('PRAGMA application_id = 0');
    return raw.export();
  } finally {
    raw.close();
  }
}

describe('damaged database bytes', () => {
  const tree = makeTree('memfs', SOURCES);
  const open = (bytes: Uint8Array) => CKGDatabase.fromBytes(bytes, { fs: tree.fs, codebasePath: tree.root, bodies: 'stored' });

  it('exports sealed bytes that stay a plain SQLite database', async () => {
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    try {
      const bytes = db.export();
      expect(readSeal(bytes)).toBe('intact');
      const SQL = await initSqlJs();
      const raw = new SQL.Database(bytes);
      expect(raw.exec('SELECT count(*) FROM functions')[0]!.values[0]![0]).toBe(24);
      raw.close();
    } finally {
      db.close();
    }
  });

  it('keeps its counts with the bytes: believed under an intact seal, counted again without one', async () => {
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    const counts = db.stats();
    const bytes = db.export();
    db.close();
    expect(counts).toMatchObject({ files: 12, functions: 24, classes: 12 });
    const SQL = await initSqlJs();
    const raw = new SQL.Database(bytes);
    expect(JSON.parse(String(raw.exec("SELECT value FROM meta WHERE key = 'counts'")[0]!.values[0]![0]))).toEqual(counts);
    raw.close();
    const reopened = await CKGDatabase.fromBytes(bytes);
    expect(reopened.stats()).toEqual(counts);
    reopened.close();
    // Counts another tool wrote into bytes it also changed (no seal then): never believed.
    const forged = await rewritten(bytes, `UPDATE meta SET value = '{"files":1,"functions":1,"classes":1,"symbols":1,"edges":1}' WHERE key = 'counts'`, true);
    const opened = await CKGDatabase.fromBytes(forged);
    expect(opened.stats()).toEqual(counts);
    opened.close();
  });

  it.each([
    ['DROP TABLE symbols', /symbols/],
    ['DROP VIEW classes', /classes is missing/],
    ['DELETE FROM files', /symbols\.file_id holds \d+, which is not the id of a row of files/],
    ['UPDATE symbols SET file_id = 999999 WHERE id = 3', /symbols\.file_id holds 999999, which is not the id of a row of files/],
    ['UPDATE symbols SET parent_id = 888888 WHERE id = 4', /symbols\.parent_id holds 888888, which is not the id of a row of symbols/],
    ['DELETE FROM meta WHERE key = \'bodies\'', /Unknown body mode undefined/],
    ['ALTER TABLE symbols ADD COLUMN extra TEXT', /symbols is table\(.*\), expected table\(/],
  ])('%s: the seal catches it; without the seal the checks do; open() rebuilds', async (sql, check) => {
    const built = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    const expected = await answers(built);
    const bytes = built.export();
    built.close();
    for (const unseal of [false, true]) {
      const damaged = await rewritten(bytes, sql, unseal);
      expect(readSeal(damaged)).toBe(unseal ? 'unsealed' : 'damaged');
      const error = await CKGDatabase.fromBytes(damaged).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CKGError);
      expect((error as CKGError).code).toBe('CORRUPT_DATABASE');
      expect((error as CKGError).message).toMatch(unseal ? check : /checksum of its bytes does not match/);
      // With the codebase at hand: rebuilt, with the reason, and right.
      const db = await open(damaged);
      try {
        expect(db.rebuildReason).toMatch(/^CORRUPT_DATABASE: /);
        expect(db.origin).toBe('built');
        expect(await answers(db)).toBe(expected);
      } finally {
        db.close();
      }
      // The same through storage.
      const storage = new MemoryStorage();
      const first = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored', storage });
      const key = first.storageKey!;
      first.close();
      await storage.set(key, damaged);
      const again = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored', storage });
      try {
        expect(again.rebuildReason).toMatch(/^CORRUPT_DATABASE: /);
        expect(await answers(again)).toBe(expected);
        expect(readSeal((await storage.get(key))!)).toBe('intact'); // the rebuilt bytes replaced them
      } finally {
        again.close();
      }
    }
  });

  it('any single-bit flip is either detected (rebuilt) or changes no answer', async () => {
    const built = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    const expected = await answers(built);
    const bytes = built.export();
    built.close();
    let detected = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length * 8 - 1 }), async (bit) => {
        runs++;
        const damaged = bytes.slice();
        damaged[bit >>> 3]! ^= 1 << (bit & 7);
        const db = await open(damaged);
        try {
          if (db.rebuildReason !== undefined) detected++;
          expect(await answers(db)).toBe(expected);
        } finally {
          db.close();
        }
      }),
      { numRuns: 60, seed: 13 },
    );
    // Only a flip in the 4 bytes that mark the seal can go unnoticed (the data is intact then).
    expect(detected).toBeGreaterThanOrEqual(runs - 1);
  });
});
