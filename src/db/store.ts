import { deflateSync, inflateSync } from 'fflate';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { decodeSource, textHash } from '../indexer/decode.js';
import { CKGError } from '../errors.js';
import type { ExtractedFile } from '../parser/extract.js';
import type { ClassEntry, FunctionEntry, FunctionKind } from './entries.js';
import { EDGE_KIND_CODES, FORMAT_NAME, INDEXES_SQL, LOOKUP_INDEXES_SQL, NAME_OF_EDGE, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';
import { checkDatabase, INTEGRITY_RULES, readSeal, sealDatabase } from './integrity.js';
import type { FileGraphRows } from '../graph/describe.js';
import { resolveGraph, type ResolutionStats } from '../graph/run.js';
import { baseFact, bindingIdentity, GraphChangeLog, symbolIdentity, type FileFacts } from '../graph/changes.js';
import { PendingSites } from '../graph/pending.js';
import { BODY_MODES, DEFAULT_BODY_MODE, type BodyMode } from './body-mode.js';
import type { DepsIndex } from '../graph/deps-index.js';

export { BODY_MODES, DEFAULT_BODY_MODE, type BodyMode } from './body-mode.js';

/**
 * Reads files for `'lazy'` bodies (the codebase's FileSystem): whole, or a byte range when the
 * file system can (`readRange` returns undefined when it cannot).
 *
 * @example
 * ```ts
 * store.setBodyReader({ read: (path) => fsAdapter.readBytes(path), readRange: (path, start, end) => fsAdapter.readRange(path, start, end) });
 * ```
 */
export interface BodyReader {
  read(path: string): Promise<Uint8Array>;
  readRange?(path: string, start: number, end: number): Uint8Array | undefined;
}

/**
 * What to do when a `'lazy'` body cannot be read back unchanged.
 *
 * @example
 * ```ts
 * const rows = await store.queryFunctions('main', 'function', 'throw');
 * ```
 */
export type StaleBodyPolicy = 'throw' | 'marker';

/**
 * Thrown by queries with the `'throw'` policy when a file changed (or vanished) since it was
 * indexed, so its bodies cannot be cut from it: the caller re-indexes and asks again.
 *
 * @example
 * ```ts
 * try {
 *   return await store.queryClasses('Widget', 'throw');
 * } catch (e) {
 *   if (e instanceof StaleBodyError) console.log('re-index', e.paths);
 *   throw e;
 * }
 * ```
 */
export class StaleBodyError extends Error {
  constructor(readonly paths: readonly string[]) {
    super(`Files changed since they were indexed: ${paths.join(', ')}`);
    this.name = 'StaleBodyError';
  }
}

/**
 * The body text given in place of a `'lazy'` body whose file changed since it was indexed and
 * could not be re-indexed (no file system, or it changed again meanwhile).
 *
 * @example
 * ```ts
 * staleBodyMarker('/repo/a.py'); // "[body unavailable: /repo/a.py changed since it was indexed; update the index]"
 * ```
 */
export function staleBodyMarker(path: string): string {
  return `[body unavailable: ${path} changed since it was indexed; update the index]`;
}

/**
 * The body text given in place of a `'lazy'` body when the index was opened without its files
 * (`CKGDatabase.fromBytes(bytes)` with no `fs`): such an index holds offsets, not text.
 *
 * @example
 * ```ts
 * unstoredBodyMarker('/repo/a.py'); // "[body not stored: this index keeps 'lazy' bodies (offsets into /repo/a.py); …]"
 * ```
 */
export function unstoredBodyMarker(path: string): string {
  return `[body not stored: this index keeps 'lazy' bodies (offsets into ${path}); open it with fs and codebasePath to read them from the files, or build it with bodies: 'compressed' to keep them in the database]`;
}

// Level 6 saves about 5 % of the bytes for 25 % more deflate time than level 1 (docs/bodies.md).
const DEFLATE_LEVEL = 1;

function isBodyMode(value: unknown): value is BodyMode {
  return typeof value === 'string' && (BODY_MODES as readonly string[]).includes(value);
}

/** One indexed file as recorded in the `files` table. */
export interface FileRecord {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly contentHash: string;
  readonly language: string;
  readonly extractorVersion: string;
}

// What a query needs to produce a body in any mode.
const BODY_COLUMNS = 'r.file_id, r.body_start, r.body_end, r.body_hash';

/** Where one result's body comes from. */
interface BodyLocation {
  readonly filePath: string;
  readonly text: string;
  readonly fileId: number;
  readonly start: number;
  readonly end: number;
  /** {@link textHash} of the body (`'lazy'` bodies), null in other modes. */
  readonly bodyHash: number | null;
}

interface StoreCounts {
  files: number;
  functions: number;
  classes: number;
  symbols: number;
  edges: number;
}

/** The meta key a write session keeps its counts in, as JSON: an opened index need not scan for them. */
const COUNTS_META = 'counts';

/** Edge kinds {@link StoreCounts.edges} leaves out (members and value uses). */
const UNCOUNTED_EDGES = `${EDGE_KIND_CODES.member_of}, ${EDGE_KIND_CODES.references}`;

function isCountedEdge(kind: number): boolean {
  return kind !== EDGE_KIND_CODES.member_of && kind !== EDGE_KIND_CODES.references;
}

/** Counts the rows (scans of symbols and edges: 10-20 ms on Django). */
function readCounts(db: Database): StoreCounts {
  const r = db.exec(
    `SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM symbols WHERE kind IN ('function', 'method')), (SELECT count(*) FROM symbols WHERE kind = 'class'),
            (SELECT count(*) FROM symbols), (SELECT count(*) FROM edges WHERE kind NOT IN (${UNCOUNTED_EDGES}))`,
  );
  const [files = 0, functions = 0, classes = 0, symbols = 0, edges = 0] = (r[0]?.values[0] ?? []).map(Number);
  return { files, functions, classes, symbols, edges };
}

/** Counts kept in meta, if well-formed. */
function parseCounts(text: string | undefined): StoreCounts | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const keys = ['files', 'functions', 'classes', 'symbols', 'edges'] as const;
    if (!keys.every((k) => Number.isSafeInteger(v[k]) && (v[k] as number) >= 0)) return undefined;
    return { files: v.files as number, functions: v.functions as number, classes: v.classes as number, symbols: v.symbols as number, edges: v.edges as number };
  } catch {
    return undefined;
  }
}

