// What awaiting a call gives, as its function declares (Python `async def find() -> Store`,
// TypeScript `find(): Promise<Store>`), and what a function's local holds when its value is a
// call on a receiver of known class (`d = repo.make()`, `qs = self.query()`, `const u = await
// this.repo.find()`): both type the calls on the value. Nothing else is guessed: a coroutine or
// promise not awaited, an awaited function that declares no promise, a type parameter, an untyped
// receiver or a local assigned another value leave the calls unresolved, and what a builtin such
// as `getattr` or a dict's `get` returns is of unknown type, not a builtin's.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

type Graph = Awaited<ReturnType<typeof openGraph>>;

/**
 * Rewrites `file` from each of `texts` to the next in turn, updating (and checking the edges
 * against a fresh build's) after each; returns the targets of the `get` calls at `line` then.
 */
const targetsThroughEdits = (files: Record<string, string>, file: string, texts: readonly string[], line: number): Promise<string[][]> =>
  expectExactThrough(
    files,
    'memfs',
    texts.slice(1).map((text, i) => (f: Record<string, string | null>) => {
      f[file] = f[file]!.replace(texts[i]!, text);
    }),
    async (db) => (await db.edges({ kind: 'calls', toName: 'get' })).filter((e) => e.line === line).map((e) => e.to?.qualifiedName ?? e.resolution),
  );

