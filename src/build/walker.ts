import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import type { FileInfo, FsAdapter } from '../fs/adapter.js';
import { ignorePrefilter, type IgnorePrefilter } from './ignore-prefilter.js';
import { dirname, join, normalize, relativeInside } from '../fs/path.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { LanguageDefinition } from '../languages/types.js';

/** Folders skipped by default even without a `.gitignore` (dependencies, caches). @public */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = Object.freeze([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '__pycache__',
]);

/** Why a file was not indexed. @public */
export type SkipReason =
  | 'too-large'
  | 'binary'
  | 'minified'
  | 'unreadable'
  | 'duplicate-symlink'
  | 'parse-failed';

/** A file that was left out, with the reason. @public */
export interface SkippedFile {
  readonly path: string;
  readonly reason: SkipReason;
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
  /** picomatch globs, relative to the codebase root, of paths to leave out. */
  readonly exclude: readonly string[];
  readonly respectGitignore: boolean;
  /**
   * Restricts the walk to these absolute paths (an update told which files changed): only
   * their folders are listed, and the same rules (hidden, ignored, excluded, size) apply.
   */
  readonly only?: ReadonlySet<string> | undefined;
}

export interface WalkResult {
  readonly files: SourceFile[];
  readonly skipped: SkippedFile[];
  /** Extension (or `(none)`) → number of files with no registered language. */
  readonly unknownExtensions: Map<string, number>;
}

interface IgnoreScope {
  readonly base: string; // absolute folder the rules are relative to
  readonly prefix: string; // `base` with a trailing slash: a path inside starts with it
  readonly rules: Ignore;
  readonly mayMatch: IgnorePrefilter; // cheap "no positive rule can match" test before `rules`
}

/** `dir/name` for a normalised `dir` and a plain entry name: no re-normalising on the hot path. */
function child(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** Finds the folder holding `.git` at or above `path`, or undefined. */
export async function findGitRoot(fs: FsAdapter, path: string): Promise<string | undefined> {
  for (let dir = path; ; dir = dirname(dir)) {
    if (await fs.lstat(join(dir, '.git'))) return dir;
    if (dir === '/' || dir === '.') return undefined;
  }
}

async function loadIgnoreFile(fs: FsAdapter, dir: string): Promise<IgnoreScope | undefined> {
  const file = join(dir, '.gitignore');
  const info = await fs.lstat(file);
  if (info?.kind !== 'file') return undefined;
  const text = new TextDecoder().decode(await fs.readBytes(file));
  // Case-sensitive like git's default (core.ignorecase=false): `*.s` must not hide `head.S`.
  return { base: dir, prefix: dir === '/' ? '/' : `${dir}/`, rules: ignore({ ignorecase: false }).add(text), mayMatch: ignorePrefilter(text) };
}

function isIgnored(scopes: readonly IgnoreScope[], path: string, isDir: boolean): boolean {
  for (const scope of scopes) {
    if (!path.startsWith(scope.prefix)) continue;
    const rel = path.slice(scope.prefix.length);
    if (rel === '' || !scope.mayMatch(rel)) continue;
    if (scope.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/**
 * Lists the files of a codebase that a registered language covers. Skips hidden files and
 * folders below the root (not the root itself, so a codebase under `~/.cache` still indexes),
 * default dependency folders, `.gitignore`d paths, excluded globs, and symlinked folders;
 * indexes a symlinked file once.
 */
export async function walkCodebase(fs: FsAdapter, rootPath: string, options: WalkOptions): Promise<WalkResult> {
  // Normalised once, so paths below it are built by concatenation (the walk's hot path).
  const root = normalize(rootPath);
  const rootPrefix = root === '/' ? '/' : `${root}/`;
  const files: SourceFile[] = [];
  const skipped: SkippedFile[] = [];
  const unknownExtensions = new Map<string, number>();
  const skipDirs = new Set(options.skipDirectories);
  const excluded = options.exclude.length > 0 ? picomatch(options.exclude as string[], { dot: true }) : undefined;
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
  if (options.respectGitignore) {
    const gitRoot = await findGitRoot(fs, root);
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

  const consider = async (path: string, size: number, mtimeMs: number): Promise<void> => {
    const language = options.registry.forPath(path);
    if (!language) {
      const dot = path.lastIndexOf('.');
      const ext = dot > path.lastIndexOf('/') + 1 ? path.slice(dot) : '(none)'; // extname() without re-normalising
      unknownExtensions.set(ext, (unknownExtensions.get(ext) ?? 0) + 1);
      return;
    }
    if (size > options.maxFileSize) {
      skipped.push({ path, reason: 'too-large', detail: `${size} bytes > ${options.maxFileSize}` });
      return;
    }
    files.push({ path, size, mtimeMs, language });
  };

  const walkDir = async (dir: string, scopes: readonly IgnoreScope[]): Promise<void> => {
    const entries = (await fs.readdirTyped(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names = entries.map((e) => e.name);
    let local = scopes;
    if (options.respectGitignore && names.includes('.gitignore')) {
      const scope = await loadIgnoreFile(fs, dir);
      if (scope) local = [...scopes, scope];
    }
    // An lstat only where the entry's kind is unknown or a file's size and mtime matter (an
    // indexable file): folders and other files are known from the listing itself.
    const infos = await Promise.all(
      entries.map(({ name, kind }): Promise<FileInfo | undefined> | FileInfo | undefined => {
        if (name.startsWith('.')) return undefined;
        if (kind !== undefined && !wanted(child(dir, name), kind)) return undefined;
        if (kind === undefined || (kind === 'file' && options.registry.forPath(name) !== undefined)) return fs.lstat(child(dir, name));
        return { kind, size: 0, mtimeMs: 0 };
      }),
    );
    const subdirs: string[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const info = infos[i];
      if (!info || name.startsWith('.')) continue;
      const path = child(dir, name);
      if (!wanted(path, info.kind)) continue;
      const rel = path.startsWith(rootPrefix) ? path.slice(rootPrefix.length) : name;
      if (info.kind === 'directory') {
        if (skipDirs.has(name) || excluded?.(rel) || isIgnored(local, path, true)) continue;
        subdirs.push(path);
      } else if (info.kind === 'file') {
        if (excluded?.(rel) || isIgnored(local, path, false)) continue;
        await consider(path, info.size, info.mtimeMs);
      } else if (info.kind === 'symlink') {
        if (excluded?.(rel) || isIgnored(local, path, false)) continue;
        const target = await fs.stat(path);
        if (target?.kind !== 'file') continue; // symlinked folders are not followed (cycles)
        const real = await fs.realpath(path);
        if (real !== undefined) {
          // The target itself is indexed when it lies inside the codebase: index it once.
          if (relativeInside(root, real) !== undefined || relativeInside(realRoot, real) !== undefined || seenTargets.has(real)) {
            if (options.registry.forPath(path)) skipped.push({ path, reason: 'duplicate-symlink', detail: real });
            continue;
          }
          seenTargets.add(real);
        }
        await consider(path, target.size, target.mtimeMs);
      }
    }
    for (const sub of subdirs) await walkDir(sub, local);
  };

  await walkDir(root, baseScopes);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, unknownExtensions };
}
