// Module hooks that let a worker thread run the TypeScript sources directly (tests only):
// `./x.js` falls back to `./x.ts`, `#platform` maps to the Node platform, and `.ts` files are
// transpiled (types stripped) with the project's own TypeScript compiler. Transpiled files are
// cached in the temp dir by path, size and mtime: loading `typescript` costs more than a
// worker's whole start, and tests start many workers.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const platformUrl = new URL('../../../src/platform/node.ts', import.meta.url).href;
const cacheDir = join(tmpdir(), 'ckg-wasm-test-ts-cache');
let ts;

export async function resolve(specifier, context, next) {
  if (specifier === '#platform') return { url: platformUrl, shortCircuit: true };
  try {
    return await next(specifier, context);
  } catch (error) {
    if (specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('file:'))) {
      return await next(`${specifier.slice(0, -3)}.ts`, context);
    }
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return await next(url, context);
  const path = fileURLToPath(url);
  const info = await stat(path);
  const key = createHash('sha1').update(`${path}\0${info.size}\0${info.mtimeMs}`).digest('hex');
  const cached = join(cacheDir, `${key}.mjs`);
  try {
    return { format: 'module', source: await readFile(cached, 'utf8'), shortCircuit: true };
  } catch {
    // not cached yet
  }
  ts ??= (await import('typescript')).default;
  const { outputText } = ts.transpileModule(await readFile(path, 'utf8'), {
    fileName: path,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  });
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(tmp, outputText);
  await rename(tmp, cached); // atomic: parallel workers never read a half-written file
  return { format: 'module', source: outputText, shortCircuit: true };
}
