// A browser app as the README's browser section writes it (index.html + src/main.ts, no Vite
// config), built with Vite against the installed package and driven in Chromium: what `dist/`
// holds, what a first visit and a reload fetch for a Python-only codebase, and the answers.
// A second app (not from the README) checks the rest of the browser surface in Chromium:
// relative and root-relative `baseUrl` in the page and in a worker, `wasm.load` with a worker
// pool, LightningFS, picked files, and the error for a grammar that is not served.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic, type BrowserSession, type StaticServer } from '../helpers/browser.js';
import { bin, exec, packedPackage, project, snippet, type PackedPackage } from './package.js';

/** A wasm file's name without the content hash Vite adds (`tree-sitter-python-Bx3k9aQ1.wasm`). */
const unhashed = (path: string): string => path.split('/').pop()!.replace(/-[\w-]{8}\.wasm$/, '.wasm');

function filesBelow(dir: string): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push({ path: relative(dir, path), bytes: statSync(path).size });
    }
  };
  walk(dir);
  return out;
}

async function viteBuild(dir: string): Promise<void> {
  // As `npx vite build` in the project (production mode, whatever the test runner's NODE_ENV).
  await exec(process.execPath, [bin('vite'), 'build', '--logLevel', 'error'], dir, { NODE_ENV: 'production' });
}

let packed: PackedPackage;
let readmeApp: string;
let extraApp: string;
let browser: BrowserSession;
const servers: StaticServer[] = [];
const figures: Record<string, number> = {};

const EXTRA_MAIN = `
import LightningFS from '@isomorphic-git/lightning-fs';
import { CKGDatabase, createWebWorkerPool, memoryFileSystem, pickedFiles } from 'ckg-wasm';

const results: Record<string, unknown> = {};
const done = (): void => void (document.body.dataset.results = JSON.stringify(results));
const failure = (error: unknown): unknown => ({ code: (error as { code?: unknown }).code, message: String((error as Error).message ?? error) });

async function main(): Promise<void> {
  // A relative baseUrl, resolved against the page: public/ckg/ holds the two files ckg-wasm ships.
  const wasm = { baseUrl: 'ckg/' };
  const pool = createWebWorkerPool({ wasm, size: 2 });
  const lightning = new LightningFS('consumer-test', { wipe: true });
  await lightning.promises.mkdir('/repo');
  await lightning.promises.writeFile('/repo/app.py', 'def from_lightning():\\n    return 1\\n');
  const db = await CKGDatabase.open({ codebasePath: '/repo', fs: lightning, wasm, processor: pool });
  results.lightning = (await db.queryFunction('from_lightning'))[0]?.filePath;
  results.poolStarted = pool.started;
  db.close();
  await pool.close();

  // wasm.load serves the workers too (they ask the page), once per file.
  const asked: string[] = [];
  const load = async (name: string): Promise<Uint8Array | undefined> => {
    asked.push(name);
    if (name === 'web-tree-sitter.wasm') return undefined; // web-tree-sitter's own asset
    return new Uint8Array(await (await fetch('ckg/' + name)).arrayBuffer());
  };
  const loadPool = createWebWorkerPool({ wasm: { load }, size: 2 });
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) files['/load/m' + i + '.py'] = 'def f' + i + '():\\n    return ' + i + '\\n';
  const loaded = await CKGDatabase.open({ codebasePath: '/load', fs: memoryFileSystem(files), wasm: { load }, processor: loadPool });
  results.loadFunctions = loaded.stats().functions;
  results.loadAsked = asked.sort();
  results.loadWorkers = loadPool.started;
  loaded.close();
  await loadPool.close();

  // A grammar that is not served: one clear error that names the file and the fix.
  try {
    await CKGDatabase.open({ codebasePath: '/go', fs: memoryFileSystem({ '/go/main.go': 'package main\\n\\nfunc Serve() {}\\n' }), wasm: { files: { 'sql-wasm.wasm': 'ckg/sql-wasm.wasm' } } });
    results.missing = 'opened';
  } catch (error) {
    results.missing = failure(error);
  }

  // Root-relative baseUrl inside a worker the app made: resolved against the worker's location.
  const worker = new Worker(new URL('./db-worker.ts', import.meta.url), { type: 'module' });
  results.worker = await new Promise((resolve) => worker.addEventListener('message', (event) => resolve(event.data)));
  worker.terminate();
  done();
}

const picker = document.querySelector<HTMLInputElement>('#picker')!;
picker.addEventListener('change', () => {
  void (async () => {
    const fs = memoryFileSystem(await pickedFiles(picker.files!, '/picked'));
    const db = await CKGDatabase.open({ codebasePath: '/picked', fs, wasm: { baseUrl: '/ckg/' } });
    document.body.dataset.picked = JSON.stringify((await db.queryClass('Basket')).map((c) => c.filePath + ':' + c.startLine));
    db.close();
  })().catch((error: unknown) => (document.body.dataset.picked = JSON.stringify(failure(error))));
});
main().catch((error: unknown) => {
  results.fatal = failure(error);
  done();
});
`;

