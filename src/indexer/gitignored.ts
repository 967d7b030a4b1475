// What `.gitignore` rules do to a walk, beyond the yes/no of each path: files git tracks stay
// in (git keeps tracked files whatever `.gitignore` says), and what the rules left out is
// tallied by rule, so a build that finds nothing can say why ("56,217 files excluded by `/*`
// in /src/linux/.gitignore").
import type { FsAdapter } from '../fs/adapter.js';
import { join } from '../fs/path.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { readGitIndex, resolveGitDir } from '../snapshot/git.js';

/**
 * Files a `.gitignore` rule left out of an index, counted when a build found nothing or left
 * out more files than it indexed (see {@link IndexReport.gitignoreExclusions}).
 *
 * @example
 * ```ts
 * for (const e of db.report?.gitignoreExclusions ?? []) console.warn(`${e.files}${e.complete ? '' : '+'} files excluded by ${e.rule} (${e.gitignore})`);
 * ```
 * @public
 */
export interface GitignoreExclusion {
  /** The `.gitignore` file holding the rule (absolute path). */
  readonly gitignore: string;
  /** The rule as written (`/*`, `build/`, `*.gen.ts`). */
  readonly rule: string;
  /** Files a language covers that the rule left out, directly or inside folders it left out. */
  readonly files: number;
  /** False when the count stopped early (it lists at most 50,000 folder entries in all). */
  readonly complete: boolean;
}

/** How many folder entries counting the files of excluded folders may list, in all. */
export const EXCLUSION_COUNT_LIMIT = 50_000;

/** One rule's share of a walk's exclusions. */
interface RuleTally {
  readonly gitignore: string;
  readonly rule: string;
  /** Indexable files the rule left out directly. */
  files: number;
  /** Folders the rule left out (not listed by the walk). */
  readonly folders: string[];
}

/**
 * What `.gitignore` rules left out during one walk: indexable files and folders, by rule. Kept
 * with folder plans as plain records, so a re-walk that reuses a plan counts the same.
 */
export class ExclusionTally {
  readonly #byRule = new Map<string, RuleTally>();
  #entries = 0;

  /** Records one excluded entry: a folder, or a file a language covers. */
  add(gitignore: string, rule: string, path: string, folder: boolean): void {
    const key = `${gitignore}\u0000${rule}`;
    let tally = this.#byRule.get(key);
    if (!tally) this.#byRule.set(key, (tally = { gitignore, rule, files: 0, folders: [] }));
    if (folder) tally.folders.push(path);
    else tally.files++;
    this.#entries++;
  }

  /** Excluded entries (indexable files and folders) recorded. */
  get entries(): number {
    return this.#entries;
  }

  /** The tallies, in the order rules were first met. */
  rules(): readonly RuleTally[] {
    return [...this.#byRule.values()];
  }
}

/**
 * The exclusions worth reporting after a walk that selected `selected` files: none unless
 * the rules left out something and the walk found nothing, or left out more entries than it
 * kept. The indexable files inside excluded folders are then counted (bounded); rules whose
 * count is 0 are dropped; the result is ordered by count, largest first.
 */
export async function reportExclusions(
  fs: FsAdapter,
  tally: ExclusionTally | undefined,
  selected: number,
  registry: LanguageRegistry,
  skipDirectories: ReadonlySet<string>,
): Promise<GitignoreExclusion[] | undefined> {
  if (tally === undefined || tally.entries === 0 || (selected > 0 && tally.entries <= selected)) return undefined;
  let budget = EXCLUSION_COUNT_LIMIT;
  const countFiles = async (dir: string): Promise<number> => {
    let count = 0;
    const stack = [dir];
    while (stack.length > 0 && budget > 0) {
      const folder = stack.pop()!;
      let entries: { name: string; kind: string | undefined }[];
      try {
        entries = await fs.readdirTyped(folder);
      } catch {
        continue; // unreadable: nothing to count there
      }
      for (const { name, kind } of entries) {
        if (--budget < 0) break;
        if (name.charCodeAt(0) === 46) continue;
        const path = join(folder, name);
        if (kind === 'directory') {
          if (!skipDirectories.has(name)) stack.push(path);
        } else if (kind === 'file' && registry.forPath(name) !== undefined) count++;
      }
    }
    return count;
  };
  const out: GitignoreExclusion[] = [];
  for (const rule of tally.rules()) {
    let files = rule.files;
    for (const folder of rule.folders) files += await countFiles(folder);
    if (files > 0) out.push({ gitignore: rule.gitignore, rule: rule.rule, files, complete: budget > 0 });
  }
  if (out.length === 0) return undefined;
  // The counts are "more than indexed" only when the walk kept fewer: otherwise nothing to say.
  const excluded = out.reduce((n, e) => n + e.files, 0);
  if (selected > 0 && excluded <= selected) return undefined;
  return out.sort((a, b) => b.files - a.files);
}

/**
 * The files git tracks under a codebase root (paths relative to it), with every folder that
 * holds one: `.gitignore` never hides those. Undefined outside git, or when the index cannot be
 * read (version 4, split index): then `.gitignore` alone decides, as before.
 */
export interface TrackedFiles {
  readonly files: ReadonlySet<string>;
  readonly folders: ReadonlySet<string>;
  /** The index's size and mtime when read: a walk re-plans folders whose decisions used it when this changes. */
  readonly stamp: string;
}

/** Reads the tracked files of the codebase at `repoRelativePath` (`''` at the root) from `gitRoot`'s index. */
export async function readTrackedFiles(fs: FsAdapter, gitRoot: string, repoRelativePath: string): Promise<TrackedFiles | undefined> {
  try {
    const gitDir = await resolveGitDir(fs, gitRoot);
    const read = await readGitIndex(fs, gitDir, repoRelativePath === '' ? '' : `${repoRelativePath}/`);
    if (read === undefined) return undefined;
    const { index } = read;
    const files = new Set<string>(index.paths);
    const prefix = index.prefix;
    for (const path of index.conflicted) files.add(path.slice(prefix.length));
    const folders = new Set<string>();
    for (const path of files) {
      for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        const folder = path.slice(0, slash);
        if (folders.has(folder)) break;
        folders.add(folder);
      }
    }
    return { files, folders, stamp: await indexStamp(fs, gitDir) };
  } catch {
    return undefined;
  }
}

/** The git index's size and mtime, or `''` when it has none. */
export async function indexStamp(fs: FsAdapter, gitDir: string): Promise<string> {
  const info = await fs.stat(join(gitDir, 'index'));
  return info === undefined ? '' : `${info.size}:${info.mtimeMs}`;
}
