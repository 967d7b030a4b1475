import type { LanguageGraph } from '../strategy.js';

// JavaScript and TypeScript: a module is its file, named by its path from the codebase root
// without extension (`src/util/strings`), so `./strings` imported from `src/util/a.ts`, with or
// without an extension, names it, and a folder names its `index` file. Bare specifiers
// (`react`, `@scope/pkg`) are packages outside the codebase.

const EXTENSIONS = /\.(d\.ts|d\.mts|d\.cts|tsx?|mts|cts|jsx?|mjs|cjs)$/;

/** Globals of the language and its hosts (browsers, Node), called without an import. */
const BUILTINS = new Set(
  (
    'Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError FinalizationRegistry ' +
    'Float32Array Float64Array Function Int8Array Int16Array Int32Array Intl JSON Map Math Number Object Promise Proxy RangeError ' +
    'ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint8Array ' +
    'Uint8ClampedArray Uint16Array Uint32Array WeakMap WeakRef WeakSet decodeURI decodeURIComponent encodeURI ' +
    'encodeURIComponent escape eval isFinite isNaN parseFloat parseInt unescape globalThis ' +
    'AbortController AbortSignal Blob BroadcastChannel Buffer CustomEvent Event EventTarget File FormData Headers ' +
    'MessageChannel Request Response TextDecoder TextEncoder URL URLSearchParams Worker WebSocket XMLHttpRequest ' +
    'alert atob btoa cancelAnimationFrame clearImmediate clearInterval clearTimeout confirm console crypto document fetch ' +
    'localStorage location navigator performance process prompt queueMicrotask require requestAnimationFrame ' +
    'sessionStorage setImmediate setInterval setTimeout structuredClone window module exports __dirname __filename'
  ).split(' '),
);

function dirname(module: string): string[] {
  const parts = module.split('/');
  parts.pop();
  return parts;
}

function importTargets(specifier: string, fromModule: string): readonly string[] {
  if (!(specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../'))) return [];
  const out = dirname(fromModule);
  for (const part of specifier.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return []; // above the codebase root
      out.pop();
    } else out.push(part);
  }
  const path = out.join('/').replace(EXTENSIONS, '');
  return path === '' ? ['index'] : [path, `${path}/index`];
}

/** Implementation files before JavaScript before declaration files. */
function rank(path: string): number {
  if (/\.d\.[mc]?ts$/.test(path)) return 3;
  if (/\.[mc]?tsx?$/.test(path)) return 1;
  return 2;
}

/**
 * The graph rules of JavaScript, TypeScript and TSX.
 *
 * @example
 * ```ts
 * ecmascriptGraph.importTargets('../util', 'src/app/main', '/repo/src/app/main.ts'); // ['src/util', 'src/util/index']
 * ```
 */
export const ecmascriptGraph: LanguageGraph = {
  instanceAttributes: true,
  family: 'ecmascript',
  moduleName: (relativePath) => relativePath.replace(EXTENSIONS, ''),
  qualify: (module, chain) => [module, ...chain].join('.'),
  importTargets,
  pickModule: (candidates) => {
    const ranks = candidates.map((c) => rank(c.path));
    const best = Math.min(...ranks);
    return ranks.filter((r) => r === best).length === 1 ? ranks.indexOf(best) : undefined;
  },
  builtins: BUILTINS,
  constructorNames: () => ['constructor'],
  exportsOnly: true,
  valuesReexported: true,
  returnTypes: true,
  outsideResultsUnknown: true,
  submodulesAreMembers: false,
  staticMembersApart: true,
  siteScopes: true,
};
