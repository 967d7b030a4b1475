// When can a stored index be reused? Two keys answer it:
// - the storage key names a codebase IDENTITY (path, repository-relative path, schema, languages,
//   walk options): where its bytes are kept;
// - the snapshot key names the codebase's STATE (HEAD + work-tree changes, or a stat digest):
//   stored inside the database (`meta.snapshot_key`), compared on open and before tool answers.
import type { FsAdapter } from '../fs/adapter.js';
import { basename, folderPrefix, normalize, relativeInside } from '../fs/path.js';
import { findGitRoot, walkCodebase, type WalkOptions, type WalkResult } from '../indexer/walker.js';
import { SCHEMA_VERSION } from '../db/schema.js';
import { DigestInput, digestFields } from './digest.js';
import { folderOf, foldersUp, manifestNamesOf, readsManifests } from '../graph/manifest-names.js';
import { readGitIndex, resolveGitDir, resolveHead } from './git.js';
import { UnsupportedGitIndex, type GitIndex } from './git-index.js';
import { replaySnapshot, SnapshotRecorder } from './walk-memo.js';

/** The state of a codebase, with the walk that produced it (reused by an update). */
export interface Snapshot {
  /** `git:<HEAD>:<digest>` or `files:<digest>`; equal keys mean the indexed files are unchanged. */
  readonly key: string;
  readonly mode: 'git' | 'files';
  /** The files that would be indexed now. */
  readonly walk: WalkResult;
  /** Why a git repository was keyed by file stats instead (index v4, split index, unreadable HEAD, ...). */
  readonly fallbackReason?: string;
}

/** Where a codebase sits: its repository root (if any) and its path relative to it. */
export interface CodebaseLocation {
  readonly gitRoot: string | undefined;
  /** `''` at the repository root or outside any repository. */
  readonly repoRelativePath: string;
}

/** Finds the repository around `root`. */
export async function locateCodebase(fs: FsAdapter, root: string): Promise<CodebaseLocation> {
  const gitRoot = await findGitRoot(fs, root);
  return { gitRoot, repoRelativePath: gitRoot === undefined ? '' : (relativeInside(gitRoot, root) ?? '') };
}

/**
 * The storage key of a codebase identity. Both the given path and its realpath are part of it:
 * the realpath so two spellings of one folder are recognised, the given path because rows store
 * absolute paths under it (an index built under `/link/repo` is wrong for `/real/repo`).
 */
export async function computeStorageKey(parts: {
  readonly root: string;
  readonly realRoot: string;
  readonly repoRelativePath: string;
  readonly languages: string;
  readonly options: string;
}): Promise<string> {
  const digest = await digestFields([
    'ckg-wasm-storage-1',
    `schema=${SCHEMA_VERSION}`,
    parts.root,
    parts.realRoot,
    parts.repoRelativePath,
    parts.languages,
    parts.options,
  ]);
  // A readable prefix helps whoever looks into the cache folder; the digest makes it unique.
  const name = basename(parts.root).replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40) || 'root';
  return `ckg-${name}-${digest.slice(0, 32)}`;
}

/** The walk options as a stable string: they decide what is indexed, so they separate indexes. */
export function walkOptionsFingerprint(options: Omit<WalkOptions, 'registry'>): string {
  return JSON.stringify({
    maxFileSize: options.maxFileSize,
    skipDirectories: [...options.skipDirectories].sort(),
    exclude: [...options.exclude],
    respectGitignore: options.respectGitignore,
  });
}

const UINT32 = 0x100000000;

/**
 * Walks the codebase and computes its snapshot key.
 *
 * In a git repository the key holds HEAD (or an `unborn:` marker) and, for every file that would
 * be indexed, either its staged blob id (when size and mtime match the git index entry and the
 * entry is not "racily clean") or its path, size and mtime. So a second edit to an
 * already-modified file changes the key, staged-but-uncommitted content is keyed by its blob, and
 * new, deleted or ignored files are handled exactly as the indexer sees them (the same walk).
 * This is `git status`'s stat comparison, not isomorphic-git's `statusMatrix` (which re-hashes
 * files). Outside git, and when the index cannot be read, the key is a digest of relative path,
 * size and mtime of every file that would be indexed.
 */
export async function computeSnapshot(
  fs: FsAdapter,
  root: string,
  walkOptions: WalkOptions,
  location?: CodebaseLocation,
): Promise<Snapshot> {
  const where = location ?? (await locateCodebase(fs, root));
  // With listings kept (a file system whose mtimes can be trusted), the last full snapshot is
  // kept with the answers it was computed from: the same answers now mean the same snapshot.
  const listings = walkOptions.only === undefined && walkOptions.listings?.memoizesSnapshots === true ? walkOptions.listings : undefined;
  const scope = listings === undefined ? undefined : memoScope(root, where, walkOptions);
  if (listings?.snapshotMemo !== undefined && walkOptions.onFile === undefined && walkOptions.onOtherFile === undefined) {
    const replayed = await replaySnapshot(fs, listings.snapshotMemo, scope!);
    if (replayed !== undefined) return replayed;
  }
  const recorder = listings === undefined ? undefined : new SnapshotRecorder(fs);
  const snapshot = await walkAndKey(recorder?.fs ?? fs, root, walkOptions, where);
  if (listings !== undefined) listings.snapshotMemo = recorder!.finish(scope!, snapshot);
  return snapshot;
}

