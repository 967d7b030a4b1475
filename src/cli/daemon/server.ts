// The answer server: a background process that keeps indexes open between CLI calls, so a
// query pays for a stat of the tree (the freshness check every answer makes) instead of starting
// Node, compiling sql.js and reading the whole index again. It answers one call at a time, with
// the same program as a call answered in the caller's process, and ends after its idle time, when
// asked, or when its socket is taken away.
import nodeFs, { lstatSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { DirectoryStorage, defaultCacheDirectory } from '../../node/directory-storage.js';
import { LazyWorkerPool } from '../../node/lazy-worker-pool.js';
import type { ProgressEvent } from '../../indexer/report.js';
import { CKGTool } from '../../tool/ckg-tool.js';
import { EXIT_ERROR, type CliIo } from '../io.js';
import { createProgram, indexOptionsOf, progressOf, reportFailure, type BuildFlags, type Sessions } from '../program.js';
import { progressBar } from '../progress.js';
import { DEFAULT_IDLE_MS, readLines, servedCall, type CallRequest, type Frame, type Request } from './protocol.js';

/** A session kept between calls: its tool holds the indexes open and refreshes them before each answer. */
interface KeptSession {
  readonly tool: CKGTool;
  readonly pool: LazyWorkerPool | undefined;
}

/** How often the server checks that its socket is still the one in the folder. */
const SOCKET_CHECK_MS = 60_000;

/** Options of {@link serveAnswers}. */
export interface ServeOptions {
  readonly socket: string;
  readonly version: string;
  readonly cliFile: string;
  /** A call to answer first, output discarded: the call that started the server, so its index is open. */
  readonly warm?: CallRequest;
  readonly idleMs?: number;
}

/** Listens on `socket`, taking over a stale one (a file no server answers on); false when another server answers there. */
async function listen(server: Server, socket: string): Promise<boolean> {
  const attempt = (): Promise<NodeJS.ErrnoException | undefined> =>
    new Promise((resolve) => {
      const onError = (error: NodeJS.ErrnoException): void => resolve(error);
      server.once('error', onError);
      server.listen(socket, () => {
        server.off('error', onError);
        resolve(undefined);
      });
    });
  const first = await attempt();
  if (first === undefined) return true;
  if (first.code !== 'EADDRINUSE') throw first;
  const alive = await new Promise<boolean>((resolve) => {
    const probe = createConnection(socket);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (alive) return false;
  unlinkSync(socket);
  const second = await attempt();
  if (second !== undefined) throw second;
  return true;
}

/** Serves calls on `options.socket` until idle, stopped or displaced; resolves when it has ended. */
export async function serveAnswers(options: ServeOptions): Promise<void> {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const started = Date.now();
  const kept = new Map<string, KeptSession>();
  // Calls run one at a time: the sessions' progress goes to the call being answered.
  let progress: ((event: ProgressEvent) => void) | undefined;
  let queue: Promise<void> = Promise.resolve();
  let calls = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let ending: Promise<void> | undefined;
  const server = createServer();
  let socketIno: number | undefined;

  const sessions: Sessions = {
    open(flags: BuildFlags, io: CliIo) {
      const options = indexOptionsOf(flags, io);
      progress = progressOf(flags, io); // this call's bar, on its caller's terminal
      const folder = options.storage instanceof DirectoryStorage ? options.storage.directory : undefined;
      // What makes two calls' indexes differ; progress and the daemon choice do not.
      const key = JSON.stringify([folder, flags.languages, flags.maxFileSize, flags.gitignore, flags.bodies, flags.workers]);
      let session = kept.get(key);
      if (session === undefined) {
        const pool = flags.workers === 0 ? undefined : new LazyWorkerPool(flags.workers);
        const tool = new CKGTool({ fs: nodeFs, ...options, processor: pool ?? 'this-thread', onProgress: (event) => progress?.(event) });
        session = { tool, pool };
        kept.set(key, session);
      }
      const { tool } = session;
      return { options, tool: () => tool, close: async () => undefined };
    },
  };

  const end = (): Promise<void> =>
    (ending ??= (async () => {
      clearTimeout(idleTimer);
      server.close();
      await queue.catch(() => undefined);
      for (const session of kept.values()) {
        await session.tool.close().catch(() => undefined);
        await session.pool?.close().catch(() => undefined);
      }
      kept.clear();
      try {
        // Only our own socket: a newer server may have taken the name.
        if (lstatSync(options.socket).ino === socketIno) unlinkSync(options.socket);
      } catch {
        // already gone
      }
    })());

  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void end(), idleMs);
  };

  const answer = async (request: CallRequest, send: (frame: Frame) => void): Promise<void> => {
    const io: CliIo = {
      cwd: request.cwd,
      cliFile: options.cliFile,
      env: request.env,
      defaultCacheDir: defaultCacheDirectory(request.env, process.platform, request.home),
      out: (s) => send({ t: 'out', s }),
      err: (s) => send({ t: 'err', s }),
      progress: () => progressBar({ isTTY: request.stderrIsTTY, write: (s: string) => send({ t: 'err', s }) }),
      exitCode: undefined,
    };
    try {
      await createProgram(io, sessions, options.version).parseAsync(['node', 'ckg-wasm', ...request.argv]);
    } catch (error) {
      reportFailure(io, error);
    }
    send({ t: 'exit', code: io.exitCode ?? 0 });
  };

  const call = (request: CallRequest, send: (frame: Frame) => void): Promise<void> => {
    const run = queue.then(async () => {
      clearTimeout(idleTimer);
      calls++;
      progress = undefined;
      try {
        await answer(request, send);
      } catch {
        send({ t: 'exit', code: EXIT_ERROR });
      } finally {
        progress = undefined;
        if (ending === undefined) armIdle();
      }
    });
    queue = run.catch(() => undefined);
    return run;
  };

  const status = (): string =>
    [
      `ckg-wasm answer server ${options.version}, pid ${process.pid}, up ${Math.round((Date.now() - started) / 1000)} s, ${calls} calls answered`,
      `socket ${options.socket}; ends after ${Math.round(idleMs / 1000)} s idle`,
      ...[...kept.keys()].map((key) => `index folder ${String((JSON.parse(key) as unknown[])[0] ?? '(none)')}`),
    ].join('\n');

  server.on('connection', (connection: Socket) => {
    connection.on('error', () => undefined); // a client that went away: its answer is dropped
    const send = (frame: Frame): void => {
      if (!connection.destroyed) connection.write(`${JSON.stringify(frame)}\n`);
    };
    send({ t: 'hello', pid: process.pid, version: options.version });
    let asked = false;
    readLines(connection, (value) => {
      if (asked) return;
      asked = true;
      const request = value as Request;
      if (request.type === 'status' || request.type === 'stop') {
        send({ t: 'status', text: request.type === 'stop' ? `Stopped the answer server (pid ${process.pid}).` : status() });
        connection.end();
        if (request.type === 'stop') void end();
      } else if (request.type === 'call' && Array.isArray(request.argv) && servedCall(request.argv) && ending === undefined) {
        void call(request, send).finally(() => connection.end());
      } else {
        send({ t: 'fallback' });
        connection.end();
      }
    });
  });

  if (!(await listen(server, options.socket))) return; // another server answers there
  socketIno = lstatSync(options.socket).ino;
  try {
    unlinkSync(`${options.socket}.starting`);
  } catch {
    // started by hand, or already removed
  }
  // A socket removed or replaced (the folder cleaned, a newer server) ends this one.
  const watch = setInterval(() => {
    try {
      if (lstatSync(options.socket).ino !== socketIno) void end();
    } catch {
      void end();
    }
  }, SOCKET_CHECK_MS);
  watch.unref();
  armIdle();
  if (options.warm) void call(options.warm, () => undefined);
  await new Promise<void>((resolve) => server.once('close', resolve));
  await end();
  clearInterval(watch);
}
