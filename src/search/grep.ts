import { looksBinary } from '../indexer/decode.js';
import { CKGError } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import type { FileSystem } from '../fs/types.js';
import { pathMatcher } from './glob.js';
import { fileReader } from './read.js';
import { createMatcher, type TextMatcher } from './matcher.js';
import { compilePattern } from './pattern.js';
import { decodeText, lineAt, lineStarts, lineText } from './text.js';
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
  type SearchFile,
} from './walk.js';

/**
 * What {@link grep} returns: `files_with_matches` (default) the paths of matching files,
 * `content` the matching lines (`path:line:text`, with context lines), `count` the number of
 * matching lines per file.
 *
 * @example
 * ```ts
 * const mode: GrepOutputMode = 'content';
 * ```
 * @public
 */
export type GrepOutputMode = 'files_with_matches' | 'content' | 'count';

/**
 * Options of {@link grep} and {@link grepStream}.
 *
 * @example
 * ```ts
 * const options: GrepOptions = { fs, root: '/abs/repo', pattern: 'def (get|set)_\\w+', outputMode: 'content', context: 2 };
 * ```
 * @public
 */
export interface GrepOptions {
  /** The file system to walk. */
  readonly fs: FileSystem;
  /** Absolute POSIX path of the folder to search. */
  readonly root: string;
  /**
   * A JavaScript regular expression (`new RegExp` syntax), matched per line; a pattern without
   * metacharacters is searched as plain text. Lookarounds and backreferences are refused (grep
   * runs in linear time); see docs/search.md for the differences from ripgrep's syntax.
   */
  readonly pattern: string;
  /** Default `files_with_matches`. */
  readonly outputMode?: GrepOutputMode;
  /** Default false. */
  readonly caseInsensitive?: boolean;
  /** Let a match span lines (`.` then matches line breaks too). Default false. */
  readonly multiline?: boolean;
  /** Only files whose path matches this glob (as in {@link GlobOptions.pattern}). */
  readonly glob?: string;
  /** Only files of this language id (`python`, `typescript`, …: the languages' registry). */
  readonly language?: string;
  /** Lines of context before each match (`content`; overrides `context`). */
  readonly before?: number;
  /** Lines of context after each match (`content`; overrides `context`). */
  readonly after?: number;
  /** Lines of context before and after each match (`content`). Default 0. */
  readonly context?: number;
  /** Most entries returned (files, lines or counts). Default 250. */
  readonly headLimit?: number;
  /** Entries skipped first, for paging. Default 0. */
  readonly offset?: number;
  /** After this many ms the results found so far are returned with `partial: true`. Default 20,000. */
  readonly timeoutMs?: number;
  /** Also search hidden files and folders (except `.git`). Default false. */
  readonly hidden?: boolean;
  /** Stops the search with a CKGError `ABORTED`. */
  readonly signal?: AbortSignal;
}

/**
 * A file with at least one match (`files_with_matches`).
 *
 * @example
 * ```ts
 * const entry: GrepFileEntry = { type: 'file', path: '/abs/repo/app.py', mtimeMs: 1767225600000 };
 * ```
 * @public
 */
export interface GrepFileEntry {
  /** A file with a match (`files_with_matches`). */
  readonly type: 'file';
  /** The file's absolute path. */
  readonly path: string;
  /** Its modification time, in ms since the epoch. */
  readonly mtimeMs: number;
}

/**
 * A line of `content` output: a matching line, or a context line around one (`match: false`).
 *
 * @example
 * ```ts
 * const entry: GrepLineEntry = { type: 'line', path: '/abs/repo/app.py', line: 3, text: 'def main():', match: true, truncated: false };
 * ```
 * @public
 */
export interface GrepLineEntry {
  /** A line (`content`): a match or a context line. */
  readonly type: 'line';
  /** The file's absolute path. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  /** The line without its line break, cut after 500 characters with a marker. */
  readonly text: string;
  /** True for a matching line, false for a context line around one. */
  readonly match: boolean;
  /** True when `text` was cut. */
  readonly truncated: boolean;
  /** With `CKGDatabase.grep`: the function or class the line is in (`Catalog.add`). */
  readonly enclosing?: string;
}

