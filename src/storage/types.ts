/**
 * Where database bytes are kept between runs. Keys are opaque strings chosen by ckg-wasm; any
 * object with these four methods works (memory, a folder, IndexedDB, a remote store).
 *
 * @example
 * ```ts
 * const storage: Storage = new MemoryStorage();
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, storage });
 * ```
 * @public
 */
export interface Storage {
  /** The bytes stored under `key`, or undefined. Implementations should record the use time. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Stores bytes under `key`, replacing what was there (atomically where the medium allows). */
  set(key: string, bytes: Uint8Array): Promise<void>;
  /** Removes `key`; no error when absent. */
  delete(key: string): Promise<void>;
  /** Every key with its last use (get or set), in ms since the epoch. */
  list(): Promise<{ key: string; lastUsed: number }[]>;
}
