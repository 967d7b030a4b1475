// The Rust code graph on a two-crate workspace (test/fixtures/graph/rust: `shop` and
// `text-util`, read as `text_util`): every edge, exactly. Rules shown: module paths from the
// crate layout (`src/lib.rs` = `shop`, `src/store/mod.rs` = `shop::store`, `tests/smoke.rs` = a
// crate of its own, `shop-tests::smoke`), `use` with `crate::`/`self::`/`super::super::`,
// groups, `self as st`, renames (`Product as Item`) and `pub use` re-exports followed
// (`Catalog` through `shop::store`; the module `text_util::text`, a re-export of `strings`), a crate named in a path without `use`
// (`text_util::strings::pad` in tests/smoke.rs) unless a glob import could shadow it (`use
// std::collections::*` in lib.rs: `text_util::strings::shout` there is external), `mod x;`
// and `crate::`/`self::`/`super::` heads ahead of that glob, `Type::assoc()`, `Self::new()`, `self.m()` in `impl` blocks
// (methods join their type: `contains` edges), typed values from parameters (`p: &Product`,
// `p: &impl Describe`, `T: Describe`), `let x: T` and `Foo::new()` declared `-> Self`/`-> Foo`;
// `impl Trait for X` as X implements Trait, supertraits, a trait's default method reached
// from its implementor (`g.describe()` → `Describe::describe`) unless an external trait X also
// implements could hold one of that name (`p.describe()` on Product, which implements
// `std::fmt::Display`: ambiguous), inline `mod` blocks counted in the file module (see also
// graph-rust-inline-mods.test.ts)
// (`helpers::log`, `super::countdown` inside `mod helpers`), calls in standard macros
// (`println!("{}", countdown(3))`), closures transparent, recursion; unresolved: a crate
// outside the codebase even where the codebase has a function of that name (`left_pad::pad`),
// methods of call results (`c.first().unwrap().name()`), calls of a parameter (`f(p)`) and of a
// function stored in a field (`(self.on_sale)(self)`), builtins and the standard library.
import { describe, expect, it } from 'vitest';
import { CKGDatabase } from '../src/index.js';
import { BACKENDS } from './helpers/fixtures.js';
import { edgeLine, expectExactThrough, graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'shop/src/lib.rs:4 imports shop -> shop::store [crate::store] import',
  'shop/src/lib.rs:5 imports shop -> shop::models [models] import',
  'shop/src/lib.rs:6 imports shop -> shop::models [models] import',
  'shop/src/lib.rs:8 imports shop -> ∅ [std::collections] unresolved:external',
  'shop/src/lib.rs:11 calls shop::run -> shop::store::catalog::Catalog::new [new] import',
  'shop/src/lib.rs:12 calls shop::run -> shop::store::catalog::Catalog::add [add] typed',
  'shop/src/lib.rs:12 calls shop::run -> shop::models::Product::new [new] import',
  'shop/src/lib.rs:13 calls shop::run -> shop::models::Product::new [new] import',
  'shop/src/lib.rs:14 calls shop::run -> ∅ [describe] unresolved:ambiguous',
  'shop/src/lib.rs:16 calls shop::run -> shop::models::Describe::describe [describe] typed',
  'shop/src/lib.rs:17 calls shop::run -> shop::store::catalog::Catalog::first [first] typed',
  'shop/src/lib.rs:17 calls shop::run -> ∅ [name] unresolved:dynamic',
  'shop/src/lib.rs:17 calls shop::run -> ∅ [unwrap] unresolved:dynamic',
  'shop/src/lib.rs:18 calls shop::run -> ∅ [shout] unresolved:external',
  'shop/src/lib.rs:19 calls shop::run -> shop::helpers::log [log] import',
  'shop/src/lib.rs:20 calls shop::run -> shop::store::catalog::Catalog::each [each] typed',
  'shop/src/lib.rs:20 calls shop::run -> shop::report [report] local',
  'shop/src/lib.rs:21 calls shop::run -> shop::countdown [countdown] local',
  'shop/src/lib.rs:25 calls shop::show -> shop::models::Describe::describe [describe] typed',
  'shop/src/lib.rs:29 calls shop::report -> shop::models::Product::notify [notify] typed',
  'shop/src/lib.rs:33 calls shop::countdown -> shop::countdown [countdown] local',
  'shop/src/lib.rs:40 calls shop::helpers::log -> shop::helpers::trace [trace] local',
  'shop/src/lib.rs:41 calls shop::helpers::log -> shop::countdown [countdown] import',
  'shop/src/lib.rs:53 calls shop::tests::runs -> shop::run [run] local',
  'shop/src/lib.rs:54 calls shop::tests::runs -> shop::helpers::log [log] import',
  'shop/src/models.rs:2 contains shop::models::Named -> shop::models::Named::id [id] local',
  'shop/src/models.rs:7 inherits shop::models::Describe -> shop::models::Named [Named] local',
  'shop/src/models.rs:8 contains shop::models::Describe -> shop::models::Describe::name [name] local',
  'shop/src/models.rs:10 contains shop::models::Describe -> shop::models::Describe::describe [describe] local',
  'shop/src/models.rs:11 calls shop::models::Describe::describe -> shop::models::Describe::name [name] self',
  'shop/src/models.rs:12 calls shop::models::Describe::describe -> ∅ [to_uppercase] unresolved:dynamic',
  'shop/src/models.rs:22 contains shop::models::Product -> shop::models::Product::new [new] local',
  'shop/src/models.rs:23 calls shop::models::Product::new -> ∅ [to_string] unresolved:dynamic',
  'shop/src/models.rs:26 contains shop::models::Product -> shop::models::Product::parse [parse] local',
  'shop/src/models.rs:27 calls shop::models::Product::parse -> ∅ [Some] unresolved:builtin',
  'shop/src/models.rs:27 calls shop::models::Product::parse -> shop::models::Product::new [new] self',
  'shop/src/models.rs:30 contains shop::models::Product -> shop::models::Product::notify [notify] local',
  'shop/src/models.rs:31 calls shop::models::Product::notify -> ∅ [on_sale] unresolved:dynamic',
  'shop/src/models.rs:35 implements shop::models::Product -> shop::models::Named [Named] local',
  'shop/src/models.rs:37 implements shop::models::Product -> shop::models::Describe [Describe] local',
  'shop/src/models.rs:38 contains shop::models::Product -> shop::models::Product::name [name] local',
  'shop/src/models.rs:39 calls shop::models::Product::name -> ∅ [clone] unresolved:dynamic',
  'shop/src/models.rs:43 implements shop::models::Product -> ∅ [Display] unresolved:builtin',
  'shop/src/models.rs:44 contains shop::models::Product -> shop::models::Product::fmt [fmt] local',
  'shop/src/models.rs:45 calls shop::models::Product::fmt -> ∅ [write_str] unresolved:builtin',
  'shop/src/models.rs:51 implements shop::models::Gift -> shop::models::Named [Named] local',
  'shop/src/models.rs:53 implements shop::models::Gift -> shop::models::Describe [Describe] local',
  'shop/src/models.rs:54 contains shop::models::Gift -> shop::models::Gift::name [name] local',
  'shop/src/models.rs:55 calls shop::models::Gift::name -> ∅ [from] unresolved:builtin',
  'shop/src/store/catalog.rs:1 imports shop::store::catalog -> shop::models [super::super::models] import',
  'shop/src/store/catalog.rs:2 imports shop::store::catalog -> text_util::strings [text_util::strings] import',
  'shop/src/store/catalog.rs:3 imports shop::store::catalog -> ∅ [left_pad] unresolved:external',
  'shop/src/store/catalog.rs:10 contains shop::store::catalog::Catalog -> shop::store::catalog::Catalog::new [new] local',
  'shop/src/store/catalog.rs:11 calls shop::store::catalog::Catalog::new -> ∅ [new] unresolved:builtin',
  'shop/src/store/catalog.rs:14 contains shop::store::catalog::Catalog -> shop::store::catalog::Catalog::add [add] local',
  'shop/src/store/catalog.rs:15 calls shop::store::catalog::Catalog::add -> shop::store::catalog::Catalog::log [log] self',
  'shop/src/store/catalog.rs:16 calls shop::store::catalog::Catalog::add -> shop::models::Product::notify [notify] typed',
  'shop/src/store/catalog.rs:17 calls shop::store::catalog::Catalog::add -> ∅ [push] unresolved:dynamic',
  'shop/src/store/catalog.rs:20 contains shop::store::catalog::Catalog -> shop::store::catalog::Catalog::first [first] local',
  'shop/src/store/catalog.rs:21 calls shop::store::catalog::Catalog::first -> ∅ [first] unresolved:dynamic',
  'shop/src/store/catalog.rs:24 contains shop::store::catalog::Catalog -> shop::store::catalog::Catalog::log [log] local',
  'shop/src/store/catalog.rs:25 calls shop::store::catalog::Catalog::log -> shop::models::Describe::describe [describe] typed',
  'shop/src/store/catalog.rs:25 calls shop::store::catalog::Catalog::log -> text_util::strings::shout [shout] import',
  'shop/src/store/catalog.rs:26 calls shop::store::catalog::Catalog::log -> text_util::strings::pad [pad] import',
  'shop/src/store/catalog.rs:27 calls shop::store::catalog::Catalog::log -> ∅ [pad] unresolved:external',
  'shop/src/store/catalog.rs:30 contains shop::store::catalog::Catalog -> shop::store::catalog::Catalog::each [each] local',
  'shop/src/store/catalog.rs:32 calls shop::store::catalog::Catalog::each -> ∅ [f] unresolved:parameter',
  'shop/src/store/mod.rs:3 imports shop::store -> shop::store::catalog [self::catalog] import',
  'shop/tests/smoke.rs:1 imports shop-tests::smoke -> shop [shop] import',
  'shop/tests/smoke.rs:2 imports shop-tests::smoke -> text_util::strings [text_util::text] import',
  'shop/tests/smoke.rs:6 calls shop-tests::smoke::smoke -> shop::run [run] import',
  'shop/tests/smoke.rs:7 calls shop-tests::smoke::smoke -> text_util::strings::pad [pad] import',
  'shop/tests/smoke.rs:8 calls shop-tests::smoke::smoke -> text_util::strings::shout [shout] import',
  'util/src/lib.rs:3 imports text_util -> text_util::strings [strings] import',
  'util/src/strings.rs:2 calls text_util::strings::shout -> ∅ [to_uppercase] unresolved:dynamic',
];

