#!/usr/bin/env node
// Stress: 50,000 files in 8 languages on memfs, built with a worker pool, then 500 random edits
// in batches of 10, each followed by update(), while 4 callers query without pause; every
// answer is checked (scripts/stress-core.mjs). `scripts/bench-reliability.mjs` runs it.
//   node scripts/stress.mjs [--files 50000] [--edits 500]
import os from 'node:os';
import { Volume } from 'memfs';
import { runStress } from './stress-core.mjs';

const lib = await import(new URL('../dist/node/index.js', import.meta.url).href);
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const files = opt('--files', 50_000);
const edits = opt('--edits', 500);
const pool = lib.createWorkerPool();
try {
  const r = await runStress({ lib, Volume, files, edits, batch: 10, callers: 4, processor: pool, log: (line) => console.error(line) });
  const seconds = r.wallMs / 1000;
  console.log(
    `- ${r.files.toLocaleString('en-US')} files in 8 languages (memfs, ${pool.size} parse workers): build ${(r.buildMs / 1000).toFixed(1)} s (${Math.round(r.files / (r.buildMs / 1000)).toLocaleString('en-US')} files/s); ${r.edits} random edits (rewrites, deletions, additions) in ${r.updates} updates of 10, median update ${r.updateMedianMs.toFixed(0)} ms (${(r.edits / seconds).toFixed(1)} edits/s); ${r.queries.toLocaleString('en-US')} queries from ${r.callers} callers meanwhile (${Math.round(r.queries / seconds).toLocaleString('en-US')}/s), every answer the index before or after an update. Load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}.`,
  );
} finally {
  await pool.close();
}
