import { CKGError } from '../errors.js';
import { yieldToEventLoop } from '../event-loop.js';
import { compileGlobs } from '../glob/glob.js';
import { gitignoreRules, type GitignoreRules } from '../glob/gitignore.js';
import type { FileInfo, FsAdapter } from '../fs/adapter.js';
import { ignorePrefilter, type IgnorePrefilter } from './ignore-prefilter.js';
import { ExclusionTally, indexStamp, readTrackedFiles, type TrackedFiles } from './gitignored.js';
import { mayBeScript, ShebangCache, sniff } from './shebang.js';
import { resolveGitDir } from '../snapshot/git.js';
import { dirname, folderPrefix, join, normalize, relativeInside } from '../fs/path.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { LanguageDefinition } from '../languages/types.js';
import type { SnapshotMemo } from '../snapshot/walk-memo.js';

/**
 * How close (ms) to the moment it was read a file's or folder's mtime may be before its stat
 * stops being trusted: a change in the same clock tick as the read may not move the mtime. The
 * margin covers coarse timestamps (FAT: 2 s) and small skew between `Date.now()` and the file
 * system's clock. The indexer applies it to files, the walker's {@link ListingCache} to folders.
 *
 * @example
 * ```ts
 * const trusted = record.mtimeMs < lastSyncStarted - RACY_WINDOW_MS;
 * ```
 */
export const RACY_WINDOW_MS = 3000;

/**
 * Folders skipped by default even without a `.gitignore` (dependencies, caches).
 *
 * @example
 * ```ts
 * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, skipDirectories: [...DEFAULT_SKIPPED_DIRECTORIES, 'vendor'] });
 * ```
 * @public
 */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = Object.freeze([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '__pycache__',
]);

/**
 * Why a file was not indexed.
 *
 * @example
 * ```ts
 * const byReason = new Map<SkipReason, number>();
 * for (const s of db.report?.skipped ?? []) byReason.set(s.reason, (byReason.get(s.reason) ?? 0) + 1);
 * ```
 * @public
 */
export type SkipReason =
  | 'too-large'
  | 'binary'
  | 'minified'
  | 'unreadable'
  | 'duplicate-symlink'
  | 'outside-codebase'
  | 'parse-failed';

/**
 * A file (or, with reason `'unreadable'`, a folder) that was left out, with the reason.
 * `'outside-codebase'`: a symlink whose target lies outside the codebase root, never read.
 *
 * @example
 * ```ts
 * for (const s of db.report?.skipped ?? []) console.warn(`${s.path}: ${s.reason}${s.detail ? ` (${s.detail})` : ''}`);
 * ```
 * @public
 */
export interface SkippedFile {
  /** The file's absolute path. */
  readonly path: string;
  /** Why it was left out. */
  readonly reason: SkipReason;
  /** More about it (the size, the error message, the symlink's target), when there is more. */
  readonly detail?: string;
}

/** A file the walker selected for indexing. */
export interface SourceFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly language: LanguageDefinition;
}

export interface WalkOptions {
  readonly registry: LanguageRegistry;
  readonly maxFileSize: number;
  readonly skipDirectories: readonly string[];
  /** Globs (src/glob: `*`, `?`, `[...]`, `**`, `{a,b}`), relative to the codebase root, of paths to leave out. */
  readonly exclude: readonly string[];
  readonly respectGitignore: boolean;
  /**
   * Restricts the walk to these absolute paths (an update told which files changed): only
   * their folders are listed, and the same rules (hidden, ignored, excluded, size) apply.
   */
  readonly only?: ReadonlySet<string> | undefined;
  /**
   * Folder listings kept from earlier walks, reused while a folder's mtime is unchanged (a folder
   * listing changes only when an entry is added, removed or renamed, which moves its mtime). Only
   * for file systems that keep folder mtimes that way (node:fs, memfs); see {@link ListingCache}.
   */
  readonly listings?: ListingCache | undefined;
  /**
   * Called with each file as the walk selects it (in walk order, before the walk ends): a build
   * starts parsing while the tree is still being walked. `WalkResult.files` holds the same files.
   */
  readonly onFile?: ((file: SourceFile) => void) | undefined;
  /**
   * Stops the walk (with a CKGError `ABORTED`) once aborted: at the next folder, or when the
   * listing it was waiting for arrives (its entries are then not looked at).
   */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called, in walk order with `onFile`, with each file no language covers that passes the
   * same rules (text search lists every file, not only indexable ones). Such files are still
   * counted in `unknownExtensions` and never appear in `WalkResult.files`.
   */
  readonly onOtherFile?: ((file: OtherFile) => void) | undefined;
  /** Also walk hidden files and folders below the root (`.github`, `.env`), except `.git`. Default false. */
  readonly hidden?: boolean | undefined;
}

