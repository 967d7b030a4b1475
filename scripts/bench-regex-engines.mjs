#!/usr/bin/env node
// The regex-safety options of grep, measured on one tree (default Django): what each costs on
// ordinary patterns, and what each does with a catastrophic one. Not part of `npm run bench`:
// it justifies the engine choice written down in docs/search.md.
//
//   node scripts/bench-regex-engines.mjs [--root DIR]
//
// Options measured, each over the decoded texts of every file (read once, before timing):
// - irregexp: V8's backtracking RegExp on the calling thread (fast, but a pattern like (a+)+$
//   never returns, and nothing can interrupt it: the thread is stuck);
// - irregexp in a worker: the same engine in a worker_threads Worker that the caller can
//   terminate at a deadline; costs the copy of each text to the worker and a new worker
//   after each termination;
// - re2js: the linear-time RE2 port, on whole texts;
// - ckg-wasm's matcher: literals by indexOf, regexes by re2js only on the lines holding the
//   pattern's required literals.
import { execFileSync } from 'node:child_process';
import nodeFs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RE2JS } from 're2js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? process.argv[rootArg + 1] : '/usr/lib/python3/dist-packages/django';

const { compilePattern } = await import(join(repoRoot, 'dist/search/pattern.js'));
const { createMatcher } = await import(join(repoRoot, 'dist/search/matcher.js'));
const { decodeText } = await import(join(repoRoot, 'dist/search/text.js'));

const files = execFileSync('rg', ['--files', '--no-require-git', root], { encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n');
const texts = [];
for (const f of files) {
  const bytes = nodeFs.readFileSync(f);
  if (bytes.subarray(0, 8192).indexOf(0) < 0) texts.push(decodeText(bytes));
}
const mb = texts.reduce((n, t) => n + t.length, 0) / 2 ** 20;
console.log(`${root}: ${texts.length} text files, ${mb.toFixed(1)} MB`);

const PATTERNS = ['QuerySet', 'def (get|set)_\\w+', '\\w+Error\\(', '^\\s*raise .*Error', 'import (os|sys)$'];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function time(fn, runs = 5) {
  fn();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** Files with a matching line, per engine (all must agree). */
const rows = [];
for (const p of PATTERNS) {
  const js = new RegExp(p, 'm');
  const re2 = RE2JS.compile(p, RE2JS.MULTILINE);
  const ours = await createMatcher(compilePattern(p));
  let a = 0;
  let b = 0;
  let c = 0;
  const irregexp = time(() => {
    a = 0;
    for (const t of texts) if (js.test(t)) a++;
  });
  const re2js = time(() => {
    b = 0;
    for (const t of texts) if (re2.test(t)) b++;
  });
  const matcher = time(() => {
    c = 0;
    for (const t of texts) if (ours.test(t.endsWith('\n') ? t.slice(0, -1) : t)) c++;
  });
  rows.push({ pattern: p, irregexp, re2js, matcher, files: [a, b, c] });
}

// A worker running irregexp: the texts are posted to it (a structured clone of each string).
const workerSource = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ pattern, texts }) => {
  const re = new RegExp(pattern, 'm');
  let n = 0;
  for (const t of texts) if (re.test(t)) n++;
  parentPort.postMessage(n);
});`;
const startWorker = async () => {
  const t = performance.now();
  const w = new Worker(workerSource, { eval: true });
  await new Promise((resolve) => w.once('online', resolve));
  return { w, startMs: performance.now() - t };
};
const { w, startMs } = await startWorker();
const ask = (pattern) =>
  new Promise((resolve) => {
    w.once('message', resolve);
    w.postMessage({ pattern, texts });
  });
for (const row of rows) {
  await ask(row.pattern);
  const ms = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await ask(row.pattern);
    ms.push(performance.now() - t);
  }
  row.worker = median(ms);
}
// The copy alone: posting the texts to a worker that only answers.
const copyMs = await (async () => {
  const ms = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await ask('$^');
    ms.push(performance.now() - t);
  }
  return median(ms);
})();
await w.terminate();

// The catastrophic pattern: a backtracking engine on 25 characters, re2js on 5 MB.
const evil = `${'a'.repeat(25)}!`;
let t = performance.now();
/(a+)+$/.test(evil);
const irregexpEvilMs = performance.now() - t;
const long = `${'a'.repeat(5 * 2 ** 20)}!`;
t = performance.now();
RE2JS.compile('(a+)+$').test(long);
const re2EvilMs = performance.now() - t;
// The worker stops it: terminate at a 100 ms deadline, then a new worker for the next search.
const stuck = await startWorker();
t = performance.now();
stuck.w.postMessage({ pattern: '(a+)+$', texts: [`${'a'.repeat(40)}!`] });
await new Promise((resolve) => setTimeout(resolve, 100));
await stuck.w.terminate();
const terminateMs = performance.now() - t - 100;

console.log('\n| pattern | irregexp | irregexp in a worker | re2js, whole texts | ckg-wasm matcher | files (irregexp / re2js / matcher) |');
console.log('|---|---:|---:|---:|---:|---|');
for (const r of rows) console.log(`| \`${r.pattern}\` | ${r.irregexp.toFixed(0)} ms | ${r.worker.toFixed(0)} ms | ${r.re2js.toFixed(0)} ms | ${r.matcher.toFixed(0)} ms | ${r.files.join(' / ')} |`);
console.log(`\nPosting the texts to a worker (no matching): ${copyMs.toFixed(0)} ms; starting a worker: ${startMs.toFixed(0)} ms; terminating a stuck one: ${terminateMs.toFixed(0)} ms.`);
console.log(`(a+)+$: irregexp on 25 a's and a '!': ${irregexpEvilMs.toFixed(0)} ms (each extra 'a' doubles it); re2js on 5 MiB: ${re2EvilMs.toFixed(0)} ms.`);
