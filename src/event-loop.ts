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
