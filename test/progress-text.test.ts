// How progress reads: the CLI's bar (files and throughput while parsing, the resolution pass's
// share once every file is parsed: a kernel build spends tens of seconds there, files all done)
// and the index status the tool adapters give a model.
import { describe, expect, it } from 'vitest';
import { formatStatus } from '../src/adapters/index.js';
import { progressBar, progressLine } from '../src/cli/progress.js';
import type { ProgressEvent } from '../src/index.js';

const parsed = { filesDone: 10, filesTotal: 10, bytesDone: 4 * 1048576, bytesTotal: 4 * 1048576 };

describe('the CLI progress bar', () => {
  it('shows files, throughput and time left while parsing', () => {
    const line = progressLine({ phase: 'parse', filesDone: 5, filesTotal: 10, bytesDone: 2 * 1048576, bytesTotal: 4 * 1048576 }, 1000);
    expect(line).toBe('parse [############............] 5/10 files, 2.0 MB/s, ETA 1 s');
  });

  it('shows the share of the code graph resolved and written in the graph phase', () => {
    expect(progressLine({ phase: 'graph', ...parsed, graphDone: 0.5, sites: 5754537 }, 60_000)).toBe('graph [############............] 50% of 5,754,537 sites resolved and written');
    expect(progressLine({ phase: 'graph', ...parsed, graphDone: 1 }, 60_000)).toBe('graph [########################] 100% resolved and written');
  });

  it('redraws the graph phase as it moves, and clears the line when done', () => {
    const written: string[] = [];
    let now = 0;
    const bar = progressBar({ isTTY: true, write: (text) => written.push(text) }, () => now)!;
    const events: ProgressEvent[] = [
      { phase: 'graph', ...parsed, graphDone: 0 },
      { phase: 'graph', ...parsed, graphDone: 0.25 },
      { phase: 'graph', ...parsed, graphDone: 0.75 },
      { phase: 'done', ...parsed },
    ];
    for (const e of events) {
      now += 150;
      bar(e);
    }
    expect(written).toEqual([
      '\r\x1b[Kgraph [........................] 0% resolved and written',
      '\r\x1b[Kgraph [######..................] 25% resolved and written',
      '\r\x1b[Kgraph [##################......] 75% resolved and written',
      '\r\x1b[K',
    ]);
  });

  it('tells a model how far a build is, and that it links the code graph once every file is parsed', () => {
    const base = { root: '/r', state: 'indexing', updating: true } as const;
    expect(formatStatus({ ...base, percent: 40, progress: { phase: 'parse', filesDone: 4, filesTotal: 10, bytesDone: 1, bytesTotal: 2 } })).toBe('/r: indexing; build running, 40% done.');
    expect(formatStatus({ ...base, percent: 100, progress: { phase: 'graph', ...parsed, graphDone: 0.375, sites: 900 } })).toBe(
      '/r: indexing; build running, 100% done, linking the code graph (37% of its edges resolved).',
    );
  });
});
