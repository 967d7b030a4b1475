// The package as a newcomer gets it: `npm pack` of this checkout, installed with npm from the
// tarball into a fresh folder outside the repository (so nothing of the repository's
// node_modules, @types/sql.js included, leaks in). Done once per test run and shared by the
// consumer test files (they run in parallel processes): the first one packs and installs, the
// others wait for it. Dev tools the consumers use (typescript, vite, vitest, esbuild, memfs,
// playwright-core, @types/node, lightning-fs) are symlinked from the repository: they are not
// what is being tested, and installing them would take minutes.
//
// CKG_CONSUMER_TARBALL=/path/to/ckg-wasm-x.tgz runs the consumers against another tarball
// (an older build, to see which steps failed before).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The tools consumers use, linked from the repository's node_modules. */
const TOOLS = ['typescript', 'vite', 'vitest', 'esbuild', 'memfs', 'playwright-core', '@types/node', '@isomorphic-git/lightning-fs'];

export interface PackedPackage {
  /** The folder whose node_modules holds the installed package; consumer projects are made below it. */
  readonly root: string;
  readonly tarball: string;
  /** Size of the .tgz. */
  readonly tarballBytes: number;
  /** The files npm packed, relative to the package root. */
  readonly files: readonly string[];
  /** Bytes on disk of node_modules after `npm install <tarball>` (ckg-wasm and its dependencies). */
  readonly installBytes: number;
  /** Bytes of node_modules/ckg-wasm alone. */
  readonly packageBytes: number;
  readonly installMs: number;
}

function duBytes(path: string): number {
  const info = lstatSync(path);
  if (info.isSymbolicLink()) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of readdirSync(path)) total += duBytes(join(path, name));
  return total;
}

/** What identifies the package being tested in this run. */
function identity(): string {
  const given = process.env.CKG_CONSUMER_TARBALL;
  if (given) return `${given}:${statSync(given).mtimeMs}`;
  const stamp = ['package.json', 'README.md', 'dist/index.js', 'dist/node/index.js', 'wasm/manifest.json'].map((f) => {
    const path = join(REPO, f);
    if (!existsSync(path)) throw new Error(`${f} is missing: run \`npm run build\` first`);
    return `${f}:${statSync(path).mtimeMs}`;
  });
  return stamp.join(',');
}

const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Removes the folders of earlier runs whose test runner is gone. */
function cleanEarlierRuns(current: string): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith('ckg-consumers-') || join(tmpdir(), name) === current || name.endsWith('.lock')) continue;
    const owner = join(tmpdir(), name, 'owner.json');
    try {
      const { pid } = JSON.parse(readFileSync(owner, 'utf8')) as { pid: number };
      if (processAlive(pid)) continue;
    } catch {
      // no owner file: an interrupted run
    }
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function build(dir: string): Promise<PackedPackage> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'owner.json'), JSON.stringify({ pid: process.ppid }));
  let tarball = process.env.CKG_CONSUMER_TARBALL;
  let files: string[];
  if (tarball) {
    const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 << 20 });
    files = stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
  } else {
    // --ignore-scripts: `npm test` has just built dist/ (prepack would build it again).
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, maxBuffer: 16 << 20 });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(dir, packed!.filename);
    files = packed!.files.map((f) => f.path);
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ckg-consumers', private: true, type: 'module', dependencies: { 'ckg-wasm': `file:${tarball}` } }, null, 2));
  const started = Date.now();
  // From the registry (cached tarballs first), as `npm install ckg-wasm` would.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: dir, maxBuffer: 16 << 20 });
  const installMs = Date.now() - started;
  const installBytes = duBytes(join(dir, 'node_modules'));
  const packageBytes = duBytes(join(dir, 'node_modules', 'ckg-wasm'));
  for (const tool of TOOLS) {
    const link = join(dir, 'node_modules', tool);
    if (existsSync(link)) continue; // installed as a dependency of the package itself
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPO, 'node_modules', tool), link, 'dir');
  }
  const packed: PackedPackage = { root: dir, tarball, tarballBytes: statSync(tarball).size, files, installBytes, packageBytes, installMs };
  writeFileSync(join(dir, 'ready.json'), JSON.stringify(packed));
  return packed;
}

let shared: Promise<PackedPackage> | undefined;

/** The packed and installed package of this test run (packed by whichever consumer test asks first). */
export function packedPackage(): Promise<PackedPackage> {
  shared ??= (async () => {
    const dir = join(tmpdir(), `ckg-consumers-${createHash('sha1').update(`${process.ppid}|${identity()}`).digest('hex').slice(0, 12)}`);
    const lock = `${dir}.lock`;
    for (const deadline = Date.now() + 10 * 60_000; Date.now() < deadline; ) {
      if (existsSync(join(dir, 'ready.json'))) return JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as PackedPackage;
      try {
        mkdirSync(lock);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250)); // another test file is packing
        continue;
      }
      try {
        cleanEarlierRuns(dir);
        return await build(dir);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    throw new Error(`timed out waiting for ${dir}`);
  })();
  return shared;
}

/** A fresh project folder below the installed package, with these files. */
export function project(packed: PackedPackage, name: string, files: Record<string, string>): string {
  const dir = join(packed.root, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** Runs a command; on failure the error carries its output. */
export async function exec(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args as string[], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20, timeout: 300_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n--- stdout\n${e.stdout ?? ''}\n--- stderr\n${e.stderr ?? ''}`);
  }
}

/** The repository's own tool binaries (linked into the consumers as well). */
export const bin = (name: 'tsc' | 'vitest' | 'vite'): string =>
  join(REPO, 'node_modules', name === 'tsc' ? 'typescript/bin/tsc' : name === 'vitest' ? 'vitest/vitest.mjs' : 'vite/bin/vite.js');

/**
 * The code block that follows `<!-- consumer:NAME -->` in a Markdown file of the repository:
 * the consumer tests run the README's snippets as they are written.
 */
export function snippet(file: string, name: string): string {
  const text = readFileSync(join(REPO, file), 'utf8');
  const marker = `<!-- consumer:${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no ${marker}`);
  const match = /```[\w-]*\n([\s\S]*?)```/.exec(text.slice(at + marker.length));
  if (!match) throw new Error(`${file}: no code block after ${marker}`);
  return match[1]!;
}
