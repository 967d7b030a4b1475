import { availableParallelism } from 'node:os';
import type { FileProcessor } from '../indexer/report.js';
import { createWorkerPool, type ParsePool } from './worker-pool.js';

/**
 * A worker pool started on the first file to parse: a process that answers from a stored index
 * (the CLI's second call, an MCP server restart) never pays for starting workers.
 */
export class LazyWorkerPool implements FileProcessor {
  readonly concurrency: number;
  readonly #size: number;
  #pool: ParsePool | undefined;

  constructor(size: number = availableParallelism()) {
    this.#size = size;
    this.concurrency = size * 8; // the pool's default pipeline depth per worker
  }

  process(...args: Parameters<FileProcessor['process']>): ReturnType<FileProcessor['process']> {
    this.#pool ??= createWorkerPool({ size: this.#size });
    return this.#pool.process(...args);
  }

  /** Whether workers were started. */
  get started(): boolean {
    return this.#pool !== undefined;
  }

  async close(): Promise<void> {
    await this.#pool?.close();
  }
}
