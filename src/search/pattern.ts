import { CKGError } from '../errors.js';

/**
 * A grep pattern, read once: a plain literal (searched with `indexOf`, no regex engine), or a
 * regular expression translated from JavaScript syntax to the RE2 syntax of the linear-time
 * engine (re2js), with line semantics built in.
 */
export interface CompiledPattern {
  readonly source: string;
  readonly kind: 'literal' | 'regex';
  /** For `literal`: the text to find. */
  readonly literal: string;
  /** For `regex`: the RE2 source (flags are applied by the matcher). */
  readonly re2: string;
  readonly caseInsensitive: boolean;
  readonly multiline: boolean;
  /**
   * Literals every match contains: `all` of them, or `any` one (a top-level alternation);
   * undefined when none could be read off the pattern. Compared case-insensitively when the
   * pattern is. A file, and in line mode a line, without them cannot match.
   */
  readonly required: RequiredLiterals | undefined;
}

/** See {@link CompiledPattern.required}. `literals[0]` is the longest of `all`. */
export interface RequiredLiterals {
  readonly mode: 'all' | 'any';
  readonly literals: readonly string[];
}

// JavaScript's \s (WhiteSpace and LineTerminator), without \n: the line break is never part of
// a line-mode match, as in ripgrep.
const SPACE_NO_NL = '\\t\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';
const SPACE = `\\n${SPACE_NO_NL}`;
// Complements of \w and \d without \n, for use inside a positive class.
const NON_WORD_NO_NL = '\\x00-\\x09\\x0B-\\x2F\\x3A-\\x40\\x5B-\\x5E\\x60\\x7B-\\x{10FFFF}';
const NON_DIGIT_NO_NL = '\\x00-\\x09\\x0B-\\x2F\\x3A-\\x{10FFFF}';
const NON_SPACE = '\\x00-\\x08\\x0E-\\x1F\\x21-\\x9F\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}';

/** Characters RE2 gives a meaning to outside classes: escaped when they stand for themselves. */
const RE2_META = new Set('\\.+*?()|[]{}^$'.split(''));

function invalid(source: string, why: string): CKGError {
  return new CKGError('INVALID_ARGUMENT', `Invalid grep pattern ${JSON.stringify(source)}: ${why}`, { pattern: source });
}

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

/** A literal character as RE2 source (outside a class). */
function literalRe2(ch: string): string {
  if (RE2_META.has(ch)) return `\\${ch}`;
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? hex(code) : ch;
}

/** A literal character as RE2 source inside a class. */
function classLiteralRe2(ch: string): string {
  if (ch === '\\' || ch === ']' || ch === '[' || ch === '^' || ch === '-') return `\\${ch}`;
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? hex(code) : ch;
}

interface Token {
  /** RE2 source of this token. */
  readonly re2: string;
  /** The literal character it stands for, when it is one. */
  readonly literal?: string;
  /** A quantifier (`*`, `+`, `?`, `{n,m}`, lazy or not). */
  readonly quantifier?: { readonly min: number };
  readonly kind?: 'open' | 'close' | 'alt' | 'other';
  /** True for an atom that can match a line break (only without line mode). */
}

/**
 * Reads a JavaScript regular expression (the syntax of `new RegExp(source)`, without the `u`
 * flag's strictness) and returns its translation. Lookarounds and backreferences are refused:
 * they need a backtracking engine, and grep runs every pattern in linear time, like ripgrep.
 */
