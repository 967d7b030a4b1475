// Node implementation of `#platform`: finds the wasm files shipped in the package's `wasm/` folder.
import nodeFs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Platform } from './types.js';

const require = createRequire(import.meta.url);
// src/platform/node.ts and dist/platform/node.js both sit two levels below the package root.
const bundledWasmDir = fileURLToPath(new URL('../../wasm/', import.meta.url));

async function loadBundledWasm(fileName: string, packageName?: string): Promise<Uint8Array> {
  try {
    return await readFile(join(bundledWasmDir, fileName));
  } catch (error) {
    // Development checkouts before `npm run build:wasm`: fall back to the grammar package itself.
    if (packageName === undefined) throw error;
    for (const dir of require.resolve.paths(packageName) ?? []) {
      try {
        return await readFile(join(dir, packageName, fileName));
      } catch {
        // try the next node_modules folder
      }
    }
    throw error;
  }
}

async function readUrl(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') return await readFile(fileURLToPath(url));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.href}`);
  return new Uint8Array(await response.arrayBuffer());
}

export const platform: Platform = {
  name: 'node',
  sqlWasmFileName: 'sql-wasm.wasm',
  loadBundledWasm,
  readUrl,
  keepsFolderMtimes: (fs) => fs === nodeFs,
  // sql.js is CommonJS: `require` loads it as is, where `import()` first scans its 90 kB glue
  // for named exports (cjs-module-lexer), 20-30 ms of main-thread time at every start.
  loadSqlJs: async () => require('sql.js') as typeof import('sql.js').default,
};
