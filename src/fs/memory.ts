// An in-memory FileSystem for browsers and tests: no Node shims (memfs wants Buffer and
// process), folders implied by file paths, POSIX paths, Node-style error codes.
import { CKGError } from '../errors.js';
import { isAbsolute, normalize } from './path.js';
import type { FileSystem, FileSystemPromises, StatsLike } from './types.js';

/**
 * One file of a {@link memoryFileSystem}: its text or bytes, and optionally its modification time.
 *
 * @example
 * ```ts
 * const file: MemoryFile = { content: 'def f(): pass\n', mtimeMs: Date.UTC(2026, 0, 1) };
 * ```
 * @public
 */
export interface MemoryFile {
  /** Text (stored as UTF-8) or bytes. */
  readonly content: string | Uint8Array;
  /**
   * Modification time in ms. Default 0 for the initial files: a fixed time keeps an index
   * stored for the same files valid across page reloads (the snapshot key outside git is made
   * of path, size and mtime).
   */
  readonly mtimeMs?: number;
}

/**
 * The initial files of a {@link memoryFileSystem}: absolute POSIX paths to text, bytes or
 * {@link MemoryFile}s, as a plain object or a Map.
 *
 * @example
 * ```ts
 * const files: MemoryFiles = { '/repo/app.py': 'def main():\n    pass\n', '/repo/logo.png': new Uint8Array([137, 80]) };
 * ```
 * @public
 */
export type MemoryFiles =
  | Readonly<Record<string, string | Uint8Array | MemoryFile>>
  | ReadonlyMap<string, string | Uint8Array | MemoryFile>;

/**
 * A {@link FileSystem} held in memory, with methods to change it: what a browser IDE or a
 * test needs to index files that are not on a disk.
 *
 * @remarks
 * Follows the {@link FileSystem} contract: a missing path fails with an error whose `code` is
 * `'ENOENT'` (`'ENOTDIR'` when a file stands where a folder is expected), it has no symbolic
 * links, and every change moves the modification time of the file and of its folder, so
 * `update()` sees edits and `trustFolderMtimes: true` is safe with it.
 *
 * @example
 * ```ts
 * const fs = memoryFileSystem({ '/repo/app.py': 'def main():\n    pass\n' });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, trustFolderMtimes: true });
 * fs.writeFile('/repo/util.py', 'def helper():\n    pass\n');
 * await db.update({ paths: ['/repo/util.py'] });
 * ```
 * @public
 */
export interface MemoryFileSystem extends FileSystem {
  /** The asynchronous API ckg-wasm reads through. */
  readonly promises: FileSystemPromises;
  /** Creates or replaces a file (its folders are created); its mtime becomes the current time, later than its previous one. */
  writeFile(path: string, content: string | Uint8Array): void;
  /** Removes a file, or a folder with everything below it; a missing path is ignored. */
  rm(path: string): void;
  /** Every file path, sorted. */
  files(): string[];
}

/**
 * Options of {@link memoryFileSystem}.
 *
 * @example
 * ```ts
 * let clock = 0;
 * const fs = memoryFileSystem({}, { now: () => ++clock });
 * ```
 * @public
 */
export interface MemoryFileSystemOptions {
  /** Clock for the mtimes of {@link MemoryFileSystem.writeFile}. Default `Date.now`. */
  readonly now?: () => number;
}

/** A Node-style file system error: `code` is what {@link FileSystem} users switch on. */
class MemoryFsError extends Error {
  readonly code: 'ENOENT' | 'ENOTDIR' | 'EISDIR';
  readonly path: string;
  constructor(code: 'ENOENT' | 'ENOTDIR' | 'EISDIR', syscall: string, path: string) {
    super(`${code}: ${code === 'ENOENT' ? 'no such file or directory' : code === 'ENOTDIR' ? 'not a directory' : 'illegal operation on a directory'}, ${syscall} '${path}'`);
    this.name = 'MemoryFsError';
    this.code = code;
    this.path = path;
  }
}

interface FileNode {
  readonly kind: 'file';
  readonly bytes: Uint8Array;
  readonly mtimeMs: number;
}

interface FolderNode {
  readonly kind: 'directory';
  readonly children: Set<string>;
  mtimeMs: number;
}

type MemoryNode = FileNode | FolderNode;

function statsOf(node: MemoryNode): StatsLike {
  const size = node.kind === 'file' ? node.bytes.byteLength : 0;
  return {
    isFile: () => node.kind === 'file',
    isDirectory: () => node.kind === 'directory',
    isSymbolicLink: () => false,
    size,
    mtimeMs: node.mtimeMs,
  };
}

