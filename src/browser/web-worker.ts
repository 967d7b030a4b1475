// The Web Worker entry of the parse pool: wires the worker scope to the shared worker body.
import { createWorkerBody } from '../parser/worker-body.js';
import type { WorkerRequest } from '../parser/worker-protocol.js';

const scope = globalThis as unknown as DedicatedWorkerGlobalScope;
const handle = createWorkerBody((message) => scope.postMessage(message));
scope.addEventListener('message', (event: MessageEvent<WorkerRequest>) => handle(event.data));
scope.postMessage({ type: 'ready' });
