import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, createDefaultRegistry, type LanguageDefinition, type ProgressEvent } from '../src/index.js';
import { createWebWorkerPool, type WorkerLike } from '../src/browser/web-worker-pool.js';
import { createWorkerPool, type ParsePool, type WorkerPoolOptions } from '../src/node/index.js';
import { LazyWorkerPool } from '../src/node/lazy-worker-pool.js';
import { contentHash, looksBinary, looksMinified } from '../src/indexer/decode.js';
import { createWorkerBody } from '../src/parser/worker-body.js';
import { ThreadPoolProcessor, type SpawnWorker, type WorkerEvents } from '../src/parser/thread-pool.js';
import { graphLines } from './helpers/graph-dump.js';
import { toWire, type WorkerRequest, type WorkerResponse } from '../src/parser/worker-protocol.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';

const workerScript = (name: string): URL => new URL(`./helpers/workers/${name}`, import.meta.url);
/** A pool whose workers run the TypeScript sources (not a stale dist/ build). */
const sourcePool = (options: WorkerPoolOptions = {}): ParsePool =>
  createWorkerPool({ size: 2, workerUrl: workerScript('source-worker.mjs'), ...options });

/** A Python module with `n`-dependent names, classes, methods and nested functions. */
function pythonModule(n: number): string {
  const lines = [`"""module ${n}"""`, 'import os', ''];
  lines.push(`def top_${n}(a, b=${n}):`, '    def inner(x):', '        return x * 2', '    return inner(a) + b', '');
  lines.push(`class Model${n}(object):`, `    size = ${n}`, '', '    def __init__(self, name):', '        self.name = name', '');
  for (let m = 0; m < (n % 4) + 1; m++) lines.push(`    def method_${m}(self) -> int:`, `        return ${m}`, '');
  lines.push('@staticmethod', `def decorated_${n}():`, '    pass', '');
  return lines.join('\n');
}

/** A toy language the pool cannot send to a worker: its visitor is a caller's function. */
const toy: LanguageDefinition = {
  id: 'toy',
  extensions: ['.toy'],
  grammar: 'tree-sitter-python.wasm',
  version: 'toy-1',
  visitor: (root, sink) => {
    for (const node of root.descendantsOfType('function_definition')) {
      const name = node.childForFieldName('name')?.text;
      if (name) sink.addFunction(node, { name: `toy_${name}` });
    }
  },
};

function corpus(): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  for (let i = 0; i < 36; i++) files[`pkg${i % 5}/mod_${String(i).padStart(2, '0')}.py`] = pythonModule(i);
  files['pkg0/broken.py'] = 'def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass After:\n    def m(self): pass\n';
  files['scripts/a.toy'] = 'def one():\n    pass\n\ndef two():\n    pass\n';
  // Non-ASCII before and inside definitions: bodies are cut by UTF-16 offsets on the main thread.
  files['pkg4/unicode.py'] = '"""Ünïcödé — 🐍 first"""\n\ndef grüße(name="🌍"):\n    return f"¡Hola {name}! ✓"\n\nclass Café:\n    def añadir(self): return "日本語"\n';
  files['README.md'] = '# not source\n';
  return files;
}

/**
 * Every table but `meta`, every row in rowid order: two indexes are the same iff these are.
 * `withIds: false` drops the row-id columns (they differ after deletes and appends).
 */
async function dump(db: CKGDatabase, withIds = true): Promise<Record<string, unknown[]>> {
  const SQL = await initSqlJs();
  const raw = new SQL.Database(db.export());
  try {
    // Without ids, the graph tables (whose rows point at each other by id) are compared by name.
    const idLinked = ['symbols', 'edges', 'bindings'];
    const tables = raw
      .exec("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT IN ('meta', 'sqlite_sequence') ORDER BY name")[0]!
      .values.map((r) => String(r[0]))
      .filter((t) => withIds || !idLinked.includes(t));
    const out: Record<string, unknown[]> = withIds ? {} : { graph: graphLines(raw) };
    for (const t of tables) {
      const result = raw.exec(`SELECT * FROM "${t}" ORDER BY ${t === 'edge_list' || t === 'functions' || t === 'classes' ? 'id' : 'rowid'}`)[0];
      const keep = (result?.columns ?? []).map((c, i) => [c, i] as const).filter(([c]) => withIds || !['id', 'file_id', 'from_id', 'to_id'].includes(c));
      const rows = (result?.values ?? []).map((r) => JSON.stringify(keep.map(([c, i]) => [c, r[i]])));
      out[t] = withIds ? rows : rows.sort();
    }
    return out;
  } finally {
    raw.close();
  }
}

