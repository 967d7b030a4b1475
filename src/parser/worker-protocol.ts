// The messages between a parse pool and its workers. Plain data only: every message must
// survive structured cloning (worker_threads and Web Workers alike), so no functions, no
// class instances, no tree-sitter objects. (Plain functions below are helpers of both sides.)
import type { ExtractedClass, ExtractedFile, ExtractedFunction } from './extract.js';
import type { ExtractionOptions } from '../languages/types.js';
import type { ExtractedGraph } from '../graph/facts.js';
import { packedGraph, sitesAsColumns, withoutSites, type PackedSites } from '../graph/packed-sites.js';

/**
 * The rows of one file as they cross threads: without `body` texts. Bodies are slices of the
 * source (`source.slice(bodyStart, bodyEnd)`), which the calling thread still holds, so
 * sending them back would copy every body twice (a class's body holds its methods') for
 * nothing: the pool cuts them again from the source it sent.
 *
 * @example
 * ```ts
 * const file = { ...wire, functions: wire.functions.map((f) => ({ ...f, body: source.slice(f.bodyStart, f.bodyEnd) })) };
 * ```
 */
export interface WireFile {
  readonly functions: Omit<ExtractedFunction, 'body'>[];
  readonly classes: Omit<ExtractedClass, 'body'>[];
  readonly hasSyntaxErrors: boolean;
  readonly incremental?: boolean;
  /**
   * The file's {@link ExtractedGraph} but its sites, as JSON text (its bindings are thousands of
   * small plain objects, which JSON writes and reads back in about half the time structured
   * cloning takes; an `undefined` property is dropped, which no reader of facts tells from an
   * absent one).
   */
  readonly graph?: string;
  /** The graph's sites, as columns (typed arrays and lists of strings clone at once). */
  readonly sites?: PackedSites;
}

/**
 * Drops the body texts of a file's rows, for sending.
 *
 * @example
 * ```ts
 * reply({ type: 'result', id, file: toWire(await extractSource(pool, language, source)) });
 * ```
 */
export function toWire(file: ExtractedFile): WireFile {
  return {
    functions: file.functions.map(({ body: _body, ...rest }) => rest),
    classes: file.classes.map(({ body: _body, ...rest }) => rest),
    hasSyntaxErrors: file.hasSyntaxErrors,
    ...(file.incremental === true ? { incremental: true } : {}),
    ...(file.graph !== undefined ? { graph: JSON.stringify(withoutSites(file.graph)), sites: sitesAsColumns(file.graph) } : {}),
  };
}

/**
 * Restores the body texts of received rows from the source that was sent.
 *
 * @example
 * ```ts
 * job.resolve(fromWire(message.file, job.source));
 * ```
 */
export function fromWire(file: WireFile, source: string): ExtractedFile {
  return {
    functions: file.functions.map((f) => ({ ...f, body: source.slice(f.bodyStart, f.bodyEnd) })),
    classes: file.classes.map((c) => ({ ...c, body: source.slice(c.bodyStart, c.bodyEnd) })),
    hasSyntaxErrors: file.hasSyntaxErrors,
    ...(file.incremental === true ? { incremental: true } : {}),
    ...(file.graph !== undefined && file.sites !== undefined ? { graph: packedGraph(JSON.parse(file.graph) as Omit<ExtractedGraph, 'sites'>, file.sites) } : {}),
  };
}

/**
 * The first message to a worker. Functions (`wasm.load`) and per-file URLs stay in the pool's
 * thread: with `wasmFromPool` the worker asks that thread for each wasm file it needs
 * ({@link WorkerWasmRequest}), so every file is fetched once, however many workers there are.
 *
 * @example
 * ```ts
 * const init: WorkerInit = { type: 'init', wasmFromPool: true };
 * ```
 */
export interface WorkerInit {
  readonly type: 'init';
  /** Ask the pool for wasm files; without it the worker uses the platform default (Node: the package's files). */
  readonly wasmFromPool?: boolean;
}

/**
 * The pool's answer to a {@link WorkerWasmRequest}: the bytes, nothing (use the default
 * location), or the error that reading them raised.
 *
 * @example
 * ```ts
 * port.post({ type: 'wasm', fileName: 'tree-sitter-python.wasm', bytes });
 * ```
 */
export interface WorkerWasm {
  readonly type: 'wasm';
  readonly fileName: string;
  readonly bytes?: Uint8Array;
  readonly error?: { readonly code?: string; readonly message: string; readonly data?: Readonly<Record<string, unknown>> };
}

/**
 * One file to parse with a built-in language.
 *
 * @example
 * ```ts
 * const job: WorkerParse = { type: 'parse', id: 7, languageId: 'python', source: 'def f(): pass\n' };
 * ```
 */
export interface WorkerParse {
  readonly type: 'parse';
  /** Chosen by the pool, echoed in the reply. */
  readonly id: number;
  /** The id of a language of the built-in registry (custom visitors cannot cross threads). */
  readonly languageId: string;
  readonly source: string;
  /** The file's path: the key of a syntax tree the worker may have kept for it. */
  readonly path?: string;
  /** Keep this file's tree for the next parse of the same path (a small update). */
  readonly keepTree?: boolean;
  /** `false`: extract definitions only, no code-graph facts. */
  readonly graph?: boolean;
  /** The index's extraction options (plain data), for the visitor. */
  readonly extraction?: ExtractionOptions;
}

/**
 * What a pool sends to a worker.
 *
 * @example
 * ```ts
 * port.post({ type: 'parse', id: 1, languageId: 'python', source });
 * ```
 */
export type WorkerRequest = WorkerInit | WorkerParse | WorkerWasm;

/**
 * The worker loaded its code and installed its message handler.
 *
 * @example
 * ```ts
 * if (message.type === 'ready') markStarted(worker);
 * ```
 */
export interface WorkerReady {
  readonly type: 'ready';
}

/**
 * The rows of one file.
 *
 * @example
 * ```ts
 * if (message.type === 'result') jobs.get(message.id)?.resolve(fromWire(message.file, source));
 * ```
 */
export interface WorkerResult {
  readonly type: 'result';
  readonly id: number;
  readonly file: WireFile;
}

/**
 * A file the worker could not process; the worker itself stays usable.
 *
 * @example
 * ```ts
 * if (message.type === 'error') jobs.get(message.id)?.reject(new CKGError(message.code ?? 'INVALID_ARGUMENT', message.message));
 * ```
 */
export interface WorkerFailure {
  readonly type: 'error';
  readonly id: number;
  /** The `CKGError` code when the failure was one (so `WASM_LOAD_FAILED` stays fatal). */
  readonly code?: string;
  readonly message: string;
}

/**
 * A worker needs a wasm file (a grammar, the runtime) and asks the pool's thread for it.
 *
 * @example
 * ```ts
 * if (message.type === 'wasm-request') void answer(message.fileName);
 * ```
 */
export interface WorkerWasmRequest {
  readonly type: 'wasm-request';
  readonly fileName: string;
}

/**
 * What a worker sends back.
 *
 * @example
 * ```ts
 * const onMessage = (message: WorkerResponse): void => { if (message.type !== 'ready') settle(message); };
 * ```
 */
export type WorkerResponse = WorkerReady | WorkerResult | WorkerFailure | WorkerWasmRequest;