export function compilePattern(source: string, options: { readonly caseInsensitive?: boolean; readonly multiline?: boolean } = {}): CompiledPattern {
  if (typeof source !== 'string' || source === '') throw new CKGError('INVALID_ARGUMENT', 'pattern must be a non-empty string');
  const caseInsensitive = options.caseInsensitive === true;
  const multiline = options.multiline === true;
  // JavaScript is the reference syntax: what it rejects is rejected here too, with its message.
  try {
    new RegExp(source);
  } catch (error) {
    throw invalid(source, error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error));
  }
  const lineMode = !multiline;
  const tokens: Token[] = [];
  const chars = Array.from(source); // code points
  let i = 0;
  const peek = (k = 0): string | undefined => chars[i + k];

  /** Reads an escape after `\` (i points at the escaped char); returns the token. */
  const escape = (inClass: boolean): Token & { classItem?: string; negatedSet?: boolean } => {
    const c = chars[i++];
    if (c === undefined) throw invalid(source, 'it ends with a backslash');
    const lit = (ch: string): Token & { classItem: string } => ({ re2: inClass ? classLiteralRe2(ch) : literalRe2(ch), literal: ch, classItem: classLiteralRe2(ch) });
    switch (c) {
      case 'd':
        return { re2: '[0-9]', classItem: '0-9' };
      case 'D':
        return lineMode ? { re2: '[^0-9\\n]', classItem: NON_DIGIT_NO_NL } : { re2: '[^0-9]', classItem: '\\D' };
      case 'w':
        return { re2: '[0-9A-Za-z_]', classItem: '0-9A-Za-z_' };
      case 'W':
        return lineMode ? { re2: '[^0-9A-Za-z_\\n]', classItem: NON_WORD_NO_NL } : { re2: '[^0-9A-Za-z_]', classItem: '\\W' };
      case 's':
        return lineMode ? { re2: `[${SPACE_NO_NL}]`, classItem: SPACE_NO_NL } : { re2: `[${SPACE}]`, classItem: SPACE };
      case 'S':
        return { re2: `[${NON_SPACE}]`, classItem: NON_SPACE };
      case 'b':
        return inClass ? lit('\b') : { re2: '\\b', kind: 'other' };
      case 'B':
        if (inClass) throw invalid(source, '\\B inside a class');
        return { re2: '\\B', kind: 'other' };
      case 'n':
        return lit('\n');
      case 'r':
        return lit('\r');
      case 't':
        return lit('\t');
      case 'v':
        return lit('\v');
      case 'f':
        return lit('\f');
      case '0':
        if (!/[0-9]/.test(peek() ?? '')) return lit('\0');
        break;
      case 'x': {
        const h = chars.slice(i, i + 2).join('');
        if (/^[0-9a-fA-F]{2}$/.test(h)) {
          i += 2;
          return lit(String.fromCodePoint(parseInt(h, 16)));
        }
        return lit('x');
      }
      case 'u': {
        if (peek() === '{') {
          const end = chars.indexOf('}', i);
          const h = chars.slice(i + 1, end).join('');
          if (end > 0 && /^[0-9a-fA-F]{1,6}$/.test(h)) {
            i = end + 1;
            return lit(String.fromCodePoint(parseInt(h, 16)));
          }
          return lit('u');
        }
        const h = chars.slice(i, i + 4).join('');
        if (/^[0-9a-fA-F]{4}$/.test(h)) {
          i += 4;
          let code = parseInt(h, 16);
          // A surrogate pair written as two escapes is one character.
          if (code >= 0xd800 && code <= 0xdbff && chars[i] === '\\' && chars[i + 1] === 'u') {
            const low = chars.slice(i + 2, i + 6).join('');
            const lowCode = /^[0-9a-fA-F]{4}$/.test(low) ? parseInt(low, 16) : 0;
            if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
              i += 6;
              code = 0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00);
            }
          }
          return lit(String.fromCodePoint(code));
        }
        return lit('u');
      }
      case 'c': {
        const letter = peek();
        if (letter !== undefined && /[A-Za-z]/.test(letter)) {
          i++;
          return lit(String.fromCharCode(letter.charCodeAt(0) % 32));
        }
        return lit('\\');
      }
      case 'p':
      case 'P': {
        if (peek() === '{') {
          const end = chars.indexOf('}', i);
          if (end > 0) {
            const name = chars.slice(i + 1, end).join('');
            i = end + 1;
            const item = `\\${c}{${name}}`;
            return { re2: item, classItem: item };
          }
        }
        return lit(c);
      }
      case 'k':
        if (peek() === '<' && /\(\?<[A-Za-z_$]/.test(source)) throw invalid(source, 'backreferences (\\k<name>) need a backtracking engine; grep matches in linear time, like ripgrep');
        return lit('k');
      default:
        break;
    }
    if (/[1-9]/.test(c)) {
      // In JavaScript \N is a backreference when there are N groups, else an octal escape or the digit.
      throw invalid(source, `backreferences (\\${c}) need a backtracking engine; grep matches in linear time, like ripgrep`);
    }
    return lit(c);
  };

  const readClass = (): Token => {
    // i points after `[`
    let negated = false;
    if (peek() === '^') {
      negated = true;
      i++;
    }
    const items: string[] = [];
    let hasNewline = false;
    // The last item when it was a single character (a range may start at it), else undefined.
    let lastSingle: string | undefined;
    for (;;) {
      const c = chars[i];
      if (c === undefined) throw invalid(source, 'unterminated character class');
      if (c === ']') {
        i++;
        break;
      }
      if (c === '\\') {
        i++;
        const t = escape(true);
        lastSingle = t.literal;
        if (t.literal === '\n') hasNewline = true;
        else items.push(t.classItem ?? t.re2);
      } else if (c === '-' && lastSingle !== undefined && chars[i + 1] !== ']' && chars[i + 1] !== undefined) {
        // A range: the previous item is its start, the next character its end.
        i++;
        let end: string;
        let endCode: number;
        if (chars[i] === '\\') {
          i++;
          const t = escape(true);
          if (t.literal === undefined) {
            // `a-\d`: JavaScript (without u) reads a literal dash and the class.
            items.push('\\-', t.classItem ?? t.re2);
            lastSingle = undefined;
            continue;
          }
          end = t.literal;
        } else {
          end = chars[i++]!;
        }
        endCode = end.codePointAt(0)!;
        const startChar = lastSingle!;
        lastSingle = undefined;
        // The start was pushed as an item, unless it was \n (kept apart): take it back.
        const start = startChar === '\n' ? '\\n' : items.pop()!;
        const startCode = startChar.codePointAt(0)!;
        if (lineMode && startCode <= 10 && endCode >= 10) {
          // The range holds \n: split it around the line break.
          if (startCode < 10) items.push(`${classLiteralRe2(startChar)}-${hex(9)}`);
          if (endCode > 10) items.push(`${hex(11)}-${classLiteralRe2(end)}`);
          hasNewline = true;
        } else {
          items.push(`${start}-${classLiteralRe2(end)}`);
        }
      } else {
        i++;
        lastSingle = c;
        if (c === '\n') hasNewline = true;
        else items.push(classLiteralRe2(c));
      }
    }
    if (items.length === 0 && !hasNewline) {
      // `[]` matches nothing, `[^]` anything (JavaScript).
      return negated ? { re2: lineMode ? '[^\\n]' : '(?s:.)' } : { re2: '[^\\x00-\\x{10FFFF}]' };
    }
    if (negated) return { re2: `[^${items.join('')}${lineMode ? '\\n' : hasNewline ? '\\n' : ''}]` };
    if (hasNewline && !lineMode) items.push('\\n');
    if (items.length === 0) return { re2: '[^\\x00-\\x{10FFFF}]' }; // only \n, in line mode: never matches
    return { re2: `[${items.join('')}]` };
  };

  while (i < chars.length) {
    const c = chars[i++]!;
    switch (c) {
      case '\\': {
        const t = escape(false);
        if (t.literal === '\n' && lineMode) {
          throw invalid(source, 'it matches a line break, which a line never contains; use multiline to match across lines');
        }
        tokens.push(t.literal !== undefined ? { re2: t.re2, literal: t.literal } : { re2: t.re2, kind: t.kind ?? 'other' });
        break;
      }
      case '[':
        tokens.push({ ...readClass(), kind: 'other' });
        break;
      case '(': {
        if (peek() === '?') {
          const next = peek(1);
          if (next === ':') {
            i += 2;
            tokens.push({ re2: '(?:', kind: 'open' });
          } else if (next === '=' || next === '!' || (next === '<' && (peek(2) === '=' || peek(2) === '!'))) {
            throw invalid(source, 'lookarounds ((?=, (?!, (?<=, (?<!) need a backtracking engine; grep matches in linear time, like ripgrep');
          } else if (next === '<') {
            const end = chars.indexOf('>', i);
            const name = chars.slice(i + 2, end).join('');
            i = end + 1;
            tokens.push({ re2: `(?P<${name.replace(/[^A-Za-z0-9_]/g, '_')}>`, kind: 'open' });
          } else {
            throw invalid(source, `unsupported group (?${next ?? ''}`);
          }
        } else {
          tokens.push({ re2: '(', kind: 'open' });
        }
        break;
      }
      case ')':
        tokens.push({ re2: ')', kind: 'close' });
        break;
      case '|':
        tokens.push({ re2: '|', kind: 'alt' });
        break;
      case '^':
        tokens.push({ re2: '^', kind: 'other' });
        break;
      case '$':
        // End of line, before a CRLF's \r too (ripgrep's --crlf).
        tokens.push({ re2: '(?:\\r?$)', kind: 'other' });
        break;
      case '.':
        tokens.push({ re2: multiline ? '(?s:.)' : '.', kind: 'other' });
        break;
      case '*':
      case '+':
      case '?': {
        let q: string = c;
        if (peek() === '?') {
          q += '?';
          i++;
        }
        tokens.push({ re2: q, quantifier: { min: c === '+' ? 1 : 0 } });
        break;
      }
      case '{': {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(i - 1, i + 24).join(''));
        if (m) {
          i += m[0].length - 1;
          let q = m[0];
          if (peek() === '?') {
            q += '?';
            i++;
          }
          tokens.push({ re2: q, quantifier: { min: Number(m[1]) } });
        } else {
          tokens.push({ re2: '\\{', literal: '{' });
        }
        break;
      }
      default:
        if (c === '\n' && lineMode) throw invalid(source, 'it contains a line break, which a line never contains; use multiline to match across lines');
        tokens.push({ re2: literalRe2(c), literal: c });
    }
  }

  const re2 = tokens.map((t) => t.re2).join('');
  const allLiteral = tokens.every((t) => t.literal !== undefined);
  const literal = allLiteral ? tokens.map((t) => t.literal).join('') : '';
  return {
    source,
    kind: allLiteral ? 'literal' : 'regex',
    literal,
    re2,
    caseInsensitive,
    multiline,
    required: allLiteral ? { mode: 'all', literals: [literal] } : requiredLiterals(tokens),
  };
}

