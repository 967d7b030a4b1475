// The Go code graph on a small module (test/fixtures/graph/go, `module example.com/shop`):
// every edge, exactly. Rules shown: package names from go.mod (`example.com/shop/store`), other
// files of the same package (`register` in report.go, resolution `package`), plain, aliased
// (`st`), dot and blank imports, `pkg.F()`, methods through the receiver (`c.sortItems()`),
// typed values from parameters (`c *store.Catalog`, an interface `v store.Named`), fields of a struct
// declared in another file of the package (`s.catalog.Add(p)`, promoted `s.Model.Describe()`, a
// field of a field `s.Fixture.hook.First()`), a method's declared result (`p := c.First()`,
// `n.First().Name()`, but
// never a receiver type's parameter: `v := b.Get()` on a `Box[V]`), `var p
// store.Product`, `&st.Product{}`, `new(st.Catalog)`; promoted methods of embedded structs
// (`p.Save()` → `Model.Save`), the shallowest one winning (`t.Describe()` on Tagged →
// `Product.Describe` at depth 1, not `Model.Describe` at depth 2 through Labels), an embedded
// field named explicitly (`p.Model.Describe()`), a function's declared result (`c.Add` after
// `c := store.NewCatalog()`); package-level `var` initialisers and `init`
// with their module as caller, func literals transparent (`report(s)` belongs to main),
// recursion; a defined type of a basic kind (`type Status int`) as a class, its methods reached
// through a typed parameter and the receiver, a conversion `Status(n)` as a call of it; type
// assertions and type switch cases; ranging over and indexing containers of declared element
// types (`for _, c := range shelves`, `byStatus[s]`); package-level values of declared types
// (`Current.Label()`, `store.Current.Active()`); values read from paths or copied (`c :=
// s.catalog`, `q := p`); an interface method's declared result (`st := s.Current()`); unresolved: a package outside the codebase even where the codebase has a function
// of that name (`strutil.Title`, `strutil.Less`), calls of a parameter (`fn(it)`) and of a
// function-typed field (`c.onAdd(p)`), a package-level function value named like a method
// (`validate(p)` is never `Model.validate`), builtins, a function's type parameter named like a
// type of the package (`func Pick[V Named](v V)`: v.Name() and V(v) are not the package's V).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { CKGDatabase } from '../src/index.js';
import { edgeLine, expectExactThrough, graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'main.go:4 imports example.com/shop -> ∅ [fmt] unresolved:external',
  'main.go:5 imports example.com/shop -> ∅ [os] unresolved:external',
  'main.go:7 imports example.com/shop -> example.com/shop/store [example.com/shop/store] import',
  'main.go:8 imports example.com/shop -> example.com/shop/store [example.com/shop/store] import',
  'main.go:9 imports example.com/shop -> example.com/shop/util [example.com/shop/util] import',
  'main.go:10 imports example.com/shop -> example.com/shop/plugins [example.com/shop/plugins] import',
  'main.go:11 imports example.com/shop -> ∅ [github.com/acme/strutil] unresolved:external',
  'main.go:14 calls example.com/shop -> example.com/shop.parseFlags [parseFlags] package',
  'main.go:17 calls example.com/shop.init -> example.com/shop/store.Default [Default] import',
  'main.go:17 calls example.com/shop.init -> example.com/shop.register [register] package',
  'main.go:21 calls example.com/shop.main -> example.com/shop/store.NewCatalog [NewCatalog] import',
  'main.go:23 calls example.com/shop.main -> example.com/shop/store.Model.Save [Save] typed',
  'main.go:24 calls example.com/shop.main -> example.com/shop/store.Catalog.Add [Add] typed',
  'main.go:26 calls example.com/shop.main -> example.com/shop/store.Product.Describe [Describe] typed',
  'main.go:27 calls example.com/shop.main -> ∅ [new] unresolved:builtin',
  'main.go:28 calls example.com/shop.main -> example.com/shop/store.Catalog.Add [Add] typed',
  'main.go:29 calls example.com/shop.main -> example.com/shop/store.Catalog.First [First] typed',
  // First declares it returns a *Product: the chained call is Product's.
  'main.go:29 calls example.com/shop.main -> example.com/shop/store.Product.Name [Name] typed',
  'main.go:30 calls example.com/shop.main -> example.com/shop/store.Product.Name [Name] typed',
  'main.go:30 calls example.com/shop.main -> ∅ [Println] unresolved:external',
  'main.go:30 calls example.com/shop.main -> example.com/shop/util.Title [Title] import',
  'main.go:31 calls example.com/shop.main -> ∅ [Title] unresolved:external',
  'main.go:32 calls example.com/shop.main -> example.com/shop.each [each] local',
  'main.go:32 calls example.com/shop.main -> example.com/shop.report [report] package',
  'main.go:34 calls example.com/shop.main -> example.com/shop/store.Product.Describe [Describe] typed',
  'main.go:35 calls example.com/shop.main -> ∅ [Println] unresolved:external',
  'main.go:35 calls example.com/shop.main -> example.com/shop.countdown [countdown] local',
  'main.go:39 calls example.com/shop.show -> example.com/shop/store.Named.Name [Name] typed',
  'main.go:39 calls example.com/shop.show -> ∅ [Println] unresolved:external',
  'main.go:44 calls example.com/shop.each -> ∅ [fn] unresolved:parameter',
  'main.go:52 calls example.com/shop.countdown -> example.com/shop.countdown [countdown] local',
  'plugins/plugin.go:4 calls example.com/shop/plugins.init -> example.com/shop/plugins.setup [setup] local',
  'report.go:3 imports example.com/shop -> example.com/shop/store [example.com/shop/store] import',
  'report.go:8 calls example.com/shop.register -> ∅ [append] unresolved:builtin',
  'report.go:9 calls example.com/shop.register -> example.com/shop/store.Catalog.Add [Add] typed',
  'report.go:13 calls example.com/shop.parseFlags -> ∅ [len] unresolved:builtin',
  'report.go:17 calls example.com/shop.report -> ∅ [println] unresolved:builtin',
  'report.go:18 calls example.com/shop.report -> example.com/shop.show [show] package',
  // A defined type of a basic kind is a class: its methods are typed and self calls, its name called a conversion.
  'report.go:22 calls example.com/shop.describe -> example.com/shop/store.Status.Label [Label] typed',
  // A package-level value of declared type, of another package.
  'report.go:26 calls example.com/shop.active -> example.com/shop/store.Status.Active [Active] import',
  'store/catalog.go:4 imports example.com/shop/store -> ∅ [sort] unresolved:external',
  'store/catalog.go:6 imports example.com/shop/store -> ∅ [github.com/acme/strutil] unresolved:external',
  'store/catalog.go:9 calls example.com/shop/store -> example.com/shop/store.NewCatalog [NewCatalog] local',
  'store/catalog.go:23 contains example.com/shop/store.Catalog -> example.com/shop/store.Catalog.Add [Add] local',
  'store/catalog.go:24 calls example.com/shop/store.Catalog.Add -> example.com/shop/store.Model.Save [Save] typed',
  'store/catalog.go:27 calls example.com/shop/store.Catalog.Add -> ∅ [append] unresolved:builtin',
  'store/catalog.go:28 calls example.com/shop/store.Catalog.Add -> ∅ [onAdd] unresolved:dynamic',
  'store/catalog.go:29 calls example.com/shop/store.Catalog.Add -> example.com/shop/store.Catalog.sortItems [sortItems] self',
  'store/catalog.go:33 contains example.com/shop/store.Catalog -> example.com/shop/store.Catalog.sortItems [sortItems] local',
  'store/catalog.go:34 calls example.com/shop/store.Catalog.sortItems -> ∅ [Slice] unresolved:external',
  'store/catalog.go:35 calls example.com/shop/store.Catalog.sortItems -> ∅ [Less] unresolved:external',
  'store/catalog.go:39 contains example.com/shop/store.Catalog -> example.com/shop/store.Catalog.First [First] local',
  'store/model.go:3 imports example.com/shop/store -> ∅ [fmt] unresolved:external',
  'store/model.go:10 contains example.com/shop/store.Model -> example.com/shop/store.Model.Save [Save] local',
  'store/model.go:11 calls example.com/shop/store.Model.Save -> example.com/shop/store.Model.validate [validate] self',
  'store/model.go:14 contains example.com/shop/store.Model -> example.com/shop/store.Model.validate [validate] local',
  'store/model.go:16 calls example.com/shop/store.Model.validate -> ∅ [Errorf] unresolved:external',
  'store/model.go:21 contains example.com/shop/store.Model -> example.com/shop/store.Model.Describe [Describe] local',
  'store/product.go:4 contains example.com/shop/store.Named -> example.com/shop/store.Named.Name [Name] local',
  'store/product.go:8 inherits example.com/shop/store.Product -> example.com/shop/store.Model [Model] package',
  'store/product.go:12 contains example.com/shop/store.Product -> example.com/shop/store.Product.Name [Name] local',
  'store/product.go:16 contains example.com/shop/store.Product -> example.com/shop/store.Product.Describe [Describe] local',
  'store/product.go:17 calls example.com/shop/store.Product.Describe -> example.com/shop/store.Model.Describe [Describe] typed',
  'store/product.go:17 calls example.com/shop/store.Product.Describe -> example.com/shop/store.Product.Name [Name] self',
  'store/product.go:21 calls example.com/shop/store.Valid -> ∅ [validate] unresolved:dynamic',
  'store/product.go:26 inherits example.com/shop/store.Labels -> example.com/shop/store.Model [Model] package',
  'store/product.go:31 inherits example.com/shop/store.Tagged -> example.com/shop/store.Labels [Labels] local',
  'store/product.go:32 inherits example.com/shop/store.Tagged -> example.com/shop/store.Product [Product] local',
  'store/shelf.go:6 inherits example.com/shop/store.Shelf -> example.com/shop/store.Fixture [Fixture] local',
  'store/shelf.go:13 inherits example.com/shop/store.Fixture -> example.com/shop/store.Labels [Labels] package',
  'store/shelf.go:21 contains example.com/shop/store.Box -> example.com/shop/store.Box.Get [Get] local',
  'store/shelf.go:27 contains example.com/shop/store.V -> example.com/shop/store.V.Name [Name] local',
  // The struct is declared in another file: its fields' types are read there; a promoted field (Model,
  // two embeddings down) too; an anonymous interface field hides Fixture.hook and types nothing.
  'store/shelf_ops.go:3 contains example.com/shop/store.Shelf -> example.com/shop/store.Shelf.Stock [Stock] package',
  'store/shelf_ops.go:4 calls example.com/shop/store.Shelf.Stock -> example.com/shop/store.Catalog.Add [Add] package',
  'store/shelf_ops.go:7 contains example.com/shop/store.Shelf -> example.com/shop/store.Shelf.Label [Label] package',
  'store/shelf_ops.go:8 calls example.com/shop/store.Shelf.Label -> example.com/shop/store.Model.Describe [Describe] package',
  'store/shelf_ops.go:8 calls example.com/shop/store.Shelf.Label -> ∅ [First] unresolved:dynamic',
  'store/shelf_ops.go:11 contains example.com/shop/store.Shelf -> example.com/shop/store.Shelf.Restocked [Restocked] package',
  // A field of a field: Shelf's embedded Fixture, then Fixture's own hook.
  'store/shelf_ops.go:13 calls example.com/shop/store.Shelf.Restocked -> example.com/shop/store.Catalog.First [First] package',
  'store/shelf_ops.go:17 calls example.com/shop/store.restock -> example.com/shop/store.Catalog.First [First] package',
  // A method's declared result types the value it makes; a receiver type's parameter never does.
  'store/shelf_ops.go:22 calls example.com/shop/store.take -> example.com/shop/store.Catalog.First [First] typed',
  'store/shelf_ops.go:23 calls example.com/shop/store.take -> example.com/shop/store.Product.Name [Name] typed',
  'store/shelf_ops.go:27 calls example.com/shop/store.open -> example.com/shop/store.Box.Get [Get] typed',
  'store/shelf_ops.go:28 calls example.com/shop/store.open -> ∅ [Name] unresolved:dynamic',
  'store/shelf_ops.go:31 contains example.com/shop/store.Shelf -> example.com/shop/store.Shelf.Newest [Newest] package',
  'store/shelf_ops.go:33 calls example.com/shop/store.Shelf.Newest -> example.com/shop/store.Catalog.First [First] package',
  // The result of a method called through a field.
  'store/shelf_ops.go:34 calls example.com/shop/store.Shelf.Newest -> example.com/shop/store.Product.Name [Name] typed',
  'store/status.go:8 calls example.com/shop/store.StatusOf -> example.com/shop/store.Status [Status] local',
  'store/status.go:11 contains example.com/shop/store.Status -> example.com/shop/store.Status.Label [Label] local',
  'store/status.go:12 calls example.com/shop/store.Status.Label -> example.com/shop/store.Status.Active [Active] self',
  'store/status.go:18 contains example.com/shop/store.Status -> example.com/shop/store.Status.Active [Active] local',
  // A type assertion types what it makes (`s, ok := v.(Status)`, `v.(*Product).Name()`), a type
  // switch's alias has its case's type where the case names one (not in `case Named, Status:`).
  'store/status.go:25 calls example.com/shop/store.KindOf -> example.com/shop/store.Status.Label [Label] typed',
  'store/status.go:29 calls example.com/shop/store.KindOf -> example.com/shop/store.Catalog.Add [Add] typed',
  'store/status.go:31 calls example.com/shop/store.KindOf -> ∅ [Name] unresolved:dynamic',
  'store/status.go:33 calls example.com/shop/store.KindOf -> example.com/shop/store.Product.Name [Name] typed',
  // A type parameter named like a type of the package is never that type: not as a value's type, not converted to.
  'store/status.go:38 calls example.com/shop/store.Pick -> ∅ [Name] unresolved:dynamic',
  'store/status.go:39 calls example.com/shop/store.Pick -> ∅ [V] unresolved:parameter',
  // Ranging over or indexing a container of declared element types gives values of those types.
  'store/status.go:45 calls example.com/shop/store.Restock -> example.com/shop/store.Catalog.Add [Add] typed',
  'store/status.go:48 calls example.com/shop/store.Restock -> example.com/shop/store.Status.Label [Label] typed',
  'store/status.go:49 calls example.com/shop/store.Restock -> example.com/shop/store.Product.Name [Name] typed',
  'store/status.go:51 calls example.com/shop/store.Restock -> example.com/shop/store.Catalog.Add [Add] typed',
  // Package-level values of declared types (`var Current Status`, `var shelfOf = &Shelf{}`).
  'store/status.go:61 calls example.com/shop/store.Report -> example.com/shop/store.Shelf.Stock [Stock] typed',
  'store/status.go:62 calls example.com/shop/store.Report -> example.com/shop/store.Status.Label [Label] typed',
  // A value read from a path (`c := s.catalog`, `cur := Current`) or copied from a typed one (`q := p`).
  'store/status.go:66 contains example.com/shop/store.Shelf -> example.com/shop/store.Shelf.Stocked [Stocked] package',
  'store/status.go:68 calls example.com/shop/store.Shelf.Stocked -> example.com/shop/store.Catalog.Add [Add] package',
  'store/status.go:70 calls example.com/shop/store.Shelf.Stocked -> example.com/shop/store.Product.Name [Name] typed',
  'store/status.go:72 calls example.com/shop/store.Shelf.Stocked -> example.com/shop/store.Status.Active [Active] typed',
  // An interface's method declares what it returns: `st := s.Current()` types st.
  'store/status.go:77 contains example.com/shop/store.Stocker -> example.com/shop/store.Stocker.Current [Current] local',
  'store/status.go:81 calls example.com/shop/store.Check -> example.com/shop/store.Stocker.Current [Current] typed',
  'store/status.go:82 calls example.com/shop/store.Check -> example.com/shop/store.Status.Active [Active] typed',
  // A method of a value made in the call (`new(T)`, `&T{}`): its declared result types what it makes.
  'store/status.go:87 calls example.com/shop/store.Made -> example.com/shop/store.Catalog.First [First] typed',
  'store/status.go:87 calls example.com/shop/store.Made -> ∅ [new] unresolved:builtin',
  'store/status.go:88 calls example.com/shop/store.Made -> example.com/shop/store.Product.Name [Name] typed',
  'store/status.go:89 calls example.com/shop/store.Made -> example.com/shop/store.Catalog.First [First] typed',
  'store/status.go:90 calls example.com/shop/store.Made -> example.com/shop/store.Product.Describe [Describe] typed',
  // Elements of a field's container (`items []*Product`, declared in catalog.go): indexed, ranged over, read into a local.
  'store/status.go:95 calls example.com/shop/store.Items -> example.com/shop/store.Product.Name [Name] package',
  'store/status.go:97 calls example.com/shop/store.Items -> example.com/shop/store.Product.Describe [Describe] package',
  'store/status.go:100 calls example.com/shop/store.Items -> example.com/shop/store.Product.Name [Name] package',
  // Along a chain of calls, and through locals holding their results: what each declares it returns.
  'store/status.go:105 calls example.com/shop/store.Chain -> example.com/shop/store.Product.Describe [Describe] typed',
  'store/status.go:105 calls example.com/shop/store.Chain -> example.com/shop/store.Catalog.First [First] typed',
  'store/status.go:105 calls example.com/shop/store.Chain -> example.com/shop/store.NewCatalog [NewCatalog] package',
  'store/status.go:106 calls example.com/shop/store.Chain -> example.com/shop/store.NewCatalog [NewCatalog] package',
  'store/status.go:107 calls example.com/shop/store.Chain -> example.com/shop/store.Catalog.First [First] typed',
  'store/status.go:107 calls example.com/shop/store.Chain -> example.com/shop/store.Product.Name [Name] typed',
  'store/status.go:108 calls example.com/shop/store.Chain -> example.com/shop/store.Catalog.First [First] typed',
  'store/status.go:109 calls example.com/shop/store.Chain -> example.com/shop/store.Product.Describe [Describe] typed',
  // A named container type (`type Shelves []*Catalog`): its values' elements, indexed and ranged over.
  'store/status.go:116 calls example.com/shop/store.StockAll -> example.com/shop/store.Catalog.Add [Add] local',
  'store/status.go:118 calls example.com/shop/store.StockAll -> example.com/shop/store.Catalog.sortItems [sortItems] local',
  // A path read from a value asserted in place (`v.(*Shelf).catalog`).
  'store/status.go:124 calls example.com/shop/store.Asserted -> example.com/shop/store.Catalog.Add [Add] package',
  'util/strings.go:3 imports example.com/shop/util -> ∅ [strings] unresolved:external',
  'util/strings.go:6 calls example.com/shop/util.Title -> ∅ [ToUpper] unresolved:external',
];

