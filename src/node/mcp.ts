// ckg-wasm/mcp: the MCP server over stdio with node:fs and DirectoryStorage (Node only).
import nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { CKGTool } from '../tool/ckg-tool.js';
import type { Storage } from '../storage/types.js';
import { createCkgMcpServer, type CKGMcpServerOptions } from '../mcp/server.js';
import { DirectoryStorage } from './directory-storage.js';
import { LazyWorkerPool } from './lazy-worker-pool.js';

export { createCkgMcpServer, toCallToolResult, LEGACY_PROTOCOL_VERSIONS, type CKGMcpServerOptions } from '../mcp/server.js';

/**
 * Options of {@link serveCkgMcp}.
 *
 * @example
 * ```ts
 * const options: CKGMcpStdioOptions = { path: '/abs/repo', mode: 'single', workers: 2 };
 * ```
 * @public
 */
export interface CKGMcpStdioOptions extends Partial<Pick<CKGMcpServerOptions, 'mode' | 'answerWithinMs' | 'progressIntervalMs' | 'status'>> {
  /** The codebase calls use when they give no `path`. */
  readonly path?: string;
  /**
   * Where indexes are kept between runs, each with its folder listings (`keepFolderListings`): a
   * storage that keeps each key apart. Default: a {@link ckg-wasm-node#DirectoryStorage} in the
   * user's cache; `false`: memory only.
   */
  readonly storage?: Storage | false;
  /** Parse workers for builds (started on the first file to parse). Default: one per core; 0: parse in this thread. */
  readonly workers?: number;
}

/**
 * A running stdio MCP server ({@link serveCkgMcp}).
 *
 * @example
 * ```ts
 * const server = serveCkgMcp({ path: '/abs/repo' });
 * process.stdin.on('end', () => void server.close());
 * ```
 * @public
 */
export interface CKGMcpStdioServer {
  /** The tool that keeps the indexes. */
  readonly tool: CKGTool;
  /** Stops serving, aborts builds in flight, closes the indexes and the workers. Idempotent. */
  close(): Promise<void>;
}

function packageVersion(): string {
  try {
    return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * Serves the ckg tools over MCP on this process's stdin/stdout (newline-delimited JSON-RPC):
 * protocol revision 2026-07-28 for clients that open with `server/discover`, and 2025-11-25,
 * 2025-06-18, 2025-03-26 and 2024-11-05 for clients that open with `initialize`.
 *
 * @example
 * ```ts
 * import { serveCkgMcp } from 'ckg-wasm/mcp';
 * serveCkgMcp({ path: process.cwd() });
 * ```
 * @public
 */
export function serveCkgMcp(options: CKGMcpStdioOptions = {}): CKGMcpStdioServer {
  const pool = options.workers === 0 ? undefined : new LazyWorkerPool(options.workers);
  const storage = options.storage === false ? undefined : (options.storage ?? new DirectoryStorage());
  // The folder listings kept beside each index spare a restarted server's first freshness walk
  // a `readdir` per unchanged folder.
  const tool = new CKGTool({ fs: nodeFs, ...(storage ? { storage, keepFolderListings: true } : {}), processor: pool ?? 'this-thread' });
  const version = packageVersion();
  const handle = serveStdio(() =>
    createCkgMcpServer({
      tool,
      version,
      ...(options.path !== undefined ? { defaultPath: options.path } : {}),
      ...(options.mode !== undefined ? { mode: options.mode } : {}),
      ...(options.answerWithinMs !== undefined ? { answerWithinMs: options.answerWithinMs } : {}),
      ...(options.progressIntervalMs !== undefined ? { progressIntervalMs: options.progressIntervalMs } : {}),
      ...(options.status !== undefined ? { status: options.status } : {}),
    }),
  );
  let closing: Promise<void> | undefined;
  return {
    tool,
    close: () =>
      (closing ??= (async () => {
        await handle.close().catch(() => undefined);
        await tool.close();
        await pool?.close();
      })()),
  };
}
