import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/** A slash-free glob as a plain RegExp test (picomatch's matcher wrapper costs more than the match). */
function regexTest(glob: string): (segment: string) => boolean {
  const re = picomatch.makeRe(glob, { dot: true });
  return (segment) => re.test(segment);
}

// `ignore` tests every rule's regex against every path (and walks each path's parents): on the
// Linux tree (a 100-rule root .gitignore, 78k files) that was most of the walk. Most rules are
// simple (`*.o`, `modules.order`, `/vmlinux`, `cscope.*`), so a path can be cleared with a few set
// lookups. This prefilter answers "could any POSITIVE rule match this path or one of its folders?";
// only when it says yes does the walker ask `ignore` for the exact verdict. It may say yes too
// often (dir-only rules are treated as matching files too), never no wrongly: a path that no
// positive rule matches is never ignored, whatever the negations say.

/** A cheap test that returns false only for paths no positive rule of a .gitignore can match. */
export type IgnorePrefilter = (rel: string) => boolean;

/**
 * Builds the prefilter of one .gitignore text (`rel` is relative to that file's folder).
 * Matching is case-sensitive, like git's default (`core.ignorecase=false`).
 */
export function ignorePrefilter(text: string): IgnorePrefilter {
  const literals = new Set<string>(); // `name`: any segment equal
  const anchored = new Set<string>(); // `/name`: the first segment equal
  const prefixes: string[] = []; // `name*`: any segment starting with
  const suffixesByTail = new Map<string, string[]>(); // `*name`: any segment ending with, bucketed
  const otherSuffixes: string[] = [];
  const segmentGlobs: ((segment: string) => boolean)[] = []; // other slash-free globs
  // Rules with an inner slash are relative to the .gitignore's folder: matched segment by segment
  // (a path matches when its leading segments do: the rule names it or one of its folders).
  const pathRules: ((segment: string) => boolean)[][] = [];
  const deepRules: string[] = []; // with `**`: left to `ignore`
  const segmentTest = (glob: string): ((segment: string) => boolean) =>
    /[*?[\\]/.test(glob) ? regexTest(glob) : (segment: string) => segment === glob;
  for (const raw of text.split(/\r?\n/)) {
    const p = raw.replace(/(?<!\\)\s+$/, '');
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
      const dot = suffix.lastIndexOf('.');
      const tail = dot < 0 ? '' : suffix.slice(dot + 1);
      if (tail === '' || tail.includes('*')) otherSuffixes.push(suffix);
      else {
        const bucket = suffixesByTail.get(tail);
        if (bucket) bucket.push(suffix);
        else suffixesByTail.set(tail, [suffix]);
      }
    } else if (!otherGlob && stars === 1 && name.endsWith('*')) {
      prefixes.push(name.slice(0, -1));
    } else {
      segmentGlobs.push(regexTest(name));
    }
  }
  const deep: Ignore | undefined = deepRules.length > 0 ? ignore({ ignorecase: false }).add(deepRules) : undefined;
  const segmentMatches = (segment: string): boolean => {
    let hit = literals.has(segment);
    for (let i = 0; !hit && i < prefixes.length; i++) hit = segment.startsWith(prefixes[i]!);
    if (!hit) {
      const dot = segment.lastIndexOf('.');
      const bucket = dot >= 0 ? suffixesByTail.get(segment.slice(dot + 1)) : undefined;
      if (bucket) for (let i = 0; !hit && i < bucket.length; i++) hit = segment.endsWith(bucket[i]!);
    }
    for (let i = 0; !hit && i < otherSuffixes.length; i++) hit = segment.endsWith(otherSuffixes[i]!);
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
      const hit = entryMatches(parent, name);
      state = {
        depth: parent.depth + 1,
        hit,
        open: hit ? [] : parent.open.filter((rule) => rule.length > parent.depth + 1 && rule[parent.depth]!(name)),
      };
      folders.set(folder, state);
    }
    return state;
  };
  // Files of one folder come one after the other: remember the last folder without slicing.
  let lastFolder = '';
  let lastState = top;
  return (rel: string): boolean => {
    const slash = rel.lastIndexOf('/');
    let state: Folder;
    if (slash < 0) state = top;
    else if (slash === lastFolder.length && rel.startsWith(lastFolder)) state = lastState;
    else {
      lastFolder = rel.slice(0, slash);
      state = lastState = folderOf(lastFolder);
    }
    if (entryMatches(state, slash < 0 ? rel : rel.slice(slash + 1))) return true;
    return deep !== undefined && deep.ignores(rel);
  };
}
