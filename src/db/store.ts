import { inflateSync } from 'fflate';
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { decodeSource, textHash } from '../indexer/decode.js';
import { CKGError } from '../errors.js';
import type { ClassEntry, FunctionEntry, FunctionKind } from './entries.js';
import { freshRoom, roomFor, withRoom } from './room.js';
import { EDGE_KIND_CODES, FORMAT_NAME, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';
import { checkDatabase, INTEGRITY_RULES, readSeal, sealDatabase } from './integrity.js';
import { allRows } from './rows.js';
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

/** @internal The index's row counts (kept in meta, and by a write session row by row). */
export interface StoreCounts {
  files: number;
  functions: number;
  classes: number;
  symbols: number;
  edges: number;
}

/** The meta key a write session keeps its counts in, as JSON: an opened index need not scan for them. */
export const COUNTS_META = 'counts';

/** Edge kinds {@link StoreCounts.edges} leaves out (members and value uses). */
export const UNCOUNTED_EDGES = `${EDGE_KIND_CODES.member_of}, ${EDGE_KIND_CODES.references}`;

export function isCountedEdge(kind: number): boolean {
  return kind !== EDGE_KIND_CODES.member_of && kind !== EDGE_KIND_CODES.references;
}

/** Counts the rows (scans of symbols and edges: 10-20 ms on Django). */
export function readCounts(db: Database): StoreCounts {
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
 * The rollback journal in memory, next to the database (a sql.js database is a file of its
 * in-memory file system: a journal file there would only add copies). Never OFF: without a
 * journal, a ROLLBACK after SQLite's page cache spilled pages of the transaction into the file
 * leaves them there, and an update that was aborted or failed after writing a few megabytes
 * left a half-written, malformed index (test/rollback.test.ts). A build into a new database
 * journals almost nothing: pages past the file's size at the start are not journaled.
 */
function keepJournalInMemory(db: Database): void {
  db.run('PRAGMA journal_mode = MEMORY');
}

/**
 * @internal What a write session is made of: the store's handle and the state it keeps in step
 * (see {@link IndexStore.openWriter}).
 */
export interface WriterParts {
  readonly db: Database;
  readonly bodies: BodyMode;
  /** The store's in-memory mirror of `files`, when loaded. */
  readonly files: Map<string, FileRecord> | undefined;
  readonly graphCache: { deps?: DepsIndex | undefined };
  /** The committed counts, when known without a scan. */
  readonly counts: StoreCounts | undefined;
  readonly onEnd: (committed: boolean) => void;
}

/**
 * The SQLite side of an index (sql.js). Owns the database handle and its statements; knows
 * nothing of files systems or parsing.
 */
export class IndexStore {
  readonly #db: Database;
  #queries = new Map<string, Statement>();
  #writer: { rollback(): void } | undefined;
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
    // The schema goes into a scratch database whose bytes then open with room to grow (an empty
    // image has no bytes for MEMFS to adopt).
    const scratch = new SQL.Database();
    let image: Uint8Array;
    try {
      scratch.run('PRAGMA journal_mode = OFF');
      scratch.exec(SCHEMA_SQL);
      image = scratch.export();
    } finally {
      scratch.close();
    }
    const store = new IndexStore(new SQL.Database(withRoom(image, freshRoom())));
    keepJournalInMemory(store.#db);
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
   * Opens database bytes (`seal`: their {@link readSeal}, when already read). Throws `CORRUPT_DATABASE` for bytes that are not a ckg-wasm database
   * or are damaged (see src/db/integrity.ts) and `SCHEMA_MISMATCH` for another schema version.
   */
  static open(SQL: SqlJsStatic, bytes: Uint8Array, seal: ReturnType<typeof readSeal> = readSeal(bytes)): IndexStore {
    if (seal === 'damaged') throw new CKGError('CORRUPT_DATABASE', 'Damaged database: the checksum of its bytes does not match', {});
    let db: Database;
    try {
      db = new SQL.Database(withRoom(bytes, roomFor(bytes.length)));
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
    keepJournalInMemory(db);
    return store;
  }

  getMeta(key: string): string | undefined {
    this.#assertOpen();
    // One prepared statement for every key (an open and its check read a dozen).
    const value = this.#select('SELECT value FROM meta WHERE key = ?', [key])[0]?.[0];
    return typeof value === 'string' ? value : undefined;
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

  /**
   * Starts the one write session a store may have at a time: `create` makes it from the store's
   * parts (see `beginWrite` in write-session.ts: the write path lives there, so a store opened
   * only to answer queries never loads the graph resolution), and calls `parts.onEnd` when it
   * commits or rolls back.
   */
  openWriter<T extends { rollback(): void }>(create: (parts: WriterParts) => T): T {
    this.#assertOpen();
    if (this.#writer) throw new CKGError('INVALID_ARGUMENT', 'A write session is already open');
    // The committed counts, when known without a scan: the session keeps them up to date.
    const kept = this.#counts?.generation === this.#generation ? this.#counts.value : undefined;
    const counts = kept ?? (this.#countsInMeta ? parseCounts(this.getMeta(COUNTS_META)) : undefined);
    const writer = create({
      db: this.#db,
      bodies: this.#bodies,
      files: this.#files,
      graphCache: this.#graphCache,
      counts,
      onEnd: (committed) => {
        this.#writer = undefined;
        if (committed) {
          this.#generation++;
          this.#countsInMeta = true; // the session's commit wrote them
        }
        // A rolled-back session's index entries describe rows that are not there: read it again.
        else this.#graphCache.deps = undefined;
        // A rolled-back session may have changed the mirror: read it again when next needed.
        if (!committed) this.#files = undefined;
      },
    });
    this.#writer = writer;
    return writer;
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
    try {
      let stmt = this.#queries.get(sql);
      if (!stmt) {
        stmt = this.#db.prepare(sql);
        this.#queries.set(sql, stmt);
      }
      return allRows(stmt, params);
    } catch (error) {
      // Damage that the checks on open could not see (they do not read every page).
      throw new CKGError('CORRUPT_DATABASE', `Cannot read the index: ${error instanceof Error ? error.message : String(error)}`, {}, { cause: error });
    }
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