describe('worker pool (worker_threads)', () => {
  let pool: ParsePool;
  beforeAll(() => {
    pool = sourcePool();
  });
  afterAll(async () => {
    await pool.close();
  });

  it('builds exactly the index that in-thread parsing builds, custom languages included', async () => {
    const tree = makeTree('memfs', corpus());
    const languages = createDefaultRegistry().register(toy);
    // 'stored' keeps every body text in the database: the dumps compare them too.
    const local = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, languages, bodies: 'stored', processor: 'this-thread' });
    const pooled = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, languages, bodies: 'stored', processor: pool });
    try {
      const expected = await dump(local);
      expect(expected['functions']!.length).toBeGreaterThan(150);
      expect(await dump(pooled)).toEqual(expected);
      // `workers` is reported for the default processors only ('this-thread': 0).
      const { durationMs: _a, workers: _w, ...localReport } = local.report!;
      const { durationMs: _b, ...pooledReport } = pooled.report!;
      expect(pooledReport).toEqual(localReport);
      expect(pooledReport.filesWithSyntaxErrors).toBe(1);
      // The toy file went through the caller's visitor (in this thread).
      expect((await pooled.queryFunction('toy_two')).map((f) => f.filePath)).toEqual([`${tree.root}/scripts/a.toy`]);
      const [greet] = await pooled.queryFunction('grüße');
      expect(greet?.body).toBe('def grüße(name="🌍"):\n    return f"¡Hola {name}! ✓"');
      const [cafe] = await pooled.queryClass('Café');
      expect(cafe?.body).toBe('class Café:\n    def añadir(self): return "日本語"');
      expect((await pooled.queryFunction('method_3', 'class_method')).map((f) => f.parentClass).sort()).toEqual(['Model11', 'Model15', 'Model19', 'Model23', 'Model27', 'Model3', 'Model31', 'Model35', 'Model7']);
    } finally {
      local.close();
      pooled.close();
    }
  });

  it('updates through the pool to the same index as a fresh in-thread build', async () => {
    const tree = makeTree('memfs', corpus());
    const pooled = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
    try {
      tree.write('pkg1/mod_01.py', `${pythonModule(1)}\ndef added_later():\n    pass\n`);
      tree.remove('pkg2/mod_02.py');
      tree.write('pkg9/new.py', 'class Fresh:\n    def go(self): pass\n');
      const report = await pooled.update();
      expect(report.filesParsed).toBe(2);
      expect(report.filesRemoved).toBe(1);
      const fresh = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
      try {
        // Row ids differ after an update (rows were deleted and appended); contents must not.
        expect(await dump(pooled, false)).toEqual(await dump(fresh, false));
        expect(await pooled.queryFunction('added_later')).toHaveLength(1);
      } finally {
        fresh.close();
      }
    } finally {
      pooled.close();
    }
  });

  it('reports large, binary and minified files as skipped, with the pool as without', async () => {
    const files: Record<string, string | Uint8Array> = {
      'ok.py': 'def fine():\n    pass\n',
      'big.py': `${'x = 1\n'.repeat(800)}def hidden_in_big():\n    pass\n`,
      'blob.py': new Uint8Array([100, 101, 102, 32, 102, 40, 41, 58, 0, 1, 2, 3, 10]),
      // One 4.4 kB line: over the 4 kB minimum and the 500-character average line of a bundle.
      'bundle.py': `def minified_fn(): return [${'1,'.repeat(2200)}1]\n`,
    };
    const tree = makeTree('memfs', files);
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool, maxFileSize: 4800 });
    try {
      const skipped = Object.fromEntries(db.report!.skipped.map((s) => [s.path.slice(tree.root.length + 1), s.reason]));
      expect(skipped).toEqual({ 'big.py': 'too-large', 'blob.py': 'binary', 'bundle.py': 'minified' });
      expect(db.stats()).toEqual({ files: 1, functions: 1, classes: 0, symbols: 2, edges: 0 });
    } finally {
      db.close();
    }
    const db2 = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
    try {
      // With the default 1 MiB cap, big.py is indexed.
      const skipped = Object.fromEntries(db2.report!.skipped.map((s) => [s.path.slice(tree.root.length + 1), s.reason]));
      expect(skipped).toEqual({ 'blob.py': 'binary', 'bundle.py': 'minified' });
      expect(await db2.queryFunction('hidden_in_big')).toHaveLength(1);
      expect(await db2.queryFunction('minified_fn')).toHaveLength(0);
    } finally {
      db2.close();
    }
  });

  it('emits monotonic progress that ends with done', async () => {
    const tree = makeTree('memfs', corpus());
    const events: ProgressEvent[] = [];
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool, onProgress: (e) => events.push(e) });
    try {
      const phases = events.map((e) => e.phase);
      expect(phases[0]).toBe('scan');
      expect(phases.at(-1)).toBe('done');
      expect(phases.filter((p) => p === 'done')).toHaveLength(1);
      // Phases never go back: scan < parse < graph < write < done.
      const order = { scan: 0, parse: 1, graph: 2, write: 3, done: 4 };
      for (let i = 1; i < events.length; i++) {
        expect(order[events[i]!.phase]).toBeGreaterThanOrEqual(order[events[i - 1]!.phase]);
        if (events[i - 1]!.phase !== 'scan') {
          expect(events[i]!.filesDone).toBeGreaterThanOrEqual(events[i - 1]!.filesDone);
          expect(events[i]!.bytesDone).toBeGreaterThanOrEqual(events[i - 1]!.bytesDone);
        }
      }
      // The graph's resolution pass reports its share done, from 0 to 1, never going back.
      const graph = events.filter((e) => e.phase === 'graph').map((e) => e.graphDone!);
      expect(graph[0]).toBe(0);
      expect(graph.at(-1)).toBe(1);
      for (let i = 1; i < graph.length; i++) expect(graph[i]!).toBeGreaterThanOrEqual(graph[i - 1]!);
      const last = events.at(-1)!;
      expect(last.filesDone).toBe(last.filesTotal);
      expect(last.bytesDone).toBe(last.bytesTotal);
      expect(last.filesTotal).toBe(Object.keys(corpus()).filter((p) => p.endsWith('.py')).length);
      expect(events.filter((e) => e.phase === 'parse' && e.currentFile !== undefined)).toHaveLength(last.filesTotal);
    } finally {
      db.close();
    }
  });

  it('defaults to one worker per core and a queue of 8 per worker', async () => {
    const p = createWorkerPool();
    expect(p.size).toBe(availableParallelism());
    expect(p.concurrency).toBe(p.size * 8);
    await p.close();
    expect(() => createWorkerPool({ size: 0 })).toThrow(CKGError);
  });
});

