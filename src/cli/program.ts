// The `ckg-wasm` command's program: its subcommands and what they print, written to a `CliIo`
// (this process's streams, or a client's through the answer server, src/cli/daemon/) so one
// definition serves a call run here and one answered by the daemon.
import nodeFs from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
// Modules, not the package's entry: the entry re-exports everything (parsers, visitors, graph
// resolution, text search), and a call answered from a stored index needs none of it.
import { BODY_MODES, type BodyMode } from '../db/body-mode.js';
import { CKGDatabase, type IndexOptions } from '../db/database.js';
import { CKGError } from '../errors.js';
import type { IndexReport, ProgressEvent } from '../indexer/report.js';
import { DirectoryStorage } from '../node/directory-storage.js';
import type { Storage } from '../storage/types.js';
import type { CKGCallResult, CKGTool } from '../tool/ckg-tool.js';
import { findCommand, type ToolParameter } from '../tool/commands.js';
import { commandDescription } from '../adapters/definitions.js';
import { checkWritable, SingleFileStorage, writeFileAtomic } from './file-output.js';
import { CLI_COMMANDS } from './subcommands.js';
import { EXIT_ERROR, EXIT_FOUND, EXIT_NOTHING, type CliIo } from './io.js';

/** Options every command that may build an index shares. */
export interface BuildFlags {
  languages?: string[];
  maxFileSize?: number;
  gitignore: boolean;
  progress: boolean;
  workers?: number;
  bodies?: BodyMode;
  cache: boolean;
  cacheDir?: string;
  db?: string;
}

/** What a command needs to build or open indexes, and its clean-up. */
export interface Session {
  readonly options: IndexOptions;
  /** The tool answering this session's calls. */
  tool(): CKGTool;
  /** Ends what this call started (a daemon's sessions outlive the call: nothing to end). */
  close(): Promise<void>;
}

/** How the program gets sessions: a new one per call in this process, kept ones in the daemon. */
export interface Sessions {
  open(flags: BuildFlags, io: CliIo): Session;
}

/** The index options `flags` ask for, storage resolved against `io.cwd` (without processor and progress). */
export function indexOptionsOf(flags: BuildFlags, io: CliIo): IndexOptions {
  if (flags.db !== undefined) checkWritable(resolve(io.cwd, flags.db));
  const storage: Storage | undefined =
    flags.db !== undefined
      ? new SingleFileStorage(resolve(io.cwd, flags.db))
      : flags.cache
        ? new DirectoryStorage({ directory: flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : io.defaultCacheDir })
        : undefined;
  return {
    ...(flags.languages ? { languages: flags.languages } : {}),
    ...(flags.maxFileSize !== undefined ? { maxFileSize: flags.maxFileSize } : {}),
    ...(flags.bodies !== undefined ? { bodies: flags.bodies } : {}),
    // DirectoryStorage keeps each key apart; `--db`'s one file holds the index alone.
    ...(storage ? { storage, keepFolderListings: flags.db === undefined } : {}),
    respectGitignore: flags.gitignore,
  };
}

/** The progress listener of a call: a bar on the caller's stderr when it is a terminal. */
export function progressOf(flags: BuildFlags, io: CliIo): ((event: ProgressEvent) => void) | undefined {
  return flags.progress ? io.progress() : undefined;
}

function languages(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new InvalidArgumentError('give at least one language id');
  return ids;
}

function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`give a whole number${max === Number.MAX_SAFE_INTEGER ? ` ≥ ${min}` : ` from ${min} to ${max}`}`);
    }
    return n;
  };
}