/** What a snapshot memo must have been made for: the same root, repository and walk. */
function memoScope(root: string, where: CodebaseLocation, walkOptions: WalkOptions): string {
  return JSON.stringify([root, where.gitRoot ?? null, where.repoRelativePath, walkOptionsFingerprint(walkOptions), walkOptions.registry.fingerprint(), walkOptions.hidden === true]);
}

async function walkAndKey(fs: FsAdapter, root: string, walkOptions: WalkOptions, where: CodebaseLocation): Promise<Snapshot> {
  const rel = where.repoRelativePath;
  const gitState = where.gitRoot === undefined ? Promise.resolve(undefined) : readGitState(fs, where.gitRoot, rel);
  // Walk and git reads overlap: both are I/O bound.
  const [walk, git] = await Promise.all([walkCodebase(fs, root, walkOptions), gitState]);
  const input = new DigestInput().string('ckg-wasm-snapshot-1').string(rel);
  const rootPrefix = folderPrefix(normalize(root));
  // Walked paths all start with the normalised root.
  const relativeToRoot = (path: string): string => (path.startsWith(rootPrefix) ? path.slice(rootPrefix.length) : path);
  let mode: Snapshot['mode'] = 'files';
  let fallbackReason: string | undefined;
  if (git !== undefined && 'error' in git) {
    fallbackReason = git.error;
  } else if (git !== undefined) {
    mode = 'git';
    input.string(git.head);
    const index = git.index;
    const paths = index?.paths ?? [];
    // Both lists are sorted by path (the walk's by UTF-16 units, git's by UTF-8 bytes: the same
    // order but for astral characters), so they are joined by merging. Where the orders differ a
    // file simply goes unmatched and is keyed by its stats: still a correct key.
    let j = 0;
    for (const file of walk.files) {
      const fileRel = relativeToRoot(file.path);
      while (j < paths.length && paths[j]! < fileRel) j++;
      const at = j < paths.length && paths[j] === fileRel ? index!.offsets[j]! : undefined;
      const clean =
        index !== undefined &&
        at !== undefined &&
        index.modeAt(at) !== 0o120000 && // the walker stats a symlink's target, git the link itself
        index.sizeAt(at) === file.size % UINT32 &&
        Math.abs(index.mtimeMsAt(at) - file.mtimeMs) < 0.001 &&
        file.mtimeMs < git.indexMtimeMs; // git's racy-clean rule: same-tick edits are not trusted
      // Records: "=" path blob-id(20 raw bytes) | "~" path size mtime.
      if (clean) input.string('=').string(fileRel).raw(index.bytes, index.oidOffset(at), 20);
      else input.string('~').string(fileRel).string(String(file.size)).string(String(file.mtimeMs));
    }
  }
  if (mode === 'files') {
    for (const file of walk.files) input.string(relativeToRoot(file.path)).string(String(file.size)).string(String(file.mtimeMs));
  }
  // Manifests module names depend on (go.mod, Cargo.toml) are not indexed, but editing one
  // renames modules: their stats are part of the state.
  for (const m of await manifestStats(fs, rootPrefix, walk, walkOptions, relativeToRoot)) input.string('#manifest').string(m.path).string(String(m.size)).string(String(m.mtimeMs));
  const digest = await input.digest();
  const key = mode === 'git' ? `git:${git !== undefined && !('error' in git) ? git.head : ''}:${digest}` : `files:${digest}`;
  return { key, mode, walk, ...(fallbackReason === undefined ? {} : { fallbackReason }) };
}

/** Stats of the manifests at and above the folders of walked files whose language reads them, by relative path. */
async function manifestStats(
  fs: FsAdapter,
  rootPrefix: string,
  walk: WalkResult,
  walkOptions: WalkOptions,
  relativeToRoot: (path: string) => string,
): Promise<{ path: string; size: number; mtimeMs: number }[]> {
  const names = manifestNamesOf(walkOptions.registry.list().map((l) => l.id));
  if (names.length === 0) return [];
  const reads = new Map<string, boolean>();
  const folders = new Set<string>();
  for (const file of walk.files) {
    let r = reads.get(file.language.id);
    if (r === undefined) reads.set(file.language.id, (r = readsManifests(file.language.id)));
    if (!r) continue;
    const dir = folderOf(relativeToRoot(file.path));
    if (folders.has(dir)) continue;
    for (const up of foldersUp(dir)) folders.add(up);
  }
  if (folders.size === 0) return [];
  const paths = [...folders].sort().flatMap((dir) => names.map((name) => (dir === '' ? name : `${dir}/${name}`)));
  const infos = await fs.lstatMany(paths.map((p) => rootPrefix + p));
  const out: { path: string; size: number; mtimeMs: number }[] = [];
  for (let i = 0; i < paths.length; i++) {
    const info = infos[i];
    if (info !== undefined && info.kind !== 'directory') out.push({ path: paths[i]!, size: info.size, mtimeMs: info.mtimeMs });
  }
  return out;
}

type GitState =
  | { readonly head: string; readonly index: GitIndex | undefined; readonly indexMtimeMs: number }
  | { readonly error: string };

async function readGitState(fs: FsAdapter, gitRoot: string, rel: string): Promise<GitState> {
  try {
    const gitDir = await resolveGitDir(fs, gitRoot);
    const [head, index] = await Promise.all([resolveHead(fs, gitDir), readGitIndex(fs, gitDir, rel === '' ? '' : `${rel}/`)]);
    return { head, index: index?.index, indexMtimeMs: index?.mtimeMs ?? 0 };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { error: error instanceof UnsupportedGitIndex ? `unsupported git index: ${detail}` : `git state unreadable: ${detail}` };
  }
}