/** A folder entry as `readdir(path, { withFileTypes: true })` gives it. */
function direntOf(name: string, node: MemoryNode): { name: string; isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean } {
  return { name, isFile: () => node.kind === 'file', isDirectory: () => node.kind === 'directory', isSymbolicLink: () => false };
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

function asMemoryFile(value: string | Uint8Array | MemoryFile): MemoryFile {
  return typeof value === 'string' || value instanceof Uint8Array ? { content: value } : value;
}

/**
 * Creates an in-memory {@link FileSystem} from absolute POSIX paths to file contents; parent
 * folders are implied. Works in browsers, workers and Node alike (nothing but JavaScript).
 *
 * @param files - the initial files; their mtime is `mtimeMs` or 0.
 * @example
 * ```ts
 * import { CKGDatabase, memoryFileSystem } from 'ckg-wasm';
 * const fs = memoryFileSystem({ '/repo/shop/cart.py': 'class Cart:\n    def total(self):\n        return 0\n' });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, wasm: { baseUrl: '/ckg-wasm/' } });
 * console.log(await db.queryClass('Cart'));
 * ```
 * @public
 */
export function memoryFileSystem(files: MemoryFiles = {}, options: MemoryFileSystemOptions = {}): MemoryFileSystem {
  const now = options.now ?? Date.now;
  const nodes = new Map<string, MemoryNode>([['/', { kind: 'directory', children: new Set(), mtimeMs: 0 }]]);
  const encoder = new TextEncoder();

  const checkPath = (path: string): string => {
    if (typeof path !== 'string' || !isAbsolute(path)) throw new CKGError('INVALID_ARGUMENT', `memoryFileSystem paths must be absolute POSIX paths, got ${String(path)}`);
    return normalize(path);
  };

  /** The folder at `path`, creating it and its parents (mtime `mtimeMs`); throws ENOTDIR where a file is in the way. */
  const folderAt = (path: string, mtimeMs: number): FolderNode => {
    const node = nodes.get(path);
    if (node?.kind === 'directory') return node;
    if (node?.kind === 'file') throw new MemoryFsError('ENOTDIR', 'mkdir', path);
    const parent = folderAt(parentOf(path), mtimeMs);
    const folder: FolderNode = { kind: 'directory', children: new Set(), mtimeMs };
    nodes.set(path, folder);
    parent.children.add(path.slice(path.lastIndexOf('/') + 1));
    parent.mtimeMs = Math.max(parent.mtimeMs, mtimeMs);
    return folder;
  };

  const put = (path: string, content: string | Uint8Array, mtimeMs: number): void => {
    const existing = nodes.get(path);
    if (existing?.kind === 'directory') throw new MemoryFsError('EISDIR', 'open', path);
    const parent = folderAt(parentOf(path), mtimeMs);
    const bytes = typeof content === 'string' ? encoder.encode(content) : content.slice();
    nodes.set(path, { kind: 'file', bytes, mtimeMs });
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!parent.children.has(name)) {
      parent.children.add(name);
      parent.mtimeMs = Math.max(parent.mtimeMs + 1, mtimeMs);
    }
  };

  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files as Readonly<Record<string, string | Uint8Array | MemoryFile>>);
  for (const [path, value] of entries) {
    const file = asMemoryFile(value);
    put(checkPath(path), file.content, file.mtimeMs ?? 0);
  }

  const lookup = (path: string, syscall: string): MemoryNode => {
    const normal = isAbsolute(path) ? normalize(path) : path;
    const node = nodes.get(normal);
    if (node !== undefined) return node;
    // A file where a folder of the path is expected: ENOTDIR, as POSIX says.
    if (normal.startsWith('/')) {
      for (let parent = parentOf(normal); parent !== '/'; parent = parentOf(parent)) {
        if (nodes.get(parent)?.kind === 'file') throw new MemoryFsError('ENOTDIR', syscall, path);
      }
    }
    throw new MemoryFsError('ENOENT', syscall, path);
  };

  const readFileSync = (path: string): Uint8Array => {
    const node = lookup(path, 'open');
    if (node.kind === 'directory') throw new MemoryFsError('EISDIR', 'read', path);
    return node.bytes;
  };
  type Dirent = ReturnType<typeof direntOf>;
  const readdirSync = (path: string, listing?: { withFileTypes?: boolean }): string[] | Dirent[] => {
    const node = lookup(path, 'scandir');
    if (node.kind !== 'directory') throw new MemoryFsError('ENOTDIR', 'scandir', path);
    const names = [...node.children].sort();
    if (listing?.withFileTypes !== true) return names;
    const base = path === '/' ? '' : normalize(path);
    return names.map((name) => direntOf(name, nodes.get(`${base}/${name}`)!));
  };
  const statSync = (path: string): StatsLike => statsOf(lookup(path, 'stat'));

  const promises: FileSystemPromises = {
    readFile: async (path) => readFileSync(path),
    readdir: async (path: string, listing?: { withFileTypes?: boolean }) => readdirSync(path, listing),
    stat: async (path) => statSync(path),
    lstat: async (path) => statSync(path),
    realpath: async (path) => {
      lookup(path, 'realpath');
      return normalize(path);
    },
  };

  return {
    promises,
    readFileSync,
    readdirSync,
    statSync,
    lstatSync: statSync,
    realpathSync: (path: string) => {
      lookup(path, 'realpath');
      return normalize(path);
    },
    writeFile(path, content) {
      const normal = checkPath(path);
      const previous = nodes.get(normal);
      const mtimeMs = Math.max(now(), (previous?.mtimeMs ?? 0) + 1);
      put(normal, content, mtimeMs);
    },
    rm(path) {
      const normal = checkPath(path);
      const node = nodes.get(normal);
      if (node === undefined || normal === '/') return;
      const drop = (p: string): void => {
        const n = nodes.get(p);
        if (n?.kind === 'directory') for (const child of n.children) drop(p === '/' ? `/${child}` : `${p}/${child}`);
        nodes.delete(p);
      };
      drop(normal);
      const parent = nodes.get(parentOf(normal)) as FolderNode;
      parent.children.delete(normal.slice(normal.lastIndexOf('/') + 1));
      parent.mtimeMs = Math.max(now(), parent.mtimeMs + 1);
    },
    files() {
      return [...nodes.entries()].filter(([, n]) => n.kind === 'file').map(([p]) => p).sort();
    },
  };
}
