import { syncIndex, type FileProcessor, type IndexReport, type ProgressEvent } from '../build/indexer.js';
import { DEFAULT_SKIPPED_DIRECTORIES, walkCodebase } from '../build/walker.js';
import { CKGError, tagCaller } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { isAbsolute, normalize } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import { createDefaultRegistry } from '../languages/index.js';
import { LanguageRegistry } from '../languages/registry.js';
import { extractSource } from '../parser/extract.js';
import { initSql, ParserPool, type WasmOptions } from '../parser/runtime.js';
import type { ClassEntry, FunctionEntry, FunctionKind } from './entries.js';
import { IndexStore } from './store.js';

/** Default size limit: larger files are skipped (and reported) as generated or data. @public */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/**
 * How to build or open an index.
 *
 * @public
 */
export interface IndexOptions {
  /** Where grammar and runtime wasm files come from (needed in browsers only). */
  readonly wasm?: WasmOptions;
  /** The languages to index: a registry, or ids picked from the built-in one. Default: all built-in. */
  readonly languages?: LanguageRegistry | readonly string[];
  /** Files larger than this many bytes are skipped and reported. Default 1 MiB. */
  readonly maxFileSize?: number;
  /** Folder names never descended into. Default {@link DEFAULT_SKIPPED_DIRECTORIES}. */
  readonly skipDirectories?: readonly string[];
  /** Globs (picomatch, relative to the codebase root) of paths to leave out. */
  readonly exclude?: readonly string[];
  /** Honour `.gitignore` files. Default true. */
  readonly respectGitignore?: boolean;
  /** Called as files are processed. */
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Aborts a build or update; the index is then left as it was. */
  readonly signal?: AbortSignal;
  /** Replaces in-thread parsing, e.g. with a worker pool (`ckg-wasm/node`'s `WorkerPool`). */
  readonly processor?: FileProcessor;
}

/**
 * Options of {@link CKGDatabase.open}.
 *
 * @public
 */
export interface OpenOptions extends IndexOptions {
  /** Absolute POSIX path of the codebase's root folder. */
  readonly codebasePath: string;
  /** The file system to read the codebase from: `node:fs`, a memfs volume, ... */
  readonly fs: FileSystem;
}

function resolveRegistry(languages: IndexOptions['languages']): LanguageRegistry {
  if (languages instanceof LanguageRegistry) return languages;
  const all = createDefaultRegistry();
  return languages === undefined ? all : all.subset(languages);
}

class LocalProcessor implements FileProcessor {
  constructor(private readonly pool: ParserPool) {}
  process(language: Parameters<FileProcessor['process']>[0], source: string): ReturnType<FileProcessor['process']> {
    return extractSource(this.pool, language, source);
  }
}

/**
 * A code knowledge graph of one codebase: functions, methods and classes in a SQLite database
 * (sql.js), answered by name.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { CKGDatabase } from 'ckg-wasm';
 *
 * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs });
 * const fns = await db.queryFunction('parse_config');          // top-level and nested functions
 * const methods = await db.queryFunction('render', 'class_method');
 * const classes = await db.queryClass('Widget');
 * const bytes = db.export();                                    // keep them anywhere
 * db.close();
 * ```
 * @public
 */
export class CKGDatabase {
  readonly #store: IndexStore;
  readonly #fs: FsAdapter | undefined;
  readonly #options: IndexOptions;
  readonly #registry: LanguageRegistry;
  #pool: ParserPool | undefined;
  #report: IndexReport | undefined;
  #updating: Promise<IndexReport> | undefined;

  /** Absolute POSIX path of the indexed codebase. */
  readonly codebasePath: string;

  private constructor(store: IndexStore, codebasePath: string, fs: FsAdapter | undefined, options: IndexOptions) {
    this.#store = store;
    this.codebasePath = codebasePath;
    this.#fs = fs;
    this.#options = options;
    this.#registry = resolveRegistry(options.languages);
  }

  /**
   * Indexes a codebase and returns its database. Throws `NOT_FOUND` / `NOT_A_DIRECTORY` for a
   * bad `codebasePath`, `INVALID_ARGUMENT` for a bad `fs`.
   */
  static async open(options: OpenOptions): Promise<CKGDatabase> {
    try {
      if (typeof options?.codebasePath !== 'string' || !isAbsolute(options.codebasePath)) {
        throw new CKGError('INVALID_ARGUMENT', `codebasePath must be an absolute POSIX path, got ${String(options?.codebasePath)}`);
      }
      const fs = new FsAdapter(options.fs);
      const root = normalize(options.codebasePath);
      await assertDirectory(fs, root);
      const SQL = await initSql(options.wasm ?? {});
      const store = IndexStore.create(SQL, { codebase_path: root });
      const db = new CKGDatabase(store, root, fs, options);
      try {
        await db.#sync();
      } catch (error) {
        db.close();
        throw error;
      }
      return db;
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.open');
    }
  }