/** A file the walker selected that no registered language covers (see `WalkOptions.onOtherFile`). */
export type OtherFile = Omit<SourceFile, 'language'>;

/** A folder listing as the walker reads it: names with kinds, sorted by name. */
export type Listing = readonly { readonly name: string; readonly kind: FileInfo['kind'] | undefined }[];

/**
 * What a folder's listing means for a walk, kept with the listing: on an unchanged folder the
 * walker then only stats the indexable files, instead of testing every entry's name against the
 * languages, the excludes and the ignore rules again (Django's 2,554 folders hold 4,353 files,
 * 942 of them indexable).
 */
interface FolderPlan {
  readonly key: string;
  readonly rules: readonly unknown[];
  readonly subdirs: readonly string[];
  readonly files: readonly string[];
  /** The language of each of `files`; undefined for a file no language covers (with `onOtherFile`). */
  readonly languages: readonly (LanguageDefinition | undefined)[];
  readonly symlinks: readonly string[];
  /** Files no language covers, as extension / count pairs: `['.po', 2, '.mo', 2]`. */
  readonly unknown: readonly (string | number)[];
  /** Per file of `files`: an extensionless file whose `#!` line may name a language (read on every walk, through a cache). */
  readonly scripts: readonly boolean[];
  /** What `.gitignore` rules left out here: `[gitignore, rule, path, isFolder]`, replayed into the walk's tally. */
  readonly exclusions: readonly (readonly [string, string, string, boolean])[];
  /** The git index stamp the decisions depended on (tracked files under ignored paths), if any. */
  readonly trackedStamp?: string;
}

/** A remembered listing. `seen` is the number of the last walk that visited the folder (see `prune`). */
interface CachedListing {
  readonly mtimeMs: number;
  readonly listedAt: number;
  readonly entries: Listing;
  /** The listing holds a `.gitignore` (looked up once per listing, not once per walk). */
  readonly hasGitignore: boolean;
  plan?: FolderPlan;
  seen: number;
}

/**
 * Folder listings remembered between walks of one codebase, like git's untracked cache: a
 * re-check then costs one `stat` per folder instead of one `readdir` (on the Linux tree, 5k
 * folders: 20 ms instead of 120-170 ms). A listing is reused only when the folder's mtime is the
 * one seen when it was listed AND that mtime was at least {@link RACY_WINDOW_MS} older than the
 * listing: a folder changed in the same clock tick as it was listed could change again without
 * its mtime moving, so it is listed again (the rule git uses for racily clean entries).
 */
export class ListingCache {
  /**
   * Whether snapshots are recorded with their file system answers and replayed (see
   * snapshot/walk-memo.ts). For indexes kept between processes (`keepFolderListings`): a new
   * process has no plans, and a replay spares it the walk. Within one process the plans already
   * make a re-check cheap, and recording every walk of a large tree would cost more than it saves.
   */
  readonly memoizesSnapshots: boolean;

  constructor(options: { readonly memoizeSnapshots?: boolean } = {}) {
    this.memoizesSnapshots = options.memoizeSnapshots === true;
  }

  readonly #listings = new Map<string, CachedListing>();
  /** Counts walks: a folder whose `seen` is not the current walk was not visited by it. */
  #walk = 0;
  /** The last plan key, so equal keys of successive walks are one string (compared by identity). */
  #planKey = '';
  /** Listings were added, replaced or dropped since {@link ListingCache.markSaved}. */
  #changed = false;
  /** Languages of extensionless scripts, by path, from their `#!` line. */
  readonly shebangs = new ShebangCache(RACY_WINDOW_MS);
  /**
   * The last full snapshot of the codebase with the file system answers it was computed from
   * (see snapshot/walk-memo.ts): a check that gets the same answers has it without walking.
   */
  #snapshotMemo: SnapshotMemo | undefined;
  /** The memo changed since {@link ListingCache.markSaved}. */
  #memoChanged = false;

  get snapshotMemo(): SnapshotMemo | undefined {
    return this.#snapshotMemo;
  }

