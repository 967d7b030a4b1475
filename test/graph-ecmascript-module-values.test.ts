// JavaScript and TypeScript: a module-level `const` holding what `new` made, or declared of a
// class, is that class's instance wherever it is used (`export const store = new Store()`, then
// `store.get()` here and in every module importing it), as Go's package-level values and
// Python's module-level instances are. A `let` may be assigned anything later: no type.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph, type GraphUnderTest } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'src/store.ts': [
    'export class Store {',
    '  get(key: string): string { return key; }',
    '  static create(): Store { return new Store(); }',
    '}',
    '',
    'export interface Api { fetch(): string; }',
    'export class HttpApi implements Api { fetch(): string { return "x"; } }',
    'function makeApi(): Api { return new HttpApi(); }',
    '',
    'export const store = new Store();',
    'export const api: HttpApi = makeApi() as HttpApi;',
    'let loose = new Store();',
    'const config = { name: "x" };',
    'export function swap(): void { loose = new Store(); }',
    '',
    'export function local(): string {',
    "  return store.get('a') + loose.get('b') + api.fetch() + Store.create().get('c');",
    '}',
    '',
    'export { config };',
    '',
  ].join('\n'),
  'src/app.ts': [
    "import { store, config } from './store';",
    "import * as s from './store';",
    '',
    'export function main(): string {',
    "  return store.get('x') + s.store.get('y') + s.api.fetch() + config.name.trim();",
    '}',
    '',
  ].join('\n'),
};