function addBuildOptions(command: Command): Command {
  return command
    .option('-l, --languages <ids>', 'comma-separated language ids to index (default: all)', languages)
    .option('--max-file-size <bytes>', 'skip larger files (default 1 MiB)', wholeNumber(1))
    .option('--no-gitignore', 'do not honour .gitignore files')
    .addOption(new Option('--bodies <mode>', 'how a new index keeps bodies (docs/bodies.md)').choices(BODY_MODES))
    .option('-w, --workers <n>', 'parse workers (default: one per core; 0 = parse in this thread)', wholeNumber(0))
    .option('--no-cache', 'do not keep the index between runs')
    .option('--cache-dir <dir>', 'where indexes are kept (default: the user cache folder, ~/.cache/ckg-wasm)')
    .option('--db <file>', 'read the index from this exported database file, and write it there when built or updated')
    .option('--no-progress', 'no progress bar (it is only drawn when stderr is a terminal)')
    .option('--no-daemon', 'answer in this process: neither ask nor start the background answer server (docs/agents.md)');
}

function summary(report: IndexReport | undefined, path: string): string {
  if (!report) return '';
  const skipped = report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : '';
  const unknown = Object.entries(report.unknownExtensions)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([ext, n]) => `${ext} ${n}`)
    .join(', ');
  const excluded = (report.gitignoreExclusions ?? [])
    .slice(0, 5)
    .map((e) => `\n${e.files.toLocaleString('en-US')}${e.complete ? '' : '+'} files excluded by .gitignore (${e.rule}, ${e.gitignore})`)
    .join('');
  return (
    `Indexed ${path}: ${report.filesIndexed} files, ${report.functions} functions, ${report.classes} classes ` +
    `in ${(report.durationMs / 1000).toFixed(2)} s${skipped}` +
    (unknown ? `\nNot covered (extension: files): ${unknown}` : '') +
    excluded
  );
}

/** A command's own parameters as CLI options: `--depth 3`, `--case-insensitive`, `--output-mode content`. */
function addParameterOptions(command: Command, parameters: Readonly<Record<string, ToolParameter>>): void {
  for (const [name, p] of Object.entries(parameters)) {
    const flag = `--${name.replace(/_/g, '-')}`;
    if (p.type === 'boolean') {
      command.option(flag, p.description);
    } else if (p.type === 'integer') {
      command.option(`${flag} <n>`, p.description, wholeNumber(p.minimum ?? 0, p.maximum));
    } else {
      const option = new Option(`${flag} <value>`, p.description);
      command.addOption(p.enum ? option.choices([...p.enum]) : option);
    }
  }
}

/** Prints an error once, prefixed, with its code, and sets the usage/I-O exit code. */
export function fail(io: CliIo, message: string, code: string | undefined): void {
  io.err(`ckg-wasm: ${message}${code ? ` [${code}]` : ''}\n`);
  io.exitCode = EXIT_ERROR;
}

/** What `program.parseAsync` threw, as the exit code and message grep-like tools give. */
export function reportFailure(io: CliIo, error: unknown): void {
  if (error instanceof CommanderError) {
    // Commander printed the message (or the help / version) already.
    io.exitCode = error.exitCode === 0 ? 0 : EXIT_ERROR;
  } else if (error instanceof CKGError) {
    fail(io, error.message, error.code);
  } else {
    fail(io, error instanceof Error ? error.message : String(error), undefined);
  }
}

/**
 * The `ckg-wasm` program writing to `io`, its sessions from `sessions`. A program parses one
 * command line (commander keeps what it parsed): make one per call.
 */
