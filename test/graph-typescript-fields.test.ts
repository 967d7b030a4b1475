// TypeScript: a class's own declared instance fields type the calls made through `this`
// (`store: Store;` then `this.store.get()`), as Java's fields do: declared fields, constructor
// parameter properties, `#private` ones, through arrows inside a method (and a base's field in a
// subclass: see graph-inherited-attributes.test.ts). Never a type parameter, a static field
// through an instance or an instance field in a static method, a name declared twice, or a `this`
// a plain function rebinds.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'src/store.ts': ['export class Store {', '  get(k: string): string { return k; }', '}', 'export interface Api { fetch(): string; }', ''].join('\n'),
  'src/service.ts': [
    "import { Store, type Api } from './store';",
    '',
    'class Base {',
    '  inherited: Store;',
    '}',
    '',
    'export class Service<T extends Store> extends Base {',
    '  store: Store;',
    '  private readonly api?: Api;',
    '  #cache: Store;',
    '  static shared: Store;',
    '  item: T;',
    '  twice: Store;',
    '  twice: Api;',
    '  constructor(private db: Store, public other: Api | null, plain: Store) {',
    '    super();',
    '  }',
    '  run(): void {',
    "    this.store.get('a');", // 19
    '    this.api!.fetch();',
    "    this.#cache.get('b');",
    "    this.db.get('c');",
    '    this.other?.fetch();',
    "    this.item.get('d');",
    "    this.inherited.get('e');",
    "    this.twice.get('f');",
    "    [1].forEach(() => this.store.get('g'));",
    "    function inner(this: any) { this.store.get('h'); }",
    '  }',
    '  static make(): void {',
    "    this.shared.get('i');", // 31
    "    this.store.get('j');",
    '  }',
    '  local(): void {',
    '    const Store = 1;',
    "    this.store.get('k');",
    '  }',
    '}',
    '',
  ].join('\n'),
};

const lines = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
  (await db.edges({ kind: 'calls' }))
    .filter((e) => e.filePath.endsWith('service.ts') && (e.toName === 'get' || e.toName === 'fetch'))
    .map((e) => `${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

describe('TypeScript: declared fields type the calls through `this`', () => {
  it("types a class's own declared instance fields, and nothing else", async () => {
    const g = await openGraph(FILES);
    try {
      expect(await lines(g.db)).toEqual([
        '19 get -> src/store.Store.get',
        '20 fetch -> src/store.Api.fetch',
        '21 get -> src/store.Store.get',
        // Parameter properties (`private db: Store`, `public other: Api | null`).
        '22 get -> src/store.Store.get',
        '23 fetch -> src/store.Api.fetch',
        // A type parameter; a base's field (its declared class); a name declared twice.
        '24 get -> ∅ dynamic',
        '25 get -> src/store.Store.get',
        '26 get -> ∅ dynamic',
        // Through an arrow, `this` is the method's; a plain function's own `this` is not.
        '27 get -> src/store.Store.get',
        '28 get -> ∅ dynamic',
        // A static method's `this` is the class.
        '31 get -> ∅ dynamic',
        '32 get -> ∅ dynamic',
        // `Store` here is the local.
        '36 get -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('stays exact as the field declaration changes', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [
        (f) => void (f['src/service.ts'] = f['src/service.ts']!.replace('  store: Store;', '  store: Other;') + 'class Other {\n  get(k: string): string { return k; }\n}\n'),
        (f) => void (f['src/service.ts'] = f['src/service.ts']!.replace('  store: Other;', '')),
        (f) => void (f['src/store.ts'] = f['src/store.ts']!.replace('  get(k: string)', '  read(k: string)')),
      ],
      async (db) => (await lines(db)).filter((l) => l.startsWith('19 ') || l.startsWith('22 ')),
    );
    expect(seen).toEqual([
      ['19 get -> src/service.Other.get', '22 get -> src/store.Store.get'],
      ['19 get -> ∅ dynamic', '22 get -> src/store.Store.get'],
      ['19 get -> ∅ dynamic', '22 get -> ∅ not-found'],
    ]);
  });
});

describe('TypeScript: a getter declared of a class types the calls through `this` as a field does', () => {
  it('reads `get row(): Row` in instance methods, not a static getter', async () => {
    const g = await openGraph({
      'src/g.ts': [
        'export class Row { show(): number { return 1; } }',
        'export class Holder {',
        '  #row = new Row();',
        '  get row(): Row { return this.#row; }',
        '  static get shared(): Row { return new Row(); }',
        '  use(): number { return this.row.show(); }',
        '  static s(): number { return this.shared.show(); }',
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect((await g.db.edges({ kind: 'calls', toName: 'show' })).map((e) => `${e.line} ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`)).toEqual(['6 src/g.Row.show', '7 dynamic']);
    } finally {
      g.close();
    }
  });
});

describe('TypeScript: chains on a value of known class', () => {
  const CHAIN: Record<string, string> = {
    'src/q.ts': [
      'export class Row { show(): number { return 1; } }',
      'export class Query {',
      '  where(): this { return this; }',
      '  first(): Row { return new Row(); }',
      '  plain() { return this; }',
      '}',
      'export class Repo {',
      '  constructor(private readonly query: Query) {}',
      '  top(): number { return this.query.where().first().show(); }', // 9
      '}',
      'export function use(q: Query): void {',
      '  q.where().where().first().show();', // 12
      '  new Query().where().first().show();',
      '  q.plain().first();',
      '}',
      '',
    ].join('\n'),
  };
  const chainLines = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
    (await db.edges({ kind: 'calls' })).filter((e) => e.toName === 'first' || e.toName === 'show').map((e) => `${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`);

  it('types each call by the declared result of the one before (`this` is the class)', async () => {
    const g = await openGraph(CHAIN);
    try {
      expect(await chainLines(g.db)).toEqual([
        '9 first -> src/q.Query.first',
        '9 show -> src/q.Row.show',
        '12 first -> src/q.Query.first',
        '12 show -> src/q.Row.show',
        '13 first -> src/q.Query.first',
        '13 show -> src/q.Row.show',
        // `plain` declares no result.
        '14 first -> dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('stays exact as a declared result goes', async () => {
    const seen = await expectExactThrough(
      CHAIN,
      'memfs',
      [(f) => void (f['src/q.ts'] = f['src/q.ts']!.replace('  where(): this {', '  where() {')), (f) => void (f['src/q.ts'] = f['src/q.ts']!.replace('  where() {', '  where(): this {'))],
      async (db) => (await chainLines(db)).filter((l) => l.startsWith('12 ')),
    );
    expect(seen).toEqual([
      ['12 first -> dynamic', '12 show -> dynamic'],
      ['12 first -> src/q.Query.first', '12 show -> src/q.Row.show'],
    ]);
  });
});
