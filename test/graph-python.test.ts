// The Python code graph on a small multi-file shop (test/fixtures/graph/python): every edge,
// exactly. Each rule of resolution shows here — and would change a line if it broke:
// cross-file imports (`from shop.util import retry`), aliased imports (`join as path_join`,
// `Catalog as Cat`), a package re-export (`shop.get_version()` through shop/__init__.py),
// `import shop.models as m` then `m.Product.parse()`, a submodule reached through its package
// (`@shop.util.retry`), relative imports (`.models`, `from . import util as u`), constructors
// (`Cat()` → `Catalog.__init__`), typed receivers (`c: Cat`, `catalog = Cat()`, and
// `product = catalog.add_product(…)`, declared `-> Product`), `self` and inherited methods
// (`product.save()` → `Model.save`), `super().__init__()`, recursion, nested
// functions, module-level code and decorators (the module is the caller), and what must stay
// unresolved: a module outside the codebase even where the codebase has a function of that name
// (`title_case`, `os.path.join`), calls of parameters (`task()`, `cls()`), methods of values of
// unknown type (`m.Product.create("cup").save()`: create declares no result), builtins.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { CKGDatabase } from '../src/index.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'app.py:1 imports app -> shop [shop] import',
  'app.py:2 imports app -> shop.models [shop.models] import',
  'app.py:3 imports app -> shop.catalog [shop.catalog] import',
  'app.py:4 imports app -> shop.util [shop.util] import',
  'app.py:8 calls app.main -> shop.catalog.Catalog.__init__ [Cat] import',
  'app.py:9 calls app.main -> shop.catalog.Catalog.add_product [add_product] typed',
  'app.py:10 calls app.main -> shop.models.Product.create [create] import',
  'app.py:10 calls app.main -> ∅ [save] unresolved:dynamic',
  'app.py:11 calls app.main -> shop.models.Product.parse [parse] import',
  'app.py:12 calls app.main -> shop.version.get_version [get_version] import',
  'app.py:12 calls app.main -> ∅ [print] unresolved:builtin',
  'app.py:13 calls app.main -> shop.util.join [path_join] import',
  'app.py:14 calls app.main -> shop.util.retry [retry] import',
  'app.py:14 calls app.main -> shop.models.Model.save [save] typed',
  'app.py:15 calls app.main -> app.helper [helper] local',
  'app.py:19 contains app.helper -> app.helper.inner [inner] local',
  'app.py:20 calls app.helper.inner -> shop.catalog.Catalog.find [find] typed',
  'app.py:22 calls app.helper -> app.helper.inner [inner] local',
  'app.py:25 calls app -> shop.util.retry [retry] import',
  'app.py:31 calls app -> app.main [main] local',
  'shop/__init__.py:1 imports shop -> shop.version [.version] import',
  'shop/__init__.py:2 imports shop -> shop.catalog [.catalog] import',
  'shop/catalog.py:1 imports shop.catalog -> ∅ [os.path] unresolved:external',
  'shop/catalog.py:2 imports shop.catalog -> ∅ [thirdparty.strings] unresolved:external',
  'shop/catalog.py:4 imports shop.catalog -> shop.models [.models] import',
  'shop/catalog.py:5 imports shop.catalog -> shop [.] import',
  'shop/catalog.py:9 contains shop.catalog.Catalog -> shop.catalog.Catalog.__init__ [__init__] local',
  'shop/catalog.py:12 contains shop.catalog.Catalog -> shop.catalog.Catalog.add_product [add_product] local',
  'shop/catalog.py:13 calls shop.catalog.Catalog.add_product -> shop.models.Product.__init__ [Product] import',
  'shop/catalog.py:14 calls shop.catalog.Catalog.add_product -> shop.models.Model.save [save] typed',
  'shop/catalog.py:15 calls shop.catalog.Catalog.add_product -> ∅ [append] unresolved:dynamic',
  'shop/catalog.py:16 calls shop.catalog.Catalog.add_product -> shop.catalog.Catalog.log [log] self',
  'shop/catalog.py:16 calls shop.catalog.Catalog.add_product -> ∅ [title_case] unresolved:external',
  'shop/catalog.py:19 contains shop.catalog.Catalog -> shop.catalog.Catalog.log [log] local',
  'shop/catalog.py:20 calls shop.catalog.Catalog.log -> ∅ [join] unresolved:external',
  'shop/catalog.py:21 calls shop.catalog.Catalog.log -> shop.util.write [write] import',
  'shop/catalog.py:23 contains shop.catalog.Catalog -> shop.catalog.Catalog.find [find] local',
  'shop/catalog.py:24 calls shop.catalog.Catalog.find -> ∅ [sorted] unresolved:builtin',
  'shop/models.py:2 contains shop.models.Model -> shop.models.Model.__init__ [__init__] local',
  'shop/models.py:5 contains shop.models.Model -> shop.models.Model.save [save] local',
  'shop/models.py:6 calls shop.models.Model.save -> shop.models.Model.validate [validate] self',
  'shop/models.py:8 contains shop.models.Model -> shop.models.Model.validate [validate] local',
  'shop/models.py:9 calls shop.models.Model.validate -> ∅ [bool] unresolved:builtin',
  'shop/models.py:12 inherits shop.models.Product -> shop.models.Model [Model] local',
  'shop/models.py:13 contains shop.models.Product -> shop.models.Product.__init__ [__init__] local',
  'shop/models.py:14 calls shop.models.Product.__init__ -> shop.models.Model.__init__ [__init__] super',
  'shop/models.py:17 calls shop.models.Product -> ∅ [classmethod] unresolved:builtin',
  'shop/models.py:18 contains shop.models.Product -> shop.models.Product.create [create] local',
  'shop/models.py:19 calls shop.models.Product.create -> ∅ [cls] unresolved:parameter',
  'shop/models.py:21 calls shop.models.Product -> ∅ [staticmethod] unresolved:builtin',
  'shop/models.py:22 contains shop.models.Product -> shop.models.Product.parse [parse] local',
  'shop/models.py:23 calls shop.models.Product.parse -> ∅ [split] unresolved:dynamic',
  'shop/models.py:25 contains shop.models.Product -> shop.models.Product.join [join] local',
  'shop/util.py:2 calls shop.util.write -> ∅ [open] unresolved:builtin',
  'shop/util.py:3 calls shop.util.write -> ∅ [write] unresolved:dynamic',
  'shop/util.py:11 calls shop.util.title_case -> ∅ [title] unresolved:dynamic',
  'shop/util.py:15 calls shop.util.join -> ∅ [join] unresolved:builtin',
  'shop/util.py:19 calls shop.util.retry -> ∅ [range] unresolved:builtin',
  'shop/util.py:20 calls shop.util.retry -> ∅ [task] unresolved:parameter',
  'shop/util.py:22 calls shop.util.retry -> shop.util.retry [retry] local',
  'shop/version.py:5 calls shop.version.get_version -> ∅ [join] unresolved:builtin',
  'shop/version.py:5 calls shop.version.get_version -> ∅ [str] unresolved:builtin',
];

