// The schema of every option object of the browser-safe public API, checked at run time by
// checkOptions (./validate.ts). Each is typed `Schema<TheInterface>`: an option added to an
// interface without a check here fails the type check. The Node-only options are in
// src/node/option-schemas.ts.
import type { UpdateOptions, IndexOptions, OpenOptions } from '../db/database.js';
import { BODY_MODES } from '../db/store.js';
import { LanguageRegistry } from '../languages/registry.js';
import type { WasmOptions } from '../parser/runtime.js';
import type { ParsePoolOptions } from '../parser/thread-pool.js';
import type { WebWorkerPoolOptions } from '../browser/web-worker-pool.js';
import type { ExpireOptions } from '../storage/expire.js';
import type { IndexedDBStorageOptions } from '../storage/indexeddb.js';
import type { MemoryStorageOptions } from '../storage/memory.js';
import type { CKGToolOptions } from '../tool/ckg-tool.js';
import { is, type Schema } from './validate.js';

const strings = is.arrayOf(is.string, 'an array of strings');

/**
 * `WasmOptions`.
 *
 * @example
 * ```ts
 * checkOptions('wasm', options.wasm, WASM_OPTIONS);
 * ```
 */
export const WASM_OPTIONS: Schema<WasmOptions> = {
  baseUrl: is.url,
  load: is.function,
  sqlJs: is.withMethods(['Database'], 'an initialised sql.js (with a Database class)'),
};

/**
 * `IndexOptions`: what every index-building API accepts.
 *
 * @example
 * ```ts
 * checkOptions('CKGDatabase.open', options, INDEX_OPTIONS);
 * ```
 */
export const INDEX_OPTIONS: Schema<IndexOptions> = {
  wasm: is.options(WASM_OPTIONS),
  languages: is.anyOf('a LanguageRegistry or an array of language ids', is.instanceOf(LanguageRegistry, 'a LanguageRegistry'), strings),
  maxFileSize: is.limit,
  skipDirectories: strings,
  exclude: strings,
  respectGitignore: is.boolean,
  trustFolderMtimes: is.boolean,
  onProgress: is.function,
  signal: is.signal,
  processor: is.withMethods(['process'], 'a FileProcessor (an object with a process method)'),
  storage: is.withMethods(['get', 'set', 'delete', 'list'], 'a Storage (an object with get, set, delete and list methods)'),
  bodies: is.oneOf(BODY_MODES),
  graph: is.boolean,
};

/**
 * `OpenOptions` of `CKGDatabase.open` (`codebasePath` and `fs` are required there).
 *
 * @example
 * ```ts
 * checkOptions('CKGDatabase.open', options, OPEN_OPTIONS, ['codebasePath', 'fs']);
 * ```
 */
export const OPEN_OPTIONS: Schema<OpenOptions> = {
  ...INDEX_OPTIONS,
  codebasePath: is.absolutePath,
  fs: is.object,
};

/**
 * The options of `CKGDatabase.fromBytes`.
 *
 * @example
 * ```ts
 * checkOptions('CKGDatabase.fromBytes', options, FROM_BYTES_OPTIONS);
 * ```
 */
export const FROM_BYTES_OPTIONS: Schema<IndexOptions & { readonly fs?: unknown; readonly codebasePath?: string }> = {
  ...INDEX_OPTIONS,
  codebasePath: is.absolutePath,
  fs: is.object,
};

/**
 * `UpdateOptions` of `CKGDatabase.update`.
 *
 * @example
 * ```ts
 * checkOptions('CKGDatabase.update', options, UPDATE_OPTIONS);
 * ```
 */
export const UPDATE_OPTIONS: Schema<UpdateOptions> = {
  onProgress: is.function,
  signal: is.signal,
  paths: strings,
};

/**
 * The options of `CKGDatabase.refresh`.
 *
 * @example
 * ```ts
 * checkOptions('CKGDatabase.refresh', options, REFRESH_OPTIONS);
 * ```
 */
export const REFRESH_OPTIONS: Schema<Pick<IndexOptions, 'onProgress' | 'signal'>> = {
  onProgress: is.function,
  signal: is.signal,
};

/**
 * `CKGToolOptions`.
 *
 * @example
 * ```ts
 * checkOptions('CKGTool', options, TOOL_OPTIONS, ['fs']);
 * ```
 */
export const TOOL_OPTIONS: Schema<CKGToolOptions> = {
  ...INDEX_OPTIONS,
  fs: is.object,
  cwd: is.absolutePath,
  refresh: is.boolean,
  storageMaxAgeMs: is.duration,
  maxOpenDatabases: is.positiveInteger,
};

/**
 * The keys of {@link TOOL_OPTIONS} that are the tool's own (not passed on to `CKGDatabase.open`).
 *
 * @example
 * ```ts
 * const indexOptions = withoutKeys(toolOptions, TOOL_ONLY_OPTIONS);
 * ```
 */
export const TOOL_ONLY_OPTIONS = ['cwd', 'refresh', 'storageMaxAgeMs', 'maxOpenDatabases'] as const;

/**
 * `MemoryStorageOptions`.
 *
 * @example
 * ```ts
 * checkOptions('MemoryStorage', options, MEMORY_STORAGE_OPTIONS);
 * ```
 */
export const MEMORY_STORAGE_OPTIONS: Schema<MemoryStorageOptions> = { now: is.function };

/**
 * `IndexedDBStorageOptions`.
 *
 * @example
 * ```ts
 * checkOptions('IndexedDBStorage', options, INDEXEDDB_STORAGE_OPTIONS);
 * ```
 */
export const INDEXEDDB_STORAGE_OPTIONS: Schema<IndexedDBStorageOptions> = {
  databaseName: is.nonEmptyString,
  indexedDB: is.withMethods(['open'], 'an IDBFactory'),
  now: is.function,
};

/**
 * `ExpireOptions` of `expireStorage`.
 *
 * @example
 * ```ts
 * checkOptions('expireStorage', options, EXPIRE_OPTIONS);
 * ```
 */
export const EXPIRE_OPTIONS: Schema<ExpireOptions> = { maxAgeMs: is.duration, now: is.duration };

/**
 * `ParsePoolOptions`: common to the Node and the browser worker pools.
 *
 * @example
 * ```ts
 * checkOptions('createWorkerPool', options, PARSE_POOL_OPTIONS);
 * ```
 */
export const PARSE_POOL_OPTIONS: Schema<ParsePoolOptions> = {
  size: is.positiveInteger,
  pipeline: is.positiveInteger,
  wasm: is.options(WASM_OPTIONS),
};

/**
 * `WebWorkerPoolOptions` of `createWebWorkerPool`.
 *
 * @example
 * ```ts
 * checkOptions('createWebWorkerPool', options, WEB_WORKER_POOL_OPTIONS);
 * ```
 */
export const WEB_WORKER_POOL_OPTIONS: Schema<WebWorkerPoolOptions> = { ...PARSE_POOL_OPTIONS, createWorker: is.function };