/**
 * The number of matching lines of a file (`count`).
 *
 * @example
 * ```ts
 * const entry: GrepCountEntry = { type: 'count', path: '/abs/repo/app.py', count: 4, mtimeMs: 1767225600000 };
 * ```
 * @public
 */
export interface GrepCountEntry {
  /** A file's number of matching lines (`count`). */
  readonly type: 'count';
  /** The file's absolute path. */
  readonly path: string;
  /** Its matching lines. */
  readonly count: number;
  /** Its modification time, in ms since the epoch. */
  readonly mtimeMs: number;
}

/**
 * One entry of a grep result, by output mode.
 *
 * @example
 * ```ts
 * const show = (e: GrepEntry): string => (e.type === 'line' ? `${e.path}:${e.line}:${e.text}` : e.type === 'count' ? `${e.path}:${e.count}` : e.path);
 * ```
 * @public
 */
export type GrepEntry = GrepFileEntry | GrepLineEntry | GrepCountEntry;

/**
 * What {@link grep} returns: one page of entries, files ordered most recently modified first.
 *
 * @example
 * ```ts
 * const r: GrepResult = await grep({ fs, root, pattern: 'TODO' });
 * if (r.partial) console.log('timed out: results found so far');
 * ```
 * @public
 */
export interface GrepResult {
  /** The entries of this page, in the output mode's shape. */
  readonly results: readonly GrepEntry[];
  /** More entries exist than this page shows (after `offset`). */
  readonly truncated: boolean;
  /** The search stopped at `timeoutMs`: the entries are those of the files searched until then. */
  readonly partial: boolean;
  /** Matching files (`files_with_matches`) or matching lines (`content`, `count`). */
  readonly totalMatches: number;
}

/**
 * Default most entries of a grep: about 250 lines stay within a few per cent of a 200k-token context.
 *
 * @example
 * ```ts
 * const next = await grep({ fs, root, pattern: 'TODO', outputMode: 'content', offset: DEFAULT_HEAD_LIMIT });
 * ```
 * @public
 */
export const DEFAULT_HEAD_LIMIT = 250;

const OUTPUT_MODES: readonly GrepOutputMode[] = ['files_with_matches', 'content', 'count'];

/** The entries of one file, in line order, and what they count for. */
interface FileResult {
  readonly file: SearchFile;
  readonly entries: GrepEntry[];
  /** Matching lines (or 1 for `files_with_matches`). */
  readonly matches: number;
  /** Entries the file contributes (`entries` may have been dropped from memory since). */
  readonly total: number;
}

interface GrepPlan {
  readonly fs: FsAdapter;
  readonly root: string;
  readonly mode: GrepOutputMode;
  readonly before: number;
  readonly after: number;
  readonly headLimit: number;
  readonly offset: number;
  readonly hidden: boolean;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  readonly multiline: boolean;
  readonly include: ((path: string) => boolean) | undefined;
  readonly language: string | undefined;
  readonly matcher: Promise<TextMatcher>;
}

function plan(options: GrepOptions, context: SearchContext): GrepPlan {
  const root = checkRoot(options?.fs, options?.root);
  const fs = new FsAdapter(options.fs);
  const mode = options.outputMode ?? 'files_with_matches';
  if (!OUTPUT_MODES.includes(mode)) throw new CKGError('INVALID_ARGUMENT', `outputMode must be one of ${OUTPUT_MODES.join(', ')}, got ${String(mode)}`);
  const contextLines = countOption('context', options.context, 0);
  const language = options.language;
  if (language !== undefined && (typeof language !== 'string' || !context.registry.get(language))) {
    throw new CKGError('UNKNOWN_LANGUAGE', `Unknown language ${String(language)}; known: ${context.registry.list().map((l) => l.id).join(', ')}`, { language });
  }
  const prefix = root === '/' ? '/' : `${root}/`;
  const test = options.glob === undefined ? undefined : pathMatcher(options.glob, root, 'glob');
  const compiled = compilePattern(options.pattern, { caseInsensitive: options.caseInsensitive === true, multiline: options.multiline === true });
  return {
    fs,
    root,
    mode,
    before: countOption('before', options.before, contextLines),
    after: countOption('after', options.after, contextLines),
    headLimit: countOption('headLimit', options.headLimit, DEFAULT_HEAD_LIMIT, 1),
    offset: countOption('offset', options.offset, 0),
    hidden: options.hidden === true,
    timeoutMs: countOption('timeoutMs', options.timeoutMs, DEFAULT_SEARCH_TIMEOUT_MS),
    signal: options.signal,
    multiline: options.multiline === true,
    include: test === undefined ? undefined : (path) => test(path.slice(prefix.length)),
    language,
    matcher: createMatcher(compiled),
  };
}

