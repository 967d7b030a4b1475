// The CLI's side of the answer server: ask it to answer a command line, start it after a call
// answered here, and ask it for its state or to stop. Every failure to reach it is quiet: the
// call is then answered in this process, as it would be without a server.
import { statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { CALLER_VARIABLES, daemonAllowed, readLines, SERVE_OPTION, servedCall, socketPath, type CallRequest, type Frame, type Request } from './protocol.js';

/** A command line the server may answer, and where it listens. */
export interface DaemonPlan {
  readonly socket: string;
  readonly request: CallRequest;
  /** The CLI file that starts the server. */
  readonly cliFile: string;
}

/** How long a server has to say hello before the call is answered here instead. */
const HELLO_TIMEOUT_MS = 2_000;
/** A start younger than this is not repeated (a server that fails to start is not restarted on every call). */
const START_BACKOFF_MS = 30_000;

function callerEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of CALLER_VARIABLES) if (env[name] !== undefined) picked[name] = env[name]!;
  return picked;
}

/** The socket of the server for the CLI at `cliFile`, or undefined where there can be none. */
function socketOf(env: Readonly<Record<string, string | undefined>>, cliFile: string): string | undefined {
  try {
    return socketPath(env, cliFile, statSync(cliFile).mtimeMs);
  } catch {
    return undefined;
  }
}

/** The plan for `args` (after `main.js`) when the server may answer it; undefined otherwise. */
export function daemonPlan(args: readonly string[], cliFile: string): DaemonPlan | undefined {
  if (!servedCall(args) || !daemonAllowed(process.env, process.platform)) return undefined;
  const socket = socketOf(process.env, cliFile);
  if (socket === undefined) return undefined;
  return {
    socket,
    cliFile,
    request: { type: 'call', argv: [...args], cwd: process.cwd(), env: callerEnv(process.env), home: homedir(), stderrIsTTY: process.stderr.isTTY === true },
  };
}

/**
 * Sends `request` to the server at `socket`, passing each frame after `hello` to `onFrame` until
 * it returns true (done). Resolves to whether the server was reached and answered in full; a
 * server that is not there, not ours or silent resolves false before anything reached `onFrame`.
 */
function exchange(socket: string, request: Request, onFrame: (frame: Frame) => boolean): Promise<{ reached: boolean; complete: boolean }> {
  return new Promise((resolve) => {
    let reached = false;
    let complete = false;
    const connection = createConnection(socket);
    const timer = setTimeout(() => connection.destroy(), HELLO_TIMEOUT_MS);
    const finish = (): void => {
      clearTimeout(timer);
      resolve({ reached, complete });
    };
    readLines(connection, (value) => {
      if (complete) return;
      const frame = value as Frame;
      if (!reached) {
        if (frame.t !== 'hello') throw new Error('not an answer server');
        reached = true;
        clearTimeout(timer);
        connection.write(`${JSON.stringify(request)}\n`);
        return;
      }
      if (onFrame(frame)) {
        complete = true;
        connection.end();
      }
    });
    connection.on('error', () => undefined); // 'close' follows
    connection.on('close', finish);
  });
}

/**
 * Has the server answer `plan`'s call, writing its output here; resolves to the exit code, or
 * undefined when the call must run in this process (no server, or one that answered nothing).
 */
export async function askDaemon(plan: DaemonPlan): Promise<number | undefined> {
  let code: number | undefined;
  let wrote = false;
  let fallback = false;
  const { reached, complete } = await exchange(plan.socket, plan.request, (frame) => {
    switch (frame.t) {
      case 'out':
        wrote = true;
        process.stdout.write(frame.s);
        return false;
      case 'err':
        wrote = true;
        process.stderr.write(frame.s);
        return false;
      case 'exit':
        code = frame.code;
        return true;
      default:
        fallback = true;
        return true;
    }
  });
  if (!reached || (fallback && !wrote)) return undefined;
  if (complete && code !== undefined) return code;
  if (!wrote) return undefined; // it stopped before answering anything: answer here
  process.stderr.write('ckg-wasm: the answer server stopped before the answer was complete [DAEMON_FAILED]\n');
  return 2;
}

/**
 * Starts the server for later calls, in the background and detached (it ends after its idle
 * time), warmed with `plan`'s call so the next call finds its index open. It runs in the runtime
 * folder: a caller's folder stays free to be removed or unmounted.
 */
export async function startDaemon(plan: DaemonPlan): Promise<void> {
  const marker = `${plan.socket}.starting`;
  try {
    if (Date.now() - statSync(marker).mtimeMs < START_BACKOFF_MS) return;
  } catch {
    // no recent start
  }
  try {
    writeFileSync(marker, String(process.pid), { mode: 0o600 });
    // Loaded here: the calls that find a server never need it.
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [plan.cliFile, SERVE_OPTION, plan.socket, JSON.stringify(plan.request)], { detached: true, stdio: 'ignore', env: process.env, cwd: dirname(plan.socket) });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // A server is an optimisation: never fail a call over it.
  }
}

/** What `ckg-wasm daemon status|stop` prints, and whether a server was running. */
export async function controlDaemon(action: 'status' | 'stop', env: Readonly<Record<string, string | undefined>>, cliFile: string): Promise<{ text: string; running: boolean }> {
  const socket = socketOf(env, cliFile);
  if (socket === undefined) return { text: 'No answer server: not available here (Windows, or no private runtime folder).', running: false };
  let text = '';
  const { reached } = await exchange(socket, { type: action }, (frame) => {
    if (frame.t === 'status') text = frame.text;
    return true;
  });
  return reached ? { text, running: true } : { text: `No answer server is running (${socket}).`, running: false };
}
