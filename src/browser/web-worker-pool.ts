// Web Workers transport of the parse pool (browser-safe: no node:* imports).
import type { FileProcessor } from '../build/indexer.js';
import { CKGError } from '../errors.js';
import { ThreadPoolProcessor, type ParsePoolOptions, type SpawnWorker } from '../parser/thread-pool.js';
import type { WorkerResponse } from '../parser/worker-protocol.js';
import { WEB_WORKER_POOL_OPTIONS } from '../options/pool-schemas.js';
import { checkOptions } from '../options/validate.js';

/**
 * The part of a DOM `Worker` the pool uses, so a host can hand in its own worker objects.
 *
 * @example
 * ```ts
 * const createWorker = (): WorkerLike => new Worker(new URL('ckg-wasm/dist/browser/web-worker.js', import.meta.url), { type: 'module' });
 * ```
 * @public
 */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/**
 * Options of {@link createWebWorkerPool}.
 *
 * @example
 * ```ts
 * const pool = createWebWorkerPool({ wasm: { baseUrl: '/ckg-wasm/wasm/' } });
 * ```
 * @public
 */
export interface WebWorkerPoolOptions extends ParsePoolOptions {
  /** Starts one worker running ckg-wasm's `web-worker.js`. Default: a module Worker next to this file. */
  readonly createWorker?: () => WorkerLike;
}

/**
 * A pool of Web Workers: a {@link FileProcessor} to pass to `CKGDatabase.open`.
 *
 * @example
 * ```ts
 * const pool = createWebWorkerPool({ wasm: { baseUrl: '/ckg-wasm/wasm/' } });
 * try {
 *   const db = await CKGDatabase.open({ codebasePath: '/repo', fs, processor: pool, wasm: { baseUrl: '/ckg-wasm/wasm/' } });
 * } finally {
 *   await pool.close();
 * }
 * ```
 * @public
 */
export interface WebWorkerPool extends FileProcessor {
  /** Number of workers. */
  readonly size: number;
  /** Files in flight at once (workers × pipeline). */
  readonly concurrency: number;
  /** Stops the workers; pending files reject with `CLOSED`. Idempotent. */
  close(): Promise<void>;
  readonly closed: boolean;
}

function defaultCreateWorker(): WorkerLike {
  // Written as one `new Worker(new URL(…, import.meta.url))` expression: bundlers (Vite,
  // webpack, esbuild) recognise this form and emit the worker as its own chunk.
  return new Worker(new URL('./web-worker.js', import.meta.url), { type: 'module' });
}

function defaultSize(): number {
  const cores = typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency;
  return typeof cores === 'number' && cores >= 1 ? cores : 2;
}

/**
 * Starts a pool of Web Workers that parse files with the built-in languages (languages the
 * caller registered are parsed in the calling thread). The calling thread keeps reading files
 * and writing SQLite. Workers fetch the wasm files from `wasm.baseUrl`, which is required
 * unless `createWorker` starts workers that find them otherwise.
 *
 * @param options - `size` defaults to `navigator.hardwareConcurrency`.
 * @example
 * ```ts
 * import { CKGDatabase, createWebWorkerPool } from 'ckg-wasm';
 * const wasm = { baseUrl: new URL('/ckg-wasm/wasm/', location.href) };
 * const pool = createWebWorkerPool({ wasm });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, wasm, processor: pool });
 * await pool.close();
 * ```
 * @public
 */
export function createWebWorkerPool(options: WebWorkerPoolOptions = {}): WebWorkerPool {
  checkOptions('createWebWorkerPool', options, WEB_WORKER_POOL_OPTIONS);
  const create = options.createWorker ?? defaultCreateWorker;
  const spawn: SpawnWorker = (events) => {
    const worker = create();
    let stopped = false;
    const stop = (reason: string): void => {
      if (stopped) return;
      stopped = true;
      worker.terminate();
      events.exit(reason);
    };
    worker.addEventListener('message', (event) => {
      if (!stopped) events.message((event as MessageEvent<WorkerResponse>).data);
    });
    // A Web Worker has no exit event: an uncaught error (the body catches per-file errors, so
    // this means the script or the runtime broke) or an unclonable message retires it.
    worker.addEventListener('error', (event) => {
      const message = (event as ErrorEvent).message;
      event.preventDefault?.();
      stop(message ? `error: ${message}` : 'error event');
    });
    worker.addEventListener('messageerror', () => stop('message error'));
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => {
        stopped = true;
        worker.terminate();
      },
    };
  };
  if (options.wasm?.load && options.wasm.baseUrl === undefined && !options.createWorker) {
    throw new CKGError('INVALID_ARGUMENT', 'Web workers cannot receive wasm.load (a function): give wasm.baseUrl');
  }
  return new ThreadPoolProcessor(spawn, { ...options, defaultSize: defaultSize() });
}
