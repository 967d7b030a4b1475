// Browser (and any non-Node) implementation of `#platform`: no guessing of asset locations.
import type { Platform } from './types.js';

async function readUrl(url: URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.href}`);
  return new Uint8Array(await response.arrayBuffer());
}

export const platform: Platform = {
  name: 'browser',
  sqlWasmFileName: 'sql-wasm-browser.wasm',
  async loadBundledWasm(fileName: string): Promise<Uint8Array> {
    throw new Error(
      `no location for ${fileName}: in a browser pass wasm.baseUrl (where the wasm/ files are served) or wasm.load`,
    );
  },
  readUrl,
  // Browser file systems (IDE virtual file systems, OPFS wrappers) vary: callers opt in.
  keepsFolderMtimes: () => false,
};
