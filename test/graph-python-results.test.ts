// Python: what a function declares it returns (`-> Store`, `-> 'Store'`, `-> Optional[Store]`)
// types the calls on its result, as TypeScript's and Go's declared results do: `make_store().get()`,
// `Store.create().get()`, and a local holding the result (`s = make_store()` then `s.get()`).
// Nothing else is guessed: no annotation, a type parameter, an `async def` (a call of it makes a
// coroutine) or a local assigned another value leave the calls unresolved.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'shop/__init__.py': '',
  'shop/store.py': [
    'from typing import Optional, TypeVar',
    '',
    "T = TypeVar('T')",
    '',
    '',
    'class Store:',
    '    def get(self, key):',
    '        return key',
    '',
    '    @classmethod',
    '    def create(cls) -> "Store":',
    '        return cls()',
    '',
    '',
    'def make_store() -> Store:',
    '    return Store()',
    '',
    '',
    'def maybe() -> Optional[Store]:',
    '    return None',
    '',
    '',
    'def first(xs: list[T]) -> T:',
    '    return xs[0]',
    '',
    '',
    'def pick[U](xs: list[U]) -> U:',
    '    return xs[0]',
    '',
    '',
    'async def load() -> Store:',
    '    return Store()',
    '',
    '',
    'def plain():',
    '    return Store()',
    '',
    '',
    'def use():',
    "    Store.create().get('a')", // 40
    "    make_store().get('b')",
    '    s = make_store()',
    "    s.get('c')",
    '    m = maybe()',
    "    m.get('d')",
    "    first([Store()]).get('e')",
    "    pick([Store()]).get('f')",
    "    load().get('g')",
    "    plain().get('h')",
    '    t = make_store()',
    '    t = plain()',
    "    t.get('i')",
    '',
  ].join('\n'),
  'shop/app.py': ['from .store import make_store', '', '', 'def main():', "    return make_store().get('x')", ''].join('\n'),
};

