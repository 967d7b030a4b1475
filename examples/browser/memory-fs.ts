// A minimal in-memory FileSystem for the page: enough of `fs.promises` for ckg-wasm to walk and
// read a codebase. It avoids bundling memfs (which wants Node's Buffer and process shims).
import type { FileSystem, StatsLike } from 'ckg-wasm';

/**
 * One file of an in-memory tree: its text or bytes, and its modification time.
 *
 * @example
 * ```ts
 * const file: MemoryFile = { content: 'def f(): pass\n', mtimeMs: Date.UTC(2026, 0, 1) };
 * ```
 */
export interface MemoryFile {
  readonly content: string | Uint8Array;
  /** Modification time in ms; a stable value keeps the stored index valid across reloads. */
  readonly mtimeMs: number;
}

class FsError extends Error {
  constructor(readonly code: 'ENOENT' | 'ENOTDIR' | 'EISDIR', path: string) {
    super(`${code}: ${path}`);
  }
}

function stats(kind: 'file' | 'directory', size: number, mtimeMs: number): StatsLike {
  return {
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'directory',
    isSymbolicLink: () => false,
    size,
    mtimeMs,
  };
}

/**
 * Builds a read-only FileSystem from absolute POSIX paths to files; parent folders are implied.
 *
 * @example
 * ```ts
 * const fs = memoryFileSystem(new Map([['/repo/a.py', { content: 'def f(): pass\n', mtimeMs: 0 }]]));
 * ```
 */
export function memoryFileSystem(files: ReadonlyMap<string, MemoryFile>): FileSystem {
  const encoded = new Map<string, { bytes: Uint8Array; mtimeMs: number }>();
  const folders = new Map<string, Set<string>>([['/', new Set()]]);
  const encoder = new TextEncoder();
  for (const [path, file] of files) {
    const bytes = typeof file.content === 'string' ? encoder.encode(file.content) : file.content;
    encoded.set(path, { bytes, mtimeMs: file.mtimeMs });
    // Register every ancestor folder with the child name below it.
    const parts = path.split('/').filter(Boolean);
    let folder = '/';
    for (const part of parts) {
      folders.get(folder)?.add(part) ?? folders.set(folder, new Set([part]));
      folder = folder === '/' ? `/${part}` : `${folder}/${part}`;
      if (folder !== path && !folders.has(folder)) folders.set(folder, new Set());
    }
  }
  const stat = async (path: string): Promise<StatsLike> => {
    const file = encoded.get(path);
    if (file) return stats('file', file.bytes.byteLength, file.mtimeMs);
    if (folders.has(path)) return stats('directory', 0, 0);
    throw new FsError('ENOENT', path);
  };
  return {
    promises: {
      async readFile(path) {
        const file = encoded.get(path);
        if (file) return file.bytes;
        throw new FsError(folders.has(path) ? 'EISDIR' : 'ENOENT', path);
      },
      async readdir(path) {
        const children = folders.get(path);
        if (children) return [...children].sort();
        throw new FsError(encoded.has(path) ? 'ENOTDIR' : 'ENOENT', path);
      },
      stat,
      lstat: stat,
    },
  };
}

/**
 * Reads files a user dropped on the page (folders included, through the entries API) into a
 * map under `root`.
 *
 * @example
 * ```ts
 * zone.addEventListener('drop', async (e) => { const files = await droppedFiles(e.dataTransfer!, '/dropped'); });
 * ```
 */
export async function droppedFiles(transfer: DataTransfer, root: string): Promise<Map<string, MemoryFile>> {
  const out = new Map<string, MemoryFile>();
  const entries = [...transfer.items]
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length === 0) return await pickedFiles(transfer.files, root);
  const visit = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    const path = `${prefix}/${entry.name}`;
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.set(path, { content: new Uint8Array(await file.arrayBuffer()), mtimeMs: file.lastModified });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries returns batches (at most 100 in Chromium) until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await visit(child, path);
      }
    }
  };
  for (const entry of entries) await visit(entry, root);
  return out;
}

/**
 * Reads files chosen with an `<input type="file">` (with `webkitdirectory`, their relative
 * paths are kept) into a map under `root`.
 *
 * @example
 * ```ts
 * input.addEventListener('change', async () => { const files = await pickedFiles(input.files!, '/dropped'); });
 * ```
 */
export async function pickedFiles(list: FileList, root: string): Promise<Map<string, MemoryFile>> {
  const out = new Map<string, MemoryFile>();
  for (const file of list) {
    const relative = file.webkitRelativePath || file.name;
    out.set(`${root}/${relative}`, { content: new Uint8Array(await file.arrayBuffer()), mtimeMs: file.lastModified });
  }
  return out;
}
