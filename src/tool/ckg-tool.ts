import { findGitRoot } from '../build/walker.js';
import { CKGDatabase, type IndexOptions } from '../db/database.js';
import { CKGError } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { dirname, isAbsolute, join, normalize } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import { commandParameters, findCommand, TOOL_COMMANDS, type ToolParameter } from './commands.js';
import { DEFAULT_STORAGE_MAX_AGE_MS, expireStorage } from '../storage/expire.js';

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
  /** One of {@link CKG_COMMANDS}; anything else is answered with an error. */
  readonly command?: unknown;
  /** The codebase: a folder, or a file (then its git root, else its folder), absolute or relative to the working directory. */
  readonly path?: unknown;
  /** The name to look up (a string, or a number). */
  readonly identifier?: unknown;
  /** Whether answers include bodies: true unless `false` or `"false"`. */
  readonly print_body?: unknown;
}

/**
 * A call of the `ckg` tool written by TypeScript code: the command, path and identifier typed
 * (the values `CKGTool.execute` checks at run time for an agent's {@link CKGToolArguments}).
 *
 * @example
 * ```ts
 * const call: CKGToolCall = { command: 'search_class', path: '/abs/repo', identifier: 'Widget', print_body: false };
 * const result = await tool.execute(call);
 * ```
 * @public
 */
export interface CKGToolCall {
  /** The command. */
  readonly command: CKGCommand;
  /** The codebase: a folder, or a file (then its git root, else its folder). */
  readonly path: string;
  /** The name to look up. */
  readonly identifier: string;
  /** Whether answers include bodies. Default true. */
  readonly print_body?: boolean;
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
  /** Always `'object'`. */
  readonly type: 'object';
  /** One JSON Schema per parameter: the four of the reference tool, then commands' own. */
  readonly properties: {
    readonly command: ToolParameter & { readonly enum: readonly string[] };
    readonly path: ToolParameter;
    readonly identifier: ToolParameter;
    readonly print_body: ToolParameter;
    readonly [name: string]: ToolParameter;
  };
  /** The parameters every call must give. */
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
  readonly #fs: FsAdapter;
  readonly #databases = new Map<string, Promise<CKGDatabase>>();
  /** Expiry started by the constructor; opens wait for it so it never races a fresh store. */
  readonly #expiring: Promise<unknown>;
  #closed = false;

  constructor(options: CKGToolOptions) {
    this.#options = options;
    this.#fs = new FsAdapter(options.fs);
    const maxAgeMs = options.storageMaxAgeMs ?? DEFAULT_STORAGE_MAX_AGE_MS;
    this.#expiring =
      options.storage !== undefined && maxAgeMs !== Infinity
        ? Promise.resolve()
            .then(() => expireStorage(options.storage!, { maxAgeMs }))
            .catch(() => undefined) // a cache that cannot be pruned must not break the tool
        : Promise.resolve();
  }

  /**
   * Runs one command written by TypeScript code. Never throws: failures come back as `{ error }`.
   *
   * @param args - the command, path and identifier, typed.
   */
  execute(args: CKGToolCall): Promise<CKGToolResult>;
  /**
   * Runs one command as an agent sent it (any JSON object): every value is checked at run time,
   * and a bad one is answered with `{ error }` in the reference tool's words. Never throws.
   *
   * @param args - the arguments as the model sent them.
   */
  execute(args: CKGToolArguments): Promise<CKGToolResult>;
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
    const all = [...this.#databases.values()];
    this.#databases.clear();
    for (const p of all) {
      try {
        (await p).close();
      } catch {
        // a failed build has nothing to close
      }
    }
  }

  async #run(args: CKGToolArguments): Promise<string> {
    const { command, path, identifier } = args;
    if (command === undefined || command === null) throw new ToolArgumentError('No command provided for the ckg tool');
    if (path === undefined || path === null) throw new ToolArgumentError('No path provided for the ckg tool');
    if (identifier === undefined || identifier === null) throw new ToolArgumentError('No identifier provided for the ckg tool');
    // The command is checked before any (possibly long) indexing.
    if (typeof command !== 'string' || findCommand(command) === undefined) {
      throw new ToolArgumentError(`Invalid command: ${typeof command === 'string' ? command : JSON.stringify(command)}`);
    }
    if (typeof path !== 'string' || path === '') throw new ToolArgumentError(`Invalid path: ${JSON.stringify(path)}`);
    if (typeof identifier !== 'string' && typeof identifier !== 'number') {
      throw new ToolArgumentError(`Invalid identifier: ${JSON.stringify(identifier)}`);
    }
    const name = String(identifier);
    const printBody = args.print_body !== false && args.print_body !== 'false';
    const db = await this.#database(await this.#codebaseRoot(path));
    const output = await findCommand(command)!.run(db, { identifier: name, printBody, raw: args as Readonly<Record<string, unknown>> });
    return output.text;
  }

  /** A directory is the codebase; a file means its git root, else its folder. */
  async #codebaseRoot(path: string): Promise<string> {
    const absolute = isAbsolute(path) ? normalize(path) : join(this.#options.cwd ?? defaultCwd(), path);
    const info = await this.#fs.stat(absolute);
    if (!info) throw new ToolArgumentError(`Codebase path ${path} does not exist`);
    if (info.kind === 'directory') return absolute;
    if (info.kind !== 'file') throw new ToolArgumentError(`Codebase path ${path} is not a directory`);
    const folder = dirname(absolute);
    return (await findGitRoot(this.#fs, folder)) ?? folder;
  }

  async #database(root: string): Promise<CKGDatabase> {
    if (this.#closed) throw new CKGError('CLOSED', 'The tool is closed');
    const cached = this.#databases.get(root);
    if (cached) {
      const db = await cached;
      // Cheap when nothing changed: a walk and a key comparison; re-parses changed files only.
      if (this.#options.refresh !== false) await db.refresh();
      return db;
    }
    const opening = this.#expiring.then(() => CKGDatabase.open({ ...this.#options, codebasePath: root }));
    this.#databases.set(root, opening);
    opening.catch(() => this.#databases.delete(root));
    return await opening;
  }
}

class ToolArgumentError extends Error {}