  /**
   * Opens database bytes kept by a caller (from {@link CKGDatabase.export}). Give `fs` to be
   * able to {@link CKGDatabase.update} it. Throws `CORRUPT_DATABASE` or `SCHEMA_MISMATCH`.
   *
   * @example
   * ```ts
   * const db = await CKGDatabase.fromBytes(bytes, { fs });
   * ```
   */
  static async fromBytes(bytes: Uint8Array, options: IndexOptions & { readonly fs?: FileSystem; readonly codebasePath?: string } = {}): Promise<CKGDatabase> {
    try {
      if (!(bytes instanceof Uint8Array)) throw new CKGError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
      const SQL = await initSql(options.wasm ?? {});
      const store = IndexStore.open(SQL, bytes);
      const stored = store.getMeta('codebase_path') ?? '/';
      const root = options.codebasePath !== undefined ? normalize(options.codebasePath) : stored;
      return new CKGDatabase(store, root, options.fs ? new FsAdapter(options.fs) : undefined, options);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.fromBytes');
    }
  }

  /** What the last build or update did (undefined for a database opened from bytes). */
  get report(): IndexReport | undefined {
    return this.#report;
  }

  /** The languages this database indexes. */
  get languages(): LanguageRegistry {
    return this.#registry;
  }

  /**
   * Functions named exactly `name` (case-sensitive), ordered by file path then start line.
   * `'function'` returns rows without a parent class, `'class_method'` rows with one.
   */
  async queryFunction(name: string, kind: FunctionKind = 'function'): Promise<FunctionEntry[]> {
    try {
      if (typeof name !== 'string') throw new CKGError('INVALID_ARGUMENT', 'name must be a string');
      if (kind !== 'function' && kind !== 'class_method') throw new CKGError('INVALID_ARGUMENT', `kind must be 'function' or 'class_method', got ${String(kind)}`);
      return this.#store.queryFunctions(name, kind);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.queryFunction');
    }
  }

  /** Class-like definitions named exactly `name`, ordered by file path then start line. */
  async queryClass(name: string): Promise<ClassEntry[]> {
    try {
      if (typeof name !== 'string') throw new CKGError('INVALID_ARGUMENT', 'name must be a string');
      return this.#store.queryClasses(name);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.queryClass');
    }
  }

  /**
   * Re-reads the codebase and re-parses only files that were added or changed (size, mtime,
   * then content hash), removing rows of deleted files, in one transaction. Concurrent calls
   * share one run.
   */
  update(options: Pick<IndexOptions, 'onProgress' | 'signal'> = {}): Promise<IndexReport> {
    if (!this.#fs) {
      return Promise.reject(Object.assign(new CKGError('INVALID_ARGUMENT', 'This database was opened from bytes without fs: it cannot be updated'), { caller: 'CKGDatabase.update' }));
    }
    this.#updating ??= this.#sync(options).finally(() => {
      this.#updating = undefined;
    });
    return this.#updating.catch((error: unknown) => tagCaller(error, 'CKGDatabase.update'));
  }

  /** Counts of indexed files, functions and classes. */
  stats(): { files: number; functions: number; classes: number } {
    return this.#store.counts();
  }

  /** The SQLite database bytes. */
  export(): Uint8Array {
    try {
      return this.#store.export();
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.export');
    }
  }

  /** Frees the database and parsers. Idempotent. */
  close(): void {
    this.#store.close();
    const pool = this.#pool;
    this.#pool = undefined;
    void pool?.delete();
  }

  /** `using db = await CKGDatabase.open(…)` closes it at scope end. */
  [Symbol.dispose](): void {
    this.close();
  }

  get closed(): boolean {
    return this.#store.closed;
  }

  async #sync(overrides: Pick<IndexOptions, 'onProgress' | 'signal'> = {}): Promise<IndexReport> {
    const fs = this.#fs!;
    const options = { ...this.#options, ...overrides };
    if (this.#store.closed) throw new CKGError('CLOSED', 'The database is closed');
    await assertDirectory(fs, this.codebasePath);
    options.onProgress?.({ phase: 'scan', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 });
    const walk = await walkCodebase(fs, this.codebasePath, {
      registry: this.#registry,
      maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
      skipDirectories: options.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES,
      exclude: options.exclude ?? [],
      respectGitignore: options.respectGitignore ?? true,
    });
    let processor = options.processor;
    if (!processor) {
      this.#pool ??= new ParserPool(options.wasm ?? {});
      processor = new LocalProcessor(this.#pool);
    }
    this.#report = await syncIndex({
      fs,
      store: this.#store,
      walk,
      processor,
      onProgress: options.onProgress,
      signal: options.signal,
    });
    this.#store.setMeta({ languages: this.#registry.fingerprint() });
    return this.#report;
  }
}

async function assertDirectory(fs: FsAdapter, path: string): Promise<void> {
  const info = await fs.stat(path);
  if (!info) throw new CKGError('NOT_FOUND', `Codebase path ${path} does not exist`, { path });
  if (info.kind !== 'directory') throw new CKGError('NOT_A_DIRECTORY', `Codebase path ${path} is not a directory`, { path });
}
