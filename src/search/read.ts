import type { FsAdapter } from '../fs/adapter.js';

/** Files up to this size are read into one buffer reused from file to file. */
const SHARED_LIMIT = 16 * 1024 * 1024;

/**
 * Reads whole files for a search. With the file system's `openSync` / `readSync` (node:fs,
 * memfs), files are read into one buffer reused from file to file: a search reads every file
 * once and keeps nothing of most, and a fresh buffer per file cost about a tenth of a kernel
 * grep in garbage collection. The bytes returned are valid until the next read.
 */
export function fileReader(fs: FsAdapter): (path: string, size: number) => Promise<Uint8Array> {
  const { openSync, readSync, closeSync } = fs.raw;
  if (typeof openSync !== 'function' || typeof readSync !== 'function' || typeof closeSync !== 'function') {
    return (path) => fs.readBytes(path);
  }
  let shared = new Uint8Array(64 * 1024);
  return async (path, size) => {
    if (size > SHARED_LIMIT) return fs.readBytes(path);
    if (shared.length < size + 1) shared = new Uint8Array(Math.max(size + 1, shared.length * 2));
    let fd: number;
    try {
      fd = openSync.call(fs.raw, path, 'r');
    } catch {
      return fs.readBytes(path); // the adapter reports the error the usual way
    }
    try {
      let done = 0;
      for (;;) {
        if (done === shared.length) {
          // Grew since the walk's stat: keep reading into a larger buffer.
          const larger = new Uint8Array(shared.length * 2);
          larger.set(shared);
          shared = larger;
        }
        const n = readSync.call(fs.raw, fd, shared, done, shared.length - done, done);
        if (n <= 0) break;
        done += n;
      }
      return shared.subarray(0, done);
    } catch {
      return fs.readBytes(path);
    } finally {
      try {
        closeSync.call(fs.raw, fd);
      } catch {
        // nothing to do: the bytes are read
      }
    }
  };
}