const DB_WORKER = `
import { CKGDatabase, memoryFileSystem } from 'ckg-wasm';
const fs = memoryFileSystem({ '/w/job.py': 'class Job:\\n    def run(self):\\n        pass\\n' });
CKGDatabase.open({ codebasePath: '/w', fs, wasm: { baseUrl: '/ckg/' } }).then(
  async (db) => {
    self.postMessage({ methods: (await db.queryFunction('run', 'class_method')).map((m) => m.parentClass + '.' + m.name) });
    db.close();
  },
  (error: Error) => self.postMessage({ error: error.message }),
);
`;

beforeAll(async () => {
  packed = await packedPackage();
  readmeApp = project(packed, 'vite-readme', {
    'package.json': JSON.stringify({ name: 'vite-readme', private: true, type: 'module' }),
    'index.html': snippet('README.md', 'vite-html'),
    'src/main.ts': snippet('README.md', 'vite-main'),
  });
  extraApp = project(packed, 'vite-extra', {
    'package.json': JSON.stringify({ name: 'vite-extra', private: true, type: 'module' }),
    'index.html': '<!doctype html><html><body><input id="picker" type="file" multiple><script type="module" src="/src/main.ts"></script></body></html>',
    'src/main.ts': EXTRA_MAIN,
    'src/db-worker.ts': DB_WORKER,
  });
  mkdirSync(join(extraApp, 'public', 'ckg'), { recursive: true });
  for (const file of ['sql-wasm.wasm', 'tree-sitter-python.wasm', 'tree-sitter-rust.wasm']) {
    copyFileSync(join(packed.root, 'node_modules', 'ckg-wasm', 'wasm', file), join(extraApp, 'public', 'ckg', file));
  }
  // One build after the other: two at once would starve the test files running beside this one.
  await viteBuild(readmeApp);
  await viteBuild(extraApp);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  console.log(`browser consumer figures: ${JSON.stringify(figures)}`);
});

async function visit(page: Page, url: string, until: string): Promise<string> {
  await page.goto(url);
  await page.waitForFunction((text) => document.body.textContent?.includes(text) || document.body.dataset.results !== undefined, until, { timeout: 120_000 });
  return (await page.textContent('body')) ?? '';
}