  set snapshotMemo(memo: SnapshotMemo | undefined) {
    if (memo === this.#snapshotMemo) return;
    this.#snapshotMemo = memo;
    this.#memoChanged = true;
  }

  /** Takes a memo another process saved, unless one was made here. */
  adoptSnapshotMemo(memo: SnapshotMemo): void {
    this.#snapshotMemo ??= memo;
  }

  /** Whether the snapshot memo changed since the last {@link ListingCache.markSaved}. */
  get memoChanged(): boolean {
    return this.#memoChanged;
  }

  /** Number of folders remembered. */
  get size(): number {
    return this.#listings.size;
  }

  /** Starts a walk and returns its number: folders it does not visit are dropped by {@link ListingCache.prune}. */
  startWalk(): number {
    const adopt = this.#beforeNextWalk;
    this.#beforeNextWalk = undefined;
    adopt?.();
    return ++this.#walk;
  }

  /** Work (adopting saved listings) done when the next walk starts, and only then. */
  #beforeNextWalk: (() => void) | undefined;

  /** Runs `adopt` when the next walk starts: a check answered by the snapshot memo never pays for it. */
  beforeNextWalk(adopt: () => void): void {
    this.#beforeNextWalk = adopt;
  }

  /** `key` itself, or an equal string kept from an earlier call (identity makes comparisons cheap). */
  internPlanKey(key: string): string {
    if (key !== this.#planKey) this.#planKey = key;
    return this.#planKey;
  }

  /** The listing of `dir` if still valid for its current mtime, else undefined. Marks the folder visited. */
  get(dir: string, mtimeMs: number): CachedListing | undefined {
    const cached = this.#listings.get(dir);
    if (cached === undefined) return undefined;
    cached.seen = this.#walk;
    return cached.mtimeMs === mtimeMs && mtimeMs < cached.listedAt - RACY_WINDOW_MS ? cached : undefined;
  }

  /** Remembers a listing read at `listedAt` (ms since the epoch, taken before the read) of a folder whose mtime was `mtimeMs`. */
  set(dir: string, mtimeMs: number, listedAt: number, entries: Listing): void {
    this.#remember(dir, mtimeMs, listedAt, entries);
    this.#changed = true;
  }

  #remember(dir: string, mtimeMs: number, listedAt: number, entries: Listing): void {
    this.#listings.set(dir, { mtimeMs, listedAt, entries, hasGitignore: entries.some((e) => e.name === '.gitignore'), seen: this.#walk });
  }

  /**
   * Takes a listing another process saved (see `indexer/saved-listings.ts`) unless the folder is
   * known here. It is reused under the same rule as one listed here: the folder's mtime must be
   * the one seen then, and older than that listing by the racy window.
   */
  adopt(dir: string, mtimeMs: number, listedAt: number, entries: Listing): void {
    if (!this.#listings.has(dir)) this.#remember(dir, mtimeMs, listedAt, entries);
  }

  /** The remembered listings: folder, its mtime, when it was listed, its entries. */
  *listings(): IterableIterator<readonly [string, number, number, Listing]> {
    for (const [dir, cached] of this.#listings) yield [dir, cached.mtimeMs, cached.listedAt, cached.entries];
  }

  /** Whether listings were added, replaced or dropped since the last {@link ListingCache.markSaved}. */
  get changed(): boolean {
    return this.#changed;
  }

  /** Records that the listings as they are now were saved. */
  markSaved(): void {
    this.#changed = false;
    this.#memoChanged = false;
  }

  /**
   * What the walker concluded from a folder's listing last time, if the listing is still valid
   * and the conclusion was drawn under the same walk options (`key`) and the same compiled
   * `.gitignore` rules (`rules`, compared by identity: rules are compiled once per text).
   */
  plan(dir: string, key: string, rules: readonly unknown[]): FolderPlan | undefined {
    const plan = this.#listings.get(dir)?.plan;
    if (plan === undefined || plan.key !== key || plan.rules.length !== rules.length) return undefined;
    for (let i = 0; i < rules.length; i++) if (plan.rules[i] !== rules[i]) return undefined;
    return plan;
  }

  /** Attaches a plan to the folder's remembered listing (dropped when the listing is replaced). */
  setPlan(dir: string, plan: FolderPlan): void {
    const entry = this.#listings.get(dir);
    if (entry !== undefined) entry.plan = plan;
  }

  /**
   * Forgets folders that walk `walk` did not visit (gone since, or no longer walked). A folder
   * visited by a walk that started later (two walks may overlap) is kept.
   */
  prune(walk: number): void {
    for (const [dir, cached] of this.#listings) {
      if (cached.seen >= walk) continue;
      this.#listings.delete(dir);
      this.#changed = true;
    }
    this.shebangs.retainFolders((dir) => this.#listings.has(dir));
  }

  clear(): void {
    if (this.#listings.size > 0) this.#changed = true;
    this.#listings.clear();
    this.snapshotMemo = undefined;
    this.shebangs.retainFolders(() => false);
  }
}

export interface WalkResult {
  readonly files: SourceFile[];
  readonly skipped: SkippedFile[];
  /** Extension (or `(none)`) → number of files with no registered language. */
  readonly unknownExtensions: Map<string, number>;
  /** What `.gitignore` rules left out (folders and indexable files, by rule); absent without `.gitignore` handling. */
  readonly gitignored?: ExclusionTally;
}

interface IgnoreScope {
  readonly base: string; // absolute folder the rules are relative to
  readonly prefix: string; // `base` with a trailing slash: a path inside starts with it
  readonly rules: GitignoreRules;
  readonly mayMatch: IgnorePrefilter; // cheap "no positive rule can match" test before `rules`
}

/** `dir/name` for a normalised `dir` and a plain entry name: no re-normalising on the hot path. */
function child(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`; // a root (`/`, `C:/`) ends with its slash
}

/** Finds the folder holding `.git` at or above `path`, or undefined. */
export async function findGitRoot(fs: FsAdapter, path: string): Promise<string | undefined> {
  for (let dir = path; ; ) {
    if (await fs.lstat(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined; // a root (`/`, `C:/`) or `.`
    dir = parent;
  }
}

interface CompiledIgnore {
  readonly rules: GitignoreRules;
  readonly mayMatch: IgnorePrefilter;
}

// Compiled .gitignore texts, by text: a re-check walks the same tree again, and compiling its
// rules (the Linux tree has 306 .gitignore files) cost more than reading them. The prefilter's
// per-folder states are kept with it: they depend on the text and the relative folder only.
const compiledIgnores = new Map<string, CompiledIgnore>();
const COMPILED_IGNORES_LIMIT = 4096;

function compileIgnore(text: string): CompiledIgnore {
  let compiled = compiledIgnores.get(text);
  if (compiled === undefined) {
    // Case-sensitive like git's default (core.ignorecase=false): `*.s` must not hide `head.S`.
    compiled = { rules: gitignoreRules(text), mayMatch: ignorePrefilter(text) };
    if (compiledIgnores.size >= COMPILED_IGNORES_LIMIT) compiledIgnores.delete(compiledIgnores.keys().next().value!);
    compiledIgnores.set(text, compiled);
  }
  return compiled;
}

async function loadIgnoreFile(fs: FsAdapter, dir: string): Promise<IgnoreScope | undefined> {
  const file = join(dir, '.gitignore');
  const info = await fs.lstat(file);
  if (info?.kind !== 'file') return undefined;
  const text = new TextDecoder().decode(await fs.readBytes(file));
  return { base: dir, prefix: folderPrefix(dir), ...compileIgnore(text) };
}

/**
 * The ignore verdict for the entries of one folder: each scope's per-folder work (its relative
 * folder, the prefilter's folder state) is done once, then each entry costs a few lookups. Every
 * scope passed in lies at or above `dir`. Returns the scope whose rules ignore the entry.
 */
function folderIgnoreTest(scopes: readonly IgnoreScope[], dir: string): (name: string, isDir: boolean) => IgnoreScope | undefined {
  if (scopes.length === 0) return () => undefined;
  const tests = scopes.map((scope) => {
    const relDir = dir === scope.base ? '' : dir.slice(scope.prefix.length);
    const relPrefix = relDir === '' ? '' : `${relDir}/`;
    const mayMatch = scope.mayMatch.folder(relDir);
    return (name: string, isDir: boolean): IgnoreScope | undefined =>
      mayMatch(name) && scope.rules.ignores(isDir ? `${relPrefix}${name}/` : relPrefix + name) ? scope : undefined;
  });
  return (name, isDir) => {
    for (const test of tests) {
      const scope = test(name, isDir);
      if (scope) return scope;
    }
    return undefined;
  };
}

/** The rule of `scope` that ignores `path` (absolute), as written. */
function ignoringRule(scope: IgnoreScope, path: string, isDir: boolean): string {
  const rel = path.slice(scope.prefix.length);
  return scope.rules.test(isDir ? `${rel}/` : rel).rule?.pattern ?? '';
}

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** How long (ms) a walk feeding `onFile` runs before it lets other work run. */
const YIELD_EVERY_MS = 8;
const now = (): number => performance.now();

/**
 * Lists the files of a codebase that a registered language covers. Skips hidden files and
 * folders below the root (not the root itself, so a codebase under `~/.cache` still indexes),
 * default dependency folders, `.gitignore`d paths, excluded globs, and symlinked folders;
 * indexes a symlinked file once.
 */
export async function walkCodebase(fs: FsAdapter, rootPath: string, options: WalkOptions): Promise<WalkResult> {
  // Normalised once, so paths below it are built by concatenation (the walk's hot path).
  const root = normalize(rootPath);
  const rootPrefix = folderPrefix(root);
  const files: SourceFile[] = [];
  const skipped: SkippedFile[] = [];
  const unknownExtensions = new Map<string, number>();
  const skipDirs = new Set(options.skipDirectories);
  const excluded = options.exclude.length > 0 ? compileGlobs(options.exclude) : undefined;
  const seenTargets = new Set<string>();
  const realRoot = (await fs.realpath(root)) ?? root;
  // With `only`: the folders on the way to the given paths, the only ones listed.
  let onlyDirs: Set<string> | undefined;
  if (options.only) {
    onlyDirs = new Set();
    for (const path of options.only) {
      for (let dir = dirname(path); relativeInside(root, dir) !== undefined && !onlyDirs.has(dir); dir = dirname(dir)) {
        onlyDirs.add(dir);
        if (dir === root) break;
      }
    }
  }
  const wanted = (path: string, kind: FileInfo['kind'] | undefined): boolean =>
    options.only === undefined || (kind === 'directory' ? onlyDirs!.has(path) : options.only.has(path));

  // .gitignore files between the repository root and the codebase root apply too.
  const baseScopes: IgnoreScope[] = [];
  let gitRoot: string | undefined;
  if (options.respectGitignore) {
    gitRoot = await findGitRoot(fs, root);
    if (gitRoot !== undefined && gitRoot !== root) {
      const rel = relativeInside(gitRoot, root) ?? '';
      let dir = gitRoot;
      for (const part of ['', ...rel.split('/')]) {
        dir = part === '' ? dir : join(dir, part);
        if (dir === root) break;
        const scope = await loadIgnoreFile(fs, dir);
        if (scope) baseScopes.push(scope);
      }
    }
  }

  // Git keeps tracked files whatever `.gitignore` says: the index is read the first time a
  // rule ignores something (most walks of a clean tree never need it).
  const tally = options.respectGitignore ? new ExclusionTally() : undefined;
  let tracked: Promise<TrackedFiles | undefined> | undefined;
  const trackedFiles = (): Promise<TrackedFiles | undefined> =>
    (tracked ??= gitRoot === undefined ? Promise.resolve(undefined) : readTrackedFiles(fs, gitRoot, relativeInside(gitRoot, root) ?? ''));
  let stamp: Promise<string> | undefined;
  const currentStamp = (): Promise<string> =>
    (stamp ??= gitRoot === undefined ? Promise.resolve('') : resolveGitDir(fs, gitRoot).then((gitDir) => indexStamp(fs, gitDir)).catch(() => ''));
  const scriptsPossible = options.registry.hasInterpreters;
  const shebangs = options.listings?.shebangs;

  /** Counts a file no language covers; returns its extension (or `(none)`). */
  const countUnknown = (name: string): string => {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? name.slice(dot) : '(none)';
    unknownExtensions.set(ext, (unknownExtensions.get(ext) ?? 0) + 1);
    return ext;
  };
  const onFile = options.onFile;
  const onOtherFile = options.onOtherFile;
  const hidden = options.hidden === true;
  const consider = (path: string, size: number, mtimeMs: number, language: LanguageDefinition | undefined): void => {
    if (language === undefined) {
      onOtherFile?.({ path, size, mtimeMs });
      return;
    }
    if (size > options.maxFileSize) {
      skipped.push({ path, reason: 'too-large', detail: `${size} bytes > ${options.maxFileSize}` });
      return;
    }
    const file = { path, size, mtimeMs, language };
    files.push(file);
    onFile?.(file);
  };
  const relative = (path: string): string => path.slice(rootPrefix.length);

  // The hot path of a large tree: one listing per folder, one batched lstat of the folder's
  // indexable files, and per entry only set lookups (no promise, no path re-normalising).
  const listings = options.listings;
  const walkNumber = listings?.startWalk() ?? 0;
  /** The folder's listing, and whether it is kept in the cache (so a plan may be attached). */
  const list = async (dir: string): Promise<{ entries: Listing; kept: boolean; reused: boolean; hasGitignore?: boolean }> => {
    if (listings === undefined) return { entries: (await fs.readdirTyped(dir)).sort(byName), kept: false, reused: false };
    // Folders below the root are never symlinks (those are not followed): lstat is enough.
    const info = dir === root ? await fs.stat(dir) : await fs.lstat(dir);
    if (info !== undefined) {
      const cached = listings.get(dir, info.mtimeMs);
      if (cached !== undefined) return { entries: cached.entries, kept: true, reused: true, hasGitignore: cached.hasGitignore };
    }
    const listedAt = Date.now();
    const entries = (await fs.readdirTyped(dir)).sort(byName);
    // A names-only listing has no kinds: nothing gained by keeping it.
    const kept = info !== undefined && entries.every((e) => e.kind !== undefined);
    if (kept) listings.set(dir, info.mtimeMs, listedAt, entries);
    return { entries, kept, reused: false };
  };
  // Plans are drawn under these options; partial walks (`only`) neither use nor keep them.
  const planKey =
    listings === undefined || options.only !== undefined
      ? undefined
      : listings.internPlanKey(JSON.stringify([options.registry.fingerprint(), [...skipDirs].sort(), options.exclude, options.respectGitignore, hidden, onOtherFile !== undefined]));

  /** The target's path relative to the codebase when it lies inside it (by either spelling of the root). */
  const insideRoot = (real: string): string | undefined => relativeInside(root, real) ?? relativeInside(realRoot, real);
  /** Whether a walk finds the file at `rel` (relative to the root) by itself, so a link to it is a duplicate. */
  const walkedItself = (rel: string): boolean => {
    const parts = rel.split('/');
    if (parts.some((part) => part.charCodeAt(0) === 46) || parts.slice(0, -1).some((part) => skipDirs.has(part))) return false;
    if (excluded !== undefined && parts.some((_, i) => excluded(parts.slice(0, i + 1).join('/')))) return false;
    return options.registry.forPath(parts[parts.length - 1]!) !== undefined;
  };
  const processSymlinks = async (symlinks: readonly string[]): Promise<void> => {
    for (const path of symlinks) {
      let target: FileInfo | undefined;
      let real: string | undefined;
      try {
        target = await fs.stat(path);
        if (target?.kind !== 'file') continue; // symlinked folders are not followed (cycles), broken links are nothing
        real = await fs.realpath(path);
      } catch (error) {
        skipped.push({ path, reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const language = options.registry.forPath(path);
      // Nothing outside the codebase is read: a link out of it, or one that cannot be resolved, is left out.
      const rel = real === undefined ? undefined : insideRoot(real);
      if (rel === undefined) {
        if (language !== undefined) skipped.push({ path, reason: 'outside-codebase', detail: real ?? 'the file system cannot resolve links' });
        continue;
      }
      // The target is indexed under its own name when the walk finds it: index it once.
      if (walkedItself(rel) || seenTargets.has(real!)) {
        if (language !== undefined) skipped.push({ path, reason: 'duplicate-symlink', detail: real });
        continue;
      }
      seenTargets.add(real!);
      const name = path.slice(path.lastIndexOf('/') + 1);
      const script = language === undefined && scriptsPossible && mayBeScript(name) ? await sniff(fs, options.registry, path, target.size) : undefined;
      if (language === undefined && script === undefined) countUnknown(name);
      if (language !== undefined || script !== undefined || onOtherFile !== undefined) consider(path, target.size, target.mtimeMs, language ?? script);
    }
  };

  /** lstat of one folder's entries; entries that cannot be stat'ed are left out, the folder reported once. */
  const lstatEach = async (paths: readonly string[]): Promise<(FileInfo | undefined)[]> => {
    try {
      return await fs.lstatMany(paths);
    } catch (first) {
      const out: (FileInfo | undefined)[] = [];
      for (const path of paths) out.push(await fs.lstat(path).catch(() => undefined));
      skipped.push({ path: dirname(paths[0]!), reason: 'unreadable', detail: first instanceof Error ? first.message : String(first) });
      return out;
    }
  };

  /** An extensionless file: indexed when its `#!` line names a language, else counted as `(none)` (and another file). */
  const considerScript = async (path: string, info: FileInfo): Promise<void> => {
    const language = shebangs
      ? await shebangs.languageOf(fs, options.registry, path, info.size, info.mtimeMs)
      : await sniff(fs, options.registry, path, info.size);
    if (language === undefined) countUnknown(path.slice(path.lastIndexOf('/') + 1));
    // Not a script: still a file for `onOtherFile` (text search lists every file).
    if (language !== undefined || onOtherFile !== undefined) consider(path, info.size, info.mtimeMs, language);
  };

  // A walk over synchronous file system calls never gives the event loop a turn (its awaits
  // settle at once): yield every few milliseconds, so parse workers' replies get through (a
  // build parsing during the walk) and timers and aborts run (the Linux tree takes 400 ms).
  let lastYield = now();
  const checkAborted = (): void => {
    if (options.signal?.aborted) throw new CKGError('ABORTED', 'The operation was aborted', { reason: String(options.signal.reason) });
  };
  const walkDir = async (dir: string, scopes: readonly IgnoreScope[]): Promise<void> => {
    if (now() - lastYield > YIELD_EVERY_MS) {
      await yieldToEventLoop();
      lastYield = now();
    }
    checkAborted();
    let listing: Awaited<ReturnType<typeof list>>;
    let local = scopes;
    try {
      listing = await list(dir);
      checkAborted(); // aborted while the listing was read (a slow folder): its entries are not looked at
      if (options.respectGitignore && (listing.hasGitignore ?? listing.entries.some((e) => e.name === '.gitignore'))) {
        // An unreadable .gitignore leaves the folder out: what it ignores cannot be known.
        const scope = await loadIgnoreFile(fs, dir);
        if (scope) local = [...scopes, scope];
      }
    } catch (error) {
      // One folder that cannot be read (no permission, or gone since its parent was listed) is
      // left out; the codebase root itself must be readable.
      if (dir === root || !(error instanceof CKGError) || (error.code !== 'FS_ERROR' && error.code !== 'NOT_FOUND')) throw error;
      if (error.code === 'FS_ERROR') skipped.push({ path: dir, reason: 'unreadable', detail: error.message });
      return;
    }
    const { entries, kept, reused } = listing;
    const rules = planKey === undefined ? [] : local.map((scope) => scope.rules);
    let plan = planKey !== undefined && reused ? listings!.plan(dir, planKey, rules) : undefined;
    // Decisions that kept or left out files git tracks hold while the git index is the same.
    if (plan?.trackedStamp !== undefined && plan.trackedStamp !== (await currentStamp())) plan = undefined;
    if (plan !== undefined) {
      for (const [gitignore, rule, path, folder] of plan.exclusions) tally?.add(gitignore, rule, path, folder);
      const unknown = plan.unknown;
      for (let i = 0; i < unknown.length; i += 2) {
        const ext = unknown[i] as string;
        unknownExtensions.set(ext, (unknownExtensions.get(ext) ?? 0) + (unknown[i + 1] as number));
      }
      const infos = await lstatEach(plan.files);
      for (let i = 0; i < plan.files.length; i++) {
        const info = infos[i];
        if (info?.kind !== 'file') continue;
        if (plan.scripts[i]) await considerScript(plan.files[i]!, info);
        else consider(plan.files[i]!, info.size, info.mtimeMs, plan.languages[i]);
      }
      await processSymlinks(plan.symlinks);
      for (const sub of plan.subdirs) await walkDir(sub, local);
      return;
    }
    const ignored = folderIgnoreTest(local, dir);
    const unknownHere = new Map<string, number>(); // this folder's share of unknownExtensions, for its plan
    const subdirs: string[] = [];
    const symlinks: string[] = [];
    const toStat: string[] = []; // indexable files, and entries of unknown kind (names-only listings)
    // undefined: no language covers the file (with onOtherFile), or its kind is not known yet
    const toStatLanguage: (LanguageDefinition | undefined)[] = [];
    const toStatKnown: boolean[] = []; // the entry's kind was listed (a file), not to be found by lstat
    const toStatScript: boolean[] = []; // an extensionless file: its `#!` line decides
    // Entries `.gitignore` rules ignore, decided once the tracked files are known (resolvePending).
    const pending: { readonly name: string; readonly path: string; readonly kind: 'file' | 'directory' | 'symlink'; readonly scope: IgnoreScope; readonly language?: LanguageDefinition }[] = [];
    const exclusions: [string, string, string, boolean][] = [];
    let trackedStamp: string | undefined;
    /**
     * True when a file is to be stat'ed and selected, `'script'` when its `#!` line decides;
     * false when left out (or deferred: ignored, see resolvePending).
     */
    const file = (name: string, path: string, language: LanguageDefinition | undefined, unignored = false): boolean | 'script' => {
      if (excluded !== undefined && excluded(relative(path))) return false;
      const scope = unignored ? undefined : ignored(name, false);
      if (scope) {
        pending.push({ name, path, kind: 'file', scope, ...(language ? { language } : {}) });
        return false;
      }
      if (language === undefined && scriptsPossible && mayBeScript(name)) return 'script';
      if (language === undefined) {
        const ext = countUnknown(name);
        unknownHere.set(ext, (unknownHere.get(ext) ?? 0) + 1);
      }
      return language !== undefined || onOtherFile !== undefined;
    };
    const directory = (name: string, path: string, unignored = false): void => {
      if (skipDirs.has(name) || (excluded !== undefined && excluded(relative(path)))) return;
      const scope = unignored ? undefined : ignored(name, true);
      if (scope) pending.push({ name, path, kind: 'directory', scope });
      else subdirs.push(path);
    };
    const symlink = (name: string, path: string, unignored = false): void => {
      if (excluded !== undefined && excluded(relative(path))) return;
      const scope = unignored ? undefined : ignored(name, false);
      if (scope) pending.push({ name, path, kind: 'symlink', scope });
      else symlinks.push(path);
    };
    /** Ignored entries: kept when git tracks them (or files under them), else tallied by rule. */
    const resolvePending = async (keepFile: (path: string, language: LanguageDefinition | undefined, script: boolean) => void): Promise<void> => {
      if (pending.length === 0) return;
      const known = await trackedFiles();
      if (known !== undefined) trackedStamp = known.stamp;
      for (const entry of pending.splice(0)) {
        const rel = relative(entry.path);
        if (known !== undefined && (entry.kind === 'directory' ? known.folders.has(rel) : known.files.has(rel))) {
          if (entry.kind === 'directory') directory(entry.name, entry.path, true);
          else if (entry.kind === 'symlink') symlink(entry.name, entry.path, true);
          else {
            const verdict = file(entry.name, entry.path, entry.language, true);
            if (verdict) keepFile(entry.path, entry.language, verdict === 'script');
          }
          continue;
        }
        // Only what would have been indexed is worth telling about: folders, and files a language covers.
        if (entry.kind === 'directory' || entry.language !== undefined) {
          const gitignore = join(entry.scope.base, '.gitignore');
          const rule = ignoringRule(entry.scope, entry.path, entry.kind === 'directory');
          exclusions.push([gitignore, rule, entry.path, entry.kind === 'directory']);
          tally?.add(gitignore, rule, entry.path, entry.kind === 'directory');
        }
      }
    };
    for (const { name, kind } of entries) {
      // hidden: `.git`, `.venv`, `.cache`, ... (`.git` even with `hidden`)
      if (name.charCodeAt(0) === 46 && (!hidden || name === '.git')) continue;
      const path = child(dir, name);
      if (kind === undefined) {
        toStat.push(path);
        toStatLanguage.push(undefined);
        toStatKnown.push(false);
        toStatScript.push(false);
      } else if (!wanted(path, kind)) {
        continue;
      } else if (kind === 'file') {
        const language = options.registry.forPath(name);
        const verdict = file(name, path, language);
        if (verdict) {
          toStat.push(path);
          toStatLanguage.push(language);
          toStatKnown.push(true);
          toStatScript.push(verdict === 'script');
        }
      } else if (kind === 'directory') {
        directory(name, path);
      } else if (kind === 'symlink') {
        symlink(name, path);
      }
    }
    await resolvePending((path, language, script) => {
      toStat.push(path);
      toStatLanguage.push(language);
      toStatKnown.push(true);
      toStatScript.push(script);
    });
    if (planKey !== undefined && kept) {
      // Every entry had a kind (a kept listing), so toStat holds exactly the selected files.
      const unknown = [...unknownHere].flat();
      listings!.setPlan(dir, {
        key: planKey,
        rules,
        subdirs,
        files: toStat,
        languages: toStatLanguage,
        symlinks,
        unknown,
        scripts: toStatScript,
        exclusions,
        ...(trackedStamp !== undefined ? { trackedStamp } : {}),
      });
    }
    const infos = await lstatEach(toStat);
    for (let i = 0; i < toStat.length; i++) {
      const info = infos[i];
      if (info === undefined) continue; // gone since the listing
      const path = toStat[i]!;
      if (toStatKnown[i]) {
        if (toStatScript[i]) await considerScript(path, info);
        else consider(path, info.size, info.mtimeMs, toStatLanguage[i]);
        continue;
      }
      // A names-only listing: the lstat tells the kind.
      if (!wanted(path, info.kind)) continue;
      const name = path.slice(path.lastIndexOf('/') + 1);
      if (info.kind === 'directory') directory(name, path);
      else if (info.kind === 'symlink') symlink(name, path);
      else if (info.kind === 'file') {
        const language = options.registry.forPath(name);
        const verdict = file(name, path, language);
        if (verdict === 'script') await considerScript(path, info);
        else if (verdict) consider(path, info.size, info.mtimeMs, language);
      }
    }
    // A names-only listing finds its ignored entries only now.
    const late: { path: string; language: LanguageDefinition | undefined; script: boolean }[] = [];
    await resolvePending((path, language, script) => late.push({ path, language, script }));
    if (late.length > 0) {
      const lateInfos = await fs.lstatMany(late.map((l) => l.path));
      for (let i = 0; i < late.length; i++) {
        const info = lateInfos[i];
        const { path, language, script } = late[i]!;
        if (info?.kind !== 'file') continue;
        if (script) await considerScript(path, info);
        else consider(path, info.size, info.mtimeMs, language);
      }
    }
    await processSymlinks(symlinks);
    for (const sub of subdirs) await walkDir(sub, local);
  };

  await walkDir(root, baseScopes);
  if (listings !== undefined && options.only === undefined) listings.prune(walkNumber);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return tally === undefined ? { files, skipped, unknownExtensions } : { files, skipped, unknownExtensions, gitignored: tally };
}
