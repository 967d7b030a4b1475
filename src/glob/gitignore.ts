// The rules of one .gitignore file, matched in bounded time (see ./glob.ts): a drop-in for the
// part of the `ignore` package the walker uses, whose regular expressions can take
// exponential time on a hostile pattern (`a/**/**/**/**/**/**/**/**/**/**/c`).
import { gitignorePathMatcher } from './glob.js';

/**
 * `text` without the trailing run of `char` (a loop: a regex like /x+$/ is quadratic on long runs).
 *
 * @example
 * ```ts
 * trimEnd('build///', '/'); // 'build'
 * ```
 */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/**
 * A .gitignore line without its trailing spaces and tabs, except one escaped with `\\` (kept
 * as a space). Written as a loop: the obvious regex is quadratic on a long run of spaces.
 *
 * @example
 * ```ts
 * trimGitignoreLine('*.o   '); // '*.o'
 * trimGitignoreLine('name\\ '); // 'name '
 * ```
 */
export function trimGitignoreLine(raw: string): string {
  let end = raw.length;
  while (end > 0 && (raw[end - 1] === ' ' || raw[end - 1] === '\t')) end--;
  if (end < raw.length && end > 0 && raw[end - 1] === '\\') return `${raw.slice(0, end - 1)} `;
  return raw.slice(0, end);
}

interface Rule {
  /** The line as written (trailing spaces trimmed), for reports. */
  readonly pattern: string;
  readonly negated: boolean;
  readonly directoryOnly: boolean;
  readonly matches: (segments: readonly string[]) => boolean;
}

/**
 * Parses .gitignore text into rules, as git reads it: blank lines and `#` comments skipped,
 * trailing spaces dropped unless escaped, `!` negates, a trailing `/` limits a rule to folders,
 * a rule with a slash before its end is relative to the .gitignore's folder, any other matches
 * a name at any depth; `*`, `?`, `[...]` and `**` as in git.
 */
function parse(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = trimGitignoreLine(raw);
    if (line === '' || line.startsWith('#')) continue;
    const pattern = line;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = trimEnd(line, '/');
    if (line === '') continue;
    // A slash anywhere but at the end anchors the rule to the .gitignore's folder.
    const anchored = line.includes('/');
    const glob = anchored ? line.replace(/^\/+/, '') : `**/${line}`;
    if (glob === '') continue;
    rules.push({ pattern, negated, directoryOnly, matches: gitignorePathMatcher(glob) });
  }
  return rules;
}

/**
 * The compiled rules of one .gitignore file. `ignores(path)` takes a path relative to the
 * file's folder, with a trailing `/` for a folder, and answers from the last rule that
 * matches it, unless a folder above it is ignored: then it is too (git cannot re-include a
 * file inside an excluded folder), as the `ignore` package answers.
 *
 * @example
 * ```ts
 * const rules = gitignoreRules('*.o\n!keep.o\nbuild/\n');
 * rules.ignores('src/a.o'); // true
 * rules.ignores('build/'); // true (a folder)
 * ```
 */
export interface GitignoreRules {
  ignores(path: string): boolean;
  /** The verdict with the rule that decided it (`rule.pattern`: the line as written), as the `ignore` package's `test`. */
  test(path: string): { readonly ignored: boolean; readonly unignored: boolean; readonly rule?: { readonly pattern: string } };
}

/**
 * Compiles .gitignore text (see {@link GitignoreRules}).
 *
 * @example
 * ```ts
 * const rules = gitignoreRules(text);
 * if (rules.ignores(`${relDir}/${name}`)) continue;
 * ```
 */
export function gitignoreRules(text: string): GitignoreRules {
  const rules = parse(text);
  /** The last rule matching `path`, if any. */
  const decisive = (path: string): Rule | undefined => {
    const isDirectory = path.endsWith('/');
    const segments = (isDirectory ? path.slice(0, -1) : path).split('/');
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.matches(segments)) return rule;
    }
    return undefined;
  };
  // Verdicts of folders, cached: every path below them asks about them again.
  const folders = new Map<string, Rule | undefined>();
  /** The rule deciding `path`: an ignored folder above it decides for everything inside (git cannot re-include there). */
  const decide = (path: string): Rule | undefined => {
    for (let slash = path.indexOf('/'); slash >= 0 && slash < path.length - 1; slash = path.indexOf('/', slash + 1)) {
      const folder = path.slice(0, slash + 1);
      let rule = folders.get(folder);
      if (rule === undefined && !folders.has(folder)) {
        if (folders.size >= 65536) folders.clear();
        folders.set(folder, (rule = decisive(folder)));
      }
      if (rule !== undefined && !rule.negated) return rule;
    }
    return decisive(path);
  };
  return {
    ignores(path: string): boolean {
      const rule = decide(path);
      return rule !== undefined && !rule.negated;
    },
    test(path: string) {
      const rule = decide(path);
      if (rule === undefined) return { ignored: false, unignored: false };
      return { ignored: !rule.negated, unignored: rule.negated, rule: { pattern: rule.pattern } };
    },
  };
}
