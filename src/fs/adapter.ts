import { CKGError } from '../errors.js';
import { normalize, relativeInside } from './path.js';
import type { FileSystem, StatsLike } from './types.js';

/** What the walker and the indexer need to know of one path. */
export interface FileInfo {
  readonly kind: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  readonly mtimeMs: number;
}

const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR']);

interface DirentLike {
  readonly name: unknown;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A listing entry as name + kind; a plain name (a file system without `withFileTypes`) has no kind. */
function typedEntry(entry: unknown): { name: string; kind: FileInfo['kind'] | undefined } {
  const d = entry as Partial<DirentLike> | null;
  if (typeof entry === 'object' && d !== null && d.name !== undefined && typeof d.isFile === 'function' && typeof d.isDirectory === 'function' && typeof d.isSymbolicLink === 'function') {
    const kind = d.isSymbolicLink() ? 'symlink' : d.isFile() ? 'file' : d.isDirectory() ? 'directory' : undefined;
    return { name: String(d.name), kind };
  }
  return { name: String(entry), kind: undefined };
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function toInfo(stats: StatsLike): FileInfo {
  const kind = stats.isSymbolicLink()
    ? 'symlink'
    : stats.isFile()
      ? 'file'
      : stats.isDirectory()
        ? 'directory'
        : 'other';
  return { kind, size: Number(stats.size), mtimeMs: Number(stats.mtimeMs) };
}

/**
 * The single internal wrapper around a caller's {@link FileSystem}: normalises return types,
 * maps backend errors to {@link CKGError} codes and offers "absence" helpers that return
 * undefined instead of throwing.
 */
export class FsAdapter {
  readonly #fs: FileSystem['promises'];
  /** The synchronous fast path, when the file system offers all of it. */
  readonly #sync: Required<Pick<FileSystem, 'lstatSync' | 'statSync' | 'readdirSync' | 'readFileSync'>> | undefined;
  readonly #original: FileSystem;
  /** The folders a symlink read through this adapter must resolve into (see {@link FsAdapter.confinedTo}). */
  readonly #roots: readonly string[] | undefined;
  #realRoots: string[] | undefined;

  constructor(fs: FileSystem, roots?: readonly string[]) {
    this.#roots = roots?.map((r) => normalize(r));
    const promises = (fs as Partial<FileSystem> | undefined)?.promises;
    if (
      promises === undefined ||
      typeof promises.readFile !== 'function' ||
      typeof promises.readdir !== 'function' ||
      typeof promises.lstat !== 'function' ||
      typeof promises.stat !== 'function'
    ) {
      throw new CKGError(
        'INVALID_ARGUMENT',
        'fs must be shaped like Node\'s fs module: an object with a .promises API (readFile, readdir, stat, lstat)',
      );
    }
    this.#fs = promises;
    this.#original = fs;
    const { lstatSync, statSync, readdirSync, readFileSync } = fs;
    this.#sync =
      typeof lstatSync === 'function' && typeof statSync === 'function' && typeof readdirSync === 'function' && typeof readFileSync === 'function'
        ? {
            lstatSync: lstatSync.bind(fs),
            statSync: statSync.bind(fs),
            readdirSync: readdirSync.bind(fs),
            readFileSync: readFileSync.bind(fs),
          }
        : undefined;
  }

  /**
   * The same file system, reading only what lies inside `root`: a symlink (the last part of a
   * path) that resolves outside `root` and its realpath is refused with `FS_ERROR` instead of
   * read. Every read also refuses what is not a regular file (a FIFO would block forever).
   */
  confinedTo(root: string): FsAdapter {
    return new FsAdapter(this.#original, [root]);
  }

  /**
   * Bytes `start` to `end` (exclusive) of a file, fewer if it is shorter, when the file system
   * offers `openSync` / `readSync` / `closeSync`; undefined when it does not (read the whole
   * file then). Throws like {@link FsAdapter.readBytes}.
   */
  readRange(path: string, start: number, end: number): Uint8Array | undefined {
    const { readSync } = this.#original;
    if (this.#sync === undefined || typeof readSync !== 'function' || typeof this.#original.openSync !== 'function' || typeof this.#original.closeSync !== 'function') return undefined;
    const fd = this.#openRegular(path);
    try {
      const out = new Uint8Array(Math.max(0, end - start));
      let done = 0;
      while (done < out.length) {
        const n = readSync.call(this.#original, fd, out, done, out.length - done, start + done);
        if (n <= 0) break; // end of file
        done += n;
      }
      return done === out.length ? out : out.subarray(0, done);
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    } finally {
      this.#close(fd);
    }
  }

  /** The caller's file system object, for libraries (isomorphic-git) that take the same shape. */
  get raw(): FileSystem {
    return this.#original;
  }

  /**
   * A regular file's bytes. Refuses (`FS_ERROR`) anything else: a FIFO, a device, a socket,
   * checked on the open descriptor where the file system allows (node:fs, memfs), else by a
   * stat first; and, for a confined adapter, a symlink that resolves outside its root.
   */
  async readBytes(path: string): Promise<Uint8Array> {
    const { readSync } = this.#original;
    if (this.#sync !== undefined && typeof readSync === 'function' && this.#openers() !== undefined) {
      const fd = this.#openRegular(path);
      try {
        const { fstatSync } = this.#original;
        const size = Number(fstatSync!.call(this.#original, fd).size);
        // The size fstat gives is read, in one call for most files: reading on to find the end
        // cost a second read, a buffer twice as large and two copies per file (60 ms of the
        // main thread over Django's 4,300 files). A file that grows meanwhile is read as it was
        // at the fstat; its new size and mtime make the next update read it again. Pseudo-files
        // that report size 0 (/proc) are read to their end.
        let out = new Uint8Array(size > 0 ? size : 8192);
        let done = 0;
        for (;;) {
          if (done === out.length) {
            if (size > 0) break;
            const grown = new Uint8Array(out.length * 2);
            grown.set(out);
            out = grown;
          }
          const n = readSync.call(this.#original, fd, out, done, out.length - done, done);
          if (n <= 0) break;
          done += n;
        }
        return done === out.length ? out : out.slice(0, done);
      } catch (error) {
        throw this.#wrap(error, path, 'read');
      } finally {
        this.#close(fd);
      }
    }
    try {
      // No descriptors: check the kind by path first (file systems without them have no FIFOs).
      const target = await this.#checkedTarget(path);
      const data = this.#sync ? this.#sync.readFileSync(target) : await this.#fs.readFile(target);
      return typeof data === 'string' ? new TextEncoder().encode(data) : data;
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    }
  }

  /** `openSync`, `fstatSync` and `closeSync` when the file system has all three. */
  #openers(): Required<Pick<FileSystem, 'openSync' | 'fstatSync' | 'closeSync'>> | undefined {
    const { openSync, fstatSync, closeSync } = this.#original;
    return typeof openSync === 'function' && typeof fstatSync === 'function' && typeof closeSync === 'function' ? { openSync, fstatSync, closeSync } : undefined;
  }

  /** The platform's open flags, when the file system names them (node:fs). */
  #flags(): { readonly read: number; readonly nonBlocking: number; readonly noFollow: number } | undefined {
    const c = this.#original.constants;
    return typeof c?.O_RDONLY === 'number' && typeof c.O_NONBLOCK === 'number' && typeof c.O_NOFOLLOW === 'number' ? { read: c.O_RDONLY, nonBlocking: c.O_NONBLOCK, noFollow: c.O_NOFOLLOW } : undefined;
  }

  /**
   * Opens a regular file for reading: non-blocking (a FIFO's open would wait for a writer),
   * without following a final symlink when confined (one is followed only after its realpath
   * was found inside the root), and checked with fstat on the descriptor itself.
   */
  #openRegular(path: string): number {
    const fs = this.#original;
    const { openSync, fstatSync } = fs;
    const flags = this.#flags();
    // Without the platform's flags (memfs, which has no FIFOs) or fstat: check the path's kind first.
    const byPath = flags === undefined || typeof fstatSync !== 'function';
    const open = (target: string, noFollow: boolean): number => {
      if (byPath) {
        const info = toInfo(this.#sync!.lstatSync(target));
        if (info.kind === 'symlink' && noFollow) throw Object.assign(new Error(`${target} is a symbolic link`), { code: 'ELOOP' });
        if (info.kind !== 'symlink' && info.kind !== 'file') throw new CKGError('FS_ERROR', `Cannot read ${path}: not a regular file`, { path, fsCode: 'ENOTREG' });
        if (info.kind === 'symlink' && toInfo(this.#sync!.statSync(target)).kind !== 'file') throw new CKGError('FS_ERROR', `Cannot read ${path}: not a regular file`, { path, fsCode: 'ENOTREG' });
      }
      const how = flags === undefined ? 'r' : flags.read | flags.nonBlocking | (noFollow ? flags.noFollow : 0);
      return (openSync as unknown as (p: string, f: number | string) => number).call(fs, target, how);
    };
    let fd: number;
    try {
      try {
        fd = open(path, this.#roots !== undefined);
      } catch (error) {
        if (this.#roots === undefined || errorCode(error) !== 'ELOOP') throw error;
        fd = open(this.#confinedTarget(path, this.#realpathSyncOf(path)), true);
      }
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    }
    if (byPath) return fd;
    let regular: boolean;
    try {
      regular = fstatSync!.call(fs, fd).isFile();
    } catch (error) {
      this.#close(fd);
      throw this.#wrap(error, path, 'read');
    }
    if (!regular) {
      this.#close(fd);
      throw new CKGError('FS_ERROR', `Cannot read ${path}: not a regular file`, { path, fsCode: 'ENOTREG' });
    }
    return fd;
  }

  #close(fd: number): void {
    try {
      this.#original.closeSync?.call(this.#original, fd);
    } catch {
      // the read is what matters; a close failure leaks nothing we can act on
    }
  }

  #realpathSyncOf(path: string): string {
    const real = this.#original.realpathSync;
    if (typeof real !== 'function') throw new CKGError('FS_ERROR', `Cannot read ${path}: a symbolic link that cannot be resolved here`, { path });
    return real.call(this.#original, path).toString();
  }

  /** `real` (the realpath of `path`) when it lies inside a root of this adapter, else an FS_ERROR. */
  #confinedTarget(path: string, real: string): string {
    const roots = this.#roots!;
    if (this.#realRoots === undefined) {
      const sync = this.#original.realpathSync;
      this.#realRoots = roots.map((root) => {
        try {
          return typeof sync === 'function' ? normalize(sync.call(this.#original, root).toString()) : root;
        } catch {
          return root;
        }
      });
    }
    const inside = [...roots, ...this.#realRoots].some((root) => relativeInside(root, real) !== undefined);
    if (!inside) throw new CKGError('FS_ERROR', `Cannot read ${path}: it links to ${real}, outside the codebase`, { path, fsCode: 'EOUTSIDE' });
    return real;
  }

  /** For file systems without descriptors: the path to read, after checking its kind (and confinement). */
  async #checkedTarget(path: string): Promise<string> {
    const link = this.#sync ? toInfo(this.#sync.lstatSync(path)) : toInfo(await this.#fs.lstat(path));
    let target = path;
    if (link.kind === 'symlink' && this.#roots !== undefined) {
      const real = await this.realpath(path);
      if (real === undefined) throw new CKGError('FS_ERROR', `Cannot read ${path}: a symbolic link that cannot be resolved here`, { path });
      target = this.#confinedTarget(path, real);
    }
    const info = link.kind === 'symlink' ? await this.stat(target) : link;
    if (info?.kind !== 'file') throw new CKGError('FS_ERROR', `Cannot read ${path}: not a regular file`, { path, fsCode: 'ENOTREG' });
    return target;
  }

  async readdir(path: string): Promise<string[]> {
    try {
      const entries = this.#sync ? this.#sync.readdirSync(path) : await this.#fs.readdir(path);
      return entries.map((e) => (typeof e === 'string' ? e : e.toString()));
    } catch (error) {
      throw this.#wrap(error, path, 'list');
    }
  }

  /**
   * Lists a folder with each entry's kind when the file system reports it (`withFileTypes`, as
   * node:fs and memfs do), sparing walkers an lstat per folder and per file they will not read;
   * `kind` is undefined when the file system gives names only.
   */
  async readdirTyped(path: string): Promise<{ name: string; kind: FileInfo['kind'] | undefined }[]> {
    type Listing = (p: string, o: { withFileTypes: true }) => readonly unknown[];
    try {
      const entries = this.#sync
        ? (this.#sync.readdirSync as unknown as Listing)(path, { withFileTypes: true })
        : await (this.#fs.readdir as unknown as (...a: Parameters<Listing>) => Promise<readonly unknown[]>)(path, { withFileTypes: true });
      return entries.map(typedEntry);
    } catch (error) {
      throw this.#wrap(error, path, 'list');
    }
  }

  /** lstat that returns undefined when the path does not exist. */
  async lstat(path: string): Promise<FileInfo | undefined> {
    try {
      return toInfo(this.#sync ? this.#sync.lstatSync(path) : await this.#fs.lstat(path));
    } catch (error) {
      if (NOT_FOUND_CODES.has(errorCode(error) ?? '')) return undefined;
      throw this.#wrap(error, path, 'lstat');
    }
  }

  /**
   * lstat of many paths (undefined for each that does not exist). With synchronous twins this is
   * one loop and one promise for the whole batch: a walk of the Linux tree lstats 56k files, and
   * a promise per file cost more than the system calls.
   */
  async lstatMany(paths: readonly string[]): Promise<(FileInfo | undefined)[]> {
    const sync = this.#sync;
    if (sync === undefined) return Promise.all(paths.map((path) => this.lstat(path)));
    const out: (FileInfo | undefined)[] = new Array(paths.length);
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i]!;
      try {
        out[i] = toInfo(sync.lstatSync(path));
      } catch (error) {
        if (!NOT_FOUND_CODES.has(errorCode(error) ?? '')) throw this.#wrap(error, path, 'lstat');
        out[i] = undefined;
      }
    }
    return out;
  }

  /** stat (follows links) that returns undefined when the path or its target does not exist. */
  async stat(path: string): Promise<FileInfo | undefined> {
    try {
      return toInfo(this.#sync ? this.#sync.statSync(path) : await this.#fs.stat(path));
    } catch (error) {
      const code = errorCode(error) ?? '';
      if (NOT_FOUND_CODES.has(code) || code === 'ELOOP') return undefined;
      throw this.#wrap(error, path, 'stat');
    }
  }

  /** realpath when the file system offers it; undefined otherwise. */
  async realpath(path: string): Promise<string | undefined> {
    const sync = this.#sync !== undefined ? this.#original.realpathSync : undefined;
    if (typeof sync !== 'function' && typeof this.#fs.realpath !== 'function') return undefined;
    try {
      // Normalised: node:fs on Windows answers `C:\\repo\\a.py` for the `C:/repo/a.py` it was given.
      return normalize((typeof sync === 'function' ? sync.call(this.#original, path) : await this.#fs.realpath!(path)).toString());
    } catch {
      return undefined;
    }
  }

  #wrap(error: unknown, path: string, operation: string): CKGError {
    if (error instanceof CKGError) return error;
    const code = errorCode(error);
    if (code !== undefined && NOT_FOUND_CODES.has(code)) {
      return new CKGError('NOT_FOUND', `Cannot ${operation} ${path}: no such file or directory`, { path }, { cause: error });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return new CKGError('FS_ERROR', `Cannot ${operation} ${path}: ${detail}`, { path, fsCode: code }, { cause: error });
  }
}
