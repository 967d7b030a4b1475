// A strict TypeScript consumer in a browser app (compiled, not run, by typescript.test.ts):
// with the bundler resolution, and with a DOM-only lib (no Node types, no esnext.disposable).
import LightningFS from '@isomorphic-git/lightning-fs';
import {
  CKGDatabase,
  IndexedDBStorage,
  createWebWorkerPool,
  droppedFiles,
  expireStorage,
  memoryFileSystem,
  pickedFiles,
  type FileSystem,
  type MemoryFileSystem,
  type WasmOptions,
  type WebWorkerPool,
  type WorkerLike,
} from 'ckg-wasm';

export async function openDropped(transfer: DataTransfer, input: HTMLInputElement): Promise<void> {
  const wasm: WasmOptions = { baseUrl: '/ckg-wasm/', files: { 'sql-wasm.wasm': new URL('/assets/sql.wasm', location.href) } };
  const pool: WebWorkerPool = createWebWorkerPool({ wasm, createWorker: (): WorkerLike => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }) });
  const dropped: MemoryFileSystem = memoryFileSystem(await droppedFiles(transfer, '/dropped'));
  const picked = memoryFileSystem(input.files ? await pickedFiles(input.files, '/picked') : new Map());
  const lightning: FileSystem = new LightningFS('my-ide');
  const storage = new IndexedDBStorage({ databaseName: 'ide', indexedDB });
  for (const fs of [dropped, picked, lightning]) {
    const db = await CKGDatabase.open({ codebasePath: '/dropped', fs, wasm, processor: pool, storage });
    console.log(db.origin, pool.started, (await db.queryClass('Cart'))[0]?.body);
    db.close();
  }
  dropped.writeFile('/dropped/new.py', 'def f():\n    pass\n');
  await expireStorage(storage);
  await pool.close();
}
