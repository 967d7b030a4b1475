import { findGitRoot } from '../indexer/walker.js';
import { CKGDatabase, type IndexOptions } from '../db/database.js';
import type { ProgressEvent } from '../indexer/report.js';
import { CKGError, type CKGErrorCode } from '../errors.js';
import { FsAdapter } from '../fs/adapter.js';
import { dirname, isAbsolute, join, normalize } from '../fs/path.js';
import type { FileSystem } from '../fs/types.js';
import { commandParameters, findCommand, TOOL_COMMANDS, type ToolCommandOutput, type ToolParameter } from './commands.js';
import { echoed } from './format.js';
import { TOOL_ONLY_OPTIONS, TOOL_OPTIONS } from '../options/schemas.js';
import { checkOptions, withoutKeys } from '../options/validate.js';

/** How many databases a {@link CKGTool} keeps open by default (`maxOpenDatabases`). */
const DEFAULT_MAX_OPEN_DATABASES = 16;
import { IndexOperation } from './index-operation.js';
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
export const CKG_COMMANDS = [
  'search_function',
  'search_class',
  'search_class_method',
  'find_callers',
  'find_callees',
  'trace_path',
  'class_hierarchy',
  'dead_code',
  'search_symbols',
  'file_outline',
  'glob',
  'grep',
] as const;

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
 * What {@link CKGTool.call} returns: the text, the same answer as data when the command has a
 * structured form, and whether anything was found; or the error message with its code.
 *
 * @example
 * ```ts
 * const result: CKGCallResult = await tool.call({ command: 'search_class', path: '/abs/repo', identifier: 'Widget' });
 * if ('error' in result) process.exitCode = 2;
 * else if (!result.found) process.exitCode = 1;
 * ```
 * @public
 */
export type CKGCallResult =
  | { readonly output: string; readonly structured?: Readonly<Record<string, unknown>>; readonly found: boolean }
  | {
      readonly error: string;
      readonly code?: CKGErrorCode;
      /** The index is still being built (the answer was not waited for): call again shortly. */
      readonly pending?: boolean;
    };

/**
 * Options of one {@link CKGTool.call}.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const result = await tool.call(args, { signal: controller.signal, onProgress: (e) => console.error(e.filesDone) });
 * ```
 * @public
 */
export interface CKGCallOptions {
  /**
   * Stops waiting (the call answers `ABORTED`). The build or update it waited for is aborted
   * too when no other call waits for it; the index is then left as it was.
   */
  readonly signal?: AbortSignal;
  /** Progress of the build or update this call waits for. */
  readonly onProgress?: (event: ProgressEvent) => void;
}

/**
 * The state of one codebase's index in a {@link CKGTool} ({@link CKGTool.status}).
 *
 * @example
 * ```ts
 * const s: CKGIndexStatus = await tool.status('/abs/repo');
 * if (s.state === 'indexing') console.log(`indexing, ${s.percent ?? 0}% done`);
 * ```
 * @public
 */
export interface CKGIndexStatus {
  /** The codebase root the path resolved to. */
  readonly root: string;
  /** `none`: never opened by this tool; `indexing`: the first build runs; `ready`; `failed`: the last open failed. */
  readonly state: 'none' | 'indexing' | 'ready' | 'failed';
  /** Whether a build or an update is running now. */
  readonly updating: boolean;
  /** Files done of files found by the running build or update, in percent (whole numbers). */
  readonly percent?: number;
  /** The running build's or update's last progress event. */
  readonly progress?: ProgressEvent;
  /** Indexed files. */
  readonly files?: number;
  /** Functions, methods and classes. */
  readonly symbols?: number;
  /** Graph edges, when the index has them (`db.stats().edges`). */
  readonly edges?: number;
  /** Indexed files per language id. */
  readonly languages?: Readonly<Record<string, number>>;
  /** When this tool last brought the index up to date (ms since the epoch). */
  readonly lastUpdate?: number;
  /** The codebase's current snapshot key (docs/persistence.md). */
  readonly snapshotKey?: string;
  /** The key of the index in the tool's storage, when it has one. */
  readonly storageKey?: string;
  /** How the index was opened: built, reused from storage, or updated from storage. */
  readonly origin?: string;
  /** Why the last open failed. */
  readonly error?: string;
}

/** What the tool knows of one codebase besides its database: the running operation, the last update. */
interface RootState {
  operation: IndexOperation<unknown> | undefined;
  lastUpdate: number | undefined;
  error: string | undefined;
}

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
   * least recently used one that no call is using (it is reopened, from `storage` when given,
   * if asked again). Default 16.
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