describe.each(BACKENDS)('go code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('go'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('names packages after go.mod: editing it re-indexes the Go files and renames their symbols', async () => {
    const graph = await openGraph(graphFixture('go'), backend);
    try {
      graph.tree.write('go.mod', 'module example.org/market // renamed\n\ngo 1.21\n');
      const report = await graph.db.refresh();
      // The snapshot key covers go.mod: refresh sees the edit, and every Go file is parsed again.
      expect(report?.filesParsed).toBe(10);
      const lines = await graph.lines();
      // Symbols are renamed; imports still spelled example.com/shop now leave the codebase.
      expect(lines).toContain('store/model.go:10 contains example.org/market/store.Model -> example.org/market/store.Model.Save [Save] local');
      expect(lines).toContain('main.go:7 imports example.org/market -> ∅ [example.com/shop/store] unresolved:external');
      expect(lines).toContain('main.go:21 calls example.org/market.main -> ∅ [NewCatalog] unresolved:external');
      expect(lines.filter((l) => l.includes('example.com/shop') && !l.includes('unresolved'))).toEqual([]);
      // Exactly what a fresh build of the edited tree gives.
      const fresh = await CKGDatabase.open({ codebasePath: graph.tree.root, fs: graph.tree.fs });
      try {
        expect((await fresh.edges()).map((e) => edgeLine(e, graph.tree.root))).toEqual(lines);
      } finally {
        fresh.close();
      }
      // Nothing else changed: a second refresh finds nothing to do.
      expect(await graph.db.refresh()).toBeUndefined();
    } finally {
      graph.close();
    }
  });
});

