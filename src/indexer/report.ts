// What a build reports and what parses its files: public types kept apart from the indexer
// (whose declarations name the store's, and through them sql.js's, types).
import type { ExtractedFile } from '../parser/extract.js';
import type { ExtractionOptions, LanguageDefinition } from '../languages/types.js';
import type { GitignoreExclusion } from './gitignored.js';
import type { SkippedFile } from './walker.js';

/**
 * A progress event of a build or an update, for a CLI bar or an IDE status line.
 *
 * @example
 * ```ts
 * const onProgress = (e: ProgressEvent) =>
 *   console.error(`${e.phase} ${e.filesDone}/${e.filesTotal}${e.walking ? '+' : ''} files`);
 * ```
 * @public
 */
export interface ProgressEvent {
  /**
   * `scan`: listing files; `parse`: reading and extracting; `graph`: resolving the code graph's
   * edges, once every file is parsed (builds and updates with the graph); `write`: finishing the
   * database.
   */
  readonly phase: 'scan' | 'parse' | 'graph' | 'write' | 'done';
  /** Files parsed (or found unchanged) so far. */
  readonly filesDone: number;
  /** Files to parse so far (final unless {@link ProgressEvent.walking}). */
  readonly filesTotal: number;
  /** Bytes of source read so far. */
  readonly bytesDone: number;
  /** Bytes of source to read so far (final unless {@link ProgressEvent.walking}). */
  readonly bytesTotal: number;
  /** The file being processed, in the `parse` phase. */
  readonly currentFile?: string;
  /**
   * True while a build is still walking the tree (it parses the files found so far):
   * `filesTotal` and `bytesTotal` may still grow.
   */
  readonly walking?: boolean;
  /**
   * In the `graph` phase: the share of the resolution pass done, from 0 to 1 (a build's sites
   * are resolved, then written; an update's few sites are resolved at once, from 0 to 1).
   */
  readonly graphDone?: number;
  /** In a build's `graph` phase: the call sites, imports and bases the pass resolves (absent for an update, which resolves only those its edits may have changed). */
  readonly sites?: number;
}

/**
 * The share of a `graph` phase's resolution pass done, in whole per cent (0 outside it).
 *
 * @example
 * ```ts
 * if (e.phase === 'graph') console.error(`linking, ${graphPercent(e)}%`);
 * ```
 */
export function graphPercent(event: ProgressEvent): number {
  return event.phase === 'graph' ? Math.floor(100 * Math.min(1, Math.max(0, event.graphDone ?? 0))) : 0;
}

/**
 * What a build or an update did.
 *
 * @example
 * ```ts
 * const report = db.report;
 * if (report) console.log(`${report.filesParsed} parsed, ${report.filesReused} reused, ${report.skipped.length} skipped`);
 * ```
 * @public
 */
export interface IndexReport {
  /** Files parsed in this run. */
  readonly filesParsed: number;
  /** Files kept from the previous index unchanged (0 for a fresh build). */
  readonly filesReused: number;
  /** Files whose rows were removed because they are gone. */
  readonly filesRemoved: number;
  /** Files in the index after the run. */
  readonly filesIndexed: number;
  /** Functions and methods in the index after the run. */
  readonly functions: number;
  /** Class-like definitions in the index after the run. */
  readonly classes: number;
  /** Files with syntax errors (their definitions outside the error regions are indexed). */
  readonly filesWithSyntaxErrors: number;
  /** Files left out, with reasons (too large, binary, minified, unreadable, ...). */
  readonly skipped: readonly SkippedFile[];
  /** Extensions that no registered language covers, with how many files each. */
  readonly unknownExtensions: Readonly<Record<string, number>>;
  /** Wall time of the run, in ms. */
  readonly durationMs: number;
  /**
   * Set when `.gitignore` rules left out everything or more files than were indexed (a
   * `.gitignore` ending in `/*`, as Debian's kernel source ships): the files each rule excluded,
   * largest count first. Files git tracks are indexed whatever `.gitignore` says.
   */
  readonly gitignoreExclusions?: readonly GitignoreExclusion[];
  /**
   * Parse workers of the default processor this run used: 0 when every file was parsed in
   * the calling thread. Absent when the caller gave its own processor, or nothing was built.
   */
  readonly workers?: number;
}

/**
 * Turns file text into rows; the local implementation parses in this thread, a pool in workers.
 *
 * @example
 * ```ts
 * const pool = createWorkerPool();                     // ckg-wasm/node: a FileProcessor
 * const db = await CKGDatabase.open({ codebasePath, fs, processor: pool });
 * await pool.close();
 * ```
 * @public
 */
export interface FileProcessor {
  /**
   * The rows of one file. `options.keepTree` says the file is likely to change again soon (it
   * is one of the few files of a small update): a processor that can should keep its syntax
   * tree, so the next call for the same `path` re-parses incrementally. `options.extraction`
   * are the index's extraction options, to hand to the visitor.
   */
  process(language: LanguageDefinition, source: string, path: string, options?: ProcessOptions): Promise<ExtractedFile>;
  /** How many files it takes at once (a worker pool: workers × queue depth). Default 1. */
  readonly concurrency?: number;
  /**
   * Frees what it holds for parsing while no file is in flight (a worker pool: its idle workers
   * stop, and later files start them again). A large build calls it once its last file is
   * parsed, before its resolution pass. Optional.
   */
  releaseIdle?(): Promise<void>;
}

/**
 * Hints for one {@link FileProcessor.process} call.
 *
 * @example
 * ```ts
 * const rows = await processor.process(python, source, '/src/app.py', { keepTree: true });
 * ```
 * @public
 */
export interface ProcessOptions {
  /** Keep this file's syntax tree for an incremental re-parse of the same path. */
  readonly keepTree?: boolean;
  /** Extract the file's calls, imports and bases for the code graph (default true). */
  readonly graph?: boolean;
  /** The index's extraction options (`functionMacros`), passed to the language's visitor. */
  readonly extraction?: ExtractionOptions;
}
