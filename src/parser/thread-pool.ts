// The transport-independent half of a parse pool: scheduling, crash recovery, the in-thread
// fallback for custom languages, and close(). `ckg-wasm/node`'s WorkerPool (worker_threads)
// and the browser WebWorkerPool (Web Workers) only supply a way to start a worker.
import { CKGError, type CKGErrorCode } from '../errors.js';
import { PARSE_POOL_OPTIONS } from '../options/pool-schemas.js';
import { checkOptions } from '../options/validate.js';
import { builtinLanguages } from '../languages/index.js';
import type { ExtractionOptions, LanguageDefinition } from '../languages/types.js';
import type { ExtractedFile } from './extract.js';
import { LocalProcessor } from './local-processor.js';
import { KEPT_TREES_LIMIT, ParserPool, type WasmOptions } from './runtime.js';
import { hasWasmLocation, readConfiguredWasm } from '../wasm/locate.js';
import type { ProcessOptions } from '../indexer/report.js';
import { fromWire, type WorkerRequest, type WorkerResponse } from './worker-protocol.js';

/**
 * A started worker, as the pool sees it.
 *
 * @example
 * ```ts
 * const port: WorkerPort = { post: (m) => worker.postMessage(m), terminate: () => worker.terminate() };
 * ```
 */
export interface WorkerPort {
  post(message: WorkerRequest): void;
  /** Stops the worker; the pool ignores its later events. */
  terminate(): void | Promise<unknown>;
  /** Lets the host process exit while this worker is idle (Node `unref`); optional. */
  setIdle?(idle: boolean): void;
}

/**
 * Callbacks a transport calls for a worker it started.
 *
 * @example
 * ```ts
 * worker.on('message', events.message);
 * worker.on('exit', (code) => events.exit(`exit code ${code}`));
 * ```
 */
export interface WorkerEvents {
  message(message: WorkerResponse): void;
  /** The worker died or cannot run any more; `reason` ends up in the skipped file's detail. */
  exit(reason: string): void;
}

/**
 * Starts one worker running the shared worker body.
 *
 * @example
 * ```ts
 * const spawn: SpawnWorker = (events) => wrap(new Worker(url), events);
 * ```
 */
export type SpawnWorker = (events: WorkerEvents) => WorkerPort;

/**
 * Options common to the Node and the browser pools.
 *
 * @example
 * ```ts
 * const pool = createWorkerPool({ size: 2, pipeline: 4 });
 * ```
 * @public
 */
export interface ParsePoolOptions {
  /** How many workers; default: the number of cores. */
  readonly size?: number;
  /**
   * How many files each worker may have queued, so it never waits for the main thread between
   * files, even when a busy machine deschedules the main thread for a while. Default 8 (a few
   * hundred kB of source text per worker).
   */
  readonly pipeline?: number;
  /**
   * Wasm locations ({@link WasmOptions}). Workers ask this thread for each file they need, so
   * `load` and `files` work with workers too, and each file is read once for all workers.
   */
  readonly wasm?: WasmOptions;
}

interface Job {
  readonly id: number;
  readonly languageId: string;
  readonly source: string;
  readonly path: string;
  readonly keepTree: boolean;
  readonly graph: boolean;
  readonly extraction: ExtractionOptions | undefined;
  readonly resolve: (file: ExtractedFile) => void;
  readonly reject: (error: unknown) => void;
}

interface Slot {
  port: WorkerPort;
  /** Jobs sent and not answered, oldest first (the worker answers in order). */
  readonly jobs: Job[];
  /** Source length of {@link Slot.jobs}: the slot's load. */
  queued: number;
  ready: boolean;
  /** Set once the slot's worker is gone; its later events (late answers included) are ignored. */
  dead: boolean;
  /**
   * The slot re-parses the unanswered files of a dead worker one at a time and takes nothing
   * else, so when it dies the one file it holds is certainly the one it died on.
   */
  quarantine: boolean;
}

const builtins = new Set<LanguageDefinition>(builtinLanguages);

/**
 * A {@link FileProcessor} that parses built-in languages in worker threads and any other
 * language in the calling thread. Files go to the least busy worker. A worker that dies takes
 * only the file it was parsing with it (that file is rejected with `WORKER_FAILED`, which a
 * build reports as a skipped `parse-failed` file): its unanswered files are re-parsed one at a
 * time by a fresh worker in quarantine, and a file is blamed only when a worker holding that
 * file alone dies. Blame so never depends on whether a dead worker's last answers arrive
 * before or after the news of its death. A worker that cannot start (the quarantine worker,
 * which holds no file until it runs, dies before it does) rejects the files with
 * `WASM_LOAD_FAILED`, which stops the build.
 *
 * @example
 * ```ts
 * const pool = new ThreadPoolProcessor(spawn, { size: 2, defaultSize: 2 });
 * const rows = await pool.process(python, 'def f(): pass\n', '/src/a.py');
 * await pool.close();
 * ```
 */
