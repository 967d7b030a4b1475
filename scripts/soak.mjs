#!/usr/bin/env node
// Soak: RSS over open → update → query → close cycles on a 20-file memfs tree (run with
// --expose-gc; `scripts/bench-reliability.mjs` runs it). A flat line means nothing a cycle
// leaves behind accumulates.
//   node --expose-gc scripts/soak.mjs [--cycles 1000] [--every 250]
import v8 from 'node:v8';
import { Volume } from 'memfs';

const { CKGDatabase } = await import(new URL('../dist/index.js', import.meta.url).href);
const { initSql } = await import(new URL('../dist/db/sql.js', import.meta.url).href);
const SQL = await initSql({});
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const cycles = opt('--cycles', 1000);
const every = opt('--every', 250);

const vol = new Volume();
for (let i = 0; i < 20; i++) vol.mkdirSync(`/soak/pkg${i % 4}`, { recursive: true });
const write = (i, version) =>
  vol.writeFileSync(`/soak/pkg${i % 4}/m${i}.py`, `class Model${i}:\n    def save(self):\n        return ${version}\n\ndef helper_${i}(x):\n    return x * ${version}\n`);
for (let i = 0; i < 20; i++) write(i, 0);

/** After two full GCs: RSS, live JS heap, V8's young generation, JIT code, SQLite's own allocations (MB). */
const sample = () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size / 1e6;
  return { rss: process.memoryUsage().rss / 1e6, live: process.memoryUsage().heapUsed / 1e6, young: space('new_space'), code: space('code_space'), sqlite: Number(SQL._sqlite3_memory_used()) / 1e6 };
};
const rss = () => sample();
const marks = [[0, rss()]];
const started = performance.now();
for (let cycle = 1; cycle <= cycles; cycle++) {
  const db = await CKGDatabase.open({ codebasePath: '/soak', fs: vol });
  write(cycle % 20, cycle);
  await db.update();
  const rows = await db.queryFunction('save', 'class_method');
  if (rows.length !== 20) throw new Error(`cycle ${cycle}: ${rows.length} rows`);
  db.close();
  if (cycle % every === 0) marks.push([cycle, rss()]);
}
const perCycle = (performance.now() - started) / cycles;
const row = (key, digits = 0) => marks.map(([, m]) => m[key].toFixed(digits)).join('/');
// What grew after the first mark: retained memory (live heap, SQLite) or V8's own sizing?
const [first, last] = [marks[1][1], marks.at(-1)[1]];
const grown = (key) => last[key] - first[key];
const verdict =
  grown('live') < 1 && grown('sqlite') < 0.1
    ? ` From ${marks[1][0]} to ${marks.at(-1)[0]} cycles nothing is retained (live heap +${grown('live').toFixed(1)} MB, SQLite +${grown('sqlite').toFixed(2)} MB); RSS +${grown('rss').toFixed(0)} MB is V8 sizing its young generation (+${grown('young').toFixed(1)} MB, bounded by --max-semi-space-size) and JIT code (+${grown('code').toFixed(1)} MB).`
    : ` Retained from ${marks[1][0]} to ${marks.at(-1)[0]} cycles: live heap +${grown('live').toFixed(1)} MB, SQLite +${grown('sqlite').toFixed(2)} MB.`;
console.log(
  `- After 0/${marks.slice(1).map(([c]) => c).join('/')} cycles of open → update → query → close on a 20-file memfs tree (${perCycle.toFixed(1)} ms a cycle), in MB after a full GC: RSS ${row('rss')}; live JS heap ${row('live', 1)}; V8 young generation ${row('young', 1)}; JIT code ${row('code', 1)}; SQLite allocations ${row('sqlite', 2)}.${verdict} Load ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
);