/** How many matches a file is searched for between two looks at the clock. */
const CLOCK_EVERY_MATCHES = 256;

/**
 * Searches one file. Returns undefined when it has no match, or when the deadline passed while
 * it was being searched (a file is reported whole or not at all).
 */
function searchText(file: SearchFile, text: string, matcher: TextMatcher, p: GrepPlan, clock: SearchClock, context: SearchContext): FileResult | undefined {
  if (text.length === 0) return undefined; // an empty file has no line, not one empty line
  if (p.mode === 'files_with_matches') {
    // After a final line break there is no line: `^$` must not match the end of "a\n".
    const lines = text.charCodeAt(text.length - 1) === 10 ? text.slice(0, -1) : text;
    return matcher.test(lines) ? { file, entries: [{ type: 'file', path: file.path, mtimeMs: file.mtimeMs }], matches: 1, total: 1 } : undefined;
  }
  const find = matcher.finder(text);
  let span = find(0);
  if (span === undefined) return undefined;
  const starts = lineStarts(text);
  const matched: number[] = [];
  let hint = 0;
  for (let n = 1; span !== undefined; n++) {
    if (span.start >= text.length && text.length > 0 && starts.length > 0 && text.charCodeAt(text.length - 1) === 10) break; // past the last line break: no line
    const first = lineAt(starts, span.start, hint);
    const last = p.multiline && span.end > span.start ? lineAt(starts, span.end - 1, first) : first;
    for (let l = Math.max(first, (matched[matched.length - 1] ?? -1) + 1); l <= last; l++) matched.push(l);
    hint = last;
    if (last + 1 >= starts.length) break;
    if (n % CLOCK_EVERY_MATCHES === 0 && clock.expired()) return undefined;
    span = find(starts[last + 1]!);
  }
  if (clock.expired()) return undefined;
  if (p.mode === 'count') return { file, entries: [{ type: 'count', path: file.path, count: matched.length, mtimeMs: file.mtimeMs }], matches: matched.length, total: 1 };
  const enclosing = context.enclosing?.(file);
  const entries: GrepEntry[] = [];
  let shownUpTo = -1; // the last line index emitted
  for (let m = 0; m < matched.length; m++) {
    const l = matched[m]!;
    // Context after a match stops before the next match, which emits its own context.
    const to = Math.min(l + p.after, starts.length - 1, (matched[m + 1] ?? Infinity) - 1);
    for (let k = Math.max(l - p.before, shownUpTo + 1); k <= to; k++) {
      const { text: t, truncated } = lineText(text, starts, k);
      const name = enclosing?.(k + 1);
      entries.push({ type: 'line', path: file.path, line: k + 1, text: t, match: k === l, truncated, ...(name === undefined ? {} : { enclosing: name }) });
    }
    shownUpTo = to;
  }
  return { file, entries, matches: matched.length, total: entries.length };
}

/** The files' results in walk order, with the search's clock. */
async function* searchFiles(p: GrepPlan, context: SearchContext, clock: SearchClock): AsyncGenerator<FileResult, void, undefined> {
  const matcher = await p.matcher;
  clock.check();
  await assertSearchRoot(p.fs, p.root);
  const read = fileReader(p.fs);
  for await (const file of walkSearchFiles(p.fs, p.root, context, p.hidden, clock)) {
    await clock.breathe();
    if (clock.expired()) return;
    if (p.include !== undefined && !p.include(file.path)) continue;
    if (p.language !== undefined && file.language?.id !== p.language) continue;
    let bytes: Uint8Array;
    try {
      bytes = await read(file.path, file.size);
    } catch {
      continue; // unreadable (permissions, gone since the listing): like ripgrep, search the rest
    }
    if (looksBinary(bytes) || !matcher.mayMatchBytes(bytes)) continue;
    const result = searchText(file, decodeText(bytes), matcher, p, clock, context);
    if (result !== undefined) yield result;
  }
}

