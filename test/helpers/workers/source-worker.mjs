// Runs src/node/worker-thread.ts (the real worker entry) from source in a worker thread.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
await import('../../../src/node/worker-thread.ts');
