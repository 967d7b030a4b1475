// Where wasm files come from in Node: wasm.baseUrl over HTTP and as a relative path, wasm.files,
// wasm.load (in-thread and through a worker pool), and the one clear error for every way a file
// can be missing or not wasm. sql.js is initialised once per process, so the tests that expect
// its load to fail come first.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Volume } from 'memfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, LanguageRegistry, builtinLanguages, type FileSystem, type LanguageDefinition } from '../src/index.js';
import { createWorkerPool } from '../src/node/index.js';

const wasmDir = fileURLToPath(new URL('../wasm/', import.meta.url));
const INDEX_HTML = '<!doctype html><html><body>app</body></html>';

let server: Server;
let origin: string;
const requests: string[] = [];

beforeAll(async () => {
  // An app server: /app/ckg/<file> serves the wasm folder, /gone/ answers 404, and anything
  // else gets the page (a single-page app's fallback, the usual cause of "expected magic word").
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const wasm = /^\/app\/ckg\/([\w.-]+\.wasm)$/.exec(path);
    if (wasm) {
      try {
        const bytes = readFileSync(wasmDir + wasm[1]);
        res.writeHead(200, { 'Content-Type': 'application/wasm' }).end(bytes);
      } catch {
        res.writeHead(404).end('no such file');
      }
      return;
    }
    if (path.startsWith('/gone/')) return void res.writeHead(404, 'Not Found').end('not found');
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(INDEX_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function codebase(files: Record<string, string>): FileSystem {
  return Volume.fromJSON(files) as unknown as FileSystem;
}

const python = builtinLanguages.find((l) => l.id === 'python')!;
/** A copy of a built-in language: its grammar loads afresh (grammar loads are cached per definition). */
const fresh = (language: LanguageDefinition): LanguageRegistry => new LanguageRegistry([{ ...language }]);

const FILES = { '/repo/app.py': 'def main():\n    return 1\n', '/repo/cart.py': 'class Cart:\n    pass\n' };

describe('wasm locations in Node', () => {
  it('names the file, the URL and the fix when a page comes back instead of wasm', async () => {
    const error = await CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), wasm: { baseUrl: `${origin}/app/missing/` } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'WASM_LOAD_FAILED', caller: 'CKGDatabase.open', data: { file: 'sql-wasm.wasm' } });
    const message = (error as Error).message;
    expect(message).toContain(`sql-wasm.wasm from ${origin}/app/missing/sql-wasm.wasm (wasm.baseUrl) is not a wasm file`);
    expect(message).toContain('starts with "<!doctype html><html><bo"');
    expect(message).toContain("Serve ckg-wasm's wasm/sql-wasm.wasm at that location");
  });

  it('names the option and the HTTP status when a file is missing', async () => {
    const url = `${origin}/gone/sql-wasm.wasm`;
    await expect(CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), wasm: { files: { 'sql-wasm.wasm': url } } })).rejects.toMatchObject({
      code: 'WASM_LOAD_FAILED',
      message: expect.stringContaining(`Cannot fetch sql-wasm.wasm from ${url} (wasm.files['sql-wasm.wasm']): HTTP 404 Not Found`),
      data: { file: 'sql-wasm.wasm', url },
    });
    await expect(CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), wasm: { load: async () => new TextEncoder().encode('{"error": 1}') } })).rejects.toMatchObject({
      code: 'WASM_LOAD_FAILED',
      message: expect.stringContaining('sql-wasm.wasm from wasm.load is not a wasm file'),
    });
  });

  it('fetches from a baseUrl without its trailing slash, the grammars of the languages met and no runtime', async () => {
    requests.length = 0;
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), wasm: { baseUrl: `${origin}/app/ckg` } });
    try {
      expect((await db.queryClass('Cart'))[0]?.filePath).toBe('/repo/cart.py');
      // web-tree-sitter read its own runtime from its package; baseUrl served only these.
      expect(requests.sort()).toEqual(['/app/ckg/sql-wasm.wasm', '/app/ckg/tree-sitter-python.wasm']);
    } finally {
      db.close();
    }
  });

  it('reads a grammar from a baseUrl relative to the working directory, or says why not', async () => {
    expect(process.cwd()).toBe(fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, ''));
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), languages: fresh(python), wasm: { baseUrl: 'wasm' } });
    try {
      expect(db.stats()).toMatchObject({ files: 2, functions: 1, classes: 1 });
    } finally {
      db.close();
    }
    await expect(CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), languages: fresh(python), wasm: { baseUrl: `${origin}/elsewhere/` } })).rejects.toMatchObject({
      code: 'WASM_LOAD_FAILED',
      message: expect.stringContaining(`Cannot load the python grammar: tree-sitter-python.wasm from ${origin}/elsewhere/tree-sitter-python.wasm (wasm.baseUrl) is not a wasm file`),
      data: { file: 'tree-sitter-python.wasm', language: 'python' },
    });
  });

  it('serves wasm.load to worker threads through the pool, once per file for all workers', async () => {
    const asked: string[] = [];
    const load = async (name: string): Promise<Uint8Array | undefined> => {
      asked.push(name);
      return name === 'web-tree-sitter.wasm' ? undefined : new Uint8Array(readFileSync(wasmDir + name));
    };
    const files: Record<string, string> = { '/repo/server/main.go': 'package main\n\nfunc Serve() {}\n' };
    for (let i = 0; i < 12; i++) files[`/repo/pkg/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
    const pool = createWorkerPool({ size: 2, wasm: { load } });
    try {
      const db = await CKGDatabase.open({ codebasePath: '/repo', fs: codebase(files), processor: pool, wasm: { load } });
      try {
        expect(db.report).toMatchObject({ filesParsed: 13, skipped: [] });
        expect((await db.queryFunction('Serve'))[0]?.filePath).toBe('/repo/server/main.go');
        expect((await db.queryFunction('f11'))[0]?.body).toBe('def f11():\n    return 11');
        expect(pool.started).toBe(2);
        // Asked once each, though two workers parse Python: the runtime (declined: the default
        // location applies) and the two grammars; sql.js was initialised earlier in this process.
        expect([...asked].sort()).toEqual(['tree-sitter-go.wasm', 'tree-sitter-python.wasm', 'web-tree-sitter.wasm']);
      } finally {
        db.close();
      }
    } finally {
      await pool.close();
    }
  });

  it('fails a worker build with the clear error when a grammar the pool serves is not wasm', async () => {
    const pool = createWorkerPool({ size: 1, wasm: { files: { 'tree-sitter-python.wasm': `${origin}/app/index.html` } } });
    try {
      await expect(CKGDatabase.open({ codebasePath: '/repo', fs: codebase(FILES), processor: pool })).rejects.toMatchObject({
        code: 'WASM_LOAD_FAILED',
        message: expect.stringContaining(`tree-sitter-python.wasm from ${origin}/app/index.html (wasm.files['tree-sitter-python.wasm']) is not a wasm file`),
      });
    } finally {
      await pool.close();
    }
  });
});
