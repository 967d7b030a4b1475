/**
 * One turn of the event loop without a timer's 4 ms clamp: setImmediate in Node (it runs after
 * the poll phase, so I/O and worker messages already queued are delivered first), a message on a
 * MessageChannel in browsers (their `setTimeout(0)` waits 4 ms once nested).
 *
 * @example
 * ```ts
 * if (performance.now() - lastYield > 8) await yieldToEventLoop();
 * ```
 */
export function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  if (immediate) return new Promise((resolve) => immediate(resolve));
  if (typeof MessageChannel === 'function') {
    return new Promise((resolve) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        port1.close();
        resolve();
      };
      port2.postMessage(undefined);
    });
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Gives the event loop a turn when more than `budgetMs` passed since the last one: long runs of
 * synchronous work on the calling thread (parsing in-thread, a walk over a synchronous file
 * system, writing rows) then still let timers, I/O and an AbortSignal's abort run at least
 * every `budgetMs` plus one unit of work.
 *
 * @example
 * ```ts
 * const turns = new EventLoopTurns();
 * for (const file of files) {
 *   await turns.maybeYield();
 *   parse(file);
 * }
 * ```
 */
export class EventLoopTurns {
  #last: number;

  constructor(
    readonly budgetMs = 16,
    private readonly now: () => number = () => performance.now(),
    private readonly turn: () => Promise<void> = yieldToEventLoop,
  ) {
    this.#last = now();
  }

  /** Yields if the budget is spent; resolves at once (no turn) otherwise. */
  async maybeYield(): Promise<void> {
    if (this.now() - this.#last <= this.budgetMs) return;
    await this.turn();
    this.#last = this.now();
  }
}
