// The ckg tools in the shapes agent frameworks take. No framework is imported: the shapes are
// plain data, and the two frameworks whose tools are objects of their own (Vercel AI SDK,
// LangChain.js) are handed their factory functions by the caller.
import type { CKGCallOptions, CKGCallResult } from '../tool/ckg-tool.js';
import type { JsonSchema } from '../tool/commands.js';
import type { CKGToolDefinition, ObjectSchema } from './definitions.js';

/**
 * The text a model reads for a call result: the answer, or the error prefixed with `Error: `.
 *
 * @example
 * ```ts
 * const text = resultText(await definition.execute(args)); // 'Found 1 class named Widget: …'
 * ```
 * @public
 */
export function resultText(result: CKGCallResult): string {
  return 'error' in result ? `Error: ${result.error}` : result.output;
}

/**
 * Runs the tool named `name` with arguments as a model sent them (a JSON string or an object)
 * and returns the text for the model. Unknown names and bad JSON come back as error text.
 *
 * @example
 * ```ts
 * for (const call of message.tool_calls ?? []) {
 *   messages.push({ role: 'tool', tool_call_id: call.id, content: await runToolCall(tools, call.function.name, call.function.arguments) });
 * }
 * ```
 * @public
 */
export async function runToolCall(definitions: readonly CKGToolDefinition[], name: string, args: unknown, options?: CKGCallOptions): Promise<string> {
  const definition = definitions.find((d) => d.name === name);
  if (!definition) return `Error: unknown tool ${JSON.stringify(name)}; tools: ${definitions.map((d) => d.name).join(', ')}`;
  let parsed = args;
  if (typeof args === 'string') {
    try {
      parsed = args.trim() === '' ? {} : JSON.parse(args);
    } catch (error) {
      return `Error: the arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return resultText(await definition.execute(parsed, options));
}

/**
 * A schema in OpenAI's strict mode: every property required, optional ones nullable (`null`
 * then means the default), no additional properties.
 *
 * @example
 * ```ts
 * const strict = strictSchema({ type: 'object', properties: { a: { type: 'string' } }, required: [] });
 * // { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'], additionalProperties: false }
 * ```
 * @public
 */
export function strictSchema(schema: ObjectSchema): ObjectSchema {
  const required = new Set(schema.required);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (required.has(name)) {
      properties[name] = property;
      continue;
    }
    const type = property.type;
    const nullable = Array.isArray(type) ? (type.includes('null') ? type : [...type, 'null']) : typeof type === 'string' ? [type, 'null'] : type;
    const { enum: values, ...rest } = property as JsonSchema & { enum?: unknown[] };
    properties[name] = { ...rest, type: nullable, ...(Array.isArray(values) ? { enum: values.includes(null) ? values : [...values, null] } : {}) };
  }
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/**
 * A tool in the shape of OpenAI's Chat Completions API (`tools: [{ type: 'function', function }]`), strict mode.
 *
 * @example
 * ```ts
 * const tool: OpenAIChatTool = openAIChatTools(definitions)[0]!;
 * ```
 * @public
 */
export interface OpenAIChatTool {
  /** Always `'function'`. */
  readonly type: 'function';
  /** The function's name, description, strict-mode parameter schema. */
  readonly function: { readonly name: string; readonly description: string; readonly parameters: ObjectSchema; readonly strict: true };
}

/**
 * A tool in the shape of OpenAI's Responses API (a flat `{ type: 'function', name, … }`), strict mode.
 *
 * @example
 * ```ts
 * const tool: OpenAIResponsesTool = openAIResponsesTools(definitions)[0]!;
 * ```
 * @public
 */
export interface OpenAIResponsesTool {
  /** Always `'function'`. */
  readonly type: 'function';
  /** The tool's name. */
  readonly name: string;
  /** What the model is told about the tool. */
  readonly description: string;
  /** Its arguments' schema, in strict mode (every property required, optional ones nullable). */
  readonly parameters: ObjectSchema;
  /** Strict mode, always. */
  readonly strict: true;
}

/**
 * The tools for OpenAI's Chat Completions API, in strict mode; answer their calls with {@link runToolCall}.
 *
 * @example
 * ```ts
 * const response = await openai.chat.completions.create({ model, messages, tools: openAIChatTools(definitions) });
 * ```
 * @public
 */
export function openAIChatTools(definitions: readonly CKGToolDefinition[]): OpenAIChatTool[] {
  return definitions.map((d) => ({ type: 'function', function: { name: d.name, description: d.description, parameters: strictSchema(d.inputSchema), strict: true } }));
}

/**
 * The tools for OpenAI's Responses API, in strict mode; answer their calls with {@link runToolCall}.
 *
 * @example
 * ```ts
 * const response = await openai.responses.create({ model, input, tools: openAIResponsesTools(definitions) });
 * ```
 * @public
 */
export function openAIResponsesTools(definitions: readonly CKGToolDefinition[]): OpenAIResponsesTool[] {
  return definitions.map((d) => ({ type: 'function', name: d.name, description: d.description, parameters: strictSchema(d.inputSchema), strict: true }));
}

/**
 * A tool in the shape of Anthropic's Messages API.
 *
 * @example
 * ```ts
 * const tool: AnthropicTool = anthropicTools(definitions)[0]!;
 * ```
 * @public
 */
export interface AnthropicTool {
  /** The tool's name. */
  readonly name: string;
  /** What the model is told about the tool. */
  readonly description: string;
  /** The JSON Schema of its arguments. */
  readonly input_schema: ObjectSchema;
}

/**
 * The tools for Anthropic's Messages API; answer `tool_use` blocks with {@link runToolCall}.
 *
 * @example
 * ```ts
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools: anthropicTools(definitions) });
 * ```
 * @public
 */
export function anthropicTools(definitions: readonly CKGToolDefinition[]): AnthropicTool[] {
  return definitions.map((d) => ({ name: d.name, description: d.description, input_schema: d.inputSchema }));
}

/**
 * The Vercel AI SDK's `tool` and `jsonSchema` functions (from the `ai` package), passed in so
 * that ckg-wasm does not depend on it. Declared as methods: the SDK's generic overloads are
 * accepted as they are.
 *
 * @example
 * ```ts
 * import { jsonSchema, tool } from 'ai';
 * const sdk = { tool, jsonSchema }; // a VercelAIFunctions
 * ```
 * @public
 */
export interface VercelAIFunctions<Schema, Tool> {
  /** The SDK's `tool()`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK infers its own argument type
  tool(definition: { description: string; inputSchema: Schema; execute: (args: any, options: { abortSignal?: AbortSignal }) => Promise<string> }): Tool;
  /** The SDK's `jsonSchema()`. */
  jsonSchema(schema: ObjectSchema): Schema;
}

/**
 * The tools as a Vercel AI SDK tool set (`tools` of `generateText` / `streamText`).
 *
 * @example
 * ```ts
 * import { generateText, jsonSchema, tool } from 'ai';
 * const tools = vercelAITools(definitions, { tool, jsonSchema });
 * const { text } = await generateText({ model, tools, prompt: 'Where is parse_config defined?' });
 * ```
 * @public
 */
export function vercelAITools<Schema, Tool>(definitions: readonly CKGToolDefinition[], sdk: VercelAIFunctions<Schema, Tool>): Record<string, Tool> {
  const out: Record<string, Tool> = {};
  for (const d of definitions) {
    out[d.name] = sdk.tool({
      description: d.description,
      inputSchema: sdk.jsonSchema(d.inputSchema),
      execute: async (args: unknown, options) => resultText(await d.execute(args, options?.abortSignal ? { signal: options.abortSignal } : {})),
    });
  }
  return out;
}

/**
 * LangChain.js's `tool` function (from `@langchain/core/tools`), passed in so that ckg-wasm
 * does not depend on it (a method signature: LangChain's overloads are accepted as they are).
 *
 * @example
 * ```ts
 * import { tool } from '@langchain/core/tools';
 * const tools = langChainTools(definitions, tool);
 * ```
 * @public
 */
export interface LangChainToolFunction<Tool> {
  /** LangChain's `tool(fn, fields)`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- LangChain infers its own argument type
  call(fn: (args: any, config?: { signal?: AbortSignal }) => Promise<string>, fields: { name: string; description: string; schema: ObjectSchema }): Tool;
}

/**
 * The tools as LangChain.js tools (`tool(fn, { name, description, schema })`), for
 * `model.bindTools(...)` or an agent.
 *
 * @example
 * ```ts
 * import { tool } from '@langchain/core/tools';
 * const tools = langChainTools(definitions, tool);
 * const answer = await tools[0]!.invoke({ identifier: 'parse_config' });
 * ```
 * @public
 */
export function langChainTools<Tool>(definitions: readonly CKGToolDefinition[], tool: LangChainToolFunction<Tool>['call']): Tool[] {
  return definitions.map((d) =>
    tool(async (args: unknown, config) => resultText(await d.execute(args, config?.signal ? { signal: config.signal } : {})), {
      name: d.name,
      description: d.description,
      schema: d.inputSchema,
    }),
  );
}
