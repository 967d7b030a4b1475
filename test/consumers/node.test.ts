// A Node agent as the README writes it, run with the installed package on a copy of
// examples/python-app: a first run builds (and stores) the index, a second reuses it. Then the
// same package from CommonJS (`require`), and its command line.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodeFs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool } from '../../src/index.js';
import { exec, packedPackage, project, REPO, snippet, type PackedPackage } from './package.js';

let packed: PackedPackage;
let dir: string;
let codebase: string;
let cache: string;

beforeAll(async () => {
  packed = await packedPackage();
  dir = project(packed, 'node-agent', { 'agent.mjs': snippet('README.md', 'node-agent') });
  codebase = join(dir, 'python-app');
  cpSync(join(REPO, 'examples', 'python-app'), codebase, { recursive: true });
  cache = mkdtempSync(join(tmpdir(), 'ckg-consumer-cache-'));
}, 600_000);

afterAll(() => {
  if (cache) rmSync(cache, { recursive: true, force: true });
});

describe('a Node ESM consumer', () => {
  it("runs the README's agent: builds, answers, and reuses the stored index on the next run", async () => {
    // What the agent must print: the same answers from this checkout's sources.
    const reference = await CKGDatabase.open({ codebasePath: codebase, fs: nodeFs, processor: 'this-thread' });
    const tool = new CKGTool({ fs: nodeFs, processor: 'this-thread' });
    const expected = async (origin: string, name: string): Promise<string> => {
      const { files, functions, classes } = reference.stats();
      const lines = [`${origin}: ${files} files, ${functions} functions, ${classes} classes`];
      for (const fn of await reference.queryFunction(name)) lines.push(`function ${fn.name} ${fn.filePath}:${fn.startLine}-${fn.endLine}`);
      for (const m of await reference.queryFunction(name, 'class_method')) lines.push(`method ${m.parentClass}.${m.name} ${m.filePath}:${m.startLine}`);
      const result = await tool.execute({ command: 'search_function', path: codebase, identifier: name, print_body: false });
      lines.push('output' in result ? result.output : `error: ${result.error}`);
      return `${lines.join('\n')}\n`;
    };
    try {
      const env = { XDG_CACHE_HOME: cache };
      const first = await exec(process.execPath, ['agent.mjs', codebase, 'parse_config'], dir, env);
      expect(first.stdout).toBe(await expected('built', 'parse_config'));
      expect(first.stdout).toContain(`function parse_config ${codebase}/app/config.py:`);
      const second = await exec(process.execPath, ['agent.mjs', codebase, 'render'], dir, env);
      expect(second.stdout).toBe(await expected('storage', 'render'));
      expect(second.stdout).toContain(`method Widget.render ${codebase}/app/widgets.py:`);
      expect(second.stderr).toBe('');
    } finally {
      reference.close();
      await tool.close();
    }
  });

  it('loads from CommonJS with require() (Node ≥ 20.19)', async () => {
    const script = [
      "const { CKGDatabase, memoryFileSystem } = require('ckg-wasm');",
      "const { createWorkerPool, DirectoryStorage } = require('ckg-wasm/node');",
      "if (typeof createWorkerPool !== 'function' || typeof DirectoryStorage !== 'function') throw new Error('ckg-wasm/node exports missing');",
      "CKGDatabase.open({ codebasePath: '/r', fs: memoryFileSystem({ '/r/a.py': 'def f():\\n    pass\\n' }) })",
      "  .then(async (db) => { console.log(JSON.stringify(await db.queryFunction('f'))); db.close(); });",
    ].join('\n');
    const { stdout } = await exec(process.execPath, ['-e', script], dir);
    expect(JSON.parse(stdout)).toEqual([{ name: 'f', filePath: '/r/a.py', body: 'def f():\n    pass', startLine: 1, endLine: 2 }]);
  });

  it('names a misspelt or ill-typed option', async () => {
    const script = [
      "import fs from 'node:fs';",
      "import { CKGDatabase } from 'ckg-wasm';",
      'for (const options of [{ langauges: ["python"] }, { maxFileSize: "10" }]) {',
      '  const error = await CKGDatabase.open({ codebasePath: process.argv[1], fs, ...options }).catch((e) => e);',
      '  console.log(JSON.stringify({ code: error.code, message: error.message }));',
      '}',
    ].join('\n');
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script, codebase], dir);
    const [misspelt, illTyped] = stdout.trim().split('\n').map((line) => JSON.parse(line) as { code: string; message: string });
    expect(misspelt).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining("'langauges'") });
    expect(misspelt!.message).toContain("'languages'");
    expect(illTyped).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining("'maxFileSize'") });
  });

  it('installs the ckg-wasm command', async () => {
    const { stdout } = await exec(join(packed.root, 'node_modules', '.bin', 'ckg-wasm'), ['search', codebase, 'Widget', '--kind', 'class', '--no-body'], dir, { XDG_CACHE_HOME: cache });
    expect(stdout).toContain(`${codebase}/app/widgets.py:`);
  });

  it("installs a command whose answer server answers the next call (started through npm's link)", async () => {
    const cli = join(packed.root, 'node_modules', '.bin', 'ckg-wasm');
    const runtime = mkdtempSync(join(tmpdir(), 'ckg-rt-'));
    const env = { XDG_CACHE_HOME: cache, CKG_WASM_DAEMON: '1', CKG_WASM_RUNTIME_DIR: runtime };
    try {
      const args = ['class', 'Widget', codebase, '--no-body', '--workers', '0'];
      const first = await exec(cli, args, dir, env);
      let status = '';
      for (let i = 0; i < 200 && !status.includes(', 1 calls answered'); i++) {
        status = await exec(cli, ['daemon', 'status'], dir, env).then((r) => r.stdout, () => '');
        if (!status.includes(', 1 calls answered')) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toContain(', 1 calls answered');
      expect(await exec(cli, args, dir, env)).toEqual(first);
      expect((await exec(cli, ['daemon', 'status'], dir, env)).stdout).toContain(', 2 calls answered');
    } finally {
      await exec(cli, ['daemon', 'stop'], dir, env).catch(() => undefined);
      rmSync(runtime, { recursive: true, force: true });
    }
  });
});