export class ThreadPoolProcessor {
  /** Number of workers. */
  readonly size: number;
  /** Files in flight at once: what a build should keep queued (`size × pipeline`). */
  readonly concurrency: number;
  readonly #spawn: SpawnWorker;
  readonly #wasm: WasmOptions;
  readonly #slots: (Slot | undefined)[];
  #nextId = 1;
  #roundRobin = 0;
  /** Paths whose trees a worker keeps, with that worker's slot index. */
  readonly #keptBy = new Map<string, number>();
  /** Unanswered files of dead workers, waiting for the quarantine slot (oldest first). */
  readonly #suspects: Job[] = [];
  /** Files that arrived while every slot was in quarantine (a pool of one worker). */
  readonly #backlog: Job[] = [];
  #local: LocalProcessor | undefined;
  #closing: Promise<void> | undefined;
  /** Wasm files read for the workers, by name (undefined: the caller did not say; the worker's default applies). */
  readonly #wasmFiles = new Map<string, Promise<Uint8Array | undefined>>();

  /**
   * `startWorkers`: `'now'` starts every worker at once (loading the runtime then overlaps the
   * caller's file walk); `'on-demand'` starts one when a file finds no idle worker, so a pool
   * whose caller parses nothing (an index reused from storage) starts none.
   */
  constructor(spawn: SpawnWorker, options: ParsePoolOptions & { readonly defaultSize: number; readonly startWorkers?: 'now' | 'on-demand' }) {
    const { defaultSize, startWorkers: _startWorkers, ...poolOptions } = options;
    checkOptions('ThreadPoolProcessor', { size: poolOptions.size, pipeline: poolOptions.pipeline, wasm: poolOptions.wasm }, PARSE_POOL_OPTIONS);
    const size = options.size ?? defaultSize;
    const pipeline = options.pipeline ?? 8;
    this.size = size;
    this.concurrency = size * pipeline;
    this.#spawn = spawn;
    this.#wasm = options.wasm ?? {};
    this.#slots = new Array<Slot | undefined>(size).fill(undefined);
    if (options.startWorkers === 'on-demand') return;
    try {
      for (let i = 0; i < size; i++) this.#start(i);
    } catch (error) {
      void this.close();
      throw new CKGError('WORKER_FAILED', `Cannot start a parse worker: ${String(error)}`, {}, { cause: error });
    }
  }

  /** Workers running now (fewer than {@link ThreadPoolProcessor.size} before on-demand starts). */
  get started(): number {
    return this.#slots.filter((slot) => slot !== undefined).length;
  }

