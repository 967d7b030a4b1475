/**
 * The Node-only part of ckg-wasm (this entry also exports all of `ckg-wasm`): a
 * `worker_threads` parse pool, and databases kept in a folder (`~/.cache/ckg-wasm` by default).
 *
 * @packageDocumentation
 */
export * from '../index.js';
export { createWorkerPool, type ParsePool, type WorkerPoolOptions } from './worker-pool.js';
export { DirectoryStorage, defaultCacheDirectory, type DirectoryStorageFs, type DirectoryStorageOptions } from './directory-storage.js';
