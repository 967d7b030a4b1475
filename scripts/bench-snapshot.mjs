#!/usr/bin/env node
// Cost of the snapshot key (the cheap "did anything change?" check run on open and before every
// tool answer) on large git repositories. Installs nothing; skips corpora that are absent.
//
//   node scripts/bench-snapshot.mjs [--runs N] [dir ...]
//
// Default corpora: /work/corpora/django-git, /work/corpora/linux-git (git work trees) and
// /work/corpora/linux-source-6.1 (no .git: the stat-digest key). Needs a build (`npm run build`),
// or CKG_DIST=<folder> pointing at one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
let runs = 7;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Math.max(1, Number(args[++i]));
  else dirs.push(args[i]);
}
if (dirs.length === 0) dirs.push('/work/corpora/django-git', '/work/corpora/linux-git', '/work/corpora/linux-source-6.1');

const dist = process.env.CKG_DIST ?? fileURLToPath(new URL('../dist/', import.meta.url));
const load = (rel) => import(pathToFileURL(`${dist.replace(/\/?$/, '/')}${rel}`).href);
const [{ computeSnapshot, locateCodebase }, { FsAdapter }, { createDefaultRegistry }, walker, gitMod, indexMod] = await Promise.all([
  load('snapshot/key.js'),
  load('fs/adapter.js'),
  load('languages/index.js'),
  load('indexer/walker.js'),
  load('snapshot/git.js'),
  load('snapshot/git-index.js'),
]);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

async function time(fn) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

function gitStatus(dir) {
  try {
    const t0 = performance.now();
    execFileSync('git', ['status', '--porcelain'], { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] });
    return performance.now() - t0;
  } catch {
    return undefined;
  }
}

const adapter = new FsAdapter(fs);
const registry = createDefaultRegistry();
const walkOptions = {
  registry,
  maxFileSize: 1024 * 1024,
  skipDirectories: walker.DEFAULT_SKIPPED_DIRECTORIES,
  exclude: [],
  respectGitignore: true,
};

const results = [];
for (const dir of dirs) {
  if (!fs.existsSync(dir)) {
    console.log(`skip ${dir}: absent`);
    continue;
  }
  const isGit = fs.existsSync(`${dir}/.git`);
  const location = await locateCodebase(adapter, dir);
  const t0 = performance.now();
  const first = await computeSnapshot(adapter, dir, walkOptions, location);
  const cold = performance.now() - t0;
  const key = await time(() => computeSnapshot(adapter, dir, walkOptions, location));
  // What a long-lived CKGDatabase / CKGTool on node:fs does: folder listings kept between
  // re-checks (trustFolderMtimes), one stat per folder instead of a readdir.
  const cachedOptions = { ...walkOptions, listings: new walker.ListingCache() };
  await computeSnapshot(adapter, dir, cachedOptions, location);
  const keyCached = await time(() => computeSnapshot(adapter, dir, cachedOptions, location));
  const walk = await time(() => walker.walkCodebase(adapter, dir, walkOptions));
  const gitDir = isGit ? await gitMod.resolveGitDir(adapter, dir) : undefined;
  const head = gitDir ? await time(() => gitMod.resolveHead(adapter, gitDir)) : [NaN];
  const indexBytes = gitDir && fs.existsSync(`${gitDir}/index`) ? fs.readFileSync(`${gitDir}/index`) : undefined;
  const parse = indexBytes ? await time(() => indexMod.parseGitIndex(indexBytes, '')) : [NaN];
  const git = [];
  for (let i = 0; i < runs && isGit; i++) git.push(gitStatus(dir));
  const row = {
    corpus: dir,
    mode: first.mode,
    files: first.walk.files.length,
    indexEntries: indexBytes ? indexMod.parseGitIndex(indexBytes, '').entries.size : 0,
    firstCall: cold,
    keyMedian: median(key),
    keyMin: Math.min(...key),
    keyMax: Math.max(...key),
    keyCachedMedian: median(keyCached),
    keyCachedMin: Math.min(...keyCached),
    walkMedian: median(walk),
    headMedian: median(head),
    indexParseMedian: median(parse),
    gitStatusMedian: git.length === 0 || git.includes(undefined) ? undefined : median(git),
    runs,
    stable:
      (await computeSnapshot(adapter, dir, walkOptions, location)).key === first.key &&
      (await computeSnapshot(adapter, dir, cachedOptions, location)).key === first.key,
  };
  results.push(row);
  console.log(
    `${dir}: ${row.mode} key over ${row.files} indexable files (${row.indexEntries} index entries): ` +
      `median ${fmt(row.keyMedian)} (min ${fmt(row.keyMin)}, max ${fmt(row.keyMax)}, first call ${fmt(row.firstCall)}); ` +
      `with folder listings kept between re-checks (CKGDatabase on node:fs) median ${fmt(row.keyCachedMedian)} (min ${fmt(row.keyCachedMin)}); ` +
      `walk ${fmt(row.walkMedian)}` +
      (isGit ? `, HEAD ${fmt(row.headMedian)}, index parse ${fmt(row.indexParseMedian)}` : '') +
      (row.gitStatusMedian === undefined ? '' : `; git status --porcelain ${fmt(row.gitStatusMedian)}`) +
      (row.stable ? '' : ' [KEY NOT STABLE]'),
  );
}
if (process.env.BENCH_JSON) fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify(results, null, 2));