/** {@link grep} with the rules and extras of a database (internal: `CKGDatabase.grep`). */
export async function grepWith(options: GrepOptions, context: SearchContext): Promise<GrepResult> {
  const p = plan(options, context);
  const clock = new SearchClock(p.timeoutMs, p.signal);
  const pageEnd = p.offset + p.headLimit;
  // Every file's counts are kept; entries only while the file may still rank within the page
  // (a file's rank only falls as files are added), so memory stays bounded on huge results.
  const files: FileResult[] = [];
  let kept = 0;
  let pruneAt = 4 * pageEnd + 4096;
  const prune = (): void => {
    files.sort((a, b) => byRecency(a.file, b.file));
    let before = 0;
    kept = 0;
    for (let k = 0; k < files.length; k++) {
      const f = files[k]!;
      if (before >= pageEnd && f.entries.length > 0) files[k] = { ...f, entries: [] };
      before += f.total;
      kept += files[k]!.entries.length;
    }
    pruneAt = Math.max(pruneAt, 2 * kept);
  };
  let totalMatches = 0;
  for await (const result of searchFiles(p, context, clock)) {
    totalMatches += result.matches;
    files.push(result);
    kept += result.entries.length;
    if (kept > pruneAt) prune();
  }
  files.sort((a, b) => byRecency(a.file, b.file));
  const page: GrepEntry[] = [];
  let skipped = 0;
  let total = 0;
  for (const f of files) {
    const n = f.total;
    total += n;
    if (page.length >= p.headLimit) continue;
    if (skipped + n <= p.offset) {
      skipped += n;
      continue;
    }
    const from = Math.max(0, p.offset - skipped);
    skipped += from;
    page.push(...f.entries.slice(from, from + p.headLimit - page.length));
  }
  return { results: page, truncated: total > pageEnd, partial: clock.timedOut, totalMatches };
}

/** {@link grepStream} with the rules and extras of a database (internal). */
export async function* grepStreamWith(options: GrepOptions, context: SearchContext): AsyncGenerator<GrepEntry, void, undefined> {
  const p = plan(options, context);
  const clock = new SearchClock(p.timeoutMs, p.signal);
  let seen = 0;
  for await (const result of searchFiles(p, context, clock)) {
    for (const entry of result.entries) {
      if (seen++ < p.offset) continue;
      yield entry;
      if (seen >= p.offset + p.headLimit) return;
    }
  }
}

/**
 * Lines matching a regular expression in the files under `root`, with the walk rules of
 * indexing (`.gitignore`, skipped dependency folders, hidden files opt-in), binary files skipped.
 * Files are ordered most recently modified first; `headLimit` (default 250) entries per page
 * from `offset`. Runs in time linear in the text searched, whatever the pattern; after
 * `timeoutMs` (default 20 s) the results found so far are returned with `partial: true`.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * const { results, truncated } = await grep({ fs, root: '/abs/repo', pattern: 'parse_config\\(', outputMode: 'content', context: 1 });
 * for (const e of results) if (e.type === 'line') console.log(`${e.path}${e.match ? ':' : '-'}${e.line}${e.match ? ':' : '-'}${e.text}`);
 * ```
 * @public
 */
export async function grep(options: GrepOptions): Promise<GrepResult> {
  return await grepWith(options, defaultSearchContext());
}

/**
 * The entries {@link grep} finds, yielded while the walk is still running (walk order, not
 * sorted), at most `headLimit` after `offset`. Breaking out of the loop stops the search; at
 * `timeoutMs` the stream ends after the last whole file. Throws `ABORTED` when `signal` fires.
 *
 * @example
 * ```ts
 * for await (const entry of grepStream({ fs, root: '/abs/repo', pattern: 'TODO', outputMode: 'content' })) {
 *   if (entry.type === 'line') console.log(`${entry.path}:${entry.line}:${entry.text}`);
 * }
 * ```
 * @public
 */
export function grepStream(options: GrepOptions): AsyncIterable<GrepEntry> {
  return grepStreamWith(options, defaultSearchContext());
}
