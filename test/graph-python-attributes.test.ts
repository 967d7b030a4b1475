// Python: attributes a class annotates itself (`store: Store` in its body, `self.db: Store = db`
// in a method) type the calls made through `self` (`self.store.get()`), as parameter annotations
// type calls on parameters (and in subclasses, one a base annotates: see
// graph-inherited-attributes.test.ts). Never an attribute only assigned (`self.plain = Store()`:
// tests and callers replace such values), one annotated twice with different types, or a value
// that is not `self`.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'shop/__init__.py': '',
  'shop/store.py': ['class Store:', '    def get(self, key):', '        return key', ''].join('\n'),
  'shop/service.py': [
    'from typing import Optional',
    '',
    'from .store import Store',
    '',
    '',
    'class Base:',
    '    inherited: Store',
    '',
    '',
    'class Service(Base):',
    '    store: Store',
    '    maybe: Optional["Store"] = None',
    '    twice: Store',
    '    twice: int',
    '',
    '    def __init__(self, db):',
    '        self.db: Store = db',
    '        self.plain = Store()',
    '',
    '    def run(self):',
    "        self.store.get('a')", // 21
    "        self.maybe.get('b')",
    "        self.db.get('c')",
    "        self.plain.get('d')",
    "        self.inherited.get('e')",
    "        self.twice.get('f')",
    '',
    '        def inner():',
    "            self.store.get('g')", // 29
    '        other = self',
    "        other.store.get('h')",
    '',
    '    def local(self):',
    '        Store = None',
    "        self.store.get('i')", // 35
    '',
  ].join('\n'),
};

const lines = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
  (await db.edges({ kind: 'calls', toName: 'get' })).map((e) => `${e.line} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

describe('Python: annotated attributes type the calls through self', () => {
  it("types what the class annotates itself, and nothing else", async () => {
    const g = await openGraph(FILES);
    try {
      expect(await lines(g.db)).toEqual([
        '21 -> shop.store.Store.get',
        '22 -> shop.store.Store.get',
        '23 -> shop.store.Store.get',
        // Assigned, not annotated; then a base's annotation; annotated twice.
        '24 -> ∅ dynamic',
        '25 -> shop.store.Store.get',
        '26 -> ∅ dynamic',
        // A nested function sees the method's `self`; another name for it is a value.
        '29 -> shop.store.Store.get',
        '31 -> ∅ dynamic',
        // `Store` here is the local.
        '35 -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('reads a property declaring its result (`@property`, `@cached_property`) as an annotated attribute', async () => {
    const g = await openGraph({
      'p.py': [
        'from functools import cached_property',
        '',
        '',
        'class Row:',
        '    def show(self):',
        '        return 1',
        '',
        '',
        'class Holder:',
        '    @property',
        '    def row(self) -> Row:',
        '        return Row()',
        '',
        '    @cached_property',
        '    def other(self) -> "Row":',
        '        return Row()',
        '',
        '    def plain(self) -> Row:',
        '        return Row()',
        '',
        '    def use(self):',
        '        self.row.show()',
        '        self.other.show()',
        '        self.plain.show()',
        '',
      ].join('\n'),
    });
    try {
      // `self.plain` is the bound method, not what it returns.
      expect((await g.db.edges({ kind: 'calls', toName: 'show' })).map((e) => `${e.line} ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`)).toEqual(['22 p.Row.show', '23 p.Row.show', '24 dynamic']);
    } finally {
      g.close();
    }
  });

  it('stays exact as the annotation and the class change', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [
        (f) => void (f['shop/service.py'] = f['shop/service.py']!.replace('    store: Store\n', '    store: "Other"\n') + '\n\nclass Other:\n    def get(self, key):\n        return key\n'),
        (f) => void (f['shop/service.py'] = f['shop/service.py']!.replace('    store: "Other"\n', '')),
        (f) => void (f['shop/store.py'] = f['shop/store.py']!.replace('    def get(self, key):', '    def read(self, key):')),
      ],
      async (db) => (await lines(db)).filter((l) => l.startsWith('21 ') || l.startsWith('23 ') || l.startsWith('20 ') || l.startsWith('22 ')),
    );
    expect(seen).toEqual([
      ['21 -> shop.service.Other.get', '22 -> shop.store.Store.get', '23 -> shop.store.Store.get'],
      // The class body lost a line: `self.store` is on line 20, unannotated (23: `self.plain`).
      ['20 -> ∅ dynamic', '21 -> shop.store.Store.get', '22 -> shop.store.Store.get', '23 -> ∅ dynamic'],
      ['20 -> ∅ dynamic', '21 -> ∅ not-found', '22 -> ∅ not-found', '23 -> ∅ dynamic'],
    ]);
  });
});