  /** Extracts the rows of one file: in a worker for a built-in language, here otherwise. */
  process(language: LanguageDefinition, source: string, path: string, options?: ProcessOptions): Promise<ExtractedFile> {
    if (this.#closing) return Promise.reject(new CKGError('CLOSED', 'The worker pool is closed'));
    const keepTree = options?.keepTree === true;
    const graph = options?.graph !== false;
    if (!builtins.has(language)) {
      // Custom visitors are functions: they cannot be sent to a worker.
      this.#local ??= new LocalProcessor(new ParserPool(this.#wasm));
      return this.#local.process(language, source, path, options);
    }
    return new Promise<ExtractedFile>((resolve, reject) => {
      this.#dispatch({ id: this.#nextId++, languageId: language.id, source, path, keepTree, graph, extraction: options?.extraction, resolve, reject });
    });
  }

  /** Stops every worker and frees the in-thread parsers; pending files reject with `CLOSED`. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const stops: Promise<unknown>[] = [];
      for (let i = 0; i < this.#slots.length; i++) {
        const slot = this.#slots[i];
        if (!slot) continue;
        stops.push(this.#retire(i, slot));
        for (const job of slot.jobs.splice(0)) job.reject(new CKGError('CLOSED', 'The worker pool was closed', { path: job.path }));
      }
      for (const job of [...this.#suspects.splice(0), ...this.#backlog.splice(0)]) job.reject(new CKGError('CLOSED', 'The worker pool was closed', { path: job.path }));
      const local = this.#local;
      this.#local = undefined;
      this.#wasmFiles.clear();
      await Promise.all([...stops, local?.pool.delete()]);
    })();
    return this.#closing;
  }

  /**
   * Stops the workers that have no file to parse; later files start them again. A large build
   * calls it when its last file is parsed: a worker's parser memory only grows (about 100 MB
   * each after the Linux kernel), and the resolution pass that follows needs memory, not parsers.
   * Workers with files in flight, and a pool that is closed, are left alone.
   *
   * @example
   * ```ts
   * await pool.releaseIdle(); // pool.started is now 0 when nothing was being parsed
   * ```
   */
  async releaseIdle(): Promise<void> {
    if (this.#closing) return;
    const stops: Promise<unknown>[] = [];
    for (let i = 0; i < this.#slots.length; i++) {
      const slot = this.#slots[i];
      if (!slot || slot.jobs.length > 0 || slot.quarantine) continue;
      // Its kept trees go with it: those files' next parse is a full one, wherever it runs.
      for (const [path, at] of this.#keptBy) if (at === i) this.#keptBy.delete(path);
      stops.push(this.#retire(i, slot));
    }
    await Promise.all(stops);
  }

  /** True once {@link ThreadPoolProcessor.close} was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  #dispatch(job: Job): void {
    // A file whose tree a worker kept goes back to that worker (an incremental re-parse there
    // beats a full parse anywhere). Otherwise: the least busy worker by queued source text (one
    // large file outweighs many small ones); ties go round-robin so equal loads spread. A slot
    // in quarantine takes nothing.
    let best = this.#keptBy.get(job.path) ?? -1;
    if (best >= 0 && this.#slots[best]?.quarantine === true) best = -1;
    if (best < 0) {
      let bestLoad = Infinity;
      for (let k = 0; k < this.size; k++) {
        const i = (this.#roundRobin + k) % this.size;
        const slot = this.#slots[i];
        if (slot?.quarantine === true) continue;
        const load = slot?.queued ?? 0;
        if (load < bestLoad) {
          best = i;
          bestLoad = load;
        }
      }
      if (best < 0) {
        this.#backlog.push(job);
        return;
      }
      this.#roundRobin = (best + 1) % this.size;
    }
    // Remembered only for trees a worker keeps; its own limit (KEPT_TREES_LIMIT) bounds this map.
    this.#keptBy.delete(job.path);
    if (job.keepTree) {
      this.#keptBy.set(job.path, best);
      if (this.#keptBy.size > KEPT_TREES_LIMIT * this.size) this.#keptBy.delete(this.#keptBy.keys().next().value!);
    }
    const slot = this.#slots[best] ?? this.#tryStart(best, job);
    if (slot) this.#send(slot, job);
  }

  /** Starts a worker in slot `index`, or rejects `job` (the file that needed it) if it cannot start. */
  #tryStart(index: number, job: Job): Slot | undefined {
    try {
      return this.#start(index);
    } catch (error) {
      job.reject(new CKGError('WORKER_FAILED', `Cannot start a parse worker for ${job.path}: ${String(error)}`, { path: job.path }, { cause: error }));
      return undefined;
    }
  }

  #send(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    slot.queued += job.source.length;
    if (slot.jobs.length === 1) slot.port.setIdle?.(false);
    try {
      slot.port.post({
        type: 'parse',
        id: job.id,
        languageId: job.languageId,
        source: job.source,
        path: job.path,
        ...(job.keepTree ? { keepTree: true } : {}),
        ...(job.graph ? {} : { graph: false }),
        ...(job.extraction !== undefined ? { extraction: job.extraction } : {}),
      });
    } catch (error) {
      slot.jobs.pop();
      slot.queued -= job.source.length;
      job.reject(new CKGError('WORKER_FAILED', `Cannot send ${job.path} to a worker: ${String(error)}`, { path: job.path }, { cause: error }));
    }
  }

  #start(index: number): Slot {
    const slot: Slot = { port: undefined as unknown as WorkerPort, jobs: [], queued: 0, ready: false, dead: false, quarantine: false };
    slot.port = this.#spawn({
      message: (message) => {
        if (!slot.dead) this.#onMessage(slot, message);
      },
      exit: (reason) => {
        if (!slot.dead) this.#onExit(index, slot, reason);
      },
    });
    slot.port.post(hasWasmLocation(this.#wasm) ? { type: 'init', wasmFromPool: true } : { type: 'init' });
    slot.port.setIdle?.(true);
    this.#slots[index] = slot;
    return slot;
  }

  #onMessage(slot: Slot, message: WorkerResponse): void {
    if (message.type === 'ready') {
      slot.ready = true;
      // A quarantine slot takes its first suspect once its worker runs (see #onExit).
      if (slot.quarantine && slot.jobs.length === 0) this.#nextSuspect(slot);
      return;
    }
    if (message.type === 'wasm-request') {
      this.#sendWasm(slot, message.fileName);
      return;
    }
    const at = slot.jobs.findIndex((j) => j.id === message.id);
    if (at < 0) return;
    const [job] = slot.jobs.splice(at, 1) as [Job];
    slot.queued -= job.source.length;
    if (slot.jobs.length === 0) slot.port.setIdle?.(true);
    if (message.type === 'result') {
      job.resolve(fromWire(message.file, job.source));
    } else {
      // Same shape as the in-thread failure: a CKGError keeps its code (WASM_LOAD_FAILED stays
      // fatal for a build), anything else (a visitor bug) is a plain Error.
      job.reject(message.code === undefined ? new Error(message.message) : new CKGError(message.code as CKGErrorCode, message.message, { path: job.path }));
    }
    if (slot.quarantine) this.#nextSuspect(slot);
  }