describe.each(BACKENDS)('rust code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('rust'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('names crates after Cargo.toml: renaming a package re-indexes its files', async () => {
    const graph = await openGraph(graphFixture('rust'), backend);
    try {
      graph.tree.write('util/Cargo.toml', '[package]\nname = "strings-kit"\nversion = "0.2.0"\n');
      const report = await graph.db.refresh();
      // Only the renamed package's files are parsed again (the snapshot key covers Cargo.toml files).
      expect(report?.filesParsed).toBe(2);
      const lines = await graph.lines();
      expect(lines).toContain('util/src/strings.rs:2 calls strings_kit::strings::shout -> ∅ [to_uppercase] unresolved:dynamic');
      // `text_util::…` is no crate of the codebase any more.
      expect(lines).toContain('shop/tests/smoke.rs:7 calls shop-tests::smoke::smoke -> ∅ [pad] unresolved:not-found');
      expect(lines).toContain('shop/src/store/catalog.rs:2 imports shop::store::catalog -> ∅ [text_util::strings] unresolved:external');
      const fresh = await CKGDatabase.open({ codebasePath: graph.tree.root, fs: graph.tree.fs });
      try {
        expect((await fresh.edges()).map((e) => edgeLine(e, graph.tree.root))).toEqual(lines);
      } finally {
        fresh.close();
      }
    } finally {
      graph.close();
    }
  });
});

