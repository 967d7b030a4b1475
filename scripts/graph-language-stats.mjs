#!/usr/bin/env node
// The code graph of one language on a real codebase: call sites, the share resolved and how,
// unresolved by cause, a random sample of resolved calls with their source lines (to check by
// reading), and the CPU cost of parsing and extracting the files with and without the reference
// visitor (in this thread, the median of three rounds, each file parsed once per round).
//
//   node scripts/graph-language-stats.mjs <language> <codebase folder> [--sample 30] [--seed 1] [--rounds 3] [--no-gitignore]
//
// --rounds 0 skips the CPU measurement. --no-gitignore indexes files .gitignore rules would hide (Debian's linux-source ends its
// top-level .gitignore with "/*", which hides the whole tree).
// Needs a build (`npm run build`). Installs nothing.
import nodeFs from 'node:fs';
import { relative } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const load = (rel) => import(new URL(rel, dist).href);

const args = process.argv.slice(2);
const FLAGS = new Set(['--no-gitignore']);
const [language, root] = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1]?.startsWith('--') && !FLAGS.has(args[i - 1])));
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
if (!language || !root || !nodeFs.existsSync(root)) {
  console.error('usage: node scripts/graph-language-stats.mjs <language> <codebase folder> [--sample 30] [--seed 1] [--rounds 3] [--no-gitignore]');
  process.exit(2);
}
const sample = option('sample', 30);
let seed = option('seed', 1);
const rounds = option('rounds', 3);
const random = () => {
  // mulberry32: a fixed seed gives the same sample again.
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const { CKGDatabase } = await load('node/index.js');
const { ParserPool } = await load('parser/runtime.js');
const { extractSource } = await load('parser/extract.js');
const { createDefaultRegistry } = await load('languages/index.js');
const { default: initSqlJs } = await import('sql.js');

const db = await CKGDatabase.open({ codebasePath: root, fs: nodeFs, languages: [language], respectGitignore: !args.includes('--no-gitignore') });
const SQL = await initSqlJs();
const raw = new SQL.Database(db.export());
const rows = (sql, params = []) => {
  const stmt = raw.prepare(sql);
  const out = [];
  try {
    stmt.bind(params);
    while (stmt.step()) out.push(stmt.get());
  } finally {
    stmt.free();
  }
  return out;
};
const files = rows('SELECT path FROM files WHERE language = ?', [language]).map((r) => String(r[0]));
const calls = rows(
  `SELECT r.name, e.to_id IS NOT NULL, count(*) FROM edges e JOIN resolutions r ON r.code = e.resolution JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
   WHERE e.kind = 0 AND f.language = ? GROUP BY 1, 2 ORDER BY 3 DESC`,
  [language],
);
const total = calls.reduce((n, r) => n + Number(r[2]), 0);
const resolved = calls.filter((r) => Number(r[1]) === 1);
const resolvedCount = resolved.reduce((n, r) => n + Number(r[2]), 0);
const pct = (n) => `${((100 * n) / Math.max(total, 1)).toFixed(1)} %`;
console.log(`${language} in ${root}: ${files.length} files, ${total} call sites, ${resolvedCount} resolved (${pct(resolvedCount)})`);
console.log(`  resolved: ${resolved.map((r) => `${r[0]} ${r[2]}`).join(', ')}`);
console.log(`  unresolved: ${calls.filter((r) => Number(r[1]) === 0).map((r) => `${r[0]} ${r[2]}`).join(', ')}`);
for (const kind of [1, 2, 3]) {
  const [n, ok] = rows(`SELECT count(*), count(e.to_id) FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id WHERE e.kind = ? AND f.language = ?`, [kind, language])[0];
  console.log(`  ${['', 'imports', 'inherits', 'implements'][kind]}: ${n}, ${ok} resolved`);
}

// A sample of resolved calls, with the line they are on and where their target is.
const all = rows(
  `SELECT f.path, e.line, n.name, r.name, t.qualified_name, tf.path, t.start_line FROM edges e JOIN names n ON n.id = e.name_id JOIN resolutions r ON r.code = e.resolution
   JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id JOIN symbols t ON t.id = e.to_id JOIN files tf ON tf.id = t.file_id
   WHERE e.kind = 0 AND f.language = ? ORDER BY e.id`,
  [language],
);
const picked = new Set();
while (picked.size < Math.min(sample, all.length)) picked.add(Math.floor(random() * all.length));
console.log(`\nsample of ${picked.size} resolved calls:`);
for (const i of [...picked].sort((a, b) => a - b)) {
  const [path, line, name, how, target, targetPath, targetLine] = all[i];
  const text = nodeFs.readFileSync(String(path), 'utf8').split('\n')[Number(line) - 1]?.trim() ?? '';
  console.log(`- ${relative(root, String(path))}:${line} [${name}] ${how} -> ${target} (${relative(root, String(targetPath))}:${targetLine})\n    ${text.slice(0, 140)}`);
}
raw.close();
db.close();

// Parse + extract CPU, with and without references (--rounds 0: not measured; the kernel's
// 55,000 C files would be parsed three times in this thread).
if (rounds === 0) process.exit(0);
const registry = createDefaultRegistry();
const definition = registry.get(language);
const sources = files.map((p) => nodeFs.readFileSync(p, 'utf8'));
const pool = new ParserPool({});
const cpu = async (withGraph) => {
  const start = process.cpuUsage();
  for (const source of sources) await extractSource(pool, definition, source, undefined, withGraph);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};
await cpu(true); // warm up: grammar load, JIT
const without = [];
const withRefs = [];
for (let r = 0; r < rounds; r++) {
  without.push(await cpu(false));
  withRefs.push(await cpu(true));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const a = median(without);
const b = median(withRefs);
console.log(`\nparse + extract CPU: ${a.toFixed(2)} s without references, ${b.toFixed(2)} s with (+${((100 * (b - a)) / a).toFixed(0)} %), ${sources.reduce((n, s) => n + s.length, 0)} characters`);
await pool.delete();
