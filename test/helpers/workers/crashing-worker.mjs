// The real worker body, except that the thread dies on a marker in a file: `CRASH_THE_WORKER`
// ends it (process.exit in a worker ends only the worker), `THROW_IN_THE_WORKER` throws an
// uncaught error (as a broken runtime would). Like a real crash, it happens when the worker
// gets to that file: files before it in the queue have been answered. A pool must cope with both.
import { register } from 'node:module';
import { parentPort } from 'node:worker_threads';

register('./ts-hooks.mjs', import.meta.url);
const { createWorkerBody } = await import('../../../src/parser/worker-body.ts');
const answered = new Map();
const handle = createWorkerBody((message) => {
  parentPort.postMessage(message);
  answered.get(message.id)?.();
  answered.delete(message.id);
});
let turn = Promise.resolve();
parentPort.on('message', (message) => {
  if (message.type !== 'parse') return handle(message);
  turn = turn.then(
    () =>
      new Promise((done) => {
        if (message.source.includes('CRASH_THE_WORKER')) process.exit(7);
        if (message.source.includes('THROW_IN_THE_WORKER')) {
          setTimeout(() => {
            throw new Error('thrown on purpose');
          });
          return;
        }
        answered.set(message.id, done);
        handle(message);
      }),
  );
});
parentPort.postMessage({ type: 'ready' });
