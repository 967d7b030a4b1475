// Damage detection for database bytes: a checksum sealed into the SQLite header when bytes are
// exported, and on open the SQLite structure, the schema and the rows' consistency, checked
// against a small declarative list. Damaged bytes give `CORRUPT_DATABASE` (which `open()` turns
// into a rebuild with a reason), never wrong answers or raw sql.js errors. docs/persistence.md
// has the costs.
import type { Database, SqlJsStatic } from 'sql.js';
import { CKGError } from '../errors.js';
import { SCHEMA_SQL } from './schema.js';

/**
 * What rows must agree on. Extend it when a table is added: every column that holds the id of a
 * row of another table (a file's, a symbol's) is listed with that table; every meta key a
 * database cannot be read without is listed.
 *
 * @example
 * ```ts
 * const rules: IntegrityRules = { references: [{ table: 'edges', column: 'from_id', target: 'symbols' }], requiredMeta: ['format'] };
 * ```
 */
export interface IntegrityRules {
  /**
   * `column` of every row of `table` must be the `id` of a row of `target` (default `files`);
   * NULL is allowed when `nullable`. With `pathColumn`, that row's `path` must equal it too.
   */
  readonly references: readonly {
    readonly table: string;
    readonly column: string;
    readonly target?: string;
    readonly nullable?: boolean;
    readonly pathColumn?: string;
  }[];
  /** `meta` keys that must be present. */
  readonly requiredMeta: readonly string[];
}

/**
 * The rules of the current schema.
 *
 * @example
 * ```ts
 * checkDatabase(SQL, db, INTEGRITY_RULES);
 * ```
 */
export const INTEGRITY_RULES: IntegrityRules = {
  references: [
    { table: 'symbols', column: 'file_id' },
    { table: 'symbols', column: 'parent_id', target: 'symbols', nullable: true },
    { table: 'bindings', column: 'file_id' },
    { table: 'sources', column: 'file_id' },
    { table: 'edges', column: 'from_id', target: 'symbols' },
    { table: 'edges', column: 'to_id', target: 'symbols', nullable: true },
    { table: 'edges', column: 'name_id', target: 'names' },
  ],
  requiredMeta: ['format', 'schema_version', 'bodies'],
};

// The seal: SQLite leaves two header fields to applications, the "user version" (4 bytes at
// offset 60) and the "application id" (4 bytes at 68). The application id says the bytes are
// sealed; the user version holds a 32-bit checksum of every byte of the file, those 4 counted
// as zero. SQLite itself ignores both, so sealed bytes stay a plain SQLite database.
const CHECKSUM_AT = 60;
const APPLICATION_ID_AT = 68;
/** `CKGW`: the application id of sealed ckg-wasm databases. */
const SEALED = 0x434b4757;
const HEADER_SIZE = 100;

/**
 * A 32-bit checksum, read a little-endian word at a time. Each step maps the state to a new one
 * bijectively for a given word, and two different words give two different states, so any
 * change confined to one 4-byte word (every single-bit flip) always changes the result; other
 * damage goes unnoticed with probability 2^-32.
 */