/**
 * The SQLite side of an index (sql.js). Owns the database handle and its statements; knows
 * nothing of files systems or parsing.
 */
export class IndexStore {
  readonly #db: Database;
  #queries = new Map<string, Statement>();
  #writer: WriteSession | undefined;
  #closed = false;
  #bodies: BodyMode = DEFAULT_BODY_MODE;
  #reader: BodyReader | undefined;
  /** The `files` table mirrored in memory (see {@link IndexStore.listFiles}), once read. */
  #files: Map<string, FileRecord> | undefined;
  #generation = 0;
  /** {@link IndexStore.counts} and {@link IndexStore.graphCounts} of committed generation `generation`. */
  #counts: { generation: number; value: StoreCounts } | undefined;
  /** Whether `meta.counts` can be believed: written by this store's commits, or in bytes with an intact seal. */
  #countsInMeta = false;
  /** What resolution passes keep between sessions (in step with the committed rows). */
  readonly #graphCache: { deps?: DepsIndex | undefined } = {};

  private constructor(db: Database) {
    this.#db = db;
  }

  /** A new, empty database with the current schema, keeping bodies as `bodies` says. */
  static create(SQL: SqlJsStatic, meta: Record<string, string> = {}, bodies: BodyMode = DEFAULT_BODY_MODE): IndexStore {
    if (!isBodyMode(bodies)) throw new CKGError('INVALID_ARGUMENT', `bodies must be one of ${BODY_MODES.join(', ')}, got ${String(bodies)}`);
    const store = new IndexStore(new SQL.Database());
    store.#db.run('PRAGMA journal_mode = OFF');
    store.#db.exec(SCHEMA_SQL);
    // The indexes are created when the first write session commits: a bulk load into
    // unindexed tables, then one index build, is cheaper than maintaining them row by row.
    store.setMeta({ format: FORMAT_NAME, schema_version: SCHEMA_VERSION, ...meta, bodies });
    store.#bodies = bodies;
    return store;
  }

  /** Counts committed write sessions: what a query keeps in memory is valid while it is unchanged. */
  get generation(): number {
    return this.#generation;
  }

  /** How this index keeps bodies (`meta.bodies`). */
  get bodies(): BodyMode {
    return this.#bodies;
  }

  /** Sets where `'lazy'` bodies are read from (the codebase's FileSystem). */
  setBodyReader(reader: BodyReader | undefined): void {
    this.#reader = reader;
  }

