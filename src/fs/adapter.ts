import { CKGError } from '../errors.js';
import { normalize } from './path.js';
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

  constructor(fs: FileSystem) {
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
   * Bytes `start` to `end` (exclusive) of a file, fewer if it is shorter, when the file system
   * offers `openSync` / `readSync` / `closeSync`; undefined when it does not (read the whole
   * file then). Throws like {@link FsAdapter.readBytes}.
   */
  readRange(path: string, start: number, end: number): Uint8Array | undefined {
    const { openSync, readSync, closeSync } = this.#original;
    if (this.#sync === undefined || typeof openSync !== 'function' || typeof readSync !== 'function' || typeof closeSync !== 'function') return undefined;
    const fs = this.#original;
    let fd: number;
    try {
      fd = openSync.call(fs, path, 'r');
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    }
    try {
      const out = new Uint8Array(Math.max(0, end - start));
      let done = 0;
      while (done < out.length) {
        const n = readSync.call(fs, fd, out, done, out.length - done, start + done);
        if (n <= 0) break; // end of file
        done += n;
      }
      return done === out.length ? out : out.subarray(0, done);
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    } finally {
      try {
        closeSync.call(fs, fd);
      } catch {
        // the read is what matters; a close failure leaks nothing we can act on
      }
    }
  }

  /** The caller's file system object, for libraries (isomorphic-git) that take the same shape. */
  get raw(): FileSystem {
    return this.#original;
  }

  async readBytes(path: string): Promise<Uint8Array> {
    try {
      const data = this.#sync ? this.#sync.readFileSync(path) : await this.#fs.readFile(path);
      return typeof data === 'string' ? new TextEncoder().encode(data) : data;
    } catch (error) {
      throw this.#wrap(error, path, 'read');
    }
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