describe('worker pool failures and lifetime', () => {
  it('reports a file whose worker died as skipped, re-sends the files queued behind it, and keeps working', async () => {
    const files = corpus();
    files['pkg3/poison.py'] = 'def poison():\n    pass  # CRASH_THE_WORKER\n';
    const tree = makeTree('memfs', files);
    const pool = createWorkerPool({ size: 2, pipeline: 8, workerUrl: workerScript('crashing-worker.mjs') });
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
      try {
        const report = db.report!;
        expect(report.skipped).toHaveLength(1);
        expect(report.skipped[0]).toMatchObject({ path: `${tree.root}/pkg3/poison.py`, reason: 'parse-failed' });
        expect(report.skipped[0]!.detail).toMatch(/died.*exit code 7/);
        const reference = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, exclude: ['pkg3/poison.py'] });
        try {
          expect(await dump(db)).toEqual(await dump(reference));
        } finally {
          reference.close();
        }
      } finally {
        db.close();
      }
      // The pool replaced the dead worker: a second build works.
      tree.remove('pkg3/poison.py');
      const again = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
      expect(again.report!.skipped).toEqual([]);
      again.close();
    } finally {
      await pool.close();
    }
  });

  it('fails the build (no hang, nothing indexed) when workers cannot start', async () => {
    const tree = makeTree('memfs', corpus());
    const pool = createWorkerPool({ size: 2, workerUrl: workerScript('broken-worker.mjs') });
    try {
      const error = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CKGError);
      expect((error as CKGError).code).toBe('WASM_LOAD_FAILED');
      expect((error as CKGError).message).toMatch(/broken on purpose/);
    } finally {
      await pool.close();
    }
  });

  it('close() is idempotent and later work rejects with CLOSED', async () => {
    const tree = makeTree('memfs', corpus());
    const pool = sourcePool();
    const python = createDefaultRegistry().get('python')!;
    const rows = await pool.process(python, 'def f():\n    pass\n', '/x.py');
    expect(rows.functions.map((f) => f.name)).toEqual(['f']);
    const first = pool.close();
    const second = pool.close();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await pool.close();
    expect(pool.closed).toBe(true);
    await expect(pool.process(python, 'def g(): pass\n', '/y.py')).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool })).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('releaseIdle stops idle workers, keeps a busy one, and later files start workers again', async () => {
    const pool = sourcePool({ size: 2 });
    const python = createDefaultRegistry().get('python')!;
    try {
      await Promise.all([pool.process(python, pythonModule(1), '/a.py'), pool.process(python, pythonModule(2), '/b.py')]);
      expect(pool.started).toBe(2);
      await pool.releaseIdle();
      expect(pool.started).toBe(0);
      // A file in flight keeps its worker: the answer still comes.
      const busy = pool.process(python, pythonModule(3), '/c.py');
      await pool.releaseIdle();
      expect(pool.started).toBe(1);
      expect((await busy).classes.map((c) => c.name)).toEqual(['Model3']);
      const again = await pool.process(python, 'def g():\n    pass\n', '/d.py');
      expect(again.functions.map((f) => f.name)).toEqual(['g']);
      expect(pool.started).toBeGreaterThanOrEqual(1);
    } finally {
      await pool.close();
    }
    await pool.releaseIdle(); // closed: nothing to do, no error
  });

  it('a lazy pool passes releaseIdle on once started, and starts nothing for it before', async () => {
    const lazy = new LazyWorkerPool(1);
    const python = createDefaultRegistry().get('python')!;
    try {
      await lazy.releaseIdle();
      expect(lazy.started).toBe(false);
      expect((await lazy.process(python, 'def f():\n    pass\n', '/a.py')).functions.map((f) => f.name)).toEqual(['f']);
      await lazy.releaseIdle();
      expect((await lazy.process(python, 'def g():\n    pass\n', '/b.py')).functions.map((f) => f.name)).toEqual(['g']);
    } finally {
      await lazy.close();
    }
  });

  it('rejects files still pending when closed, instead of leaving them hanging', async () => {
    const pool = sourcePool({ size: 1 });
    const python = createDefaultRegistry().get('python')!;
    const pending = Array.from({ length: 6 }, (_, i) => pool.process(python, pythonModule(i), `/p${i}.py`));
    const settled = Promise.allSettled(pending);
    await pool.close();
    const results = await settled;
    expect(results.every((r) => r.status === 'rejected' && (r.reason as CKGError).code === 'CLOSED')).toBe(true);
  });
});

