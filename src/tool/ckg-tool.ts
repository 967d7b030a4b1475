import { findGitRoot } from '../build/walker.js';
import { CKGDatabase, type IndexOptions } from '../db/database.js';
import { CKGError } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { dirname, isAbsolute, join, normalize } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import { commandParameters, findCommand, TOOL_COMMANDS, type ToolParameter } from './commands.js';
import { echoed } from './format.js';
import { DEFAULT_STORAGE_MAX_AGE_MS, expireStorage } from '../storage/expire.js';
import { OpenDatabases } from './open-databases.js';

/** How many databases a {@link CKGTool} keeps open by default (`maxOpenDatabases`). */
const DEFAULT_MAX_OPEN_DATABASES = 16;
import { TOOL_ONLY_OPTIONS, TOOL_OPTIONS } from '../options/schemas.js';
import { checkOptions, withoutKeys } from '../options/validate.js';

/**
 * The commands of the `ckg` tool.
 *
 * @example
 * ```ts
 * if (!CKG_COMMANDS.includes(command as CKGCommand)) throw new Error(`unknown command ${String(command)}`);
 * ```
 * @public
 */
export const CKG_COMMANDS = ['search_function', 'search_class', 'search_class_method'] as const;

// The command table and this literal list must agree (checked at load: a mismatch is a bug here).
if (TOOL_COMMANDS.map((c) => c.name).join() !== CKG_COMMANDS.join()) throw new Error('CKG_COMMANDS and TOOL_COMMANDS disagree');

/**
 * One of {@link CKG_COMMANDS}.
 *
 * @example
 * ```ts
 * const command: CKGCommand = 'search_class';
 * const result = await tool.execute({ command, path: '/abs/repo', identifier: 'Widget' });
 * ```
 * @public
 */
export type CKGCommand = (typeof CKG_COMMANDS)[number];

/**
 * Arguments of the `ckg` tool, as an agent sends them.
 *
 * @example
 * ```ts
 * const args = JSON.parse(toolCall.arguments) as CKGToolArguments; // as the model sent them
 * const result = await tool.execute(args);
 * ```
 * @public
 */
export interface CKGToolArguments {
  readonly command?: unknown;
  readonly path?: unknown;
  readonly identifier?: unknown;
  readonly print_body?: unknown;
}

/**
 * What the tool returns: text for the model, or an error message for it.
 *
 * @example
 * ```ts
 * const result: CKGToolResult = await tool.execute(args);
 * const text = 'output' in result ? result.output : `Error: ${result.error}`;
 * ```
 * @public
 */
export type CKGToolResult = { readonly output: string } | { readonly error: string };

/**
 * Options of {@link CKGTool}.
 *
 * @example
 * ```ts
 * const options: CKGToolOptions = { fs, storage: new MemoryStorage(), storageMaxAgeMs: 24 * 3600 * 1000 };
 * const tool = new CKGTool(options);
 * ```
 * @public
 */
export interface CKGToolOptions extends IndexOptions {
  /** The file system the codebases are read from. */
  readonly fs: FileSystem;
  /** Folder relative `path` arguments are resolved against. Default: the process's cwd, else `/`. */
  readonly cwd?: string;
  /**
   * Re-check the codebase before each answer and re-parse changed files, so edits made during
   * an agent's session are seen by its next query. Default true.
   */
  readonly refresh?: boolean;
  /**
   * With `storage`: stored databases unused for longer than this many ms are removed when the
   * tool is created ({@link expireStorage}). Default 7 days; `Infinity` keeps everything.
   */
  readonly storageMaxAgeMs?: number;
  /**
   * How many codebases' databases the tool keeps open at once; opening one more closes the
   * least recently used (it is reopened, from `storage` when given, if asked again). Default 16.
   */
  readonly maxOpenDatabases?: number;
}

/**
 * The JSON Schema of the tool's arguments (compatible with the reference CKG tool).
 *
 * @example
 * ```ts
 * const toolSpec = { name: 'ckg', description: tool.description, input_schema: CKG_TOOL_PARAMETERS };
 * ```
 * @public
 */
export const CKG_TOOL_PARAMETERS: CKGToolParameters = {
  type: 'object',
  properties: {
    command: {
      type: 'string',
      description: `The command to run. Allowed options are ${CKG_COMMANDS.join(', ')}.`,
      enum: [...CKG_COMMANDS],
    },
    path: {
      type: 'string',
      description:
        'The absolute path to the codebase root directory. A file path is accepted too: its git repository root (or else its folder) is used.',
    },
    identifier: {
      type: 'string',
      description: 'The identifier of the function or class to search for in the code knowledge graph.',
    },
    print_body: {
      type: 'boolean',
      description: 'Whether to print the body of the function or class. This is enabled by default.',
    },
    ...commandParameters(),
  },
  required: ['command', 'path', 'identifier'],
};

/**
 * The shape of {@link CKG_TOOL_PARAMETERS}: the reference tool's four parameters plus the
 * optional parameters of the newer commands.
 *
 * @example
 * ```ts
 * const names = Object.keys(CKG_TOOL_PARAMETERS.properties); // ['command', 'path', 'identifier', 'print_body', …]
 * ```
 * @public
 */
export interface CKGToolParameters {
  readonly type: 'object';
  readonly properties: {
    readonly command: ToolParameter & { readonly enum: readonly string[] };
    readonly path: ToolParameter;
    readonly identifier: ToolParameter;
    readonly print_body: ToolParameter;
    readonly [name: string]: ToolParameter;
  };
  readonly required: readonly string[];
}