  /**
   * Opens database bytes. Throws `CORRUPT_DATABASE` for bytes that are not a ckg-wasm database
   * or are damaged (see src/db/integrity.ts) and `SCHEMA_MISMATCH` for another schema version.
   */
  static open(SQL: SqlJsStatic, bytes: Uint8Array): IndexStore {
    const seal = readSeal(bytes);
    if (seal === 'damaged') throw new CKGError('CORRUPT_DATABASE', 'Damaged database: the checksum of its bytes does not match', {});
    let db: Database;
    try {
      db = new SQL.Database(bytes);
    } catch (error) {
      throw new CKGError('CORRUPT_DATABASE', `Not a SQLite database: ${String(error)}`, {}, { cause: error });
    }
    const store = new IndexStore(db);
    try {
      const format = store.getMeta('format');
      if (format !== FORMAT_NAME) throw new Error('no ckg-wasm meta table');
    } catch (error) {
      store.close();
      if (error instanceof CKGError) throw error;
      throw new CKGError('CORRUPT_DATABASE', `Not a ckg-wasm database: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
    }
    const version = store.getMeta('schema_version');
    if (version !== SCHEMA_VERSION) {
      store.close();
      throw new CKGError('SCHEMA_MISMATCH', `Database schema ${String(version)} is not ${SCHEMA_VERSION}`, { found: version, expected: SCHEMA_VERSION });
    }
    const bodies = store.getMeta('bodies');
    if (!isBodyMode(bodies)) {
      store.close();
      throw new CKGError('CORRUPT_DATABASE', `Unknown body mode ${String(bodies)} in meta`, { bodies });
    }
    try {
      checkDatabase(SQL, db, INTEGRITY_RULES, { sealIntact: seal === 'intact' });
      store.#countsInMeta = seal === 'intact';
    } catch (error) {
      store.close();
      throw error;
    }
    store.#bodies = bodies;
    db.run('PRAGMA journal_mode = OFF');
    return store;
  }

  getMeta(key: string): string | undefined {
    this.#assertOpen();
    try {
      const rows = this.#db.exec('SELECT value FROM meta WHERE key = ?', [key]);
      const value = rows[0]?.values[0]?.[0];
      return typeof value === 'string' ? value : undefined;
    } catch (error) {
      throw new CKGError('CORRUPT_DATABASE', `Cannot read meta: ${String(error)}`, {}, { cause: error });
    }
  }

  setMeta(entries: Record<string, string>): void {
    this.#assertOpen();
    const stmt = this.#db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    try {
      for (const [k, v] of Object.entries(entries)) stmt.run([k, v]);
    } finally {
      stmt.free();
    }
  }

  /** Starts one transaction for many writes; `commit()` or `rollback()` ends it. */
  beginWrite(): WriteSession {
    this.#assertOpen();
    if (this.#writer) throw new CKGError('INVALID_ARGUMENT', 'A write session is already open');
    // The committed counts, when known without a scan: the session keeps them up to date.
    const kept = this.#counts?.generation === this.#generation ? this.#counts.value : undefined;
    const counts = kept ?? (this.#countsInMeta ? parseCounts(this.getMeta(COUNTS_META)) : undefined);
    this.#writer = new WriteSession(this.#db, this.#bodies, this.#files, this.#graphCache, counts, (committed) => {
      this.#writer = undefined;
      if (committed) {
        this.#generation++;
        this.#countsInMeta = true; // the session's commit wrote them
      }
      // A rolled-back session's index entries describe rows that are not there: read it again.
      else this.#graphCache.deps = undefined;
      // A rolled-back session may have changed the mirror: read it again when next needed.
      if (!committed) this.#files = undefined;
    });
    return this.#writer;
  }

  /**
   * The `files` table as records. Kept in memory after the first call and updated by every
   * write session: an update reads every record to compare stats, and reading them back from
   * sql.js cost 12 µs a row (11-17 ms on Django, a quarter of a one-file edit).
   */
  listFiles(): FileRecord[] {
    return [...this.fileRecords().values()];
  }

  /**
   * The `files` table by path: the in-memory mirror itself, which write sessions keep up to
   * date (a record is replaced when its file is written, deleted when it is removed). Read it,
   * never change it.
   */
  fileRecords(): ReadonlyMap<string, FileRecord> {
    this.#assertOpen();
    if (this.#files === undefined) {
      const files = new Map<string, FileRecord>();
      const stmt = this.#db.prepare('SELECT path, size, mtime_ms, content_hash, language, extractor_version FROM files');
      try {
        while (stmt.step()) {
          const [path, size, mtimeMs, contentHash, language, extractorVersion] = stmt.get();
          files.set(String(path), {
            path: String(path),
            size: Number(size),
            mtimeMs: Number(mtimeMs),
            contentHash: String(contentHash),
            language: String(language),
            extractorVersion: String(extractorVersion),
          });
        }
      } finally {
        stmt.free();
      }
      // A session already open does not mirror its writes into a map it never got: no cache then.
      if (this.#writer !== undefined) return files;
      this.#files = files;
    }
    return this.#files;
  }

  /** The line ranges of one file's functions and classes (grep names the definition around a hit). */
  definitionsIn(path: string): { readonly name: string; readonly parentClass: string | undefined; readonly startLine: number; readonly endLine: number }[] {
    const rows = this.#select(
      `SELECT s.name, s.parent_class, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE f.path = ? AND s.kind IN ('function', 'method', 'class')`,
      [path],
    );
    return rows.map(([name, parentClass, startLine, endLine]) => ({
      name: String(name),
      parentClass: parentClass === null ? undefined : String(parentClass),
      startLine: Number(startLine),
      endLine: Number(endLine),
    }));
  }

  /** Counts of rows, for reports and tests. */
  filesByLanguage(): Record<string, number> {
    this.#assertOpen();
    const r = this.#db.exec('SELECT language, count(*) FROM files GROUP BY language ORDER BY language');
    return Object.fromEntries((r[0]?.values ?? []).map(([language, n]) => [String(language), Number(n)]));
  }

  /** Indexed files, functions and methods, classes. */
  counts(): { files: number; functions: number; classes: number } {
    const { files, functions, classes } = this.#allCounts();
    return { files, functions, classes };
  }

  /** Symbols (definitions and modules) and the graph's public edges (calls, imports, inherits, implements). */
  graphCounts(): { symbols: number; edges: number } {
    const { symbols, edges } = this.#allCounts();
    return { symbols, edges };
  }

  /**
   * Every count, read once per committed state: they scan the symbols and edges tables (10-20 ms
   * on Django), and an update asks for them before and after it. Inside a write session they are
   * read afresh (its rows are not committed yet).
   */
  #allCounts(): StoreCounts {
    this.#assertOpen();
    const kept = this.#counts;
    if (this.#writer === undefined && kept?.generation === this.#generation) return kept.value;
    let value: StoreCounts | undefined;
    try {
      // A commit keeps the counts in meta; bytes whose seal vouches for them, and this store's
      // own commits, are believed; anything else is counted.
      if (this.#writer === undefined && this.#countsInMeta) value = parseCounts(this.getMeta(COUNTS_META));
      value ??= readCounts(this.#db);
    } catch (error) {
      if (error instanceof CKGError) throw error;
      throw new CKGError('CORRUPT_DATABASE', `Cannot count the index: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
    }
    if (this.#writer === undefined) this.#counts = { generation: this.#generation, value };
    return value;
  }

  /**
   * Functions named `name` of one kind, ordered by file path, start line and insertion order,
   * with their bodies. `onStale` decides what a `'lazy'` body of a changed file becomes: a
   * {@link StaleBodyError} (`'throw'`), or {@link staleBodyMarker} text (`'marker'`).
   */
  async queryFunctions(name: string, kind: FunctionKind, onStale: StaleBodyPolicy = 'marker'): Promise<FunctionEntry[]> {
    const where = kind === 'class_method' ? 'r.parent_class IS NOT NULL' : 'r.parent_class IS NULL';
    const rows = this.#select(
      `SELECT r.name, r.file_path, r.body, r.start_line, r.end_line, r.parent_function, r.parent_class, ${BODY_COLUMNS}, r.id
       FROM functions r WHERE r.name = ? AND ${where}`,
      [name],
    ).sort(byLocation(1, 3, 11));
    const bodies = await this.#bodiesOf(rows.map((row) => locate(row, 1, 2, 7)), onStale);
    return rows.map(([n, filePath, , startLine, endLine, parentFunction, parentClass], i) => ({
      name: String(n),
      filePath: String(filePath),
      body: bodies[i]!,
      startLine: Number(startLine),
      endLine: Number(endLine),
      ...(parentFunction === null ? {} : { parentFunction: String(parentFunction) }),
      ...(parentClass === null ? {} : { parentClass: String(parentClass) }),
    }));
  }

  /** Classes named `name`, ordered like {@link IndexStore.queryFunctions}, with their bodies. */
  async queryClasses(name: string, onStale: StaleBodyPolicy = 'marker'): Promise<ClassEntry[]> {
    const rows = this.#select(
      `SELECT r.name, r.file_path, r.body, r.fields, r.methods, r.start_line, r.end_line, ${BODY_COLUMNS}, r.id
       FROM classes r WHERE r.name = ?`,
      [name],
    ).sort(byLocation(1, 5, 11));
    const bodies = await this.#bodiesOf(rows.map((row) => locate(row, 1, 2, 7)), onStale);
    return rows.map(([n, filePath, , fields, methods, startLine, endLine], i) => ({
      name: String(n),
      filePath: String(filePath),
      body: bodies[i]!,
      ...(fields === null ? {} : { fields: String(fields) }),
      ...(methods === null ? {} : { methods: String(methods) }),
      startLine: Number(startLine),
      endLine: Number(endLine),
    }));
  }

