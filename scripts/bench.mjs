#!/usr/bin/env node
// npm run bench: the ckg-wasm benchmark (a script, not a timed test).
//
// It installs nothing. For each corpus present on this machine (Debian packages, see CORPORA)
// it runs full index builds in child processes (peak RSS = the child's maxRSS, worker threads
// included), then, on the built index: 1,000 exact-name queries, a no-change re-check
// (`db.update()` with nothing changed) and a one-file edit (`db.update()` after one file
// changed). It times Universal Ctags (`ctags -R`) on the same tree in the same run and writes
// the table to docs/benchmarks.md with the machine it ran on.
//
//   node scripts/bench.mjs [--corpus django,linux,go,rust] [--runs N] [--workers N]
//                          [--pipeline N] [--bodies MODE] [--transfer] [--no-ctags] [--out docs/benchmarks.md] [--no-write]
//                          [--report-only]   (re-render docs/benchmarks.md from docs/benchmarks.json)
//                          [--no-search | --search-only]   (glob/grep against ripgrep: scripts/bench-search.mjs)
//
// Uses the built package (dist/, via `ckg-wasm/node`): run `npm run build` first (npm run
// bench does). The one-file edit never touches the corpus: the child reads it through an
// overlay file system that serves one file with a function appended (new size and mtime), so
// the update walks, stats and re-checks the whole tree exactly as after a real edit.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import nodeFs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The corpora: where Debian puts them, and a file to edit for the one-file-edit timing. */
const CORPORA = {
  django: {
    label: 'Django 3.2 (python3-django)',
    find: () => '/usr/lib/python3/dist-packages/django',
    // A mid-sized module (about 14 kB); db/models/query.py (80 kB) alone takes about 45 ms to parse.
    edit: 'utils/text.py',
    runs: 5,
    repeats: 7,
    // Each build is timed twice more: again in the same process (warm), with and without the graph.
    warm: true,
  },
  linux: {
    label: 'Linux 6.1 (linux-source-6.1)',
    find: () => firstExisting([process.env.CKG_BENCH_LINUX, '/work/corpora/linux-source-6.1', ...globDir('/usr/src', /^linux-source-[\d.]+$/)]),
    edit: 'kernel/sched/core.c',
    runs: 1,
    repeats: 3,
  },
  go: {
    label: 'Go 1.19 std (golang-1.19-src)',
    find: () => '/usr/share/go-1.19/src',
    edit: 'net/http/server.go',
    runs: 3,
    repeats: 5,
  },
  rust: {
    label: 'Rust 1.63 (rust-src)',
    find: () => firstExisting(globDir('/usr/src', /^rustc-[\d.]+$/)),
    edit: 'library/core/src/option.rs',
    runs: 3,
    repeats: 5,
  },
};

/** Corpora with glob / grep rows (scripts/bench-search.mjs). */
const SEARCH_CORPORA = ['django', 'linux'];
/** Targets of the text-search issue: ckg-wasm ÷ ripgrep, warm file cache. */
const SEARCH_TARGETS = { django: 3, linux: 5 };

/** Appended to the edited file: one new definition the update must find. */
const EDIT_SNIPPET = {
  '.py': (n) => `\n\ndef ckg_bench_edit_${n}():\n    return ${n}\n`,
  '.c': (n) => `\n\nint ckg_bench_edit_${n}(void) { return ${n}; }\n`,
  '.go': (n) => `\n\nfunc ckg_bench_edit_${n}() int { return ${n} }\n`,
  '.rs': (n) => `\n\npub fn ckg_bench_edit_${n}() -> u32 { ${n} }\n`,
};

function firstExisting(paths) {
  return paths.find((p) => p && existsSync(p));
}

