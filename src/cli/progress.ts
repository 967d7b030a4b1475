// The CLI's progress bar: one line on stderr, redrawn in place, only when stderr is a terminal
// (piped output stays clean: nothing is printed).
import { graphPercent, type ProgressEvent } from '../indexer/report.js';

const WIDTH = 24;

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
}

/** A bar `fraction` (0-1) full. */
function bar(fraction: number): string {
  const filled = Math.round(fraction * WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}]`;
}

/**
 * One line of the bar for `event`, `elapsedMs` after the build started: phase, bar, files,
 * throughput and the time left (from bytes; unknown while the walk still finds files).
 */
export function progressLine(event: ProgressEvent, elapsedMs: number): string {
  if (event.phase === 'graph') {
    // Every file is parsed: the bar is the resolution pass's (no throughput to tell).
    const sites = event.sites !== undefined ? ` of ${event.sites.toLocaleString('en-US')} sites` : '';
    return `graph ${bar(Math.min(1, Math.max(0, event.graphDone ?? 0)))} ${graphPercent(event)}%${sites} resolved and written`;
  }
  const fraction = event.bytesTotal > 0 ? Math.min(1, event.bytesDone / event.bytesTotal) : event.filesTotal > 0 ? event.filesDone / event.filesTotal : 0;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? event.bytesDone / 1048576 / seconds : 0;
  const left = rate > 0 && !event.walking ? (event.bytesTotal - event.bytesDone) / 1048576 / rate : NaN;
  const files = `${event.filesDone}/${event.filesTotal}${event.walking ? '+' : ''} files`;
  return `${event.phase.padEnd(5)} ${bar(fraction)} ${files}, ${rate.toFixed(1)} MB/s, ETA ${event.walking ? '?' : duration(left)}`;
}

/** Where a bar is drawn: process.stderr, or a daemon client's stderr relayed. */
export interface BarStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** A progress listener drawing the bar on `stream` when it is a TTY; undefined otherwise. */
export function progressBar(stream: BarStream = process.stderr, now: () => number = Date.now): ((event: ProgressEvent) => void) | undefined {
  if (!stream.isTTY) return undefined;
  const started = now();
  let last = -Infinity;
  let drawn = false;
  return (event) => {
    const t = now();
    if (event.phase === 'done') {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
      return;
    }
    if (t - last < 100) return;
    last = t;
    drawn = true;
    stream.write(`\r\x1b[K${progressLine(event, t - started)}`);
  };
}
