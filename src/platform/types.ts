import type { PackageFile } from '../wasm/locate.js';

/** What each platform (Node, browser) provides to the core through `#platform`. */
export interface Platform {
  readonly name: 'node' | 'browser';
  /**
   * Loads a wasm file shipped in ckg-wasm's `wasm/` folder when the caller gave no location
   * (`fallback`: the npm package file to read in a development checkout). Throws a
   * `WASM_LOAD_FAILED` CKGError that says what to pass when it cannot.
   */
  loadBundledWasm(fileName: string, fallback?: PackageFile): Promise<Uint8Array>;
  /** Reads a URL (`file:` in Node, anything fetch() accepts). */
  readUrl(url: URL): Promise<Uint8Array>;
  /**
   * A caller's location as an absolute URL: relative strings against the page or worker
   * (browsers) or the working directory (Node, which also takes plain paths).
   */
  resolveUrl(location: string | URL): URL;
  /**
   * Whether a caller's file system is known to move a folder's mtime whenever an entry is added,
   * removed or renamed (so folder listings may be cached between walks): node:fs itself.
   */
  keepsFolderMtimes(fs: unknown): boolean;
  /**
   * sql.js's `initSqlJs`, where the platform loads it better than `import('sql.js')` (Node:
   * `require`). Absent in browsers, where bundlers resolve the dynamic import.
   */
  loadSqlJs?(): Promise<InitSqlJs>;
}

/** sql.js's default export (`initSqlJs`). Internal: the public types never name sql.js's. */
export type InitSqlJs = typeof import('sql.js').default;
