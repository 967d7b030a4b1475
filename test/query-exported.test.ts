// Callers answers of a codebase's exported API say so: "0 callers. Complete: nothing calls it"
// is true of the codebase, and a library's users outside it are never among the callers. An
// agent told only the first half deletes public API.
import { describe, expect, it } from 'vitest';
import { CKGTool } from '../src/index.js';
import { openGraph, type GraphUnderTest } from './helpers/graph.js';

async function exportedOf(g: GraphUnderTest, targets: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const target of targets) {
    const answer = await g.db.callers(target);
    expect(answer.groups, target).toHaveLength(1);
    if (answer.groups[0]!.exported) out.push(target);
  }
  return out;
}

describe('callers of exported definitions', () => {
  it('Python: what `__all__` names, and the public methods of a class it names', async () => {
    const g = await openGraph({
      'shop/api.py': [
        "__all__ = ['Catalog', 'open_catalog']",
        '',
        '',
        'class Catalog:',
        '    def add(self, item):',
        '        return self._store(item)',
        '',
        '    def _store(self, item):',
        '        return item',
        '',
        '    def __len__(self):',
        '        return 0',
        '',
        '    class Entry:',
        '        def show(self):',
        '            return 1',
        '',
        '',
        'class Helper:',
        '    def run(self):',
        '        return 2',
        '',
        '',
        'def open_catalog():',
        '    def inner():',
        '        return Catalog()',
        '    return inner()',
        '',
        '',
        'def not_listed():',
        '    return 3',
        '',
      ].join('\n'),
    });
    try {
      const all = ['api.Catalog', 'Catalog.add', 'Catalog._store', 'Catalog.__len__', 'Catalog.Entry', 'Entry.show', 'api.Helper', 'Helper.run', 'api.open_catalog', 'open_catalog.inner', 'api.not_listed'];
      expect(await exportedOf(g, all)).toEqual(['api.Catalog', 'Catalog.add', 'Catalog.__len__', 'Catalog.Entry', 'Entry.show', 'api.open_catalog']);
      // Callees never are; the codebase's own calls stay complete.
      expect((await g.db.callees('api.open_catalog')).groups[0]!.exported).toBe(false);
      expect((await g.db.callers('Catalog.add')).complete).toBe(true);
      // Dead code agrees: an exported class's public methods are API.
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['shop.api.Helper.run', 'shop.api.not_listed']);
      const tool = new CKGTool({ fs: g.tree.fs });
      try {
        const listed = await tool.execute({ command: 'find_callers', identifier: 'Catalog.add', path: g.tree.root });
        expect('output' in listed ? listed.output : listed.error).toBe(
          'Callers of shop.api.Catalog.add (method, shop/api.py:5-6): 0 callers. Complete: nothing calls it. Exported: code outside the codebase may call it.\n',
        );
        const unlisted = await tool.execute({ command: 'find_callers', identifier: 'not_listed', path: g.tree.root });
        expect('output' in unlisted ? unlisted.output : unlisted.error).toBe('Callers of shop.api.not_listed (function, shop/api.py:30-31): 0 callers. Complete: nothing calls it.\n');
      } finally {
        await tool.close();
      }
    } finally {
      g.close();
    }
  });

  it("Python: what a package's `__init__` re-exports, or another module's `__all__` names; the methods its classes inherit unchanged", async () => {
    const g = await openGraph({
      // A package's public names, without `__all__`: what its `__init__` imports, not `_private` ones.
      'geo/__init__.py': 'from .shapes import Polygon, Star, _Grid\nfrom .util import helper\n',
      'geo/shapes.py': [
        'class Base:',
        '    def area(self):',
        '        return 0',
        '',
        '    def draw(self):',
        '        return 1',
        '',
        '',
        'class Mixin:',
        '    def area(self):',
        '        return 2',
        '',
        '',
        'class Polygon(Base):',
        '    def draw(self):',
        '        return 3',
        '',
        '    def sides(self):',
        '        return 4',
        '',
        '',
        'class Tile(Mixin, Base):',
        '    pass',
        '',
        '',
        'class _Grid:',
        '    def cells(self):',
        '        return 5',
        '',
        '',
        'class Other:',
        '    def area(self):',
        '        return 8',
        '',
        '',
        'class Star(Mixin, Other):',
        '    pass',
        '',
        '',
        'class Ring:',
        '    def close(self):',
        '        return 6',
        '',
      ].join('\n'),
      'geo/util.py': 'def helper():\n    return 7\n',
      // An `__all__` decides what a module re-exports, `__init__` or not.
      'geo/api.py': "from .shapes import Ring, Tile\n__all__ = ['Ring']\n",
      // An ordinary module's imports are uses, not exports.
      'app/views.py': 'from geo.shapes import Tile\n\n\ndef show():\n    return Tile()\n',
    });
    try {
      const all = ['shapes.Base', 'Base.area', 'Base.draw', 'Mixin.area', 'Other.area', 'shapes.Polygon', 'Polygon.draw', 'Polygon.sides', 'shapes.Tile', 'shapes._Grid', 'Ring.close', 'util.helper'];
      // Base.area is Polygon's (no override); Base.draw is not (Polygon overrides it); Star's
      // `area` is Mixin's, first in its lookup order, never Other's; Tile is re-exported by
      // nothing (views.py imports it to use it).
      expect(await exportedOf(g, all)).toEqual(['Base.area', 'Mixin.area', 'shapes.Polygon', 'Polygon.draw', 'Polygon.sides', 'Ring.close', 'util.helper']);
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['app.views.show', 'geo.shapes._Grid.cells']);
    } finally {
      g.close();
    }
  });

  it('TypeScript: `export`, `export { }`, and the members of an exported class other than `private` and `#private` ones', async () => {
    const g = await openGraph({
      'src/shop.ts': [
        'export class Cart {',
        '  add(n: number): number { return this.keep(n) + this.#count(); }',
        '  private keep(n: number): number { return n; }',
        '  protected total(): number { return 0; }',
        '  #count(): number { return 1; }',
        '}',
        '',
        'class Local {',
        '  run(): number { return 2; }',
        '}',
        '',
        'function listed(): number { return new Local().run(); }',
        'function hidden(): number { return 4; }',
        'export function open(): Cart { return new Cart(); }',
        '',
        'export { listed };',
        '',
      ].join('\n'),
    });
    try {
      const all = ['Cart', 'Cart.add', 'Cart.keep', 'Cart.total', 'Cart.#count', 'Local', 'Local.run', 'listed', 'hidden', 'open'];
      expect(await exportedOf(g, all)).toEqual(['Cart', 'Cart.add', 'Cart.total', 'listed', 'open']);
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['src/shop.hidden']);
    } finally {
      g.close();
    }
  });

  it('Go: capitalised names, methods by their own name whatever their type', async () => {
    const g = await openGraph({
      'go.mod': 'module example.com/shop\n\ngo 1.21\n',
      'shop.go': [
        'package shop',
        '',
        'type Cart struct{}',
        '',
        'func (c *Cart) Add() int { return c.keep() }',
        'func (c *Cart) keep() int { return 1 }',
        '',
        'type local struct{}',
        '',
        'func (l local) Run() int { return 2 }',
        '',
        'func Open() *Cart { return &Cart{} }',
        'func helper() int { return 3 }',
        '',
      ].join('\n'),
    });
    try {
      const all = ['Cart', 'Cart.Add', 'Cart.keep', 'local', 'local.Run', 'Open', 'helper'];
      expect(await exportedOf(g, all)).toEqual(['Cart', 'Cart.Add', 'local.Run', 'Open']);
    } finally {
      g.close();
    }
  });

  it('Rust: `pub` items, not `pub(crate)` ones (dead code lists those when nothing calls them)', async () => {
    const g = await openGraph({
      'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\n',
      'src/lib.rs': [
        'pub struct Cart;',
        '',
        'impl Cart {',
        '    pub fn add(&self) -> u32 { self.keep() }',
        '    fn keep(&self) -> u32 { 1 }',
        '}',
        '',
        'pub fn open() -> Cart { Cart }',
        'pub(crate) fn helper() -> u32 { 2 }',
        'fn private() -> u32 { 3 }',
        '',
      ].join('\n'),
    });
    try {
      expect(await exportedOf(g, ['Cart', 'Cart::add', 'Cart::keep', 'open', 'helper', 'private'])).toEqual(['Cart', 'Cart::add', 'open']);
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.name)).toEqual(['helper', 'private']);
    } finally {
      g.close();
    }
  });
});
