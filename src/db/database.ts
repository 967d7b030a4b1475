import { platform } from '#platform';
import type { WalkFeed } from '../indexer/indexer.js';
import type { IndexReport } from '../indexer/report.js';
import { DEFAULT_SKIPPED_DIRECTORIES, ListingCache, walkCodebase, type SkippedFile, type SourceFile, type WalkOptions, type WalkResult } from '../indexer/walker.js';
import { reportExclusions } from '../indexer/gitignored.js';
import { adoptSavedListings, saveListings } from '../indexer/saved-listings.js';
import { CKGError, tagCaller } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { basename, isAbsolute, isWindowsPath, join, normalize, relativeInside, toSlashes } from '../fs/path.js';
import type { NamingContext } from '../graph/strategy.js';
import type { ManifestReader } from '../graph/manifests.js';
import type { FileSystem } from '../fs/types.js';
import { createBuiltinRegistry } from '../languages/builtin.js';
import { LanguageRegistry, validateExtractionOptions } from '../languages/registry.js';
import type { ExtractionOptions } from '../languages/types.js';
import type { ParserPool } from '../parser/runtime.js';
import { initSql } from './sql.js';
import type { ClassEntry, Edge, EdgeFilter, FunctionEntry, FunctionKind } from './entries.js';
import { queryEdges } from '../query/edges.js';
import { calls, tracePath } from '../query/calls.js';
import { classHierarchy } from '../query/hierarchy.js';
import { deadCode } from '../query/dead-code.js';
import { fileOutline } from '../query/outline.js';
import type {
  CallsAnswer,
  CallsOptions,
  ClassHierarchy,
  DeadCodeAnswer,
  DeadCodeOptions,
  FileOutline,
  PathAnswer,
  SearchSymbolsOptions,
  SymbolSearchAnswer,
  SymbolTarget,
  TraceOptions,
} from '../query/types.js';
import { DEFAULT_BODY_MODE } from './body-mode.js';
import { IndexStore, StaleBodyError } from './store.js';
import { readSeal } from './integrity.js';
import { ReadWriteGate } from './gate.js';
import type { Storage } from '../storage/types.js';
import {
  computeSnapshot,
  computeStorageKey,
  locateCodebase,
  walkOptionsFingerprint,
  type CodebaseLocation,
  type Snapshot,
} from '../snapshot/key.js';
import type { SqlJsStatic } from 'sql.js';
import { FROM_BYTES_OPTIONS, OPEN_OPTIONS, REFRESH_OPTIONS, UPDATE_OPTIONS } from '../options/schemas.js';
import { checkOptions } from '../options/validate.js';
import type { CodebaseGlobOptions, CodebaseGrepOptions } from '../search/codebase-options.js';
import type { GlobResult } from '../search/glob.js';
import type { GrepResult } from '../search/grep.js';
import { DEFAULT_MAX_FILE_SIZE, type IndexOptions, type IndexOrigin, type OpenOptions, type UpdateOptions } from './options.js';

export { DEFAULT_MAX_FILE_SIZE, type IndexOptions, type IndexOrigin, type OpenOptions, type UpdateOptions } from './options.js';

/** What concurrent `open()` calls for one codebase and storage share: the leader's result. */
interface SharedOpen {
  readonly bytes: Uint8Array;
  readonly origin: IndexOrigin;
  readonly report: IndexReport | undefined;
  readonly rebuildReason: string | undefined;
}

// In-flight opens, per storage object and storage key: concurrent opens share one build.
const inFlightOpens = new WeakMap<Storage, Map<string, Promise<SharedOpen>>>();

function walkOptionsOf(options: IndexOptions, registry: LanguageRegistry): WalkOptions {
  return {
    registry,
    maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    skipDirectories: options.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES,
    exclude: options.exclude ?? [],
    respectGitignore: options.respectGitignore ?? true,
  };
}

function asStorageError(error: unknown, operation: string): CKGError {
  if (error instanceof CKGError && error.code === 'STORAGE_ERROR') return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new CKGError('STORAGE_ERROR', `Storage ${operation} failed: ${detail}`, { operation }, { cause: error });
}


function resolveRegistry(languages: IndexOptions['languages']): LanguageRegistry {
  if (languages instanceof LanguageRegistry) return languages;
  // The built-in definitions without their visitors: a sync loads those before it parses.
  const all = createBuiltinRegistry();
  return languages === undefined ? all : all.subset(languages);
}

/** What a sync runs on: imported once, when a first sync needs it (see CKGDatabase.#sync). */
let syncModulesLoading: ReturnType<typeof importSyncModules> | undefined;

/** The indexer, the visitors, the processors and the manifest reader, in one import. */
function importSyncModules() {
  return Promise.all([
    import('../indexer/indexer.js'),
    // The built-in languages' visitors (parsing in this thread calls them).
    import('../languages/index.js'),
    import('../parser/local-processor.js'),
    import('../parser/adaptive-processor.js'),
    import('../parser/runtime.js'),
    import('../graph/manifests.js'),
  ]);
}

/**
 * The modules that parse and resolve, imported on first use: opening a stored index, checking
 * it and answering from it never loads the parser, the visitors or the graph resolution.
 */
