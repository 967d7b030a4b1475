/** What each platform (Node, browser) provides to the core through `#platform`. */
export interface Platform {
  readonly name: 'node' | 'browser';
  /** The file name of sql.js's wasm for the sql.js build this platform's bundlers pick. */
  readonly sqlWasmFileName: string;
  /** Loads a wasm file shipped with ckg-wasm when the caller gave no location. */
  loadBundledWasm(fileName: string, packageName?: string): Promise<Uint8Array>;
  /** Reads a URL (`file:` in Node, anything fetch() accepts). */
  readUrl(url: URL): Promise<Uint8Array>;
  /**
   * Whether a caller's file system is known to move a folder's mtime whenever an entry is added,
   * removed or renamed (so folder listings may be cached between walks): node:fs itself.
   */
  keepsFolderMtimes(fs: unknown): boolean;
  /**
   * sql.js's `initSqlJs`, where the platform loads it better than `import('sql.js')` (Node:
   * `require`). Absent in browsers, where bundlers resolve the dynamic import.
   */
  loadSqlJs?(): Promise<typeof import('sql.js').default>;
}
