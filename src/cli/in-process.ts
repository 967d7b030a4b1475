// A CLI call answered in this process: the program on the process's own streams, sessions made
// for this one call, the V8 settings a short call wants, and an exit as soon as the output is out.
import nodeFs from 'node:fs';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { initSql } from '../db/sql.js';
import { defaultCacheDirectory } from '../node/directory-storage.js';
import { LazyWorkerPool } from '../node/lazy-worker-pool.js';
import { CKGTool } from '../tool/ckg-tool.js';
import type { CliIo } from './io.js';
import { createProgram, indexOptionsOf, progressOf, reportFailure, type Sessions } from './program.js';
import { progressBar } from './progress.js';

// A call answered from a stored index runs sqlite's hot loop long enough for V8 to start
// optimising it (TurboFan, in the background), which costs a one-shot call CPU it never gets
// back: such a call keeps sql.js on baseline (Liftoff) code, 60-70 ms less on Django's cached
// call. Parse workers get V8's defaults back (LazyWorkerPool's onStart) before they compile
// tree-sitter, and a build's main thread is not measurably slower (Django: 4.83 s vs 4.90 s).
const SHORT_CALL_FLAGS = '--liftoff-only';
const BUILD_FLAGS = '--no-liftoff-only';

/** The package's version (dist/cli/ is two levels below the package root, as src/cli/ is). */
export const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** A call's sessions: its own storage, worker pool and tool, ended with the call. */
const oneCallSessions: Sessions = {
  open(flags, io) {
    const pool = flags.workers === 0 ? undefined : new LazyWorkerPool(flags.workers, () => setFlagsFromString(BUILD_FLAGS));
    const onProgress = progressOf(flags, io);
    const options = { ...indexOptionsOf(flags, io), processor: pool ?? 'this-thread', ...(onProgress ? { onProgress } : {}) } as const;
    let tool: CKGTool | undefined;
    return {
      options,
      // One process, one answer: the open compares the snapshot, no refresh needed.
      tool: () => (tool ??= new CKGTool({ fs: nodeFs, ...options, refresh: false })),
      close: async () => {
        await tool?.close();
        await pool?.close();
      },
    };
  },
};

/** This process's streams as a {@link CliIo}. */
function processIo(cliFile: string): CliIo {
  return {
    cwd: process.cwd(),
    cliFile,
    env: process.env,
    defaultCacheDir: defaultCacheDirectory(),
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    progress: () => progressBar(process.stderr),
    exitCode: undefined,
  };
}

/**
 * Runs the command line `argv` (as `process.argv`) of the CLI at `cliFile` in this process;
 * resolves to its exit code (what it printed may still be on its way out).
 */
export async function runInProcess(argv: readonly string[], cliFile: string): Promise<number> {
  // Every command but `mcp` (a long-lived server: V8's defaults), `daemon`, help and the version
  // opens an index: sql.js's wasm is read and compiled in the background meanwhile (initSql
  // keeps one instance per process, the one CKGDatabase.open then takes).
  if (argv.length > 3 && argv[2] !== 'mcp' && argv[2] !== 'daemon') {
    setFlagsFromString(SHORT_CALL_FLAGS);
    initSql({}).catch(() => undefined);
  }
  const io = processIo(cliFile);
  try {
    await createProgram(io, oneCallSessions, VERSION).parseAsync([...argv]);
  } catch (error) {
    reportFailure(io, error);
  }
  return io.exitCode ?? 0;
}
