import type { FileProcessor, ProcessOptions } from '../indexer/indexer.js';
import { EventLoopTurns } from '../event-loop.js';
import type { LanguageDefinition } from '../languages/types.js';
import { extractSource, type ExtractedFile } from './extract.js';
import type { ParserPool } from './runtime.js';

/**
 * Parses files in the calling thread (no worker pool, or a language a worker cannot run).
 * Parsing is synchronous: between files it gives the event loop a turn once 16 ms have passed,
 * so a build keeps timers, I/O and its `signal` alive instead of stalling the thread for its
 * whole length.
 *
 * @example
 * ```ts
 * const processor = new LocalProcessor(new ParserPool());
 * const rows = await processor.process(python, 'def f(): pass\n', '/src/a.py');
 * ```
 */
export class LocalProcessor implements FileProcessor {
  readonly #turns = new EventLoopTurns();

  constructor(readonly pool: ParserPool) {}

  async process(language: LanguageDefinition, source: string, path: string, options?: ProcessOptions): Promise<ExtractedFile> {
    await this.#turns.maybeYield();
    return await extractSource(this.pool, language, source, { key: path, keep: options?.keepTree === true }, options?.graph !== false, options?.extraction);
  }
}
