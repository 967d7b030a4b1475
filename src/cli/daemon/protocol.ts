// The answer server's place and language, shared by the CLI entry (the client) and the server.
// Kept free of the index code: the entry loads this module on every call, before it knows
// whether the answer comes from the server or from this process.
//
// The server listens on a Unix socket in a folder only its user can enter; one server per user
// and per installed CLI (the socket's name hashes the CLI file's path and modification time, so
// a rebuilt or upgraded CLI never talks to an older server). Frames are JSON lines.
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { CLI_COMMANDS } from '../subcommands.js';

/** A command line for the server to answer, with what it needs of the caller. */
export interface CallRequest {
  readonly type: 'call';
  /** The arguments after `node main.js`. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** The caller's variables that change answers: where the default cache folder is. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The caller's home folder (the default cache folder is under it). */
  readonly home: string;
  /** Whether the caller's stderr is a terminal (the progress bar is drawn only there). */
  readonly stderrIsTTY: boolean;
}

/** What a client asks. */
export type Request = CallRequest | { readonly type: 'status' } | { readonly type: 'stop' };

/** What the server answers, in order: `hello`, then output and `exit` (or `fallback`), or `status`. */
export type Frame =
  | { readonly t: 'hello'; readonly pid: number; readonly version: string }
  | { readonly t: 'out'; readonly s: string }
  | { readonly t: 'err'; readonly s: string }
  | { readonly t: 'exit'; readonly code: number }
  /** Not a command the server answers: the client runs it itself. */
  | { readonly t: 'fallback' }
  | { readonly t: 'status'; readonly text: string };

/** The commands the server answers: the queries. Building (`index`), `mcp` and help run in the caller's process. */
export const SERVED_COMMANDS: ReadonlySet<string> = new Set([...CLI_COMMANDS.map((c) => c.cli), 'search', 'tool']);

/** Options that keep a call in its own process: no shared cache to keep open, or help. */
const OWN_PROCESS_OPTIONS = new Set(['--no-daemon', '--no-cache', '--db', '-h', '--help']);

/** Variables of the caller the server uses (only these are sent). */
export const CALLER_VARIABLES = ['XDG_CACHE_HOME', 'LOCALAPPDATA'] as const;

/** Idle time after which the server ends (`CKG_WASM_DAEMON_IDLE_MS` overrides). */
export const DEFAULT_IDLE_MS = 10 * 60_000;

/** The option the CLI entry is started with to be the server. */
export const SERVE_OPTION = '--serve-answers';

/** Whether `value` (an environment variable) says no. */
function isOff(value: string | undefined): boolean {
  return value !== undefined && /^(0|false|no|off)$/i.test(value.trim());
}

/** Whether the environment asks for, or rules out, the server. */
export function daemonAllowed(env: Readonly<Record<string, string | undefined>>, platform: string): boolean {
  // Named pipes would need another access check than a private folder: not served there yet.
  if (platform === 'win32') return false;
  const setting = env.CKG_WASM_DAEMON;
  if (isOff(setting)) return false;
  // A CI job should leave no process behind it unless asked to.
  if (setting === undefined && env.CI !== undefined && env.CI !== '' && !isOff(env.CI)) return false;
  return true;
}

/** Whether `args` (the arguments after `main.js`) is a call the server may answer. */
export function servedCall(args: readonly string[]): boolean {
  if (args.length === 0 || !SERVED_COMMANDS.has(args[0]!)) return false;
  for (const arg of args) {
    if (arg === '--') break;
    if (OWN_PROCESS_OPTIONS.has(arg) || arg.startsWith('--db=')) return false;
  }
  return true;
}

/** 32-bit FNV-1a of `text`, as 8 hex digits: a name, not a secret. */
function nameHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Unix socket paths are limited to about 104 bytes (macOS) or 108 (Linux). */
const MAX_SOCKET_PATH = 100;

/**
 * The folder the server's socket lives in, created private; undefined when it cannot be made
 * private to this user (then no server is asked or started).
 */
export function runtimeFolder(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const dir = env.CKG_WASM_RUNTIME_DIR || (env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'ckg-wasm') : join(tmpdir(), `ckg-wasm-${uid}`));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    // Someone else's folder, or one others can enter, could hold a socket that is not ours.
    if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The socket of the server for the CLI at `cliFile` (path and modification time), or undefined. */
export function socketPath(env: Readonly<Record<string, string | undefined>>, cliFile: string, cliModifiedMs: number): string | undefined {
  const dir = runtimeFolder(env);
  if (dir === undefined) return undefined;
  const path = join(dir, `answers-${nameHash(`${cliFile}\0${cliModifiedMs}`)}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/**
 * Reads `connection` as JSON lines, each parsed line to `onLine`; a line that is not JSON, or an
 * `onLine` that throws, ends the connection (the other side is not speaking this protocol).
 */
export function readLines(connection: Socket, onLine: (value: unknown) => void): void {
  let pending = '';
  connection.setEncoding('utf8');
  connection.on('data', (chunk: string) => {
    pending += chunk;
    try {
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim() !== '') onLine(JSON.parse(line));
      }
    } catch {
      connection.destroy();
    }
  });
}
