import { CKGError } from '../errors.js';
import type { Storage } from './types.js';
import { INDEXEDDB_STORAGE_OPTIONS } from '../options/storage-schemas.js';
import { checkOptions } from '../options/validate.js';

/**
 * The part of the DOM's `IDBFactory` that {@link IndexedDBStorage} calls (`indexedDB` fits).
 *
 * @example
 * ```ts
 * const factory: IndexedDBFactoryLike = globalThis.indexedDB;
 * ```
 * @public
 */
export interface IndexedDBFactoryLike {
  /** Opens (creating or upgrading) a database: an `IDBOpenDBRequest`. */
  open(name: string, version?: number): object;
}

/**
 * Options of {@link IndexedDBStorage}.
 *
 * @example
 * ```ts
 * const storage = new IndexedDBStorage({ databaseName: 'my-app-ckg' });
 * ```
 * @public
 */
export interface IndexedDBStorageOptions {
  /** Name of the IndexedDB database. Default `'ckg-wasm'`. */
  readonly databaseName?: string;
  /**
   * The IndexedDB factory; default `globalThis.indexedDB` (pass another for tests, e.g.
   * fake-indexeddb's). Typed structurally, so Node projects without the DOM lib compile.
   */
  readonly indexedDB?: IndexedDBFactoryLike;
  /** Clock for `lastUsed`, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

// Bytes and use times live in two object stores so that recording a use on `get` rewrites a
// small number instead of the whole (possibly many-megabyte) database blob.
const BYTES = 'bytes';
const USES = 'uses';
const VERSION = 1;

/**
 * A {@link Storage} kept in the browser's IndexedDB, so an index survives page reloads.
 *
 * @remarks
 * Every `get` that finds a key records the use time (in the same transaction as the read), so
 * `list()` reports the last use, not the last write, and expiry can keep databases in daily use.
 * `set` writes bytes and use time in one transaction: a reader never sees one without the other.
 *
 * @example
 * ```ts
 * import { CKGDatabase, IndexedDBStorage, expireStorage } from 'ckg-wasm';
 *
 * const storage = new IndexedDBStorage({ databaseName: 'my-app-ckg' });
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, storage, wasm: { baseUrl: '/wasm/' } });
 * console.log(db.origin); // 'storage' after a reload: nothing was parsed
 * await expireStorage(storage); // drops indexes not used for 7 days
 * ```
 * @public
 */
export class IndexedDBStorage implements Storage {
  /** Name of the IndexedDB database this storage uses. */
  readonly databaseName: string;
  readonly #factory: IDBFactory | undefined;
  readonly #now: () => number;
  #db: Promise<IDBDatabase> | undefined;

  constructor(options: IndexedDBStorageOptions = {}) {
    checkOptions('IndexedDBStorage', options, INDEXEDDB_STORAGE_OPTIONS);
    this.databaseName = options.databaseName ?? 'ckg-wasm';
    this.#factory = (options.indexedDB ?? (globalThis as { indexedDB?: IndexedDBFactoryLike }).indexedDB) as IDBFactory | undefined;
    this.#now = options.now ?? Date.now;
  }

  /** The bytes stored under `key` (recording this use), or undefined. */
  async get(key: string): Promise<Uint8Array | undefined> {
    checkKey(key);
    const value = await this.#run('get', [BYTES, USES], 'readwrite', (tx, done) => {
      const request = tx.objectStore(BYTES).get(key);
      request.onsuccess = () => {
        // Record the use only for keys that exist, inside the transaction that read them.
        if (request.result !== undefined) tx.objectStore(USES).put(this.#now(), key);
        done(request.result as unknown);
      };
    });
    return value === undefined ? undefined : toBytes(value, key);
  }