export function checksum(bytes: Uint8Array): number {
  const n = bytes.length;
  const words = n >>> 2;
  let h = 0x811c9dc5 ^ n;
  // Aligned views read words natively; SQLite files are whole pages, so a tail is rare.
  const aligned = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, words) : undefined;
  const view = aligned ? undefined : new DataView(bytes.buffer, bytes.byteOffset, n);
  for (let i = 0; i < words; i++) {
    h = Math.imul(h ^ (aligned ? aligned[i]! : view!.getUint32(i << 2, true)), 0x01000193);
    h ^= h >>> 15;
  }
  for (let i = words << 2; i < n; i++) {
    h = Math.imul(h ^ bytes[i]!, 0x01000193);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

function readU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function writeU32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

/** The checksum of `bytes` with the checksum field counted as zero (restored before returning). */
function sealChecksum(bytes: Uint8Array): number {
  const kept = readU32(bytes, CHECKSUM_AT);
  writeU32(bytes, CHECKSUM_AT, 0);
  try {
    return checksum(bytes);
  } finally {
    writeU32(bytes, CHECKSUM_AT, kept);
  }
}

/**
 * Seals exported database bytes in place: marks them and writes their checksum into the header.
 *
 * @example
 * ```ts
 * const bytes = sealDatabase(db.export());
 * ```
 */
export function sealDatabase(bytes: Uint8Array): Uint8Array {
  if (bytes.length < HEADER_SIZE) return bytes;
  writeU32(bytes, APPLICATION_ID_AT, SEALED);
  writeU32(bytes, CHECKSUM_AT, sealChecksum(bytes));
  return bytes;
}

/**
 * What the seal of `bytes` says: `'intact'` (sealed, checksum matches), `'damaged'` (sealed,
 * checksum differs) or `'unsealed'` (not written by a sealing ckg-wasm: only the checks of
 * {@link checkDatabase} can vouch for it).
 *
 * @example
 * ```ts
 * if (readSeal(bytes) === 'damaged') throw new CKGError('CORRUPT_DATABASE', 'checksum mismatch');
 * ```
 */
export function readSeal(bytes: Uint8Array): 'intact' | 'damaged' | 'unsealed' {
  if (bytes.length < HEADER_SIZE || readU32(bytes, APPLICATION_ID_AT) !== SEALED) return 'unsealed';
  return sealChecksum(bytes) === readU32(bytes, CHECKSUM_AT) ? 'intact' : 'damaged';
}

const corrupt = (message: string, cause?: unknown): CKGError =>
  new CKGError('CORRUPT_DATABASE', `Damaged database: ${message}`, {}, cause === undefined ? {} : { cause });

/** Table and view names with their column names, as a database defines them. */
function shapeOf(db: Database): Map<string, string> {
  const shape = new Map<string, string>();
  const objects = db.exec("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")[0]?.values ?? [];
  for (const [name, type] of objects) {
    const columns = db.exec(`PRAGMA table_info("${String(name).replace(/"/g, '""')}")`)[0]?.values.map((row) => String(row[1])) ?? [];
    shape.set(String(name), `${String(type)}(${columns.join(',')})`);
  }
  return shape;
}

let expectedShape: Map<string, string> | undefined;

/** The tables, views and columns of the current schema (read from a database created with it). */
function currentShape(SQL: SqlJsStatic): Map<string, string> {
  if (expectedShape === undefined) {
    const fresh = new SQL.Database();
    try {
      fresh.exec(SCHEMA_SQL);
      expectedShape = shapeOf(fresh);
    } finally {
      fresh.close();
    }
  }
  return expectedShape;
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Checks an opened database: the required meta keys; then, unless its seal is intact (the
 * bytes are exactly what a ckg-wasm of this schema exported), SQLite's own structure (`PRAGMA
 * quick_check`), every table and column of the current schema, and that every row belonging to
 * a file belongs to an indexed file. Throws `CORRUPT_DATABASE` saying what is wrong.
 *
 * @example
 * ```ts
 * const db = new SQL.Database(bytes);
 * checkDatabase(SQL, db, INTEGRITY_RULES, { sealIntact: readSeal(bytes) === 'intact' });
 * ```
 */
export function checkDatabase(SQL: SqlJsStatic, db: Database, rules: IntegrityRules = INTEGRITY_RULES, options: { readonly sealIntact?: boolean } = {}): void {
  try {
    if (options.sealIntact !== true) {
      const quick = db.exec('PRAGMA quick_check')[0]?.values.map((row) => String(row[0])) ?? [];
      if (quick.length !== 1 || quick[0] !== 'ok') throw corrupt(`quick_check: ${quick.slice(0, 3).join('; ')}`);
    }
    const meta = new Set((db.exec('SELECT key FROM meta')[0]?.values ?? []).map((row) => String(row[0])));
    for (const key of rules.requiredMeta) if (!meta.has(key)) throw corrupt(`meta.${key} is missing`);
    // Intact sealed bytes (of the current schema version, which the caller checked) are what
    // a ckg-wasm of this schema wrote and exported: the structure checks below vouch for bytes
    // nothing else vouches for, and cost a cached CLI call on Django 100-250 ms of its 250.
    if (options.sealIntact === true) return;
    const shape = shapeOf(db);
    for (const [name, expected] of currentShape(SQL)) {
      const found = shape.get(name);
      if (found !== expected) throw corrupt(found === undefined ? `${name} is missing` : `${name} is ${found}, expected ${expected}`);
    }
    for (const { table, column, target = 'files', nullable = false, pathColumn } of rules.references) {
      const c = `r.${quote(column)}`;
      let mismatch = pathColumn === undefined ? 't.id IS NULL' : `t.id IS NULL OR t.path IS NOT r.${quote(pathColumn)}`;
      if (nullable) mismatch = `${c} IS NOT NULL AND (${mismatch})`;
      const orphan = db.exec(`SELECT ${c} FROM ${quote(table)} r LEFT JOIN ${quote(target)} t ON t.id = ${c} WHERE ${mismatch} LIMIT 1`);
      if (orphan.length > 0) {
        throw corrupt(`${table}.${column} holds ${String(orphan[0]!.values[0]![0])}, which is not the id of a row of ${target}${pathColumn === undefined ? '' : ' (under that path)'}`);
      }
    }
  } catch (error) {
    if (error instanceof CKGError) throw error;
    // sql.js reports damage as errors (often bare strings) from any of the reads above.
    throw corrupt(error instanceof Error ? error.message : String(error), error);
  }
}
