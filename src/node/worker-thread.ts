// The worker_threads entry of the parse pool: wires `parentPort` to the shared worker body.
import { parentPort } from 'node:worker_threads';
import { createWorkerBody } from '../parser/worker-body.js';

if (!parentPort) throw new Error('ckg-wasm worker-thread.js must run in a worker_threads Worker');
const port = parentPort;
port.on('message', createWorkerBody((message) => port.postMessage(message)));
port.postMessage({ type: 'ready' });
