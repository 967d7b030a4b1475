import type { CKGDatabase } from '../db/database.js';
import { formatClasses, formatClassMethods, formatFunctions } from './format.js';

/**
 * The arguments a command receives, already checked by the tool: `identifier` is the string
 * the agent sent, `printBody` is false only for `print_body: false | "false"`, and `raw`
 * holds every argument as sent (for the command's own optional parameters).
 *
 * @example
 * ```ts
 * const depth = typeof args.raw.depth === 'number' ? args.raw.depth : 1;
 * ```
 * @public
 */
export interface ToolCommandArguments {
  /** The name to look up, as the agent sent it (a number is turned into its text). */
  readonly identifier: string;
  /** Whether to print bodies: false only for `print_body: false` or `"false"`. */
  readonly printBody: boolean;
  /** Every argument as sent, for the command's own optional parameters. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * What a command answers: the text the model reads, and optionally the same answer as plain
 * JSON data (for MCP `structuredContent` and other machine readers).
 *
 * @example
 * ```ts
 * const answer: ToolCommandOutput = { text: 'No functions named x found.', structured: { matches: [] } };
 * ```
 * @public
 */
export interface ToolCommandOutput {
  /** The answer the model reads. */
  readonly text: string;
  /** The same answer as plain JSON data, for machine readers. */
  readonly structured?: Readonly<Record<string, unknown>>;
}

/**
 * A property of the tool's JSON Schema.
 *
 * @example
 * ```ts
 * const depth: ToolParameter = { type: 'integer', description: 'How many call levels to follow (1-10). Default 1.', minimum: 1, maximum: 10 };
 * ```
 * @public
 */
export interface ToolParameter {
  /** The JSON Schema type. */
  readonly type: 'string' | 'integer' | 'boolean';
  /** What the model is told about the parameter. */
  readonly description: string;
  /** The allowed values, for a string with a fixed set. */
  readonly enum?: readonly string[];
  /** The smallest allowed value, for an integer. */
  readonly minimum?: number;
  /** The largest allowed value, for an integer. */
  readonly maximum?: number;
}

/**
 * One command of the `ckg` tool. The tool's description, JSON Schema `enum` and dispatch are
 * all derived from one table of commands (`TOOL_COMMANDS`), so a command is added in one place.
 *
 * @example
 * ```ts
 * const command: ToolCommand = {
 *   name: 'search_class',
 *   summary: 'The `search_class` command searches for classes in the codebase',
 *   run: async (db, args) => ({ text: formatClasses(args.identifier, await db.queryClass(args.identifier), args.printBody) }),
 * };
 * ```
 * @public
 */
export interface ToolCommand {
  /** The value of the `command` argument. */
  readonly name: string;
  /** Its bullet line in the tool description. */
  readonly summary: string;
  /**
   * The optional parameters it reads besides `command`, `path`, `identifier` and `print_body`
   * (from {@link ToolCommandArguments.raw}). Commands share a parameter by giving it the same
   * name and schema; the tool's schema lists each name once.
   */
  readonly parameters?: Readonly<Record<string, ToolParameter>>;
  /** Answers the command on an open, refreshed database. */
  run(db: CKGDatabase, args: ToolCommandArguments): Promise<ToolCommandOutput>;
}

/** The commands of the reference CKG tool; their outputs are byte-for-byte the reference formats. */
const SEARCH_COMMANDS: readonly ToolCommand[] = [
  {
    name: 'search_function',
    summary: 'The `search_function` command searches for functions in the codebase',
    run: async (db, { identifier, printBody }) => ({
      text: formatFunctions(identifier, await db.queryFunction(identifier, 'function'), printBody),
    }),
  },
  {
    name: 'search_class',
    summary: 'The `search_class` command searches for classes in the codebase',
    run: async (db, { identifier, printBody }) => ({ text: formatClasses(identifier, await db.queryClass(identifier), printBody) }),
  },
  {
    name: 'search_class_method',
    summary: 'The `search_class_method` command searches for class methods in the codebase',
    run: async (db, { identifier, printBody }) => ({
      text: formatClassMethods(identifier, await db.queryFunction(identifier, 'class_method'), printBody),
    }),
  },
];

/**
 * Every command of the `ckg` tool, in the order of its `enum`.
 *
 * @example
 * ```ts
 * const names = TOOL_COMMANDS.map((c) => c.name); // ['search_function', 'search_class', …]
 * ```
 */
export const TOOL_COMMANDS: readonly ToolCommand[] = Object.freeze([...SEARCH_COMMANDS]);

/**
 * Every optional parameter of the commands, by name (the first schema given for a name wins;
 * commands sharing a name must describe it alike).
 */
export function commandParameters(commands: readonly ToolCommand[] = TOOL_COMMANDS): Readonly<Record<string, ToolParameter>> {
  const out: Record<string, ToolParameter> = {};
  for (const command of commands) {
    for (const [name, schema] of Object.entries(command.parameters ?? {})) out[name] ??= schema;
  }
  return out;
}

/** The command named `name`, or undefined. */
export function findCommand(name: string): ToolCommand | undefined {
  return TOOL_COMMANDS.find((c) => c.name === name);
}