function syncModules(): ReturnType<typeof importSyncModules> {
  syncModulesLoading ??= importSyncModules().catch((error: unknown) => {
    syncModulesLoading = undefined;
    throw error;
  });
  return syncModulesLoading;
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
  readonly #extractionOptions: ExtractionOptions;
  #pool: ParserPool | undefined;
  #report: IndexReport | undefined;
  #updating: Promise<IndexReport> | undefined;
  #refreshing: Promise<IndexReport | undefined> | undefined;
  #origin: IndexOrigin = 'built';
  #rebuildReason: string | undefined;
  #storageError: CKGError | undefined;
  #storageKey: string | undefined;
  #location: CodebaseLocation | undefined;
  /** Paths whose next sync must re-hash them even if size and mtime match (see #withBodies). */
  readonly #recheck = new Set<string>();
  /** Files found binary or minified, not read again while their stat is unchanged. */
  readonly #contentSkips = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly skip: SkippedFile }>();
  /** Folder listings kept between walks (`trustFolderMtimes`). */
  readonly #listings: ListingCache | undefined;
  /** Queries wait for a running update: they see the index before or after it, never between. */
  readonly #gate = new ReadWriteGate();
  /** The counts before the running update (what `stats()` reports meanwhile). */
  #countsBefore: { files: number; functions: number; classes: number; symbols: number; edges: number } | undefined;

  /** Absolute POSIX path of the indexed codebase. */
  readonly codebasePath: string;

  private constructor(store: IndexStore, codebasePath: string, fs: FsAdapter | undefined, options: IndexOptions) {
    this.#store = store;
    this.codebasePath = codebasePath;
    this.#fs = fs;
    this.#options = options;
    this.#registry = resolveRegistry(options.languages);
    this.#extractionOptions = validateExtractionOptions(options);
    // Bodies are read only from files under the codebase root, whatever paths the bytes hold.
    const inside = (path: string): string => {
      if (relativeInside(codebasePath, path) === undefined) throw new CKGError('FS_ERROR', `${path} is not inside the codebase ${codebasePath}`, { path });
      return path;
    };
    store.setBodyReader(fs ? { read: async (path) => fs.readBytes(inside(path)), readRange: (path, start, end) => fs.readRange(inside(path), start, end) } : undefined);
    this.#listings = fs !== undefined && (options.trustFolderMtimes ?? platform.keepsFolderMtimes(fs.raw)) ? new ListingCache({ memoizeSnapshots: options.keepFolderListings === true }) : undefined;
  }

  /**
   * Indexes a codebase and returns its database. Throws `NOT_FOUND` / `NOT_A_DIRECTORY` for a
   * bad `codebasePath`, `INVALID_ARGUMENT` for a bad `fs` or `storage`.
   *
   * @remarks
   * With `storage`: stored bytes are reused without parsing when the codebase's snapshot key
   * (git HEAD + work-tree changes, or a stat digest) equals the one stored inside them; updated
   * incrementally (only changed files parsed) when it differs; rebuilt when they are corrupt or
   * of another schema version ({@link CKGDatabase.rebuildReason} says why). Built or updated
   * bytes are stored again. Storage failures never fail the open
   * ({@link CKGDatabase.storageError}). Concurrent opens of one codebase with one storage
   * share a single build.
   *
   * @example
   * ```ts
   * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, storage: new MemoryStorage() });
   * console.log(db.origin, db.report?.filesParsed);
   * ```
   */
  static async open(options: OpenOptions): Promise<CKGDatabase> {
    try {
      checkOptions('CKGDatabase.open', options, OPEN_OPTIONS, ['codebasePath', 'fs']);
      const root = normalize(options.codebasePath);
      const fs = new FsAdapter(options.fs).confinedTo(root);
      validateExtractionOptions(options);
      await assertDirectory(fs, root);
      // sql.js compiles in the background while the storage key is computed, the stored bytes
      // are read and their checksum verified: awaited only where a database is opened.
      const sql = initSql(options.wasm ?? {});
      sql.catch(() => undefined); // a failure is reported where it is awaited
      if (options.storage === undefined) return await CKGDatabase.#load(sql, fs, root, options, {});
      return await CKGDatabase.#openShared(sql, fs, root, options, options.storage);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.open');
    }
  }

  /**
   * Opens database bytes kept by a caller (from {@link CKGDatabase.export}).
   *
   * @remarks
   * With `fs` and `codebasePath` the bytes are checked against the codebase like stored bytes in
   * {@link CKGDatabase.open}: reused when unchanged, updated when changed, rebuilt (with
   * {@link CKGDatabase.rebuildReason}) when corrupt or of another schema version. Without them
   * the bytes are opened as they are, and corrupt or foreign bytes throw `CORRUPT_DATABASE` or
   * `SCHEMA_MISMATCH`.
   *
   * @example
   * ```ts
   * const db = await CKGDatabase.fromBytes(bytes, { fs, codebasePath: '/abs/repo' });
   * ```
   */
  static async fromBytes(bytes: Uint8Array, options: IndexOptions & { readonly fs?: FileSystem; readonly codebasePath?: string } = {}): Promise<CKGDatabase> {
    try {
      if (!(bytes instanceof Uint8Array)) throw new CKGError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
      checkOptions('CKGDatabase.fromBytes', options, FROM_BYTES_OPTIONS);
      validateExtractionOptions(options);
      const SQL = await initSql(options.wasm ?? {});
      if (options.fs !== undefined && options.codebasePath !== undefined) {
        const root = normalize(options.codebasePath);
        const fs = new FsAdapter(options.fs).confinedTo(root);
        await assertDirectory(fs, root);
        return await CKGDatabase.#load(Promise.resolve(SQL), fs, root, options, { bytes });
      }
      const store = IndexStore.open(SQL, bytes);
      const stored = store.getMeta('codebase_path') ?? '/';
      const root = options.codebasePath !== undefined ? normalize(options.codebasePath) : stored;
      const db = new CKGDatabase(store, root, options.fs ? new FsAdapter(options.fs).confinedTo(root) : undefined, options);
      db.#origin = 'storage';
      return db;
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.fromBytes');
    }
  }

  /** Joins an in-flight open of the same codebase and storage, or leads one. */
  static async #openShared(sql: Promise<SqlJsStatic>, fs: FsAdapter, root: string, options: IndexOptions, storage: Storage): Promise<CKGDatabase> {
    const registry = resolveRegistry(options.languages);
    const location = await locateCodebase(fs, root);
    const key = await computeStorageKey({
      root,
      realRoot: (await fs.realpath(root)) ?? root,
      repoRelativePath: location.repoRelativePath,
      languages: registry.fingerprint(validateExtractionOptions(options)),
      // Body modes separate indexes too: two tools with different modes must not thrash one entry.
      options: `${walkOptionsFingerprint(walkOptionsOf(options, registry))} bodies=${options.bodies ?? DEFAULT_BODY_MODE}${options.graph === false ? ' graph=off' : ''}`,
    });
    let builds = inFlightOpens.get(storage);
    if (!builds) inFlightOpens.set(storage, (builds = new Map()));
    const pending = builds.get(key);
    if (pending) {
      let shared: SharedOpen | undefined;
      try {
        shared = await pending;
      } catch (error) {
        // The leader's own abort is not ours: build ourselves then. Anything else is shared.
        if (!(error instanceof CKGError && error.code === 'ABORTED' && options.signal?.aborted !== true)) throw error;
      }
      if (shared) {
        const db = new CKGDatabase(IndexStore.open(await sql, shared.bytes), root, fs, options);
        db.#origin = shared.origin;
        db.#report = shared.report;
        db.#rebuildReason = shared.rebuildReason;
        db.#storageKey = key;
        db.#location = location;
        return db;
      }
    }
    let share!: (value: SharedOpen) => void;
    let fail!: (error: unknown) => void;
    const promise = new Promise<SharedOpen>((resolve, reject) => {
      share = resolve;
      fail = reject;
    });
    promise.catch(() => undefined); // followers handle it; nobody else must see it unhandled
    builds.set(key, promise);
    try {
      const db = await CKGDatabase.#load(sql, fs, root, options, { storage, key, location }, share);
      return db;
    } catch (error) {
      fail(error);
      throw error;
    } finally {
      if (builds.get(key) === promise) builds.delete(key);
    }
  }

  /**
   * Opens `bytes` (given, or read from storage) when they are a usable index of `root`, then
   * reuses, updates or rebuilds as the snapshot key says, and stores built or updated bytes.
   */
  static async #load(
    sql: Promise<SqlJsStatic>,
    fs: FsAdapter,
    root: string,
    options: IndexOptions,
    source: { bytes?: Uint8Array; storage?: Storage; key?: string; location?: CodebaseLocation },
    share?: (value: SharedOpen) => void,
  ): Promise<CKGDatabase> {
    const started = Date.now();
    let bytes = source.bytes;
    let rebuildReason: string | undefined;
    let storageError: CKGError | undefined;
    if (source.storage !== undefined && source.key !== undefined) {
      try {
        const got: unknown = await source.storage.get(source.key);
        if (got !== undefined && !(got instanceof Uint8Array)) throw new Error(`get() returned ${typeof got}, not a Uint8Array`);
        bytes = got as Uint8Array | undefined;
      } catch (error) {
        storageError = asStorageError(error, 'get');
        rebuildReason = storageError.message;
      }
    }
    // Nothing stored: a build follows, whose modules load while sql.js compiles (imported after
    // it, they waited behind the parse workers' start: 50 ms more before Django's walk began).
    if (bytes === undefined) syncModules().catch(() => undefined);
    // The checksum of stored bytes is verified while sql.js may still be compiling.
    const seal = bytes === undefined ? undefined : readSeal(bytes);
    const SQL = await sql;
    let store: IndexStore | undefined;
    if (bytes !== undefined) {
      try {
        store = IndexStore.open(SQL, bytes, seal);
        const stored = store.getMeta('codebase_path');
        if (stored !== root) {
          store.close();
          store = undefined;
          rebuildReason = `the stored index is of ${String(stored)}, not ${root}`;
        } else if (options.bodies !== undefined && store.bodies !== options.bodies) {
          rebuildReason = `the stored index keeps bodies '${store.bodies}', not '${options.bodies}'`;
          store.close();
          store = undefined;
        }
      } catch (error) {
        if (!(error instanceof CKGError) || (error.code !== 'CORRUPT_DATABASE' && error.code !== 'SCHEMA_MISMATCH')) throw error;
        rebuildReason = `${error.code}: ${error.message}`;
      }
    }
    const reused = store !== undefined;
    const db = new CKGDatabase(store ?? IndexStore.create(SQL, { codebase_path: root }, options.bodies), root, fs, options);
    db.#rebuildReason = rebuildReason;
    db.#storageError = storageError;
    if (source.storage !== undefined) {
      db.#storageKey = source.key;
      db.#location = source.location;
    }
    try {
      if (reused && source.storage !== undefined && source.key !== undefined) await db.#restoreListings(source.storage, source.key);
      // With nothing to reuse, the build parses files as the walk finds them ('stream'): the
      // first walk of a tree is slow (Django's: 200-400 ms) and the parse workers would idle.
      const snapshot = reused ? await db.#snapshot() : undefined;
      // Unchanged files are not enough: a language added, removed or upgraded (extractor or
      // grammar version) changes the fingerprint, and the update then re-parses what it must.
      if (
        snapshot !== undefined &&
        bytes !== undefined &&
        db.#store.getMeta('snapshot_key') === snapshot.key &&
        db.#store.getMeta('languages') === db.#extraction()
      ) {
        db.#origin = 'storage';
        await db.#saveListings();
        const counts = db.#store.counts();
        db.#report = {
          filesParsed: 0,
          filesReused: counts.files,
          filesRemoved: 0,
          filesIndexed: counts.files,
          functions: counts.functions,
          classes: counts.classes,
          filesWithSyntaxErrors: 0,
          skipped: snapshot.walk.skipped,
          unknownExtensions: Object.fromEntries([...snapshot.walk.unknownExtensions].sort(([a], [b]) => (a < b ? -1 : 1))),
          durationMs: Date.now() - started,
          ...(await db.#exclusionsOf(snapshot.walk)),
        };
        share?.({ bytes, origin: 'storage', report: db.#report, rebuildReason });
      } else {
        db.#origin = reused ? 'updated' : 'built';
        await db.#sync({}, snapshot ?? 'stream', false);
        const stored = await db.#persist();
        share?.({ bytes: stored ?? db.export(), origin: db.#origin, report: db.#report, rebuildReason });
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return db;
  }

  /** What the last build or update did (undefined for a database opened from bytes without `fs`). */
  get report(): IndexReport | undefined {
    return this.#report;
  }

  /**
   * How this database got its index when it was opened: `'built'` from scratch, reused
   * unchanged from `'storage'` (then `report.filesParsed` is 0), or taken from storage and
   * `'updated'` (only changed files parsed).
   */
  get origin(): IndexOrigin {
    return this.#origin;
  }

  /** Why stored or given bytes were not used (corrupt, another schema version, unreadable storage), if they were not. */
  get rebuildReason(): string | undefined {
    return this.#rebuildReason;
  }

  /** The failure (a `STORAGE_ERROR`) of the last storage read or write, if it failed; storage problems never fail an open or an update. */
  get storageError(): CKGError | undefined {
    return this.#storageError;
  }

  /** The key this database's bytes are stored under, when opened with `storage`. */
  get storageKey(): string | undefined {
    return this.#storageKey;
  }

  /**
   * The codebase's current snapshot key: git HEAD plus a digest of the files that would be
   * indexed (staged blob ids for files git sees as unchanged, path + size + mtime for the
   * others), or a digest of path + size + mtime outside git. Equal keys mean an index needs no
   * update. Costs a walk of the folder (no file is read besides `.git/index`).
   *
   * @example
   * ```ts
   * const before = await db.snapshotKey();
   * // ... edit a file ...
   * console.log(before !== (await db.snapshotKey())); // true
   * ```
   */
  async snapshotKey(): Promise<string> {
    try {
      if (!this.#fs) throw new CKGError('INVALID_ARGUMENT', 'This database was opened from bytes without fs: it has no codebase to key');
      return (await this.#snapshot()).key;
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.snapshotKey');
    }
  }

  /**
   * The cheap check to run before answering: computes the snapshot key and, only when it
   * differs from the indexed one, runs {@link CKGDatabase.update} (and stores the new bytes
   * when opened with `storage`). Returns the update's report, or undefined when nothing changed.
   *
   * @example
   * ```ts
   * const changed = await db.refresh();
   * if (changed) console.log(`${changed.filesParsed} files re-parsed`);
   * ```
   */
  refresh(options: Pick<IndexOptions, 'onProgress' | 'signal'> = {}): Promise<IndexReport | undefined> {
    try {
      checkOptions('CKGDatabase.refresh', options, REFRESH_OPTIONS);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#fs) {
      return Promise.reject(Object.assign(new CKGError('INVALID_ARGUMENT', 'This database was opened from bytes without fs: it cannot be refreshed'), { caller: 'CKGDatabase.refresh' }));
    }
    this.#refreshing ??= (async () => {
      if (this.#updating) await this.#updating.catch(() => undefined);
      if (this.#store.closed) throw new CKGError('CLOSED', 'The database is closed');
      const snapshot = await this.#snapshot();
      if (snapshot.key === this.#store.getMeta('snapshot_key')) return undefined;
      this.#updating ??= this.#write(() => this.#sync(options, snapshot)).finally(() => {
          this.#updating = undefined;
        });
      return await this.#updating;
    })().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing.catch((error: unknown) => tagCaller(error, 'CKGDatabase.refresh'));
  }

  /** The languages this database indexes. */
  get languages(): LanguageRegistry {
    return this.#registry;
  }

  /**
   * Functions named exactly `name` (case-sensitive), ordered by file path then start line.
   *
   * @param name - the plain name (`render`, not `Widget.render`).
   * @param kind - `'function'` (the default) returns top-level and nested functions, those
   * without a parent class; `'class_method'` returns methods, those with one. A method is
   * never found with the default: ask for both kinds when you do not know which it is.
   * @example
   * ```ts
   * const [fns, methods] = await Promise.all([db.queryFunction('render'), db.queryFunction('render', 'class_method')]);
   * ```
   */
  async queryFunction(name: string, kind: FunctionKind = 'function'): Promise<FunctionEntry[]> {
    try {
      if (typeof name !== 'string') throw new CKGError('INVALID_ARGUMENT', 'name must be a string');
      if (kind !== 'function' && kind !== 'class_method') throw new CKGError('INVALID_ARGUMENT', `kind must be 'function' or 'class_method', got ${String(kind)}`);
      return await this.#withBodies((onStale) => this.#store.queryFunctions(name, kind, onStale));
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.queryFunction');
    }
  }

  /** Class-like definitions named exactly `name`, ordered by file path then start line. */
  async queryClass(name: string): Promise<ClassEntry[]> {
    try {
      if (typeof name !== 'string') throw new CKGError('INVALID_ARGUMENT', 'name must be a string');
      return await this.#withBodies((onStale) => this.#store.queryClasses(name, onStale));
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.queryClass');
    }
  }

  /**
   * Edges of the code graph (calls, imports, inheritance, containment), each with its source,
   * its target (null when not resolved soundly: then `toName` and `reason` say what and why),
   * the site's file and line, and how it was resolved; ordered by file, line, kind.
   *
   * @example
   * ```ts
   * const calls = await db.edges({ kind: 'calls', from: 'shop.cart.Cart.checkout' });
   * for (const e of calls) console.log(`${e.filePath}:${e.line} ${e.to?.qualifiedName ?? `${e.toName}?`}`);
   * ```
   */
  async edges(filter: EdgeFilter = {}): Promise<Edge[]> {
    try {
      return queryEdges(this.#store, this.codebasePath, filter);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.edges');
    }
  }

  /**
   * Files of the codebase matching a glob, as {@link glob} finds them, with this database's walk
   * rules (`.gitignore`, `skipDirectories`, `exclude`) and kept folder listings.
   *
   * @example
   * ```ts
   * const { results } = await db.glob({ pattern: '*.py', limit: 20 });
   * ```
   */
  async glob(options: CodebaseGlobOptions): Promise<GlobResult> {
    try {
      const fs = this.#searchFs();
      const [{ globWith }, context] = await Promise.all([import('../search/glob.js'), this.#searchContext()]);
      return await globWith({ ...options, fs, root: this.codebasePath }, context);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.glob');
    }
  }

  /**
   * Lines of the codebase matching a pattern, as {@link grep} finds them, with this database's
   * walk rules; each `content` line of a file unchanged since indexing names its enclosing
   * function or class (`enclosing`).
   *
   * @example
   * ```ts
   * const { results } = await db.grep({ pattern: 'json\\.loads', outputMode: 'content' });
   * ```
   */
  async grep(options: CodebaseGrepOptions): Promise<GrepResult> {
    try {
      const fs = this.#searchFs();
      const [{ grepWith }, context] = await Promise.all([import('../search/grep.js'), this.#searchContext()]);
      return await grepWith({ ...options, fs, root: this.codebasePath }, context);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.grep');
    }
  }

  async #searchContext(): Promise<ReturnType<typeof import('../search/database.js').databaseSearchContext>> {
    const { databaseSearchContext } = await import('../search/database.js');
    return databaseSearchContext(this.#options, this.#registry, this.#listings, this.#store);
  }

  #searchFs(): FileSystem {
    if (!this.#fs) throw new CKGError('INVALID_ARGUMENT', 'This database was opened from bytes without fs: it has no codebase to search');
    if (this.#store.closed) throw new CKGError('CLOSED', 'The database is closed');
    return this.#fs.raw;
  }

  /**
   * The call sites of a definition: `file:line` and the calling symbol, breadth first to `depth`
   * levels (callers of callers), one group per definition the target names (a name, a qualified
   * name or a SymbolRef); for a class, the calls of its constructors too. The answer says whether
   * it is complete or a lower bound: unresolved calls that carry the definition's name are
   * counted, with their first locations.
   *
   * @example
   * ```ts
   * const answer = await db.callers('shop.catalog.Catalog.add_product');
   * for (const g of answer.groups) for (const c of g.calls) console.log(`${c.filePath}:${c.line} ${c.symbol?.qualifiedName}`);
   * if (!answer.complete) console.log('lower bound');
   * ```
   */
  async callers(target: SymbolTarget, options: CallsOptions = {}): Promise<CallsAnswer> {
    try {
      return calls(this.#store, target, 'in', options);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.callers');
    }
  }

  /**
   * The calls a definition makes, each with its callee (null when unresolved: then the name and
   * the reason), breadth first to `depth` levels. See {@link CKGDatabase.callers}.
   *
   * @example
   * ```ts
   * const { groups } = await db.callees('app.main', { depth: 2 });
   * ```
   */
  async callees(target: SymbolTarget, options: CallsOptions = {}): Promise<CallsAnswer> {
    try {
      return calls(this.#store, target, 'out', options);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.callees');
    }
  }

  /**
   * Call paths into (`inbound`) or out of (`outbound`) a definition, breadth first to `depth`
   * hops (default 3, at most 10), each hop with its call site; every symbol is expanded once, so
   * cycles end.
   *
   * @example
   * ```ts
   * const { hops } = await db.tracePath('handle_request', { direction: 'outbound', depth: 5 });
   * ```
   */
  async tracePath(target: SymbolTarget, options: TraceOptions = {}): Promise<PathAnswer> {
    try {
      return tracePath(this.#store, target, options);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.tracePath');
    }
  }

  /**
   * The bases and subclasses of every class a name (or qualified name) names, transitive, with
   * `inherits` and `implements` relations; a base outside the codebase appears by name.
   *
   * @example
   * ```ts
   * const [h] = await db.classHierarchy('Model');
   * console.log(h.subclasses.map((s) => s.symbol?.qualifiedName));
   * ```
   */
  async classHierarchy(name: SymbolTarget): Promise<ClassHierarchy[]> {
    try {
      return classHierarchy(this.#store, name);
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.classHierarchy');
    }
  }

  /**
   * Functions and methods that no resolved call or value use reaches, less entry points,
   * constructors, magic methods, overrides, tests, exported API, decorated functions and any
   * whose name an unresolved call carries (docs/commands/dead_code.md lists every rule).
   *
   * @example
   * ```ts
   * const { entries, total } = await db.deadCode({ path: 'shop/' });
   * ```
   */
  async deadCode(options: DeadCodeOptions = {}): Promise<DeadCodeAnswer> {
    try {
      return await this.#withBodies((onStale) => deadCode(this.#store, this.codebasePath, options, onStale));
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.deadCode');
    }
  }

  /**
   * Ranked search over symbol names for when the exact name is unknown: exact, prefix, whole
   * word (camelCase / snake_case split), substring, then typos; `+term` / `-term` filters,
   * `/regex/`, qualified-name prefixes (`django.db.models.`). Ties by call count, then path.
   *
   * @example
   * ```ts
   * const { results } = await db.searchSymbols('prase conf', { kind: 'function', limit: 5 });
   * ```
   */
  async searchSymbols(query: string, options: SearchSymbolsOptions = {}): Promise<SymbolSearchAnswer> {
    try {
      const { searchSymbols } = await import('../query/search.js');
      return await this.#withBodies((onStale) => searchSymbols(this.#store, this.codebasePath, query, options, onStale));
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.searchSymbols');
    }
  }

  /**
   * The definitions of one file, nested, with line ranges and signature lines: what an agent
   * reads instead of the file. Undefined when the file is not in the index.
   *
   * @example
   * ```ts
   * const outline = await db.fileOutline('shop/catalog.py');
   * ```
   */
  async fileOutline(path: string): Promise<FileOutline | undefined> {
    try {
      return await this.#withBodies((onStale) => fileOutline(this.#store, this.codebasePath, path, onStale));
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.fileOutline');
    }
  }

  /**
   * Re-reads the codebase and re-parses only files that were added or changed (size, mtime,
   * then content hash), removing rows of deleted files, in one transaction. Concurrent calls
   * share one run.
   */
  update(options: UpdateOptions = {}): Promise<IndexReport> {
    try {
      checkOptions('CKGDatabase.update', options, UPDATE_OPTIONS);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!this.#fs) {
      return Promise.reject(Object.assign(new CKGError('INVALID_ARGUMENT', 'This database was opened from bytes without fs: it cannot be updated'), { caller: 'CKGDatabase.update' }));
    }
    if (options.paths !== undefined) {
      // Told which files changed: no walk of the whole tree. Runs after any full update in flight.
      let paths: Set<string>;
      try {
        paths = this.#scopedPaths(options.paths);
      } catch (error) {
        return Promise.reject(error).catch((e: unknown) => tagCaller(e, 'CKGDatabase.update'));
      }
      const run = (this.#updating ?? Promise.resolve()).catch(() => undefined).then(() => this.#write(() => this.#sync(options, undefined, true, paths)));
      return run.catch((error: unknown) => tagCaller(error, 'CKGDatabase.update'));
    }
    this.#updating ??= this.#write(() => this.#sync(options)).finally(() => {
      this.#updating = undefined;
    });
    return this.#updating.catch((error: unknown) => tagCaller(error, 'CKGDatabase.update'));
  }

  /**
   * What an index's rows were extracted with (`meta.languages`): every language's version, and
   * whether the graph was built. Stored bytes extracted otherwise are updated before use.
   */
  #extraction(): string {
    return `${this.#registry.fingerprint(this.#extractionOptions)}${this.#options.graph === false ? ' graph=off' : ''}`;
  }

  /** Absolute, normalised paths inside the codebase (relative ones are taken from its root). */
  #scopedPaths(paths: readonly string[]): Set<string> {
    if (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string')) throw new CKGError('INVALID_ARGUMENT', 'paths must be an array of strings');
    const out = new Set<string>();
    // Inside a Windows codebase a relative path may use backslashes (`app\\util.py`).
    const windows = isWindowsPath(this.codebasePath);
    for (const given of paths) {
      const p = toSlashes(given, windows);
      const absolute = isAbsolute(p) ? normalize(p) : normalize(`${this.codebasePath}/${p}`);
      if (relativeInside(this.codebasePath, absolute) === undefined) {
        throw new CKGError('INVALID_ARGUMENT', `${given} is not inside the codebase ${this.codebasePath}`, { path: given });
      }
      out.add(absolute);
    }
    return out;
  }

  /** Counts of indexed files, functions, classes, symbols (definitions and modules) and edges (during an update: those before it). */
  stats(): { files: number; functions: number; classes: number; symbols: number; edges: number } {
    return (this.#gate.writing ? this.#countsBefore : undefined) ?? { ...this.#store.counts(), ...this.#store.graphCounts() };
  }

  /**
   * How many indexed files each language has, by language id.
   *
   * @example
   * ```ts
   * console.log(db.filesByLanguage()); // { python: 880, javascript: 62 }
   * ```
   */
  filesByLanguage(): Record<string, number> {
    return this.#store.filesByLanguage();
  }

  /** The SQLite database bytes. Throws `INVALID_ARGUMENT` while an update runs (await it first). */
  export(): Uint8Array {
    try {
      // Exporting reopens the sql.js database: it would end the update's transaction.
      if (this.#gate.writing) throw new CKGError('INVALID_ARGUMENT', 'export() cannot run while an update is writing the index: await the update first');
      return this.#store.export();
    } catch (error) {
      return tagCaller(error, 'CKGDatabase.export');
    }
  }

  /** Frees the database and parsers. Idempotent. */
  close(): void {
    this.#gate.close();
    this.#store.close();
    const pool = this.#pool;
    this.#pool = undefined;
    void pool?.delete();
  }

  /** `using db = await CKGDatabase.open(…)` closes it at scope end. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** True once {@link CKGDatabase.close} was called. */
  get closed(): boolean {
    return this.#store.closed;
  }

  /**
   * Runs a query whose `'lazy'` bodies may meet a file changed since it was indexed: then the
   * index is updated (changed files only) and the query asked again, so rows and bodies come
   * from one content. Without `fs`, or if the file changed yet again, such bodies read as
   * `staleBodyMarker` text (store.ts).
   */
  async #withBodies<T>(query: (onStale: 'throw' | 'marker') => Promise<T>): Promise<T> {
    if (!this.#fs) return await this.#gate.read(() => query('marker'));
    let stale: StaleBodyError;
    try {
      return await this.#gate.read(() => query('throw'));
    } catch (error) {
      if (!(error instanceof StaleBodyError)) throw error;
      stale = error;
    }
    // The file changed without its size and mtime moving (or the update has not run yet): the
    // next sync must re-hash these paths instead of trusting their stat.
    for (const path of stale.paths) this.#recheck.add(path);
    try {
      await this.update();
    } catch (error) {
      // A codebase that vanished or cannot be read still gets its answer, with marked bodies.
      if (!(error instanceof CKGError && ['NOT_FOUND', 'NOT_A_DIRECTORY', 'FS_ERROR'].includes(error.code))) throw error;
    }
    return await this.#gate.read(() => query('marker'));
  }

  /** Runs an update alone (see {@link ReadWriteGate}), remembering the counts before it for `stats()`. */
  #write<T>(update: () => Promise<T>): Promise<T> {
    return this.#gate.write(async () => {
      this.#countsBefore = this.#store.closed ? undefined : { ...this.#store.counts(), ...this.#store.graphCounts() };
      try {
        return await update();
      } finally {
        this.#countsBefore = undefined;
      }
    });
  }

  /**
   * The codebase's current snapshot (walks it). For a build that parses while it walks: `onFile`
   * sees each file as the walk selects it, and `signal` stops the walk.
   */
  async #snapshot(onFile?: (file: SourceFile) => void, signal?: AbortSignal): Promise<Snapshot> {
    const fs = this.#fs!;
    this.#location ??= await locateCodebase(fs, this.codebasePath);
    return computeSnapshot(fs, this.codebasePath, { ...walkOptionsOf(this.#options, this.#registry), listings: this.#listings, onFile, signal }, this.#location);
  }

  /** What `.gitignore` left out of a walk, when it left out everything or most (see `IndexReport.gitignoreExclusions`). */
  async #exclusionsOf(walk: WalkResult): Promise<{ gitignoreExclusions?: IndexReport['gitignoreExclusions'] }> {
    const options = walkOptionsOf(this.#options, this.#registry);
    const found = await reportExclusions(this.#fs!, walk.gitignored, walk.files.length, this.#registry, new Set(options.skipDirectories));
    return found === undefined ? {} : { gitignoreExclusions: found };
  }

  /**
   * Stores the bytes under the storage key (when opened with storage); a failure is recorded,
   * not thrown: the index in memory is correct, only persistence was lost.
   */
  async #persist(): Promise<Uint8Array | undefined> {
    const storage = this.#options.storage;
    if (storage === undefined || this.#storageKey === undefined) return undefined;
    const bytes = this.#store.export();
    try {
      await storage.set(this.#storageKey, bytes);
      this.#storageError = undefined;
    } catch (error) {
      this.#storageError = asStorageError(error, 'set');
    }
    await this.#saveListings();
    return bytes;
  }

  /** Adopts the listings and snapshot memo an earlier process saved (indexer/saved-listings.ts), with `keepFolderListings`. */
  async #restoreListings(storage: Storage, key: string): Promise<void> {
    if (this.#listings === undefined || this.#options.keepFolderListings !== true) return;
    await adoptSavedListings(this.#listings, storage, key, this.#registry);
  }

  /** Saves the listings and snapshot memo beside the stored index when they changed (with `keepFolderListings`). */
  async #saveListings(): Promise<void> {
    const storage = this.#options.storage;
    if (storage === undefined || this.#storageKey === undefined || this.#listings === undefined || this.#options.keepFolderListings !== true) return;
    await saveListings(this.#listings, storage, this.#storageKey);
  }

  /**
   * Brings the index in line with `snapshot` (or a fresh one: with `'stream'`, the sync starts on
   * the files the walk finds while it walks), records its key, stores the bytes.
   */
  async #sync(overrides: Pick<IndexOptions, 'onProgress' | 'signal'> = {}, given?: Snapshot | 'stream', persist = true, only?: ReadonlySet<string>): Promise<IndexReport> {
    const fs = this.#fs!;
    const options = { ...this.#options, onProgress: overrides.onProgress ?? this.#options.onProgress, signal: overrides.signal ?? this.#options.signal };
    if (this.#store.closed) throw new CKGError('CLOSED', 'The database is closed');
    const [{ syncIndex, WalkFeed }, , { LocalProcessor }, { processorForRun }, { ParserPool }, { ManifestReader, manifestNamesOf }] = await syncModules();
    await assertDirectory(fs, this.codebasePath);
    options.onProgress?.({ phase: 'scan', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 });
    // A partial update walks only the given paths and leaves the snapshot key alone: the next
    // refresh() sees a new key and confirms the rest with a cheap stat comparison.
    let snapshot: Snapshot | undefined;
    let walk: WalkResult | WalkFeed;
    let streamed: Promise<Snapshot> | undefined;
    if (given === 'stream') {
      const feed = new WalkFeed();
      streamed = this.#snapshot(feed.push, options.signal);
      streamed.then((s) => feed.finish(s.walk), (error: unknown) => feed.fail(error));
      walk = feed;
    } else {
      snapshot = only === undefined ? (given ?? (await this.#snapshot(undefined, options.signal))) : undefined;
      walk = snapshot?.walk ?? (await walkCodebase(fs, this.codebasePath, { ...walkOptionsOf(this.#options, this.#registry), only, listings: this.#listings, signal: options.signal }));
    }
    const run = processorForRun(options.processor, () => new LocalProcessor((this.#pool ??= new ParserPool(options.wasm ?? {}))), options.wasm ?? {});
    const manifests = new ManifestReader(fs, this.codebasePath, manifestNamesOf(this.#registry.list().map((l) => l.id)));
    let report: IndexReport;
    let workers: number | undefined;
    try {
      report = await syncIndex({
        fs,
        root: this.codebasePath,
        naming: await namingContext(fs, this.codebasePath, manifests),
        manifests,
        graph: this.#options.graph !== false,
        store: this.#store,
        walk,
        processor: run.processor,
        onProgress: options.onProgress,
        signal: options.signal,
        concurrency: run.processor.concurrency,
        recheck: new Set(this.#recheck),
        scope: only,
        contentSkips: this.#contentSkips,
        extraction: this.#extractionOptions,
      });
    } finally {
      workers = await run.finish();
    }
    this.#report = workers === undefined ? report : { ...report, workers };
    // A streamed walk has finished (the sync waited for it); its key is the one to record.
    if (streamed !== undefined) snapshot = await streamed;
    if (only === undefined) {
      const exclusions = await this.#exclusionsOf(snapshot?.walk ?? (walk as WalkResult));
      if (exclusions.gitignoreExclusions !== undefined) this.#report = { ...this.#report, ...exclusions };
    }
    if (only !== undefined) {
      for (const p of only) this.#recheck.delete(p);
      if (persist && (this.#report.filesParsed > 0 || this.#report.filesRemoved > 0)) await this.#persist();
      return this.#report;
    }
    this.#recheck.clear();
    const previousKey = this.#store.getMeta('snapshot_key');
    this.#store.setMeta({
      languages: this.#extraction(),
      snapshot_key: snapshot!.key,
      walk_options: walkOptionsFingerprint(walkOptionsOf(this.#options, this.#registry)),
    });
    // An update that found nothing (same key, nothing parsed or removed) leaves stored bytes as they are.
    const changed = previousKey !== snapshot!.key || this.#report.filesParsed > 0 || this.#report.filesRemoved > 0;
    if (persist && changed) await this.#persist();
    return this.#report;
  }
}

/** What module names depend on besides file paths (read once per sync; manifests as the sync reaches their folders). */
async function namingContext(fs: FsAdapter, root: string, manifests: ManifestReader): Promise<NamingContext> {
  const init = await fs.stat(join(root, '__init__.py'));
  return { rootName: basename(root), rootIsPythonPackage: init?.kind === 'file', manifests: manifests.found };
}

async function assertDirectory(fs: FsAdapter, path: string): Promise<void> {
  const info = await fs.stat(path);
  if (!info) throw new CKGError('NOT_FOUND', `Codebase path ${path} does not exist`, { path });
  if (info.kind !== 'directory') throw new CKGError('NOT_A_DIRECTORY', `Codebase path ${path} is not a directory`, { path });
}
