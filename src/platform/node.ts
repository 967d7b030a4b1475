// Node implementation of `#platform`: finds the wasm files shipped in the package's `wasm/` folder.
// Nothing here runs at import time: in a bundle (esbuild, webpack; CommonJS output has no
// `import.meta.url`) the package folder may not exist, and only the calls that need it fail.
import nodeFs from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CKGError } from '../errors.js';
import type { StartedPool } from '../parser/adaptive-processor.js';
import type { PackageFile } from '../wasm/locate.js';
import type { WasmOptions } from '../wasm/options.js';
import type { InitSqlJs, Platform } from './types.js';

/** This module's URL, or undefined where a bundler dropped `import.meta` (CommonJS output). */
function moduleUrl(): string | undefined {
  const url = (import.meta as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** The package's `wasm/` folder: src/platform/node.ts and dist/platform/node.js both sit two levels below the root. */
function bundledWasmDir(): string | undefined {
  const url = moduleUrl();
  return url === undefined ? undefined : fileURLToPath(new URL('../../wasm/', url));
}

const BUNDLED_HELP =
  "When ckg-wasm is bundled into an app, copy the wasm files it needs next to the bundle and pass wasm.baseUrl (see docs/node.md, 'Bundling', in the ckg-wasm package).";

async function loadBundledWasm(fileName: string, fallback?: PackageFile): Promise<Uint8Array> {
  const dir = bundledWasmDir();
  if (dir === undefined) {
    throw new CKGError('WASM_LOAD_FAILED', `Cannot locate ckg-wasm's wasm folder for ${fileName} (this code has no import.meta.url: a CommonJS bundle?). ${BUNDLED_HELP}`, { file: fileName });
  }
  try {
    return await readFile(join(dir, fileName));
  } catch (error) {
    // Development checkouts before `npm run build:wasm`: read the npm package's file itself.
    const url = moduleUrl();
    if (fallback !== undefined && url !== undefined) {
      for (const folder of createRequire(url).resolve.paths(fallback.packageName) ?? []) {
        try {
          return await readFile(join(folder, fallback.packageName, fallback.path ?? fileName));
        } catch {
          // try the next node_modules folder
        }
      }
    }
    throw new CKGError('WASM_LOAD_FAILED', `Cannot read ${fileName} in ckg-wasm's wasm folder ${dir}: ${error instanceof Error ? error.message : String(error)}. ${BUNDLED_HELP}`, { file: fileName }, { cause: error });
  }
}

async function readUrl(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') return await readFile(fileURLToPath(url));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trimEnd());
  return new Uint8Array(await response.arrayBuffer());
}

/** A URL scheme of two letters or more (`C:` is a Windows drive, not a scheme). */
const SCHEME = /^[a-z][a-z\d+.-]+:/i;

function resolveUrl(location: string | URL): URL {
  if (location instanceof URL) return new URL(location.href);
  if (SCHEME.test(location)) return new URL(location);
  // A path, relative to the working directory; a trailing separator (a folder) is kept.
  const trailing = location.endsWith('/') || location.endsWith(sep);
  const url = pathToFileURL(resolve(location));
  if (trailing && !url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

async function loadSqlJs(): Promise<InitSqlJs> {
  // sql.js is CommonJS: `require` loads it as is, where `import()` first scans its 90 kB glue
  // for named exports (cjs-module-lexer), 20-30 ms of main-thread time at every start.
  const url = moduleUrl();
  if (url !== undefined) {
    try {
      return createRequire(url)('sql.js') as InitSqlJs;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  // Bundled apps: no node_modules beside the bundle, but bundlers resolve this import.
  const module = (await import('sql.js')) as unknown as { default?: InitSqlJs };
  return module.default ?? (module as unknown as InitSqlJs);
}

/** V8's `gc()`, got once (null: the host does not allow it). */
let fullCollection: (() => void) | null | undefined;

/**
 * A full garbage collection. V8 exposes `gc` to contexts created after `--expose-gc` is set (as
 * Jest's leak detector gets it); a host that forbids either just goes without.
 */
function collectGarbage(): void {
  if (fullCollection === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc: unknown = runInNewContext('gc');
      fullCollection = typeof gc === 'function' ? (gc as () => void) : null;
    } catch {
      fullCollection = null;
    }
  }
  fullCollection?.();
}

/** Most workers a default pool starts: past this, a build waits on reading and SQLite anyway. */
const MAX_DEFAULT_WORKERS = 4;

/**
 * One worker per core (up to 4) where that is safe: more than one core (on one, workers only
 * add their start-up), and the worker script on disk (in a bundle it is not, unless the app
 * passes it: then the app gives its own pool).
 */
async function defaultWorkerCount(): Promise<number> {
  const cores = availableParallelism();
  if (cores < 2) return 0;
  const { defaultWorkerUrl } = await import('../node/worker-pool.js');
  return defaultWorkerUrl() === undefined ? 0 : Math.min(cores, MAX_DEFAULT_WORKERS);
}

let workerCount: Promise<number> | undefined;

async function startParsePool(size: number, wasm: WasmOptions): Promise<StartedPool | undefined> {
  // Loaded on demand: worker-pool.ts reaches back to modules that import this one.
  const { createWorkerPool } = await import('../node/worker-pool.js');
  return createWorkerPool({ size, wasm });
}

export const platform: Platform = {
  name: 'node',
  loadBundledWasm,
  readUrl,
  resolveUrl,
  keepsFolderMtimes: (fs) => fs === nodeFs,
  loadSqlJs,
  databaseRoomLimit: 2 ** 31,
  collectGarbage,
  defaultParseWorkers: () => (availableParallelism() < 2 ? 0 : Math.min(availableParallelism(), MAX_DEFAULT_WORKERS)),
  startParsePool: async (size, wasm) => ((workerCount ??= defaultWorkerCount()), (await workerCount) > 0 ? await startParsePool(size, wasm) : undefined),
};
