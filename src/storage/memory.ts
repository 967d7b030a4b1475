import { CKGError } from '../errors.js';
import type { Storage } from './types.js';
import { MEMORY_STORAGE_OPTIONS } from '../options/storage-schemas.js';
import { checkOptions } from '../options/validate.js';

/**
 * Options of {@link MemoryStorage}.
 *
 * @example
 * ```ts
 * let fakeNow = 0;
 * const storage = new MemoryStorage({ now: () => fakeNow });
 * ```
 * @public
 */
export interface MemoryStorageOptions {
  /** Clock for `lastUsed`, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A {@link Storage} in this process's memory: indexes survive closing and reopening a
 * database (or a new `CKGTool`) within one process, and tests need no disk.
 *
 * @remarks
 * Copies bytes on `set` and on `get`, so neither the caller nor sql.js can change what is
 * stored. `get` records the use time for expiry.
 *
 * @example
 * ```ts
 * import { CKGDatabase, MemoryStorage } from 'ckg-wasm';
 *
 * const storage = new MemoryStorage();
 * const first = await CKGDatabase.open({ codebasePath: '/repo', fs, storage });   // builds
 * first.close();
 * const second = await CKGDatabase.open({ codebasePath: '/repo', fs, storage });  // reuses
 * console.log(second.origin, second.report?.filesParsed); // 'storage' 0
 * ```
 * @public
 */
export class MemoryStorage implements Storage {
  readonly #entries = new Map<string, { bytes: Uint8Array; lastUsed: number }>();
  readonly #now: () => number;

  constructor(options: MemoryStorageOptions = {}) {
    checkOptions('MemoryStorage', options, MEMORY_STORAGE_OPTIONS);
    this.#now = options.now ?? Date.now;
  }

  /** A copy of the bytes stored under `key` (recording this use), or undefined. */
  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    entry.lastUsed = this.#now();
    return entry.bytes.slice();
  }

  /** Stores a copy of `bytes` under `key`. */
  async set(key: string, bytes: Uint8Array): Promise<void> {
    checkKey(key);
    if (!(bytes instanceof Uint8Array)) throw new CKGError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
    this.#entries.set(key, { bytes: bytes.slice(), lastUsed: this.#now() });
  }

  /** Removes `key`; no error when absent. */
  async delete(key: string): Promise<void> {
    checkKey(key);
    this.#entries.delete(key);
  }

  /** Every key with its last use. */
  async list(): Promise<{ key: string; lastUsed: number }[]> {
    return [...this.#entries].map(([key, e]) => ({ key, lastUsed: e.lastUsed }));
  }
}

function checkKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key === '') throw new CKGError('INVALID_ARGUMENT', `storage key must be a non-empty string, got ${String(key)}`);
}