const calls = async (g: Graph, name: string): Promise<string[]> =>
  (await g.db.edges({ kind: 'calls', toName: name })).map((e) => `${e.filePath.slice(g.tree.root.length + 1)}:${e.line} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

const PYTHON: Record<string, string> = {
  'shop/__init__.py': '',
  'shop/store.py': [
    'class Store:',
    '    def get(self):',
    '        return 1',
    '',
    '',
    'class Other:',
    '    def get(self):',
    '        return 2',
    '',
    '    def make(self) -> Store:',
    '        return Store()',
    '',
    '',
    'async def load() -> Store:',
    '    return Store()',
    '',
    '',
    'def make() -> Store:',
    '    return Store()',
    '',
  ].join('\n'),
  'shop/repo.py': [
    'from importlib import import_module',
    'from .store import Store, Other, load, make',
    '',
    '',
    'class Repo:',
    '    backend: Other',
    '    async def find(self) -> Store:',
    '        return Store()',
    '',
    '    def make(self) -> "Repo":',
    '        return self',
    '',
    '    def query(self) -> Store:',
    '        return Store()',
    '',
    '    def run(self):',
    '        qs = self.query()', // 17
    '        qs.get()',
    '        m = self.backend.make()',
    '        m.get()',
    '',
    '',
    'async def main(r: Repo, anything):',
    '    b = await load()', // 24
    '    b.get()',
    '    c = await r.find()',
    '    c.get()',
    '    (await load()).get()',
    '    d = r.make()', // 29
    '    e = d.query()',
    '    e.get()',
    '    d.make().query().get()',
    '    def inner(r: Other):',
    '        d.query().get()', // 34
    '        f = r.make()',
    '        f.get()',
    '    # A coroutine not awaited, an awaited plain function, an untyped receiver, a rebound local.',
    '    g = load()',
    '    g.get()', // 39
    '    h = await make()',
    '    h.get()',
    '    i = anything.make()',
    '    i.get()',
    '    j = await load()', // 44
    '    j = anything',
    '    j.get()',
    "    k = getattr(r, 'backend')", // 47: what getattr or a dict's get returns may be anything
    '    k.get()',
    '    dict().get(1).get()',
    "    import_module('shop.store').Store().get()", // 50: whatever module it gives (maybe the codebase's)
    '',
  ].join('\n'),
};

describe('Python: awaited results and locals holding a typed receiver’s result', () => {
  it('types what `await` of an `async def` gives, and a local holding a method result of a known class', async () => {
    const g = await openGraph(PYTHON);
    try {
      expect(await calls(g, 'get')).toEqual([
        'shop/repo.py:18 -> shop.store.Store.get', // qs = self.query()
        'shop/repo.py:20 -> shop.store.Store.get', // m = self.backend.make(), backend annotated Other
        'shop/repo.py:25 -> shop.store.Store.get', // b = await load()
        'shop/repo.py:27 -> shop.store.Store.get', // c = await r.find()
        'shop/repo.py:28 -> shop.store.Store.get', // (await load()).get()
        'shop/repo.py:31 -> shop.store.Store.get', // e = d.query() where d = r.make()
        'shop/repo.py:32 -> shop.store.Store.get',
        'shop/repo.py:34 -> shop.store.Store.get', // d is main's, whatever inner's r is
        'shop/repo.py:36 -> shop.store.Store.get', // inner's r: Other, whose make() -> Store
        'shop/repo.py:39 -> ∅ dynamic',
        'shop/repo.py:41 -> ∅ dynamic',
        'shop/repo.py:43 -> ∅ dynamic',
        'shop/repo.py:46 -> ∅ dynamic',
        // Not `builtin`, which no callers answer counts.
        'shop/repo.py:48 -> ∅ dynamic',
        'shop/repo.py:49 -> ∅ dynamic',
        'shop/repo.py:49 -> ∅ builtin', // the dict's own get
        'shop/repo.py:50 -> ∅ dynamic', // not external
      ]);
    } finally {
      g.close();
    }
  });

  it('keeps them exact when the awaited declaration changes in another file', async () => {
    const seen = await targetsThroughEdits(PYTHON, 'shop/store.py', ['async def load() -> Store:', 'async def load() -> Other:', 'def load() -> Other:'], 25);
    expect(seen).toEqual([['shop.store.Other.get'], ['unresolved']]);
  });
});

const TYPESCRIPT: Record<string, string> = {
  'src/store.ts': [
    'export class Store { get(): number { return 1; } }',
    'export class Other { get(): number { return 2; } }',
    'export async function loadStore(): Promise<Store> { return new Store(); }',
    'export function makeStore(): Store { return new Store(); }',
    'export function pick<T>(): Promise<T> { return null as any; }',
    '',
  ].join('\n'),
  'src/repo.ts': [
    "import { Store, loadStore, makeStore, pick } from './store';",
    'export class Repo {',
    '  async find(): Promise<Store | undefined> { return new Store(); }',
    '  again(): PromiseLike<this> { return Promise.resolve(this); }',
    '  make(): Store { return new Store(); }',
    '}',
    'export class Service {',
    '  constructor(private repo: Repo) {}',
    '  async run(r: Repo, anything: any) {',
    '    const a = await loadStore(); a.get();', // 10
    '    const b = await this.repo.find(); b.get();',
    '    (await r.find())!.get();',
    '    const c = r.make(); c.get();',
    '    const repo = this.repo; const d = await repo.find(); d.get();',
    '    const e = await (await r.again()).find(); e.get();', // 15
    '    const self = this;',
    '    [1].forEach(function () { self.helper(); });',
    '    // A promise not awaited, an awaited plain function, a type parameter, an untyped receiver, a rebound local.',
    '    const p = loadStore(); p.get();',
    '    const q = await makeStore(); q.get();', // 20
    '    const t = await pick<Store>(); t.get();',
    '    const u = await anything.find(); u.get();',
    '    let v = await loadStore(); v = anything; v.get();',
    '    const $ = globalThis.lib; $.get();', // 24: a global another script may set
    '  }',
    '  helper(): void {}', // 26
    "  cache: Readonly<Pick<Store, 'get'>> = new Store();",
    '  useCache(): number { return this.cache.get(); }',
    '}',
    '',
  ].join('\n'),
};

describe('TypeScript: awaited results and locals holding a typed receiver’s result', () => {
  it('types what `await` of a declared Promise gives, and a local holding a call on a receiver of known class', async () => {
    const g = await openGraph(TYPESCRIPT);
    try {
      expect(await calls(g, 'get')).toEqual([
        'src/repo.ts:10 -> src/store.Store.get',
        'src/repo.ts:11 -> src/store.Store.get',
        'src/repo.ts:12 -> src/store.Store.get',
        'src/repo.ts:13 -> src/store.Store.get',
        'src/repo.ts:14 -> src/store.Store.get',
        'src/repo.ts:15 -> src/store.Store.get',
        // A Promise's own (builtin), then unknown.
        'src/repo.ts:19 -> ∅ builtin',
        'src/repo.ts:20 -> ∅ dynamic',
        'src/repo.ts:21 -> ∅ dynamic',
        'src/repo.ts:22 -> ∅ dynamic',
        'src/repo.ts:23 -> ∅ dynamic',
        'src/repo.ts:24 -> ∅ dynamic',
        // A utility type of a class (`Readonly<Pick<Store, 'get'>>`) has (some of) its members.
        'src/repo.ts:28 -> src/store.Store.get',
      ]);
      // `const self = this` then `self.helper()` in a callback: the class's method.
      expect(await calls(g, 'helper')).toEqual(['src/repo.ts:17 -> src/repo.Service.helper']);
    } finally {
      g.close();
    }
  });

  it('reads what a function bound to a name declares it returns, as a declared function’s', async () => {
    const g = await openGraph({
      'a.ts': [
        'export class Store { get(): number { return 1; } }',
        'export const makeStore = (): Store => new Store();',
        'export const loadStore = async (): Promise<Store> => new Store();',
        'export const build = function (): Store { return new Store(); };',
        'export const pick = <T,>(x: T): T => x;',
        'export async function main() {',
        '  makeStore().get();', // 7
        '  const s = makeStore(); s.get();',
        '  (await loadStore()).get();',
        '  build().get();', // 10
        '  const mk = (): Store => new Store();',
        '  mk().get();',
        '  pick(new Store()).get();',
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect(await calls(g, 'get')).toEqual([
        'a.ts:7 -> a.Store.get',
        'a.ts:8 -> a.Store.get',
        'a.ts:9 -> a.Store.get',
        'a.ts:10 -> a.Store.get',
        'a.ts:12 -> a.Store.get',
        'a.ts:13 -> ∅ dynamic', // a type parameter
      ]);
    } finally {
      g.close();
    }
  });

  it('keeps them exact when the promised type changes in another file', async () => {
    const seen = await targetsThroughEdits(TYPESCRIPT, 'src/store.ts', ['loadStore(): Promise<Store>', 'loadStore(): Promise<Other>', 'loadStore(): Other'], 10);
    expect(seen).toEqual([['src/store.Other.get'], ['unresolved']]);
  });
});