  /** Answers a worker's request for a wasm file from the caller's options (read once per file). */
  #sendWasm(slot: Slot, fileName: string): void {
    let bytes = this.#wasmFiles.get(fileName);
    if (bytes === undefined) {
      bytes = readConfiguredWasm(this.#wasm, fileName);
      this.#wasmFiles.set(fileName, bytes);
      bytes.catch(() => this.#wasmFiles.delete(fileName)); // a later request tries again
    }
    bytes.then(
      (found) => {
        if (!slot.dead) slot.port.post(found === undefined ? { type: 'wasm', fileName } : { type: 'wasm', fileName, bytes: found });
      },
      (error: unknown) => {
        if (slot.dead) return;
        const failure = error instanceof CKGError ? { code: error.code, message: error.message, data: error.data } : { message: error instanceof Error ? error.message : String(error) };
        slot.port.post({ type: 'wasm', fileName, error: failure });
      },
    );
  }

  /**
   * Takes `slot` (at `index`) out of the pool: no new files for it, its later events ignored,
   * its worker stopped (resolves once it is, never rejects). Its jobs are the caller's to settle.
   */
  #retire(index: number, slot: Slot): Promise<unknown> {
    slot.dead = true;
    if (this.#slots[index] === slot) this.#slots[index] = undefined;
    return Promise.resolve(slot.port.terminate()).catch(() => undefined);
  }

  #onExit(index: number, slot: Slot, reason: string): void {
    void this.#retire(index, slot);
    const jobs = slot.jobs.splice(0);
    slot.queued = 0;
    if (!slot.ready && slot.quarantine) {
      // A quarantine worker takes no file before it runs: this one died holding none, so its
      // script or runtime cannot load here, and every other worker would fail the same way.
      // Fatal for a build, not a per-file skip.
      for (const job of [...jobs, ...this.#suspects.splice(0)]) job.reject(new CKGError('WASM_LOAD_FAILED', `A parse worker could not start: ${reason}`, { path: job.path }));
      slot.quarantine = false;
      this.#releaseBacklog();
      return;
    }
    if (slot.quarantine) {
      // It held one file and nothing else: that file killed it.
      for (const job of jobs) job.reject(new CKGError('WORKER_FAILED', `The parse worker died on this file: ${reason}`, { path: job.path }));
    } else {
      // Any of its unanswered files may be the one it died on: the answers it posted before it
      // died can reach this thread after the news of its death (a Web Worker's error event and
      // its messages are separate tasks), or never (they are dropped with the worker). No timer
      // can tell; re-parsing them one at a time can. So for its `ready`: a worker that died on
      // its first file may seem never to have started. Whether workers start here is told by
      // the quarantine worker, which takes its first file only once it runs.
      this.#suspects.push(...jobs);
    }
    if (slot.quarantine || this.#suspects.length > 0) this.#openQuarantine(index);
  }

  /** Gives the suspects to a fresh worker in slot `index`, unless another slot already has them. */
  #openQuarantine(index: number): void {
    if (this.#closing || this.#slots.some((s) => s?.quarantine === true)) return;
    if (this.#suspects.length === 0) {
      this.#releaseBacklog();
      return;
    }
    const first = this.#suspects[0]!;
    const slot = this.#slots[index] ?? this.#tryStart(index, first);
    if (!slot) {
      this.#suspects.shift();
      this.#openQuarantine(index);
      return;
    }
    slot.quarantine = true;
    if (slot.jobs.length === 0 && slot.ready) this.#nextSuspect(slot);
  }

  /** Sends the quarantine slot its next suspect, or returns it to normal work when none is left. */
  #nextSuspect(slot: Slot): void {
    while (slot.jobs.length === 0) {
      const next = this.#suspects.shift();
      if (!next) break;
      this.#send(slot, next); // a failed send rejects that file and leaves the slot empty
    }
    if (slot.jobs.length > 0) return;
    slot.quarantine = false;
    this.#releaseBacklog();
  }

  #releaseBacklog(): void {
    for (const job of this.#backlog.splice(0)) this.#dispatch(job);
  }
}