describe('pool scheduling (in-thread stand-in workers running the real body)', () => {
  /** Starts "workers" that run the worker body in this thread and count what they were sent. */
  const counting = (): { spawn: SpawnWorker; sent: number[] } => {
    const sent: number[] = [];
    const spawn: SpawnWorker = (events) => {
      const index = sent.push(0) - 1;
      const handle = createWorkerBody((m) => queueMicrotask(() => events.message(m)));
      queueMicrotask(() => events.message({ type: 'ready' }));
      return {
        post: (m) => {
          if (m.type === 'parse') sent[index]!++;
          handle(m);
        },
        terminate: () => undefined,
      };
    };
    return { spawn, sent };
  };

  it('spreads files over the workers, least busy first, and keeps custom languages in this thread', async () => {
    const { spawn, sent } = counting();
    const pool = new ThreadPoolProcessor(spawn, { size: 3, defaultSize: 1 });
    try {
      expect(sent).toEqual([0, 0, 0]); // all started up front
      const python = createDefaultRegistry().get('python')!;
      const results = await Promise.all([
        ...Array.from({ length: 9 }, (_, i) => pool.process(python, pythonModule(i), `/m${i}.py`)),
        pool.process(toy, 'def local_only():\n    pass\n', '/x.toy'),
      ]);
      expect(sent).toEqual([3, 3, 3]);
      expect(results.at(-1)!.functions.map((f) => f.name)).toEqual(['toy_local_only']);
      // Bodies are cut back from the sent text.
      expect(results[2]!.functions.find((f) => f.name === 'top_2')!.body).toBe('def top_2(a, b=2):\n    def inner(x):\n        return x * 2\n    return inner(a) + b');
      // A worker that is still busy gets nothing more while another is idle.
      const slow = pool.process(python, pythonModule(40), '/slow.py');
      await pool.process(python, pythonModule(41), '/fast.py');
      await slow;
      expect(sent.reduce((a, b) => a + b, 0)).toBe(11);
      expect(Math.max(...sent)).toBe(4);
    } finally {
      await pool.close();
    }
  });
});

