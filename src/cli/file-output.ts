// Files the CLI writes: an exported database (`index -o`, `--db`). Written to a temp file in the
// same folder, flushed, then renamed over the target: a full disk or a kill leaves the previous
// file whole, never a truncated one.
import nodeFs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CKGError } from '../errors.js';
import type { Storage } from '../storage/types.js';

function fsCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function writeError(path: string, error: unknown): CKGError {
  const detail = error instanceof Error ? error.message : String(error);
  return new CKGError('FS_ERROR', `Cannot write ${path}: ${detail}`, { path, fsCode: fsCode(error) }, { cause: error });
}

/** Throws a clear `FS_ERROR` now (before any long build) when `path` cannot be written. */
export function checkWritable(path: string): void {
  const target = resolve(path);
  const info = nodeFs.statSync(target, { throwIfNoEntry: false });
  if (info?.isDirectory()) throw new CKGError('FS_ERROR', `Cannot write ${path}: it is a folder`, { path });
  const folder = dirname(target);
  const parent = nodeFs.statSync(folder, { throwIfNoEntry: false });
  if (!parent) throw new CKGError('FS_ERROR', `Cannot write ${path}: folder ${folder} does not exist`, { path });
  if (!parent.isDirectory()) throw new CKGError('FS_ERROR', `Cannot write ${path}: ${folder} is not a folder`, { path });
  try {
    nodeFs.accessSync(folder, nodeFs.constants.W_OK);
  } catch (error) {
    throw writeError(path, error);
  }
}

/** Writes `bytes` to `path` atomically: temp file in the same folder, fsync, rename. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const target = resolve(path);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  try {
    fd = nodeFs.openSync(temp, 'wx', 0o644);
    let offset = 0;
    while (offset < bytes.byteLength) offset += nodeFs.writeSync(fd, bytes, offset, bytes.byteLength - offset);
    nodeFs.fsyncSync(fd);
    nodeFs.closeSync(fd);
    fd = undefined;
    nodeFs.renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) nodeFs.closeSync(fd);
    nodeFs.rmSync(temp, { force: true });
    throw writeError(path, error);
  }
}

/**
 * A Storage of one file (`--db file`): whatever the key, the index is read from and written to
 * that file. An index of another codebase or body mode in it is rebuilt and replaced.
 */
export class SingleFileStorage implements Storage {
  constructor(readonly path: string) {}

  async get(): Promise<Uint8Array | undefined> {
    try {
      const data = nodeFs.readFileSync(this.path);
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch (error) {
      if (fsCode(error) === 'ENOENT') return undefined;
      const detail = error instanceof Error ? error.message : String(error);
      throw new CKGError('STORAGE_ERROR', `Cannot read ${this.path}: ${detail}`, { path: this.path }, { cause: error });
    }
  }

  async set(_key: string, bytes: Uint8Array): Promise<void> {
    writeFileAtomic(this.path, bytes);
  }

  async delete(): Promise<void> {
    nodeFs.rmSync(this.path, { force: true });
  }

  async list(): Promise<{ key: string; lastUsed: number }[]> {
    // Nothing to expire: the file is the user's.
    return [];
  }
}
