import { CKGError, type CKGErrorCode } from '../errors.js';
import {
  CKG_TOOL_PARAMETERS,
  CKG_TOOL_DESCRIPTION,
  type CKGCallOptions,
  type CKGCallResult,
  type CKGIndexStatus,
  type CKGTool,
} from '../tool/ckg-tool.js';
import { DEFAULT_IDENTIFIER, TOOL_COMMANDS, type JsonSchema, type ToolCommand, type ToolParameter } from '../tool/commands.js';
import { graphPercent } from '../indexer/report.js';

/**
 * A JSON Schema of tool arguments: an object with named properties.
 *
 * @example
 * ```ts
 * const schema: ObjectSchema = { type: 'object', properties: { identifier: { type: 'string', description: 'Exact name' } }, required: ['identifier'] };
 * ```
 * @public
 */
export interface ObjectSchema {
  // Mutable and open-ended on purpose: frameworks' own types (openai's FunctionParameters,
  // Anthropic's InputSchema) take plain mutable JSON objects.
  /** Always `'object'`. */
  type: 'object';
  /** One JSON Schema per argument. */
  properties: Record<string, JsonSchema>;
  /** The arguments a call must give. */
  required: string[];
  /** False: no argument besides `properties` is accepted. */
  additionalProperties?: boolean;
  /** Any other JSON Schema keyword. */
  [keyword: string]: unknown;
}

/**
 * Hints for clients about a tool's effects (MCP tool annotations; WebMCP takes the same).
 *
 * @example
 * ```ts
 * const hints: ToolAnnotations = { readOnlyHint: true, idempotentHint: true };
 * ```
 * @public
 */
export interface ToolAnnotations {
  /** The tool changes nothing outside its index (always true for ckg's tools). */
  readonly readOnlyHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  readonly idempotentHint: boolean;
}

/**
 * One agent-facing tool derived from the `ckg` command table: its name, description, input
 * schema, output schema (for commands with a structured answer) and how to run it. The MCP
 * server, the framework adapters and the page tools are all built from these.
 *
 * @example
 * ```ts
 * for (const t of ckgToolDefinitions({ tool })) console.log(t.name, Object.keys(t.inputSchema.properties));
 * ```
 * @public
 */
export interface CKGToolDefinition {
  /** The tool's name (a command's, `ckg` in single-tool mode, or `index_status`). */
  readonly name: string;
  /** What the model is told about the tool. */
  readonly description: string;
  /** The JSON Schema of its arguments. */
  readonly inputSchema: ObjectSchema;
  /** The JSON Schema of its structured answer, for commands that give one. */
  readonly outputSchema?: JsonSchema;
  /** Hints for clients about its effects. */
  readonly annotations: ToolAnnotations;
  /**
   * Runs the tool. `null` arguments mean "the default" (as strict-mode models send them).
   * Never throws: failures come back as `{ error }`.
   */
  execute(args: unknown, options?: CKGCallOptions): Promise<CKGCallResult>;
}

/**
 * Options of {@link ckgToolDefinitions}.
 *
 * @example
 * ```ts
 * const options: CKGToolDefinitionOptions = { tool, defaultPath: '/abs/repo', answerWithinMs: 20_000 };
 * ```
 * @public
 */
export interface CKGToolDefinitionOptions {
  /** The tool that runs the commands (it keeps the indexes). */
  readonly tool: CKGTool;
  /**
   * `'commands'` (default): one tool per command plus `index_status`; `'single'`: the one `ckg`
   * tool with its `command` enum (for clients that pay per tool), plus `index_status`.
   */
  readonly mode?: 'commands' | 'single';
  /** The codebase used when a call gives no `path`; `path` is then optional in every schema. */
  readonly defaultPath?: string;
  /** Include the `index_status` tool. Default true. */
  readonly status?: boolean;
  /**
   * Answer within this many ms: when the index of a codebase is still being built by then, the
   * call answers `indexing, N% done` (an error result the model can retry on) while the build
   * goes on. Default: wait for the build.
   */
  readonly answerWithinMs?: number;
}

/** The name of the status tool (not a command of the `ckg` tool: it never indexes). */
export const INDEX_STATUS_TOOL = 'index_status';

const READ_ONLY: ToolAnnotations = Object.freeze({ readOnlyHint: true, idempotentHint: true });
// Every word here is paid for on every request of every client: tools/list stays small (the
// server's instructions say once what the shared arguments mean).
const PATH_OPTIONAL = "Codebase root (default: the server's)";
const PRINT_BODY = 'Include bodies (default true)';

