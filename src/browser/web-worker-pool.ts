// Web Workers transport of the parse pool (browser-safe: no node:* imports).
import type { FileProcessor } from '../indexer/report.js';
import { ThreadPoolProcessor, type ParsePoolOptions, type SpawnWorker } from '../parser/thread-pool.js';
import type { WorkerResponse } from '../parser/worker-protocol.js';
import { WEB_WORKER_POOL_OPTIONS } from '../options/pool-schemas.js';
import { checkOptions } from '../options/validate.js';

/**
 * The part of a DOM `Worker` the pool uses, so a host can hand in its own worker objects.
 *
 * @example
 * ```ts
 * // Vite: the package's worker entry, bundled as a worker of its own.
 * import CKGWorker from 'ckg-wasm/web-worker?worker';
 * const pool = createWebWorkerPool({ createWorker: (): WorkerLike => new CKGWorker(), wasm });
 * ```
 * @public
 */
export interface WorkerLike {
  /** Sends a message to the worker. */
  postMessage(message: unknown): void;
  /** Listens for the worker's replies and failures. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  /** Stops the worker. */
  terminate(): void;
}

/**
 * Options of {@link createWebWorkerPool}.
 *
 * @example
 * ```ts
 * const pool = createWebWorkerPool({ size: 2, wasm: { baseUrl: '/ckg-wasm/' } });
 * ```
 * @public
 */
export interface WebWorkerPoolOptions extends ParsePoolOptions {
  /**
   * Starts one worker running ckg-wasm's worker entry (`ckg-wasm/web-worker`). Default: a
   * module Worker made with `new Worker(new URL('./web-worker.js', import.meta.url))`, a form
   * Vite, webpack 5 and esbuild-based bundlers emit as a worker chunk.
   */
  readonly createWorker?: () => WorkerLike;
}

/**
 * A pool of Web Workers: a {@link FileProcessor} to pass to `CKGDatabase.open`. Workers start
 * when files need parsing, one at a time as the load needs them: a page that reuses an index
 * from storage starts none and fetches no tree-sitter wasm.
 *
 * @example
 * ```ts
 * const wasm = { baseUrl: '/ckg-wasm/' };
 * const pool = createWebWorkerPool({ wasm });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, processor: pool, wasm });
 * console.log(pool.started); // 0 when the index came from storage
 * ```
 * @public
 */
export interface WebWorkerPool extends FileProcessor {
  /** The most workers it runs at once. */
  readonly size: number;
  /** Workers started so far and running (0 until a file needs parsing). */
  readonly started: number;
  /** Files in flight at once (workers × pipeline). */
  readonly concurrency: number;
  /** Stops the workers; pending files reject with `CLOSED`. Idempotent. */
  close(): Promise<void>;
  /** True once {@link WebWorkerPool.close} was called. */
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
 * Creates a pool of Web Workers that parse files with the built-in languages (languages the
 * caller registered are parsed in the calling thread). The calling thread keeps reading files
 * and writing SQLite. Workers get their grammars through the calling thread, from the same
 * `wasm` options as the database (`baseUrl`, `files` or `load`), each file fetched once.
 * No worker starts before a file needs parsing.
 *
 * @param options - `size` (the most workers) defaults to `navigator.hardwareConcurrency`.
 * @example
 * ```ts
 * import { CKGDatabase, createWebWorkerPool, memoryFileSystem } from 'ckg-wasm';
 * const wasm = { baseUrl: '/ckg-wasm/' };
 * const pool = createWebWorkerPool({ wasm });
 * const fs = memoryFileSystem({ '/repo/app.py': 'def main():\n    pass\n' });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, wasm, processor: pool });
 * // keep the pool for db.update(); close it after the database
 * db.close();
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
  return new ThreadPoolProcessor(spawn, { ...options, defaultSize: defaultSize(), startWorkers: 'on-demand' });
}
