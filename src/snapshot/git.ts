// Git facts for the snapshot key, read through the caller's FileSystem (memfs works):
// where the git directory is, what HEAD points at, and the index entries.
import { CKGError } from '../errors.js';
import type { FsAdapter } from '../fs/adapter.js';
import { isAbsolute, join } from '../fs/path.js';
import { parseGitIndex, type GitIndex } from './git-index.js';

/** The git directory of a work tree (`.git`, or what a `.git` file points at). */
export async function resolveGitDir(fs: FsAdapter, workTree: string): Promise<string> {
  const dotGit = join(workTree, '.git');
  const info = await fs.stat(dotGit);
  if (info?.kind !== 'file') return dotGit;
  // Worktrees and submodules: `.git` is a file "gitdir: <path>".
  const text = new TextDecoder().decode(await fs.readBytes(dotGit)).trim();
  const target = text.startsWith('gitdir:') ? text.slice('gitdir:'.length).trim() : text;
  return isAbsolute(target) ? join(target) : join(workTree, target);
}

/**
 * A read-only isomorphic-git client over the adapter: isomorphic-git binds ten methods up
 * front, and a caller's fs may lack the write ones; this one never writes.
 */
function readOnlyGitFs(fs: FsAdapter): GitFsClient {
  const raw = fs.raw.promises;
  // Files are read through the adapter: regular files only (a FIFO as .git/HEAD would block).
  const read = async (path: string): Promise<Uint8Array> => {
    try {
      return await fs.readBytes(path);
    } catch (error) {
      if (error instanceof CKGError && error.code === 'NOT_FOUND') throw Object.assign(new Error(error.message), { code: 'ENOENT' });
      throw error;
    }
  };
  const refuse = (): Promise<never> => Promise.reject(Object.assign(new Error('read-only'), { code: 'EROFS' }));
  const promises = {
    async readFile(path: string, options?: string | { encoding?: string }): Promise<Uint8Array | string> {
      const bytes = await read(path);
      const encoding = typeof options === 'string' ? options : options?.encoding;
      return encoding === 'utf8' || encoding === 'utf-8' ? new TextDecoder().decode(bytes) : bytes;
    },
    stat: (path: string) => raw.stat(path),
    lstat: (path: string) => raw.lstat(path),
    readdir: (path: string) => raw.readdir(path),
    readlink: refuse,
    writeFile: refuse,
    mkdir: refuse,
    rmdir: refuse,
    unlink: refuse,
    symlink: refuse,
  };
  return { promises } as unknown as GitFsClient;
}

type GitModule = typeof import('isomorphic-git');
type GitFsClient = Parameters<GitModule['resolveRef']>[0]['fs'];
let gitModule: Promise<GitModule> | undefined;

/** isomorphic-git, loaded on first use (codebases outside git never pay for it). */
function loadGit(): Promise<GitModule> {
  gitModule ??= (async () => {
    // isomorphic-git expects a global Buffer (Node has one; browsers get the `buffer` package,
    // the polyfill isomorphic-git documents). Browser IDEs built on isomorphic-git already set it.
    const scope = globalThis as { Buffer?: unknown };
    if (scope.Buffer === undefined) scope.Buffer = (await import('buffer')).Buffer;
    const m = await import('isomorphic-git');
    return ((m as { default?: GitModule }).default ?? m) as GitModule;
  })();
  return gitModule;
}

/**
 * What HEAD points at: a commit id, or `unborn:<ref>` in a repository with no commit yet
 * (never a value two repositories share by accident: the key also holds the codebase path).
 */
export async function resolveHead(fs: FsAdapter, gitDir: string): Promise<string> {
  const git = await loadGit();
  const client = readOnlyGitFs(fs);
  try {
    return await git.resolveRef({ fs: client, gitdir: gitDir, ref: 'HEAD' });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'NotFoundError') throw error;
  }
  const head = new TextDecoder().decode(await fs.readBytes(join(gitDir, 'HEAD'))).trim();
  const target = head.startsWith('ref:') ? head.slice(4).trim() : head;
  // A linked worktree keeps its HEAD here but branches in the common directory.
  const common = await fs.stat(join(gitDir, 'commondir'));
  if (common?.kind === 'file' && target.startsWith('refs/')) {
    const rel = new TextDecoder().decode(await fs.readBytes(join(gitDir, 'commondir'))).trim();
    const commonDir = isAbsolute(rel) ? rel : join(gitDir, rel);
    try {
      return await git.resolveRef({ fs: client, gitdir: commonDir, ref: target });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'NotFoundError') throw error;
    }
  }
  return `unborn:${target}`;
}

/** The index with its own modification time (for git's "racily clean" rule), or undefined when absent. */
export async function readGitIndex(fs: FsAdapter, gitDir: string, prefix: string): Promise<{ index: GitIndex; mtimeMs: number } | undefined> {
  const path = join(gitDir, 'index');
  const info = await fs.stat(path);
  if (info?.kind !== 'file') return undefined;
  const bytes = await fs.readBytes(path);
  return { index: parseGitIndex(bytes, prefix), mtimeMs: info.mtimeMs };
}
