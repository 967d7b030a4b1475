// What a caller tells ckg-wasm about its wasm files. Plain types: no third-party type leaks
// (a consumer needs no @types package, with `skipLibCheck` on or off).

/**
 * An initialised sql.js, as `initSqlJs()` returns it: ckg-wasm only calls `new Database(bytes)`.
 * sql.js's own `SqlJsStatic` (from `@types/sql.js`) fits this type.
 *
 * @example
 * ```ts
 * import initSqlJs from 'sql.js';
 * const sqlJs: SqlJs = await initSqlJs({ locateFile: (file) => `/assets/${file}` });
 * const db = await CKGDatabase.open({ codebasePath: '/repo', fs, wasm: { sqlJs } });
 * ```
 * @public
 */
export interface SqlJs {
  /** sql.js's `Database` class. */
  readonly Database: new (data?: Uint8Array | null) => object;
}

/**
 * Where ckg-wasm finds its wasm files: the SQLite build (`sql-wasm.wasm`) and one grammar per
 * language met (`tree-sitter-python.wasm`, …), all in the package's `wasm/` folder, plus the
 * tree-sitter runtime (`web-tree-sitter.wasm`), which web-tree-sitter finds next to its own
 * module (bundlers emit it as an asset).
 *
 * @remarks
 * In Node nothing is needed: the package's `wasm/` folder is read. In a browser give
 * `baseUrl` (the folder you serve the files from) or `files` (one URL per file, as bundlers
 * give them for `?url` / asset imports); only the files of the languages a codebase contains
 * are fetched. The three ways combine: `load` first, then `files`, then `baseUrl`. Web Worker and
 * `worker_threads` pools get every file through the thread that created them, so each file is
 * fetched once whatever the number of workers. A file that cannot be fetched, or is not wasm
 * (a server answering a missing file with its `index.html`), fails with one
 * `WASM_LOAD_FAILED` error that names the file, the URL and the fix.
 *
 * @example
 * ```ts
 * // The page is served from https://ide.example/app/; the files from https://ide.example/app/ckg-wasm/.
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, wasm: { baseUrl: 'ckg-wasm/' } });
 * ```
 * @public
 */
export interface WasmOptions {
  /**
   * The folder URL the files of ckg-wasm's `wasm/` folder are served from. A relative or
   * root-relative string (`'wasm/'`, `'/ckg-wasm/'`) is resolved against the page
   * (`document.baseURI`) or the worker (`self.location`); in Node against the working
   * directory (a path or a `file:` URL). A missing trailing slash is added. Not used for the
   * tree-sitter runtime (see {@link WasmOptions.files}).
   */
  readonly baseUrl?: string | URL;
  /**
   * One URL per file name (`{ 'sql-wasm.wasm': sqlUrl, 'tree-sitter-python.wasm': pyUrl }`),
   * resolved like `baseUrl`. A key may also be a path ending with the file name, as
   * `import.meta.glob` gives them. Naming `'web-tree-sitter.wasm'` here replaces web-tree-sitter's
   * own location of its runtime.
   */
  readonly files?: Readonly<Record<string, string | URL>>;
  /**
   * Returns a file's bytes by name, or `undefined` to let the other options (then the default)
   * decide. Asked first. Also serves worker pools: their workers ask the creating thread.
   */
  readonly load?: (fileName: string) => Promise<Uint8Array | undefined>;
  /** An already-initialised sql.js (`initSqlJs` keeps the first caller's config process-wide). */
  readonly sqlJs?: SqlJs;
}
