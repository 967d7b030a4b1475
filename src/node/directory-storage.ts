import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CKGError } from '../errors.js';
import type { Storage } from '../storage/types.js';
import { checkOptions } from '../options/validate.js';
import { DIRECTORY_STORAGE_OPTIONS } from './option-schemas.js';

/**
 * The part of `node:fs/promises` that {@link DirectoryStorage} uses (a memfs volume's
 * `promises` works too).
 *
 * @example
 * ```ts
 * import fs from 'node:fs/promises';
 * const io: DirectoryStorageFs = fs;
 * ```
 * @public
 */
export type DirectoryStorageFs = Pick<typeof nodeFs, 'readFile' | 'open' | 'rename' | 'unlink' | 'readdir' | 'stat' | 'mkdir' | 'utimes'>;

/**
 * Options of {@link DirectoryStorage}.
 *
 * @example
 * ```ts
 * const options: DirectoryStorageOptions = { directory: '/var/cache/my-agent/ckg' };
 * ```
 * @public
 */
export interface DirectoryStorageOptions {
  /** The folder databases are kept in (created on first write). Default {@link defaultCacheDirectory}(). */
  readonly directory?: string;
  /** The file system API. Default `node:fs/promises`. */
  readonly fs?: DirectoryStorageFs;
  /** Clock for recording use times, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The per-user cache folder of ckg-wasm: `$XDG_CACHE_HOME/ckg-wasm` when set, else
 * `~/Library/Caches/ckg-wasm` on macOS, `%LOCALAPPDATA%\ckg-wasm\Cache` on Windows and
 * `~/.cache/ckg-wasm` elsewhere (`~` is `home`: the user's home folder unless given).
 *
 * @example
 * ```ts
 * import { defaultCacheDirectory } from 'ckg-wasm/node';
 * console.log(defaultCacheDirectory()); // e.g. /home/me/.cache/ckg-wasm
 * ```
 * @public
 */
export function defaultCacheDirectory(env: Readonly<Record<string, string | undefined>> = process.env, platform: string = process.platform, home: string = homedir()): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '' && xdg.startsWith('/')) return join(xdg, 'ckg-wasm');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'ckg-wasm', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ckg-wasm');
  return join(home, '.cache', 'ckg-wasm');
}

const SUFFIX = '.db';
const TEMP_SUFFIX = '.tmp';
/** Temp files of writes that died (a crash, a kill) are removed by `list()` after this long. */
const STALE_TEMP_MS = 60 * 60 * 1000;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Longest file name used (most file systems allow 255 bytes). */
const MAX_NAME = 200;
/** Beside a hashed entry `#<digest>.db`: `#<digest>.key` holds its key. */
const KEY_SUFFIX = '.key';

/**
 * A key as a file name: safe keys as they are, others hex-encoded behind `~` (never a safe
 * key's first char); a key whose name would be too long for a file name is hashed (`#` + its
 * SHA-256), its key kept in a `.key` file beside it.
 */
function fileNameOf(key: string): { readonly name: string; readonly hashed: boolean } {
  if (typeof key !== 'string' || key === '') throw new CKGError('INVALID_ARGUMENT', `storage key must be a non-empty string, got ${String(key)}`);
  const name = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(key)
    ? key
    : `~${[...new TextEncoder().encode(key)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  if (name.length + SUFFIX.length <= MAX_NAME) return { name: name + SUFFIX, hashed: false };
  return { name: `#${createHash('sha256').update(key).digest('hex')}${SUFFIX}`, hashed: true };
}

function keyFileOf(dbFile: string): string {
  return `${dbFile.slice(0, -SUFFIX.length)}${KEY_SUFFIX}`;
}

function keyOf(fileName: string): string | undefined {
  if (!fileName.endsWith(SUFFIX) || fileName.startsWith('.') || fileName.startsWith('#')) return undefined;
  const name = fileName.slice(0, -SUFFIX.length);
  if (!name.startsWith('~')) return name;
  const hex = name.slice(1);
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined;
  return new TextDecoder().decode(Uint8Array.from(hex.match(/../g)!.map((h) => parseInt(h, 16))));
}

/**
 * A {@link ckg-wasm#Storage} that keeps each database as one file in a folder (Node only).
 *
 * @remarks
 * - Writes are atomic: bytes go to a temp file in the same folder, are flushed to disk, then
 *   renamed over the old file. A crash or a failed write (disk full) leaves the previous
 *   database intact, never a half-written one; the temp file is removed on failure.
 * - `get` records the use by setting the file's mtime to now, so `list()` (and
 *   {@link ckg-wasm#expireStorage}) see the last USE, not the build time.
 * - `list()` also removes temp files older than an hour (left by a killed process).
 * - The folder is created with mode 0700 and files with 0600: indexes contain source code.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { CKGTool, DirectoryStorage } from 'ckg-wasm/node';
 *
 * const storage = new DirectoryStorage();               // ~/.cache/ckg-wasm
 * const tool = new CKGTool({ fs, storage });             // expires entries unused for 7 days
 * ```
 * @public
 */
