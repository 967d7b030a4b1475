// Finding and reading wasm files: the caller's options first, then the platform's default
// (Node: the package's wasm/ folder; browsers: none, so the error says what to pass).
import { platform } from '#platform';
import { CKGError } from '../errors.js';
import type { WasmOptions } from './options.js';

/** sql.js's wasm, shipped in ckg-wasm's `wasm/` folder (it pairs with the exact sql.js version ckg-wasm depends on). */
export const SQL_WASM = 'sql-wasm.wasm';
/** The tree-sitter runtime: web-tree-sitter locates it itself unless `load` or `files` name it. */
export const RUNTIME_WASM = 'web-tree-sitter.wasm';

/** Where the docs explain serving the files (a path inside the package). */
const HELP = 'see docs/browser.md in the ckg-wasm package';

/**
 * A file of an installed npm package to read in development checkouts, before `npm run
 * build:wasm` filled the `wasm/` folder.
 */
export interface PackageFile {
  readonly packageName: string;
  /** The path inside the package; default: the file name at its root. */
  readonly path?: string;
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** The first bytes of a file as text a human recognises (`<!doctype html>`), for error messages. */
function preview(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 24));
  return JSON.stringify(text.replace(/\s+/g, ' '));
}

/** Throws `WASM_LOAD_FAILED` unless `bytes` start with the wasm magic number. */
export function checkWasm(bytes: Uint8Array, fileName: string, from: string): Uint8Array {
  if (!(bytes instanceof Uint8Array)) {
    throw new CKGError('WASM_LOAD_FAILED', `${fileName} (${from}) must be a Uint8Array, got ${Object.prototype.toString.call(bytes)}`, { file: fileName });
  }
  if (bytes.length < 4 || WASM_MAGIC.some((b, i) => bytes[i] !== b)) {
    const what = bytes.length === 0 ? 'is empty' : `starts with ${preview(bytes)}`;
    throw new CKGError(
      'WASM_LOAD_FAILED',
      `${fileName} from ${from} is not a wasm file: it ${what} (a server that answers a missing file with a page does this). ` +
        `Serve ckg-wasm's wasm/${fileName} at that location, or point wasm.baseUrl or wasm.files at where it is served (${HELP}).`,
      { file: fileName },
    );
  }
  return bytes;
}

/** A folder URL: resolved by the platform, with a trailing slash so file names append to it. */
export function folderUrl(base: string | URL): URL {
  const url = platform.resolveUrl(base);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The entry of `files` for a file name: its exact key, or a key that is a path ending with it. */
function fileEntry(files: Readonly<Record<string, string | URL>> | undefined, fileName: string): string | URL | undefined {
  if (files === undefined) return undefined;
  if (Object.hasOwn(files, fileName)) return files[fileName];
  const suffix = `/${fileName}`;
  for (const [key, value] of Object.entries(files)) if (key.endsWith(suffix)) return value;
  return undefined;
}

/** Reads one URL as wasm, with an error that says which option pointed there. */
async function fetchWasm(url: URL, fileName: string, option: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = await platform.readUrl(url);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CKGError(
      'WASM_LOAD_FAILED',
      `Cannot fetch ${fileName} from ${url.href} (${option}): ${detail}. Serve ckg-wasm's wasm/${fileName} there, or fix ${option} (${HELP}).`,
      { file: fileName, url: url.href },
      { cause: error },
    );
  }
  return checkWasm(bytes, fileName, `${url.href} (${option})`);
}

/** True when the caller said anything about where wasm files are. */
export function hasWasmLocation(options: WasmOptions): boolean {
  return options.load !== undefined || options.files !== undefined || options.baseUrl !== undefined;
}

/**
 * The bytes of a wasm file from the caller's options (`load`, then `files`, then `baseUrl`),
 * or undefined when they do not say where it is. `baseUrl` is not asked for the runtime: the
 * `wasm/` folder does not hold it.
 */
export async function readConfiguredWasm(options: WasmOptions, fileName: string): Promise<Uint8Array | undefined> {
  if (options.load !== undefined) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await options.load(fileName);
    } catch (error) {
      if (error instanceof CKGError) throw error;
      throw new CKGError('WASM_LOAD_FAILED', `wasm.load('${fileName}') failed: ${error instanceof Error ? error.message : String(error)}`, { file: fileName }, { cause: error });
    }
    if (bytes !== undefined) return checkWasm(bytes, fileName, 'wasm.load');
  }
  const listed = fileEntry(options.files, fileName);
  if (listed !== undefined) return await fetchWasm(platform.resolveUrl(listed), fileName, `wasm.files['${fileName}']`);
  if (options.baseUrl !== undefined && fileName !== RUNTIME_WASM) return await fetchWasm(new URL(fileName, folderUrl(options.baseUrl)), fileName, 'wasm.baseUrl');
  return undefined;
}

/**
 * The bytes of one of ckg-wasm's own wasm files: from the caller's options, else the
 * platform's default (Node: the package's `wasm/` folder, or `fallback`'s package in a
 * development checkout). Every failure is a `WASM_LOAD_FAILED` that says what to do.
 */
export async function readWasm(options: WasmOptions, fileName: string, fallback?: PackageFile): Promise<Uint8Array> {
  const configured = await readConfiguredWasm(options, fileName);
  if (configured !== undefined) return configured;
  const bundled = await platform.loadBundledWasm(fileName, fallback);
  return checkWasm(bundled, fileName, "ckg-wasm's wasm folder");
}
