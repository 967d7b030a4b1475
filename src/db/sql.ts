// Loading sql.js: once per process, from the wasm the caller's options or the platform locate.
import type { SqlJsStatic } from 'sql.js';
import { platform } from '#platform';
import { CKGError } from '../errors.js';
import { readWasm, SQL_WASM } from '../wasm/locate.js';
import type { WasmOptions } from '../wasm/options.js';

let sqlJsReady: Promise<SqlJsStatic> | undefined;

/** `initSqlJs` through a dynamic import (bundlers put sql.js in a chunk of its own). */
async function importSqlJs(): Promise<typeof import('sql.js').default> {
  const sqlJsModule = (await import('sql.js')) as unknown as { default?: typeof import('sql.js').default };
  return sqlJsModule.default ?? (sqlJsModule as unknown as typeof import('sql.js').default);
}

/** Initialises sql.js once per process, or adopts the caller's instance. */
export function initSql(options: WasmOptions): Promise<SqlJsStatic> {
  if (options.sqlJs) {
    const given = options.sqlJs as unknown as SqlJsStatic;
    sqlJsReady ??= Promise.resolve(given);
    return Promise.resolve(given);
  }
  sqlJsReady ??= (async () => {
    // The bytes first: a missing location fails with its own clear error before sql.js's glue
    // loads. sql.js's Node and browser builds share one wasm (byte-identical files upstream).
    const wasmBinary = await readWasm(options, SQL_WASM, { packageName: 'sql.js', path: `dist/${SQL_WASM}` });
    // Loaded on first use: parse workers share this module and never open a database.
    const initSqlJs = platform.loadSqlJs ? await platform.loadSqlJs() : await importSqlJs();
    return await initSqlJs({ wasmBinary: wasmBinary as unknown as ArrayBuffer });
  })().catch((error: unknown) => {
    sqlJsReady = undefined;
    throw error instanceof CKGError ? error : new CKGError('WASM_LOAD_FAILED', `Cannot load sql.js: ${String(error)}`, {}, { cause: error });
  });
  return sqlJsReady;
}
