// A strict TypeScript consumer of the installed package, with `skipLibCheck: false` (every
// declaration file is checked, the package's and those it reaches): Node with `node16`
// resolution, a browser app with `bundler` resolution, and a browser app whose `lib` is only
// ES2022 + DOM (no Node types, no esnext.disposable). The README's TypeScript snippets are
// compiled too, as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, exec, packedPackage, project, snippet, type PackedPackage } from './package.js';

const source = (name: string): string => readFileSync(new URL(`./typescript/${name}`, import.meta.url), 'utf8');

const strict = {
  strict: true,
  skipLibCheck: false,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  isolatedModules: true,
  target: 'ES2022',
};

const CONFIGS = {
  'tsconfig.node16.json': {
    compilerOptions: { ...strict, module: 'node16', moduleResolution: 'node16', lib: ['ES2022', 'ESNext.Disposable'], types: ['node'] },
    files: ['src/node-app.ts', 'test/search.test.ts'],
  },
  'tsconfig.bundler.json': {
    compilerOptions: { ...strict, module: 'ESNext', moduleResolution: 'bundler', lib: ['ESNext', 'DOM', 'DOM.Iterable'], types: ['vite/client'] },
    files: ['src/browser-app.ts', 'src/main.ts'],
  },
  'tsconfig.dom.json': {
    compilerOptions: { ...strict, module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: [] },
    files: ['src/browser-app.ts'],
  },
};

let packed: PackedPackage;
let dir: string;
/**
 * Each configuration compiled once, one after the other (three compilers at once would starve
 * the test files running beside this one on a small machine): the exit status and tsc's output.
 */
const compiled = new Map<string, Promise<{ ok: boolean; output: string }>>();

beforeAll(async () => {
  packed = await packedPackage();
  dir = project(packed, 'typescript', {
    'package.json': JSON.stringify({ name: 'ts-consumer', private: true, type: 'module' }),
    'src/node-app.ts': source('node-app.ts'),
    'src/browser-app.ts': source('browser-app.ts'),
    'src/main.ts': snippet('README.md', 'vite-main'),
    'test/search.test.ts': snippet('README.md', 'vitest-test'),
    ...Object.fromEntries(Object.entries(CONFIGS).map(([name, config]) => [name, JSON.stringify(config, null, 2)])),
  });
  let previous: Promise<unknown> = Promise.resolve();
  for (const config of Object.keys(CONFIGS)) {
    const run = previous.then(() =>
      exec(process.execPath, [bin('tsc'), '-p', config, '--pretty', 'false', '--listFiles'], dir).then(
        ({ stdout }) => ({ ok: true, output: stdout }),
        (error: Error) => ({ ok: false, output: error.message }),
      ),
    );
    compiled.set(config, run);
    previous = run;
  }
}, 600_000);

describe('a strict TypeScript consumer (skipLibCheck: false)', () => {
  it.each(Object.keys(CONFIGS))('compiles with %s', async (config) => {
    const { ok, output } = await compiled.get(config)!;
    expect(output.split('\n').filter((line) => /error TS\d+/.test(line))).toEqual([]);
    expect(ok).toBe(true);
    // The package's own declarations were checked, not skipped.
    expect(output).toContain(join('node_modules', 'ckg-wasm', 'dist', 'index.d.ts'));
  });
});
