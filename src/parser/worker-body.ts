// The one worker body shared by the worker_threads entry (src/node/worker-thread.ts) and the
// Web Worker entry (src/browser/web-worker.ts): each entry only wires its transport to it.
import { CKGError, type CKGErrorCode } from '../errors.js';
import { createDefaultRegistry } from '../languages/index.js';
import { extractSource } from './extract.js';
import { initTreeSitter, ParserPool, type WasmOptions } from './runtime.js';
import { toWire, type WorkerParse, type WorkerRequest, type WorkerResponse, type WorkerWasm } from './worker-protocol.js';

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
  // Wasm files asked of the pool, by name: one request per file, answered out of band (a parse
  // waits for its grammar, so answers must not queue behind parses).
  const asked = new Map<string, { readonly promise: Promise<Uint8Array | undefined>; resolve(bytes: Uint8Array | undefined): void; reject(error: unknown): void }>();
  const askPool = (fileName: string): Promise<Uint8Array | undefined> => {
    let entry = asked.get(fileName);
    if (entry === undefined) {
      let resolve!: (bytes: Uint8Array | undefined) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<Uint8Array | undefined>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      entry = { promise, resolve, reject };
      asked.set(fileName, entry);
      reply({ type: 'wasm-request', fileName });
    }
    return entry.promise;
  };
  const answered = ({ fileName, bytes, error }: WorkerWasm): void => {
    const entry = asked.get(fileName);
    if (entry === undefined) return;
    // Forgotten once answered: the runtime and grammar loads keep what they need, and a later
    // failure may be asked again.
    asked.delete(fileName);
    if (error === undefined) {
      entry.resolve(bytes);
      return;
    }
    entry.reject(error.code === undefined ? new Error(error.message) : new CKGError(error.code as CKGErrorCode, error.message, { ...error.data }));
  };

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
    if (message.type === 'wasm') {
      answered(message);
      return;
    }
    if (message.type === 'init') {
      wasm = message.wasmFromPool === true ? { load: askPool } : {};
      // Start the runtime now so its load overlaps the first file's read; a failure surfaces
      // (as WASM_LOAD_FAILED) on the first parse.
      initTreeSitter(wasm).catch(() => undefined);
      return;
    }
    queue = queue.then(() => parse(message));
  };
}
