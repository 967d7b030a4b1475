#!/usr/bin/env node
// The `ckg-wasm` command (Node only): index a codebase, ask it questions, serve it over MCP.
// Indexes are kept in DirectoryStorage between runs (a second call reads the stored index), and
// exit codes follow grep: 0 found, 1 nothing found, 2 usage or I/O error.
//
// This entry loads almost nothing: a query the answer server can answer (src/cli/daemon/) costs
// this process no more than Node's start and a socket; anything else imports the program.
import { fileURLToPath } from 'node:url';
import { SERVE_OPTION } from './daemon/protocol.js';
import { askDaemon, daemonPlan, startDaemon } from './daemon/client.js';

const cliFile = fileURLToPath(import.meta.url);

/**
 * Ends the process with `code` once stdout and stderr have been written. Waiting for the event
 * loop to drain instead costs a one-shot call 100-250 ms on a 2-core machine (V8 finishes
 * optimising sql.js's hot wasm functions in the background before a process may end by itself),
 * work no answer needs.
 */
function exitWhenWritten(code: number): void {
  process.stderr.write('', () => process.stdout.write('', () => process.exit(code)));
}

if (process.argv[2] === SERVE_OPTION) {
  const [socket, warm] = process.argv.slice(3);
  const [{ serveAnswers }, { VERSION }] = await Promise.all([import('./daemon/server.js'), import('./in-process.js')]);
  const idle = Number(process.env.CKG_WASM_DAEMON_IDLE_MS);
  await serveAnswers({
    socket: socket!,
    version: VERSION,
    cliFile,
    ...(warm ? { warm: JSON.parse(warm) } : {}),
    ...(Number.isFinite(idle) && idle > 0 ? { idleMs: idle } : {}),
  });
  process.exit(0);
} else {
  const plan = daemonPlan(process.argv.slice(2), cliFile);
  // Output piped into a reader that stops early (`ckg-wasm search … | head`): stop quietly, as
  // Unix tools do, instead of dying with an unhandled EPIPE.
  const quietOnEpipe = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  };
  process.stdout.on('error', quietOnEpipe);
  const served = plan ? await askDaemon(plan) : undefined;
  if (served !== undefined) {
    exitWhenWritten(served);
  } else {
    const { runInProcess } = await import('./in-process.js');
    const code = await runInProcess(process.argv, cliFile);
    // The next call finds its index open, unless this one failed before it had one.
    if (plan && code !== 2) await startDaemon(plan);
    exitWhenWritten(code);
  }
}
