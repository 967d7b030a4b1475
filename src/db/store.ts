import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { CKGError } from '../errors.js';
import type { ExtractedFile } from '../parser/extract.js';
import type { ClassEntry, FunctionEntry, FunctionKind } from './entries.js';
import { FORMAT_NAME, INDEXES_SQL, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';

/** One indexed file as recorded in the `files` table. */
export interface FileRecord {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly contentHash: string;
  readonly language: string;
  readonly extractorVersion: string;
}

const FUNCTION_COLUMNS = 'name, file_path, body, start_line, end_line, parent_function, parent_class';
const CLASS_COLUMNS = 'name, file_path, body, fields, methods, start_line, end_line';

/**
 * The SQLite side of an index (sql.js). Owns the database handle and its statements; knows
 * nothing of files systems or parsing.
 */
export class IndexStore {
  readonly #db: Database;
  #queries = new Map<string, Statement>();
  #writer: WriteSession | undefined;
  #closed = false;

  private constructor(db: Database) {
    this.#db = db;
  }

  /** A new, empty database with the current schema. */
  static create(SQL: SqlJsStatic, meta: Record<string, string> = {}): IndexStore {
    const store = new IndexStore(new SQL.Database());
    store.#db.run('PRAGMA journal_mode = OFF');
    store.#db.exec(SCHEMA_SQL);
    store.#db.exec(INDEXES_SQL);
    store.setMeta({ format: FORMAT_NAME, schema_version: SCHEMA_VERSION, ...meta });
    return store;
  }

  /**
   * Opens database bytes. Throws `CORRUPT_DATABASE` for bytes that are not a ckg-wasm database
   * and `SCHEMA_MISMATCH` for another schema version.
   */
  static open(SQL: SqlJsStatic, bytes: Uint8Array): IndexStore {
    let db: Database;
    try {
      db = new SQL.Database(bytes);
    } catch (error) {
      throw new CKGError('CORRUPT_DATABASE', `Not a SQLite database: ${String(error)}`, {}, { cause: error });
    }
    const store = new IndexStore(db);
    try {
      const quick = db.exec('PRAGMA quick_check');
      if (quick[0]?.values[0]?.[0] !== 'ok') throw new Error(`quick_check: ${String(quick[0]?.values[0]?.[0])}`);
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
    this.#writer = new WriteSession(this.#db, () => {
      this.#writer = undefined;
    });
    return this.#writer;
  }

  listFiles(): FileRecord[] {
    this.#assertOpen();
    const out: FileRecord[] = [];
    const stmt = this.#db.prepare('SELECT path, size, mtime_ms, content_hash, language, extractor_version FROM files');
    try {
      while (stmt.step()) {
        const [path, size, mtimeMs, contentHash, language, extractorVersion] = stmt.get();
        out.push({
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
    return out;
  }

  /** Counts of rows, for reports and tests. */
  counts(): { files: number; functions: number; classes: number } {
    this.#assertOpen();
    const r = this.#db.exec('SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM functions), (SELECT count(*) FROM classes)');
    const [files, functions, classes] = (r[0]?.values[0] ?? [0, 0, 0]).map(Number);
    return { files: files ?? 0, functions: functions ?? 0, classes: classes ?? 0 };
  }

  queryFunctions(name: string, kind: FunctionKind): FunctionEntry[] {
    const where = kind === 'class_method' ? 'parent_class IS NOT NULL' : 'parent_class IS NULL';
    const rows = this.#select(`SELECT ${FUNCTION_COLUMNS} FROM functions WHERE name = ? AND ${where} ORDER BY file_path, start_line, id`, [name]);
    return rows.map(([n, filePath, body, startLine, endLine, parentFunction, parentClass]) => ({
      name: String(n),
      filePath: String(filePath),
      body: String(body),
      startLine: Number(startLine),
      endLine: Number(endLine),
      ...(parentFunction === null ? {} : { parentFunction: String(parentFunction) }),
      ...(parentClass === null ? {} : { parentClass: String(parentClass) }),
    }));
  }

  queryClasses(name: string): ClassEntry[] {
    const rows = this.#select(`SELECT ${CLASS_COLUMNS} FROM classes WHERE name = ? ORDER BY file_path, start_line, id`, [name]);
    return rows.map(([n, filePath, body, fields, methods, startLine, endLine]) => ({
      name: String(n),
      filePath: String(filePath),
      body: String(body),
      ...(fields === null ? {} : { fields: String(fields) }),
      ...(methods === null ? {} : { methods: String(methods) }),
      startLine: Number(startLine),
      endLine: Number(endLine),
    }));
  }

  /** The database bytes. */
  export(): Uint8Array {
    this.#assertOpen();
    // Some sql.js versions free prepared statements in export(): drop ours first.
    this.#freeQueries();
    return this.#db.export();
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

  #select(sql: string, params: SqlValue[]): SqlValue[][] {
    this.#assertOpen();
    let stmt = this.#queries.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#queries.set(sql, stmt);
    }
    const out: SqlValue[][] = [];
    try {
      stmt.bind(params);
      while (stmt.step()) out.push(stmt.get());
    } finally {
      stmt.reset();
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

/** One open transaction with its prepared insert statements. */
export class WriteSession {
  readonly #db: Database;
  readonly #onEnd: () => void;
  readonly #insertFile: Statement;
  readonly #insertFunction: Statement;
  readonly #insertClass: Statement;
  readonly #fileId: Statement;
  #ended = false;

  constructor(db: Database, onEnd: () => void) {
    this.#db = db;
    this.#onEnd = onEnd;
    db.run('BEGIN');
    this.#insertFile = db.prepare(
      'INSERT INTO files (path, size, mtime_ms, content_hash, language, extractor_version) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#insertFunction = db.prepare(
      `INSERT INTO functions (${FUNCTION_COLUMNS}, file_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertClass = db.prepare(`INSERT INTO classes (${CLASS_COLUMNS}, file_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.#fileId = db.prepare('SELECT id FROM files WHERE path = ?');
  }

  /** Removes a file and its rows (no-op when absent). */
  removeFile(path: string): void {
    const id = this.#lookup(path);
    if (id === undefined) return;
    this.#db.run('DELETE FROM functions WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM classes WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM files WHERE id = ?', [id]);
  }

  /** Replaces a file's record and rows with freshly extracted ones. */
  putFile(file: FileRecord, extracted: ExtractedFile): void {
    this.removeFile(file.path);
    this.#insertFile.run([file.path, file.size, file.mtimeMs, file.contentHash, file.language, file.extractorVersion]);
    const id = this.#lookup(file.path)!;
    for (const f of extracted.functions) {
      this.#insertFunction.run([f.name, file.path, f.body, f.startLine, f.endLine, f.parentFunction, f.parentClass, id]);
    }
    for (const c of extracted.classes) {
      this.#insertClass.run([c.name, file.path, c.body, c.fields, c.methods, c.startLine, c.endLine, id]);
    }
  }

  /** Refreshes a file's record (new mtime, same content) without touching its rows. */
  touchFile(file: FileRecord): void {
    this.#db.run('UPDATE files SET size = ?, mtime_ms = ? WHERE path = ?', [file.size, file.mtimeMs, file.path]);
  }

  commit(): void {
    if (this.#ended) return;
    this.#end();
    this.#db.run('COMMIT');
  }

  rollback(): void {
    if (this.#ended) return;
    this.#end();
    this.#db.run('ROLLBACK');
  }

  #lookup(path: string): number | undefined {
    try {
      this.#fileId.bind([path]);
      return this.#fileId.step() ? Number(this.#fileId.get()[0]) : undefined;
    } finally {
      this.#fileId.reset();
    }
  }

  #end(): void {
    this.#ended = true;
    for (const s of [this.#insertFile, this.#insertFunction, this.#insertClass, this.#fileId]) s.free();
    this.#onEnd();
  }
}
