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
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly size: number | bigint;
  readonly mtimeMs: number | bigint;
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
  readFile(path: string): Promise<Uint8Array | string>;
  readdir(path: string): Promise<readonly (string | { toString(): string })[]>;
  stat(path: string): Promise<StatsLike>;
  lstat(path: string): Promise<StatsLike>;
  /** Optional: resolves symbolic links; used to index a symlinked file once. */
  realpath?(path: string): Promise<string | { toString(): string }>;
}

/**
 * Anything shaped like Node's `fs` module with a `.promises` API: `node:fs` itself, a memfs
 * volume (`createFsFromVolume(vol)` or `vol`), a browser IDE's virtual file system.
 * Paths are absolute POSIX paths.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { Volume } from 'memfs';
 * const fromNode: FileSystem = fs;
 * const inMemory: FileSystem = Volume.fromJSON({ '/repo/a.py': 'def f(): pass\n' });
 * ```
 * @public
 */
export interface FileSystem {
  readonly promises: FileSystemPromises;
  /**
   * Optional synchronous twins (`node:fs` and memfs have them). When all four are present
   * ckg-wasm uses them: a stat-walk of 80k files drops from seconds of promise overhead to
   * hundreds of milliseconds.
   */
  readonly lstatSync?: (path: string) => StatsLike;
  readonly statSync?: (path: string) => StatsLike;
  readonly readdirSync?: (path: string) => readonly (string | { toString(): string })[];
  readonly readFileSync?: (path: string) => Uint8Array | string;
  /** Used with the four above when present (Node's promise `realpath` is a chain of lstats). */
  readonly realpathSync?: (path: string) => string | { toString(): string };
  /**
   * With `readSync` and `closeSync`, used to read part of a file (a `'lazy'` body) instead of
   * all of it: a query that returns a function from a 500 kB file reads its 2 kB.
   */
  readonly openSync?: (path: string, flags: 'r') => number;
  readonly readSync?: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => number;
  readonly closeSync?: (fd: number) => void;
  /**
   * With `openSync`, `fstatSync` and `closeSync`: files are opened once, checked to be regular
   * files on the open descriptor, and read from it, so a FIFO or device swapped in under a
   * source file's name is never read (it would block forever). `constants` supplies the
   * platform's `O_RDONLY`, `O_NONBLOCK` and `O_NOFOLLOW` (node:fs has them).
   */
  readonly fstatSync?: (fd: number) => StatsLike;
  readonly constants?: { readonly O_RDONLY?: number; readonly O_NONBLOCK?: number; readonly O_NOFOLLOW?: number };
}
