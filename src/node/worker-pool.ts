// worker_threads transport of the parse pool (Node only).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { FileProcessor } from '../indexer/report.js';
import { CKGError } from '../errors.js';
import { ThreadPoolProcessor, type ParsePoolOptions, type SpawnWorker } from '../parser/thread-pool.js';
import { checkOptions } from '../options/validate.js';
import { WORKER_POOL_OPTIONS } from './option-schemas.js';

/**
 * A pool of parse workers: a {@link ckg-wasm#FileProcessor} to pass to `CKGDatabase.open`. Close it
 * when done (`await pool.close()` or `await using pool = …`); idle workers do not keep Node
 * alive, so a forgotten pool does not hang the process.
 *
 * @example
 * ```ts
 * await using pool = createWorkerPool();
 * const db = await CKGDatabase.open({ codebasePath, fs, processor: pool });
 * ```
 * @public
 */
export interface ParsePool extends FileProcessor {
  /** Number of workers. */
  readonly size: number;
  /**
   * Workers running now: all of them from the start, unless one died and was not replaced yet,
   * or {@link ParsePool.releaseIdle} stopped idle ones (the next files start them again).
   */
  readonly started: number;
  /** Stops the workers that have no file to parse; later files start them again. */
  releaseIdle(): Promise<void>;
  /** Files in flight at once (workers × pipeline); a build keeps this many queued. */
  readonly concurrency: number;
  /** Stops the workers; files still pending reject with `CLOSED`. Idempotent. */
  close(): Promise<void>;
  /** True once {@link ParsePool.close} was called. */
  readonly closed: boolean;
  /** `await using pool = createWorkerPool()` closes it at scope end. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Options of {@link createWorkerPool}.
 *
 * @example
 * ```ts
 * const pool = createWorkerPool({ size: 4, workerOptions: { resourceLimits: { maxOldGenerationSizeMb: 512 } } });
 * ```
 * @public
 */
export interface WorkerPoolOptions extends ParsePoolOptions {
  /**
   * The worker script: the package's `ckg-wasm/node-worker` entry, or its bundled copy in an
   * app bundle. Default: `worker-thread.js` next to this module in the package.
   */
  readonly workerUrl?: URL;
  /** Extra `worker_threads` options for each worker. */
  readonly workerOptions?: Pick<WorkerOptions, 'execArgv' | 'resourceLimits' | 'env' | 'stdout' | 'stderr'>;
}

class NodeWorkerPool extends ThreadPoolProcessor implements ParsePool {
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * The worker script of this build: dist/node/worker-thread.js beside dist/node/worker-pool.js,
 * or undefined where it is not on disk (a bundle).
 */
export function defaultWorkerUrl(): URL | undefined {
  const here = (import.meta as { url?: unknown }).url;
  if (typeof here !== 'string' || here === '') return undefined; // CommonJS bundle output
  const url = new URL('./worker-thread.js', here);
  if (existsSync(fileURLToPath(url))) return url;
  // Running from the TypeScript sources (tests, `ckg-source` condition): use the built worker.
  const built = new URL('../../dist/node/worker-thread.js', here);
  return existsSync(fileURLToPath(built)) ? built : undefined;
}

/**
 * Starts a pool of `worker_threads` that parse files with the built-in languages; files of
 * languages registered by the caller (their visitors are functions, which cannot cross
 * threads) are parsed in the calling thread. The main thread keeps reading files (through the
 * caller's `fs`, so memfs works too) and writing SQLite; workers only parse.
 *
 * A database keeps using the pool it was opened with for `update()` and `refresh()`: close
 * the pool after the database, or those calls fail with `CLOSED`. A worker that dies takes
 * only its current file with it (reported as skipped, `parse-failed`).
 *
 * @param options - `size` defaults to `os.availableParallelism()`.
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { CKGDatabase, createWorkerPool } from 'ckg-wasm/node';
 *
 * const pool = createWorkerPool();
 * try {
 *   const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, processor: pool });
 *   console.log(db.report);
 * } finally {
 *   await pool.close();
 * }
 * ```
 * @public
 */
export function createWorkerPool(options: WorkerPoolOptions = {}): ParsePool {
  checkOptions('createWorkerPool', options, WORKER_POOL_OPTIONS);
  const url = options.workerUrl ?? defaultWorkerUrl();
  if (url === undefined) {
    throw new CKGError(
      'WORKER_FAILED',
      "ckg-wasm's worker script is not beside this module (is ckg-wasm bundled?): bundle the 'ckg-wasm/node-worker' entry as a file of its own and pass its URL as workerUrl (docs/node.md, 'Bundling').",
    );
  }
  const spawn: SpawnWorker = (events) => {
    const worker = new Worker(url, { ...options.workerOptions });
    let lastError = '';
    worker.on('message', events.message);
    worker.on('error', (error) => {
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    });
    worker.on('messageerror', (error) => {
      lastError = `message error: ${String(error)}`;
      void worker.terminate();
    });
    worker.on('exit', (code) => events.exit(lastError ? `${lastError} (exit code ${code})` : `exit code ${code}`));
    return {
      post: (message) => worker.postMessage(message),
      terminate: () => worker.terminate(),
      setIdle: (idle) => (idle ? worker.unref() : worker.ref()),
    };
  };
  return new NodeWorkerPool(spawn, { ...options, defaultSize: availableParallelism() });
}
