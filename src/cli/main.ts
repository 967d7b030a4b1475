#!/usr/bin/env node
// The `ckg-wasm` command (Node only): index a codebase, ask it questions, serve it over MCP.
// Indexes are kept in DirectoryStorage between runs (a second call reads the stored index), and
// exit codes follow grep: 0 found, 1 nothing found, 2 usage or I/O error.
import nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
// Modules, not the package's entry: the entry re-exports everything (parsers, visitors, graph
// resolution, text search), and a call answered from a stored index needs none of it.
import { BODY_MODES, type BodyMode } from '../db/body-mode.js';
import { CKGDatabase, type IndexOptions } from '../db/database.js';
import { CKGError } from '../errors.js';
import { initSql } from '../db/sql.js';
import type { IndexReport } from '../indexer/report.js';
import { DirectoryStorage } from '../node/directory-storage.js';
import type { Storage } from '../storage/types.js';
import { CKGTool, type CKGCallResult } from '../tool/ckg-tool.js';
import { LazyWorkerPool } from '../node/lazy-worker-pool.js';
import { findCommand, type ToolParameter } from '../tool/commands.js';
import { commandDescription } from '../adapters/definitions.js';
import { checkWritable, SingleFileStorage, writeFileAtomic } from './file-output.js';
import { CLI_COMMANDS } from './subcommands.js';
import { progressBar } from './progress.js';

// A call answered from a stored index runs sqlite's hot loop long enough for V8 to start
// optimising it (TurboFan, in the background), and a process cannot end while that runs: 100-250
// ms on a 2-core machine, after the answer. A higher tiering budget leaves short calls on
// baseline code; parse workers get the default budget back (LazyWorkerPool's onStart), and a
// long build's own hot sql.js functions still cross the higher one early.
const SHORT_CALL_TIERING_BUDGET = 100_000_000;
const DEFAULT_TIERING_BUDGET = 1_800_000; // V8's default in Node 20-22
setFlagsFromString(`--wasm-tiering-budget=${SHORT_CALL_TIERING_BUDGET}`);

// Every command but `mcp`, help and the version opens an index: sql.js's wasm is read and
// compiled in the background meanwhile (initSql keeps one instance per process, the one
// CKGDatabase.open then takes).
if (process.argv.length > 3 && process.argv[2] !== 'mcp') initSql({}).catch(() => undefined);

const EXIT_FOUND = 0;
const EXIT_NOTHING = 1;
const EXIT_ERROR = 2;

const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

const program = new Command()
  .name('ckg-wasm')
  .description('A code knowledge graph for coding agents: index a codebase, then ask it where things are defined.')
  .version(version, '-V, --version')
  .showHelpAfterError('(ckg-wasm --help for usage)')
  .exitOverride();

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

/** Options every command that may build an index shares. */
interface BuildFlags {
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
    .option('--no-progress', 'no progress bar (it is only drawn when stderr is a terminal)');
}

/** What a command needs to build or open indexes, and its clean-up. */
interface Session {
  readonly options: IndexOptions;
  close(): Promise<void>;
}

function session(flags: BuildFlags): Session {
  if (flags.db !== undefined) checkWritable(flags.db);
  const storage: Storage | undefined =
    flags.db !== undefined ? new SingleFileStorage(resolve(flags.db)) : flags.cache ? new DirectoryStorage(flags.cacheDir !== undefined ? { directory: resolve(flags.cacheDir) } : {}) : undefined;
  const pool = flags.workers === 0 ? undefined : new LazyWorkerPool(flags.workers, () => setFlagsFromString(`--wasm-tiering-budget=${DEFAULT_TIERING_BUDGET}`));
  const onProgress = flags.progress ? progressBar() : undefined;
  const options: IndexOptions = {
    processor: pool ?? 'this-thread',
    ...(flags.languages ? { languages: flags.languages } : {}),
    ...(flags.maxFileSize !== undefined ? { maxFileSize: flags.maxFileSize } : {}),
    ...(flags.bodies !== undefined ? { bodies: flags.bodies } : {}),
    // DirectoryStorage keeps each key apart; `--db`'s one file holds the index alone.
    ...(storage ? { storage, keepFolderListings: flags.db === undefined } : {}),
    ...(onProgress ? { onProgress } : {}),
    respectGitignore: flags.gitignore,
  };
  return { options, close: async () => void (await pool?.close()) };
}

function newTool(s: Session): CKGTool {
  // One process, one answer: the open already compared the snapshot, no refresh needed.
  return new CKGTool({ fs: nodeFs, ...s.options, refresh: false });
}

