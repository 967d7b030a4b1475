// End-to-end: builds examples/browser with Vite (ckg-wasm resolved to the built package), serves
// it from 127.0.0.1, and drives it in Debian's Chromium: real search results, a reload that
// reuses the index from IndexedDB without parsing, and grammar wasm fetched per language.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveStatic, type BrowserSession, type StaticServer } from './helpers/browser.js';
import { TOOL_COMMANDS } from '../src/tool/commands.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const example = join(repo, 'examples/browser');

let outDir: string;
let output: Rolldown.RolldownOutput;
let server: StaticServer;
let browser: BrowserSession;
let page: Page;
const timings: Record<string, number> = {};
const externalized: { module: string; importer: string }[] = [];

/** A wasm file's name without the content hash Vite adds (`tree-sitter-python-Bx3k9aQ1.wasm`). */
const unhashed = (path: string): string => path.split('/').pop()!.replace(/-[\w-]{8}\.wasm$/, '.wasm');

/** The wasm files the server sent since the log was last cleared, by name, with bytes and fetches. */
function wasmServed(): { names: string[]; bytes: number; fetches: Record<string, number> } {
  const wasm = server.requests.filter((r) => r.path.endsWith('.wasm') && r.status === 200);
  const fetches: Record<string, number> = {};
  for (const r of wasm) fetches[unhashed(r.path)] = (fetches[unhashed(r.path)] ?? 0) + 1;
  return { names: Object.keys(fetches).sort(), bytes: wasm.reduce((sum, r) => sum + r.bytes, 0), fetches };
}

/** Waits until the page has finished (re)indexing and returns its status attributes. */
async function settled(root: string): Promise<Record<string, string | undefined>> {
  const status = page.locator('#status');
  await page.waitForFunction((r) => {
    const s = document.querySelector<HTMLElement>('#status');
    return s?.dataset.state === 'error' || (s?.dataset.state === 'ready' && s.dataset.root === r);
  }, root);
  const data: Record<string, string | undefined> = await status.evaluate((s: HTMLElement) => ({ ...s.dataset, text: s.textContent ?? '' }));
  expect(data.state, data.text).toBe('ready');
  return data;
}

/** Searches through the page's form and returns the results as `kind name location` lines. */
async function search(name: string): Promise<string[]> {
  await page.fill('#query', name);
  await page.click('#search button[type=submit]');
  await page.waitForFunction((n) => document.querySelector<HTMLElement>('#results')?.dataset.query === n, name);
  return await page.$$eval('#results li[data-kind]', (items) =>
    items.map((li) => `${(li as HTMLElement).dataset.kind} ${li.querySelector('.head')?.textContent?.split(' — ')[0]?.split(' ')[1]} ${(li as HTMLElement).dataset.location}`),
  );
}

beforeAll(async () => {
  for (const needed of ['dist/index.js', 'dist/platform/browser.js', 'wasm/sql-wasm.wasm', 'wasm/tree-sitter-python.wasm']) {
    if (!existsSync(join(repo, needed))) throw new Error(`${needed} is missing: run \`npm run build\` first`);
  }
  outDir = mkdtempSync(join(tmpdir(), 'ckg-browser-example-'));
  let started = performance.now();
  // Vitest sets NODE_ENV=test, which makes Vite build in development style; measure and check
  // the production bundle an app would ship.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const result = await build({
    configFile: join(example, 'vite.config.ts'),
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: {
        // Records which Node built-ins Vite had to replace by empty stubs, and for which importer.
        onwarn(warning) {
          const match = /Module "([^"]+)" has been externalized for browser compatibility, imported by "([^"]+)"/.exec(warning.message);
          if (match) externalized.push({ module: match[1]!, importer: match[2]!.slice(repo.length) });
        },
      },
    },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  timings.viteBuildMs = Math.round(performance.now() - started);
  output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  server = await serveStatic(outDir);
  started = performance.now();
  browser = await launchChromium();
  timings.chromiumLaunchMs = Math.round(performance.now() - started);
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
  console.log(`browser e2e timings: ${JSON.stringify(timings)}`);
});

