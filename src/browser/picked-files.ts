// Files a user drops on a page or picks with <input type="file">, as initial files of a
// memoryFileSystem. The DOM types are described structurally, so these declarations compile
// in projects without the DOM lib (a Node service importing `ckg-wasm`).
import type { MemoryFile } from '../fs/memory.js';

/**
 * The part of a DOM `File` these helpers read.
 *
 * @example
 * ```ts
 * const file: FileLike = new File(['def f(): pass\n'], 'app.py');
 * ```
 * @public
 */
export interface FileLike {
  /** The file name, without folders. */
  readonly name: string;
  /** Modification time in ms since the epoch. */
  readonly lastModified: number;
  /** The path below the picked folder (`<input webkitdirectory>`), or `''`. */
  readonly webkitRelativePath?: string;
  /** The file's bytes. */
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * The part of a DOM `FileSystemEntry` (file or folder of a drop) these helpers read.
 *
 * @example
 * ```ts
 * const entry: FileSystemEntryLike | null = event.dataTransfer!.items[0]!.webkitGetAsEntry();
 * ```
 * @public
 */
export interface FileSystemEntryLike {
  /** True for a file (then it has `file`). */
  readonly isFile: boolean;
  /** True for a folder (then it has `createReader`). */
  readonly isDirectory: boolean;
  /** The entry's name. */
  readonly name: string;
  /** A file entry's file. */
  file?(success: (file: FileLike) => void, failure?: (error: unknown) => void): void;
  /** A folder entry's reader. */
  createReader?(): { readEntries(success: (entries: FileSystemEntryLike[]) => void, failure?: (error: unknown) => void): void };
}

/**
 * The part of a DOM `DataTransfer` (a drop event's `dataTransfer`) these helpers read.
 *
 * @example
 * ```ts
 * zone.addEventListener('drop', (event) => { const transfer: DataTransferLike = event.dataTransfer!; });
 * ```
 * @public
 */
export interface DataTransferLike {
  /** The dropped items. */
  readonly items: ArrayLike<{ readonly kind: string; webkitGetAsEntry(): FileSystemEntryLike | null }>;
}

/** `/root` + `relative`, without doubled slashes. */
function under(root: string, relative: string): string {
  const base = root.endsWith('/') ? root.slice(0, -1) : root;
  return `${base}/${relative.replace(/^\/+/, '')}`;
}

async function memoryFileOf(file: FileLike): Promise<MemoryFile> {
  return { content: new Uint8Array(await file.arrayBuffer()), mtimeMs: file.lastModified };
}

/**
 * Reads the files and folders a user dropped on the page (folders through the entries API, all
 * the way down) into a map under `root`, ready for {@link memoryFileSystem}.
 *
 * @param root - the absolute POSIX folder to put them under, e.g. `'/dropped'`.
 * @example
 * ```ts
 * zone.addEventListener('drop', async (event) => {
 *   event.preventDefault();
 *   const fs = memoryFileSystem(await droppedFiles(event.dataTransfer!, '/dropped'));
 *   const db = await CKGDatabase.open({ codebasePath: '/dropped', fs, wasm });
 * });
 * ```
 * @public
 */
export async function droppedFiles(transfer: DataTransferLike, root: string): Promise<Map<string, MemoryFile>> {
  const out = new Map<string, MemoryFile>();
  // Entries must be taken synchronously, before the drop event's data store is cleared.
  const entries: FileSystemEntryLike[] = [];
  for (let i = 0; i < transfer.items.length; i++) {
    const item = transfer.items[i];
    const entry = item?.kind === 'file' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
  }
  const visit = async (entry: FileSystemEntryLike, folder: string): Promise<void> => {
    const path = under(folder, entry.name);
    if (entry.isFile && entry.file) {
      const read = entry.file.bind(entry);
      const file = await new Promise<FileLike>((resolve, reject) => read(resolve, reject));
      out.set(path, await memoryFileOf(file));
    } else if (entry.isDirectory && entry.createReader) {
      const reader = entry.createReader();
      // readEntries returns batches (at most 100 in Chromium) until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await visit(child, path);
      }
    }
  };
  for (const entry of entries) await visit(entry, root);
  return out;
}

/**
 * Reads the files chosen with an `<input type="file">` (with `webkitdirectory`, their paths
 * below the picked folder are kept) into a map under `root`, ready for {@link memoryFileSystem}.
 *
 * @param root - the absolute POSIX folder to put them under, e.g. `'/picked'`.
 * @example
 * ```ts
 * input.addEventListener('change', async () => {
 *   const fs = memoryFileSystem(await pickedFiles(input.files!, '/picked'));
 * });
 * ```
 * @public
 */
export async function pickedFiles(list: ArrayLike<FileLike>, root: string): Promise<Map<string, MemoryFile>> {
  const out = new Map<string, MemoryFile>();
  for (let i = 0; i < list.length; i++) {
    const file = list[i]!;
    out.set(under(root, file.webkitRelativePath || file.name), await memoryFileOf(file));
  }
  return out;
}
