// Glob matching in time bounded by (pattern length × path length), whatever the pattern: the
// patterns come from the codebase (.gitignore files) and from callers (`exclude`), and a
// backtracking regular expression built from them can take exponential time (picomatch's and
// the `ignore` package's regexes both do: `a*a*a*a*a*a*a*a*a*a*a*a*c`, `a/**/**/**/**/c`).
//
// A pattern is cut at its stars into pieces of fixed length (characters, `?`, `[classes]`);
// every star matches any run, so placing each piece at its leftmost possible position is
// always right (a later position only leaves less room for the pieces after it). The same
// holds one level up, for `**` between path segments. No step ever goes back.
import { CKGError } from '../errors.js';

/** One character position of a piece: a literal, `?`, or a bracket class. */
type Unit = string | ((c: string) => boolean);

/** A segment pattern: the pieces between its stars (`a*b?c` → [['a'], ['b', ?, 'c']]). */
interface SegmentPattern {
  readonly pieces: readonly (readonly Unit[])[];
  /** False when the pattern has no star (one piece, matched whole). */
  readonly starred: boolean;
  /** The pattern without any wildcard: compared as a string. */
  readonly literal?: string;
}

const POSIX_CLASSES: Readonly<Record<string, (c: string) => boolean>> = {
  alpha: (c) => /[A-Za-z]/.test(c),
  digit: (c) => c >= '0' && c <= '9',
  alnum: (c) => /[A-Za-z0-9]/.test(c),
  upper: (c) => c >= 'A' && c <= 'Z',
  lower: (c) => c >= 'a' && c <= 'z',
  space: (c) => /\s/.test(c),
  xdigit: (c) => /[0-9A-Fa-f]/.test(c),
  punct: (c) => /[!-/:-@[-`{-~]/.test(c),
  blank: (c) => c === ' ' || c === '\t',
  cntrl: (c) => c < ' ' || c === '\x7f',
  print: (c) => c >= ' ' && c !== '\x7f',
  graph: (c) => c > ' ' && c !== '\x7f',
};

/** Reads a bracket class starting at `glob[at] === '['`: its test and where it ends, or undefined if unclosed. */
function readClass(glob: string, at: number): { test: (c: string) => boolean; end: number } | undefined {
  let i = at + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const tests: ((c: string) => boolean)[] = [];
  let first = true;
  for (; i < glob.length; i++) {
    let c = glob[i]!;
    if (c === ']' && !first) {
      const matches = (x: string): boolean => tests.some((t) => t(x));
      return { test: negated ? (x) => !matches(x) : matches, end: i };
    }
    first = false;
    if (c === '[' && glob[i + 1] === ':') {
      const close = glob.indexOf(':]', i + 2);
      const posix = close < 0 ? undefined : POSIX_CLASSES[glob.slice(i + 2, close)];
      if (posix) {
        tests.push(posix);
        i = close + 1;
        continue;
      }
    }
    if (c === '\\' && i + 1 < glob.length) c = glob[++i]!;
    if (glob[i + 1] === '-' && i + 2 < glob.length && glob[i + 2] !== ']') {
      let hi = glob[i + 2]!;
      let skip = 2;
      if (hi === '\\' && i + 3 < glob.length) {
        hi = glob[i + 3]!;
        skip = 3;
      }
      const lo = c;
      tests.push((x) => x >= lo && x <= hi);
      i += skip;
      continue;
    }
    const literal = c;
    tests.push((x) => x === literal);
  }
  return undefined;
}

/** Compiles one path segment's glob (no `/` in it). */
function compileSegment(glob: string): SegmentPattern {
  const pieces: Unit[][] = [[]];
  let starred = false;
  let wild = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      starred = true;
      wild = true;
      if (pieces[pieces.length - 1]!.length > 0 || pieces.length === 1) pieces.push([]);
      continue;
    }
    const piece = pieces[pieces.length - 1]!;
    if (c === '\\') {
      piece.push(i + 1 < glob.length ? glob[++i]! : '\\');
    } else if (c === '?') {
      wild = true;
      piece.push(() => true);
    } else if (c === '[') {
      const cls = readClass(glob, i);
      if (cls === undefined) {
        piece.push('[');
      } else {
        wild = true;
        piece.push(cls.test);
        i = cls.end;
      }
    } else {
      piece.push(c);
    }
  }
  if (!wild) return { pieces, starred: false, literal: (pieces[0] as string[]).join('') };
  return { pieces, starred };
}

/** Does `piece` match `text` at `at` (with room for it)? */
function pieceAt(piece: readonly Unit[], text: string, at: number): boolean {
  for (let k = 0; k < piece.length; k++) {
    const unit = piece[k]!;
    const c = text[at + k]!;
    if (typeof unit === 'string' ? unit !== c : !unit(c)) return false;
  }
  return true;
}

/** Matches one segment: leftmost placement of the pieces between stars, O(pattern × segment). */
function matchSegment(pattern: SegmentPattern, text: string): boolean {
  if (pattern.literal !== undefined) return pattern.literal === text;
  const { pieces } = pattern;
  if (!pattern.starred) return pieces[0]!.length === text.length && pieceAt(pieces[0]!, text, 0);
  const head = pieces[0]!;
  const tail = pieces[pieces.length - 1]!;
  if (head.length + (pieces.length > 1 ? tail.length : 0) > text.length) return false;
  if (!pieceAt(head, text, 0)) return false;
  let at = head.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p]!;
    let found = -1;
    for (let start = at; start + piece.length <= text.length - tail.length; start++) {
      if (pieceAt(piece, text, start)) {
        found = start;
        break;
      }
    }
    if (found < 0) return false;
    at = found + piece.length;
  }
  return pieces.length === 1 || (text.length - tail.length >= at && pieceAt(tail, text, text.length - tail.length));
}

/**
 * A path pattern: groups of segment patterns with `**` (any number of segments) between them,
 * and maybe before the first (`leading`) and after the last (`trailing`). A final `**` matches
 * one or more segments in gitignore (`dir/**`: what is inside, not the folder) and zero or
 * more in caller globs.
 */
interface PathPattern {
  readonly groups: readonly (readonly SegmentPattern[])[];
  readonly leading: boolean;
  readonly trailing: 'none' | 'some' | 'any';
}

function compilePath(glob: string, trailingStarStar: 'some' | 'any'): PathPattern {
  const parts = glob.split('/').filter((part) => part !== '');
  const groups: SegmentPattern[][] = [[]];
  for (const part of parts) {
    if (part === '**') {
      if (groups[groups.length - 1]!.length > 0 || groups.length === 1) groups.push([]);
    } else {
      groups[groups.length - 1]!.push(compileSegment(part));
    }
  }
  const leading = parts[0] === '**';
  const trailing = parts.length > 0 && parts[parts.length - 1] === '**' ? trailingStarStar : 'none';
  return { groups: groups.filter((g) => g.length > 0), leading, trailing };
}

function groupAt(group: readonly SegmentPattern[], segments: readonly string[], at: number): boolean {
  for (let k = 0; k < group.length; k++) if (!matchSegment(group[k]!, segments[at + k]!)) return false;
  return true;
}

/** Matches path segments: the groups between `**` placed leftmost, O(pattern × path). */
function matchPath(pattern: PathPattern, segments: readonly string[]): boolean {
  const { groups, leading, trailing } = pattern;
  const n = segments.length;
  if (!leading && trailing === 'none') {
    if (groups.length === 0) return n === 0;
    if (groups.length === 1) return groups[0]!.length === n && groupAt(groups[0]!, segments, 0);
  }
  // The first group is pinned to the start unless a `**` leads, the last to the end unless one trails.
  const start = leading ? undefined : groups[0];
  const end = trailing === 'none' ? groups[groups.length - 1] : undefined;
  const middle = groups.slice(start ? 1 : 0, end ? groups.length - 1 : groups.length);
  let at = 0;
  if (start) {
    if (start.length > n || !groupAt(start, segments, 0)) return false;
    at = start.length;
  }
  const room = n - (end?.length ?? 0) - (trailing === 'some' ? 1 : 0);
  for (const group of middle) {
    let found = -1;
    for (let s = at; s + group.length <= room; s++) {
      if (groupAt(group, segments, s)) {
        found = s;
        break;
      }
    }
    if (found < 0) return false;
    at = found + group.length;
  }
  if (end) return n - end.length >= at && groupAt(end, segments, n - end.length);
  return trailing === 'some' ? n - at >= 1 : true;
}

/** Expands `{a,b}` alternatives (nested allowed), refusing more than `limit` expansions. */
function expandBraces(glob: string, limit = 256): string[] {
  let open = -1;
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth++ === 0) open = i;
    } else if (c === '}' && depth > 0 && --depth === 0) {
      const inner = glob.slice(open + 1, i);
      const options: string[] = [];
      let level = 0;
      let start = 0;
      for (let k = 0; k < inner.length; k++) {
        const d = inner[k];
        if (d === '\\') k++;
        else if (d === '{') level++;
        else if (d === '}') level--;
        else if (d === ',' && level === 0) {
          options.push(inner.slice(start, k));
          start = k + 1;
        }
      }
      options.push(inner.slice(start));
      if (options.length === 1) continue; // `{a}`: literal braces
      const out: string[] = [];
      for (const option of options) {
        for (const rest of expandBraces(glob.slice(0, open) + option + glob.slice(i + 1), limit)) {
          out.push(rest);
          if (out.length > limit) throw new CKGError('INVALID_ARGUMENT', `The glob ${glob.slice(0, 80)} expands to more than ${limit} alternatives`, { glob });
        }
      }
      return out;
    }
  }
  return [glob];
}

