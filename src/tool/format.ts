import type { ClassEntry, FunctionEntry } from '../db/entries.js';

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
  let out = header;
  for (let k = 0; k < entries.length; k++) {
    const entry = entries[k]!;
    if (out.length + entry.length <= limit) {
      out += entry;
      continue;
    }
    if (k === 0) out += cut(entry, limit - out.length);
    return `${out}\n<response clipped> ${entries.length - k} more entries not shown`;
  }
  return out;
}

export function formatFunctions(fullIdentifier: string, entries: readonly FunctionEntry[], printBody: boolean): string {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return `No functions named ${identifier} found.`;
  const header = `Found ${entries.length} ${plural(entries.length, 'function', 'functions')} named ${identifier}:\n`;
  return clipEntries(
    header,
    entries.map((e, i) => `${i + 1}. ${e.filePath}:${e.startLine}-${e.endLine}\n${printBody ? `${e.body}\n\n` : ''}`),
  );
}

export function formatClassMethods(fullIdentifier: string, entries: readonly FunctionEntry[], printBody: boolean): string {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return `No class methods named ${identifier} found.`;
  const header = `Found ${entries.length} ${plural(entries.length, 'class method', 'class methods')} named ${identifier}:\n`;
  return clipEntries(
    header,
    entries.map(
      (e, i) =>
        `${i + 1}. ${e.filePath}:${e.startLine}-${e.endLine} within class ${e.parentClass ?? ''}\n${printBody ? `${e.body}\n\n` : ''}`,
    ),
  );
}

export function formatClasses(fullIdentifier: string, entries: readonly ClassEntry[], printBody: boolean): string {
  const identifier = echoed(fullIdentifier);
  if (entries.length === 0) return `No classes named ${identifier} found.`;
  const header = `Found ${entries.length} ${plural(entries.length, 'class', 'classes')} named ${identifier}:\n`;
  return clipEntries(
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
