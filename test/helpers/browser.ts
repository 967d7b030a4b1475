// Helpers for tests that run in Debian's Chromium through playwright-core: a static file server
// on 127.0.0.1 that records what it sent, and a fresh persistent browser profile.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); `CKG_CHROMIUM` points elsewhere. */
export const CHROMIUM = process.env.CKG_CHROMIUM ?? '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
};

/** One response the static server sent. */
export interface ServedRequest {
  readonly path: string;
  readonly status: number;
  readonly bytes: number;
}

export interface StaticServer {
  /** Base URL with a trailing slash, e.g. `http://127.0.0.1:40123/`. */
  readonly url: string;
  /** Every request served so far, in order. Clear it with `requests.length = 0`. */
  readonly requests: ServedRequest[];
  close(): Promise<void>;
}

/**
 * Serves `root` on 127.0.0.1 at a random port, with `Cache-Control: no-store` so every load
 * really fetches (the request log is then exactly what the page needed). `extra` maps URL
 * paths to generated bodies.
 */
export async function serveStatic(root: string, extra: Record<string, string> = {}): Promise<StaticServer> {
  const requests: ServedRequest[] = [];
  const base = normalize(root + sep);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const send = (status: number, body: string | Buffer, type = 'text/plain'): void => {
      requests.push({ path, status, bytes: Buffer.byteLength(body) });
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
      res.end(body);
    };
    const generated = extra[path];
    if (generated !== undefined) return send(200, generated, TYPES[extname(path) || '.html']);
    const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(base) || !existsSync(file) || !statSync(file).isFile()) return send(404, 'not found');
    send(200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BrowserSession {
  readonly context: BrowserContext;
  /** Closes the browser and removes its profile folder. */
  close(): Promise<void>;
}

/** Launches Debian's Chromium headless with a fresh profile folder (no browser downloads). */
export async function launchChromium(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), 'ckg-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    return {
      context,
      close: async () => {
        try {
          await context.close();
        } finally {
          rmSync(profile, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}