function globDir(dir, pattern) {
  try {
    return readdirSync(dir).filter((n) => pattern.test(n)).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function parseArgs(argv) {
  const args = { warm: true, graphBaseline: true, tokens: true, search: true, searchOnly: false, reportOnly: false, transfer: false, bodies: undefined, corpus: undefined, runs: undefined, workers: undefined, pipeline: undefined, ctags: true, snapshot: true, reliability: true, out: join(repoRoot, 'docs/benchmarks.md'), write: true, child: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--corpus') args.corpus = value().split(',').filter(Boolean);
    else if (a === '--runs') args.runs = Number(value());
    else if (a === '--workers') args.workers = Number(value());
    else if (a === '--pipeline') args.pipeline = Number(value());
    else if (a === '--bodies') args.bodies = value();
    else if (a === '--no-ctags') args.ctags = false;
    else if (a === '--no-snapshot') args.snapshot = false;
    else if (a === '--no-graph-baseline') args.graphBaseline = false;
    else if (a === '--no-warm') args.warm = false;
    else if (a === '--no-tokens') args.tokens = false;
    else if (a === '--no-search') args.search = false;
    else if (a === '--search-only') args.searchOnly = true;
    else if (a === '--no-reliability') args.reliability = false;
    else if (a === '--transfer') args.transfer = true;
    else if (a === '--report-only') args.reportOnly = true;
    else if (a === '--out') args.out = value();
    else if (a === '--no-write') args.write = false;
    else if (a === '--child') args.child = JSON.parse(value());
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/bench.mjs [--corpus django,linux,go,rust] [--runs N] [--workers N] [--pipeline N] [--bodies lazy|compressed|stored] [--transfer] [--no-ctags] [--no-snapshot] [--no-search | --search-only] [--no-graph-baseline] [--no-warm] [--no-reliability] [--out FILE] [--no-write] [--report-only]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

// ---------------------------------------------------------------------------------------------
// Child: one full build + (optionally) queries, no-change re-checks and one-file edits.

/**
 * node:fs with one file replaced by `overlay.content` (new size, new mtime), in both the
 * promise and the synchronous API (ckg-wasm uses the synchronous one when it is there).
 */
function overlayFs(overlay) {
  const hit = (path) => overlay.content !== undefined && overlay.path === String(path);
  const fake = (s) => ({
    isFile: () => true,
    isDirectory: () => false,
    isSymbolicLink: () => false,
    size: Buffer.byteLength(overlay.content),
    mtimeMs: overlay.mtimeMs,
    ctimeMs: overlay.mtimeMs,
    ino: s.ino,
    dev: s.dev,
    mode: s.mode,
  });
  const real = nodeFs.promises;
  const promises = new Proxy(real, {
    get(target, prop) {
      if (prop === 'readFile') return async (path, ...rest) => (hit(path) ? Buffer.from(overlay.content) : target.readFile(path, ...rest));
      if (prop === 'stat' || prop === 'lstat') return async (path, ...rest) => (hit(path) ? fake(await target[prop](path)) : target[prop](path, ...rest));
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  // Reads through a descriptor (openSync + fstatSync + readSync, as ckg-wasm reads files) open
  // a scratch file holding the overlay's content and mtime.
  let scratch;
  const scratchPath = () => {
    if (scratch?.content !== overlay.content || scratch?.mtimeMs !== overlay.mtimeMs) {
      const path = join(os.tmpdir(), `ckg-bench-overlay-${process.pid}`);
      nodeFs.writeFileSync(path, overlay.content);
      nodeFs.utimesSync(path, overlay.mtimeMs / 1000, overlay.mtimeMs / 1000);
      scratch = { path, content: overlay.content, mtimeMs: overlay.mtimeMs };
    }
    return scratch.path;
  };
  return new Proxy(nodeFs, {
    get(target, prop) {
      if (prop === 'promises') return promises;
      if (prop === 'openSync') return (path, ...rest) => target.openSync(hit(path) ? scratchPath() : path, ...rest);
      if (prop === 'readFileSync') return (path, ...rest) => (hit(path) ? Buffer.from(overlay.content) : target.readFileSync(path, ...rest));
      if (prop === 'statSync' || prop === 'lstatSync') return (path, ...rest) => (hit(path) ? fake(target[prop](path)) : target[prop](path, ...rest));
      return Reflect.get(target, prop);
    },
  });
}

function median(xs) {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/** A small seeded PRNG (mulberry32): the same 1,000 names on every run. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function child(spec) {
  const api = await import('ckg-wasm/node');
  const { CKGDatabase, createWorkerPool } = api;
  const overlay = { path: join(spec.root, spec.edit), content: undefined, mtimeMs: 0 };
  const fs = overlayFs(overlay);
  const cpu0 = process.cpuUsage();
  const pool = createWorkerPool({ ...(spec.workers ? { size: spec.workers } : {}), ...(spec.pipeline ? { pipeline: spec.pipeline } : {}) });
  const out = { workers: pool.size, concurrency: pool.concurrency };
  try {
    const busy0 = machineBusySeconds();
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    // The overlay only swaps one file's content; folders are node:fs's own, whose mtimes move
    // with their listings, so they may be trusted as CKGDatabase does for node:fs itself.
    const openOptions = {
      codebasePath: spec.root,
      fs,
      processor: pool,
      respectGitignore: spec.respectGitignore,
      trustFolderMtimes: true,
      ...(spec.bodies ? { bodies: spec.bodies } : {}),
      ...(spec.graph === false ? { graph: false } : {}),
    };
    const db = await CKGDatabase.open(openOptions);
    out.fullMs = performance.now() - t0;
    out.graph = spec.graph !== false;
    // Share of the build the main thread was busy (walk, reads, hashing, messages, SQLite):
    // on a 2-core machine every main-thread second is taken from the parse workers.
    out.mainBusy = performance.eventLoopUtilization(elu0).utilization;
    const cpu = process.cpuUsage(cpu0);
    out.cpuS = (cpu.user + cpu.system) / 1e6;
    // CPU seconds the rest of the machine used during this build (other agents' tests...).
    out.othersCpuS = machineBusySeconds() - busy0 - out.cpuS;
    out.peakRssMB = process.resourceUsage().maxRSS / 1024;
    if (spec.warm) {
      // The same build again in this process: its workers and the code V8 compiled the first
      // time are reused, as a daemon or an MCP server rebuilding finds them (no storage: a build).
      const tw = performance.now();
      const again = await CKGDatabase.open(openOptions);
      out.warmFullMs = performance.now() - tw;
      again.close();
    }
    const r = db.report;
    out.files = r.filesIndexed;
    out.bodies = spec.bodies ?? api.DEFAULT_BODY_MODE ?? 'stored';
    out.functions = r.functions;
    out.classes = r.classes;
    out.filesWithSyntaxErrors = r.filesWithSyntaxErrors;
    out.skipped = {};
    for (const s of r.skipped) out.skipped[s.reason] = (out.skipped[s.reason] ?? 0) + 1;
    out.skippedBytes = 0;
    for (const s of r.skipped) if (s.reason === 'too-large') out.skippedBytes += Number(/^(\d+)/.exec(s.detail ?? '')?.[1] ?? 0);
    const te = performance.now();
    const bytes = db.export();
    out.exportMs = performance.now() - te;
    out.dbBytes = bytes.length;
    out.peakRssAfterExportMB = process.resourceUsage().maxRSS / 1024;

    // Indexed bytes: sizes of the files in the index.
    const { default: initSqlJs } = await import('sql.js');
    const SQL = await initSqlJs();
    const raw = new SQL.Database(bytes);
    let names;
    try {
      out.sourceBytes = Number(raw.exec('SELECT coalesce(sum(size), 0) FROM files')[0].values[0][0]);
      const byLanguage = raw.exec('SELECT language, count(*) FROM files GROUP BY language ORDER BY 2 DESC')[0]?.values ?? [];
      out.languages = Object.fromEntries(byLanguage.map(([l, n]) => [String(l), Number(n)]));
      // Distinct (name, kind) pairs: each name as likely as any other, however many rows it has.
      names = raw.exec('SELECT DISTINCT name, parent_class IS NOT NULL FROM functions UNION SELECT DISTINCT name, 2 FROM classes ORDER BY 1, 2')[0]?.values ?? [];
    } catch (error) {
      raw.close();
      throw error;
    }

    if (spec.extras) {
      // Exact-name queries: 1,000 names drawn from the index (functions, methods, classes).
      const rand = prng(20260101);
      const picks = Array.from({ length: 1000 }, () => names[Math.floor(rand() * names.length)]);
      const ask = (n, k) => (k === 2 ? db.queryClass(n) : db.queryFunction(n, k === 1 ? 'class_method' : 'function'));
      for (const [n, k] of picks.slice(0, 20)) await ask(String(n), Number(k)); // warm-up (statement preparation)
      const lat = [];
      let hits = 0;
      let rowsSeen = 0;
      for (const [n, k] of picks) {
        const q0 = performance.now();
        const rows = await ask(String(n), Number(k));
        lat.push(performance.now() - q0);
        hits += rows.length > 0 ? 1 : 0;
        rowsSeen += rows.length;
      }
      out.queryMedianMs = median(lat);
      out.queryP99Ms = percentile(lat, 99);
      // The same lookups straight in SQLite (sql.js, prepared statement, rows read, no bodies):
      // the part of a query that does not depend on the body mode.
      const byName = {
        0: raw.prepare('SELECT name, file_path, start_line, end_line, parent_function, parent_class FROM functions WHERE name = ? AND parent_class IS NULL ORDER BY file_path, start_line'),
        1: raw.prepare('SELECT name, file_path, start_line, end_line, parent_function, parent_class FROM functions WHERE name = ? AND parent_class IS NOT NULL ORDER BY file_path, start_line'),
        2: raw.prepare('SELECT name, file_path, start_line, end_line, fields, methods FROM classes WHERE name = ? ORDER BY file_path, start_line'),
      };
      const sqlLat = [];
      try {
        for (const [n, k] of [...picks.slice(0, 20), ...picks]) {
          const stmt = byName[Number(k)];
          const q0 = performance.now();
          stmt.bind([String(n)]);
          while (stmt.step()) stmt.get();
          stmt.reset();
          sqlLat.push(performance.now() - q0);
        }
      } finally {
        for (const stmt of Object.values(byName)) stmt.free();
      }
      sqlLat.splice(0, 20);
      out.sqlMedianMs = median(sqlLat);
      out.sqlP99Ms = percentile(sqlLat, 99);
      out.queryHits = hits;
      out.queryRows = rowsSeen / picks.length;
      out.distinctNames = names.length;

      if (spec.graph !== false) {
        out.graphStats = graphStats(raw);
        out.graphQueries = await graphQueries(db, raw);
      }

      // No-change re-check: refresh() (snapshot key, then update only if it changed) where
      // the API has it, and update() (walk + stat comparison) for reference.
      const hasRefresh = typeof db.refresh === 'function';
      out.recheckVia = hasRefresh ? 'refresh()' : 'update()';
      out.recheckMs = [];
      out.updateNoChangeMs = [];
      for (let i = 0; i < spec.repeats; i++) {
        let t = performance.now();
        const rep = await db.update();
        out.updateNoChangeMs.push(performance.now() - t);
        if (rep.filesParsed !== 0) throw new Error(`no-change update parsed ${rep.filesParsed} files`);
        if (hasRefresh) {
          t = performance.now();
          const changed = await db.refresh();
          out.recheckMs.push(performance.now() - t);
          if (changed !== undefined) throw new Error(`no-change refresh re-indexed ${changed.filesParsed} files`);
        }
      }
      if (!hasRefresh) out.recheckMs = out.updateNoChangeMs;

      // One-file edit: a new function appended to one file, then update().
      const ext = spec.edit.slice(spec.edit.lastIndexOf('.'));
      const original = readFileSync(overlay.path, 'utf8');
      out.editMs = [];
      for (let i = 1; i <= spec.repeats; i++) {
        overlay.content = original + EDIT_SNIPPET[ext](i);
        overlay.mtimeMs = Date.now() + i;
        const t = performance.now();
        const rep = hasRefresh ? await db.refresh() : await db.update();
        out.editMs.push(performance.now() - t);
        if (rep?.filesParsed !== 1) throw new Error(`one-file edit parsed ${rep?.filesParsed} files`);
        const found = await db.queryFunction(`ckg_bench_edit_${i}`);
        if (found.length !== 1) throw new Error(`the edited function ckg_bench_edit_${i} is not in the index`);
      }
      // The same edit when the caller names the file (an editor save, a watcher event): no walk.
      out.editNamedMs = [];
      for (let i = 1; i <= spec.repeats; i++) {
        const n = spec.repeats + i;
        overlay.content = original + EDIT_SNIPPET[ext](n);
        overlay.mtimeMs = Date.now() + n;
        const t = performance.now();
        const rep = await db.update({ paths: [overlay.path] });
        out.editNamedMs.push(performance.now() - t);
        if (rep?.filesParsed !== 1) throw new Error(`named one-file edit parsed ${rep?.filesParsed} files`);
        const found = await db.queryFunction(`ckg_bench_edit_${n}`);
        if (found.length !== 1) throw new Error(`the edited function ckg_bench_edit_${n} is not in the index`);
      }
    }
    raw.close();
    db.close();
  } finally {
    await pool.close();
  }
  out.peakRssEndMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`\n@@RESULT@@${JSON.stringify(out)}\n`);
}

/** Edge counts of a built index: calls by resolution and cause, imports and bases resolved. */
function graphStats(raw) {
  const rows = (sql) => raw.exec(sql)[0]?.values ?? [];
  const byKind = {};
  for (const [kind, resolved, n] of rows('SELECT k.name, e.to_id IS NOT NULL, count(*) FROM edges e JOIN edge_kinds k ON k.code = e.kind GROUP BY 1, 2')) {
    const k = (byKind[String(kind)] ??= { total: 0, resolved: 0 });
    k.total += Number(n);
    if (Number(resolved) === 1) k.resolved += Number(n);
  }
  const causes = Object.fromEntries(rows("SELECT r.name, count(*) FROM edges e JOIN resolutions r ON r.code = e.resolution WHERE e.kind = 0 AND e.to_id IS NULL GROUP BY 1 ORDER BY 2 DESC").map(([r, n]) => [String(r), Number(n)]));
  const how = Object.fromEntries(rows("SELECT r.name, count(*) FROM edges e JOIN resolutions r ON r.code = e.resolution WHERE e.kind = 0 AND e.to_id IS NOT NULL GROUP BY 1 ORDER BY 2 DESC").map(([r, n]) => [String(r), Number(n)]));
  const symbols = Number(rows('SELECT count(*) FROM symbols')[0][0]);
  return { byKind, causes, how, symbols };
}

/**
 * The graph queries on a built index: callers of 1,000 definitions drawn from the index,
 * tracePath depth 5 (outbound and inbound) from 100 of them, deadCode over the whole codebase,
 * and searchSymbols for 1,000 queries made from real names with a typo, a partial word or one word.
 */
async function graphQueries(db, raw) {
  const rand = prng(20261201);
  const defs = raw.exec("SELECT qualified_name, name FROM symbols WHERE kind IN ('function', 'method', 'class') ORDER BY id")[0]?.values ?? [];
  if (defs.length === 0) return undefined;
  const pick = () => defs[Math.floor(rand() * defs.length)];
  const time = async (fn) => {
    const t = performance.now();
    const r = await fn();
    return [performance.now() - t, r];
  };
  const callers = [];
  let callerSites = 0;
  let lowerBounds = 0;
  for (let i = 0; i < 1020; i++) {
    const [ms, a] = await time(() => db.callers(String(pick()[0])));
    if (i < 20) continue; // warm-up
    callers.push(ms);
    callerSites += a.total;
    if (!a.complete) lowerBounds++;
  }
  const trace = { outbound: [], inbound: [] };
  for (let i = 0; i < 110; i++) {
    const target = String(pick()[0]);
    for (const direction of ['outbound', 'inbound']) {
      const [ms] = await time(() => db.tracePath(target, { direction, depth: 5 }));
      if (i >= 10) trace[direction].push(ms);
    }
  }
  const dead = [];
  let deadCount = 0;
  for (let i = 0; i < 3; i++) {
    const [ms, a] = await time(() => db.deadCode());
    dead.push(ms);
    deadCount = a.total;
  }
  // Search queries as agents type them: a name with a typo (two letters swapped, or one dropped),
  // the start of a name, or one word of it.
  const queries = [];
  for (let i = 0; i < 1020; i++) {
    const name = String(pick()[1]);
    const kind = i % 3;
    if (kind === 0 && name.length >= 5) {
      const k = 1 + Math.floor(rand() * (name.length - 2));
      queries.push(rand() < 0.5 ? name.slice(0, k) + name[k + 1] + name[k] + name.slice(k + 2) : name.slice(0, k) + name.slice(k + 1));
    } else if (kind === 1) queries.push(name.slice(0, Math.max(3, Math.ceil(name.length * 0.6))));
    else {
      const words = name.split(/[_\-]|(?=[A-Z])/).filter((w) => w.length >= 3);
      queries.push(words.length > 0 ? words[Math.floor(rand() * words.length)] : name);
    }
  }
  const search = [];
  let found = 0;
  for (let i = 0; i < queries.length; i++) {
    const [ms, a] = await time(() => db.searchSymbols(queries[i]));
    if (i < 20) continue;
    search.push(ms);
    if (a.total > 0) found++;
  }
  return {
    callersMedianMs: median(callers),
    callersP99Ms: percentile(callers, 99),
    callerSitesPerQuery: callerSites / callers.length,
    lowerBoundShare: lowerBounds / callers.length,
    traceOutMedianMs: median(trace.outbound),
    traceInMedianMs: median(trace.inbound),
    traceP99Ms: percentile([...trace.outbound, ...trace.inbound], 99),
    deadCodeMs: median(dead),
    deadCount,
    searchMedianMs: median(search),
    searchP99Ms: percentile(search, 99),
    searchFoundShare: found / search.length,
  };
}

/**
 * What sending each file's text to a worker costs the main thread, against sending only its
 * path (the worker would then read and hash the file itself, which needs node:fs in the worker
 * and gives up custom file systems such as memfs). Main-thread milliseconds per MB.
 */
async function transferChild(spec) {
  const { Worker } = await import('node:worker_threads');
  const { walkCodebase } = await import('../dist/indexer/walker.js');
  const { FsAdapter } = await import('../dist/fs/adapter.js');
  const { createDefaultRegistry, DEFAULT_SKIPPED_DIRECTORIES } = await import('ckg-wasm');
  const fsa = new FsAdapter(nodeFs);
  const walk = await walkCodebase(fsa, spec.root, { registry: createDefaultRegistry(), maxFileSize: 1 << 20, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: spec.respectGitignore });
  const files = walk.files.map((f) => f.path);
  const time = (fn) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  let readMs = 0;
  const sources = [];
  for (const f of files) readMs += time(() => sources.push(readFileSync(f)));
  const { contentHash, decodeSource } = await import('../dist/indexer/decode.js');
  let hashMs = 0;
  let decodeMs = 0;
  const texts = [];
  for (const b of sources) {
    hashMs += time(() => contentHash(b));
    decodeMs += time(() => texts.push(decodeSource(b)));
  }
  const mb = sources.reduce((n, b) => n + b.length, 0) / 2 ** 20;
  const worker = new Worker("require('node:worker_threads').parentPort.on('message', (m) => { if (m.last) require('node:worker_threads').parentPort.postMessage(1); });", { eval: true });
  const post = async (make) => {
    let ms = 0;
    const done = new Promise((resolve) => worker.once('message', resolve));
    for (let i = 0; i < files.length; i++) ms += time(() => worker.postMessage({ ...make(i), last: i === files.length - 1 }));
    await done;
    return ms;
  };
  await post((i) => ({ path: files[i] })); // warm-up
  const pathMs = await post((i) => ({ path: files[i] }));
  const sourceMs = await post((i) => ({ source: texts[i] }));
  await worker.terminate();
  const per = (ms) => ms / mb;
  process.stdout.write(`\n@@RESULT@@${JSON.stringify({ files: files.length, mb, readMsPerMB: per(readMs), hashMsPerMB: per(hashMs), decodeMsPerMB: per(decodeMs), postSourceMsPerMB: per(sourceMs), postPathMsPerMB: per(pathMs) })}\n`);
}

/**
 * The machine's speed right now: web-tree-sitter parse only (no visitor, no SQLite), one
 * thread, on an evenly spread sample of the corpus's files (about 8 MB). This VM's speed drifts
 * by tens of per cent with its host's load, so each corpus's numbers come with this yardstick.
 */
async function calibrateChild(spec) {
  const { walkCodebase } = await import('../dist/indexer/walker.js');
  const { FsAdapter } = await import('../dist/fs/adapter.js');
  const { ParserPool } = await import('../dist/parser/runtime.js');
  const { createDefaultRegistry, DEFAULT_SKIPPED_DIRECTORIES } = await import('ckg-wasm');
  const walk = await walkCodebase(new FsAdapter(nodeFs), spec.root, { registry: createDefaultRegistry(), maxFileSize: 1 << 20, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: spec.respectGitignore });
  const total = walk.files.reduce((n, f) => n + f.size, 0);
  const wanted = Math.min(walk.files.length, Math.ceil((8 * 2 ** 20) / (total / walk.files.length)));
  const step = Math.max(1, Math.floor(walk.files.length / wanted));
  const sample = walk.files.filter((_, i) => i % step === 0);
  const pool = new ParserPool({});
  const texts = sample.map((f) => ({ language: f.language, text: readFileSync(f.path, 'utf8') }));
  for (const t of texts.slice(0, 20)) (await pool.parse(t.language, t.text)).delete(); // grammar loads, JIT
  const c0 = process.cpuUsage();
  for (const t of texts) (await pool.parse(t.language, t.text)).delete();
  const c = process.cpuUsage(c0);
  await pool.delete();
  const mb = texts.reduce((n, t) => n + Buffer.byteLength(t.text), 0) / 2 ** 20;
  process.stdout.write(`\n@@RESULT@@${JSON.stringify({ files: texts.length, mb, parseMBps: mb / ((c.user + c.system) / 1e6) })}\n`);
}

// ---------------------------------------------------------------------------------------------
// Parent: orchestration, ctags, machine facts, the report.

/** CPU seconds the whole machine spent busy (all processes), from /proc/stat. */
function machineBusySeconds() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = cpu;
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return NaN;
  }
}

function loadavg() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return os.loadavg().map((x) => x.toFixed(2)).join(' ');
  }
}

function run(cmd, argv, options = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`${cmd} exited with ${code}: ${stderr.slice(-2000)}`))));
  });
}

