import type { RE2JS } from 're2js';
import { CKGError } from '../errors.js';
import type { CompiledPattern } from './pattern.js';

/** One match: UTF-16 offsets into the file's text. */
export interface MatchSpan {
  readonly start: number;
  readonly end: number;
}

/** Finds a compiled pattern in decoded file texts. Every method runs in time linear in the text. */
export interface TextMatcher {
  /** Whether `bytes` may hold a match (a cheap check on the raw bytes before decoding). */
  mayMatchBytes(bytes: Uint8Array): boolean;
  /** Whether the text holds a match (the text's final line break starts no line to match). */
  test(text: string): boolean;
  /**
   * Successive matches, each searched from where the caller asks (the start of the next line).
   * In line mode a span may start where its line starts rather than where the match does.
   */
  finder(text: string): (from: number) => MatchSpan | undefined;
}

type Re2Module = typeof import('re2js');
let re2Module: Promise<Re2Module> | undefined;

/** re2js is loaded on the first regular expression, so literal searches (and bundles) never pay for it. */
function loadRe2(): Promise<Re2Module> {
  re2Module ??= import('re2js');
  return re2Module;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

interface NodeBufferLike {
  prototype: { indexOf(this: Uint8Array, value: Uint8Array, from?: number): number };
}
// Node's Buffer#indexOf (a native substring search) when it is there; a portable loop otherwise.
const nodeBuffer = (globalThis as { Buffer?: NodeBufferLike }).Buffer;
const nativeIndexOf = typeof nodeBuffer?.prototype.indexOf === 'function' ? nodeBuffer.prototype.indexOf : undefined;

/** Offset of `needle` in `hay`, or -1: native where available, else memchr on the needle's rarest-looking byte. */
export function bytesIndexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  if (needle.length === 0) return from <= hay.length ? from : -1;
  if (nativeIndexOf !== undefined) return nativeIndexOf.call(hay, needle, from);
  // Anchor on the needle's byte least likely in source text (upper-case, digits, punctuation
  // over lower-case letters and spaces), found with the native TypedArray indexOf.
  let anchor = 0;
  for (let k = 1; k < needle.length; k++) if (byteRank(needle[k]!) < byteRank(needle[anchor]!)) anchor = k;
  const b = needle[anchor]!;
  for (let i = hay.indexOf(b, from + anchor); i >= 0; i = hay.indexOf(b, i + 1)) {
    const start = i - anchor;
    if (start + needle.length > hay.length) return -1;
    let k = 0;
    while (k < needle.length && hay[start + k] === needle[k]) k++;
    if (k === needle.length) return start;
  }
  return -1;
}

/** Smaller = rarer in source code (a rough guess; only speed depends on it). */
function byteRank(b: number): number {
  if (b === 32 || b === 101 || b === 116 || b === 97 || b === 111 || b === 105 || b === 110 || b === 115 || b === 114) return 3; // space, e t a o i n s r
  if (b >= 97 && b <= 122) return 2;
  if (b === 10 || b === 9 || b === 40 || b === 41 || b === 95 || b === 46 || b === 44) return 2;
  return 1;
}

/**
 * Builds the matcher of a pattern: `indexOf` for case-sensitive literals, a JavaScript RegExp
 * for case-insensitive literals (a literal has no quantifier, so the backtracking engine runs
 * in linear time on it), re2js (linear-time by construction) for every regular expression.
 */
export async function createMatcher(pattern: CompiledPattern): Promise<TextMatcher> {
  const encoder = new TextEncoder();
  const required = pattern.required;
  // Byte check before decoding: a file without the required literals (case-sensitive) cannot match.
  const requiredBytes = !pattern.caseInsensitive && required !== undefined ? required.literals.map((l) => encoder.encode(l)) : undefined;
  const mayMatchBytes = (bytes: Uint8Array): boolean => {
    if (requiredBytes === undefined) return true;
    return required!.mode === 'all' ? requiredBytes.every((n) => bytesIndexOf(bytes, n) >= 0) : requiredBytes.some((n) => bytesIndexOf(bytes, n) >= 0);
  };

  if (pattern.kind === 'literal' && !pattern.caseInsensitive) {
    const needle = pattern.literal;
    return {
      mayMatchBytes,
      test: (text) => text.includes(needle),
      finder: (text) => (from) => {
        const at = text.indexOf(needle, from);
        return at < 0 ? undefined : { start: at, end: at + needle.length };
      },
    };
  }
  if (pattern.kind === 'literal') {
    const re = new RegExp(escapeRegExp(pattern.literal), 'giu');
    return {
      mayMatchBytes,
      test: (text) => {
        re.lastIndex = 0;
        return re.test(text);
      },
      finder: (text) => (from) => {
        re.lastIndex = from;
        const m = re.exec(text);
        return m === null ? undefined : { start: m.index, end: m.index + m[0].length };
      },
    };
  }
  const { RE2JS } = await loadRe2();
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern.re2, RE2JS.MULTILINE | (pattern.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CKGError('INVALID_ARGUMENT', `Invalid grep pattern ${JSON.stringify(pattern.source)}: ${why}`, { pattern: pattern.source });
  }
  const wholeText: TextMatcher = {
    mayMatchBytes,
    test: (text) => compiled.test(text),
    finder: (text) => {
      const matcher = compiled.matcher(text);
      return (from) => (from <= text.length && matcher.find(from) ? { start: matcher.start(), end: matcher.end() } : undefined);
    },
  };
  if (required === undefined || pattern.multiline) return wholeText;
  // Line mode with required literals: only lines holding the longest literal of `all`, or one
  // of `any`, can match. The engine then runs on those lines alone instead of the whole text.
  const anchors = required.mode === 'all' ? [required.literals[0]!] : required.literals;
  const occurrences = (text: string): ((from: number) => number) => {
    if (pattern.caseInsensitive) {
      const re = new RegExp(anchors.map(escapeRegExp).join('|'), 'giu');
      return (from) => {
        re.lastIndex = from;
        return re.exec(text)?.index ?? -1;
      };
    }
    const next = anchors.map(() => -2); // per anchor: its next occurrence at or after the last `from`, -1 none
    return (from) => {
      let best = -1;
      for (let k = 0; k < anchors.length; k++) {
        if (next[k]! !== -1 && next[k]! < from) next[k] = text.indexOf(anchors[k]!, from);
        const at = next[k]!;
        if (at >= 0 && (best < 0 || at < best)) best = at;
      }
      return best;
    };
  };
  const nextMatchingLine = (text: string): ((from: number) => MatchSpan | undefined) => {
    const occurrence = occurrences(text);
    return (from) => {
      for (let at = occurrence(from); at >= 0; at = occurrence(from)) {
        const start = text.lastIndexOf('\n', at - 1) + 1;
        let end = text.indexOf('\n', at);
        if (end < 0) end = text.length;
        if (compiled.test(text.slice(start, end))) return { start, end: start };
        from = end + 1;
      }
      return undefined;
    };
  };
  return {
    mayMatchBytes,
    test: (text) => nextMatchingLine(text)(0) !== undefined,
    finder: nextMatchingLine,
  };
}
