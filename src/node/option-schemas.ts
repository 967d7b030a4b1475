// The schemas of the Node-only option objects (see src/options/schemas.ts for the others).
import { PARSE_POOL_OPTIONS } from '../options/pool-schemas.js';
import { is, type Schema } from '../options/validate.js';
import type { DirectoryStorageOptions } from './directory-storage.js';
import type { WorkerPoolOptions } from './worker-pool.js';

/**
 * `DirectoryStorageOptions`.
 *
 * @example
 * ```ts
 * checkOptions('DirectoryStorage', options, DIRECTORY_STORAGE_OPTIONS);
 * ```
 */
export const DIRECTORY_STORAGE_OPTIONS: Schema<DirectoryStorageOptions> = {
  directory: is.absolutePath,
  fs: is.withMethods(['readFile', 'open', 'rename', 'unlink', 'readdir', 'stat', 'mkdir', 'utimes'], 'a node:fs/promises-like object'),
  now: is.function,
};

/**
 * `WorkerPoolOptions` of `createWorkerPool`.
 *
 * @example
 * ```ts
 * checkOptions('createWorkerPool', options, WORKER_POOL_OPTIONS);
 * ```
 */
export const WORKER_POOL_OPTIONS: Schema<WorkerPoolOptions> = {
  ...PARSE_POOL_OPTIONS,
  workerUrl: is.instanceOf(URL, 'a URL'),
  workerOptions: is.options({ execArgv: is.arrayOf(is.string, 'an array of strings'), resourceLimits: is.object, env: is.object, stdout: is.boolean, stderr: is.boolean }),
};