const DESCRIPTION = [
  'Query the code knowledge graph of a codebase.',
  '* State is persistent across command calls and discussions with the user',
  ...TOOL_COMMANDS.map((c) => `* ${c.summary}`),
  '* If a `command` generates a long output, it will be truncated and marked with `<response clipped>`',
  '* If multiple entries are found, the tool will return all of them until the truncation is reached',
  '* By default, the tool will print function or class bodies as well as the file path and line number of the function or class. You can disable this by setting the `print_body` parameter to `false`',
  '* The CKG is not completely accurate, and may not be able to find all functions or classes in the codebase',
].join('\n');

function defaultCwd(): string {
  const proc = (globalThis as { process?: { cwd?: () => string } }).process;
  try {
    return typeof proc?.cwd === 'function' ? proc.cwd() : '/';
  } catch {
    return '/';
  }
}

/**
 * The agent-facing tool named `ckg`, compatible with the reference CKG tool's surface: same
 * parameters, messages and output formats, with its defects fixed (see docs/compatibility.md).
 *
 * @example
 * ```ts
 * import fs from 'node:fs';
 * const tool = new CKGTool({ fs });
 * const result = await tool.execute({ command: 'search_function', path: '/abs/repo', identifier: 'parse_config' });
 * if ('output' in result) console.log(result.output); else console.error(result.error);
 * ```
 * @public
 */
export class CKGTool {
  /** The tool's name in agent frameworks. */
  readonly name = 'ckg';
  /** The description shown to the model. */
  readonly description = DESCRIPTION;
  /** JSON Schema of the arguments. */
  readonly parameters = CKG_TOOL_PARAMETERS;

  readonly #options: CKGToolOptions;
  /** The options passed on to `CKGDatabase.open` (the tool's own removed). */
  readonly #indexOptions: Omit<CKGToolOptions, (typeof TOOL_ONLY_OPTIONS)[number]>;
  readonly #fs: FsAdapter;
  readonly #databases: OpenDatabases;
  /** Expiry started by the constructor; opens wait for it so it never races a fresh store. */
  readonly #expiring: Promise<unknown>;
  #closed = false;

  constructor(options: CKGToolOptions) {
    checkOptions('CKGTool', options, TOOL_OPTIONS, ['fs']);
    this.#options = options;
    this.#indexOptions = withoutKeys(options, TOOL_ONLY_OPTIONS);
    this.#fs = new FsAdapter(options.fs);
    this.#databases = new OpenDatabases(options.maxOpenDatabases ?? DEFAULT_MAX_OPEN_DATABASES);
    const maxAgeMs = options.storageMaxAgeMs ?? DEFAULT_STORAGE_MAX_AGE_MS;
    this.#expiring =
      options.storage !== undefined && maxAgeMs !== Infinity
        ? Promise.resolve()
            .then(() => expireStorage(options.storage!, { maxAgeMs }))
            .catch(() => undefined) // a cache that cannot be pruned must not break the tool
        : Promise.resolve();
  }

  /** Runs one command. Never throws: failures come back as `{ error }`. */
  async execute(args: CKGToolArguments): Promise<CKGToolResult> {
    try {
      return { output: await this.#run(args ?? {}) };
    } catch (error) {
      if (error instanceof ToolArgumentError) return { error: error.message };
      const message = error instanceof Error ? error.message : String(error);
      return { error: `Error executing tool 'ckg': ${message}` };
    }
  }

  /** Closes every database the tool opened. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#databases.closeAll();
  }

  async #run(args: CKGToolArguments): Promise<string> {
    const { command, path, identifier } = args;
    if (command === undefined || command === null) throw new ToolArgumentError('No command provided for the ckg tool');
    if (path === undefined || path === null) throw new ToolArgumentError('No path provided for the ckg tool');
    if (identifier === undefined || identifier === null) throw new ToolArgumentError('No identifier provided for the ckg tool');
    // The command is checked before any (possibly long) indexing.
    if (typeof command !== 'string' || findCommand(command) === undefined) {
      throw new ToolArgumentError(`Invalid command: ${echoed(typeof command === 'string' ? command : String(JSON.stringify(command)))}`);
    }
    if (typeof path !== 'string' || path === '') throw new ToolArgumentError(`Invalid path: ${echoed(String(JSON.stringify(path)))}`);
    if (typeof identifier !== 'string' && typeof identifier !== 'number') {
      throw new ToolArgumentError(`Invalid identifier: ${echoed(String(JSON.stringify(identifier)))}`);
    }
    const name = String(identifier);
    const printBody = args.print_body !== false && args.print_body !== 'false';
    const root = await this.#codebaseRoot(path);
    if (this.#closed) throw new CKGError('CLOSED', 'The tool is closed');
    const output = await this.#databases.use(root, () => this.#expiring.then(() => CKGDatabase.open({ ...this.#indexOptions, codebasePath: root })), async (db, reused) => {
      // Cheap when nothing changed: a walk and a key comparison; re-parses changed files only.
      if (reused && this.#options.refresh !== false) await db.refresh();
      return await findCommand(command)!.run(db, { identifier: name, printBody, raw: args as Readonly<Record<string, unknown>> });
    });
    return output.text;
  }

  /** A directory is the codebase; a file means its git root, else its folder. */
  async #codebaseRoot(path: string): Promise<string> {
    const absolute = isAbsolute(path) ? normalize(path) : join(this.#options.cwd ?? defaultCwd(), path);
    const info = await this.#fs.stat(absolute);
    if (!info) throw new ToolArgumentError(`Codebase path ${echoed(path)} does not exist`);
    if (info.kind === 'directory') return absolute;
    if (info.kind !== 'file') throw new ToolArgumentError(`Codebase path ${echoed(path)} is not a directory`);
    const folder = dirname(absolute);
    return (await findGitRoot(this.#fs, folder)) ?? folder;
  }
}

class ToolArgumentError extends Error {}