describe('a worker that dies', () => {
  const python = createDefaultRegistry().get('python')!;

  /**
   * DOM-Worker-shaped stand-ins running the real worker body in this thread. A stand-in "dies"
   * when it reaches a file holding `POISON`: it fires its error event first and only then
   * delivers the answers it had posted before (a Web Worker's error event and its messages are
   * separate tasks, so a browser may deliver them in this order). Answers otherwise arrive a
   * macrotask after they are posted, so the answers of the files before the poisoned one are
   * still undelivered when it dies: the ordering that made the pool blame an innocent file.
   */
  const errorBeforeAnswers = (): { createWorker: () => WorkerLike; parsed: string[]; deaths: () => number } => {
    const parsed: string[] = [];
    let deaths = 0;
    const createWorker = (): WorkerLike => {
      const listeners = { message: [] as ((event: Event) => void)[], error: [] as ((event: Event) => void)[] };
      let undelivered: WorkerResponse[] = [];
      let terminated = false;
      const deliver = (): void => {
        const batch = undelivered;
        undelivered = [];
        for (const data of batch) for (const l of listeners.message) l({ data } as MessageEvent);
      };
      let answered: (() => void) | undefined;
      const handle = createWorkerBody((m) => {
        if (terminated) return;
        undelivered.push(m);
        setTimeout(deliver, 0);
        answered?.();
      });
      let chain = Promise.resolve();
      queueMicrotask(() => {
        for (const l of listeners.message) l({ data: { type: 'ready' } } as MessageEvent);
      });
      return {
        postMessage: (message) => {
          const m = message as WorkerRequest;
          if (m.type !== 'parse') return handle(m);
          chain = chain.then(async () => {
            if (terminated) return;
            if (m.source.includes('POISON')) {
              deaths++;
              for (const l of listeners.error) l({ message: 'poisoned' } as ErrorEvent);
              deliver(); // the answers posted before the death come after its error event
              terminated = true;
              return;
            }
            parsed.push(m.path!);
            await new Promise<void>((resolve) => {
              answered = resolve;
              handle(m);
            });
          });
        },
        addEventListener: (type, listener) => {
          if (type === 'message' || type === 'error') listeners[type].push(listener);
        },
        terminate: () => {
          terminated = true;
        },
      };
    };
    return { createWorker, parsed, deaths: () => deaths };
  };

  it('blames exactly the file it died on, even when its error event comes before the answers it posted earlier', async () => {
    const { createWorker, deaths } = errorBeforeAnswers();
    const pool = createWebWorkerPool({ size: 1, pipeline: 8, createWorker });
    try {
      const names = ['before_a', 'before_b', 'poisoned', 'after_c', 'after_d'];
      const settled = await Promise.allSettled(
        names.map((name) => pool.process(python, `def ${name}():\n    pass${name === 'poisoned' ? '  # POISON' : ''}\n`, `/${name}.py`)),
      );
      const outcome = settled.map((r) => (r.status === 'fulfilled' ? r.value.functions.map((f) => f.name).join() : (r.reason as CKGError).code));
      expect(outcome).toEqual(['before_a', 'before_b', 'WORKER_FAILED', 'after_c', 'after_d']);
      expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ data: { path: '/poisoned.py' }, message: /died on this file: error: poisoned/ });
      // The first worker died on it, and the worker that re-parsed it alone died too.
      expect(deaths()).toBe(2);
      // The pool works on afterwards.
      expect((await pool.process(python, 'def later(): pass\n', '/later.py')).functions.map((f) => f.name)).toEqual(['later']);
    } finally {
      await pool.close();
    }
  });

  it('skips only the poisoned file of a build, however the events of its death are ordered', async () => {
    const files = corpus();
    files['pkg4/poison.py'] = 'def p():\n    pass  # POISON\n';
    const tree = makeTree('memfs', files);
    const { createWorker } = errorBeforeAnswers();
    const pool = createWebWorkerPool({ size: 2, createWorker });
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
      const reference = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, exclude: ['pkg4/poison.py'] });
      try {
        expect(db.report!.skipped.map((s) => [s.path.slice(tree.root.length + 1), s.reason])).toEqual([['pkg4/poison.py', 'parse-failed']]);
        expect(await dump(db, false)).toEqual(await dump(reference, false));
      } finally {
        db.close();
        reference.close();
      }
    } finally {
      await pool.close();
    }
  });

  it('does not blame a file whose answer was queued before its death, even when this thread was busy long after', async () => {
    const results = new MessageChannel(); // the first worker's replies travel as real messages
    const sent: { id: number; source: string }[] = [];
    let first: WorkerEvents | undefined;
    const spawn: SpawnWorker = (events) => {
      if (first === undefined) {
        first = events;
        results.port2.onmessage = (event: MessageEvent<WorkerResponse>) => events.message(event.data);
        queueMicrotask(() => events.message({ type: 'ready' }));
        return { post: (m) => void (m.type === 'parse' && sent.push({ id: m.id, source: m.source })), terminate: () => undefined };
      }
      const handle = createWorkerBody((m) => queueMicrotask(() => events.message(m)));
      queueMicrotask(() => events.message({ type: 'ready' }));
      return { post: (m) => handle(m), terminate: () => undefined };
    };
    const pool = new ThreadPoolProcessor(spawn, { size: 1, defaultSize: 1 });
    const local = new ParserPool();
    try {
      const a = pool.process(python, 'def answered(): pass\n', '/a.py');
      const b = pool.process(python, 'def unanswered(): pass\n', '/b.py');
      await new Promise((resolve) => setTimeout(resolve, 10)); // the worker is ready
      expect(sent).toHaveLength(2);
      const answer = { type: 'result' as const, id: sent[0]!.id, file: toWire(await extractSource(local, python, sent[0]!.source)) };
      // The worker answers a.py, then dies (not because of b.py: a fresh worker parses it), while
      // this thread is busy (in a check-phase callback, as a walk resumed by setImmediate is)
      // long enough for any grace timer to expire before the queued answer is delivered.
      await new Promise<void>((resolve) => {
        setImmediate(() => {
          results.port1.postMessage(answer);
          first!.exit('error: died on purpose');
          const until = Date.now() + 120;
          while (Date.now() < until) {
            // busy
          }
          resolve();
        });
      });
      const [ra, rb] = await Promise.allSettled([a, b]);
      expect(ra.status === 'fulfilled' && ra.value.functions.map((f) => f.name)).toEqual(['answered']);
      expect(rb.status === 'fulfilled' && rb.value.functions.map((f) => f.name)).toEqual(['unanswered']);
    } finally {
      results.port1.close();
      await pool.close();
      await local.delete();
    }
  });

  it('rejects the suspects and the files waiting behind them with CLOSED when closed meanwhile', async () => {
    let spawned = 0;
    const spawn: SpawnWorker = (events) => {
      spawned++;
      queueMicrotask(() => events.message({ type: 'ready' }));
      // Neither worker ever answers; the first dies once it holds two files.
      let held = 0;
      return { post: (m) => void (m.type === 'parse' && ++held === 2 && spawned === 1 && queueMicrotask(() => events.exit('gone'))), terminate: () => undefined };
    };
    const pool = new ThreadPoolProcessor(spawn, { size: 1, defaultSize: 1 });
    const pending = ['/a.py', '/b.py'].map((p) => pool.process(python, 'def f(): pass\n', p));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const late = pool.process(python, 'def g(): pass\n', '/c.py'); // waits: the only slot is in quarantine
    expect(spawned).toBe(2);
    await pool.close();
    const settled = await Promise.allSettled([...pending, late]);
    expect(settled.map((r) => r.status === 'rejected' && (r.reason as CKGError).code)).toEqual(['CLOSED', 'CLOSED', 'CLOSED']);
  });
});

