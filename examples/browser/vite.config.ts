// Vite config of the browser example. `ckg-wasm` resolves to the built package (run
// `npm run build` first), exactly as an app that installed it from npm would get it. Nothing
// else is needed: main.ts imports the wasm files' URLs (`?url`), and Vite emits each as an asset.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const adaptersEntry = fileURLToPath(new URL('../../dist/adapters/index.js', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
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
  server: { host: '127.0.0.1', fs: { allow: [fileURLToPath(new URL('../../', import.meta.url))] } },
  preview: { host: '127.0.0.1' },
});