describe("the README's Vite app, in Chromium", () => {
  it('builds a dist/ with only the wasm files it needs', () => {
    const files = filesBelow(join(readmeApp, 'dist'));
    expect(files.filter((f) => f.path.endsWith('.wasm')).map((f) => unhashed(f.path)).sort()).toEqual(['sql-wasm.wasm', 'tree-sitter-python.wasm', 'web-tree-sitter.wasm']);
    figures.distBytes = files.reduce((sum, f) => sum + f.bytes, 0);
    figures.distWasmBytes = files.filter((f) => f.path.endsWith('.wasm')).reduce((sum, f) => sum + f.bytes, 0);
  });

  it('answers on a first visit, and reuses the index from IndexedDB on a reload without starting a worker', async () => {
    const server = await serveStatic(join(readmeApp, 'dist'));
    servers.push(server);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const first = await visit(page, server.url, 'class Cart');
    expect(first).toMatch(/^\/repo\/shop\/cart\.py:1-3 \(built, [12] workers\)\nclass Cart:\n {4}def total\(self\):\n {8}return sum\(self\.prices\)$/);
    const wasm = (since: number): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const r of server.requests.slice(since).filter((r) => r.path.endsWith('.wasm') && r.status === 200)) counts[unhashed(r.path)] = (counts[unhashed(r.path)] ?? 0) + 1;
      return counts;
    };
    const workers = Number(/\(built, (\d) workers\)/.exec(first)![1]);
    // Each grammar once (the page fetches it for its workers); the runtime once per worker.
    expect(wasm(0)).toEqual({ 'sql-wasm.wasm': 1, 'tree-sitter-python.wasm': 1, 'web-tree-sitter.wasm': workers });
    figures.firstVisitBytes = server.requests.filter((r) => r.status === 200).reduce((sum, r) => sum + r.bytes, 0);
    figures.firstVisitWorkers = workers;

    const before = server.requests.length;
    const reload = await visit(page, server.url, 'class Cart');
    expect(reload.split('\n')[0]).toBe('/repo/shop/cart.py:1-3 (storage, 0 workers)');
    expect(wasm(before)).toEqual({ 'sql-wasm.wasm': 1 });
    expect(server.requests.slice(before).filter((r) => /web-worker/.test(r.path))).toEqual([]);
    figures.reloadBytes = server.requests.slice(before).filter((r) => r.status === 200).reduce((sum, r) => sum + r.bytes, 0);
    expect(errors).toEqual([]);
  });
});

describe('the rest of the browser surface, in Chromium', () => {
  it('resolves relative baseUrls, serves wasm.load to workers, indexes LightningFS and picked files, and names a missing grammar', async () => {
    const server = await serveStatic(join(extraApp, 'dist'));
    servers.push(server);
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.results !== undefined, undefined, { timeout: 120_000 });
    const results = JSON.parse((await page.evaluate(() => document.body.dataset.results)) ?? '{}') as Record<string, unknown>;
    expect(results).toMatchObject({
      lightning: '/repo/app.py',
      poolStarted: 1,
      loadFunctions: 6,
      loadAsked: ['tree-sitter-python.wasm', 'web-tree-sitter.wasm'],
      loadWorkers: 2,
      worker: { methods: ['Job.run'] },
    });
    expect(results.fatal).toBeUndefined();
    expect(results.missing).toMatchObject({ code: 'WASM_LOAD_FAILED' });
    expect((results.missing as { message: string }).message).toContain('Cannot load the go grammar: ckg-wasm needs tree-sitter-go.wasm');
    expect((results.missing as { message: string }).message).toContain('pass wasm.baseUrl');
    // 'ckg/' was taken relative to the page: the files came from /ckg/.
    expect(server.requests.filter((r) => r.path === '/ckg/tree-sitter-python.wasm' && r.status === 200).length).toBeGreaterThanOrEqual(1);

    const rust = 'pub struct Basket {\n    pub cents: u32,\n}\n';
    await page.setInputFiles('#picker', [{ name: 'lib.rs', mimeType: 'text/plain', buffer: Buffer.from(rust) }]);
    await page.waitForFunction(() => document.body.dataset.picked !== undefined, undefined, { timeout: 60_000 });
    expect(JSON.parse((await page.evaluate(() => document.body.dataset.picked)) ?? 'null')).toEqual(['/picked/lib.rs:1']);
    await page.close();
  });
});
