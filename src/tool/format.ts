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

export function renderFunctions(identifier: string, entries: readonly FunctionEntry[], printBody: boolean): FormattedEntries {
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

export function renderClassMethods(identifier: string, entries: readonly FunctionEntry[], printBody: boolean): FormattedEntries {
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

export function renderClasses(identifier: string, entries: readonly ClassEntry[], printBody: boolean): FormattedEntries {
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
