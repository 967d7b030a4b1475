#!/usr/bin/env node
// Copies the grammar and runtime wasm files from the installed npm packages into wasm/ and
// checks them against wasm/manifest.json (language → package, version, file). The binaries are
// build output; the manifest is committed.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const manifest = JSON.parse(readFileSync(join(root, 'wasm', 'manifest.json'), 'utf8'));
mkdirSync(join(root, 'wasm'), { recursive: true });

let problems = 0;
// Some packages (web-tree-sitter) do not export ./package.json: look in node_modules folders.
function packageJsonOf(name) {
  for (const dir of require.resolve.paths(name) ?? []) {
    const candidate = join(dir, name, 'package.json');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`package ${name} is not installed`);
}

for (const entry of [...manifest.runtime, ...manifest.grammars]) {
  const pkgJson = packageJsonOf(entry.package);
  const version = JSON.parse(readFileSync(pkgJson, 'utf8')).version;
  if (version !== entry.version) {
    console.error(`wasm/manifest.json: ${entry.package} is ${version} in node_modules, manifest says ${entry.version}`);
    problems++;
  }
  const from = join(dirname(pkgJson), entry.path ?? entry.file);
  if (!existsSync(from)) {
    console.error(`missing ${from}`);
    problems++;
    continue;
  }
  copyFileSync(from, join(root, 'wasm', entry.file));
}
if (problems > 0) process.exit(1);
console.log(`copied ${manifest.runtime.length + manifest.grammars.length} wasm files into wasm/`);
