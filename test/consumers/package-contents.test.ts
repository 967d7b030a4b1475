// What the packed tarball holds and declares: the files a newcomer gets (and none of the
// engineering notes), the metadata npm shows, dependency ranges, one sql.js wasm, licenses, and
// Markdown links that lead somewhere from inside the installed package.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { packedPackage, type PackedPackage } from './package.js';

let packed: PackedPackage;
let installed: string;
let manifest: { name: string; repository?: { url?: string }; homepage?: string; bugs?: { url?: string }; keywords?: string[]; license?: string; dependencies: Record<string, string>; exports: Record<string, unknown> };

beforeAll(async () => {
  packed = await packedPackage();
  installed = join(packed.root, 'node_modules', 'ckg-wasm');
  manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  console.log(
    `package figures: tarball ${packed.tarballBytes} B, ${packed.files.length} files; ckg-wasm installed ${packed.packageBytes} B; ` +
      `with its dependencies ${packed.installBytes} B; npm install took ${packed.installMs} ms`,
  );
}, 600_000);

describe('the packed package', () => {
  it('ships the code, the wasm, the user docs and the licenses, and no engineering notes', () => {
    const files = new Set(packed.files);
    for (const needed of ['LICENSE', 'THIRD-PARTY-NOTICES.md', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/node/index.js', 'dist/node/worker-thread.js', 'dist/browser/web-worker.js', 'wasm/manifest.json', 'wasm/sql-wasm.wasm', 'wasm/tree-sitter-python.wasm', 'docs/browser.md', 'docs/node.md', 'docs/api/reference/index.md']) {
      expect(files.has(needed), needed).toBe(true);
    }
    expect(packed.files.filter((f) => /^docs\/(benchmarks|incremental)\./.test(f) || f.startsWith('test/') || f.startsWith('examples/') || f.startsWith('scripts/') || f.startsWith('.'))).toEqual([]);
    // One SQLite wasm (the Node and browser builds of sql.js load byte-identical files), and no
    // tree-sitter runtime: web-tree-sitter ships its own, which bundlers emit as an asset.
    expect(packed.files.filter((f) => f.endsWith('.wasm') && !f.startsWith('wasm/tree-sitter-')).sort()).toEqual(['wasm/sql-wasm.wasm']);
    expect(packed.files.filter((f) => f.startsWith('wasm/tree-sitter-')).length).toBe(16);
  });

  it('declares where it lives, what it is, and ranges a host can share', () => {
    expect(manifest.license).toBe('MIT');
    expect(manifest.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.bugs?.url).toMatch(/^https:\/\//);
    expect(manifest.keywords).toEqual(expect.arrayContaining(['tree-sitter', 'sqlite', 'wasm']));
    // Caret ranges, except sql.js: its wasm is shipped here and must match its glue exactly.
    const exact = Object.entries(manifest.dependencies).filter(([, range]) => !range.startsWith('^')).map(([name]) => name);
    expect(exact).toEqual(['sql.js']);
    const wasmManifest = JSON.parse(readFileSync(join(installed, 'wasm', 'manifest.json'), 'utf8')) as { runtime: { package: string; version: string }[] };
    expect(wasmManifest.runtime).toEqual([expect.objectContaining({ package: 'sql.js', version: manifest.dependencies['sql.js'] })]);
    // The installed sql.js is the one the shipped wasm was copied from.
    expect(JSON.parse(readFileSync(join(packed.root, 'node_modules', 'sql.js', 'package.json'), 'utf8')).version).toBe(manifest.dependencies['sql.js']);
  });

  it('gives the license of every redistributed wasm build', () => {
    const notices = readFileSync(join(installed, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    const wasmManifest = JSON.parse(readFileSync(join(installed, 'wasm', 'manifest.json'), 'utf8')) as { runtime: { file: string; package: string }[]; grammars: { file: string; package: string }[] };
    for (const entry of [...wasmManifest.runtime, ...wasmManifest.grammars]) {
      expect(notices, entry.file).toContain(`\`wasm/${entry.file}\``);
      expect(notices, entry.package).toMatch(new RegExp(`## ${entry.package.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} [\\d.]+ \\(MIT\\)`));
    }
    expect(notices.match(/Permission is hereby granted/g)?.length).toBeGreaterThanOrEqual(new Set([...wasmManifest.runtime, ...wasmManifest.grammars].map((e) => e.package)).size);
  });

  it('has Markdown links that resolve inside the installed package, or lead to the web', () => {
    // A doc that is written later may be named here to wait for it; the test says so when it arrives.
    const pending = new Set<string>();
    const broken: string[] = [];
    for (const file of packed.files.filter((f) => f.endsWith('.md') && !f.startsWith('docs/api/'))) {
      // Code (fenced blocks, inline spans) holds no links: `F[int](x)` is Go.
      const text = readFileSync(join(installed, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = join(file, '..', target!.split('#')[0]!).replace(/\\/g, '/');
        if (existsSync(join(installed, path))) continue;
        if (pending.has(path)) continue;
        broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
    for (const path of pending) expect(existsSync(join(installed, path)), `${path} is shipped now: drop it from the pending links`).toBe(false);
  });
});
