// ckg-wasm/node: everything of the browser-safe entry plus Node-only helpers.
export * from '../index.js';
export { createWorkerPool, type ParsePool, type WorkerPoolOptions } from './worker-pool.js';
export { DirectoryStorage, defaultCacheDirectory, type DirectoryStorageFs, type DirectoryStorageOptions } from './directory-storage.js';
