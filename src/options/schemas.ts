// The schemas of the option objects of CKGDatabase and CKGTool, checked at run time by
// checkOptions (./validate.ts). Each is typed `Schema<TheInterface>`: an option added to an
// interface without a check here fails the type check. Storages and worker pools have theirs
// in ./storage-schemas.ts and ./pool-schemas.ts, which import nothing heavy (a page that loads
// only a storage does not load the database); the Node-only ones are in src/node/option-schemas.ts.
import type { UpdateOptions, IndexOptions, OpenOptions } from '../db/database.js';
import { BODY_MODES } from '../db/store.js';
import { LanguageRegistry } from '../languages/registry.js';
import type { CKGToolOptions } from '../tool/ckg-tool.js';
import { WASM_OPTIONS } from './pool-schemas.js';
import { is, type Schema } from './validate.js';

const strings = is.arrayOf(is.string, 'an array of strings');


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
  keepFolderListings: is.boolean,
  onProgress: is.function,
  signal: is.signal,
  processor: is.anyOf("a FileProcessor (an object with a process method) or 'this-thread'", is.withMethods(['process'], 'a FileProcessor'), is.oneOf(['this-thread'])),
  storage: is.withMethods(['get', 'set', 'delete', 'list'], 'a Storage (an object with get, set, delete and list methods)'),
  bodies: is.oneOf(BODY_MODES),
  graph: is.boolean,
  functionMacros: is.arrayOf(is.string, 'an array of macro names'),
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