describe('browser example (Vite + Chromium)', () => {
  const chunksOf = (): Rolldown.OutputChunk[] => output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');

  /** File names of the chunks that load with the page: the entry and its static imports. */
  const eagerChunks = (): Set<string> => {
    const byName = new Map(chunksOf().map((c) => [c.fileName, c]));
    const eager = new Set<string>();
    const visit = (name: string): void => {
      if (eager.has(name)) return;
      eager.add(name);
      for (const next of byName.get(name)?.imports ?? []) visit(next);
    };
    for (const c of chunksOf().filter((c) => c.isEntry)) visit(c.fileName);
    return eager;
  };

  it('resolves the browser side of the package, within a size budget', () => {
    const chunks = chunksOf();
    const moduleIds = chunks.flatMap((c) => c.moduleIds);
    // The package must resolve its browser side: dist/platform/browser.js, sql.js's browser build.
    expect(moduleIds.some((id) => id === `${repo}dist/db/database.js`)).toBe(true);
    expect(moduleIds.some((id) => id === `${repo}dist/platform/browser.js`)).toBe(true);
    expect(moduleIds.some((id) => id.endsWith('/sql.js/dist/sql-wasm-browser.js'))).toBe(true);
    // Nothing of the Node side (`ckg-wasm/node`, the CLI, the Node platform) nor the sources.
    const nodeSide = ['dist/node/', 'dist/platform/node.js', 'dist/cli/', 'src/'].map((p) => repo + p);
    expect(moduleIds.filter((id) => nodeSide.some((p) => id.startsWith(p)))).toEqual([]);
    const eager = eagerChunks();
    const size = (filter: (c: Rolldown.OutputChunk) => boolean): { raw: number; gzip: number } => {
      const code = chunks.filter(filter).map((c) => Buffer.from(c.code));
      return { raw: code.reduce((sum, b) => sum + b.length, 0), gzip: code.reduce((sum, b) => sum + gzipSync(b).length, 0) };
    };
    const eagerSize = size((c) => eager.has(c.fileName));
    const lazySize = size((c) => !eager.has(c.fileName));
    timings.bundleRawBytes = eagerSize.raw;
    timings.bundleGzipBytes = eagerSize.gzip;
    timings.lazyChunksRawBytes = lazySize.raw;
    timings.lazyChunksGzipBytes = lazySize.gzip;
    // A budget that catches a Node polyfill or a second copy of a runtime sneaking in.
    expect(eagerSize.gzip).toBeLessThan(200 * 1024);
  });

  it('ships each wasm file once: the runtime, sql.js and every grammar', () => {
    // The page serves every grammar (any dropped file may need one), fetched only on demand;
    // the runtime is web-tree-sitter's own asset, used by the page and by the workers alike.
    const wasm = output.output.filter((o) => o.fileName.endsWith('.wasm')).map((o) => unhashed(o.fileName)).sort();
    const grammars = readdirSync(join(repo, 'wasm')).filter((f) => f.startsWith('tree-sitter-')).sort();
    expect(grammars.length).toBe(16);
    expect(wasm).toEqual(['sql-wasm.wasm', ...grammars, 'web-tree-sitter.wasm'].sort());
  });

  it('bundles no Node-only code', () => {
    const chunks = chunksOf();
    const builtins = new Set(builtinModules);
    for (const chunk of chunks) {
      expect(chunk.code, chunk.fileName).not.toMatch(/["'`]node:[a-z_/]+["'`]/);
      // ES imports of built-ins would be unresolved externals: none at all.
      const imports = [...chunk.code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["'`]([^"'`]+)["'`]/g)].map((m) => m[1]!);
      expect(imports.filter((s) => builtins.has(s)), chunk.fileName).toEqual([]);
      // require() of built-ins: only the three of web-tree-sitter's Emscripten Node branch
      // (`if (ENVIRONMENT_IS_NODE) { … createRequire(import.meta.url) … }`), dead in browsers.
      const required = [...chunk.code.matchAll(/\brequire\s*\(\s*["'`]([^"'`]+)["'`]/g)].map((m) => m[1]!);
      expect([...new Set(required.filter((s) => builtins.has(s)))].sort(), chunk.fileName).toEqual(chunk.moduleIds.some((id) => id.includes('/web-tree-sitter/')) ? ['fs', 'path', 'url'] : []);
    }
    // What loads with the page has not even an empty stub of a Node built-in; web-tree-sitter's
    // guarded Node branches import theirs lazily.
    const eager = eagerChunks();
    const eagerIds = chunks.filter((c) => eager.has(c.fileName)).flatMap((c) => c.moduleIds);
    expect(eagerIds.filter((id) => id.includes('__vite-browser-external'))).toEqual([]);
    // The parse worker is bundled on its own (Vite emits `new Worker(new URL(…))` targets as a
    // separate file): it must be free of Node imports too.
    const workers = output.output.filter((o) => /(^|\/)web-worker-[\w-]+\.js$/.test(o.fileName));
    expect(workers.length).toBe(1);
    for (const w of workers) {
      const code = w.type === 'chunk' ? w.code : String(w.source);
      expect(code, w.fileName).not.toMatch(/["'`]node:[a-z_/]+["'`]/);
      expect(code, w.fileName).toContain('tree-sitter');
      // Workers parse; they never open a database: sql.js's glue stays out of their script.
      expect(code, w.fileName).not.toContain('sqlite3_prepare_v2');
      timings.workerRawBytes = Buffer.byteLength(code);
      timings.workerGzipBytes = gzipSync(Buffer.from(code)).length;
    }
    // Vite replaced no Node built-in by an empty stub for any module (such a module breaks when
    // its chunk loads, e.g. safe-buffer reading `require('buffer').Buffer.from`).
    expect(externalized).toEqual([]);
  });

  it('indexes the sample codebase and answers searches with real results', async () => {
    server.requests.length = 0;
    const started = performance.now();
    await page.goto(server.url);
    const status = await settled('/sample');
    timings.firstLoadMs = Math.round(performance.now() - started);
    // 3 Python files and 1 Go file parsed; the README has no language.
    expect(status).toMatchObject({ origin: 'built', filesParsed: '4', filesIndexed: '4' });
    // Parsed in Web Workers (the page's pool, started for the first file to parse).
    expect(Number(status.workers)).toBeGreaterThanOrEqual(1);

    expect(await search('parse_price')).toEqual([
      'function parse_price /sample/server/main.go:23-27',
      'function parse_price /sample/shop/cart.py:4-7',
    ]);
    expect(await search('Cart')).toEqual(['class Cart /sample/server/main.go:10-12', 'class Cart /sample/shop/cart.py:18-28']);
    expect(await search('total')).toEqual(['method Cart.total /sample/shop/cart.py:24-28']);
    expect(await search('line_total')).toEqual(['function line_total /sample/shop/cart.py:25-26']);
    expect(await search('restock')).toEqual(['method Inventory.restock /sample/shop/inventory.py:7-8']);
    expect(await page.locator('#results li[data-kind] pre').first().textContent()).toContain('self.stock[sku] = self.stock.get(sku, 0) + quantity');
    expect(await search('no_such_name')).toEqual([]);
    await expect(page.locator('#results li.empty').textContent()).resolves.toContain('No definition named no_such_name');

    // Only the runtime, sql.js and the grammars of the sample's two languages were fetched; each
    // grammar once (the page fetches it for all its workers), the runtime once per worker.
    const wasm = wasmServed();
    expect(wasm.names).toEqual(['sql-wasm.wasm', 'tree-sitter-go.wasm', 'tree-sitter-python.wasm', 'web-tree-sitter.wasm']);
    expect(wasm.fetches).toMatchObject({ 'sql-wasm.wasm': 1, 'tree-sitter-go.wasm': 1, 'tree-sitter-python.wasm': 1, 'web-tree-sitter.wasm': Number(status.workers) });
    timings.firstLoadWasmBytes = wasm.bytes;
    // The database is in IndexedDB.
    const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    expect(databases).toContain('ckg-wasm-example');
    await expect(page.locator('#stored li').count()).resolves.toBe(1);
  });

  it('reuses the index from IndexedDB after a reload: nothing parsed, no grammar fetched', async () => {
    server.requests.length = 0;
    const started = performance.now();
    await page.reload();
    const status = await settled('/sample');
    timings.reloadMs = Math.round(performance.now() - started);
    expect(status).toMatchObject({ origin: 'storage', filesParsed: '0', filesIndexed: '4', workers: '0' });
    // Not even the tree-sitter runtime was needed: only sql.js to open the stored bytes.
    const wasm = wasmServed();
    expect(wasm.names).toEqual(['sql-wasm.wasm']);
    timings.reloadWasmBytes = wasm.bytes;
    expect(await search('parse_price')).toEqual([
      'function parse_price /sample/server/main.go:23-27',
      'function parse_price /sample/shop/cart.py:4-7',
    ]);
  });

  it('greps and globs the in-memory files, naming the definition of each line', async () => {
    await settled('/sample');
    const find = async (how: 'grep' | 'glob', text: string): Promise<string[]> => {
      await page.fill('#pattern', text);
      await page.selectOption('#mode', how);
      await page.click('#text-search button[type=submit]');
      await page.waitForFunction((p) => document.querySelector<HTMLElement>('#text-results')?.dataset.pattern === p, `${how}:${text}`);
      return await page.$$eval('#text-results li', (items) => items.map((li) => `${li.className} ${li.textContent ?? ''}`));
    };
    // A regular expression: run by re2js, loaded on demand in the page.
    expect(await find('grep', 'line_total\\(|unit_cents\\b')).toEqual([
      'context /sample/shop/cart.py-13-    quantity: int  (in LineItem)',
      'match /sample/shop/cart.py:14:    unit_cents: int  (in LineItem)',
      'context /sample/shop/cart.py-15-',
      'context /sample/shop/cart.py-24-    def total(self):  (in Cart.total)',
      'match /sample/shop/cart.py:25:        def line_total(item):  (in line_total)',
      'match /sample/shop/cart.py:26:            return item.quantity * item.unit_cents  (in line_total)',
      'context /sample/shop/cart.py-27-  (in Cart.total)',
      'match /sample/shop/cart.py:28:        return sum(line_total(item) for item in self.items)  (in Cart.total)',
    ]);
    expect(await find('grep', 'no such text')).toEqual(['empty Nothing found for no such text.']);
    expect(await find('grep', '(a)\\1')).toEqual([expect.stringMatching(/^error .*backreferences/)]);
    expect((await find('glob', '*.py')).sort()).toEqual(['/sample/shop/__init__.py', '/sample/shop/cart.py', '/sample/shop/inventory.py'].map((p) => ` ${p}`));
  });

  it('indexes files picked by the user, fetching only their grammar', async () => {
    server.requests.length = 0;
    const rust = ['pub struct Basket {', '    pub cents: u32,', '}', '', 'pub fn parse_price(text: &str) -> u32 {', '    text.len() as u32', '}', ''].join('\n');
    await page.setInputFiles('#picker', [
      { name: 'lib.rs', mimeType: 'text/plain', buffer: Buffer.from(rust) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not code') },
    ]);
    const status = await settled('/dropped');
    expect(status).toMatchObject({ origin: 'built', filesParsed: '1', filesIndexed: '1' });
    expect(await search('parse_price')).toEqual(['function parse_price /dropped/lib.rs:5-7']);
    expect(await search('Basket')).toEqual(['class Basket /dropped/lib.rs:1-3']);
    // This page session had not parsed yet (the reload reused storage): runtime + Rust only.
    expect(wasmServed().names).toEqual(['tree-sitter-rust.wasm', 'web-tree-sitter.wasm']);
    await expect(page.locator('#stored li').count()).resolves.toBe(2);
  });

  it('keys a picked git work tree by its HEAD', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ckg-browser-git-'));
    try {
      const head = 'c0ffee0000000000000000000000000000c0ffee';
      mkdirSync(join(folder, 'repo/.git/refs/heads'), { recursive: true });
      writeFileSync(join(folder, 'repo/.git/HEAD'), 'ref: refs/heads/main\n');
      writeFileSync(join(folder, 'repo/.git/refs/heads/main'), `${head}\n`);
      writeFileSync(join(folder, 'repo/app.py'), 'def handler(event):\n    return event\n');
      await page.setInputFiles('#folder', join(folder, 'repo'));
      const status = await settled('/dropped/repo');
      expect(status).toMatchObject({ origin: 'built', filesParsed: '1', filesIndexed: '1' });
      expect(await search('handler')).toEqual(['function handler /dropped/repo/app.py:1-2']);
      expect(status.snapshot, 'isomorphic-git (src/snapshot/git.ts) must load in browsers').toMatch(new RegExp(`^git:${head}:`));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('evaluates every lazy chunk in the browser', async () => {
    // In the running app (its entry chunk is already evaluated), import each chunk the app only
    // loads on demand: code that needs Node would throw here. A string expression, because
    // Vitest rewrites import() in this file.
    await settled((await page.locator('#status').getAttribute('data-root')) ?? '');
    const lazy = output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk' && !o.isEntry);
    expect(lazy.length).toBeGreaterThan(0);
    for (const chunk of lazy) {
      const outcome = await page.evaluate(`import('./${chunk.fileName}').then(() => 'ok', (e) => String(e))`);
      expect(outcome, chunk.fileName).toBe('ok');
    }
  });

  it('registers the commands as WebMCP page tools when the browser has a model context', async () => {
    // This page (no WebMCP in this Chromium) registered nothing.
    await expect(page.evaluate(() => document.body.dataset.pageTools)).resolves.toBe('');
    // A polyfill that records registrations and lets the test call them, as an agent would.
    const agentPage = await browser.context.newPage();
    try {
      await agentPage.addInitScript(() => {
        const tools = new Map<string, { execute: (input: unknown) => Promise<unknown> }>();
        const log: string[] = [];
        Object.defineProperty(navigator, 'modelContext', {
          value: {
            registerTool(tool: { name: string; execute: (input: unknown) => Promise<unknown> }, options?: { signal?: AbortSignal }) {
              if (tools.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
              tools.set(tool.name, tool);
              log.push(`+${tool.name}`);
              options?.signal?.addEventListener('abort', () => log.push(`-${tool.name} (signal)`));
            },
            unregisterTool(name: string) {
              tools.delete(name);
              log.push(`-${name}`);
            },
          },
        });
        (window as unknown as { webmcp: unknown }).webmcp = { tools, log, call: (name: string, input: unknown) => tools.get(name)!.execute(input) };
      });
      await agentPage.goto(`${server.url}?q=parse_price`);
      await agentPage.waitForFunction(() => document.querySelector<HTMLElement>('#status')?.dataset.state === 'ready');
      const names = [...TOOL_COMMANDS.map((c) => c.name), 'index_status'];
      await expect(agentPage.evaluate(() => [...(window as unknown as { webmcp: { tools: Map<string, unknown> } }).webmcp.tools.keys()])).resolves.toEqual(names);
      const call = (name: string, input: unknown) => agentPage.evaluate(([n, i]) => (window as unknown as { webmcp: { call: (n: string, i: unknown) => Promise<unknown> } }).webmcp.call(n as string, i), [name, input] as const);
      await expect(call('search_function', { identifier: 'parse_price', print_body: false })).resolves.toEqual({
        content: [{ type: 'text', text: 'Found 2 functions named parse_price:\n1. /sample/server/main.go:23-27\n2. /sample/shop/cart.py:4-7\n' }],
        structuredContent: { total: 2, matches: [{ file: '/sample/server/main.go', start: 23, end: 27 }, { file: '/sample/shop/cart.py', start: 4, end: 7 }] },
      });
      await expect(call('index_status', {})).resolves.toMatchObject({ structuredContent: { root: '/sample', state: 'ready', files: 4, languages: { go: 1, python: 3 } } });
      // Opening another codebase replaces the tools: the old ones are unregistered first.
      await agentPage.setInputFiles('#picker', [{ name: 'lib.rs', mimeType: 'text/plain', buffer: Buffer.from('pub fn parse_price() {}\n') }]);
      await agentPage.waitForFunction(() => document.querySelector<HTMLElement>('#status')?.dataset.root === '/dropped' && document.querySelector<HTMLElement>('#status')?.dataset.state === 'ready');
      const log = await agentPage.evaluate(() => (window as unknown as { webmcp: { log: string[] } }).webmcp.log);
      expect(log.filter((l) => l.startsWith('+'))).toHaveLength(2 * names.length);
      expect(log.filter((l) => l.startsWith('-') && !l.endsWith('(signal)'))).toHaveLength(names.length);
      await expect(call('search_function', { identifier: 'parse_price', print_body: false })).resolves.toMatchObject({
        content: [{ type: 'text', text: 'Found 1 function named parse_price:\n1. /dropped/lib.rs:1-1\n' }],
      });
    } finally {
      await agentPage.close();
    }
  });
});