/** The description of a command as a tool of its own: its summary, without "The `x` command". */
export function commandDescription(command: ToolCommand): string {
  const match = /^(?:The `[^`]+` command |`[^`]+`: )(\w)(.*)$/s.exec(command.summary);
  return match ? `${match[1]!.toUpperCase()}${match[2]}` : command.summary;
}

/** Parameters whose name says what they are: their per-command schemas carry no description. */
const SELF_EXPLAINING = new Set(['limit', 'offset', 'head_limit', 'case_insensitive', 'output_mode']);

function parameterSchema(parameter: ToolParameter, name?: string): JsonSchema {
  if (name !== undefined && SELF_EXPLAINING.has(name)) {
    const { description: _description, ...rest } = parameter;
    return { ...rest };
  }
  return { ...parameter };
}

/** The input schema of one command as a tool of its own. */
export function commandInputSchema(command: ToolCommand, pathOptional: boolean): ObjectSchema {
  const identifier = command.identifier ?? DEFAULT_IDENTIFIER;
  const properties: Record<string, JsonSchema> = {
    // What `path` is (the codebase root; the server's when absent) the instructions say once.
    path: { type: 'string' },
    identifier: { type: 'string', description: identifier.description },
  };
  if (command.printsBodies === true) properties.print_body = { type: 'boolean', description: PRINT_BODY };
  for (const [name, parameter] of Object.entries(command.parameters ?? {})) properties[name] = parameterSchema(parameter, name);
  const required = [...(pathOptional ? [] : ['path']), ...(identifier.optional === true ? [] : ['identifier'])];
  return { type: 'object', properties, required };
}

// Output schemas name only what every answer has: each property costs every client's context.
const STATUS_OUTPUT: JsonSchema = { type: 'object' };

/** Arguments as a plain object without `null`s (null means the default). */
function cleanArguments(args: unknown): Record<string, unknown> {
  if (args === null || args === undefined) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new CKGError('INVALID_ARGUMENT', `Tool arguments must be an object, got ${JSON.stringify(args)}`);
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined));
}

function failure(error: unknown): CKGCallResult {
  const message = error instanceof Error ? error.message : String(error);
  const code: CKGErrorCode | undefined = error instanceof CKGError ? error.code : undefined;
  return { error: message, ...(code ? { code } : {}) };
}

/** A status as one short paragraph for the model. */
export function formatStatus(s: CKGIndexStatus): string {
  const parts = [`${s.root}: ${s.state === 'none' ? 'not indexed yet' : s.state}`];
  if (s.files !== undefined) parts.push(`${s.files} files, ${s.symbols ?? 0} symbols${s.edges !== undefined ? `, ${s.edges} edges` : ''}`);
  if (s.languages && Object.keys(s.languages).length > 0) {
    parts.push(`languages: ${Object.entries(s.languages).map(([id, n]) => `${id} ${n}`).join(', ')}`);
  }
  const linking = s.progress?.phase === 'graph' ? `, linking the code graph (${graphPercent(s.progress)}% of its edges resolved)` : '';
  parts.push(s.updating ? `${s.state === 'indexing' ? 'build' : 'update'} running${s.percent !== undefined ? `, ${s.percent}% done` : ''}${linking}` : 'no update running');
  if (s.lastUpdate !== undefined) parts.push(`last update ${new Date(s.lastUpdate).toISOString()}`);
  if (s.snapshotKey !== undefined) parts.push(`snapshot ${s.snapshotKey}`);
  if (s.storageKey !== undefined) parts.push(`storage key ${s.storageKey}`);
  if (s.error !== undefined) parts.push(`last error: ${s.error}`);
  return `${parts.join('; ')}.`;
}

function statusData(s: CKGIndexStatus): Record<string, unknown> {
  const { progress: _progress, lastUpdate, error: _error, ...rest } = s;
  return { ...rest, ...(lastUpdate !== undefined ? { lastUpdate: new Date(lastUpdate).toISOString() } : {}) };
}

