// Vite config of the browser example. `ckg-wasm` resolves to the built package (run
// `npm run build` first), exactly as an app that installed it from npm would get it; the wasm
// files are served from this page's own origin under `wasm/`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../../', import.meta.url));
const wasmDir = `${repo}wasm/`;
const entry = `${repo}dist/index.js`;
const adaptersEntry = `${repo}dist/adapters/index.js`;

/** The wasm files a browser may need: runtime, sql.js's browser build, every grammar. */
function browserWasmFiles(): string[] {
  if (!existsSync(wasmDir)) throw new Error(`${wasmDir} is missing: run \`npm run build:wasm\``);
  // sql-wasm.wasm belongs to sql.js's Node build; browsers get sql-wasm-browser.wasm.
  return readdirSync(wasmDir).filter((name) => name.endsWith('.wasm') && name !== 'sql-wasm.wasm').sort();
}

/**
 * Serves (dev) and emits (build) the ckg-wasm wasm files under `wasm/`. All grammars are
 * published, but the page fetches only those of languages its files use: ckg-wasm loads a
 * grammar the first time a file of its language is parsed.
 */
function ckgWasmFiles(): Plugin {
  return {
    name: 'ckg-wasm-files',
    configureServer(server) {
      server.middlewares.use('/wasm/', (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!browserWasmFiles().includes(name)) return next();
        res.setHeader('Content-Type', 'application/wasm');
        res.end(readFileSync(wasmDir + name));
      });
    },
    generateBundle(_options, bundle) {
      for (const name of browserWasmFiles()) {
        this.emitFile({ type: 'asset', fileName: `wasm/${name}`, source: readFileSync(wasmDir + name) });
      }
      // web-tree-sitter's `new URL('web-tree-sitter.wasm', import.meta.url)` makes Vite emit a
      // second copy of the runtime; ckg-wasm passes the runtime's bytes from wasm/ instead, so
      // that copy would never be fetched.
      for (const fileName of Object.keys(bundle)) {
        if (/^assets\/web-tree-sitter-[\w-]+\.wasm$/.test(fileName)) delete bundle[fileName];
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  plugins: [ckgWasmFiles()],
  resolve: {
    alias: [
      {
        find: /^ckg-wasm$/,
        replacement: (() => {
          if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\``);
          return entry;
        })(),
      },
      { find: /^ckg-wasm\/adapters$/, replacement: adaptersEntry },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // One readable bundle keeps the size report honest; sourcemaps help debugging the example.
    sourcemap: true,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
