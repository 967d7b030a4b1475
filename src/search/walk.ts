import { DEFAULT_SKIPPED_DIRECTORIES, walkCodebase, type ListingCache } from '../indexer/walker.js';
import { CKGError } from '../errors.js';
import { yieldToEventLoop } from '../event-loop.js';
import type { FsAdapter } from '../fs/adapter.js';
import { isAbsolute, normalize } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import { createBuiltinRegistry } from '../languages/builtin.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { LanguageDefinition } from '../languages/types.js';

/** A file a search walk found: every file the ignore rules keep, with its language when one covers it. */
export interface SearchFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly language: LanguageDefinition | undefined;
}

/**
 * What a search shares with indexing: the languages (for `language` filters) and the walk's
 * rules. `CKGDatabase` passes its own; the exported functions use the defaults of an index.
 */
export interface SearchContext {
  readonly registry: LanguageRegistry;
  readonly skipDirectories: readonly string[];
  readonly exclude: readonly string[];
  readonly respectGitignore: boolean;
  readonly listings?: ListingCache | undefined;
  /**
   * For `content` hits: the name of the function or class enclosing a line of an indexed file
   * that is unchanged since it was indexed (undefined for any other file).
   */
  readonly enclosing?: ((file: SearchFile) => ((line: number) => string | undefined) | undefined) | undefined;
}

let defaultRegistry: LanguageRegistry | undefined;

/** The rules an index uses by default (same defaults as `CKGDatabase.open`). */
export function defaultSearchContext(): SearchContext {
  defaultRegistry ??= createBuiltinRegistry(); // walking needs no visitor
  return { registry: defaultRegistry, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: true };
}

/**
 * Default time budget of a search: afterwards the results found so far are returned, marked partial.
 *
 * @example
 * ```ts
 * const patient = await grep({ fs, root, pattern: 'x', timeoutMs: 3 * DEFAULT_SEARCH_TIMEOUT_MS });
 * ```
 * @public
 */
export const DEFAULT_SEARCH_TIMEOUT_MS = 20_000;

/** How long (ms) a search works before it lets timers and abort events run. */
const YIELD_EVERY_MS = 8;

export function abortedError(signal: AbortSignal): CKGError {
  return new CKGError('ABORTED', 'The operation was aborted', { reason: String(signal.reason) });
}

/** The clock of one search: its deadline, its abort signal, and its turns given to the event loop. */
export class SearchClock {
  readonly #deadline: number;
  readonly #signal: AbortSignal | undefined;
  #lastYield = performance.now();
  #timedOut = false;

  constructor(timeoutMs: number, signal: AbortSignal | undefined) {
    this.#deadline = performance.now() + timeoutMs;
    this.#signal = signal;
  }

  /** True once the deadline has passed (checked now). */
  expired(): boolean {
    if (!this.#timedOut && performance.now() > this.#deadline) this.#timedOut = true;
    return this.#timedOut;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  /** Throws `ABORTED` when the signal fired. */
  check(): void {
    if (this.#signal?.aborted) throw abortedError(this.#signal);
  }

  /** Gives the event loop a turn when the search has run for a while (so abort events and timers fire). */
  async breathe(): Promise<void> {
    if (performance.now() - this.#lastYield > YIELD_EVERY_MS) {
      await yieldToEventLoop();
      this.#lastYield = performance.now();
    }
    this.check();
  }
}

/**
 * The files under `root` in walk order, as the walk finds them (the walk runs on while the
 * caller consumes): the indexing walker's rules (`.gitignore`, skipped folders, hidden files
 * opt-in, symlinked folders not followed), every file rather than only indexable ones, no size
 * cap. Stops the walk when the caller stops iterating, without waiting for a file system call
 * the walk has in flight (a slow folder's listing): breaking out of the loop returns at once.
 */
export async function* walkSearchFiles(fs: FsAdapter, root: string, context: SearchContext, hidden: boolean, clock: SearchClock): AsyncGenerator<SearchFile, void, undefined> {
  const queue: (SearchFile | undefined)[] = [];
  let head = 0;
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  let stopped = false;
  const push = (file: SearchFile): void => {
    if (stopped) return; // found after the caller stopped: nobody reads it
    queue.push(file);
    wake?.();
    wake = undefined;
  };
  const stop = new AbortController();
  const walk = walkCodebase(fs, root, {
    registry: context.registry,
    maxFileSize: Infinity,
    skipDirectories: context.skipDirectories,
    exclude: context.exclude,
    respectGitignore: context.respectGitignore,
    listings: context.listings,
    hidden,
    onFile: (f) => push({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, language: f.language }),
    onOtherFile: (f) => push({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, language: undefined }),
    signal: stop.signal,
  }).then(
    () => {
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      finished = true;
      wake?.();
    },
  );
  try {
    for (;;) {
      if (head < queue.length) {
        const file = queue[head]!;
        queue[head++] = undefined; // consumed: let it go
        yield file;
        continue;
      }
      if (finished) {
        if (failure !== undefined) throw failure;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // The walk stops at its next step. It is not awaited: it may be waiting on a listing that
    // takes long (a slow or hung folder), and the caller who broke out of the loop must not wait
    // for it (the walk's end or failure is handled above, so nothing goes unhandled).
    stopped = true;
    stop.abort();
  }
}

/** Checks the options every search takes and returns the adapter's inputs. */
export function checkRoot(fs: FileSystem | undefined, root: unknown): string {
  if (fs === undefined || fs === null) throw new CKGError('INVALID_ARGUMENT', 'fs is required');
  if (typeof root !== 'string' || !isAbsolute(root)) throw new CKGError('INVALID_ARGUMENT', `root must be an absolute POSIX path, got ${String(root)}`);
  return normalize(root);
}

/** A non-negative integer option, or its default. */
export function countOption(name: string, value: unknown, fallback: number, min = 0): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new CKGError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min}, got ${String(value)}`);
  }
  return value;
}

export async function assertSearchRoot(fs: FsAdapter, root: string): Promise<void> {
  const info = await fs.stat(root);
  if (!info) throw new CKGError('NOT_FOUND', `Search root ${root} does not exist`, { path: root });
  if (info.kind !== 'directory') throw new CKGError('NOT_A_DIRECTORY', `Search root ${root} is not a directory`, { path: root });
}

/** Most recently modified first, then by path: agents work on live code first. */
export function byRecency(a: { readonly path: string; readonly mtimeMs: number }, b: { readonly path: string; readonly mtimeMs: number }): number {
  if (a.mtimeMs !== b.mtimeMs) return b.mtimeMs - a.mtimeMs;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
