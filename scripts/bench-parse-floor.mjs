#!/usr/bin/env node
// The floor under a full index: the same files the index would parse, parsed by web-tree-sitter
// in the same number of worker threads, and nothing else (no visitor, no SQLite, trees freed at
// once). The main thread reads the files and hands them out as the index does. Whatever a full
// index takes beyond this is extraction, writing and coordination; this part is tree-sitter's.
//
//   node scripts/bench-parse-floor.mjs [--workers N] <codebase folder>
//
// Needs a build (`npm run build`). Installs nothing.
import nodeFs from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

const dist = new URL('../dist/', import.meta.url);
const load = (rel) => import(new URL(rel, dist).href);

if (!isMainThread) {
  const { ParserPool } = await load('parser/runtime.js');
  const { createDefaultRegistry } = await load('languages/index.js');
  const registry = createDefaultRegistry();
  const pool = new ParserPool({});
  parentPort.on('message', async ({ id, languageId, source }) => {
    if (id === undefined) {
      await pool.delete();
      parentPort.close();
      return;
    }
    (await pool.parse(registry.get(languageId), source)).delete();
    parentPort.postMessage(id);
  });
} else {
  const args = process.argv.slice(2);
  let workers = availableParallelism();
  let root;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--workers') workers = Number(args[++i]);
    else root = args[i];
  }
  if (!root || !nodeFs.existsSync(root)) {
    console.error('usage: node scripts/bench-parse-floor.mjs [--workers N] <codebase folder>');
    process.exit(2);
  }
  const { walkCodebase, DEFAULT_SKIPPED_DIRECTORIES } = await load('indexer/walker.js');
  const { FsAdapter } = await load('fs/adapter.js');
  const { createDefaultRegistry } = await load('languages/index.js');
  const { looksBinary, looksMinified, decodeSource } = await load('indexer/decode.js');
  const walk = await walkCodebase(new FsAdapter(nodeFs), root, {
    registry: createDefaultRegistry(),
    maxFileSize: 1 << 20,
    skipDirectories: DEFAULT_SKIPPED_DIRECTORIES,
    exclude: [],
    respectGitignore: true,
  });
  const threadCpu = () =>
    Object.fromEntries(
      nodeFs.readdirSync('/proc/self/task').map((tid) => {
        const stat = nodeFs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [tid, (Number(f[11]) + Number(f[12])) / 100];
      }),
    );
  const before = threadCpu();
  const started = performance.now();
  const ports = Array.from({ length: workers }, () => new Worker(new URL(import.meta.url)));
  const queued = ports.map(() => 0); // bytes queued per worker: the least loaded gets the next file
  let next = 0;
  let parsedFiles = 0;
  let parsedBytes = 0;
  let ruledOut = 0;
  const take = () => {
    // As the index: read, skip binary / minified, skip files the language rules out.
    while (next < walk.files.length) {
      const file = walk.files[next++];
      const bytes = nodeFs.readFileSync(file.path);
      if (looksBinary(bytes) || looksMinified(bytes)) continue;
      const source = decodeSource(bytes);
      if (file.language.mayDefine?.(source) === false) {
        ruledOut++;
        continue;
      }
      return { file, source };
    }
    return undefined;
  };
  await new Promise((resolve) => {
    let inFlight = 0;
    const pump = () => {
      while (inFlight < workers * 8) {
        const job = take();
        if (!job) break;
        const w = queued.indexOf(Math.min(...queued));
        queued[w] += job.source.length;
        inFlight++;
        parsedFiles++;
        parsedBytes += job.file.size;
        ports[w].postMessage({ id: job.source.length, languageId: job.file.language.id, source: job.source });
      }
      if (inFlight === 0) resolve();
    };
    ports.forEach((port, w) =>
      port.on('message', (length) => {
        queued[w] -= length;
        inFlight--;
        pump();
      }),
    );
    pump();
  });
  const wallS = (performance.now() - started) / 1000;
  const after = threadCpu();
  const cpu = Object.entries(after)
    .map(([tid, s]) => [tid, s - (before[tid] ?? 0)])
    .sort((a, b) => b[1] - a[1]);
  for (const port of ports) port.postMessage({});
  const total = cpu.reduce((n, [, s]) => n + s, 0);
  console.log(
    `${root}: parsed ${parsedFiles} files (${(parsedBytes / 2 ** 20).toFixed(1)} MB; ${ruledOut} ruled out without parsing, ` +
      `${walk.skipped.length} skipped by the walk) in ${workers} workers: wall ${wallS.toFixed(1)} s, CPU ${total.toFixed(1)} s ` +
      `(busiest threads: ${cpu.slice(0, workers + 2).map(([, s]) => s.toFixed(1)).join(', ')} s), ` +
      `${(parsedBytes / 2 ** 20 / (cpu.slice(0, workers).reduce((n, [, s]) => n + s, 0) || 1)).toFixed(2)} MB/s per worker core`,
  );
  process.exit(0);
}
