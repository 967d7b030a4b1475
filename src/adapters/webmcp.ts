// The ckg tools as WebMCP page tools: a browser agent calls them on the code open in the page.
// WebMCP (W3C Web Machine Learning CG draft) exposes `navigator.modelContext` with
// `registerTool(tool)` / `unregisterTool(name)`; earlier explainers named it
// `document.modelContext`, and later drafts take a second `{ signal }` argument to unregister.
import type { CKGToolDefinition, ObjectSchema, ToolAnnotations } from './definitions.js';

/**
 * A tool as WebMCP's `registerTool` takes it; `execute` answers with MCP-shaped content.
 *
 * @example
 * ```ts
 * const [first] = webMcpTools(definitions);
 * const answer = await first!.execute({ identifier: 'Cart' });
 * ```
 * @public
 */
export interface WebMcpTool {
  /** The tool's name. */
  readonly name: string;
  /** What the agent is told about the tool. */
  readonly description: string;
  /** The JSON Schema of its arguments. */
  readonly inputSchema: ObjectSchema;
  /** Hints about its effects. */
  readonly annotations: ToolAnnotations;
  /** Runs the tool; failures come back with `isError`. */
  execute(input: unknown, client?: unknown): Promise<{
    content: { type: 'text'; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  }>;
}

/**
 * The part of WebMCP's model context this module uses.
 *
 * @example
 * ```ts
 * const context = (navigator as { modelContext?: WebMcpModelContext }).modelContext;
 * ```
 * @public
 */
export interface WebMcpModelContext {
  /** Registers a page tool (later drafts unregister it when `signal` aborts). */
  registerTool(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
  /** Unregisters a page tool (earlier drafts). */
  unregisterTool?(name: string): unknown;
}

/**
 * The tool definitions as WebMCP page tools.
 *
 * @example
 * ```ts
 * const tools = webMcpTools(ckgToolDefinitions({ tool, defaultPath: '/sample' }));
 * ```
 * @public
 */
export function webMcpTools(definitions: readonly CKGToolDefinition[]): WebMcpTool[] {
  return definitions.map((d) => ({
    name: d.name,
    description: d.description,
    inputSchema: d.inputSchema,
    annotations: d.annotations,
    async execute(input) {
      const result = await d.execute(input ?? {});
      if ('error' in result) return { content: [{ type: 'text', text: result.error }], isError: true };
      return { content: [{ type: 'text', text: result.output }], ...(result.structured ? { structuredContent: { ...result.structured } } : {}) };
    },
  }));
}

/** The page's WebMCP model context, whichever name the browser gives it, or undefined. */
function pageModelContext(): WebMcpModelContext | undefined {
  const g = globalThis as { navigator?: { modelContext?: WebMcpModelContext }; document?: { modelContext?: WebMcpModelContext } };
  const context = g.navigator?.modelContext ?? g.document?.modelContext;
  return context && typeof context.registerTool === 'function' ? context : undefined;
}

/**
 * Registers the tools with the page's WebMCP model context (`navigator.modelContext`, else
 * `document.modelContext`) when the browser has one. Returns a function that unregisters them,
 * or undefined when there is no model context (nothing is registered).
 *
 * @example
 * ```ts
 * const unregister = registerWebMcpTools(ckgToolDefinitions({ tool, defaultPath: '/sample' }));
 * // later, when the page switches codebases:
 * unregister?.();
 * ```
 * @public
 */
export function registerWebMcpTools(definitions: readonly CKGToolDefinition[], context: WebMcpModelContext | undefined = pageModelContext()): (() => void) | undefined {
  if (!context) return undefined;
  const controller = new AbortController();
  const tools = webMcpTools(definitions);
  for (const tool of tools) context.registerTool(tool, { signal: controller.signal });
  return () => {
    controller.abort();
    for (const tool of tools) context.unregisterTool?.(tool.name);
  };
}
