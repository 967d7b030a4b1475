import type { Storage } from './types.js';
import { EXPIRE_OPTIONS } from '../options/storage-schemas.js';
import { checkOptions } from '../options/validate.js';

/**
 * Stored databases unused for longer than this are removed by default: 7 days, as the reference CKG.
 *
 * @example
 * ```ts
 * await expireStorage(storage, { maxAgeMs: 2 * DEFAULT_STORAGE_MAX_AGE_MS });
 * ```
 * @public
 */
export const DEFAULT_STORAGE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Options of {@link expireStorage}.
 *
 * @example
 * ```ts
 * const options: ExpireOptions = { maxAgeMs: 24 * 60 * 60 * 1000 };
 * ```
 * @public
 */
export interface ExpireOptions {
  /** Entries whose last use is older than this many ms are removed. Default {@link DEFAULT_STORAGE_MAX_AGE_MS}. */
  readonly maxAgeMs?: number;
  /** "Now", in ms since the epoch. Default `Date.now()`. */
  readonly now?: number;
}

/**
 * Removes stored databases not used (read or written) for longer than `maxAgeMs`, and returns
 * their keys. Based on last USE: a database read every day is kept however old its build is
 * (the reference CKG deletes by build time, so databases in daily use were rebuilt weekly).
 * `CKGTool` calls it when created.
 *
 * @example
 * ```ts
 * import { expireStorage } from 'ckg-wasm';
 * const removed = await expireStorage(storage, { maxAgeMs: 3 * 24 * 60 * 60 * 1000 });
 * ```
 * @public
 */
export async function expireStorage(storage: Storage, options: ExpireOptions = {}): Promise<string[]> {
  checkOptions('expireStorage', options, EXPIRE_OPTIONS);
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_STORAGE_MAX_AGE_MS;
  const cutoff = (options.now ?? Date.now()) - maxAgeMs;
  const removed: string[] = [];
  for (const { key, lastUsed } of await storage.list()) {
    if (lastUsed < cutoff) {
      await storage.delete(key);
      removed.push(key);
    }
  }
  return removed;
}