/**
 * Literals every match must contain: the runs of plain characters at the top level of a
 * pattern without top-level alternation (all of them), or the longest run of each alternative
 * of a top-level alternation (any of them). Undefined when no such literal is certain.
 */
function requiredLiterals(tokens: readonly Token[]): RequiredLiterals | undefined {
  let depth = 0;
  const alternatives: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth--;
    if (depth === 0 && t.kind === 'alt') alternatives.push([]);
    else alternatives[alternatives.length - 1]!.push(t);
  }
  if (alternatives.length === 1) {
    const runs = literalRuns(alternatives[0]!).sort((a, b) => b.length - a.length);
    return runs.length === 0 ? undefined : { mode: 'all', literals: runs };
  }
  const out: string[] = [];
  for (const alternative of alternatives) {
    const best = literalRuns(alternative).sort((a, b) => b.length - a.length)[0];
    if (best === undefined) return undefined;
    out.push(best);
  }
  return { mode: 'any', literals: out };
}

/** The runs of literal tokens at depth 0 of one alternative that no quantifier makes optional or repeats. */
function literalRuns(tokens: readonly Token[]): string[] {
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const end = (): void => {
    if (run !== '') runs.push(run);
    run = '';
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.kind === 'open') depth++;
    if (t.kind === 'close') depth--;
    const next = tokens[k + 1];
    const quantified = next?.quantifier !== undefined;
    if (depth === 0 && t.literal !== undefined && !quantified) {
      run += t.literal;
    } else {
      // A quantified literal with min ≥ 1 still appears once, but ends the run.
      if (depth === 0 && t.literal !== undefined && quantified && next!.quantifier!.min >= 1) run += t.literal;
      end();
    }
  }
  end();
  return runs;
}
