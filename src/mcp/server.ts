// The MCP server of ckg-wasm: every tool of the command table (src/adapters/definitions.ts) as an
// MCP tool, on the official TypeScript SDK (v2, `@modelcontextprotocol/server`). This module has
// no Node import; src/node/mcp.ts wires it to stdio, node:fs and DirectoryStorage.
import { fromJsonSchema, McpServer, type CallToolResult } from '@modelcontextprotocol/server';
import { graphPercent, type ProgressEvent } from '../indexer/report.js';
import { ckgToolDefinitions, type CKGToolDefinition, type CKGToolDefinitionOptions } from '../adapters/definitions.js';
import type { CKGCallResult } from '../tool/ckg-tool.js';

/**
 * Options of {@link createCkgMcpServer}.
 *
 * @example
 * ```ts
 * const options: CKGMcpServerOptions = { tool: new CKGTool({ fs, storage }), defaultPath: '/abs/repo', version: '0.1.0' };
 * ```
 * @public
 */
export interface CKGMcpServerOptions extends CKGToolDefinitionOptions {
  /** The server's name in `serverInfo`. Default `ckg-wasm`. */
  readonly name?: string;
  /** The server's version in `serverInfo`. */
  readonly version: string;
  /** Least time between two progress notifications of one call, in ms. Default 250. */
  readonly progressIntervalMs?: number;
}

/** The protocol revisions the server answers: the 2026-07-28 one through `serveStdio`, and these in `initialize`. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'] as const;

function instructions(defaultPath: string | undefined): string {
  return [
    `A code knowledge graph${defaultPath ? ` of ${defaultPath}` : ''}: definitions, calls, class hierarchies, dead code, symbol and text search, with file:line locations (graph answers give paths relative to the root).`,
    'Every tool takes `path`: the codebase root folder, or a file inside it' + (defaultPath ? ` (default: ${defaultPath})` : '') + '; names are exact and case-sensitive.',
    'The index is built on first use, kept between runs and updated before each answer. While a first build runs, calls answer "indexing, N% done": call again.',
  ].join(' ');
}

/** An MCP tool result from a call result: the text, the structured answer next to it, or an error result. */
export function toCallToolResult(result: CKGCallResult): CallToolResult {
  if ('error' in result) return { content: [{ type: 'text', text: result.error }], isError: true };
  return {
    content: [{ type: 'text', text: result.output }],
    ...(result.structured ? { structuredContent: { ...result.structured } } : {}),
  };
}

/** A progress reporter for one request: MCP progress notifications, at most one per interval. */
function progressReporter(
  notify: (notification: { method: 'notifications/progress'; params: Record<string, unknown> }) => Promise<void>,
  token: string | number | undefined,
  intervalMs: number,
): ((event: ProgressEvent) => void) | undefined {
  if (token === undefined) return undefined;
  let last = -Infinity;
  let lastProgress = -1;
  let sawGraph = false;
  return (event) => {
    const now = Date.now();
    const final = event.phase === 'done';
    // Progress counts files; the graph's resolution pass, once every file is parsed, counts as
    // one more (MCP progress must grow with each notification).
    const graph = event.phase === 'graph';
    sawGraph ||= graph;
    const progress = event.filesDone + (graph ? Math.min(1, event.graphDone ?? 0) : sawGraph && final ? 1 : 0);
    if (!final && (now - last < intervalMs || progress <= lastProgress)) return;
    last = now;
    lastProgress = progress;
    const total = Math.max(event.filesTotal, event.filesDone);
    const percent = total > 0 ? Math.floor((100 * event.filesDone) / total) : 0;
    const message = graph
      ? `linking the code graph, ${graphPercent(event)}% done (${event.filesDone} files parsed${event.sites !== undefined ? `, ${event.sites} sites` : ''})`
      : `indexing, ${percent}% done (${event.filesDone}/${event.filesTotal}${event.walking ? '+' : ''} files)`;
    void notify({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress,
        ...(event.walking ? {} : { total: sawGraph ? total + 1 : total }),
        message,
      },
    }).catch(() => undefined);
  };
}

function register(server: McpServer, definition: CKGToolDefinition, intervalMs: number): void {
  server.registerTool(
    definition.name,
    {
      description: definition.description,
      inputSchema: fromJsonSchema(definition.inputSchema as Parameters<typeof fromJsonSchema>[0]),
      ...(definition.outputSchema ? { outputSchema: fromJsonSchema(definition.outputSchema as Parameters<typeof fromJsonSchema>[0]) } : {}),
      annotations: { ...definition.annotations },
    },
    async (args: unknown, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const onProgress = progressReporter((n) => ctx.mcpReq.notify(n), typeof token === 'string' || typeof token === 'number' ? token : undefined, intervalMs);
      const result = await definition.execute(args, { signal: ctx.mcpReq.signal, ...(onProgress ? { onProgress } : {}) });
      return toCallToolResult(result);
    },
  );
}

/**
 * An MCP server (official SDK, v2) whose tools are the `ckg` commands, one tool each (or the
 * single `ckg` tool with `mode: 'single'`), plus `index_status`; tools are listed in the
 * command table's order. Calls report build progress as MCP progress notifications when the
 * client sent a progress token, honour cancellation, and answer "indexing, N% done" when a
 * first build outlasts `answerWithinMs` (default 20 s).
 *
 * @example
 * ```ts
 * import { serveStdio } from '@modelcontextprotocol/server/stdio';
 * const tool = new CKGTool({ fs, storage: new DirectoryStorage() });
 * serveStdio(() => createCkgMcpServer({ tool, defaultPath: '/abs/repo', version: '0.1.0' }));
 * ```
 * @public
 */
export function createCkgMcpServer(options: CKGMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: options.name ?? 'ckg-wasm', version: options.version },
    { capabilities: { tools: {} }, instructions: instructions(options.defaultPath) },
  );
  const definitions = ckgToolDefinitions({ answerWithinMs: 20_000, ...options });
  for (const definition of definitions) register(server, definition, options.progressIntervalMs ?? 250);
  return server;
}
