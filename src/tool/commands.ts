import type { CKGDatabase } from '../db/database.js';
import type { ClassEntry, FunctionEntry } from '../db/entries.js';
import { CKGError } from '../errors.js';
import type { GrepOutputMode } from '../search/grep.js';
import { GRAPH_COMMANDS } from './graph-commands.js';
import { formatGlob, formatGrep, renderClasses, renderClassMethods, renderFunctions, type FormattedEntries } from './format.js';

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
  /** The answer as data; it must validate against the command's {@link ToolCommand.output} schema. */
  readonly structured?: Readonly<Record<string, unknown>>;
  /**
   * False when the answer is that nothing matched (the CLI then exits 1, like grep). Default
   * true: a command that cannot come up empty need not say anything.
   */
  readonly found?: boolean;
}

/**
 * A JSON Schema object (draft 2020-12), as plain data: the declared shape of a command's
 * structured output (MCP `outputSchema`).
 *
 * @example
 * ```ts
 * const schema: JsonSchema = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
 * ```
 * @public
 */
export interface JsonSchema {
  /** Any JSON Schema keyword (`type`, `properties`, `items`, `required`, …). */
  readonly [keyword: string]: unknown;
}

/**
 * What the `identifier` argument means for one command, for the per-command tool schemas
 * (MCP tools, framework adapters, page tools).
 *
 * @example
 * ```ts
 * const identifier: ToolIdentifier = { description: 'Path prefix to limit the search to', optional: true };
 * ```
 * @public
 */
export interface ToolIdentifier {
  /** The property's description in a per-command schema. */
  readonly description: string;
  /** The command works without it (it then receives `''`). Default false. */
  readonly optional?: boolean;
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
  /** What `identifier` means for this command. Default: an exact name, required ({@link DEFAULT_IDENTIFIER}). */
  readonly identifier?: ToolIdentifier;
  /** Whether the command reads `print_body` (per-command schemas list it only then). Default false. */
  readonly printsBodies?: boolean;
  /**
   * The JSON Schema of {@link ToolCommandOutput.structured}, when the command returns it: MCP
   * clients get it as the tool's `outputSchema` and check `structuredContent` against it.
   */
  readonly output?: JsonSchema;
  /** Answers the command on an open, refreshed database. */
  run(db: CKGDatabase, args: ToolCommandArguments): Promise<ToolCommandOutput>;
}

/**
 * The identifier of a command that does not describe its own: an exact, case-sensitive name.
 *
 * @example
 * ```ts
 * const meaning = (command.identifier ?? DEFAULT_IDENTIFIER).description;
 * ```
 * @public
 */
export const DEFAULT_IDENTIFIER: ToolIdentifier = Object.freeze({ description: 'Exact name' });

/** Structured output of the three search commands: the definitions the text shows, with their locations. */
// Short on purpose: every client pays for each schema in its context (docs/mcp.md). Each match
// is `{ file, start, end, class? }`.
const MATCHES_SCHEMA: JsonSchema = { type: 'object' };

function matches(entries: readonly (FunctionEntry | ClassEntry)[], formatted: FormattedEntries): ToolCommandOutput {
  return {
    text: formatted.text,
    found: entries.length > 0,
    structured: {
      total: entries.length,
      matches: entries.slice(0, formatted.shown).map((e) => ({
        file: e.filePath,
        start: e.startLine,
        end: e.endLine,
        ...('parentClass' in e && e.parentClass !== undefined ? { class: e.parentClass } : {}),
      })),
    },
  };
}

/** The commands of the reference CKG tool; their outputs are byte-for-byte the reference formats. */
const SEARCH_COMMANDS: readonly ToolCommand[] = [
  {
    name: 'search_function',
    summary: 'The `search_function` command searches for functions in the codebase',
    printsBodies: true,
    output: MATCHES_SCHEMA,
    run: async (db, { identifier, printBody }) => {
      const entries = await db.queryFunction(identifier, 'function');
      return matches(entries, renderFunctions(identifier, entries, printBody));
    },
  },
  {
    name: 'search_class',
    summary: 'The `search_class` command searches for classes in the codebase',
    printsBodies: true,
    output: MATCHES_SCHEMA,
    run: async (db, { identifier, printBody }) => {
      const entries = await db.queryClass(identifier);
      return matches(entries, renderClasses(identifier, entries, printBody));
    },
  },
  {
    name: 'search_class_method',
    summary: 'The `search_class_method` command searches for class methods in the codebase',
    printsBodies: true,
    output: MATCHES_SCHEMA,
    run: async (db, { identifier, printBody }) => {
      const entries = await db.queryFunction(identifier, 'class_method');
      return matches(entries, renderClassMethods(identifier, entries, printBody));
    },
  },
];

/** An optional integer argument as the agent sent it (numbers or digit strings). */
export function integerArgument(raw: Readonly<Record<string, unknown>>, name: string): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new CKGError('INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

const PAGE_PARAMETERS: Readonly<Record<string, ToolParameter>> = {
  head_limit: { type: 'integer', description: 'Max entries.' },
  offset: { type: 'integer', description: 'Skip entries.' },
};

/** Text search beside the graph: file names by glob, file contents by regular expression. */
const TEXT_COMMANDS: readonly ToolCommand[] = [
  {
    name: 'glob',
    summary: 'The `glob` command finds files by the glob `identifier`, newest first',
    identifier: { description: 'Glob pattern' },
    parameters: PAGE_PARAMETERS,
    run: async (db, { identifier, raw }) => {
      const offset = integerArgument(raw, 'offset') ?? 0;
      const limit = integerArgument(raw, 'head_limit');
      const result = await db.glob({ pattern: identifier, offset, ...(limit === undefined ? {} : { limit }) });
      return { text: formatGlob(identifier, result, offset), found: result.totalMatches > 0 };
    },
  },
  {
    name: 'grep',
    summary: 'The `grep` command finds lines matching the JS regex `identifier`',
    identifier: { description: 'JS regex' },
    parameters: {
      output_mode: { type: 'string', description: 'grep output.', enum: ['files_with_matches', 'content', 'count'] },
      ...PAGE_PARAMETERS,
      glob: { type: 'string', description: 'Path glob.' },
      case_insensitive: { type: 'boolean', description: 'grep: ignore case.' },
      context: { type: 'integer', description: 'Context lines.' },
    },
    run: async (db, { identifier, raw }) => {
      const offset = integerArgument(raw, 'offset') ?? 0;
      const headLimit = integerArgument(raw, 'head_limit');
      const context = integerArgument(raw, 'context');
      const mode = raw.output_mode ?? undefined;
      const glob = typeof raw.glob === 'string' && raw.glob.trim() !== '' ? raw.glob : undefined;
      const result = await db.grep({
        pattern: identifier,
        outputMode: mode as GrepOutputMode | undefined,
        caseInsensitive: raw.case_insensitive === true || raw.case_insensitive === 'true',
        offset,
        ...(headLimit === undefined ? {} : { headLimit }),
        ...(context === undefined ? {} : { context }),
        ...(glob === undefined ? {} : { glob }),
      });
      return { text: formatGrep(identifier, result, offset), found: result.totalMatches > 0 };
    },
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
export const TOOL_COMMANDS: readonly ToolCommand[] = Object.freeze([...SEARCH_COMMANDS, ...GRAPH_COMMANDS, ...TEXT_COMMANDS]);

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