function fail(message: string, code: string | undefined): void {
  console.error(`ckg-wasm: ${message}${code ? ` [${code}]` : ''}`);
  process.exitCode = EXIT_ERROR;
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

addBuildOptions(
  program
    .command('index')
    .description('Index a codebase (or reuse its stored index) and print what was found')
    .argument('<path>', 'codebase folder')
    .option('--skipped', 'list skipped files with their reasons')
    .option('-o, --output <file>', 'write the SQLite database to this file (atomically: a failed write keeps the old file)'),
).action(async (path: string, flags: BuildFlags & { skipped?: boolean; output?: string }) => {
  if (flags.output !== undefined) checkWritable(flags.output);
  const codebasePath = resolve(path);
  const s = session(flags);
  try {
    const db = await CKGDatabase.open({ codebasePath, fs: nodeFs, ...s.options });
    try {
      const how = db.origin === 'storage' ? ', reused from the cache' : db.origin === 'updated' ? `, updated from the cache (${db.report?.filesParsed ?? 0} files parsed)` : '';
      console.log(summary(db.report, codebasePath).replace(/^[^\n]*/, (line) => line + how));
      if (db.rebuildReason) console.error(`ckg-wasm: rebuilt: ${db.rebuildReason}`);
      if (flags.skipped) for (const k of db.report?.skipped ?? []) console.log(`skipped ${k.path}: ${k.reason}${k.detail ? ` (${k.detail})` : ''}`);
      if (db.storageError) console.error(`ckg-wasm: the index was not kept: ${db.storageError.message} [${db.storageError.code}]`);
      if (flags.output !== undefined) {
        writeFileAtomic(flags.output, db.export());
        console.log(`Wrote ${flags.output}`);
      }
    } finally {
      db.close();
    }
  } finally {
    await s.close();
  }
});

/** Prints one call's answer and sets the exit code; returns whether it found something. */
function report(result: CKGCallResult, json: boolean): void {
  if ('error' in result) {
    if (json) console.log(JSON.stringify({ error: result.error, ...(result.code ? { code: result.code } : {}) }, null, 2));
    fail(result.error, result.code);
    return;
  }
  if (json) console.log(JSON.stringify({ output: result.output, found: result.found, ...(result.structured ? { structured: result.structured } : {}) }, null, 2));
  else console.log(result.output);
  process.exitCode ??= result.found ? EXIT_FOUND : EXIT_NOTHING;
  if (!result.found && process.exitCode === EXIT_FOUND) process.exitCode = EXIT_NOTHING;
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
    const s = session(flags);
    const tool = newTool(s);
    try {
      const args: Record<string, unknown> = { command: name, path: resolve(path), identifier: identifier ?? '' };
      if (command.printsBodies) args.print_body = flags.body !== false;
      for (const parameter of Object.keys(command.parameters ?? {})) {
        const value = flags[parameter.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
        if (value !== undefined) args[parameter] = value;
      }
      report(await tool.call(args), flags.json === true);
    } finally {
      await tool.close();
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
  const s = session(flags);
  const tool = newTool(s);
  const commands = flags.kind === 'all' ? ['search_function', 'search_class_method', 'search_class'] : [flags.kind === 'class' ? 'search_class' : `search_${flags.kind}`];
  let found = false;
  try {
    for (const identifier of identifiers) {
      for (const command of commands) {
        const result = await tool.call({ command, path: resolve(path), identifier, print_body: flags.body });
        if ('error' in result) {
          // The same bad path fails every name and kind: say it once.
          fail(result.error, result.code);
          return;
        }
        found ||= result.found;
        if (flags.kind !== 'all' || result.found) console.log(`$ ckg ${command} ${identifier}\n${result.output}\n`);
      }
    }
    process.exitCode = found ? EXIT_FOUND : EXIT_NOTHING;
  } finally {
    await tool.close();
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
  const s = session(flags);
  const tool = newTool(s);
  try {
    const result = await tool.call(args as Record<string, unknown>);
    console.log(JSON.stringify('error' in result ? { error: result.error } : { output: result.output }, null, 2));
    process.exitCode = 'error' in result ? EXIT_ERROR : result.found ? EXIT_FOUND : EXIT_NOTHING;
  } finally {
    await tool.close();
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
      ...(path !== undefined ? { path: resolve(path) } : {}),
      mode: flags.singleTool ? 'single' : 'commands',
      answerWithinMs: flags.answerWithin,
      ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
      storage: flags.cache ? new DirectoryStorage(flags.cacheDir !== undefined ? { directory: resolve(flags.cacheDir) } : {}) : false,
    });
    // The client closing our stdin ends the session: stop builds, keep nothing running.
    await new Promise<void>((done) => process.stdin.once('close', done).once('end', done));
    await server.close();
    process.exit(0);
  });

// Output piped into a reader that stops early (`ckg-wasm search … | head`): stop quietly, as
// Unix tools do, instead of dying with an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/**
 * Ends the process once what it printed is written. Waiting for the event loop to drain instead
 * costs a one-shot call 100-250 ms on a 2-core machine: V8 finishes optimising sql.js's hot wasm
 * functions in the background before a process may end by itself, work no answer needs.
 */
function exitWhenWritten(): void {
  const code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  process.stderr.write('', () => process.stdout.write('', () => process.exit(code)));
}

program
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      // Commander printed the message (or the help / version) already.
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_ERROR;
    } else if (error instanceof CKGError) {
      fail(error.message, error.code);
    } else {
      fail(error instanceof Error ? error.message : String(error), undefined);
    }
  })
  .then(exitWhenWritten);