describe('worker body', () => {
  it('answers every request in order, with an error reply for a language it does not have', async () => {
    const replies: WorkerResponse[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const handle = createWorkerBody((m) => {
      replies.push(m);
      if (replies.length === 3) done();
    });
    handle({ type: 'init' });
    handle({ type: 'parse', id: 1, languageId: 'python', source: 'class A:\n    def m(self): pass\n' });
    handle({ type: 'parse', id: 2, languageId: 'cobol', source: 'IDENTIFICATION DIVISION.' });
    handle({ type: 'parse', id: 3, languageId: 'python', source: 'def f(:\n' });
    await finished;
    expect(replies.map((r) => r.type === 'ready' ? 'ready' : `${r.id}:${r.type}`)).toEqual(['1:result', '2:error', '3:result']);
    expect(replies[1]).toMatchObject({ code: 'UNKNOWN_LANGUAGE' });
    const first = replies[0] as Extract<WorkerResponse, { type: 'result' }>;
    expect(first.file.classes.map((c) => c.name)).toEqual(['A']);
    expect(first.file.functions.map((f) => [f.name, f.parentClass])).toEqual([['m', 'A']]);
    expect((replies[2] as Extract<WorkerResponse, { type: 'result' }>).file.hasSyntaxErrors).toBe(true);
  });
});

describe('web worker pool', () => {
  /**
   * A DOM-Worker-shaped wrapper over a worker thread running the same source worker. With
   * `messageLagMs`, each message reaches the pool that much later than the worker posted it,
   * while error events come at once: in a browser the two are separate tasks, in either order.
   */
  const threadAsWebWorker = (script: string, messageLagMs?: number): WorkerLike => {
    const worker = new Worker(workerScript(script));
    return {
      postMessage: (message) => worker.postMessage(message),
      addEventListener: (type, listener) => {
        if (type === 'message') {
          worker.on('message', (data: unknown) => {
            if (messageLagMs === undefined) listener({ data } as MessageEvent);
            else setTimeout(() => listener({ data } as MessageEvent), messageLagMs);
          });
        } else if (type === 'error') worker.on('error', (error: Error) => listener({ message: error.message } as ErrorEvent));
      },
      terminate: () => void worker.terminate(),
    };
  };

  it('builds the same index as in-thread parsing, fetching wasm from wasm.baseUrl in the workers', async () => {
    const tree: FixtureTree = makeTree('memfs', corpus());
    const pool = createWebWorkerPool({ size: 2, wasm: { baseUrl: new URL('../wasm/', import.meta.url) }, createWorker: () => threadAsWebWorker('source-worker.mjs') });
    try {
      expect(pool.concurrency).toBe(16);
      const local = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
      const pooled = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
      try {
        expect(await dump(pooled)).toEqual(await dump(local));
      } finally {
        local.close();
        pooled.close();
      }
    } finally {
      await pool.close();
      await pool.close();
    }
  });

  it.each([
    ['pkg4/poison.py', 2, 'messages as they come', undefined],
    // The first file a lone worker gets kills it at once: its error event comes before its
    // `ready` message. Read then, it was a worker that never started, and the build failed.
    ['0_poison.py', 1, 'messages 20 ms late', 20],
  ])('treats an error event as a dead worker: the file is skipped, the build goes on (%s, %i workers, %s)', async (poison, size, _, messageLagMs) => {
    const files = corpus();
    files[poison] = '# THROW_IN_THE_WORKER\n';
    const tree = makeTree('memfs', files);
    const pool = createWebWorkerPool({ size, createWorker: () => threadAsWebWorker('crashing-worker.mjs', messageLagMs) });
    try {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, processor: pool });
      try {
        expect(db.report!.skipped.map((s) => [s.path.slice(tree.root.length + 1), s.reason])).toEqual([[poison, 'parse-failed']]);
        expect(db.stats().files).toBe(Object.keys(files).filter((p) => p.endsWith('.py')).length - 1);
      } finally {
        db.close();
      }
    } finally {
      await pool.close();
    }
  });
});

