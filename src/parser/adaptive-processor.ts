// The default FileProcessor of a build: parse in this thread, and move to a worker pool the
// platform provides (Node: worker_threads) once the build proves large enough to pay for
// starting it. Small builds and small updates (tests, an editor's save) never start a worker;
// a Django-sized build stops blocking the caller's event loop for each file it parses.
import { platform } from '#platform';
import type { FileProcessor, ProcessOptions } from '../indexer/report.js';
import type { LanguageDefinition } from '../languages/types.js';
import type { WasmOptions } from '../wasm/options.js';
import type { ExtractedFile } from './extract.js';

/** A pool the platform starts: a FileProcessor that must be closed. */
export interface StartedPool extends FileProcessor {
  /** Number of workers. */
  readonly size: number;
  close(): Promise<void>;
}

/**
 * Files a build parses in this thread before it starts the platform's pool: starting workers
 * (each loads the runtime and its grammars) costs about what parsing 50-100 small files does.
 */
export const POOL_AFTER_FILES = 64;

/** Files in flight at once when a pool may start: what a pool of this many workers keeps queued. */
function concurrencyFor(workers: number): number {
  return Math.max(1, workers) * 8;
}

/**
 * Parses the first {@link POOL_AFTER_FILES} files with `local`, then starts the pool (once) and
 * sends it every later file. `startPool` gives undefined (or fails) where no pool can run:
 * then every file is parsed by `local`.
 */
export class AdaptiveProcessor implements FileProcessor {
  readonly concurrency: number;
  readonly #local: FileProcessor;
  readonly #startPool: () => Promise<StartedPool | undefined>;
  #pool: Promise<StartedPool | undefined> | undefined;
  #started: StartedPool | undefined;
  #files = 0;

  constructor(local: FileProcessor, startPool: () => Promise<StartedPool | undefined>, expectedWorkers: number) {
    this.#local = local;
    this.#startPool = startPool;
    this.concurrency = expectedWorkers > 0 ? concurrencyFor(expectedWorkers) : (local.concurrency ?? 1);
  }

  async process(language: LanguageDefinition, source: string, path: string, options?: ProcessOptions): Promise<ExtractedFile> {
    this.#files++;
    if (this.#pool === undefined && this.#files > POOL_AFTER_FILES) {
      this.#pool = this.#startPool().catch(() => undefined); // no pool: this thread parses on
      void this.#pool.then((pool) => (this.#started = pool));
    }
    const pool = this.#pool === undefined ? undefined : await this.#pool;
    return await (pool ?? this.#local).process(language, source, path, options);
  }

  /** Workers the pool ran (0 when every file was parsed in this thread). */
  get workers(): number {
    return this.#started?.size ?? 0;
  }

  /** Stops the pool's idle workers, if it started (see {@link FileProcessor.releaseIdle}). */
  async releaseIdle(): Promise<void> {
    const pool = await this.#pool;
    await pool?.releaseIdle?.();
  }

  /** Stops the pool, if one started. */
  async close(): Promise<void> {
    const pool = await this.#pool;
    await pool?.close();
  }
}

/**
 * The processor of one build or update: the caller's, this thread's (`'this-thread'`), or by
 * default an {@link AdaptiveProcessor} where the platform can run a pool. `finish()` stops a
 * pool it started and says how many workers the run used (undefined with the caller's processor).
 */
export function processorForRun(
  given: FileProcessor | 'this-thread' | undefined,
  local: () => FileProcessor,
  wasm: WasmOptions,
): { readonly processor: FileProcessor; finish(): Promise<number | undefined> } {
  if (given !== undefined && given !== 'this-thread') return { processor: given, finish: async () => undefined };
  const workers = given === undefined ? (platform.defaultParseWorkers?.() ?? 0) : 0;
  const start = platform.startParsePool;
  if (workers === 0 || start === undefined) return { processor: local(), finish: async () => 0 };
  const adaptive = new AdaptiveProcessor(local(), () => start(workers, wasm), workers);
  return {
    processor: adaptive,
    finish: async () => {
      await adaptive.close();
      return adaptive.workers;
    },
  };
}
