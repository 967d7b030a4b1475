import { segmentMatcher } from '../glob/glob.js';
import { gitignoreRules, trimGitignoreLine, type GitignoreRules } from '../glob/gitignore.js';

/**
 * The longest run of literal characters in a slash-free glob: every matching segment contains it
 * (`*.tab.[ch]` → `.tab.`). Undefined when the glob has none or cannot be read plainly (an
 * unclosed `[`): then there is no guard.
 */
export function literalGuard(glob: string): string | undefined {
  let best = '';
  let run = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (i + 1 >= glob.length) return undefined;
      run += glob[++i]!;
    } else if (c === '*' || c === '?' || c === '[') {
      if (run.length > best.length) best = run;
      run = '';
      if (c === '[') {
        // A class ends at the first `]` after its first character (`[]a]` holds `]`).
        const close = glob.indexOf(']', i + (glob[i + 1] === '!' || glob[i + 1] === '^' ? 3 : 2));
        // Escapes or nested brackets (`[[:alpha:]]`) inside a class: not read here, no guard.
        if (close < 0 || /[[\\]/.test(glob.slice(i + 1, close))) return undefined;
        i = close;
      }
    } else {
      run += c;
    }
  }
  if (run.length > best.length) best = run;
  return best === '' ? undefined : best;
}

/**
 * A slash-free glob as a bounded-time segment test (src/glob: never a backtracking regex), behind
 * a substring test: most segments lack the glob's literal part, and `includes`
 * is far cheaper than a regex (the Linux root .gitignore's `*.tab.[ch]`, `*.asn1.[ch]`, ... are
 * tried on all 78k paths).
 */
function regexTest(glob: string): (segment: string) => boolean {
  const matches = segmentMatcher(glob);
  const guard = literalGuard(glob);
  return guard === undefined ? matches : (segment) => segment.includes(guard) && matches(segment);
}

// `ignore` tests every rule's regex against every path (and walks each path's parents): on the
// Linux tree (a 100-rule root .gitignore, 78k files) that was most of the walk. Most rules are
// simple (`*.o`, `modules.order`, `/vmlinux`, `cscope.*`), so a path can be cleared with a few set
// lookups. This prefilter answers "could any POSITIVE rule match this path or one of its folders?";
// only when it says yes does the walker ask `ignore` for the exact verdict. It may say yes too
// often (dir-only rules are treated as matching files too), never no wrongly: a path that no
// positive rule matches is never ignored, whatever the negations say.

/**
 * A cheap test that returns false only for paths no positive rule of a .gitignore can match.
 * Asked per folder (`folder(relDir)`, relative to the .gitignore's folder, `''` for itself),
 * then per entry name: the folder's share of the work is done once for all its entries.
 */
export interface IgnorePrefilter {
  folder(relDir: string): (name: string) => boolean;
}