/** The `ckg` tool's description (internal: {@link CKGTool.description} is the public form). */
export const CKG_TOOL_DESCRIPTION = [
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
  readonly description = CKG_TOOL_DESCRIPTION;
  /** JSON Schema of the arguments. */
  readonly parameters = CKG_TOOL_PARAMETERS;

  readonly #options: CKGToolOptions;
  /** The options passed on to `CKGDatabase.open` (the tool's own removed). */
  readonly #indexOptions: Omit<CKGToolOptions, (typeof TOOL_ONLY_OPTIONS)[number]>;
  /** Calls using each root's database right now: it is never closed under them. */
  readonly #inUse = new Map<string, number>();
  readonly #fs: FsAdapter;
  readonly #databases = new Map<string, Promise<CKGDatabase>>();
  readonly #roots = new Map<string, RootState>();
  /** Expiry started by the constructor; opens wait for it so it never races a fresh store. */
  readonly #expiring: Promise<unknown>;
  #closed = false;

  constructor(options: CKGToolOptions) {
    checkOptions('CKGTool', options, TOOL_OPTIONS, ['fs']);
    this.#options = options;
    this.#indexOptions = withoutKeys(options, TOOL_ONLY_OPTIONS);
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
    const result = await this.call(args);
    return 'error' in result ? { error: result.error } : { output: result.output };
  }

  /**
   * Runs one command like `CKGTool.execute`, and also returns its structured answer,
   * whether anything was found, and the code of an error. Never throws.
   *
   * @example
   * ```ts
   * const result = await tool.call({ command: 'search_function', path: '/abs/repo', identifier: 'parse_config' });
   * if ('output' in result) console.log(result.found, result.structured);
   * ```
   */
  async call(args: CKGToolArguments, options: CKGCallOptions = {}): Promise<CKGCallResult> {
    try {
      const output = await this.#run(args ?? {}, options);
      return { output: output.text, found: output.found !== false, ...(output.structured ? { structured: output.structured } : {}) };
    } catch (error) {
      if (error instanceof ToolArgumentError) return { error: error.message, code: error.code };
      const message = error instanceof Error ? error.message : String(error);
      return { error: `Error executing tool 'ckg': ${message}`, ...(error instanceof CKGError ? { code: error.code } : {}) };
    }
  }

  /**
   * The state of the index of the codebase at `path` (a file path resolves as in a call): its
   * counts, languages, keys, and whether a build or update runs. Never starts indexing.
   *
   * @example
   * ```ts
   * const { state, files, symbols, updating } = await tool.status('/abs/repo');
   * ```
   */
  async status(path: string): Promise<CKGIndexStatus> {
    if (typeof path !== 'string' || path === '') throw new CKGError('INVALID_ARGUMENT', `Invalid path: ${JSON.stringify(path)}`);
    let root: string;
    try {
      root = await this.#codebaseRoot(path);
    } catch (error) {
      if (error instanceof ToolArgumentError) throw new CKGError(error.code, error.message, { path });
      throw error;
    }
    const state = this.#roots.get(root);
    const operation = state?.operation?.running ? state.operation : undefined;
    const progress = operation?.progress;
    const live = {
      root,
      updating: operation !== undefined,
      ...(progress ? { progress, percent: progress.filesTotal > 0 ? Math.floor((100 * progress.filesDone) / progress.filesTotal) : 0 } : {}),
      ...(state?.lastUpdate !== undefined ? { lastUpdate: state.lastUpdate } : {}),
    };
    const opening = this.#databases.get(root);
    if (!opening) return { ...live, state: state?.error !== undefined ? 'failed' : 'none', ...(state?.error !== undefined ? { error: state.error } : {}) };
    if (operation?.kind === 'build') return { ...live, state: 'indexing' };
    const db = await opening;
    // Counts the database has: files, functions, classes, and with the graph symbols and edges.
    const stats = db.stats() as { files: number; functions: number; classes: number; symbols?: number; edges?: number };
    return {
      ...live,
      state: 'ready',
      files: stats.files,
      symbols: typeof stats.symbols === 'number' ? stats.symbols : stats.functions + stats.classes,
      ...(typeof stats.edges === 'number' ? { edges: stats.edges } : {}),
      languages: db.filesByLanguage(),
      snapshotKey: await db.snapshotKey(),
      ...(db.storageKey !== undefined ? { storageKey: db.storageKey } : {}),
      origin: db.origin,
    };
  }

  /** Closes every database the tool opened. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A build in flight is aborted, not awaited: closing must not wait minutes for a large tree.
    for (const state of this.#roots.values()) state.operation?.abort(new CKGError('CLOSED', 'The tool is closed'));
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

  async #run(args: CKGToolArguments, options: CKGCallOptions): Promise<ToolCommandOutput> {
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
    this.#inUse.set(root, (this.#inUse.get(root) ?? 0) + 1);
    try {
      const db = await this.#database(root, options);
      // Most recently used last: the first entries are the ones to close when too many are open.
      const opening = this.#databases.get(root);
      if (opening !== undefined) {
        this.#databases.delete(root);
        this.#databases.set(root, opening);
      }
      return await findCommand(command)!.run(db, { identifier: name, printBody, raw: args as Readonly<Record<string, unknown>> });
    } finally {
      const users = (this.#inUse.get(root) ?? 1) - 1;
      if (users === 0) this.#inUse.delete(root);
      else this.#inUse.set(root, users);
      this.#closeLeastRecentlyUsed();
    }
  }

  /** Closes databases beyond `maxOpenDatabases`, least recently used first, skipping those in use or being built. */
  #closeLeastRecentlyUsed(): void {
    const limit = this.#options.maxOpenDatabases ?? DEFAULT_MAX_OPEN_DATABASES;
    for (const [root, opening] of this.#databases) {
      if (this.#databases.size <= limit) return;
      if (this.#inUse.has(root) || this.#roots.get(root)?.operation?.running === true) continue;
      this.#databases.delete(root);
      this.#roots.delete(root);
      opening.then(
        (db) => db.close(),
        () => undefined,
      );
    }
  }

  /** A directory is the codebase; a file means its git root, else its folder. */
  async #codebaseRoot(path: string): Promise<string> {
    const absolute = isAbsolute(path) ? normalize(path) : join(this.#options.cwd ?? defaultCwd(), path);
    const info = await this.#fs.stat(absolute);
    if (!info) throw new ToolArgumentError(`Codebase path ${echoed(path)} does not exist`, 'NOT_FOUND');
    if (info.kind === 'directory') return absolute;
    if (info.kind !== 'file') throw new ToolArgumentError(`Codebase path ${echoed(path)} is not a directory`, 'NOT_A_DIRECTORY');
    const folder = dirname(absolute);
    return (await findGitRoot(this.#fs, folder)) ?? folder;
  }

  /**
   * The database of `root`, opened (built) on first use and refreshed before each answer; the
   * call waits for that work through an {@link IndexOperation}, which its signal can abort.
   */
  async #database(root: string, options: CKGCallOptions): Promise<CKGDatabase> {
    if (this.#closed) throw new CKGError('CLOSED', 'The tool is closed');
    const state = this.#rootState(root);
    const cached = this.#databases.get(root);
    if (!cached) {
      const operation = new IndexOperation(
        'build',
        ({ onProgress, signal }) =>
          this.#expiring.then(() =>
            CKGDatabase.open({
              ...this.#indexOptions,
              codebasePath: root,
              onProgress: (event) => {
                onProgress(event);
                this.#options.onProgress?.(event);
              },
              signal: this.#options.signal !== undefined ? anySignal(this.#options.signal, signal) : signal,
            }),
          ),
        Date.now(),
      );
      state.operation = operation;
      this.#databases.set(root, operation.promise);
      operation.promise.then(
        () => {
          state.lastUpdate = Date.now();
          state.error = undefined;
        },
        (error: unknown) => {
          if (this.#databases.get(root) === operation.promise) this.#databases.delete(root);
          // An abandoned build leaves no index and no failure: the next call starts again.
          state.error = error instanceof CKGError && error.code === 'ABORTED' ? undefined : error instanceof Error ? error.message : String(error);
        },
      );
      return await operation.wait(options);
    }
    // A build still running (another call started it): wait for it like its starter.
    if (state.operation?.running && state.operation.kind === 'build') return (await state.operation.wait(options)) as CKGDatabase;
    const db = await cached;
    if (this.#options.refresh === false) return db;
    // Cheap when nothing changed: a walk and a key comparison; re-parses changed files only.
    let operation = state.operation?.running ? state.operation : undefined;
    if (!operation) {
      const update = new IndexOperation(
        'update',
        ({ onProgress, signal }) =>
          db.refresh({
            onProgress: (event) => {
              onProgress(event);
              this.#options.onProgress?.(event);
            },
            signal,
          }),
        Date.now(),
      );
      state.operation = operation = update;
      update.promise.then(() => (state.lastUpdate = Date.now()), () => undefined);
    }
    await operation.wait(options);
    return db;
  }

  #rootState(root: string): RootState {
    let state = this.#roots.get(root);
    if (!state) this.#roots.set(root, (state = { operation: undefined, lastUpdate: undefined, error: undefined }));
    return state;
  }
}

/** A signal that aborts when either does (AbortSignal.any is missing in older browsers). */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a.aborted) return a;
  if (b.aborted) return b;
  const controller = new AbortController();
  const forward = (from: AbortSignal) => () => controller.abort(from.reason);
  a.addEventListener('abort', forward(a), { once: true });
  b.addEventListener('abort', forward(b), { once: true });
  return controller.signal;
}

class ToolArgumentError extends Error {
  constructor(
    message: string,
    readonly code: CKGErrorCode = 'INVALID_ARGUMENT',
  ) {
    super(message);
  }
}