describe.each(BACKENDS)('go incremental updates on %s', (backend) => {
  it('keep edges equal to a fresh build through edits across a package', async () => {
    const files = graphFixture('go');
    const replace = (path: string, from: string, to: string) => (f: Record<string, string | null>) => {
      expect(f[path]).toContain(from);
      f[path] = f[path]!.replace(from, to);
    };
    await expectExactThrough(files, backend, [
      // Move a function to another file of its package.
      replace('store/product.go', 'func Valid(p *Product) bool {\n\treturn validate(p)\n}\n', ''),
      replace('store/catalog.go', 'func Default() *Catalog {', 'func Valid(p *Product) bool {\n\treturn validate(p)\n}\n\nfunc Default() *Catalog {'),
      // Rename a function its package's other file calls.
      replace('report.go', 'func register(', 'func enroll('),
      // Change a struct's embedded base: promoted methods move.
      replace('store/product.go', 'type Product struct {\n\tModel\n', 'type Product struct {\n\tNamed\n'),
      // Remove a dot-imported package, then bring it back in a new file.
      (f) => void (f['util/strings.go'] = null),
      (f) => void (f['util/title.go'] = 'package util\n\nfunc Title(s string) string { return s }\n'),
      // Add a method to a type from another file of its package.
      (f) => void (f['store/extra.go'] = 'package store\n\nfunc (t *Tagged) Describe() string { return t.Labels.Describe() }\n'),
    ]);
  });
});