/** Runs a call, answering "indexing, N% done" when the build outlasts `answerWithinMs`. */
async function callWithin(tool: CKGTool, args: Record<string, unknown>, options: CKGCallOptions, answerWithinMs: number | undefined): Promise<CKGCallResult> {
  if (answerWithinMs === undefined) return await tool.call(args, options);
  // The call follows the caller's signal only while the caller waits: once it has had its
  // "indexing" answer, cancelling that finished request must not abort the build.
  const local = new AbortController();
  const outer = options.signal;
  const forward = (): void => local.abort(outer?.reason);
  if (outer?.aborted) local.abort(outer.reason);
  outer?.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = tool.call(args, { ...options, signal: local.signal });
  try {
    const winner = await Promise.race([pending, new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), answerWithinMs)))]);
    if (winner !== 'late') return winner;
    const status = await tool.status(String(args.path));
    // Only a first build answers "indexing": the refresh before each answer of a built index
    // is waited for, or with a short answerWithinMs every call would find one running.
    if (!status.updating || status.state !== 'indexing') return await pending;
    const progress = status.progress;
    const files = progress ? ` (${progress.filesDone}/${progress.filesTotal}${progress.walking ? '+' : ''} files)` : '';
    // Every file is parsed: the code graph's edges are being resolved.
    const linking = progress?.phase === 'graph' ? `; linking the code graph, ${graphPercent(progress)}% of its edges resolved` : '';
    return {
      error: `Indexing ${status.root}, ${status.percent ?? 0}% done${files}${linking}. The index is being built in the background: call again in a few seconds.`,
      pending: true,
    };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}

/**
 * The agent-facing tools of the `ckg` command table: one per command (or the single `ckg`
 * tool), plus `index_status`, each with its JSON Schemas and an `execute` that runs it through
 * `tool`. Commands added to the table appear here without other changes.
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * import { CKGTool } from 'ckg-wasm';
 * import { ckgToolDefinitions } from 'ckg-wasm/adapters';
 *
 * const tools = ckgToolDefinitions({ tool: new CKGTool({ fs }), defaultPath: '/abs/repo' });
 * const answer = await tools.find((t) => t.name === 'search_class')!.execute({ identifier: 'Widget' });
 * ```
 * @public
 */
export function ckgToolDefinitions(options: CKGToolDefinitionOptions): CKGToolDefinition[] {
  const { tool, defaultPath, answerWithinMs } = options;
  if (options.mode !== undefined && options.mode !== 'commands' && options.mode !== 'single') {
    throw new CKGError('INVALID_ARGUMENT', `mode must be 'commands' or 'single', got ${String(options.mode)}`);
  }
  if (answerWithinMs !== undefined && !(Number.isFinite(answerWithinMs) && answerWithinMs >= 0)) {
    throw new CKGError('INVALID_ARGUMENT', `answerWithinMs must be a number ≥ 0, got ${String(answerWithinMs)}`);
  }
  const pathOptional = defaultPath !== undefined;
  const withPath = (args: Record<string, unknown>): Record<string, unknown> => (args.path === undefined && pathOptional ? { ...args, path: defaultPath } : args);
  const out: CKGToolDefinition[] = [];
  if (options.mode === 'single') {
    const { required, ...rest } = CKG_TOOL_PARAMETERS;
    const properties: Record<string, JsonSchema> = Object.fromEntries(Object.entries(rest.properties).map(([name, p]) => [name, parameterSchema(p)]));
    if (pathOptional) properties.path = { ...properties.path, description: PATH_OPTIONAL };
    out.push({
      name: tool.name,
      description: CKG_TOOL_DESCRIPTION,
      inputSchema: {
        type: 'object',
        properties,
        required: pathOptional ? required.filter((r) => r !== 'path') : [...required],
      },
      annotations: READ_ONLY,
      async execute(args, callOptions = {}) {
        try {
          return await callWithin(tool, withPath(cleanArguments(args)), callOptions, answerWithinMs);
        } catch (error) {
          return failure(error);
        }
      },
    });
  } else {
    for (const command of TOOL_COMMANDS) {
      const identifierOptional = command.identifier?.optional === true;
      out.push({
        name: command.name,
        description: commandDescription(command),
        inputSchema: commandInputSchema(command, pathOptional),
        ...(command.output ? { outputSchema: command.output } : {}),
        annotations: READ_ONLY,
        async execute(args, callOptions = {}) {
          try {
            const clean = withPath(cleanArguments(args));
            const call = { ...clean, command: command.name, ...(identifierOptional && clean.identifier === undefined ? { identifier: '' } : {}) };
            return await callWithin(tool, call, callOptions, answerWithinMs);
          } catch (error) {
            return failure(error);
          }
        },
      });
    }
  }
  if (options.status !== false) {
    out.push({
      name: INDEX_STATUS_TOOL,
      description: 'Index state and counts',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: pathOptional ? [] : ['path'] },
      outputSchema: STATUS_OUTPUT,
      annotations: READ_ONLY,
      async execute(args) {
        try {
          const clean = withPath(cleanArguments(args));
          if (typeof clean.path !== 'string') throw new CKGError('INVALID_ARGUMENT', 'No path provided');
          const status = await tool.status(clean.path);
          return { output: formatStatus(status), structured: statusData(status), found: status.state === 'ready' };
        } catch (error) {
          return failure(error);
        }
      },
    });
  }
  return out;
}
