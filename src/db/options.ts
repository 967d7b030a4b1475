// The options of opening and updating an index: plain data, validated at run time by the
// schemas in src/options/schemas.ts (CKGDatabase checks them before use).
import type { FileProcessor, ProgressEvent } from '../indexer/report.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { FileSystem } from '../fs/types.js';
import type { Storage } from '../storage/types.js';
import type { WasmOptions } from '../wasm/options.js';
import type { BodyMode } from './body-mode.js';

/**
 * Default size limit: larger files are skipped (and reported) as generated or data.
 *
 * @example
 * ```ts
 * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, maxFileSize: 4 * DEFAULT_MAX_FILE_SIZE });
 * ```
 * @public
 */
export const DEFAULT_MAX_FILE_SIZE = 1024 * 1024;

/**
 * How to build or open an index.
 *
 * @example
 * ```ts
 * const options: IndexOptions = { languages: ['python', 'typescript'], exclude: ['third_party', 'docs'], bodies: 'lazy' };
 * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, ...options });
 * ```
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
  /**
   * Globs of paths to leave out, relative to the codebase root: `*` and `?` within a segment,
   * `[...]` (`[!a]` negates), `**` for any number of segments, `{a,b}`; matched in bounded time.
   */
  readonly exclude?: readonly string[];
  /** Honour `.gitignore` files. Default true. */
  readonly respectGitignore?: boolean;
  /**
   * Whether `fs` moves a folder's mtime whenever an entry is added, removed or renamed, as
   * POSIX file systems and memfs do. Then folder listings are kept between re-checks and a
   * folder is listed again only when its mtime moved: a re-check costs a `stat` per folder
   * instead of a `readdir`. Default: true for `node:fs` itself, false for other file systems
   * (browser IDE file systems vary); a file system that does not keep folder mtimes this way
   * would hide added files from re-checks, so only say true when it does.
   */
  readonly trustFolderMtimes?: boolean;
  /** Called as files are processed. */
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Aborts a build or update; the index is then left as it was. */
  readonly signal?: AbortSignal;
  /**
   * What parses the files. Default: in Node, a build that parses more than 64 files starts a
   * `worker_threads` pool for the rest of that run (one worker per core, up to 4; closed when
   * the run ends), so a large build does not block the event loop file after file; smaller
   * runs, browsers, single-core machines and bundles without the worker script parse in the
   * calling thread. `'this-thread'` always parses in the calling thread. A pool of your own
   * (`createWorkerPool()` from `ckg-wasm/node`, `createWebWorkerPool()`) is kept for every
   * update of the database: close it after the database.
   */
  readonly processor?: FileProcessor | 'this-thread';
  /**
   * Where database bytes are kept between runs ({@link MemoryStorage}, `DirectoryStorage` from
   * `ckg-wasm/node`, {@link IndexedDBStorage}, or any object with the four methods). With it,
   * `open()` reuses stored bytes when the codebase is unchanged, updates them incrementally when
   * it changed, and stores the result.
   */
  readonly storage?: Storage;
  /**
   * With `storage` and `trustFolderMtimes`: also keep the folder listings of the last walk in
   * the storage, under the index's key + `.folders`, so that a later process proving the
   * codebase unchanged stats each unchanged folder instead of listing it (the CLI's second
   * call; Django's 2,364 folders: 30-50 ms). Listings are trusted under the same rule as within
   * a process, and damaged ones are ignored. Only for a storage that keeps each key apart
   * ({@link MemoryStorage}, `DirectoryStorage`, {@link IndexedDBStorage}). Default false.
   */
  readonly keepFolderListings?: boolean;
  /**
   * How a new index keeps function and class bodies: `'lazy'` (default: offsets only, text read
   * back from the files and checked against their hash), `'compressed'` (deflated file contents
   * inside the database) or `'stored'` (plain text, like the reference CKG). Query results are
   * the same in every mode; see docs/bodies.md for the sizes and speeds. An existing index
   * keeps its mode; stored bytes of another mode are rebuilt by `open()`.
   */
  readonly bodies?: BodyMode;
  /**
   * C and C++ macros that define a function, for this codebase. Without help, a macro
   * invocation at file or namespace scope directly followed by a body is a function named
   * after the macro's first identifier argument (`SYSCALL_DEFINE3(read, unsigned int, fd, …) { … }`
   * → `read`; `TEST(Suite, Name)` and `TEST_F` → their second argument); the body (the row's
   * text) starts with the macro. An entry here adds a macro name (`DEFINE_HANDLER`) or prefix
   * (`SYSCALL_DEFINE*`), optionally `:N` to name the function after the N-th argument
   * (`PHP_METHOD:2`); such a macro is also recognised where tree-sitter reads it as the name of
   * a definition with specifiers (`static DEFINE_HANDLER(timer) { … }`). Changing the list
   * re-parses the index.
   */
  readonly functionMacros?: readonly string[];
  /**
   * Build the code graph: calls, imports, inheritance and containment edges (`edges()` and the
   * graph queries). Default true. Without it an index holds definitions only: it builds faster
   * and is smaller (docs/benchmarks.md gives both).
   */
  readonly graph?: boolean;
}

/**
 * Options of {@link CKGDatabase.update}.
 *
 * @example
 * ```ts
 * await db.update({ paths: ['/abs/repo/app/config.py'] }); // an editor saved this file
 * ```
 * @public
 */
export interface UpdateOptions extends Pick<IndexOptions, 'onProgress' | 'signal'> {
  /**
   * The files that changed (added, edited or deleted), absolute or relative to the codebase
   * root. Only they are examined, instead of a walk of the whole tree: for editors and agents
   * that know what they wrote. Other files' changes are seen by the next full `update()`.
   */
  readonly paths?: readonly string[];
}

/**
 * How an opened database got its index: `built` from scratch, reused unchanged from
 * `storage` (nothing parsed), or taken from storage and `updated` (only changed files parsed).
 *
 * @example
 * ```ts
 * const db = await CKGDatabase.open({ codebasePath, fs, storage });
 * const how: IndexOrigin = db.origin;
 * if (how === 'storage') console.log('reused, nothing parsed:', db.report?.filesParsed === 0);
 * ```
 * @public
 */
export type IndexOrigin = 'built' | 'storage' | 'updated';

/**
 * Options of {@link CKGDatabase.open}.
 *
 * @example
 * ```ts
 * const options: OpenOptions = { codebasePath: '/abs/repo', fs, storage: new MemoryStorage(), onProgress: (e) => console.error(e.phase) };
 * const db = await CKGDatabase.open(options);
 * ```
 * @public
 */
export interface OpenOptions extends IndexOptions {
  /**
   * Absolute path of the codebase's root folder: POSIX, or a Windows drive path (`C:\\repo` or
   * `C:/repo`; paths in results then read `C:/repo/app.py`).
   */
  readonly codebasePath: string;
  /** The file system to read the codebase from: `node:fs`, a memfs volume, ... */
  readonly fs: FileSystem;
}
