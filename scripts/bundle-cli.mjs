#!/usr/bin/env node
// The `ckg-wasm` command as one bundled module (plus the chunks it imports only when it builds or
// serves MCP): a CLI call answered from a stored index loads ~15 files instead of ~75 modules,
// each resolved, read and compiled on its own (about 15 % of such a call). Run by `npm run build`
// after tsc, from the TypeScript sources; npm packages stay outside the bundle.
//
// The bundle lives in dist/cli/, two levels below the package root like every dist/ module, so
// what the code finds relative to itself is found the same way: ../../wasm/, ../../package.json,
// and ../../dist/node/worker-thread.js, the parse workers' script.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/cli`;
rmSync(outdir, { recursive: true, force: true }); // tsc's per-module output of src/cli
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli/main.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The package's own `#platform` sources (package.json imports), not the built copies.
  conditions: ['ckg-source'],
  packages: 'external',
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  sourcemap: true,
  logLevel: 'warning',
});