/**
 * Compiles caller globs (`exclude`) into one test of paths relative to the codebase root:
 * `*` and `?` within a segment, `[...]` classes, `**` for any number of segments, `{a,b}`
 * alternatives, `\` escapes; dot files match like others. Extglobs (`+(a|b)`) are refused
 * (`INVALID_ARGUMENT`): they cannot be matched without backtracking.
 *
 * @example
 * ```ts
 * const excluded = compileGlobs(['docs/**', '*.min.js']);
 * excluded('docs/index.md'); // true
 * ```
 */
export function compileGlobs(globs: readonly string[]): (path: string) => boolean {
  const patterns: PathPattern[] = [];
  for (const glob of globs) {
    if (typeof glob !== 'string') throw new CKGError('INVALID_ARGUMENT', 'globs must be strings');
    if (/[@!?+*]\(/.test(glob)) throw new CKGError('INVALID_ARGUMENT', `Extglob patterns are not supported: ${glob.slice(0, 80)}`, { glob });
    const body = glob.startsWith('./') ? glob.slice(2) : glob;
    for (const expanded of expandBraces(body)) patterns.push(compilePath(expanded, 'any'));
  }
  return (path) => {
    const segments = path.split('/');
    return patterns.some((p) => matchPath(p, segments));
  };
}

/**
 * A test of one path segment against a slash-free glob (`*`, `?`, `[...]`, `\`), in time
 * bounded by the product of their lengths.
 *
 * @example
 * ```ts
 * const test = segmentMatcher('*.tab.[ch]');
 * test('parse.tab.c'); // true
 * ```
 */
export function segmentMatcher(glob: string): (segment: string) => boolean {
  const pattern = compileSegment(glob);
  return (segment) => matchSegment(pattern, segment);
}

/**
 * A test of a relative path (its segments) against a glob with `**` as gitignore reads it: a
 * final `**` matches what is inside a folder (one or more segments), not the folder itself.
 *
 * @example
 * ```ts
 * const test = gitignorePathMatcher('doc/**\/*.pdf');
 * test(['doc', 'a', 'b.pdf']); // true
 * ```
 */
export function gitignorePathMatcher(glob: string): (segments: readonly string[]) => boolean {
  const pattern = compilePath(glob, 'some');
  return (segments) => matchPath(pattern, segments);
}