describe.each(BACKENDS)('rust incremental updates on %s', (backend) => {
  it('keep edges equal to a fresh build through edits across crates', async () => {
    const files = graphFixture('rust');
    const replace = (path: string, from: string, to: string) => (f: Record<string, string | null>) => {
      expect(f[path]).toContain(from);
      f[path] = f[path]!.replace(from, to);
    };
    await expectExactThrough(files, backend, [
      // A trait impl goes: the default method is no longer reachable from Gift.
      replace('shop/src/models.rs', 'impl Describe for Gift {', 'impl Gift {'),
      // A re-export is renamed: `use crate::store::Catalog` and its calls lose their target.
      replace('shop/src/store/mod.rs', 'pub use self::catalog::Catalog;', 'pub use self::catalog::Catalog as Shelf;'),
      // A function moves to another module of its crate, and its caller follows it.
      replace('util/src/strings.rs', 'pub fn pad(', 'pub fn pad_old('),
      (f) => void (f['util/src/pad.rs'] = 'pub fn pad(s: &str) -> String {\n    s.to_string()\n}\n'),
      replace('util/src/lib.rs', 'pub mod strings;', 'pub mod strings;\npub mod pad;'),
      replace('shop/src/store/catalog.rs', 'use text_util::strings::{self as st, shout};', 'use text_util::{pad as st, strings::shout};'),
      // A module file is deleted.
      (f) => void (f['shop/src/store/catalog.rs'] = null),
    ]);
  });
});

describe.each(BACKENDS)('rust crate naming on %s', (backend) => {
  it('reads [lib] name and path, names build scripts and files without a package', async () => {
    const graph = await openGraph(
      {
        'core/Cargo.toml': '[package]\nname = "core-impl"\n\n[lib]\nname = "kernel"\npath = "lib.rs"\n',
        'core/lib.rs': 'pub mod mem;\n\npub fn init() {\n    mem::zero();\n}\n',
        'core/mem.rs': 'pub fn zero() {}\n',
        'core/build.rs': 'fn main() {\n    kernel::init();\n}\n',
        // No Cargo.toml above: the crate is `crate`, the innermost `src/` its source folder.
        'loose/src/lib.rs': 'mod a;\n\nfn go() {\n    a::run();\n    crate::a::run();\n}\n',
        'loose/src/a.rs': 'pub fn run() {\n    super::go();\n}\n',
      },
      backend,
    );
    try {
      expect(await graph.lines({ kind: 'calls' })).toEqual([
        // build.rs is a crate of its own: it calls the library by its name.
        'core/build.rs:2 calls kernel-build::main -> kernel::init [init] import',
        'core/lib.rs:4 calls kernel::init -> kernel::mem::zero [zero] import',
        'loose/src/a.rs:2 calls crate::a::run -> crate::go [go] import',
        'loose/src/lib.rs:4 calls crate::go -> crate::a::run [run] import',
        'loose/src/lib.rs:5 calls crate::go -> crate::a::run [run] import',
      ]);
    } finally {
      graph.close();
    }
  });
});
