import { CKGError } from '../errors.js';

interface Waiter {
  readonly kind: 'read' | 'write';
  readonly start: () => void;
  readonly fail: (error: CKGError) => void;
}

const closedError = (cause?: unknown): CKGError => new CKGError('CLOSED', 'The database is closed', {}, cause === undefined ? {} : { cause });

/**
 * Orders a database's queries and writes. A write (an update: one transaction on the same
 * sql.js connection the queries read) runs alone: queries that arrive meanwhile wait for it to
 * end, so they see the index as it was before or after the update, never half of it. Queries
 * run together; a waiting write goes before queries that arrive after it (no starvation).
 * After {@link ReadWriteGate.close}, waiting and new calls reject with `CLOSED`, and a call
 * that was running when it closed rejects with `CLOSED` whatever it failed with (sql.js
 * throws bare strings such as "Statement closed" at a closed database).
 *
 * @example
 * ```ts
 * const gate = new ReadWriteGate();
 * const rows = await gate.read(() => store.queryClasses('Widget'));
 * const report = await gate.write(() => syncIndex(options));
 * ```
 */
export class ReadWriteGate {
  #readers = 0;
  #writing = false;
  #closed = false;
  readonly #queue: Waiter[] = [];

  /** True while a write runs. */
  get writing(): boolean {
    return this.#writing;
  }

  /** Runs `fn` alongside other reads, after any write that runs or waits. */
  read<T>(fn: () => Promise<T>): Promise<T> {
    return this.#run('read', fn);
  }

  /** Runs `fn` alone: after the running reads and writes, before the reads that arrive later. */
  write<T>(fn: () => Promise<T>): Promise<T> {
    return this.#run('write', fn);
  }

  /** Rejects waiting calls with `CLOSED`; running ones reject with `CLOSED` when they end. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiter of this.#queue.splice(0)) waiter.fail(closedError());
  }

  async #run<T>(kind: 'read' | 'write', fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw closedError();
    if (this.#mayStart(kind)) {
      if (kind === 'write') this.#writing = true;
      else this.#readers++;
    } else {
      // #release takes the gate for this call before it resumes it.
      await new Promise<void>((start, fail) => this.#queue.push({ kind, start, fail }));
    }
    try {
      const result = await fn();
      if (this.#closed) throw closedError();
      return result;
    } catch (error) {
      if (this.#closed && !(error instanceof CKGError && error.code === 'CLOSED')) throw closedError(error);
      throw error;
    } finally {
      if (kind === 'write') this.#writing = false;
      else this.#readers--;
      this.#release();
    }
  }

  #mayStart(kind: 'read' | 'write'): boolean {
    if (this.#writing || this.#queue.length > 0) return false;
    return kind === 'read' || this.#readers === 0;
  }

  #release(): void {
    if (this.#closed) return;
    while (this.#queue.length > 0 && !this.#writing) {
      const next = this.#queue[0]!;
      if (next.kind === 'write' && this.#readers > 0) return;
      this.#queue.shift();
      // Mark the start here, synchronously: a call arriving before the waiter's continuation
      // runs must see the gate taken.
      if (next.kind === 'write') {
        this.#writing = true;
        next.start();
        return;
      }
      this.#readers++;
      next.start();
    }
  }
}
