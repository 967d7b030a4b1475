import type { StartedPool } from '../parser/adaptive-processor.js';
import type { PackageFile } from '../wasm/locate.js';
import type { WasmOptions } from '../wasm/options.js';

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
   * Most address space a database file may reserve to grow in place (see src/db/room.ts): Node
   * maps untouched memory lazily, while a browser tab's allowance is smaller and stricter.
   */
  readonly databaseRoomLimit: number;
  /**
   * Runs a full garbage collection now, where the platform can (Node). A large build calls it
   * between the phases of its resolution pass: V8 otherwise keeps a finished phase's garbage
   * (330 MB on the Linux kernel) committed while SQLite's file grows, and the peak is what makes
   * a build run out of memory.
   */
  collectGarbage?(): void;
  /**
   * sql.js's `initSqlJs`, where the platform loads it better than `import('sql.js')` (Node:
   * `require`). Absent in browsers, where bundlers resolve the dynamic import.
   */
  loadSqlJs?(): Promise<InitSqlJs>;
  /**
   * How many parse workers a large build may use by default where the platform can run them
   * safely (Node: one per core, with the worker script on disk and more than one core); 0 or
   * absent: builds parse in the calling thread unless the caller gives a processor.
   */
  defaultParseWorkers?(): number;
  /** Starts that pool (`wasm` as the build's), or undefined when it cannot. */
  startParsePool?(size: number, wasm: WasmOptions): Promise<StartedPool | undefined>;
}

/** sql.js's default export (`initSqlJs`). Internal: the public types never name sql.js's. */
export type InitSqlJs = typeof import('sql.js').default;