describe.each(BACKENDS)('go package naming on %s', (backend) => {
  it('names packages by the nearest go.mod, by folder without one, and reads the Go tree\'s own layout', async () => {
    const graph = await openGraph(
      {
        // The Go tree: `module std`, packages by their folder, vendored packages under vendor/.
        'src/go.mod': 'module std\n',
        'src/fmt/print.go': 'package fmt\n\nfunc Println(a ...any) {}\n',
        'src/net/http/server.go': 'package http\n\nimport (\n\t"fmt"\n\t"golang.org/x/net/idna"\n)\n\nfunc Serve() {\n\tfmt.Println(idna.ToASCII("x"))\n}\n',
        'src/vendor/golang.org/x/net/idna/idna.go': 'package idna\n\nfunc ToASCII(s string) string { return s }\n',
        // A nested module: its go.mod decides below it.
        'src/cmd/go.mod': 'module cmd\n',
        'src/cmd/go/main.go': 'package main\n\nimport "net/http"\n\nfunc main() { http.Serve() }\n',
        // No go.mod above: the folder from the codebase root.
        'tools/gen/gen.go': 'package gen\n\nimport "fmt"\n\nfunc Gen() { fmt.Println() }\n',
      },
      backend,
    );
    try {
      expect(await graph.lines({ kind: ['calls', 'imports'] })).toEqual([
        'src/cmd/go/main.go:3 imports cmd/go -> net/http [net/http] import',
        'src/cmd/go/main.go:5 calls cmd/go.main -> net/http.Serve [Serve] import',
        'src/net/http/server.go:4 imports net/http -> fmt [fmt] import',
        'src/net/http/server.go:5 imports net/http -> vendor/golang.org/x/net/idna [golang.org/x/net/idna] import',
        'src/net/http/server.go:9 calls net/http.Serve -> fmt.Println [Println] import',
        'src/net/http/server.go:9 calls net/http.Serve -> vendor/golang.org/x/net/idna.ToASCII [ToASCII] import',
        // An import path is global: the codebase's `fmt` package, whichever module imports it.
        'tools/gen/gen.go:3 imports tools/gen -> fmt [fmt] import',
        'tools/gen/gen.go:5 calls tools/gen.Gen -> fmt.Println [Println] import',
      ]);
    } finally {
      graph.close();
    }
  });
});

