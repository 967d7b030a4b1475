import type { ProgressEvent } from '../indexer/report.js';
import { CKGError } from '../errors.js';

/**
 * One build or update of a codebase's index that several tool calls may wait for. Each waiter
 * hears its progress; the work is aborted when every waiter has given up (its signal aborted),
 * so a cancelled call never leaves a build running that nobody asked for. A caller that stops
 * waiting without aborting (a server that answers "indexing, N% done" meanwhile) keeps it going.
 */
export class IndexOperation<T> {
  readonly kind: 'build' | 'update';
  readonly startedAt: number;
  readonly promise: Promise<T>;
  /** The last progress event, if any came. */
  progress: ProgressEvent | undefined;
  #settled = false;
  #waiters = 0;
  readonly #listeners = new Set<(event: ProgressEvent) => void>();
  readonly #controller = new AbortController();

  constructor(kind: 'build' | 'update', start: (hooks: { onProgress: (event: ProgressEvent) => void; signal: AbortSignal }) => Promise<T>, now: number) {
    this.kind = kind;
    this.startedAt = now;
    this.promise = start({ onProgress: (event) => this.#emit(event), signal: this.#controller.signal });
    this.promise.then(
      () => (this.#settled = true),
      () => (this.#settled = true),
    );
  }

  get running(): boolean {
    return !this.#settled;
  }

  /** Waits for the result, hearing progress; rejects with `ABORTED` when `signal` aborts first. */
  async wait(options: { readonly signal?: AbortSignal | undefined; readonly onProgress?: ((event: ProgressEvent) => void) | undefined } = {}): Promise<T> {
    const { signal, onProgress } = options;
    if (signal?.aborted) throw abortedError(signal);
    this.#waiters++;
    if (onProgress) this.#listeners.add(onProgress);
    let onAbort: (() => void) | undefined;
    try {
      if (!signal) return await this.promise;
      return await Promise.race([
        this.promise,
        new Promise<never>((_, reject) => {
          onAbort = () => reject(abortedError(signal));
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (onProgress) this.#listeners.delete(onProgress);
      this.#waiters--;
      if (this.#waiters === 0 && signal?.aborted && !this.#settled) this.#controller.abort(signal.reason);
    }
  }

  /** Aborts the work whoever waits (the tool is closing). */
  abort(reason?: unknown): void {
    if (!this.#settled) this.#controller.abort(reason);
  }

  #emit(event: ProgressEvent): void {
    this.progress = event;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's failure (a closed transport) must not break the build
      }
    }
  }
}

function abortedError(signal: AbortSignal): CKGError {
  return new CKGError('ABORTED', 'The operation was aborted', { reason: String(signal.reason) });
}
