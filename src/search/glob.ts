import { compileGlobs } from '../glob/glob.js';
import { CKGError } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { relativeInside } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import {
  assertSearchRoot,
  byRecency,
  checkRoot,
  countOption,
  DEFAULT_SEARCH_TIMEOUT_MS,
  defaultSearchContext,
  SearchClock,
  walkSearchFiles,
  type SearchContext,
} from './walk.js';

/**
 * Options of {@link glob} and {@link globStream}.
 *
 * @example
 * ```ts
 * const options: GlobOptions = { fs, root: '/abs/repo', pattern: 'src/*.ts', limit: 20 };
 * const { results } = await glob(options);
 * ```
 * @public
 */
export interface GlobOptions {
  /** The file system to walk: `node:fs`, a memfs volume, a browser file system. */
  readonly fs: FileSystem;
  /** Absolute POSIX path of the folder to search. */
  readonly root: string;
  /**
   * A glob (`*`, `?`, `[...]`, `**`, `{a,b}`), relative to `root` (an absolute pattern inside `root` is made relative).
   * A pattern without `/` matches file names at any depth (`*.py`), like `.gitignore` and `rg -g`.
   */
  readonly pattern: string;
  /** Most entries returned. Default 100. */
  readonly limit?: number;
  /** Entries skipped first, for paging. Default 0. */
  readonly offset?: number;
  /** Also list hidden files and folders (except `.git`). Default false. */
  readonly hidden?: boolean;
  /** Stops the search with a CKGError `ABORTED`. */
  readonly signal?: AbortSignal;
}

/**
 * A file found by {@link glob}: its absolute path, modification time and size.
 *
 * @example
 * ```ts
 * const newest: GlobMatch | undefined = (await glob({ fs, root, pattern: '*.py' })).results[0];
 * ```
 * @public
 */
export interface GlobMatch {
  /** The file's absolute path. */
  readonly path: string;
  /** Its modification time, in ms since the epoch (results are newest first). */
  readonly mtimeMs: number;
  /** Its size in bytes. */
  readonly size: number;
}

/**
 * What {@link glob} returns: one page of the matching files, most recently modified first.
 *
 * @example
 * ```ts
 * const r: GlobResult = await glob({ fs, root, pattern: '*.md' });
 * if (r.truncated) console.log(`${r.totalMatches - r.results.length} more not shown`);
 * ```
 * @public
 */
export interface GlobResult {
  /** The files of this page, newest first. */
  readonly results: readonly GlobMatch[];
  /** More files matched than this page shows (after `offset`). */
  readonly truncated: boolean;
  /** The search stopped at its time budget (20 s): the results are those found until then. */
  readonly partial: boolean;
  /** Every file that matched. */
  readonly totalMatches: number;
}

/**
 * Default most entries of a glob.
 *
 * @example
 * ```ts
 * const all = await glob({ fs, root, pattern: '*.py', limit: 10 * DEFAULT_GLOB_LIMIT });
 * ```
 * @public
 */
export const DEFAULT_GLOB_LIMIT = 100;

/** A test of a root-relative path against a glob (see {@link GlobOptions.pattern}). */
export function pathMatcher(pattern: unknown, root: string, name = 'pattern'): (relativePath: string) => boolean {
  if (typeof pattern !== 'string' || pattern.trim() === '') throw new CKGError('INVALID_ARGUMENT', `${name} must be a non-empty glob`);
  let p = pattern.trim();
  if (p.startsWith('/')) {
    const rel = relativeInside(root, p);
    if (rel === undefined) throw new CKGError('INVALID_ARGUMENT', `${name} ${p} is not inside ${root}`);
    p = rel === '' ? '**' : rel;
  }
  while (p.startsWith('./')) p = p.slice(2);
  // An agent's pattern: matched in bounded time (src/glob), never by a backtracking regex. A
  // pattern without a slash matches a name at any depth.
  return compileGlobs([p.includes('/') ? p : `**/${p}`]);
}

interface GlobRun {
  readonly matches: AsyncGenerator<GlobMatch, void, undefined>;
  readonly clock: SearchClock;
}

function startGlob(options: GlobOptions, context: SearchContext): { run: () => Promise<GlobRun>; limit: number; offset: number } {
  const root = checkRoot(options?.fs, options?.root);
  const fs = new FsAdapter(options.fs);
  const test = pathMatcher(options.pattern, root);
  const limit = countOption('limit', options.limit, DEFAULT_GLOB_LIMIT, 1);
  const offset = countOption('offset', options.offset, 0);
  const hidden = options.hidden === true;
  const prefix = root === '/' ? '/' : `${root}/`;
  const run = async (): Promise<GlobRun> => {
    const clock = new SearchClock(DEFAULT_SEARCH_TIMEOUT_MS, options.signal);
    clock.check();
    await assertSearchRoot(fs, root);
    const matches = (async function* () {
      for await (const file of walkSearchFiles(fs, root, context, hidden, clock)) {
        await clock.breathe();
        if (clock.expired()) return;
        if (test(file.path.slice(prefix.length))) yield { path: file.path, mtimeMs: file.mtimeMs, size: file.size };
      }
    })();
    return { matches, clock };
  };
  return { run, limit, offset };
}

/** {@link glob} with the walk rules of a database (internal: `CKGDatabase.glob`). */
export async function globWith(options: GlobOptions, context: SearchContext): Promise<GlobResult> {
  const { run, limit, offset } = startGlob(options, context);
  const { matches, clock } = await run();
  const all: GlobMatch[] = [];
  for await (const match of matches) all.push(match);
  all.sort(byRecency);
  return { results: all.slice(offset, offset + limit), truncated: all.length > offset + limit, partial: clock.timedOut, totalMatches: all.length };
}

/** {@link globStream} with the walk rules of a database (internal). */
export async function* globStreamWith(options: GlobOptions, context: SearchContext): AsyncGenerator<GlobMatch, void, undefined> {
  const { run, limit, offset } = startGlob(options, context);
  const { matches } = await run();
  let seen = 0;
  for await (const match of matches) {
    if (seen++ < offset) continue;
    yield match;
    if (seen >= offset + limit) return;
  }
}

/**
 * Files whose path matches a glob, with the walk rules of indexing (`.gitignore`, skipped
 * dependency folders, hidden files opt-in): most recently modified first, path as tie-break,
 * `limit` (default 100) per page from `offset`.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * const { results, truncated, totalMatches } = await glob({ fs, root: '/abs/repo', pattern: '*.test.ts' });
 * for (const r of results) console.log(r.path);
 * if (truncated) console.log(`(${totalMatches - results.length} more not shown)`);
 * ```
 * @public
 */
export async function glob(options: GlobOptions): Promise<GlobResult> {
  return await globWith(options, defaultSearchContext());
}

/**
 * The files {@link glob} finds, yielded as the walk finds them (walk order, not sorted), at most
 * `limit` after `offset`. Breaking out of the loop stops the walk.
 *
 * @example
 * ```ts
 * for await (const file of globStream({ fs, root: '/abs/repo', pattern: '*.py', limit: 1000 })) console.log(file.path);
 * ```
 * @public
 */
export function globStream(options: GlobOptions): AsyncIterable<GlobMatch> {
  return globStreamWith(options, defaultSearchContext());
}
