import { execFile, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { daemonAllowed, servedCall, socketPath } from '../src/cli/daemon/protocol.js';

// The answer server as users meet it: the built CLI (`npm test` builds dist/ first) starting it
// after a query, the next calls answered through it, and every way of not using it. Each test
// has its own runtime folder (where the socket lives) and stops its server.
const run = promisify(execFile);
const repo = fileURLToPath(new URL('../', import.meta.url));
const main = realpathSync(`${repo}dist/cli/main.js`);
let scratch: string;
let runtimes: string[] = [];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A codebase (a copy of the Python example), a cache and a runtime folder, and the CLI on them. */
function setup(extraEnv: Record<string, string> = {}) {
  const base = mkdtempSync(join(scratch, 'case-'));
  const codebase = join(base, 'app');
  cpSync(`${repo}examples/python-app`, codebase, { recursive: true });
  // Short: a Unix socket's path has a length limit.
  const runtime = mkdtempSync(join(tmpdir(), 'ckg-rt-'));
  runtimes.push(runtime);
  const env: NodeJS.ProcessEnv = { ...process.env, CKG_WASM_DAEMON: '1', CKG_WASM_RUNTIME_DIR: runtime, XDG_CACHE_HOME: join(base, 'cache'), ...extraEnv };
  const cli = async (args: string[], cwd = repo): Promise<Outcome> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [main, ...args], { cwd, env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const socket = (): string => socketPath(env, main, statSync(main).mtimeMs)!;
  /** Polls `daemon status` until a server answers (and has answered `calls` calls, when given). */
  const serverUp = async (calls?: number): Promise<string> => {
    for (let i = 0; i < 200; i++) {
      const status = await cli(['daemon', 'status']);
      if (status.code === 0 && (calls === undefined || status.stdout.includes(`, ${calls} calls answered`))) return status.stdout;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the answer server did not come up');
  };
  return { base, codebase, runtime, env, cli, socket, serverUp };
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ckg-daemon-'));
});
afterEach(async () => {
  // Stop every server a test started (each runtime folder has at most one).
  for (const runtime of runtimes) {
    await run(process.execPath, [main, 'daemon', 'stop'], { env: { ...process.env, CKG_WASM_RUNTIME_DIR: runtime } }).catch(() => undefined);
    rmSync(runtime, { recursive: true, force: true });
  }
  runtimes = [];
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the answer server (ckg-wasm daemon)', () => {
  it('starts after a query, then answers the next calls as this process would, fresh after an edit', async () => {
    const { codebase, cli, serverUp, socket, env } = setup();
    const args = ['function', 'parse_config', codebase, '--no-body', '--workers', '0'];
    const first = await cli(args);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`Found 1 function named parse_config:\n1. ${codebase}/app/config.py:15-22\n\n`);
    // The server it started answers the same call (warmed with it: one call answered).
    await serverUp(1);
    const second = await cli(args);
    expect(second).toEqual(first);
    expect(await serverUp()).toContain(', 2 calls answered');
    // The answer is checked against the files first: a function added since is found.
    appendFileSync(join(codebase, 'app/config.py'), '\n\ndef added_later():\n    return 1\n');
    const added = await cli(['function', 'added_later', codebase, '--no-body']);
    expect(added.stdout).toContain(`1. ${codebase}/app/config.py:`);
    expect(added.code).toBe(0);
    // grep-like exit codes and output, relative paths from the caller's folder.
    const missing = await cli(['function', 'no_such_function', 'app'], join(codebase, '..'));
    expect(missing).toEqual({ code: 1, stdout: 'No functions named no_such_function found.\n', stderr: '' });
    const bad = await cli(['function', 'parse_config', join(codebase, 'nowhere')]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^ckg-wasm: .*nowhere.* \[[A-Z_]+\]\n$/);
    expect(await serverUp()).toContain(', 5 calls answered');
    // A reader that is gone before the answer (`… | head` that quit): a quiet exit 0, served or not.
    for (const extra of [[], ['--no-daemon']]) {
      const child = spawn(process.execPath, [main, 'function', 'parse_config', codebase, ...extra], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }, extra.join(' ')).toEqual({ code: 0, stderr: '' });
    }
    // Stopped on request: the socket goes, and the next call answers in its own process.
    const stopped = await cli(['daemon', 'stop']);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toMatch(/^Stopped the answer server \(pid \d+\)\.\n$/);
    for (let i = 0; i < 50 && existsSync(socket()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(socket())).toBe(false);
    const status = await cli(['daemon', 'status']);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain('No answer server is running');
  });

  it('is neither asked nor started with --no-daemon, CKG_WASM_DAEMON=0, --no-cache or --db', async () => {
    const { codebase, cli, runtime } = setup();
    const dbFile = join(codebase, '..', 'index.db');
    for (const args of [
      ['function', 'parse_config', codebase, '--no-daemon'],
      ['function', 'parse_config', codebase, '--no-cache'],
      ['function', 'parse_config', codebase, '--db', dbFile],
    ]) {
      const outcome = await cli([...args, '--no-body', '--workers', '0']);
      expect(outcome.code).toBe(0);
      expect(outcome.stdout).toContain('Found 1 function named parse_config');
    }
    const off = setup({ CKG_WASM_DAEMON: '0' });
    expect((await off.cli(['function', 'parse_config', off.codebase, '--workers', '0'])).code).toBe(0);
    // Time for a server to have started, had one been started.
    await new Promise((r) => setTimeout(r, 1500));
    expect(readdirSync(runtime)).toEqual([]);
    expect(readdirSync(off.runtime)).toEqual([]);
  });

  it('answers in process when the socket is a stale file, and a new server takes its place', async () => {
    const { codebase, cli, socket, serverUp } = setup();
    writeFileSync(socket(), 'not a socket');
    const outcome = await cli(['class', 'Button', codebase, '--no-body', '--workers', '0']);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(`1. ${codebase}/app/widgets.py:14-21`);
    await serverUp(1);
    expect(statSync(socket()).isSocket()).toBe(true);
    expect(await cli(['class', 'Button', codebase, '--no-body'])).toEqual(outcome);
  });

  it('ends by itself after its idle time', async () => {
    const { codebase, cli, socket, serverUp } = setup({ CKG_WASM_DAEMON_IDLE_MS: '1500' });
    expect((await cli(['function', 'parse_config', codebase, '--workers', '0'])).code).toBe(0);
    await serverUp(1);
    for (let i = 0; i < 100 && existsSync(socket()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(socket())).toBe(false);
    expect((await cli(['daemon', 'status'])).code).toBe(1);
  });

  it('serves only queries that share the cache, and only where the environment allows', () => {
    expect(servedCall(['function', 'f', '.'])).toBe(true);
    expect(servedCall(['search', '.', 'f'])).toBe(true);
    expect(servedCall(['tool', '{}'])).toBe(true);
    for (const args of [['index', '.'], ['mcp'], ['daemon', 'status'], ['function', 'f', '--no-cache'], ['function', 'f', '--db=x.db'], ['function', 'f', '--db', 'x.db'], ['function', '--help'], ['function', 'f', '--no-daemon'], []]) {
      expect(servedCall(args), args.join(' ')).toBe(false);
    }
    expect(daemonAllowed({}, 'linux')).toBe(true);
    expect(daemonAllowed({}, 'win32')).toBe(false);
    expect(daemonAllowed({ CKG_WASM_DAEMON: '0' }, 'linux')).toBe(false);
    expect(daemonAllowed({ CKG_WASM_DAEMON: 'off' }, 'darwin')).toBe(false);
    // A CI job leaves no process behind unless it asks for one.
    expect(daemonAllowed({ CI: 'true' }, 'linux')).toBe(false);
    expect(daemonAllowed({ CI: 'true', CKG_WASM_DAEMON: '1' }, 'linux')).toBe(true);
    expect(daemonAllowed({ CI: 'false' }, 'linux')).toBe(true);
  });

  it('keeps its socket only in a folder private to the user', () => {
    const open = mkdtempSync(join(tmpdir(), 'ckg-rt-open-'));
    runtimes.push(open);
    expect(socketPath({ CKG_WASM_RUNTIME_DIR: open }, main, 1)).toBeDefined(); // mkdtemp makes it 0700
    // A folder others may enter could hold someone else's socket.
    rmSync(open, { recursive: true });
    const shared = mkdtempSync(join(tmpdir(), 'ckg-rt-shared-'));
    runtimes.push(shared);
    chmodSync(shared, 0o755);
    expect(socketPath({ CKG_WASM_RUNTIME_DIR: shared }, main, 1)).toBeUndefined();
  });
});
