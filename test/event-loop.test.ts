// Work on the calling thread (in-thread parsing, walks, row writes) gives the event loop a turn
// every 16 ms: timers and an AbortSignal keep working during a build without a worker pool.
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, CKGTool, type FileSystem } from '../src/index.js';
import { EventLoopTurns } from '../src/event-loop.js';
import { Volume } from 'memfs';

function pythonModule(n: number): string {
  const lines = [`"""module ${n}"""`];
  for (let k = 0; k < 40; k++) lines.push(`def f_${n}_${k}(a, b=${k}):`, `    return [a * b for _ in range(${k})]`, '', `class C_${n}_${k}:`, `    def m(self): return ${k}`, '');
  return lines.join('\n');
}
const tree = (): FileSystem => Volume.fromJSON(Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`/r/pkg${i % 6}/m${i}.py`, pythonModule(i)]))) as unknown as FileSystem;

/** Modules whose functions call one another: 300 × 87 call sites, a resolution pass far longer than one 16 ms turn. */
function callingTree(): FileSystem {
  const module = (n: number): string => {
    const lines = [`# calls ${n}`, 'def f_0(a):', '    return a', ''];
    for (let k = 1; k < 30; k++) lines.push(`def f_${k}(a):`, `    return f_${k - 1}(a) + len(a) + f_${k >> 1}(a)`, '');
    return lines.join('\n');
  };
  return Volume.fromJSON(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`/g/pkg${i % 6}/m${i}.py`, module(i)]))) as unknown as FileSystem;
}

/** What an open that should fail rejects with (undefined when it built an index, which is closed). */
async function openFailure(options: Parameters<typeof CKGDatabase.open>[0]): Promise<unknown> {
  return CKGDatabase.open(options).then(
    (db) => {
      db.close();
      return undefined;
    },
    (e: unknown) => e,
  );
}

describe('event-loop turns', () => {
  it('yield only once the budget is spent', async () => {
    let clock = 0;
    let turns = 0;
    const t = new EventLoopTurns(16, () => clock, async () => void turns++);
    await t.maybeYield();
    clock = 16;
    await t.maybeYield();
    expect(turns).toBe(0);
    clock = 17;
    await t.maybeYield();
    await t.maybeYield(); // the budget starts again after a turn
    expect(turns).toBe(1);
    clock = 40;
    await t.maybeYield();
    expect(turns).toBe(2);
  });

  it('an in-thread build honours an abort requested by a timer while it parses', async () => {
    const controller = new AbortController();
    let scheduled = false;
    let afterAbort = 0;
    let total = 0;
    const error = await openFailure({
      codebasePath: '/r',
      fs: tree(),
      signal: controller.signal,
      onProgress: (e) => {
        total = e.filesTotal;
        if (controller.signal.aborted) afterAbort++;
        // Once the walk is over, only parsing and writing remain: a timer must still fire.
        if (!scheduled && e.phase === 'parse' && e.walking !== true && e.filesDone > 0) {
          scheduled = true;
          setTimeout(() => controller.abort(new Error('user stopped it')), 0);
        }
      },
    });
    expect(scheduled).toBe(true);
    expect(error).toBeInstanceOf(CKGError);
    expect((error as CKGError).code).toBe('ABORTED');
    expect(total).toBe(120);
    expect(afterAbort).toBeLessThanOrEqual(1);
  });

  it('a build\'s graph resolution pass lets timers run, reports its progress and honours an abort', async () => {
    // Timers that fire while the pass runs: between its first progress event and its last.
    let ticks = 0;
    let resolving = false;
    const shares: number[] = [];
    const tick = (): void => {
      if (!resolving) return;
      ticks++;
      setTimeout(tick, 0);
    };
    const db = await CKGDatabase.open({
      codebasePath: '/g',
      fs: callingTree(),
      onProgress: (e) => {
        if (e.phase !== 'graph') return;
        shares.push(e.graphDone!);
        if (e.graphDone === 0) {
          resolving = true;
          setTimeout(tick, 0);
        }
        if (e.graphDone === 1) resolving = false;
      },
    });
    try {
      expect((await db.edges({ kind: 'calls' })).length).toBe(300 * 29 * 3);
      expect(shares[0]).toBe(0);
      expect(shares.at(-1)).toBe(1);
      expect(shares.length).toBeGreaterThan(3);
      expect(ticks).toBeGreaterThan(0);
    } finally {
      db.close();
    }

    // An abort requested by a timer while the pass runs stops the build: no index.
    const controller = new AbortController();
    let afterAbort = 0;
    const error = await openFailure({
      codebasePath: '/g',
      fs: callingTree(),
      signal: controller.signal,
      onProgress: (e) => {
        if (controller.signal.aborted) afterAbort++;
        if (e.phase === 'graph' && e.graphDone === 0) setTimeout(() => controller.abort(new Error('user stopped it')), 0);
      },
    });
    expect(error).toBeInstanceOf(CKGError);
    expect((error as CKGError).code).toBe('ABORTED');
    expect(afterAbort).toBeLessThanOrEqual(1);
  });

  it('an update that rewrites every file lets timers run while it resolves their sites, and an abort there leaves the index as it was', async () => {
    const fs = callingTree();
    const db = await CKGDatabase.open({ codebasePath: '/g', fs });
    try {
      const before = await db.edges({ kind: 'calls' });
      const rewrite = (tag: string): void => {
        for (let i = 0; i < 300; i++) {
          const path = `/g/pkg${i % 6}/m${i}.py`;
          fs.writeFileSync(path, `${String(fs.readFileSync(path, 'utf8')).replace(/^# [^\n]*/, `# ${tag}`)}`);
        }
      };
      // A timer scheduled when the pass starts fires before it ends.
      rewrite('first edit');
      let fired = false;
      let ended = false;
      let firedBeforeEnd = false;
      await db.update({
        onProgress: (e) => {
          if (e.phase === 'graph' && e.graphDone === 0) setTimeout(() => ((fired = true), (firedBeforeEnd = !ended)), 0);
          if (e.phase === 'graph' && e.graphDone === 1) ended = true;
        },
      });
      expect(fired).toBe(true);
      expect(firedBeforeEnd).toBe(true);
      expect(await db.edges({ kind: 'calls' })).toEqual(before);

      // Aborted by a timer during the pass: nothing of the update stays.
      rewrite('second edit');
      const controller = new AbortController();
      const error = await db
        .update({
          signal: controller.signal,
          onProgress: (e) => {
            if (e.phase === 'graph' && e.graphDone === 0) setTimeout(() => controller.abort(new Error('stop')), 0);
          },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((error as CKGError).code).toBe('ABORTED');
      expect(await db.edges({ kind: 'calls' })).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('the tool without a pool lets timers run during its first build', async () => {
    const tool = new CKGTool({ fs: tree() });
    let ticks = 0;
    let done = false;
    const tick = (): void => {
      ticks++;
      if (!done) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    try {
      const result = await tool.execute({ command: 'search_class', path: '/r', identifier: 'C_5_5', print_body: false });
      expect(result).toEqual({ output: 'Found 1 class named C_5_5:\n1. /r/pkg5/m5.py:35-36\nMethods:\n- m(self)\n' });
    } finally {
      done = true;
      await tool.close();
    }
    // The build parsed 120 files; the timer ran again and again meanwhile, not only at the end.
    expect(ticks).toBeGreaterThan(3);
  });
});
