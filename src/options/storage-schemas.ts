// The schemas of the storages' option objects (see ./schemas.ts); this module imports nothing
// but the validator, so a storage loads without the database code.
import type { ExpireOptions } from '../storage/expire.js';
import type { IndexedDBStorageOptions } from '../storage/indexeddb.js';
import type { MemoryStorageOptions } from '../storage/memory.js';
import { is, type Schema } from './validate.js';

/**
 * `MemoryStorageOptions`.
 *
 * @example
 * ```ts
 * checkOptions('MemoryStorage', options, MEMORY_STORAGE_OPTIONS);
 * ```
 */
export const MEMORY_STORAGE_OPTIONS: Schema<MemoryStorageOptions> = { now: is.function };

/**
 * `IndexedDBStorageOptions`.
 *
 * @example
 * ```ts
 * checkOptions('IndexedDBStorage', options, INDEXEDDB_STORAGE_OPTIONS);
 * ```
 */
export const INDEXEDDB_STORAGE_OPTIONS: Schema<IndexedDBStorageOptions> = {
  databaseName: is.nonEmptyString,
  indexedDB: is.withMethods(['open'], 'an IDBFactory'),
  now: is.function,
};

/**
 * `ExpireOptions` of `expireStorage`.
 *
 * @example
 * ```ts
 * checkOptions('expireStorage', options, EXPIRE_OPTIONS);
 * ```
 */
export const EXPIRE_OPTIONS: Schema<ExpireOptions> = { maxAgeMs: is.duration, now: is.duration };
