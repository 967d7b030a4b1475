/**
 * The stat fields ckg-wasm reads. Node's `fs.Stats`, memfs stats and most virtual file systems
 * have them.
 *
 * @example
 * ```ts
 * const stats: StatsLike = await fs.promises.lstat('/abs/repo/app.py');
 * if (stats.isFile()) console.log(stats.size, stats.mtimeMs);
 * ```
 * @public
 */
export interface StatsLike {
  /** True for a regular file. */
  isFile(): boolean;
  /** True for a folder. */
  isDirectory(): boolean;
  /** True for a symbolic link (from `lstat`; `stat` follows links). */
  isSymbolicLink(): boolean;
  /** Size in bytes. */
  readonly size: number | bigint;
  /** Last modification time, in ms since the epoch; must change when the content does. */
  readonly mtimeMs: number | bigint;
  /** Inode number, where the file system has one. */
  readonly ino?: number | bigint;
}

/**
 * The promise API ckg-wasm needs from a file system: a structural subset of Node's
 * `fs.promises`, and of the `PromiseFsClient` isomorphic-git accepts, so one object serves both.
 *
 * @example
 * ```ts
 * import { Volume } from 'memfs';
 * const vol = Volume.fromJSON({ '/repo/app.py': 'def main(): pass\n' });
 * const promises = vol.promises as unknown as FileSystemPromises;
 * ```
 * @public
 */
export interface FileSystemPromises {
  /** A file's bytes (a string is taken as UTF-8 text). */
  readFile(path: string): Promise<Uint8Array | string>;
  /** A folder's entry names. */
  readdir(path: string): Promise<readonly (string | { toString(): string })[]>;
  /** A path's stats, following symbolic links. */
  stat(path: string): Promise<StatsLike>;
  /** A path's stats, not following a symbolic link. */
  lstat(path: string): Promise<StatsLike>;
  /** Optional: resolves symbolic links; used to index a symlinked file once. */
  realpath?(path: string): Promise<string | { toString(): string }>;
}

/**
 * Anything shaped like Node's `fs` module with a `.promises` API: `node:fs` itself, a memfs
 * volume (`createFsFromVolume(vol)` or `vol`), `@isomorphic-git/lightning-fs`, a browser
 * IDE's virtual file system, or {@link memoryFileSystem}.
 *
 * @remarks
 * The contract ckg-wasm relies on:
 *
 * - Paths are absolute: POSIX (`/repo/app.py`), or Windows drive paths, which ckg-wasm passes
 *   as `C:/repo/app.py` (forward slashes, as node:fs on Windows accepts them).
 * - A path that does not exist fails with an error whose `code` is `'ENOENT'`, or `'ENOTDIR'`
 *   when a file stands where a folder is expected. ckg-wasm reads such errors as "absent"
 *   (a deleted file is removed from the index); any other failure is an `FS_ERROR`.
 * - `stat` follows symbolic links, `lstat` does not. Links to folders are not followed (no
 *   cycles). Nothing outside the codebase is read: a link to a file is indexed only when
 *   `realpath` shows its target inside the codebase (once: a target the walk also finds under
 *   its own name makes the link a `duplicate-symlink` skip); a link out of it, or any link on a
 *   file system without `realpath`, is an `outside-codebase` skip. A file system without links
 *   (`isSymbolicLink()` always false) needs nothing more.
 * - `realpath` is optional (links are then left out, above); it must answer for a path inside
 *   the codebase with a path inside it when no link is involved.
 * - `readdir` returns the entry names (strings, or objects whose `toString()` is the name);
 *   with `{ withFileTypes: true }` it may return Node-style dirents, which spares an `lstat`
 *   per entry.
 * - A file's `mtimeMs` must change when its content changes, or `update()` may miss an edit
 *   that kept its size (`refresh()` and `update()` compare size and mtime before hashing).
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { Volume } from 'memfs';
 * import LightningFS from '@isomorphic-git/lightning-fs';
 * const fromNode: FileSystem = fs;
 * const inMemory: FileSystem = Volume.fromJSON({ '/repo/a.py': 'def f(): pass\n' });
 * const inIndexedDB: FileSystem = new LightningFS('my-ide');
 * ```
 * @public
 */
export interface FileSystem {
  /** The asynchronous API (Node's `fs.promises` shape). */
  readonly promises: FileSystemPromises;
  /**
   * Optional synchronous twins (`node:fs` and memfs have them). When all four are present
   * ckg-wasm uses them: a stat-walk of 80k files drops from seconds of promise overhead to
   * hundreds of milliseconds.
   */
  readonly lstatSync?: (path: string) => StatsLike;
  /** Synchronous `stat` (see `lstatSync`). */
  readonly statSync?: (path: string) => StatsLike;
  /** Synchronous `readdir` (see `lstatSync`). */
  readonly readdirSync?: (path: string) => readonly (string | { toString(): string })[];
  /** Synchronous `readFile` (see `lstatSync`). */
  readonly readFileSync?: (path: string) => Uint8Array | string;
  /** Used with the four above when present (Node's promise `realpath` is a chain of lstats). */
  readonly realpathSync?: (path: string) => string | { toString(): string };
  /**
   * With `readSync` and `closeSync`, used to read part of a file (a `'lazy'` body) instead of
   * all of it: a query that returns a function from a 500 kB file reads its 2 kB.
   */
  readonly openSync?: (path: string, flags: 'r') => number;
  /** Reads `length` bytes at `position` of an `openSync` descriptor into `buffer` at `offset`. */
  readonly readSync?: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => number;
  /** Closes an `openSync` descriptor. */
  readonly closeSync?: (fd: number) => void;
  /**
   * With `openSync`, `fstatSync` and `closeSync`: files are opened once, checked to be regular
   * files on the open descriptor, and read from it, so a FIFO or device swapped in under a
   * source file's name is never read (it would block forever). `constants` supplies the
   * platform's `O_RDONLY`, `O_NONBLOCK` and `O_NOFOLLOW` (node:fs has them).
   */
  readonly fstatSync?: (fd: number) => StatsLike;
  /** The open flags `openSync` takes with `fstatSync` (see above). */
  readonly constants?: { readonly O_RDONLY?: number; readonly O_NONBLOCK?: number; readonly O_NOFOLLOW?: number };
}