  /** Stores a copy of `bytes` under `key`, replacing what was there, in one transaction. */
  async set(key: string, bytes: Uint8Array): Promise<void> {
    checkKey(key);
    if (!(bytes instanceof Uint8Array)) throw new CKGError('INVALID_ARGUMENT', 'bytes must be a Uint8Array');
    // Structured clone copies a view's whole ArrayBuffer: store a tight copy of just these bytes.
    const tight = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    await this.#run('set', [BYTES, USES], 'readwrite', (tx, done) => {
      tx.objectStore(BYTES).put(tight, key);
      tx.objectStore(USES).put(this.#now(), key);
      done(undefined);
    });
  }

  /** Removes `key`; no error when absent. */
  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.#run('delete', [BYTES, USES], 'readwrite', (tx, done) => {
      tx.objectStore(BYTES).delete(key);
      tx.objectStore(USES).delete(key);
      done(undefined);
    });
  }

  /** Every key with its last use (get or set), in ms since the epoch, in key order. */
  async list(): Promise<{ key: string; lastUsed: number }[]> {
    return await this.#run('list', [USES], 'readonly', (tx, done) => {
      const entries: { key: string; lastUsed: number }[] = [];
      // A cursor over the small `uses` store never loads the database blobs.
      const request = tx.objectStore(USES).openCursor();
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) {
          done(entries);
          return;
        }
        entries.push({ key: String(cursor.key), lastUsed: Number(cursor.value) });
        cursor.continue();
      };
    });
  }

  /** Closes the IndexedDB connection; a later call reopens it. Lets `deleteDatabase` proceed. */
  close(): void {
    const db = this.#db;
    this.#db = undefined;
    void db?.then((d) => d.close(), () => undefined);
  }

  #open(): Promise<IDBDatabase> {
    if (this.#db) return this.#db;
    const opening = new Promise<IDBDatabase>((resolve, reject) => {
      const factory = this.#factory;
      if (!factory) {
        reject(new CKGError('STORAGE_ERROR', 'IndexedDB is not available here: pass options.indexedDB', { operation: 'open' }));
        return;
      }
      // No onblocked handler: an open blocked by an older tab waits until that tab closes its
      // connection (ours close themselves on versionchange), as IndexedDB intends.
      let request: IDBOpenDBRequest;
      try {
        request = factory.open(this.databaseName, VERSION);
      } catch (error) {
        // Chromium throws SecurityError synchronously on opaque origins (data:, sandboxed frames).
        reject(storageError('open', error, this.databaseName));
        return;
      }
      request.onupgradeneeded = () => {
        const db = request.result;
        for (const name of [BYTES, USES]) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
      };
      request.onsuccess = () => {
        const db = request.result;
        // Another tab upgrading or deleting the database: let it, and reopen on next use.
        db.onversionchange = () => {
          db.close();
          if (this.#db === opening) this.#db = undefined;
        };
        resolve(db);
      };
      request.onerror = () => reject(storageError('open', request.error, this.databaseName));
    });
    this.#db = opening;
    // A failed open is not cached: the next call tries again.
    opening.catch(() => {
      if (this.#db === opening) this.#db = undefined;
    });
    return opening;
  }

  /**
   * Runs `body` in one transaction and resolves with the value it passes to `done`, once the
   * transaction has committed (so a resolved `set` is durable as far as IndexedDB promises).
   */
  async #run<T>(operation: string, stores: string[], mode: IDBTransactionMode, body: (tx: IDBTransaction, done: (value: T) => void) => void): Promise<T> {
    const db = await this.#open();
    return await new Promise<T>((resolve, reject) => {
      let tx: IDBTransaction;
      try {
        tx = db.transaction(stores, mode);
      } catch (error) {
        reject(storageError(operation, error, this.databaseName));
        return;
      }
      let result: { value: T } | undefined;
      tx.oncomplete = () => (result ? resolve(result.value) : reject(new CKGError('STORAGE_ERROR', `IndexedDB ${operation} completed without a result`, { operation })));
      tx.onerror = () => reject(storageError(operation, tx.error, this.databaseName));
      tx.onabort = () => reject(storageError(operation, tx.error, this.databaseName));
      try {
        body(tx, (value) => {
          result = { value };
        });
      } catch (error) {
        tx.abort();
        reject(storageError(operation, error, this.databaseName));
      }
    });
  }
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key === '') throw new CKGError('INVALID_ARGUMENT', `storage key must be a non-empty string, got ${String(key)}`);
}

function toBytes(value: unknown, key: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new CKGError('STORAGE_ERROR', `IndexedDB value under ${key} is not bytes`, { operation: 'get', key });
}

function storageError(operation: string, cause: unknown, database: string): CKGError {
  const detail = cause instanceof Error || (typeof DOMException !== 'undefined' && cause instanceof DOMException) ? `${(cause as Error).name}: ${(cause as Error).message}` : String(cause);
  return new CKGError('STORAGE_ERROR', `IndexedDB ${operation} failed: ${detail}`, { operation, database }, { cause });
}
