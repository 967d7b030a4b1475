#!/usr/bin/env node
// The cached CLI call, as a whole process: `ckg-wasm function <name> <root> --no-body` with the
// index already in the cache folder, answered by the answer server (the default: the call before
// started it) and in its own process (`--no-daemon`), against a bare `node -e 0` in the same run
// (this machine is noisy: the ratio and the baseline say more than one figure alone).
//
//   node scripts/cli-latency.mjs [--root DIR] [--name NAME] [--runs N] [--cli dist/cli/main.js of another build]
//
// Uses dist/ (npm run build first). The first call builds the index into a temporary cache
// folder and starts the answer server (in a temporary runtime folder, stopped at the end); the
// timed calls alternate with the baseline. Prints medians, min and max in ms.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const root = option('--root', '/usr/lib/python3/dist-packages/django');
const name = option('--name', 'get_object_or_404');
const runs = Number(option('--runs', '15'));
const main = option('--cli', fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)));
const cache = mkdtempSync(join(tmpdir(), 'ckg-cli-latency-'));
const runtime = mkdtempSync(join(tmpdir(), 'ckg-rt-'));
const env = { ...process.env, CKG_WASM_DAEMON: '1', CKG_WASM_RUNTIME_DIR: runtime };

function timed(argv, allowed = [0]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (!allowed.includes(result.status)) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout, status: result.status };
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
};

try {
  const call = [main, 'function', name, root, '--no-body', '--cache-dir', cache];
  const build = timed([main, 'index', root, '--cache-dir', cache, '--no-progress']);
  const first = timed(call); // the call after the build: it saves what later calls reuse, and starts the server
  // Wait for the server (it opens the index with the call that started it).
  for (let i = 0; i < 300 && !timed([main, 'daemon', 'status'], [0, 1]).stdout.includes(' 1 calls answered'); i++) spawnSync('sleep', ['0.1']);
  const served = [];
  const own = [];
  const bare = [];
  const loadBefore = loadavg();
  for (let i = 0; i < runs; i++) {
    served.push(timed(call).ms);
    own.push(timed([...call, '--no-daemon']).ms);
    bare.push(timed(['-e', '0']).ms);
  }
  const fmt = (values) => {
    const s = stats(values);
    return `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}-${s.max.toFixed(0)})`;
  };
  console.log(`root ${root}; ${runs} runs; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`build ${(build.ms / 1000).toFixed(2)} s; first call after it ${first.ms.toFixed(0)} ms`);
  console.log(`cached call, answer server: ${fmt(served)}`);
  console.log(`cached call, --no-daemon:   ${fmt(own)}`);
  console.log(`node -e 0:                  ${fmt(bare)}`);
  console.log(`answer: ${first.stdout.split('\n')[0]}`);
} finally {
  spawnSync(process.execPath, [main, 'daemon', 'stop'], { env });
  rmSync(cache, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