export class DirectoryStorage implements Storage {
  /** The folder databases are kept in. */
  readonly directory: string;
  readonly #fs: DirectoryStorageFs;
  readonly #now: () => number;

  constructor(options: DirectoryStorageOptions = {}) {
    checkOptions('DirectoryStorage', options, DIRECTORY_STORAGE_OPTIONS);
    this.directory = options.directory ?? defaultCacheDirectory();
    this.#fs = options.fs ?? nodeFs;
    this.#now = options.now ?? Date.now;
  }

  /** The bytes stored under `key` (recording this use), or undefined. */
  async get(key: string): Promise<Uint8Array | undefined> {
    const { name, hashed } = fileNameOf(key);
    const path = join(this.directory, name);
    // A hashed entry is this key's only if its key file says so.
    if (hashed && (await this.#storedKey(keyFileOf(path))) !== key) return undefined;
    let bytes: Uint8Array;
    try {
      const data = await this.#fs.readFile(path);
      bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw storageError('read', path, error);
    }
    const now = new Date(this.#now());
    try {
      await this.#fs.utimes(path, now, now);
    } catch {
      // A read-only cache still serves reads; only expiry loses precision.
    }
    return bytes;
  }

  /** Stores `bytes` under `key` atomically (temp file, flush, rename). */
  async set(key: string, bytes: Uint8Array): Promise<void> {
    if (!(bytes instanceof Uint8Array)) throw new CKGError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
    const { name, hashed } = fileNameOf(key);
    const path = join(this.directory, name);
    const temp = join(this.directory, `.${name}.${process.pid}.${Math.random().toString(36).slice(2, 10)}${TEMP_SUFFIX}`);
    try {
      await this.#fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw storageError('create folder', this.directory, error);
    }
    try {
      const handle = await this.#fs.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync(); // the rename must never publish bytes that are not on disk yet
      } finally {
        await handle.close();
      }
      if (hashed) await this.#writeAtomically(keyFileOf(path), new TextEncoder().encode(key));
      await this.#fs.rename(temp, path);
    } catch (error) {
      await this.#fs.unlink(temp).catch(() => undefined);
      throw storageError('write', path, error);
    }
  }

  async #writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}${TEMP_SUFFIX}`);
    try {
      const handle = await this.#fs.open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.#fs.rename(temp, path);
    } catch (error) {
      await this.#fs.unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  /** The key a hashed entry's key file holds, or undefined. */
  async #storedKey(keyFile: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await this.#fs.readFile(keyFile));
    } catch {
      return undefined;
    }
  }

  /** Removes `key`; no error when absent. */
  async delete(key: string): Promise<void> {
    const { name, hashed } = fileNameOf(key);
    const path = join(this.directory, name);
    try {
      await this.#fs.unlink(path);
      if (hashed) await this.#fs.unlink(keyFileOf(path)).catch(() => undefined);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw storageError('delete', path, error);
    }
  }

  /** Every key with its last use (the file's mtime); removes stale temp files. */
  async list(): Promise<{ key: string; lastUsed: number }[]> {
    let names: string[];
    try {
      names = (await this.#fs.readdir(this.directory)).map(String);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw storageError('list', this.directory, error);
    }
    const out: { key: string; lastUsed: number }[] = [];
    const now = this.#now();
    for (const name of names.sort()) {
      const path = join(this.directory, name);
      if (name.startsWith('.') && name.endsWith(TEMP_SUFFIX)) {
        const info = await this.#fs.stat(path).catch(() => undefined);
        if (info && now - info.mtimeMs > STALE_TEMP_MS) await this.#fs.unlink(path).catch(() => undefined);
        continue;
      }
      const key = name.startsWith('#') && name.endsWith(SUFFIX) ? await this.#storedKey(join(this.directory, keyFileOf(name))) : keyOf(name);
      if (key === undefined) continue;
      const info = await this.#fs.stat(path).catch(() => undefined);
      if (info?.isFile()) out.push({ key, lastUsed: info.mtimeMs });
    }
    return out;
  }
}

function storageError(operation: string, path: string, cause: unknown): CKGError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new CKGError('STORAGE_ERROR', `Cannot ${operation} ${path}: ${detail}`, { path, fsCode: errorCode(cause) }, { cause });
}