const calls = async (db: Awaited<ReturnType<typeof openGraph>>['db'], root: string): Promise<string[]> =>
  (await db.edges({ kind: 'calls', toName: 'get' })).map((e) => `${e.filePath.slice(root.length + 1)}:${e.line} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

describe('Python: what a call returns, as its function declares', () => {
  it('types the calls on the result, here and through an import; nothing undeclared or generic', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await calls(g.db, g.tree.root)).toEqual([
        'shop/app.py:5 -> shop.store.Store.get',
        // `-> "Store"` on a classmethod, `-> Store`, a local holding the result, `Optional[Store]`.
        'shop/store.py:40 -> shop.store.Store.get',
        'shop/store.py:41 -> shop.store.Store.get',
        'shop/store.py:43 -> shop.store.Store.get',
        'shop/store.py:45 -> shop.store.Store.get',
        // A TypeVar, a type parameter, a coroutine, no annotation, two values: unknown.
        'shop/store.py:46 -> ∅ dynamic',
        'shop/store.py:47 -> ∅ dynamic',
        'shop/store.py:48 -> ∅ dynamic',
        'shop/store.py:49 -> ∅ dynamic',
        'shop/store.py:52 -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it("reads `Any`, `object` and the typing modules' protocols as no annotation: a codebase instance may be there", async () => {
    const g = await openGraph({
      'm.py': [
        'from typing import Any, TextIO',
        'import typing',
        'import collections.abc as cabc',
        'from collections.abc import Sized as S',
        '',
        '',
        'class Store:',
        '    other: Any',
        '',
        '    def save(self):',
        '        return 1',
        '',
        '    def run(self, x: Any, y: object, z: "typing.Any", w: typing.Optional[Any]):',
        '        x.save()', // 14
        '        y.save()',
        '        z.save()',
        '        w.save()',
        '        self.other.save()',
        '',
        '    def more(self, a: TextIO, b: typing.Hashable, c: cabc.Mapping, d: S, e: typing.Optional[Store]):',
        '        a.save()', // 21
        '        b.save()',
        '        c.save()',
        '        d.save()',
        '        e.save()',
        '',
        '',
        'def make() -> Any:',
        '    return Store()',
        '',
        '',
        'def use():',
        '    make().save()', // 33
        '',
      ].join('\n'),
    });
    try {
      // Never `external` (typing's) or `builtin` (object's), which callers answers do not count.
      expect((await g.db.edges({ kind: 'calls', toName: 'save' })).map((e) => `${e.line} ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`)).toEqual([
        '14 dynamic',
        '15 dynamic',
        '16 dynamic',
        '17 dynamic',
        '18 dynamic',
        '21 dynamic',
        '22 dynamic',
        '23 dynamic',
        '24 dynamic',
        // `typing.Optional[Store]` is Store or None.
        '25 m.Store.save',
        '33 dynamic',
      ]);
      expect((await g.db.callers('Store.save')).complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('follows chains on a value of known class: annotated, constructed, self, and `-> Self`', async () => {
    const files: Record<string, string> = {
      'q.py': [
        'from typing import Self',
        '',
        '',
        'class Query:',
        '    def filter(self) -> Self:',
        '        return self',
        '',
        '    def first(self) -> "Row":',
        '        return Row()',
        '',
        '    def plain(self):',
        '        return self',
        '',
        '    def again(self):',
        '        return self.filter().first().show()', // 15
        '',
        '',
        'class Row:',
        '    def show(self):',
        '        return 1',
        '',
        '',
        'class Stubbed:',
        '    def __init__(self):',
        '        self.make = lambda: None',
        '',
        '    def make(self) -> Row:',
        '        return Row()',
        '',
        '',
        'def use(q: Query, s: Stubbed):',
        '    q.filter().filter().first().show()', // 32
        '    Query().filter().first().show()',
        '    q.plain().first()',
        '    s.make().show()',
        '',
        '',
        'class Holder:',
        '    def __init__(self, f):',
        '        self.factory = f',
        '',
        '    def go(self):',
        '        return self.factory().show()', // 43
        '',
      ].join('\n'),
    };
    const g = await openGraph(files);
    try {
      const got = (await g.db.edges({ kind: 'calls' })).filter((e) => ['first', 'show'].includes(e.toName));
      expect(got.map((e) => `${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`)).toEqual([
        '15 first -> q.Query.first',
        '15 show -> q.Row.show',
        '32 first -> q.Query.first',
        '32 show -> q.Row.show',
        '33 first -> q.Query.first',
        '33 show -> q.Row.show',
        // No declared result; a method the instances store over (the stored value is called).
        '34 first -> dynamic',
        '35 show -> dynamic',
        // A member the class does not define, an attribute of its instances: unknown, not missing.
        '43 show -> dynamic',
      ]);
    } finally {
      g.close();
    }
    const seen = await expectExactThrough(
      files,
      'memfs',
      [(f) => void (f['q.py'] = f['q.py']!.replace('    def filter(self) -> Self:', '    def filter(self):')), (f) => void (f['q.py'] = f['q.py']!.replace('    def filter(self):', '    def filter(self) -> Self:'))],
      async (db) => (await db.edges({ kind: 'calls', toName: 'show' })).filter((e) => e.line === 32).map((e) => e.to?.qualifiedName ?? e.resolution),
    );
    expect(seen).toEqual([['unresolved'], ['q.Row.show']]);
  });

  it('stays exact when the declared result changes or goes', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [
        (f) => void (f['shop/store.py'] = f['shop/store.py']!.replace('def make_store() -> Store:', 'def make_store() -> "Other":') + '\n\nclass Other:\n    def get(self, key):\n        return key\n'),
        (f) => void (f['shop/store.py'] = f['shop/store.py']!.replace('def make_store() -> "Other":', 'def make_store():')),
      ],
      async (db) => (await db.edges({ kind: 'calls', toName: 'get' })).filter((e) => e.filePath.endsWith('app.py')).map((e) => e.to?.qualifiedName ?? e.resolution),
    );
    expect(seen).toEqual([['shop.store.Other.get'], ['unresolved']]);
  });
});

describe('Python: loops over an annotated container', () => {
  const LOOPS: Record<string, string> = {
    'm.py': [
      'import typing',
      'from typing import Optional, Sequence, Any',
      '',
      '',
      'class Row:',
      '    def show(self):',
      '        return 1',
      '',
      '',
      'def a(rows: list[Row], more: typing.List["Row"], opt: Optional[Sequence[Row]], anyl: list[Any], plain: list):',
      '    for r in rows:',
      '        r.show()', // 12
      '    for m in more:',
      '        m.show()',
      '    for o in opt:',
      '        o.show()',
      '    for x in anyl:',
      '        x.show()', // 18
      '    for p in plain:',
      '        p.show()',
      '    total = [r2.show() for r2 in rows]',
      '',
      '',
      'def b(rows: list[Row]):',
      '    while True:',
      '        for r in rows:',
      '            r.show()', // 27
      '        rows = [1]',
      '',
      '',
      'def c(rows: list[Row]):',
      '    for r in rows:',
      '        r.show()', // 33
      '    r = None',
      '',
      '',
      'def d():',
      '    items: list[Row] = []',
      '    for i in items:',
      '        i.show()', // 40
      '    items.append(Row())',
      '',
    ].join('\n'),
  };
  const shows = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
    (await db.edges({ kind: 'calls', toName: 'show' })).map((e) => `${e.line} ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`);

  it('types the loop variable by the declared element class, when nothing else binds either name', async () => {
    const g = await openGraph(LOOPS);
    try {
      expect(await shows(g.db)).toEqual([
        '12 m.Row.show',
        '14 m.Row.show',
        '16 m.Row.show',
        // `list[Any]`, a bare `list`.
        '18 dynamic',
        '20 dynamic',
        // A comprehension.
        '21 m.Row.show',
        // rows rebound later (a second pass of the while loop iterates that), r rebound.
        '27 dynamic',
        '33 dynamic',
        '40 m.Row.show',
      ]);
      expect((await g.db.edges({ kind: 'calls', toName: 'append' })).map((e) => e.reason ?? e.resolution)).toEqual(['builtin']);
    } finally {
      g.close();
    }
  });

  it('stays exact as the annotation changes', async () => {
    const seen = await expectExactThrough(
      LOOPS,
      'memfs',
      [(f) => void (f['m.py'] = f['m.py']!.replace('def a(rows: list[Row],', 'def a(rows: list,')), (f) => void (f['m.py'] = f['m.py']!.replace('def a(rows: list,', 'def a(rows: list[Row],'))],
      async (db) => (await shows(db)).filter((l) => l.startsWith('12 ') || l.startsWith('21 ')),
    );
    expect(seen).toEqual([
      ['12 dynamic', '21 dynamic'],
      ['12 m.Row.show', '21 m.Row.show'],
    ]);
  });
});
