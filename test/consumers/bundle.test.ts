// A Node app bundled into single files with esbuild, as docs/node.md writes it (build.mjs and
// agent.mjs), then run from a folder with nothing but the bundle's output: no node_modules
// anywhere above it. Parsing happens in the bundled worker script.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, packedPackage, project, REPO, snippet } from './package.js';

let dir: string;
let isolated: string;

beforeAll(async () => {
  const packed = await packedPackage();
  dir = project(packed, 'bundled-agent', {
    'package.json': JSON.stringify({ name: 'bundled-agent', private: true, type: 'module' }),
    'build.mjs': snippet('docs/node.md', 'bundle-build'),
    'agent.mjs': snippet('docs/node.md', 'bundle-agent'),
  });
  await exec(process.execPath, ['build.mjs'], dir);
  // Far from any node_modules: a fresh temp folder holding only out/ and a codebase.
  isolated = mkdtempSync(join(tmpdir(), 'ckg-bundled-'));
  cpSync(join(dir, 'out'), join(isolated, 'out'), { recursive: true });
  cpSync(join(REPO, 'examples', 'python-app'), join(isolated, 'python-app'), { recursive: true });
}, 600_000);

afterAll(() => {
  if (isolated) rmSync(isolated, { recursive: true, force: true });
});

describe('a bundled Node app (esbuild)', () => {
  it('builds two scripts and copies the three wasm files', () => {
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['agent.mjs', 'sql-wasm.wasm', 'tree-sitter-python.wasm', 'web-tree-sitter.wasm', 'worker-thread.mjs']);
  });

  it('runs without node_modules, parsing in its bundled worker', async () => {
    for (let d = isolated; d !== dirname(d); d = dirname(d)) expect(existsSync(join(d, 'node_modules')), d).toBe(false);
    const codebase = join(isolated, 'python-app');
    const { stdout, stderr } = await exec(process.execPath, [join(isolated, 'out', 'agent.mjs'), codebase, 'parse_config'], isolated);
    expect(stdout).toMatch(new RegExp(`^${codebase.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/app/config\\.py:\\d+-\\d+\\n$`));
    expect(stderr).toBe('');
  });

  it('says what is missing when the wasm files were not copied', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'ckg-bundled-broken-'));
    try {
      for (const file of ['agent.mjs', 'worker-thread.mjs']) cpSync(join(dir, 'out', file), join(broken, file));
      const error = await exec(process.execPath, [join(broken, 'agent.mjs'), join(isolated, 'python-app'), 'parse_config'], broken).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('WASM_LOAD_FAILED');
      expect((error as Error).message).toContain('sql-wasm.wasm');
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