describe.each(BACKENDS)('go type aliases by build on %s', (backend) => {
  it('a type some build declares and another aliases is no one answer', async () => {
    const files = {
      'go.mod': 'module example.com/m\n',
      // Before Go 1.18 the package declares U; from 1.18 on, U is another package's type.
      'old.go': '//go:build !go1.18\n\npackage m\n\ntype U struct{}\n\nfunc (*U) Len() int { return 0 }\n',
      'new.go': '//go:build go1.18\n\npackage m\n\nimport "example.com/m/other"\n\ntype U = other.U\n',
      'use.go': 'package m\n\nfunc f(x any) {\n\tif u, ok := x.(*U); ok {\n\t\tu.Len()\n\t}\n}\n',
    };
    const graph = await openGraph(files, backend);
    try {
      expect(await graph.lines({ kind: 'calls' })).toEqual(['use.go:5 calls example.com/m.f -> ∅ [Len] unresolved:ambiguous']);
    } finally {
      graph.close();
    }
    // Without the alias, the one declaration is the answer.
    const { 'new.go': _alias, ...declared } = files;
    const alone = await openGraph(declared, backend);
    try {
      expect(await alone.lines({ kind: 'calls' })).toEqual(['use.go:5 calls example.com/m.f -> example.com/m.U.Len [Len] typed']);
    } finally {
      alone.close();
    }
  });
});