const lines = async (db: GraphUnderTest['db'], root: string): Promise<string[]> =>
  (await db.edges({ kind: 'calls' })).filter((e) => e.toName !== 'Store' && e.toName !== 'HttpApi').map((e) => `${e.filePath.slice(root.length + 1)}:${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

describe('JavaScript/TypeScript: module-level values of a class', () => {
  it('type the calls on a `const` made by `new` or declared of a class, here and where it is imported', async () => {
    const g = await openGraph(FILES);
    try {
      // On a line, edges come by the name called.
      expect(await lines(g.db, g.tree.root)).toEqual([
        'src/app.ts:5 fetch -> src/store.HttpApi.fetch',
        'src/app.ts:5 get -> src/store.Store.get',
        'src/app.ts:5 get -> src/store.Store.get',
        // A value, not a class: nothing says what `config.name` holds.
        'src/app.ts:5 trim -> ∅ dynamic',
        'src/store.ts:11 makeApi -> src/store.makeApi',
        'src/store.ts:17 create -> src/store.Store.create',
        'src/store.ts:17 fetch -> src/store.HttpApi.fetch',
        // `let`: `swap()` may have put anything there.
        'src/store.ts:17 get -> ∅ dynamic',
        // `store.get()`, and `Store.create().get()`: create declares it returns a Store.
        'src/store.ts:17 get -> src/store.Store.get',
        'src/store.ts:17 get -> src/store.Store.get',
      ]);
    } finally {
      g.close();
    }
  });

  it("a static method called on the value is no call of it (JavaScript's statics are the class's)", async () => {
    const g = await openGraph({ 'a.js': 'class A {\n  static make() { return 1; }\n}\nconst a = new A();\nexport function f() {\n  return a.make();\n}\n' });
    try {
      expect((await g.db.edges({ kind: 'calls', toName: 'make' })).map((e) => e.resolution)).toEqual(['unresolved']);
    } finally {
      g.close();
    }
  });

  it('stays exact through edits of the value, its declaration and its export', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export const store = new Store();', 'export let store = new Store();')),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export let store = new Store();', 'export const store = new Store();')),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export const store = new Store();', 'export const store = Store.create();')),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export const store = Store.create();', 'export const store = new Store();')),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace("  get(key: string): string { return key; }", "  read(key: string): string { return key; }")),
      ],
      (db, root) => lines(db, root).then((all) => all.filter((l) => l.startsWith('src/app.ts:5 get'))),
    );
    expect(seen.map((l) => l.slice(0, 2).join(' | '))).toEqual([
      'src/app.ts:5 get -> ∅ dynamic | src/app.ts:5 get -> ∅ dynamic',
      'src/app.ts:5 get -> src/store.Store.get | src/app.ts:5 get -> src/store.Store.get',
      // `Store.create()` declares it returns a Store.
      'src/app.ts:5 get -> src/store.Store.get | src/app.ts:5 get -> src/store.Store.get',
      'src/app.ts:5 get -> src/store.Store.get | src/app.ts:5 get -> src/store.Store.get',
      'src/app.ts:5 get -> ∅ not-found | src/app.ts:5 get -> ∅ not-found',
    ]);
  });
});

const RESULTS: Record<string, string> = {
  'src/store.ts': [
    "import _ from 'lodash';",
    '',
    'export class Store {',
    '  get(key: string): string { return key; }',
    '  static create(): Store { return new Store(); }',
    '  async load(): Promise<Store> { return this; }',
    '  first<T>(xs: T[]): T { return xs[0]!; }',
    '}',
    '',
    'export function makeStore(): Store { return new Store(); }',
    'export function plain() { return new Store(); }',
    '',
    'export function use(users: Store[]) {',
    "  Store.create().get('a');",
    "  makeStore().get('b');",
    "  plain().get('c');",
    "  _.find(users).get('d');",
    "  require('./x').get('e');",
    '  makeStore().first([1]).toFixed();',
    '  pick([new Item()]).price();',
    '}',
    '',
    'export class Item { price(): number { return 1; } }',
    'function pick<Item>(xs: Item[]): Item { return xs[0]!; }',
    'type Shape = Pick<Store, "get">;',
    'function shape(): Shape { return new Store(); }',
    "export function viaAlias() { return shape().get('f'); }",
    'export function locals() {',
    '  const s = makeStore();',
    "  s.get('g');",
    '  let t = makeStore();',
    '  t = plain();',
    "  t.get('h');",
    '}',
    'export const shared = makeStore();',
    'export const undeclared = plain();',
    'let later = makeStore();',
    'export function reset() { later = plain(); }',
    "export function top() { return later.get('i') + undeclared.get('j'); }",
    '',
  ].join('\n'),
  'src/app.ts': ["import { makeStore, shared } from './store';", '', 'export function main() {', "  return makeStore().get('x') + shared.get('y');", '}', ''].join('\n'),
};

describe('TypeScript: what a call returns, as its function declares', () => {
  it('types the calls on the result; a result of an outside or undeclared function is of unknown type', async () => {
    const g = await openGraph(RESULTS);
    try {
      const got = (await g.db.edges({ kind: 'calls' })).filter((e) => ['get', 'find', 'toFixed'].includes(e.toName));
      expect(got.map((e) => `${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`)).toEqual([
        // app.ts: `makeStore().get()`, and `shared.get()` where shared is made so (below).
        '4 get -> src/store.Store.get',
        '4 get -> src/store.Store.get',
        '14 get -> src/store.Store.get',
        '15 get -> src/store.Store.get',
        // No declared result.
        '16 get -> ∅ dynamic',
        '17 find -> ∅ external',
        // lodash's `find` may return the codebase's own values: never `external`.
        '17 get -> ∅ dynamic',
        '18 get -> ∅ dynamic',
        // `T`: the type parameter, no class.
        '19 toFixed -> ∅ dynamic',
        // A type alias names no class: what `shape()` returns is of unknown type.
        '27 get -> ∅ dynamic',
        // A local holding the result, as the chain; assigned twice, either value.
        '30 get -> src/store.Store.get',
        '33 get -> ∅ dynamic',
        // Module-level: a `const` holding the result is typed by it (here and where it is
        // imported), unless the function declares none; a `let` may be assigned anything.
        '39 get -> ∅ dynamic',
        '39 get -> ∅ dynamic',
      ]);
      // pick's own `Item` is its type parameter, not the class Item.
      expect((await g.db.edges({ kind: 'calls', toName: 'price' })).map((e) => e.resolution)).toEqual(['unresolved']);
    } finally {
      g.close();
    }
  });

  it('stays exact when the declared result changes', async () => {
    const seen = await expectExactThrough(
      RESULTS,
      'memfs',
      [
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export function makeStore(): Store {', 'export function makeStore(): Other {') + 'export class Other { get(k: string): string { return k; } }\n'),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('export function makeStore(): Other {', 'export function makeStore() {')),
      ],
      async (db) => (await db.edges({ kind: 'calls', toName: 'get' })).filter((e) => e.filePath.endsWith('app.ts')).map((e) => e.to?.qualifiedName ?? e.resolution),
    );
    expect(seen).toEqual([
      ['src/store.Other.get', 'src/store.Other.get'],
      ['unresolved', 'unresolved'],
    ]);
  });
});