describe('what is not source', () => {
  const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('calls a file binary when its first 8 KiB hold a NUL byte', () => {
    expect(looksBinary(enc('def f():\n    pass\n'))).toBe(false);
    expect(looksBinary(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1]))).toBe(true);
    const late = new Uint8Array(9000).fill(0x61);
    late[8191] = 0;
    expect(looksBinary(late)).toBe(true);
    late[8191] = 0x61;
    late[8192] = 0; // past the sniffed prefix
    expect(looksBinary(late)).toBe(false);
  });

  it('hashes content: equal bytes agree wherever they sit, any one-byte change or length change differs', () => {
    const base = enc('def f():\n    return "héllo"\n'.repeat(7));
    const h = contentHash(base);
    expect(h).toMatch(/^[0-9a-f]{16}[0-9a-f]+$/);
    // Same bytes at an odd offset inside a larger buffer (file bytes are often views).
    const shifted = new Uint8Array(base.length + 3);
    shifted.set(base, 3);
    expect(contentHash(shifted.subarray(3))).toBe(h);
    const seen = new Set([h]);
    for (let i = 0; i < base.length; i++) {
      const changed = base.slice();
      changed[i] = changed[i]! ^ 1;
      seen.add(contentHash(changed));
    }
    for (let cut = 1; cut <= 5; cut++) seen.add(contentHash(base.subarray(0, base.length - cut)));
    seen.add(contentHash(new Uint8Array(0)));
    expect(seen.size).toBe(1 + base.length + 5 + 1);
  });

  it('calls a file minified when it is at least 4 KiB and its lines average over 500 bytes', () => {
    const lines = (count: number, width: number): Uint8Array => enc(`${'x'.repeat(width - 1)}\n`.repeat(count));
    expect(looksMinified(enc('x'.repeat(4095)))).toBe(false); // too small to judge
    expect(looksMinified(enc('x'.repeat(4096)))).toBe(true); // one 4 KiB line
    // 10 lines of exactly 500 bytes (with the newline), plus a final empty line: average < 500.
    expect(looksMinified(lines(10, 500))).toBe(false);
    expect(looksMinified(enc(`${'x'.repeat(5000)}\n`))).toBe(true);
    // Many short lines then one huge one: the average decides, not the longest line.
    expect(looksMinified(enc(`${'a\n'.repeat(3000)}${'x'.repeat(20000)}`))).toBe(false);
    expect(looksMinified(enc(`${'a\n'.repeat(30)}${'x'.repeat(20000)}`))).toBe(true);
    expect(looksMinified(lines(100, 80))).toBe(false);
  });
});
