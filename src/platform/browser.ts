// Browser (and any non-Node) implementation of `#platform`: no guessing of asset locations.
import { CKGError } from '../errors.js';
import type { Platform } from './types.js';

async function readUrl(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trimEnd());
  return new Uint8Array(await response.arrayBuffer());
}

/** The URL relative locations are taken from: the page's base URL, or the worker's script. */
function baseOfThisContext(): string | undefined {
  const scope = globalThis as { document?: { baseURI?: string }; location?: { href?: string } };
  return scope.document?.baseURI ?? scope.location?.href;
}

function resolveUrl(location: string | URL): URL {
  if (location instanceof URL) return new URL(location.href);
  const base = baseOfThisContext();
  try {
    return base === undefined ? new URL(location) : new URL(location, base);
  } catch (error) {
    throw new CKGError('INVALID_ARGUMENT', `Cannot resolve the wasm location ${JSON.stringify(location)}${base === undefined ? ' (no page or worker location to resolve it against: give an absolute URL)' : ` against ${base}`}`, { location }, { cause: error });
  }
}

export const platform: Platform = {
  name: 'browser',
  async loadBundledWasm(fileName: string): Promise<Uint8Array> {
    throw new CKGError(
      'WASM_LOAD_FAILED',
      `ckg-wasm needs ${fileName}, and a browser has no package folder to read it from: pass wasm.baseUrl (the folder where you serve ckg-wasm's wasm/ files) ` +
        `or wasm.files (a URL per file, e.g. from a bundler's ?url import). See docs/browser.md in the ckg-wasm package.`,
      { file: fileName },
    );
  },
  readUrl,
  resolveUrl,
  // Browser file systems (IDE virtual file systems, OPFS wrappers) vary: callers opt in.
  keepsFolderMtimes: () => false,
  databaseRoomLimit: 2 ** 28,
};