async function runChild(spec) {
  const { stdout } = await run(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(spec)], { cwd: repoRoot });
  const line = stdout.split('\n').find((l) => l.startsWith('@@RESULT@@'));
  if (!line) throw new Error(`child printed no result:\n${stdout.slice(-2000)}`);
  return JSON.parse(line.slice('@@RESULT@@'.length));
}

/** `ctags -R` on the tree, timed with GNU time (wall, peak RSS); the tags file is discarded. */
async function runCtags(root) {
  const dir = mkdtempSync(join(os.tmpdir(), 'ckg-bench-ctags-'));
  try {
    const tags = join(dir, 'tags');
    const busy0 = machineBusySeconds();
    const elu0 = performance.eventLoopUtilization();
    const t0 = performance.now();
    const { stderr } = await run('/usr/bin/time', ['-f', '@@TIME@@ %e %M %U %S', 'ctags', '-R', '-f', tags, root]);
    const wallMs = performance.now() - t0;
    const busy1 = machineBusySeconds();
    const m = /@@TIME@@ ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
    const cpuS = m ? Number(m[3]) + Number(m[4]) : NaN;
    return { wallMs, peakRssMB: m ? Number(m[2]) / 1024 : NaN, tagsBytes: statSync(tags).size, othersCpuS: busy1 - busy0 - cpuS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Results of earlier runs kept next to the report (benchmarks.json), or none. */
function readPrevious(out) {
  try {
    return JSON.parse(readFileSync(`${out.replace(/\.md$/, '')}.json`, 'utf8')).results ?? [];
  } catch {
    return [];
  }
}

function readPreviousMachine(out) {
  try {
    return JSON.parse(readFileSync(`${out.replace(/\.md$/, '')}.json`, 'utf8')).machine;
  } catch {
    return undefined;
  }
}

function isoNow() {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function machine() {
  const cpus = os.cpus();
  let model = cpus[0]?.model ?? 'unknown';
  let nproc = cpus.length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // nproc missing: os.cpus() it is
  }
  let distro = `${os.type()} ${os.release()}`;
  try {
    distro = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? distro;
  } catch {
    // not Linux
  }
  let ctags = 'not installed';
  try {
    ctags = execFileSync('ctags', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  } catch {
    // no ctags
  }
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  return {
    nproc,
    model: model.trim(),
    ramGiB: os.totalmem() / 2 ** 30,
    node: process.version,
    os: `${distro}, kernel ${os.release()}`,
    ctags,
    versions: `ckg-wasm ${pkg.version}, web-tree-sitter ${pkg.dependencies['web-tree-sitter']}, sql.js ${pkg.dependencies['sql.js']}`,
  };
}

/** Debian's linux-source appends "/*" (ignore everything at the top level) to .gitignore. */
function gitignoreIgnoresEverything(root) {
  try {
    return readFileSync(join(root, '.gitignore'), 'utf8').split('\n').some((l) => l.trim() === '/*');
  } catch {
    return false;
  }
}

const fmt = {
  s: (ms) => (ms >= 100_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`),
  ms: (ms) => (ms < 1 ? `${ms.toFixed(3)} ms` : ms < 100 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(0)} ms`),
  mb: (b) => `${(b / 2 ** 20).toFixed(1)}`,
  n: (x) => Math.round(x).toLocaleString('en-US'),
};

/** The targets of the scale issue, checked against the measured medians. */
const TARGETS = {
  django: [
    ['full index, definitions only (graph: false)', (r) => r.noGraph?.fullMs, 2500, fmt.s],
    ['full index with the graph ÷ without', (r) => (r.noGraph ? r.fullMs / r.noGraph.fullMs : undefined), 1.5, (x) => `${x.toFixed(2)}×`],
    ['callers median', (r) => r.graphQueries?.callersMedianMs, 2, fmt.ms],
    ['tracePath depth 5 median', (r) => r.graphQueries && Math.max(r.graphQueries.traceOutMedianMs, r.graphQueries.traceInMedianMs), 10, fmt.ms],
    ['deadCode, whole codebase', (r) => r.graphQueries?.deadCodeMs, 150, fmt.ms],
    ['searchSymbols median', (r) => r.graphQueries?.searchMedianMs, 5, fmt.ms],
    ['no-change re-check', (r) => r.recheckMs, 150, fmt.ms],
    ['one-file edit', (r) => r.editMs, 50, fmt.ms],
    ['one-file edit, path named', (r) => r.editNamedMs, 50, fmt.ms],
  ],
  linux: [
    ['full index, definitions only (graph: false)', (r) => r.noGraph?.fullMs, 180_000, fmt.s],
    ['peak RSS, definitions only (MB)', (r) => r.noGraph?.peakRssMB, 1024, (x) => `${x.toFixed(0)} MB`],
    ['peak RSS with the graph ÷ without', (r) => (r.noGraph ? r.peakRssMB / r.noGraph.peakRssMB : undefined), 1.6, (x) => `${x.toFixed(2)}×`],
    ['no-change re-check', (r) => r.recheckMs, 3000, fmt.ms],
    ['query median', (r) => r.queryMedianMs, 0.2, fmt.ms],
    ['query p99', (r) => r.queryP99Ms, 2, fmt.ms],
  ],
};

function summarise(name, corpus, root, runs, ctagsRuns, notes) {
  const full = runs.map((r) => r.fullMs);
  const withExtras = runs.filter((r) => r.queryMedianMs !== undefined);
  const first = runs[0];
  const s = {
    name,
    label: corpus.label,
    root,
    runs: runs.length,
    files: first.files,
    sourceBytes: first.sourceBytes,
    functions: first.functions,
    classes: first.classes,
    skipped: first.skipped,
    skippedBytes: first.skippedBytes,
    filesWithSyntaxErrors: first.filesWithSyntaxErrors,
    languages: first.languages,
    workers: first.workers,
    concurrency: first.concurrency,
    fullMs: median(full),
    fullRange: [Math.min(...full), Math.max(...full)],
    peakRssMB: median(runs.map((r) => r.peakRssMB)),
    peakRssAfterExportMB: median(runs.map((r) => r.peakRssAfterExportMB)),
    mainBusy: median(runs.map((r) => r.mainBusy)),
    cpuS: median(runs.map((r) => r.cpuS)),
    ...(runs.every((r) => r.warmFullMs !== undefined) ? { warmFullMs: median(runs.map((r) => r.warmFullMs)) } : {}),
    dbBytes: first.dbBytes,
    exportMs: median(runs.map((r) => r.exportMs)),
    queryMedianMs: median(withExtras.map((r) => r.queryMedianMs)),
    queryP99Ms: median(withExtras.map((r) => r.queryP99Ms)),
    queryRows: withExtras[0]?.queryRows,
    sqlMedianMs: median(withExtras.map((r) => r.sqlMedianMs)),
    sqlP99Ms: median(withExtras.map((r) => r.sqlP99Ms)),
    distinctNames: withExtras[0]?.distinctNames,
    recheckMs: median(withExtras.flatMap((r) => r.recheckMs)),
    recheckVia: withExtras[0]?.recheckVia,
    updateNoChangeMs: median(withExtras.flatMap((r) => r.updateNoChangeMs)),
    bodies: first.bodies,
    editMs: median(withExtras.flatMap((r) => r.editMs)),
    editNamedMs: withExtras.some((r) => r.editNamedMs) ? median(withExtras.flatMap((r) => r.editNamedMs ?? [])) : undefined,
    othersCpuS: runs.map((r) => r.othersCpuS),
    ctagsMs: ctagsRuns.length ? median(ctagsRuns.map((c) => c.wallMs)) : undefined,
    ctagsRssMB: ctagsRuns.length ? median(ctagsRuns.map((c) => c.peakRssMB)) : undefined,
    ctagsOthersCpuS: ctagsRuns.map((c) => c.othersCpuS),
    notes,
    graphStats: withExtras[0]?.graphStats ?? first.graphStats,
    graphQueries: withExtras[0]?.graphQueries,
  };
  s.filesPerS = s.files / (s.fullMs / 1000);
  s.mbPerS = s.sourceBytes / 2 ** 20 / (s.fullMs / 1000);
  s.ratio = s.ctagsMs ? s.fullMs / s.ctagsMs : undefined;
  return s;
}

function report(results, info) {
  const lines = [];
  lines.push('# Benchmarks', '');
  lines.push('Written by `npm run bench` (`scripts/bench.mjs`); re-run it to refresh this file (a run with `--corpus` replaces those');
  lines.push('corpora\'s rows and keeps the others; raw numbers in `benchmarks.json`). Each full index runs in its own child process');
  lines.push('(peak RSS = that process\'s maxRSS, worker threads included) with the `ckg-wasm/node` worker pool (one worker per core);');
  lines.push('queries, the no-change re-check and the one-file edit run on the index that build made. Universal Ctags (`ctags -R -f <tmp> <root>`)');
  lines.push('runs on the same tree in the same run as the reference point; "× ctags" = ckg-wasm full index ÷ ctags wall time.', '');
  lines.push('How a build runs: the main thread walks the tree and, as the walk finds each file (parsing starts before the walk');
  lines.push('ends), reads it through the caller\'s `fs`, checks it (binary, minified, size cap 1 MiB: such files are reported as');
  lines.push('skipped; C files without a brace cannot hold a definition and are not parsed), hashes it and posts its text to the');
  lines.push('parse worker with the least text queued (web-tree-sitter + the language\'s visitor, which also hashes each body);');
  lines.push('workers answer with rows without body texts. A new file is sent whenever any file finishes, and the main thread');
  lines.push('writes rows to sql.js in walk order, in one transaction. Sending text rather than paths keeps memfs and browser file');
  lines.push('systems working; `--transfer` measures what it costs the main thread. An edit of a file updated a moment before');
  lines.push('re-parses from that file\'s previous syntax tree (kept by small updates).', '');
  lines.push('## Machine', '');
  lines.push(`- ${info.nproc} cores (nproc), ${info.model}, ${info.ramGiB.toFixed(1)} GiB RAM`);
  lines.push(`- ${info.os}; Node ${info.node}; ${info.ctags}`);
  lines.push(`- ${info.versions}`);
  lines.push('- This machine is shared: each corpus below says when it ran, the load average around it, and how many CPU seconds');
  lines.push('  other processes used during its builds (from /proc/stat). With 2 cores, any such CPU is taken from the index build.');
  lines.push('');
  lines.push('## Results (medians)', '');
  lines.push('| corpus | files | MB | full index | files/s | MB/s | peak RSS | DB | query median / p99 | no-change re-check | one-file edit (walk / path named) | ctags -R | × ctags |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    lines.push(
      `| ${r.name} | ${fmt.n(r.files)} | ${fmt.mb(r.sourceBytes)} | ${fmt.s(r.fullMs)}${r.runs > 1 ? ` (${r.runs} runs, ${fmt.s(r.fullRange[0])}–${fmt.s(r.fullRange[1])})` : ''} | ${fmt.n(r.filesPerS)} | ${r.mbPerS.toFixed(2)} | ${r.peakRssMB.toFixed(0)} MB | ${fmt.mb(r.dbBytes)} MB | ${fmt.ms(r.queryMedianMs)} / ${fmt.ms(r.queryP99Ms)} | ${fmt.ms(r.recheckMs)} | ${fmt.ms(r.editMs)} / ${r.editNamedMs === undefined ? '–' : fmt.ms(r.editNamedMs)} | ${r.ctagsMs === undefined ? '–' : fmt.s(r.ctagsMs)} | ${r.ratio === undefined ? '–' : `${r.ratio.toFixed(1)}×`} |`,
    );
  }
  lines.push('');
  if (results.some((r) => r.graphStats)) {
    lines.push('## Code graph', '');
    lines.push('Each corpus\'s builds alternate with builds of the same tree with `graph: false` (definitions only) in the same run.');
    lines.push('"resolved": calls whose target a declaration-based rule found; the rest stay unresolved with their cause (`dynamic`: a');
    lines.push('receiver of unknown type, `builtin`, `external`: a module outside the codebase, `parameter` / `local-variable`: a call of a value,');
    lines.push('`not-found`, `ambiguous`).', '');
    lines.push('| corpus | symbols | calls | resolved | imports resolved | bases resolved | full index with / without graph | peak RSS with / without | DB with / without |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of results.filter((x) => x.graphStats)) {
      const k = r.graphStats.byKind;
      const share = (x) => (x && x.total > 0 ? `${((100 * x.resolved) / x.total).toFixed(1)} %` : '–');
      const bases = { total: (k.inherits?.total ?? 0) + (k.implements?.total ?? 0), resolved: (k.inherits?.resolved ?? 0) + (k.implements?.resolved ?? 0) };
      const ng = r.noGraph;
      lines.push(
        `| ${r.name} | ${fmt.n(r.graphStats.symbols)} | ${fmt.n(k.calls?.total ?? 0)} | ${share(k.calls)} | ${share(k.imports)} | ${share(bases)} | ${fmt.s(r.fullMs)} / ${ng ? `${fmt.s(ng.fullMs)} (${(r.fullMs / ng.fullMs).toFixed(2)}×)` : '–'} | ${r.peakRssMB.toFixed(0)} / ${ng ? `${ng.peakRssMB.toFixed(0)} MB (${(r.peakRssMB / ng.peakRssMB).toFixed(2)}×)` : '–'} | ${fmt.mb(r.dbBytes)} / ${ng ? `${fmt.mb(ng.dbBytes)} MB (+${fmt.mb(r.dbBytes - ng.dbBytes)} MB)` : '–'} |`,
      );
    }
    lines.push('');
    for (const r of results.filter((x) => x.graphStats)) {
      const calls = r.graphStats.byKind.calls;
      const unresolved = calls ? calls.total - calls.resolved : 0;
      const causes = Object.entries(r.graphStats.causes).map(([c, n]) => `${c} ${fmt.n(n)} (${((100 * n) / Math.max(1, unresolved)).toFixed(0)} %)`).join(', ');
      const how = Object.entries(r.graphStats.how).map(([c, n]) => `${c} ${fmt.n(n)}`).join(', ');
      lines.push(`- ${r.name}: resolved calls by rule: ${how || '–'}; unresolved calls (${fmt.n(unresolved)}) by cause: ${causes || '–'}.`);
      if (r.noGraph) lines.push(`- ${r.name}: CPU (all threads) ${r.cpuS.toFixed(1)} s with the graph, ${r.noGraph.cpuS.toFixed(1)} s without; without-graph runs ${r.noGraph.runs}, ${fmt.s(r.noGraph.fullRange[0])}–${fmt.s(r.noGraph.fullRange[1])}.`);
      if (r.warmFullMs !== undefined && r.noGraph?.warmFullMs !== undefined) {
        lines.push(
          `- ${r.name}: the same build again in the same process (its workers and compiled code reused, as a daemon or an MCP server rebuilding finds them): ${fmt.s(r.warmFullMs)} with the graph, ${fmt.s(r.noGraph.warmFullMs)} without (${(r.warmFullMs / r.noGraph.warmFullMs).toFixed(2)}×).`,
        );
      }
    }
    lines.push('');
  }
  if (results.some((r) => r.graphQueries)) {
    lines.push('## Graph queries', '');
    lines.push('On the first build of each corpus: `callers` of 1,000 definitions drawn from the index (qualified names); `tracePath` at');
    lines.push('depth 5, outbound and inbound, from 100 of them; `deadCode` over the whole codebase (3 runs); `searchSymbols` for 1,000 queries');
    lines.push('made from real names: a third with a typo (two letters swapped or one dropped), a third the first 60 % of a name, a third one word');
    lines.push('of it. Medians and p99 in ms, signatures and bodies read as the API returns them.', '');
    lines.push('| corpus | callers median / p99 | call sites per answer | lower-bound answers | trace d5 out / in (p99) | deadCode (count) | search median / p99 | search found |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of results.filter((x) => x.graphQueries)) {
      const q = r.graphQueries;
      lines.push(`| ${r.name} | ${fmt.ms(q.callersMedianMs)} / ${fmt.ms(q.callersP99Ms)} | ${q.callerSitesPerQuery.toFixed(1)} | ${(q.lowerBoundShare * 100).toFixed(0)} % | ${fmt.ms(q.traceOutMedianMs)} / ${fmt.ms(q.traceInMedianMs)} (${fmt.ms(q.traceP99Ms)}) | ${fmt.ms(q.deadCodeMs)} (${fmt.n(q.deadCount)}) | ${fmt.ms(q.searchMedianMs)} / ${fmt.ms(q.searchP99Ms)} | ${(q.searchFoundShare * 100).toFixed(0)} % |`);
    }
    lines.push('');
  }
  lines.push('## Targets (this 2-core machine)', '');
  lines.push('| corpus | measure | target | measured | met |');
  lines.push('|---|---|---:|---:|:---:|');
  for (const r of results) {
    for (const [what, get, limit, f] of TARGETS[r.name] ?? []) {
      const v = get(r);
      if (v === undefined || Number.isNaN(v)) continue;
      lines.push(`| ${r.name} | ${what} | ≤ ${f(limit)} | ${f(v)} | ${v <= limit ? 'yes' : '**no**'} |`);
    }
  }
  lines.push('');
  const why = [];
  for (const r of results) {
    for (const [what, get, limit] of TARGETS[r.name] ?? []) {
      const v = get(r);
      if (!(v > limit)) continue;
      if (what.startsWith('full index, definitions') && r.calibration) {
        const ideal = (r.sourceBytes / 2 ** 20 / r.calibration.parseMBps / r.workers) * 1000;
        why.push(`- ${r.name} full index: web-tree-sitter's parse alone, at the ${r.calibration.parseMBps.toFixed(2)} MB/s per core measured just before the run and split perfectly over ${r.workers} workers, takes ${fmt.s(ideal)} of the ${fmt.s(limit)} target; the build (walk, reads, visitors, SQLite, messages) took ${(r.fullMs / ideal).toFixed(2)}× that. This VM's parse speed drifts with its host's load (parse-only runs on the same day read from about 1.9 to about 4 MB/s per core), and the build time moves with it.`);
      } else if (what.startsWith('query') && r.sqlMedianMs !== undefined) {
        why.push(`- ${r.name} queries: the SQLite lookup itself takes ${fmt.ms(r.sqlMedianMs)} median, ${fmt.ms(r.sqlP99Ms)} p99 (within the targets); with \`${r.bodies}\` bodies each returned row also reads its file back and checks its hash, which is the rest.`);
      } else if (what === 'one-file edit') {
        why.push(`- ${r.name} one-file edit: an edit found by \`${r.recheckVia}\` costs the no-change re-check (${fmt.ms(r.recheckMs)}, a walk of the tree) plus the file's own read, parse and write (about ${fmt.ms(Math.max(0, r.editMs - r.recheckMs))}); meeting ${fmt.ms(limit)} needs the caller to name the changed file (an editor or watcher event) instead of a walk.`);
      }
    }
  }
  if (why.length > 0) lines.push('Where a target is missed, the measurement that bounds it:', '', ...new Set(why), '');
  if (info.snapshotKey) {
    lines.push('## Snapshot key on git repositories', '');
    lines.push(`The cheap "did anything change?" check run on open and before every tool answer, by \`scripts/bench-snapshot.mjs\` (${info.snapshotKey.date}): HEAD via isomorphic-git, the \`.git/index\` read by ckg-wasm, the walk, and \`git status --porcelain\` timed in the same runs as the yardstick.`, '');
    for (const line of info.snapshotKey.lines) lines.push(`- ${line}`);
    lines.push('');
  }
  if (info.search) lines.push(...searchReport(info.search));
  if (info.tokens) lines.push(...tokensReport(info.tokens));
  if (info.reliability) {
    lines.push('## Reliability', '');
    lines.push(`By \`scripts/bench-reliability.mjs\` (${info.reliability.date}; docs/security.md says what each guards): the cost of the integrity checks run when stored bytes are opened, single-bit flips of a stored index, a soak of open/update/query/close cycles, and a stress run of edits, updates and concurrent queries with every answer checked.`, '');
    for (const line of info.reliability.lines) lines.push(`- ${line}`);
    lines.push('');
  }
  lines.push('## Details', '');
  for (const r of results) {
    lines.push(`### ${r.name}: ${r.label}`, '');
    lines.push(`- Run ${r.run.date} to ${r.run.endDate} (\`node scripts/bench.mjs ${r.run.args}\`); load average before / after: ${r.run.loadBefore} / ${r.run.loadAfter}.`);
    lines.push(`- Tree: \`${r.root}\`; files by language: ${Object.entries(r.languages).map(([l, n]) => `${l} ${fmt.n(n)}`).join(', ')}.`);
    if (r.calibration) {
      const ideal = r.sourceBytes / 2 ** 20 / r.calibration.parseMBps / r.workers;
      lines.push(`- Yardstick taken just before: web-tree-sitter parse only (no visitor, no SQLite) ran at ${r.calibration.parseMBps.toFixed(2)} MB/s on one core (${fmt.n(r.calibration.files)} sample files, ${r.calibration.mb.toFixed(1)} MB). At that speed, parsing alone, perfectly split over ${r.workers} workers, would take ${fmt.s(ideal * 1000)}: the full index took ${(r.fullMs / 1000 / ideal).toFixed(2)}× that.`);
    }
    lines.push(`- Index: ${fmt.n(r.functions)} functions/methods, ${fmt.n(r.classes)} classes; ${fmt.n(r.filesWithSyntaxErrors)} files with syntax errors (indexed outside the error regions).`);
    const sk = Object.entries(r.skipped);
    lines.push(`- Skipped (reported, not indexed): ${sk.length ? sk.map(([k, n]) => `${k} ${fmt.n(n)}`).join(', ') : 'none'}${r.skippedBytes ? ` (too-large files: ${fmt.mb(r.skippedBytes)} MB)` : ''}.`);
    lines.push(`- ${r.workers} parse workers, ${r.concurrency} files in flight; CPU ${r.cpuS.toFixed(1)} s (all threads), main thread busy ${(r.mainBusy * 100).toFixed(0)} % of the build; full-index wall per run: ${r.fullRange[0] === r.fullRange[1] ? fmt.s(r.fullMs) : `${fmt.s(r.fullRange[0])} to ${fmt.s(r.fullRange[1])}`}; \`export()\` ${fmt.ms(r.exportMs)}, peak RSS with the exported bytes ${r.peakRssAfterExportMB.toFixed(0)} MB.`);
    lines.push(`- Others' CPU during the index runs (machine busy time minus ours, from /proc/stat): ${r.othersCpuS.map((x) => `${x.toFixed(1)} s`).join(', ')}${r.ctagsOthersCpuS.length ? `; during ctags: ${r.ctagsOthersCpuS.map((x) => `${x.toFixed(1)} s`).join(', ')}` : ''}.`);
    lines.push(`- One-file edit ${fmt.ms(r.editMs)} = the re-check's walk (${fmt.ms(r.recheckMs)}) + re-reading, parsing and writing the one file (about ${fmt.ms(Math.max(0, r.editMs - r.recheckMs))}): an edit found by a walk can never be faster than a no-change re-check.`);
    lines.push(`- Queries: 1,000 names drawn uniformly from the ${fmt.n(r.distinctNames)} distinct (name, kind) pairs of the index, asked with \`queryFunction\` / \`queryFunction(…, 'class_method')\` / \`queryClass\`; ${r.queryRows.toFixed(1)} rows per answer on average, bodies included (with \`lazy\` bodies each row's file is read back and checked).${r.sqlMedianMs === undefined || Number.isNaN(r.sqlMedianMs) ? '' : ` The same lookups straight in sql.js (prepared statement, no bodies): median ${fmt.ms(r.sqlMedianMs)}, p99 ${fmt.ms(r.sqlP99Ms)}; the rest of a query's time is reading and checking the body's file.`}`);
    lines.push(`- Bodies: \`${r.bodies}\`. No-change re-check = \`${r.recheckVia}\`${r.recheckVia === 'refresh()' ? ` (snapshot key; a no-change \`update()\`, which walks and compares every file's size and mtime, takes ${fmt.ms(r.updateNoChangeMs)})` : ''}; one-file edit = \`${r.recheckVia}\` after the edit.`);
    if (r.ctagsMs !== undefined) lines.push(`- ctags -R: ${fmt.s(r.ctagsMs)}, peak RSS ${r.ctagsRssMB.toFixed(0)} MB (all languages ctags knows, no .gitignore, no size cap).`);
    for (const n of r.notes) lines.push(`- ${n}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** The token-economy section: the ckg tool's answers against grep-and-read, per question. */
function tokensReport(t) {
  const lines = ['## Token economy (Django)', ''];
  lines.push(`\`scripts/bench-tokens.mjs\` (${t.date}): ${t.questions} structural questions on \`${t.root}\`, answered by the \`ckg\` tool`);
  lines.push('and by a grep-and-read procedure: for "where is X defined", `rg` for its `def`/`class` line, then 30 lines read from each hit;');
  lines.push('for "who calls Y", `rg -w Y`, then 21 lines read around each hit; for "outline of file Z" (the ten largest files), the whole file.');
  lines.push('Files are read as agents\' file tools return them, numbered like `cat -n`. The tool answers with `search_function` /');
  lines.push('`search_symbols` (classes), `find_callers` (qualified names) and `file_outline`. Every location the tool gives (each');
  lines.push('definition, caller and unresolved-call site, each outline range) is checked against Python\'s own parser');
  lines.push('(`scripts/python-ast-facts.py`: definitions of that name and kind, calls of that name or of an alias bound to it, the file\'s');
  lines.push('`def`/`class` ranges).', '');
  lines.push(`**${t.ckgChars.toLocaleString('en-US')} characters against ${t.baselineChars.toLocaleString('en-US')}: ${(t.share * 100).toFixed(2)} % of the baseline** (target ≤ 5 %); ${t.locations.toLocaleString('en-US')} locations, ${t.wrong} wrong.`, '');
  lines.push('| question | kind | ckg-wasm | grep and read | share | locations | wrong |');
  lines.push('|---|---|---:|---:|---:|---:|---:|');
  for (const r of t.rows) lines.push(`| \`${r.question}\` | ${r.kind} | ${fmt.n(r.ckgChars)} | ${fmt.n(r.baselineChars)} | ${((100 * r.ckgChars) / r.baselineChars).toFixed(1)} % | ${r.locations} | ${r.wrong} |`);
  lines.push('');
  return lines;
}

/** The text-search section: each row against ripgrep in the same run. */
function searchReport(search) {
  const lines = ['## Text search (glob, grep) against ripgrep', ''];
  lines.push('`scripts/bench-search.mjs` (run by `npm run bench`): the exported `glob` / `grep` on `node:fs`, on the calling thread, against');
  lines.push('ripgrep (all cores) on the same tree, pattern and ignore rules, warm file cache; medians, ripgrep\'s including its process start.');
  lines.push('"same files" checks that both found the same set of files (and, for `content`, the same number of matching lines). First result:');
  lines.push('time from calling `grepStream` to its first entry. Targets: within 3× of ripgrep on Django, 5× on the kernel.', '');
  for (const [name, r] of Object.entries(search)) {
    lines.push(`### ${name}: \`${r.root}\``, '');
    lines.push(`Run ${r.date} (\`node scripts/bench.mjs ${r.args ?? ''}\`), ${r.runs} runs, ${r.rgVersion}; load average before / after: ${r.loadBefore} / ${r.loadAfter}.`, '');
    lines.push('| search | ckg-wasm | ripgrep | ratio | target | files (ckg / rg) | lines (ckg / rg) | same files | first result |');
    lines.push('|---|---:|---:|---:|:---:|---:|---:|:---:|---:|');
    for (const row of r.rows) {
      const ratio = row.oursMs / row.rgMs;
      const target = SEARCH_TARGETS[name];
      lines.push(`| ${row.name} | ${fmt.ms(row.oursMs)}${row.partial ? ' (**partial**: timed out)' : ''} | ${fmt.ms(row.rgMs)} | ${ratio.toFixed(1)}× | ${target === undefined ? '–' : ratio <= target ? 'met' : '**missed**'} | ${fmt.n(row.files)} / ${fmt.n(row.rgFiles)} | ${row.lines === undefined ? '–' : `${fmt.n(row.lines)} / ${fmt.n(row.rgLines)}`} | ${row.same && (row.lines === undefined || row.lines === row.rgLines) ? 'yes' : '**no**'} | ${row.firstMs === undefined ? '–' : fmt.ms(row.firstMs)} |`);
    }
    lines.push('');
    for (const n of r.notes) lines.push(`- ${n}`);
    for (const row of r.rows) {
      if (row.onlyOurs?.length || row.onlyRg?.length) lines.push(`- ${row.name}: only ckg-wasm ${row.onlyOurs.join(', ') || '–'}; only ripgrep ${row.onlyRg.join(', ') || '–'}.`);
    }
    lines.push('');
  }
  return lines;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.child) return await (args.child.transfer ? transferChild(args.child) : args.child.calibrate ? calibrateChild(args.child) : child(args.child));
  if (args.reportOnly) {
    // Re-renders the report from benchmarks.json (after editing this script's wording).
    const saved = JSON.parse(readFileSync(`${args.out.replace(/\.md$/, '')}.json`, 'utf8'));
    writeFileSync(args.out, `${report(saved.results, saved.machine)}\n`);
    console.log(`wrote ${args.out}`);
    return;
  }
  if (!existsSync(join(repoRoot, 'dist/node/index.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');
  const names = args.corpus ?? Object.keys(CORPORA);
  const info = machine();
  const results = [];
  for (const name of args.searchOnly ? [] : names) {
    const corpus = CORPORA[name];
    if (!corpus) throw new Error(`unknown corpus ${name}; known: ${Object.keys(CORPORA).join(', ')}`);
    const root = corpus.find();
    if (!root || !existsSync(root)) {
      console.log(`${name}: not present, skipped`);
      continue;
    }
    const startedAt = isoNow();
    const corpusLoad = loadavg();
    const notes = [];
    let respectGitignore = true;
    if (gitignoreIgnoresEverything(root)) {
      respectGitignore = false;
      notes.push('The top-level .gitignore ends with Debian\'s "/*" (ignore everything): indexed with `respectGitignore: false`.');
    } else if (name === 'linux') {
      notes.push('Debian\'s "/*" block was removed from the top-level .gitignore of this extracted copy: the kernel\'s own .gitignore rules apply.');
    }
    if (!existsSync(join(root, corpus.edit))) throw new Error(`${name}: ${corpus.edit} not found under ${root}`);
    notes.push(`One-file edit: \`${corpus.edit}\` (${fmt.n(statSync(join(root, corpus.edit)).size)} bytes) with one function appended (read through an overlay fs; the tree is not modified).`);
    const runs = args.runs ?? corpus.runs;
    const spec = { root, edit: corpus.edit, respectGitignore, workers: args.workers, pipeline: args.pipeline, bodies: args.bodies, repeats: corpus.repeats };
    const calibration = await runChild({ ...spec, calibrate: true });
    console.log(`${name} yardstick: parse-only ${calibration.parseMBps.toFixed(2)} MB/s on one core (${fmt.n(calibration.files)} files, ${calibration.mb.toFixed(1)} MB)`);
    const done = [];
    const withoutGraph = [];
    for (let i = 0; i < runs; i++) {
      // Queries, re-checks and edits on the first build only: they do not depend on the run.
      const r = await runChild({ ...spec, extras: i === 0, warm: args.warm && corpus.warm === true });
      done.push(r);
      console.log(`${name} run ${i + 1}/${runs}: full ${fmt.s(r.fullMs)}, cpu ${r.cpuS.toFixed(1)} s, main busy ${(r.mainBusy * 100).toFixed(0)} %, ${fmt.n(r.files)} files, peak ${r.peakRssMB.toFixed(0)} MB, others' CPU ${r.othersCpuS.toFixed(1)} s, load ${loadavg()}`);
      if (i === 0 && r.graphQueries) console.log(`${name} graph queries: ${JSON.stringify(r.graphQueries)}`);
      if (args.graphBaseline) {
        // The same build without the code graph, alternating with the graph builds (the machine drifts).
        const o = await runChild({ ...spec, graph: false, extras: false, warm: args.warm && corpus.warm === true });
        withoutGraph.push(o);
        console.log(`${name} run ${i + 1}/${runs} without the graph: full ${fmt.s(o.fullMs)}, cpu ${o.cpuS.toFixed(1)} s, peak ${o.peakRssMB.toFixed(0)} MB, DB ${fmt.mb(o.dbBytes)} MB`);
      }
    }
    const ctagsRuns = [];
    if (args.ctags) {
      for (let i = 0; i < runs; i++) {
        const c = await runCtags(root);
        ctagsRuns.push(c);
        console.log(`${name} ctags ${i + 1}/${runs}: ${fmt.s(c.wallMs)}, peak ${c.peakRssMB.toFixed(0)} MB`);
      }
    }
    if (args.transfer) {
      const t = await runChild({ ...spec, transfer: true });
      notes.push(
        `Main-thread cost per MB of source (--transfer, ${fmt.n(t.files)} files): read ${t.readMsPerMB.toFixed(2)} ms, content hash ${t.hashMsPerMB.toFixed(2)} ms, UTF-8 decode ${t.decodeMsPerMB.toFixed(2)} ms, postMessage of the text ${t.postSourceMsPerMB.toFixed(2)} ms vs of the path only ${t.postPathMsPerMB.toFixed(2)} ms.`,
      );
    }
    const s = summarise(name, corpus, root, done, ctagsRuns, notes);
    if (withoutGraph.length > 0) {
      s.noGraph = {
        runs: withoutGraph.length,
        fullMs: median(withoutGraph.map((r) => r.fullMs)),
        fullRange: [Math.min(...withoutGraph.map((r) => r.fullMs)), Math.max(...withoutGraph.map((r) => r.fullMs))],
        cpuS: median(withoutGraph.map((r) => r.cpuS)),
        peakRssMB: median(withoutGraph.map((r) => r.peakRssMB)),
        dbBytes: withoutGraph[0].dbBytes,
        ...(withoutGraph.every((r) => r.warmFullMs !== undefined) ? { warmFullMs: median(withoutGraph.map((r) => r.warmFullMs)) } : {}),
      };
    }
    s.calibration = calibration;
    if (!args.ctags) {
      // Keep the last ctags timing of this tree (ctags does not change between our runs).
      const before = readPrevious(args.out).find((p) => p.name === name && p.root === root && p.ctagsMs !== undefined);
      if (before) {
        Object.assign(s, { ctagsMs: before.ctagsMs, ctagsRssMB: before.ctagsRssMB, ctagsOthersCpuS: before.ctagsOthersCpuS, ratio: s.fullMs / before.ctagsMs });
        s.notes.push(`ctags timing carried over from the run of ${before.run?.date ?? 'an earlier run'} (this run used --no-ctags).`);
      }
    }
    s.run = { date: startedAt, endDate: isoNow(), loadBefore: corpusLoad, loadAfter: loadavg(), args: process.argv.slice(2).join(' ') };
    results.push(s);
    console.log(
      `${name}: ${fmt.n(s.files)} files, ${fmt.mb(s.sourceBytes)} MB, full ${fmt.s(s.fullMs)} (${fmt.n(s.filesPerS)} files/s, ${s.mbPerS.toFixed(2)} MB/s), peak ${s.peakRssMB.toFixed(0)} MB, DB ${fmt.mb(s.dbBytes)} MB, query ${fmt.ms(s.queryMedianMs)} / p99 ${fmt.ms(s.queryP99Ms)}, re-check ${fmt.ms(s.recheckMs)}, edit ${fmt.ms(s.editMs)}${s.ctagsMs ? `, ctags ${fmt.s(s.ctagsMs)} (ratio ${s.ratio.toFixed(1)}×)` : ''}`,
    );
  }
  // glob and grep against ripgrep on the corpora that have search rows (scripts/bench-search.mjs).
  info.search = { ...(readPreviousMachine(args.out)?.search ?? {}) };
  if (args.search) {
    for (const name of names.filter((n) => SEARCH_CORPORA.includes(n))) {
      const root = CORPORA[name].find();
      if (!root || !existsSync(root)) continue;
      const out = execFileSync(process.execPath, [join(repoRoot, 'scripts/bench-search.mjs'), '--corpus', name, '--root', root, ...(args.runs ? ['--runs', String(args.runs)] : [])], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const r = JSON.parse(out.trim().split('\n').pop());
      if (r.absent) continue;
      r.args = process.argv.slice(2).join(' ');
      info.search[name] = r;
      for (const row of r.rows) console.log(`${name} ${row.name}: ${fmt.ms(row.oursMs)} vs rg ${fmt.ms(row.rgMs)} (${(row.oursMs / row.rgMs).toFixed(1)}×), same files: ${row.same}${row.firstMs === undefined ? '' : `, first result ${fmt.ms(row.firstMs)}`}`);
    }
  }
  if (Object.keys(info.search).length === 0) delete info.search;
  // Token economy on Django (scripts/bench-tokens.mjs): 30 questions, the ckg tool against grep-and-read.
  info.tokens = readPreviousMachine(args.out)?.tokens;
  if (args.tokens && !args.searchOnly && names.includes('django') && existsSync(CORPORA.django.find())) {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts/bench-tokens.mjs'), '--root', CORPORA.django.find()], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const r = JSON.parse(out.trim().split('\n').pop());
    if (!r.absent) {
      info.tokens = { ...r, date: isoNow() };
      console.log(`token economy: ${r.ckgChars} vs ${r.baselineChars} characters (${(r.share * 100).toFixed(1)} %), ${r.locations} locations, ${r.wrong} wrong`);
    }
  }
  if (info.tokens === undefined) delete info.tokens;
  // The snapshot key on the git copies of the corpora (skipped by the script when absent).
  if (args.snapshot && !args.searchOnly) {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts/bench-snapshot.mjs'), '--runs', '7'], { encoding: 'utf8' });
    const lines = out.split('\n').filter((l) => l.startsWith('/') && !l.includes('absent'));
    for (const l of lines) console.log(l);
    if (lines.length > 0) info.snapshotKey = { date: isoNow(), lines };
  }
  info.snapshotKey ??= readPreviousMachine(args.out)?.snapshotKey;
  // Integrity-check cost, bit-flip detection, soak and stress (scripts/bench-reliability.mjs).
  if (args.reliability && !args.searchOnly) {
    const out = execFileSync(process.execPath, [join(repoRoot, 'scripts/bench-reliability.mjs')], { encoding: 'utf8', maxBuffer: 1 << 26 });
    const lines = out.split('\n').filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
    for (const l of lines) console.log(l);
    if (lines.length > 0) info.reliability = { date: isoNow(), lines };
  }
  info.reliability ??= readPreviousMachine(args.out)?.reliability;
  if (results.length === 0 && info.snapshotKey === undefined && info.search === undefined && info.reliability === undefined) {
    console.log('no corpus present: nothing measured');
    return;
  }
  // Corpora not measured in this run keep their previous rows (each with its own run info).
  const jsonPath = args.out.replace(/\.md$/, '') + '.json';
  const previous = readPrevious(args.out);
  const order = Object.keys(CORPORA);
  const merged = [...previous.filter((p) => !results.some((r) => r.name === p.name)), ...results].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const md = report(merged, info);
  if (args.write) {
    writeFileSync(args.out, `${md}\n`);
    writeFileSync(jsonPath, `${JSON.stringify({ machine: info, results: merged }, null, 2)}\n`);
    console.log(`wrote ${args.out} and ${jsonPath}`);
  } else {
    console.log(md);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
