// The real worker body, except that the thread dies on a marker in a file: `CRASH_THE_WORKER`
// ends it (process.exit in a worker ends only the worker), `THROW_IN_THE_WORKER` throws out of
// the message handler (an uncaught error, as a broken runtime would). A pool must cope with both.
import { register } from 'node:module';
import { parentPort } from 'node:worker_threads';

register('./ts-hooks.mjs', import.meta.url);
const { createWorkerBody } = await import('../../../src/parser/worker-body.ts');
const handle = createWorkerBody((message) => parentPort.postMessage(message));
parentPort.on('message', (message) => {
  if (message.type === 'parse' && message.source.includes('CRASH_THE_WORKER')) process.exit(7);
  if (message.type === 'parse' && message.source.includes('THROW_IN_THE_WORKER')) throw new Error('thrown on purpose');
  handle(message);
});
parentPort.postMessage({ type: 'ready' });
