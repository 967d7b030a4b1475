import type { ClassEntry, FunctionEntry } from '../db/entries.js';
import type { GlobResult } from '../search/glob.js';
import type { GrepEntry, GrepResult } from '../search/grep.js';

/**
 * The output limit of the reference CKG tool, kept so agent prompts written for it still fit.
 *
 * @example
 * ```ts
 * const fits = 'output' in result && result.output.length <= MAX_OUTPUT_CHARS;
 * ```
 */
export const MAX_OUTPUT_CHARS = 16000;

/**
 * How much of a caller's text (an identifier, a path) an answer repeats.
 *
 * @example
 * ```ts
 * const shown = text.length > MAX_ECHOED_CHARS ? echoed(text) : text;
 * ```
 */
export const MAX_ECHOED_CHARS = 200;

/**
 * `text` as an answer repeats it: whole when short (the reference formats, byte for byte), else
 * its first {@link MAX_ECHOED_CHARS} characters and its length, so a 100 kB identifier does not
 * come back as 100 kB of output.
 *
 * @example
 * ```ts
 * echoed('parse_config'); // 'parse_config'
 * echoed('x'.repeat(100_000)); // 'xxx…x… (100000 characters)'
 * ```
 */
export function echoed(text: string): string {
  return text.length <= MAX_ECHOED_CHARS ? text : `${cut(text, MAX_ECHOED_CHARS)}… (${text.length} characters)`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Cuts at `limit` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  if (limit <= 0) return '';
  let end = Math.min(limit, text.length);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * Joins a header and entries, clipping at {@link MAX_OUTPUT_CHARS} like the reference tool but
 * at entry boundaries: whole entries are shown while they fit, then
 * `\n<response clipped> K more entries not shown` where K counts every entry not shown in full
 * (so K ≥ 1). Only when not even the first entry fits is it shown cut, and counted in K.
 */
export function clipEntries(header: string, entries: readonly string[], limit = MAX_OUTPUT_CHARS): string {
  return clipEntriesShown(header, entries, limit).text;
}

/**
 * {@link clipEntries}, also telling how many entries the text shows (in full, or the first one
 * cut): the structured form of an answer lists the same entries as its text.
 */
export function clipEntriesShown(header: string, entries: readonly string[], limit = MAX_OUTPUT_CHARS): { text: string; shown: number } {
  let out = header;
  for (let k = 0; k < entries.length; k++) {
    const entry = entries[k]!;
    if (out.length + entry.length <= limit) {
      out += entry;
      continue;
    }
    if (k === 0) out += cut(entry, limit - out.length);
    return { text: `${out}\n<response clipped> ${entries.length - k} more entries not shown`, shown: k === 0 ? 1 : k };
  }
  return { text: out, shown: entries.length };
}

/** A formatted answer and how many of its entries the text shows (see {@link clipEntriesShown}). */
export interface FormattedEntries {
  readonly text: string;
  readonly shown: number;
}

export function formatFunctions(identifier: string, entries: readonly FunctionEntry[], printBody: boolean): string {
  return renderFunctions(identifier, entries, printBody).text;
}

export function renderFunctions(fullIdentifier: string, entries: readonly FunctionEntry[], printBody: boolean): FormattedEntries {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return { text: `No functions named ${identifier} found.`, shown: 0 };
  const header = `Found ${entries.length} ${plural(entries.length, 'function', 'functions')} named ${identifier}:\n`;
  return clipEntriesShown(
    header,
    entries.map((e, i) => `${i + 1}. ${e.filePath}:${e.startLine}-${e.endLine}\n${printBody ? `${e.body}\n\n` : ''}`),
  );
}

export function formatClassMethods(identifier: string, entries: readonly FunctionEntry[], printBody: boolean): string {
  return renderClassMethods(identifier, entries, printBody).text;
}

export function renderClassMethods(fullIdentifier: string, entries: readonly FunctionEntry[], printBody: boolean): FormattedEntries {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return { text: `No class methods named ${identifier} found.`, shown: 0 };
  const header = `Found ${entries.length} ${plural(entries.length, 'class method', 'class methods')} named ${identifier}:\n`;
  return clipEntriesShown(
    header,
    entries.map(
      (e, i) =>
        `${i + 1}. ${e.filePath}:${e.startLine}-${e.endLine} within class ${e.parentClass ?? ''}\n${printBody ? `${e.body}\n\n` : ''}`,
    ),
  );
}

export function formatClasses(identifier: string, entries: readonly ClassEntry[], printBody: boolean): string {
  return renderClasses(identifier, entries, printBody).text;
}

export function renderClasses(fullIdentifier: string, entries: readonly ClassEntry[], printBody: boolean): FormattedEntries {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return { text: `No classes named ${identifier} found.`, shown: 0 };
  const header = `Found ${entries.length} ${plural(entries.length, 'class', 'classes')} named ${identifier}:\n`;
  return clipEntriesShown(
    header,
    entries.map((e, i) => {
      let text = `${i + 1}. ${e.filePath}:${e.startLine}-${e.endLine}\n`;
      if (e.fields) text += `Fields:\n${e.fields}\n`;
      if (e.methods) text += `Methods:\n${e.methods}\n`;
      if (printBody) text += `${e.body}\n\n`;
      return text;
    }),
  );
}

/** Joins header, entries and a closing note; the note always shows, entries are clipped before it. */
function withNote(header: string, entries: readonly string[], note: string): string {
  return clipEntries(header, entries, MAX_OUTPUT_CHARS - note.length) + note;
}

/**
 * The notes under a glob or grep page: more entries (how many, when known, and the offset that
 * shows them), partial results.
 */
function searchNotes(shown: number, offset: number, more: number | undefined, truncated: boolean, partial: boolean): string {
  let note = '';
  if (truncated) note += `\n(${more === undefined ? 'more entries' : `${more} more`} not shown: use offset ${offset + shown})`;
  if (partial) note += '\n(partial: the search timed out; these are the results found until then)';
  return note;
}

/** The `glob` command's output: one path per line, most recently modified first. */
export function formatGlob(pattern: string, result: GlobResult, offset: number): string {
  const note = searchNotes(result.results.length, offset, Math.max(0, result.totalMatches - offset - result.results.length), result.truncated, result.partial);
  if (result.totalMatches === 0) return `No files found matching ${pattern}.${note}`;
  const header = `Found ${result.totalMatches} ${plural(result.totalMatches, 'file', 'files')} matching ${pattern}:\n`;
  return withNote(header, result.results.map((r) => `${r.path}\n`), note);
}

/**
 * The `grep` command's output, as ripgrep prints it: `path` per file, `path:count`, or
 * `path:line:text` for matching lines and `path-line-text` for context lines, with `--` between
 * groups that do not touch; a line inside an indexed definition ends with `  (in Class.method)`.
 */
export function formatGrep(pattern: string, result: GrepResult, offset: number): string {
  const entries: string[] = [];
  let previous: GrepEntry | undefined;
  for (const e of result.results) {
    if (e.type === 'file') entries.push(`${e.path}\n`);
    else if (e.type === 'count') entries.push(`${e.path}:${e.count}\n`);
    else {
      const gap = previous?.type === 'line' && (previous.path !== e.path || previous.line + 1 !== e.line);
      const sep = e.match ? ':' : '-';
      entries.push(`${gap ? '--\n' : ''}${e.path}${sep}${e.line}${sep}${e.text}${e.enclosing === undefined ? '' : `  (in ${e.enclosing})`}\n`);
    }
    previous = e;
  }
  // Matching files are the entries of files_with_matches: their count is known.
  const more = result.results[0]?.type === 'file' ? Math.max(0, result.totalMatches - offset - result.results.length) : undefined;
  const note = searchNotes(result.results.length, offset, more, result.truncated, result.partial);
  if (result.totalMatches === 0) return `No matches found for ${pattern}.${note}`;
  const first = result.results[0];
  const what =
    first?.type === 'file' || first === undefined
      ? `${result.totalMatches} ${plural(result.totalMatches, 'file', 'files')} with matches`
      : `${result.totalMatches} matching ${plural(result.totalMatches, 'line', 'lines')}`;
  return withNote(`Found ${what} for ${pattern}:\n`, entries, note);
}