  /**
   * The bodies of symbols by id (a module symbol's is ''), in the order asked; `onStale` as in
   * {@link IndexStore.queryFunctions}. For the graph queries' signature lines.
   */
  async symbolBodies(ids: readonly number[], onStale: StaleBodyPolicy = 'marker'): Promise<string[]> {
    const byId = new Map<number, BodyLocation>();
    const rows = this.#select(
      `SELECT r.id, f.path, r.body, ${BODY_COLUMNS} FROM symbols r JOIN files f ON f.id = r.file_id
        WHERE r.id IN (SELECT value FROM json_each(?)) AND r.kind <> 'module'`,
      [JSON.stringify(ids)],
    );
    for (const row of rows) byId.set(Number(row[0]), locate(row, 1, 2, 3));
    const locations = ids.map((id) => byId.get(id));
    const found = locations.filter((l): l is BodyLocation => l !== undefined);
    const bodies = await this.#bodiesOf(found, onStale);
    let k = 0;
    return locations.map((l) => (l === undefined ? '' : bodies[k++]!));
  }

  /**
   * The first `chars` characters of symbols' bodies by id, in `ids` order ('' for modules and
   * unknown ids): enough for a signature line without reading, decoding and copying whole
   * bodies out of the wasm heap (a dead-code answer of 800 functions: 50 → 8 ms). `'lazy'`
   * bodies are read whole, so that each is checked against its hash like any body.
   */
  async symbolHeads(ids: readonly number[], chars: number, onStale: StaleBodyPolicy = 'marker'): Promise<string[]> {
    if (this.#bodies === 'lazy') return (await this.symbolBodies(ids, onStale)).map((b) => b.slice(0, chars));
    const heads = new Map<number, string>();
    const sources = new Map<number, string>();
    const rows = this.#select(
      `SELECT r.id, substr(r.body, 1, ?), r.file_id, r.body_start, r.body_end FROM symbols r
        WHERE r.id IN (SELECT value FROM json_each(?)) AND r.kind <> 'module'`,
      [chars, JSON.stringify(ids)],
    );
    for (const [id, head, fileId, start, end] of rows) {
      if (this.#bodies === 'stored') {
        heads.set(Number(id), head === null ? '' : String(head));
      } else {
        let source = sources.get(Number(fileId));
        if (source === undefined) sources.set(Number(fileId), (source = this.#storedSource(Number(fileId))));
        heads.set(Number(id), source.slice(Number(start), Math.min(Number(end), Number(start) + chars)));
      }
    }
    return ids.map((id) => heads.get(id) ?? '');
  }

  /**
   * The bodies of query results. Each distinct file is decompressed or read once per query.
   * In `'lazy'` mode each body must hash to its recorded {@link textHash}: only the returned
   * bodies are decoded and hashed (from their own bytes when offsets are byte offsets), never
   * whole files, so a query's cost follows the size of its answer, not of the files it touches.
   */
  async #bodiesOf(locations: readonly BodyLocation[], onStale: StaleBodyPolicy): Promise<string[]> {
    if (this.#bodies === 'stored') return locations.map((l) => l.text);
    if (this.#bodies === 'compressed') {
      const sources = new Map<number, string>();
      return locations.map((l) => {
        let source = sources.get(l.fileId);
        if (source === undefined) sources.set(l.fileId, (source = this.#storedSource(l.fileId)));
        return source.slice(l.start, l.end);
      });
    }
    const files = new Map<number, { bytes: Uint8Array | undefined; text?: string }>();
    const stale = new Set<string>();
    const bodies: (string | undefined)[] = [];
    for (const l of locations) {
      let body: string | undefined;
      if (l.bodyHash !== null) {
        // Offsets count UTF-16 units of the decoded file. In ASCII files (most code) they are
        // byte offsets too, so the body is first decoded from its own bytes (read alone when
        // the file system can); the hash tells whether that was right. Otherwise the whole
        // file is read and decoded (once per query) and sliced.
        let file = files.get(l.fileId);
        const range = file === undefined ? this.#readRange(l.filePath, l.start, l.end) : file.bytes?.subarray(l.start, l.end);
        if (range !== undefined) body = decodeSource(range);
        if (body === undefined || textHash(body) !== l.bodyHash) {
          if (file === undefined) files.set(l.fileId, (file = { bytes: await this.#readBytes(l.filePath) }));
          body = file.bytes === undefined ? undefined : (file.text ??= decodeSource(file.bytes)).slice(l.start, l.end);
          if (body !== undefined && textHash(body) !== l.bodyHash) body = undefined;
        }
      }
      if (body === undefined) stale.add(l.filePath);
      bodies.push(body);
    }
    if (stale.size > 0 && onStale === 'throw') throw new StaleBodyError([...stale]);
    const marker = this.#reader === undefined ? unstoredBodyMarker : staleBodyMarker;
    return bodies.map((body, i) => body ?? marker(locations[i]!.filePath));
  }

  #storedSource(fileId: number): string {
    const rows = this.#select('SELECT data FROM sources WHERE file_id = ?', [fileId]);
    const data = rows[0]?.[0];
    if (!(data instanceof Uint8Array)) throw new CKGError('CORRUPT_DATABASE', `No stored source for file id ${fileId}`, { fileId });
    try {
      return decodeSource(inflateSync(data));
    } catch (error) {
      throw new CKGError('CORRUPT_DATABASE', `Stored source of file id ${fileId} does not inflate: ${String(error)}`, { fileId }, { cause: error });
    }
  }

  /** A file's bytes through the body reader, or undefined when there is none or it fails. */
  async #readBytes(path: string): Promise<Uint8Array | undefined> {
    if (!this.#reader) return undefined;
    try {
      return await this.#reader.read(path);
    } catch {
      return undefined;
    }
  }

  /** Part of a file through the body reader; undefined when it cannot read ranges or fails. */
  #readRange(path: string, start: number, end: number): Uint8Array | undefined {
    try {
      return this.#reader?.readRange?.(path, start, end);
    } catch {
      return undefined;
    }
  }

  /** The database bytes. */
  export(): Uint8Array {
    this.#assertOpen();
    // Some sql.js versions free prepared statements in export(): drop ours first.
    this.#freeQueries();
    return sealDatabase(this.#db.export());
  }

  close(): void {
    if (this.#closed) return;
    this.#writer?.rollback();
    this.#freeQueries();
    this.#db.close();
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Rows of a read-only query, through a cached prepared statement (for the query modules in
   * src/query, which own their SQL). The statement cache is dropped by export() and close().
   */
  rows(sql: string, params: SqlValue[] = []): SqlValue[][] {
    return this.#select(sql, params);
  }

  #select(sql: string, params: SqlValue[]): SqlValue[][] {
    this.#assertOpen();
    const out: SqlValue[][] = [];
    let stmt = this.#queries.get(sql);
    try {
      if (!stmt) {
        stmt = this.#db.prepare(sql);
        this.#queries.set(sql, stmt);
      }
      stmt.bind(params);
      while (stmt.step()) out.push(stmt.get());
    } catch (error) {
      // Damage that the checks on open could not see (they do not read every page).
      throw new CKGError('CORRUPT_DATABASE', `Cannot read the index: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
    } finally {
      stmt?.reset();
    }
    return out;
  }

  #freeQueries(): void {
    for (const stmt of this.#queries.values()) stmt.free();
    this.#queries = new Map();
  }

  #assertOpen(): void {
    if (this.#closed) throw new CKGError('CLOSED', 'The database is closed');
  }
}

/**
 * Orders query rows by path, then start line, then insertion (row id), as SQLite's
 * `ORDER BY file_path, start_line, id` would: paths by code point (the order of their UTF-8
 * bytes, SQLite's BINARY collation), not by UTF-16 unit. Sorting the few rows of an answer here
 * is cheaper than SQLite's sorter, which cost about half of a lookup.
 */
function byLocation(pathAt: number, lineAt: number, idAt: number): (a: SqlValue[], b: SqlValue[]) => number {
  return (a, b) =>
    compareCodePoints(String(a[pathAt]), String(b[pathAt])) || Number(a[lineAt]) - Number(b[lineAt]) || Number(a[idAt]) - Number(b[idAt]);
}

/** Compares strings by code point: UTF-16 order except that astral characters sort after U+E000–U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (0xD800–0xDFFF) stands for a code point ≥ 0x10000: above every other unit.
    const sx = x >= 0xd800 && x <= 0xdfff ? x + 0x10000 : x;
    const sy = y >= 0xd800 && y <= 0xdfff ? y + 0x10000 : y;
    return sx - sy;
  }
  return a.length - b.length;
}

/** A plain copy of a file record's fields (callers may pass objects with more). */
function recordOf(file: FileRecord): FileRecord {
  return {
    path: file.path,
    size: file.size,
    mtimeMs: file.mtimeMs,
    contentHash: file.contentHash,
    language: file.language,
    extractorVersion: file.extractorVersion,
  };
}

/** What a file's freshly described rows hold, for {@link GraphChangeLog} (ids from `base`). */
function writtenFacts(graph: FileGraphRows, base: number): FileFacts {
  const bases = new Map<number, string[]>();
  const imports: string[] = [];
  for (const e of graph.edges) {
    if (e.kind === EDGE_KIND_CODES.imports && e.from === 0) imports.push(e.toName);
    if (e.kind !== EDGE_KIND_CODES.inherits && e.kind !== EDGE_KIND_CODES.implements) continue;
    let list = bases.get(e.from);
    if (!list) bases.set(e.from, (list = []));
    list.push(baseFact(e.kind, e.toName, e.site));
  }
  const symbols = graph.symbols.map((s, k) => ({ id: base + k, identity: symbolIdentity(s.kind, s.qualifiedName, s.flags, bases.get(k) ?? []), name: s.name }));
  const bindings = graph.bindings.map((b) => ({
    identity: bindingIdentity(b.scope >= 0 ? graph.symbols[b.scope]!.qualifiedName : '', b.kind, b.name, b.module, b.member),
    names: b.member === null ? [b.name] : [b.name, b.member],
  }));
  return { symbols, bindings, moduleName: graph.symbols[0]?.name ?? '', moduleId: base, stars: graph.bindings.some((b) => b.kind === 'star'), imports: imports.sort().join('\n') };
}

/** Reads the body columns of a query row: path at `pathAt`, body at `bodyAt`, BODY_COLUMNS from `restAt`. */
function locate(row: SqlValue[], pathAt: number, bodyAt: number, restAt: number): BodyLocation {
  return {
    filePath: String(row[pathAt]),
    text: String(row[bodyAt]),
    fileId: Number(row[restAt]),
    start: Number(row[restAt + 1]),
    end: Number(row[restAt + 2]),
    bodyHash: row[restAt + 3] === null ? null : Number(row[restAt + 3]),
  };
}

/** One open transaction with its prepared insert statements. */
export class WriteSession {
  readonly #db: Database;
  readonly #bodies: BodyMode;
  readonly #onEnd: (committed: boolean) => void;
  /** The store's in-memory mirror of `files`, kept in step with every write (when loaded). */
  readonly #files: Map<string, FileRecord> | undefined;
  readonly #insertFile: Statement;
  readonly #insertSymbol: Statement;
  readonly #insertEdge: Statement;
  readonly #insertBinding: Statement;
  readonly #insertSource: Statement;
  readonly #fileId: Statement;
  readonly #oldSymbols: Statement;
  readonly #oldBindings: Statement;
  readonly #oldBases: Statement;
  readonly #oldImports: Statement;
  readonly #nameId: Statement;
  readonly #insertName: Statement;
  /** Ids of names written lately (most sites name what other sites nearby name too). */
  readonly #nameIds = new Map<string, number>();
  /** The session began on an empty index: its resolution pass resolves everything. */
  readonly #fromNothing: boolean;
  /** What this session changed, for its resolution pass. */
  readonly #changes = new GraphChangeLog();
  /**
   * A build's sites, inserted by its resolution pass (see PendingSites); dropped once that pass
   * has written them, so that the commit's index builds do not run beside them (the kernel's
   * 5.8 million sites: about 180 MB).
   */
  #pending: PendingSites | undefined;
  /** {@link WriteSession.resolveGraph} ran: a build's sites are written and may not grow. */
  #resolved = false;
  #nextSymbolId: number;
  #ended = false;

  readonly #graphCache: { deps?: DepsIndex | undefined };

  /**
   * The index's counts as this session changes them (from those before it, row by row), or
   * undefined when they were not known at its start: then the commit counts (a scan of symbols
   * and edges, 0.7 s on the kernel's 5.8 million edges).
   */
  readonly #counts: StoreCounts | undefined;
  readonly #fileCounts: Statement;
  readonly #fileEdgeCount: Statement;

  constructor(
    db: Database,
    bodies: BodyMode,
    files: Map<string, FileRecord> | undefined,
    graphCache: { deps?: DepsIndex | undefined },
    counts: StoreCounts | undefined,
    onEnd: (committed: boolean) => void,
  ) {
    this.#db = db;
    this.#graphCache = graphCache;
    this.#bodies = bodies;
    this.#files = files;
    this.#onEnd = onEnd;
    db.run('BEGIN');
    this.#insertFile = db.prepare(
      'INSERT INTO files (path, size, mtime_ms, content_hash, language, extractor_version) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#insertSymbol = db.prepare(
      `INSERT INTO symbols (id, kind, name, qualified_name, file_id, parent_id, start_line, end_line, parent_function, parent_class,
         fields, methods, body, body_start, body_end, body_hash, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertEdge = db.prepare('INSERT INTO edges (kind, from_id, to_id, name_id, line, resolution, site) VALUES (?, ?, NULL, ?, ?, ?, ?)');
    this.#nameId = db.prepare('SELECT id FROM names WHERE name = ?');
    this.#insertName = db.prepare('INSERT INTO names (name) VALUES (?) RETURNING id');
    this.#insertBinding = db.prepare('INSERT INTO bindings (file_id, scope_id, kind, name, module, member, line) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.#insertSource = db.prepare('INSERT INTO sources (file_id, data) VALUES (?, ?)');
    this.#fileId = db.prepare('SELECT id FROM files WHERE path = ?');
    this.#oldSymbols = db.prepare('SELECT id, kind, name, qualified_name, flags FROM symbols WHERE file_id = ? ORDER BY id');
    this.#oldBindings = db.prepare('SELECT (SELECT qualified_name FROM symbols WHERE id = b.scope_id), b.kind, b.name, b.module, b.member FROM bindings b WHERE b.file_id = ? ORDER BY b.id');
    this.#oldBases = db.prepare(
      `SELECT e.from_id, e.kind, ${NAME_OF_EDGE}, e.site FROM edges e JOIN symbols s ON s.id = e.from_id
       WHERE s.file_id = ? AND e.kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY e.id`,
    );
    // What a file included, for the files that see what it includes (C, C++).
    this.#oldImports = db.prepare(
      `SELECT ${NAME_OF_EDGE} FROM edges e JOIN symbols s ON s.id = e.from_id WHERE s.file_id = ? AND s.kind = 'module' AND e.kind = ${EDGE_KIND_CODES.imports}`,
    );
    const max = db.exec('SELECT max(id), (SELECT count(*) FROM files) FROM symbols')[0]?.values[0];
    this.#nextSymbolId = Number(max?.[0] ?? 0) + 1;
    this.#fromNothing = Number(max?.[1] ?? 0) === 0;
    this.#pending = this.#fromNothing ? new PendingSites() : undefined;
    // An index without files holds no symbol and no edge (edges come from symbols).
    this.#counts = this.#fromNothing ? { files: 0, functions: 0, classes: 0, symbols: 0, edges: 0 } : counts && { ...counts };
    this.#fileCounts = db.prepare("SELECT count(*), count(CASE WHEN kind IN ('function', 'method') THEN 1 END), count(CASE WHEN kind = 'class' THEN 1 END) FROM symbols WHERE file_id = ?");
    this.#fileEdgeCount = db.prepare(`SELECT count(*) FROM edges WHERE from_id IN (SELECT id FROM symbols WHERE file_id = ?) AND kind NOT IN (${UNCOUNTED_EDGES})`);
  }

  /** Removes a file and its rows (no-op when absent). */
  removeFile(path: string): void {
    if (this.#files !== undefined && !this.#files.has(path)) return; // the mirror knows it is absent
    const id = this.#lookup(path);
    if (id === undefined) return;
    // What the file held, to compare with what it holds once written again (or to count as gone).
    if (!this.#fromNothing) this.#changes.before(path, id, this.#storedFacts(id));
    const counts = this.#counts;
    if (counts) {
      const [symbols = 0, functions = 0, classes = 0] = (this.#all(this.#fileCounts, [id])[0] ?? []).map(Number);
      counts.files--;
      counts.symbols -= symbols;
      counts.functions -= functions;
      counts.classes -= classes;
      counts.edges -= Number(this.#all(this.#fileEdgeCount, [id])[0]?.[0] ?? 0);
    }
    this.#db.run('DELETE FROM edges WHERE from_id IN (SELECT id FROM symbols WHERE file_id = ?)', [id]);
    this.#db.run('DELETE FROM bindings WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM symbols WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM sources WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM files WHERE id = ?', [id]);
    this.#files?.delete(path);
  }

  /**
   * Replaces a file's record and rows with freshly extracted ones. `graph` is the file's graph
   * rows (describeFile). `bytes` (the file's content, which `file.contentHash` hashes) is
   * required by the `'compressed'` body mode.
   */
  putFile(file: FileRecord, extracted: ExtractedFile, graph: FileGraphRows, bytes?: Uint8Array): void {
    // A build's sites were resolved and written in one go: a file written after that would have
    // its edges neither resolved nor kept.
    if (this.#fromNothing && this.#resolved) throw new CKGError('INVALID_ARGUMENT', `putFile(${file.path}) after resolveGraph() in a build: write every file first`);
    this.removeFile(file.path);
    this.#insertFile.run([file.path, file.size, file.mtimeMs, file.contentHash, file.language, file.extractorVersion]);
    this.#files?.set(file.path, recordOf(file));
    const id = this.#lookup(file.path)!;
    // Only 'stored' pays for body text in SQLite: it dominates insert time and database size.
    const keepText = this.#bodies === 'stored';
    const lazy = this.#bodies === 'lazy';
    const base = this.#nextSymbolId;
    this.#nextSymbolId += graph.symbols.length;
    let lines = extracted.graph?.lineCount ?? 1;
    if (extracted.graph === undefined) for (const r of [...extracted.functions, ...extracted.classes]) lines = Math.max(lines, r.endLine);
    graph.symbols.forEach((sym, k) => {
      const parentId = sym.parent >= 0 ? base + sym.parent : null;
      if (sym.kind === 'module') {
        this.#insertSymbol.run([base + k, 'module', sym.name, sym.qualifiedName, id, null, 1, lines, null, null, null, null, '', 0, 0, null, sym.flags]);
      } else if (sym.kind === 'class') {
        const c = extracted.classes[sym.row]!;
        this.#insertSymbol.run([
          base + k, 'class', c.name, sym.qualifiedName, id, parentId, c.startLine, c.endLine, null, null, c.fields, c.methods,
          keepText ? c.body : '', c.bodyStart, c.bodyEnd, lazy ? (c.bodyHash ?? textHash(c.body)) : null, sym.flags,
        ]);
      } else {
        const f = extracted.functions[sym.row]!;
        this.#insertSymbol.run([
          base + k, sym.kind, f.name, sym.qualifiedName, id, parentId, f.startLine, f.endLine, f.parentFunction, f.parentClass, null, null,
          keepText ? f.body : '', f.bodyStart, f.bodyEnd, lazy ? (f.bodyHash ?? textHash(f.body)) : null, sym.flags,
        ]);
      }
    });
    const counts = this.#counts;
    if (counts) {
      counts.files++;
      counts.symbols += graph.symbols.length;
      for (const sym of graph.symbols) {
        if (sym.kind === 'class') counts.classes++;
        else if (sym.kind !== 'module') counts.functions++;
      }
      // A build's edges are counted as its resolution pass writes them.
      if (!this.#pending) for (const e of graph.edges) if (isCountedEdge(e.kind)) counts.edges++;
    }
    if (this.#pending) this.#pending.add(graph.edges, base);
    else for (const e of graph.edges) this.#insertEdge.run([e.kind, base + e.from, this.#nameIdOf(e.toName), e.line, e.resolution, e.site]);
    for (const b of graph.bindings) this.#insertBinding.run([id, b.scope >= 0 ? base + b.scope : null, b.kind, b.name, b.module, b.member, b.line]);
    if (!this.#fromNothing) this.#changes.after(file.path, id, writtenFacts(graph, base));
    if (this.#bodies === 'compressed' && (extracted.functions.length > 0 || extracted.classes.length > 0)) {
      if (!bytes) throw new CKGError('INVALID_ARGUMENT', `putFile(${file.path}) needs the file bytes in 'compressed' body mode`);
      this.#insertSource.run([id, deflateSync(bytes, { level: DEFLATE_LEVEL })]);
    }
  }

  /** Refreshes a file's record (new mtime, same content) without touching its rows. */
  touchFile(file: FileRecord): void {
    this.#db.run('UPDATE files SET size = ?, mtime_ms = ? WHERE path = ?', [file.size, file.mtimeMs, file.path]);
    const known = this.#files?.get(file.path);
    if (known !== undefined) this.#files!.set(file.path, { ...known, size: file.size, mtimeMs: file.mtimeMs });
  }

  /**
   * Resolves the edges this session's writes may have changed (all of them after a build from
   * nothing). Call once, after the last write and before {@link WriteSession.commit}.
   */
  resolveGraph(): ResolutionStats {
    // Lookups by name need these; the edge indexes wait for commit after a build (cheaper
    // than maintaining them through every edge's update). No-ops once they exist.
    this.#db.exec(this.#fromNothing ? LOOKUP_INDEXES_SQL : INDEXES_SQL);
    this.#changes.finish();
    const stats = resolveGraph(this.#db, this.#pending ? { build: this.#pending } : this.#changes, this.#graphCache);
    const pending = this.#pending;
    if (pending && this.#counts) for (let i = 0; i < pending.length; i++) if (isCountedEdge(pending.kind(i))) this.#counts.edges++;
    this.#pending = undefined;
    this.#resolved = true;
    return stats;
  }

  commit(): void {
    if (this.#ended) return;
    this.#freeStatements();
    try {
      this.#db.exec(INDEXES_SQL); // no-op once they exist
      // What the index now holds, kept with it: opening it again need not count.
      this.#db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [COUNTS_META, JSON.stringify(this.#counts ?? readCounts(this.#db))]);
      this.#db.run('COMMIT');
    } catch (error) {
      // Nothing of this session may stay half-applied: undo it, then report the failure.
      try {
        this.#db.run('ROLLBACK');
      } catch {
        // no transaction left to undo
      }
      this.#end(false);
      throw error;
    }
    this.#end(true);
  }

  rollback(): void {
    if (this.#ended) return;
    this.#freeStatements();
    try {
      this.#db.run('ROLLBACK');
    } finally {
      this.#end(false);
    }
  }

  #lookup(path: string): number | undefined {
    try {
      this.#fileId.bind([path]);
      return this.#fileId.step() ? Number(this.#fileId.get()[0]) : undefined;
    } finally {
      this.#fileId.reset();
    }
  }

  #all(stmt: Statement, params: SqlValue[]): SqlValue[][] {
    const out: SqlValue[][] = [];
    try {
      stmt.bind(params);
      while (stmt.step()) out.push(stmt.get());
    } finally {
      stmt.reset();
    }
    return out;
  }

  /** What a stored file holds, for {@link GraphChangeLog}. */
  #storedFacts(fileId: number): FileFacts {
    const bases = new Map<number, string[]>();
    for (const [from, kind, toName, site] of this.#all(this.#oldBases, [fileId])) {
      let list = bases.get(Number(from));
      if (!list) bases.set(Number(from), (list = []));
      list.push(baseFact(Number(kind), String(toName), site === null ? null : String(site)));
    }
    let moduleName = '';
    let moduleId = 0;
    const symbols = this.#all(this.#oldSymbols, [fileId]).map(([id, kind, name, qname, flags]) => {
      if (kind === 'module') {
        moduleName = String(name);
        moduleId = Number(id);
      }
      return { id: Number(id), identity: symbolIdentity(String(kind), String(qname), Number(flags), bases.get(Number(id)) ?? []), name: String(name) };
    });
    let stars = false;
    const bindings = this.#all(this.#oldBindings, [fileId]).map(([scope, kind, name, module, member]) => {
      if (kind === 'star') stars = true;
      return {
        identity: bindingIdentity(scope === null ? '' : String(scope), String(kind), String(name), module === null ? null : String(module), member === null ? null : String(member)),
        names: member === null ? [String(name)] : [String(name), String(member)],
      };
    });
    const imports = this.#all(this.#oldImports, [fileId]).map((r) => String(r[0])).sort().join('\n');
    return { symbols, bindings, moduleName, moduleId, stars, imports };
  }

  /** The `names` row of an edge's name, added when new. */
  #nameIdOf(name: string): number {
    let id = this.#nameIds.get(name);
    if (id !== undefined) return id;
    id = Number(this.#all(this.#nameId, [name])[0]?.[0] ?? this.#all(this.#insertName, [name])[0]![0]);
    // Bounded: an update of many files writes many names.
    if (this.#nameIds.size >= 50_000) this.#nameIds.clear();
    this.#nameIds.set(name, id);
    return id;
  }

  #freeStatements(): void {
    for (const s of [this.#insertFile, this.#insertSymbol, this.#insertEdge, this.#insertBinding, this.#insertSource, this.#fileId, this.#oldSymbols, this.#oldBindings, this.#oldBases, this.#oldImports, this.#nameId, this.#insertName, this.#fileCounts, this.#fileEdgeCount]) s.free();
  }

  #end(committed: boolean): void {
    this.#ended = true;
    this.#onEnd(committed);
  }
}
