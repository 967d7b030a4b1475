// The one worker body shared by the worker_threads entry (src/node/worker-thread.ts) and the
// Web Worker entry (src/browser/web-worker.ts): each entry only wires its transport to it.
import { CKGError } from '../errors.js';
import { createDefaultRegistry } from '../languages/index.js';
import { extractSource } from './extract.js';
import { initTreeSitter, ParserPool, type WasmOptions } from './runtime.js';
import { toWire, type WorkerParse, type WorkerRequest, type WorkerResponse } from './worker-protocol.js';

/**
 * Creates the message handler of a parse worker. It parses with one {@link ParserPool} over
 * the built-in registry and answers every `parse` request with exactly one `result` or
 * `error` reply, in request order (requests are handled one at a time, so a pool can tell
 * which file a crashed worker was on: its oldest unanswered one).
 *
 * @param reply - posts a message back to the pool (`parentPort.postMessage`, `self.postMessage`).
 * @returns the handler to call with each incoming message.
 * @example
 * ```ts
 * const handle = createWorkerBody((message) => parentPort.postMessage(message));
 * parentPort.on('message', handle);
 * parentPort.postMessage({ type: 'ready' });
 * ```
 */
export function createWorkerBody(reply: (message: WorkerResponse) => void): (message: WorkerRequest) => void {
  const registry = createDefaultRegistry();
  let wasm: WasmOptions = {};
  let pool: ParserPool | undefined;
  // Requests are chained: tree-sitter parsing is synchronous, but grammar loading is not, and
  // replies must keep request order.
  let queue: Promise<void> = Promise.resolve();

  const parse = async ({ id, languageId, source, path, keepTree, graph, extraction }: WorkerParse): Promise<void> => {
    try {
      const language = registry.get(languageId);
      if (!language) throw new CKGError('UNKNOWN_LANGUAGE', `Language ${languageId} is not built in; it cannot be parsed in a worker`, { language: languageId });
      pool ??= new ParserPool(wasm);
      const reuse = path === undefined ? undefined : { key: path, keep: keepTree === true };
      const file = toWire(await extractSource(pool, language, source, reuse, graph !== false, extraction));
      reply({ type: 'result', id, file });
    } catch (error) {
      reply({
        type: 'error',
        id,
        ...(error instanceof CKGError ? { code: error.code } : {}),
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };

  return (message: WorkerRequest): void => {
    if (message.type === 'init') {
      wasm = message.wasmBaseUrl === undefined ? {} : { baseUrl: message.wasmBaseUrl };
      // Start the runtime now so its load overlaps the first file's read; a failure surfaces
      // (as WASM_LOAD_FAILED) on the first parse.
      initTreeSitter(wasm).catch(() => undefined);
      return;
    }
    queue = queue.then(() => parse(message));
  };
}
