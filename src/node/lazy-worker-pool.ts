import { availableParallelism } from 'node:os';
import type { FileProcessor } from '../indexer/report.js';
import type { ParsePool } from './worker-pool.js';

/**
 * A worker pool started on the first file to parse: a process that answers from a stored index
 * (the CLI's second call, an MCP server restart) never pays for starting workers.
 */
export class LazyWorkerPool implements FileProcessor {
  readonly concurrency: number;
  readonly #size: number;
  // The pool module (and the parser, languages and worker code behind it) is imported with the
  // first file: a process that answers from a stored index never loads it.
  #pool: Promise<ParsePool> | undefined;

  readonly #onStart: (() => void) | undefined;

  /** `onStart` runs once, just before the workers start (the CLI restores V8 flags there). */
  constructor(size: number = availableParallelism(), onStart?: () => void) {
    this.#size = size;
    this.#onStart = onStart;
    this.concurrency = size * 8; // the pool's default pipeline depth per worker
  }

  process(...args: Parameters<FileProcessor['process']>): ReturnType<FileProcessor['process']> {
    this.#pool ??= import('./worker-pool.js').then(({ createWorkerPool }) => {
      this.#onStart?.();
      return createWorkerPool({ size: this.#size });
    });
    return this.#pool.then((pool) => pool.process(...args));
  }

  /** Whether workers were started. */
  get started(): boolean {
    return this.#pool !== undefined;
  }

  /** Stops the idle workers of a started pool (see {@link ParsePool.releaseIdle}); starts none. */
  async releaseIdle(): Promise<void> {
    const pool = await this.#pool?.catch(() => undefined);
    await pool?.releaseIdle();
  }

  async close(): Promise<void> {
    // A pool that failed to start has nothing to close (its calls reported the failure).
    const pool = await this.#pool?.catch(() => undefined);
    await pool?.close();
  }
}