export function createProgram(io: CliIo, sessions: Sessions, version: string): Command {
  const print = (text: string): void => io.out(`${text}\n`);
  const program = new Command()
    .name('ckg-wasm')
    .description('A code knowledge graph for coding agents: index a codebase, then ask it where things are defined.')
    .version(version, '-V, --version')
    .showHelpAfterError('(ckg-wasm --help for usage)')
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text), getErrHelpWidth: () => 80, getOutHelpWidth: () => 80 })
    .exitOverride();

  addBuildOptions(
    program
      .command('index')
      .description('Index a codebase (or reuse its stored index) and print what was found')
      .argument('<path>', 'codebase folder')
      .option('--skipped', 'list skipped files with their reasons')
      .option('-o, --output <file>', 'write the SQLite database to this file (atomically: a failed write keeps the old file)'),
  ).action(async (path: string, flags: BuildFlags & { skipped?: boolean; output?: string }) => {
    const output = flags.output !== undefined ? resolve(io.cwd, flags.output) : undefined;
    if (output !== undefined) checkWritable(output);
    const codebasePath = resolve(io.cwd, path);
    const s = sessions.open(flags, io);
    try {
      const db = await CKGDatabase.open({ codebasePath, fs: nodeFs, ...s.options });
      try {
        const how = db.origin === 'storage' ? ', reused from the cache' : db.origin === 'updated' ? `, updated from the cache (${db.report?.filesParsed ?? 0} files parsed)` : '';
        print(summary(db.report, codebasePath).replace(/^[^\n]*/, (line) => line + how));
        if (db.rebuildReason) io.err(`ckg-wasm: rebuilt: ${db.rebuildReason}\n`);
        if (flags.skipped) for (const k of db.report?.skipped ?? []) print(`skipped ${k.path}: ${k.reason}${k.detail ? ` (${k.detail})` : ''}`);
        if (db.storageError) io.err(`ckg-wasm: the index was not kept: ${db.storageError.message} [${db.storageError.code}]\n`);
        if (output !== undefined) {
          writeFileAtomic(output, db.export());
          print(`Wrote ${flags.output}`);
        }
      } finally {
        db.close();
      }
    } finally {
      await s.close();
    }
  });

  /** Prints one call's answer and sets the exit code. */
  const report = (result: CKGCallResult, json: boolean): void => {
    if ('error' in result) {
      if (json) print(JSON.stringify({ error: result.error, ...(result.code ? { code: result.code } : {}) }, null, 2));
      fail(io, result.error, result.code);
      return;
    }
    if (json) print(JSON.stringify({ output: result.output, found: result.found, ...(result.structured ? { structured: result.structured } : {}) }, null, 2));
    else print(result.output);
    io.exitCode ??= result.found ? EXIT_FOUND : EXIT_NOTHING;
    if (!result.found && io.exitCode === EXIT_FOUND) io.exitCode = EXIT_NOTHING;
  };

  for (const { cli, command: name } of CLI_COMMANDS) {
    const command = findCommand(name);
    if (!command) continue;
    const identifierOptional = command.identifier?.optional === true;
    const sub = program
      .command(cli)
      .description(`${commandDescription(command)} (the ckg tool's ${name} command)`)
      .argument(identifierOptional ? '[identifier]' : '<identifier>', (command.identifier?.description ?? 'exact name').toLowerCase())
      .argument('[path]', 'codebase folder, or a file inside it (default: the current folder)', '.')
      .option('--json', 'print the answer as JSON (with its structured form)');
    if (command.printsBodies) sub.option('--no-body', 'print locations only');
    addParameterOptions(sub, command.parameters ?? {});
    addBuildOptions(sub).action(async (identifier: string | undefined, path: string, flags: BuildFlags & Record<string, unknown>) => {
      const s = sessions.open(flags, io);
      try {
        const args: Record<string, unknown> = { command: name, path: resolve(io.cwd, path), identifier: identifier ?? '' };
        if (command.printsBodies) args.print_body = flags.body !== false;
        for (const parameter of Object.keys(command.parameters ?? {})) {
          const value = flags[parameter.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
          if (value !== undefined) args[parameter] = value;
        }
        report(await s.tool().call(args), flags.json === true);
      } finally {
        await s.close();
      }
    });
  }

  addBuildOptions(
    program
      .command('search')
      .description("Search a codebase for functions, class methods or classes named <identifier> (the ckg tool's output)")
      .argument('<path>', 'codebase folder (or a file inside it)')
      .argument('<identifier...>', 'names to search for')
      .addOption(new Option('-k, --kind <kind>', 'what to search').choices(['function', 'class_method', 'class', 'all']).default('all'))
      .option('--no-body', 'print locations only'),
  ).action(async (path: string, identifiers: string[], flags: BuildFlags & { kind: string; body: boolean }) => {
    const s = sessions.open(flags, io);
    const commands = flags.kind === 'all' ? ['search_function', 'search_class_method', 'search_class'] : [flags.kind === 'class' ? 'search_class' : `search_${flags.kind}`];
    let found = false;
    try {
      for (const identifier of identifiers) {
        for (const command of commands) {
          const result = await s.tool().call({ command, path: resolve(io.cwd, path), identifier, print_body: flags.body });
          if ('error' in result) {
            // The same bad path fails every name and kind: say it once.
            fail(io, result.error, result.code);
            return;
          }
          found ||= result.found;
          if (flags.kind !== 'all' || result.found) print(`$ ckg ${command} ${identifier}\n${result.output}\n`);
        }
      }
      io.exitCode = found ? EXIT_FOUND : EXIT_NOTHING;
    } finally {
      await s.close();
    }
  });

  addBuildOptions(
    program
      .command('tool')
      .description('Run one ckg tool call given as JSON arguments and print the result as JSON')
      .argument('<json>', 'e.g. \'{"command":"search_class","path":"/repo","identifier":"Widget"}\''),
  ).action(async (json: string, flags: BuildFlags) => {
    let args: unknown;
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new CKGError('INVALID_ARGUMENT', `the tool arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new CKGError('INVALID_ARGUMENT', 'the tool arguments must be a JSON object');
    const call = args as Record<string, unknown>;
    // A relative path is the caller's, not the answer server's.
    if (typeof call.path === 'string') call.path = resolve(io.cwd, call.path);
    const s = sessions.open(flags, io);
    try {
      const result = await s.tool().call(call);
      print(JSON.stringify('error' in result ? { error: result.error } : { output: result.output }, null, 2));
      io.exitCode = 'error' in result ? EXIT_ERROR : result.found ? EXIT_FOUND : EXIT_NOTHING;
    } finally {
      await s.close();
    }
  });

  program
    .command('mcp')
    .description('Serve the ckg tools over MCP on stdin/stdout (for MCP clients: Claude Code, Cursor, VS Code, …)')
    .argument('[path]', 'the codebase tool calls use when they give no path')
    .option('--single-tool', 'offer one `ckg` tool with a `command` enum instead of one tool per command')
    .option('--answer-within <ms>', 'while a first build runs longer than this, calls answer "indexing, N% done"', wholeNumber(0), 20_000)
    .option('-w, --workers <n>', 'parse workers (default: one per core; 0 = parse in this thread)', wholeNumber(0))
    .option('--no-cache', 'do not keep indexes between runs')
    .option('--cache-dir <dir>', 'where indexes are kept (default: the user cache folder, ~/.cache/ckg-wasm)')
    .action(async (path: string | undefined, flags: { singleTool?: boolean; answerWithin: number; workers?: number; cache: boolean; cacheDir?: string }) => {
      const { serveCkgMcp } = await import('../node/mcp.js');
      const server = serveCkgMcp({
        ...(path !== undefined ? { path: resolve(io.cwd, path) } : {}),
        mode: flags.singleTool ? 'single' : 'commands',
        answerWithinMs: flags.answerWithin,
        ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
        storage: flags.cache ? new DirectoryStorage({ directory: flags.cacheDir !== undefined ? resolve(io.cwd, flags.cacheDir) : io.defaultCacheDir }) : false,
      });
      // The client closing our stdin ends the session: stop builds, keep nothing running.
      await new Promise<void>((done) => process.stdin.once('close', done).once('end', done));
      await server.close();
      process.exit(0);
    });

  program
    .command('daemon')
    .description('The background answer server that keeps indexes open between calls: print its state, or stop it')
    .argument('<action>', '`status` or `stop`')
    .action(async (action: string) => {
      if (action !== 'status' && action !== 'stop') throw new CKGError('INVALID_ARGUMENT', `unknown daemon action '${action}': give status or stop`);
      const { controlDaemon } = await import('./daemon/client.js');
      const answer = await controlDaemon(action, io.env, io.cliFile);
      print(answer.text);
      io.exitCode = answer.running ? EXIT_FOUND : EXIT_NOTHING;
    });

  return program;
}