export function ignorePrefilter(text: string): IgnorePrefilter {
  const literals = new Set<string>(); // `name`: any segment equal
  const anchored = new Set<string>(); // `/name`: the first segment equal
  // `name*` / `*name`: any segment starting / ending with, bucketed by that first / last
  // character so a name meets only the few rules that can concern it (no string is sliced).
  const prefixesByFirst = new Map<number, string[]>();
  const suffixesByLast = new Map<number, string[]>();
  let matchesEverything = false; // a bare `*`
  const bucket = (map: Map<number, string[]>, code: number, value: string): void => {
    const list = map.get(code);
    if (list) list.push(value);
    else map.set(code, [value]);
  };
  const segmentGlobs: ((segment: string) => boolean)[] = []; // other slash-free globs
  // Rules with an inner slash are relative to the .gitignore's folder: matched segment by segment
  // (a path matches when its leading segments do: the rule names it or one of its folders).
  const pathRules: ((segment: string) => boolean)[][] = [];
  const deepRules: string[] = []; // with `**`: left to `ignore`
  const segmentTest = (glob: string): ((segment: string) => boolean) =>
    /[*?[\\]/.test(glob) ? regexTest(glob) : (segment: string) => segment === glob;
  for (const raw of text.split(/\r?\n/)) {
    const p = trimGitignoreLine(raw);
    if (p === '' || p.startsWith('#') || p.startsWith('!')) continue;
    // Dir-only rules (trailing slash) are treated as matching files too: a superset.
    const body = p.endsWith('/') ? p.slice(0, -1) : p;
    if (body === '') continue;
    const isAnchored = body.startsWith('/');
    const name = isAnchored ? body.slice(1) : body;
    if (name.includes('/')) {
      const parts = name.split('/');
      if (parts.some((part) => part === '' || part.includes('**'))) deepRules.push(body);
      else pathRules.push(parts.map(segmentTest));
      continue;
    }
    if (name === '') continue;
    const stars = name.split('*').length - 1;
    const otherGlob = /[?[\\]/.test(name);
    if (!otherGlob && stars === 0) {
      (isAnchored ? anchored : literals).add(name);
    } else if (isAnchored) {
      pathRules.push([segmentTest(name)]); // `/*.spec`: only at this folder's level
    } else if (!otherGlob && stars === 1 && name.startsWith('*')) {
      const suffix = name.slice(1);
      if (suffix === '') matchesEverything = true;
      else bucket(suffixesByLast, suffix.charCodeAt(suffix.length - 1), suffix);
    } else if (!otherGlob && stars === 1 && name.endsWith('*')) {
      const prefix = name.slice(0, -1);
      bucket(prefixesByFirst, prefix.charCodeAt(0), prefix);
    } else {
      segmentGlobs.push(regexTest(name));
    }
  }
  const deep: GitignoreRules | undefined = deepRules.length > 0 ? gitignoreRules(deepRules.join('\n')) : undefined;
  const segmentMatches = (segment: string): boolean => {
    if (matchesEverything || literals.has(segment)) return true;
    let hit = false;
    const prefixes = prefixesByFirst.get(segment.charCodeAt(0));
    if (prefixes) for (let i = 0; !hit && i < prefixes.length; i++) hit = segment.startsWith(prefixes[i]!);
    const suffixes = suffixesByLast.get(segment.charCodeAt(segment.length - 1));
    if (suffixes) for (let i = 0; !hit && i < suffixes.length; i++) hit = segment.endsWith(suffixes[i]!);
    for (let i = 0; !hit && i < segmentGlobs.length; i++) hit = segmentGlobs[i]!(segment);
    return hit;
  };
  // Everything but the last segment is the folder's business: its verdict, and the path rules
  // whose leading segments it matches (awaiting the next segment), are computed once per folder.
  interface Folder {
    readonly depth: number;
    readonly hit: boolean;
    /** Path rules whose first `depth` segments match this folder's. */
    readonly open: readonly ((segment: string) => boolean)[][];
  }
  const top: Folder = { depth: 0, hit: false, open: pathRules };
  // A path's segment `name` inside `folder`: does it complete a rule, or match one on its own?
  const entryMatches = (folder: Folder, name: string): boolean => {
    if (folder.hit || segmentMatches(name) || (folder.depth === 0 && anchored.has(name))) return true;
    for (const rule of folder.open) if (rule.length === folder.depth + 1 && rule[folder.depth]!(name)) return true;
    return false;
  };
  const folders = new Map<string, Folder>([['', top]]);
  const folderOf = (folder: string): Folder => {
    let state = folders.get(folder);
    if (state === undefined) {
      const slash = folder.lastIndexOf('/');
      const parent = folderOf(slash < 0 ? '' : folder.slice(0, slash));
      const name = folder.slice(slash + 1);
      // A folder that a `**` rule matches: everything below it may be ignored too.
      const hit = entryMatches(parent, name) || (deep !== undefined && deep.ignores(`${folder}/`));
      state = {
        depth: parent.depth + 1,
        hit,
        open: hit ? [] : parent.open.filter((rule) => rule.length > parent.depth + 1 && rule[parent.depth]!(name)),
      };
      folders.set(folder, state);
    }
    return state;
  };
  return {
    folder(relDir: string): (name: string) => boolean {
      const state = relDir === '' ? top : folderOf(relDir);
      const prefix = relDir === '' ? '' : `${relDir}/`;
      return (name) => entryMatches(state, name) || (deep !== undefined && deep.ignores(prefix + name));
    },
  };
}