describe.each(BACKENDS)('python code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('python'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});

describe('graph: false', () => {
  it('indexes the same definitions without edges, and a later graph build re-parses every file', async () => {
    const files = graphFixture('python');
    const without = await openGraph(files, 'memfs', { graph: false });
    const withGraph = await openGraph(files, 'memfs');
    try {
      expect(await without.db.edges()).toEqual([]);
      expect(without.db.stats().edges).toBe(0);
      expect(withGraph.db.stats().edges).toBeGreaterThan(40);
      expect(without.db.stats().functions).toBe(withGraph.db.stats().functions);
      expect(await without.db.queryFunction('add_product', 'class_method')).toEqual(await withGraph.db.queryFunction('add_product', 'class_method'));
      // The same bytes opened with the graph on: every file is parsed again, and the edges appear.
      const reopened = await CKGDatabase.fromBytes(without.db.export(), { fs: without.tree.fs, codebasePath: without.tree.root });
      try {
        expect(reopened.report?.filesParsed).toBe(Object.keys(files).length);
        expect((await reopened.edges()).length).toBe((await withGraph.db.edges()).length);
      } finally {
        reopened.close();
      }
    } finally {
      without.close();
      withGraph.close();
    }
  });
});

describe('comprehension scopes', () => {
  it('a comprehension variable is local to its comprehension (dict, set, list and generator alike)', async () => {
    const source = [
      'def build():',
      '    return 1',
      '',
      'handlers = {name: build() for name, build in [("a", len)]}',
      'names = {build() for build in [len]}',
      'listed = [build() for build in [len]]',
      'generated = list(build() for build in [len])',
      'after = build()',
      '',
    ].join('\n');
    const graph = await openGraph({ 'reg.py': source }, 'memfs');
    try {
      // Only the last call is of the module's function: in each comprehension `build` is its variable.
      expect(await graph.lines({ kind: 'calls', toName: 'build' })).toEqual([
        'reg.py:4 calls reg -> ∅ [build] unresolved:local-variable',
        'reg.py:5 calls reg -> ∅ [build] unresolved:local-variable',
        'reg.py:6 calls reg -> ∅ [build] unresolved:local-variable',
        'reg.py:7 calls reg -> ∅ [build] unresolved:local-variable',
        'reg.py:8 calls reg -> reg.build [build] local',
      ]);
    } finally {
      graph.close();
    }
  });
});
