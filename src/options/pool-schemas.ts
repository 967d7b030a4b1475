// The schemas of the worker pools' option objects and of `WasmOptions` (see ./schemas.ts); this
// module imports nothing but the validator.
import type { WebWorkerPoolOptions } from '../browser/web-worker-pool.js';
import type { WasmOptions } from '../wasm/options.js';
import type { ParsePoolOptions } from '../parser/thread-pool.js';
import { is, type Schema } from './validate.js';

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
  files: is.recordOf(is.url, 'an object of file names to URLs (strings or URL objects)'),
  load: is.function,
  sqlJs: is.withMethods(['Database'], 'an initialised sql.js (with a Database class)'),
};

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
