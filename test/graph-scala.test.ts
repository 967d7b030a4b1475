// The Scala code graph on a small multi-file shop (test/fixtures/graph/scala): every edge, exactly.
// Shown: the package as module, chained package clauses (`package com.acme` / `package shop`: the
// outer package's `Config` is visible); imports of classes, objects, an object's member
// (`Strings.factorial`), selectors with a rename (`{capitalize => cap}`) and wildcards; same-package
// objects without an import (`Helper.audit`); companions: `new Item(…)` is the class, `Item.free`
// and `Catalog.create()` the object; `new Foo(…)` targets the class; a header's `Base(name)` is a
// base and a constructor call; typed receivers from parameters, `val x: Foo`, class parameters
// (`catalog.find`, `this.catalog`); `super.m()`, implicit-this calls, inherited methods from a base
// class or trait in another file, an inner class; recursion; overloads picked by argument count
// (`add(Item)` / `add(String, Int)`, `item.log("added")` → `Base.log` past `Item.log(String, Int)`).
// Unresolved, as they must be: overloads of one argument count (`remove`), methods of call results (chained `…get.price()`), lambda
// parameters, a call of a function-typed parameter (`action(…)`), a library import whose simple name
// the codebase also has (`org.apache.commons.lang3.StringUtils`), plain calls in a class with a base
// outside the codebase (`cap` in `Watcher`) or in an anonymous class body (`flush`), `hashCode()`.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'src/main/scala/com/acme/App.scala:3 imports com.acme -> com.acme.model.Item [com.acme.model.Item] import',
  'src/main/scala/com/acme/App.scala:4 imports com.acme -> com.acme.shop [com.acme.shop] import',
  'src/main/scala/com/acme/App.scala:5 imports com.acme -> com.acme.util.Strings [com.acme.util.Strings] import',
  'src/main/scala/com/acme/App.scala:6 imports com.acme -> com.acme.util.Strings.factorial [com.acme.util.Strings.factorial] import',
  'src/main/scala/com/acme/App.scala:7 imports com.acme -> ∅ [org.apache.commons.lang3.StringUtils] unresolved:external',
  'src/main/scala/com/acme/App.scala:10 contains com.acme.App -> com.acme.App.main [main] local',
  'src/main/scala/com/acme/App.scala:11 calls com.acme.App.main -> com.acme.shop.Catalog.create [create] import',
  'src/main/scala/com/acme/App.scala:12 calls com.acme.App.main -> com.acme.shop.Cart [Cart] import',
  'src/main/scala/com/acme/App.scala:13 calls com.acme.App.main -> com.acme.shop.Cart.put [put] typed',
  'src/main/scala/com/acme/App.scala:14 calls com.acme.App.main -> com.acme.shop.Cart.total [total] typed',
  'src/main/scala/com/acme/App.scala:15 calls com.acme.App.main -> com.acme.model.Item [Item] import',
  'src/main/scala/com/acme/App.scala:15 calls com.acme.App.main -> com.acme.model.Priced.label [label] typed',
  'src/main/scala/com/acme/App.scala:16 calls com.acme.App.main -> ∅ [add] unresolved:dynamic',
  'src/main/scala/com/acme/App.scala:16 calls com.acme.App.main -> com.acme.shop.Catalog.create [create] import',
  'src/main/scala/com/acme/App.scala:17 calls com.acme.App.main -> ∅ [join] unresolved:external',
  'src/main/scala/com/acme/App.scala:17 calls com.acme.App.main -> com.acme.util.Strings.slug [slug] import',
  'src/main/scala/com/acme/App.scala:18 calls com.acme.App.main -> com.acme.model.Item [Item] import',
  'src/main/scala/com/acme/App.scala:18 calls com.acme.App.main -> ∅ [List] unresolved:builtin',
  'src/main/scala/com/acme/App.scala:19 calls com.acme.App.main -> ∅ [describe] unresolved:dynamic',
  'src/main/scala/com/acme/App.scala:22 calls com.acme.App.main -> com.acme.shop.Catalog.each [each] typed',
  'src/main/scala/com/acme/App.scala:22 calls com.acme.App.main -> ∅ [log] unresolved:dynamic',
  'src/main/scala/com/acme/App.scala:23 calls com.acme.App.main -> com.acme.util.Strings.factorial [factorial] import',
  'src/main/scala/com/acme/App.scala:24 calls com.acme.App.main -> com.acme.App.run [run] self',
  'src/main/scala/com/acme/App.scala:25 calls com.acme.App.main -> com.acme.model.Item.free [free] import',
  'src/main/scala/com/acme/App.scala:28 contains com.acme.App -> com.acme.App.run [run] local',
  'src/main/scala/com/acme/App.scala:29 calls com.acme.App.run -> ∅ [describe] unresolved:dynamic',
  'src/main/scala/com/acme/App.scala:29 calls com.acme.App.run -> com.acme.shop.Catalog.find [find] typed',
  'src/main/scala/com/acme/App.scala:30 calls com.acme.App.run -> com.acme.shop.Catalog.each [each] typed',
  'src/main/scala/com/acme/App.scala:31 calls com.acme.App.run -> ∅ [remove] unresolved:ambiguous',
  'src/main/scala/com/acme/App.scala:34 contains com.acme.App -> com.acme.App.show [show] local',
  'src/main/scala/com/acme/App.scala:38 contains com.acme.Config -> com.acme.Config.currency [currency] local',
  'src/main/scala/com/acme/model/Base.scala:4 contains com.acme.model.Base -> com.acme.model.Base.log [log] local',
  'src/main/scala/com/acme/model/Base.scala:5 calls com.acme.model.Base.log -> ∅ [println] unresolved:builtin',
  'src/main/scala/com/acme/model/Base.scala:8 contains com.acme.model.Base -> com.acme.model.Base.describe [describe] local',
  'src/main/scala/com/acme/model/Base.scala:10 contains com.acme.model.Base -> com.acme.model.Base.total [total] local',
  'src/main/scala/com/acme/model/Item.scala:3 calls com.acme.model.Item -> com.acme.model.Base [Base] package',
  'src/main/scala/com/acme/model/Item.scala:3 implements com.acme.model.Item -> com.acme.model.Priced [Priced] package',
  'src/main/scala/com/acme/model/Item.scala:3 inherits com.acme.model.Item -> com.acme.model.Base [Base] package',
  'src/main/scala/com/acme/model/Item.scala:4 contains com.acme.model.Item -> com.acme.model.Item.price [price] local',
  'src/main/scala/com/acme/model/Item.scala:6 calls com.acme.model.Item.describe -> com.acme.model.Base.describe [describe] super',
  'src/main/scala/com/acme/model/Item.scala:6 calls com.acme.model.Item.describe -> com.acme.model.Priced.label [label] self',
  'src/main/scala/com/acme/model/Item.scala:6 contains com.acme.model.Item -> com.acme.model.Item.describe [describe] local',
  'src/main/scala/com/acme/model/Item.scala:8 calls com.acme.model.Item.toString -> com.acme.model.Item.describe [describe] self',
  'src/main/scala/com/acme/model/Item.scala:8 contains com.acme.model.Item -> com.acme.model.Item.toString [toString] local',
  'src/main/scala/com/acme/model/Item.scala:10 calls com.acme.model.Item.log -> com.acme.model.Base.log [log] self',
  'src/main/scala/com/acme/model/Item.scala:10 contains com.acme.model.Item -> com.acme.model.Item.log [log] local',
  'src/main/scala/com/acme/model/Item.scala:14 calls com.acme.model.Item.free -> com.acme.model.Item [Item] local',
  'src/main/scala/com/acme/model/Item.scala:14 contains com.acme.model.Item -> com.acme.model.Item.free [free] local',
  'src/main/scala/com/acme/model/Priced.scala:4 contains com.acme.model.Priced -> com.acme.model.Priced.price [price] local',
  'src/main/scala/com/acme/model/Priced.scala:6 calls com.acme.model.Priced.label -> com.acme.model.Priced.price [price] self',
  'src/main/scala/com/acme/model/Priced.scala:6 contains com.acme.model.Priced -> com.acme.model.Priced.label [label] local',
  'src/main/scala/com/acme/shop/Cart.scala:3 imports com.acme.shop -> com.acme.model [com.acme.model] import',
  'src/main/scala/com/acme/shop/Cart.scala:4 imports com.acme.shop -> com.acme.util.Strings [com.acme.util.Strings] import',
  'src/main/scala/com/acme/shop/Cart.scala:5 imports com.acme.shop -> ∅ [java.util.Observable] unresolved:external',
  'src/main/scala/com/acme/shop/Cart.scala:7 calls com.acme.shop.Cart -> com.acme.model.Base [Base] import',
  'src/main/scala/com/acme/shop/Cart.scala:7 inherits com.acme.shop.Cart -> com.acme.model.Base [Base] import',
  'src/main/scala/com/acme/shop/Cart.scala:8 contains com.acme.shop.Cart -> com.acme.shop.Cart.put [put] local',
  'src/main/scala/com/acme/shop/Cart.scala:9 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/scala/com/acme/shop/Cart.scala:10 calls com.acme.shop.Cart.put -> com.acme.util.Strings.capitalize [cap] import',
  'src/main/scala/com/acme/shop/Cart.scala:10 calls com.acme.shop.Cart.put -> com.acme.model.Base.log [log] self',
  'src/main/scala/com/acme/shop/Cart.scala:11 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.add [add] typed',
  'src/main/scala/com/acme/shop/Cart.scala:12 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/scala/com/acme/shop/Cart.scala:12 calls com.acme.shop.Cart.put -> ∅ [price] unresolved:dynamic',
  'src/main/scala/com/acme/shop/Cart.scala:15 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt [Receipt] self',
  'src/main/scala/com/acme/shop/Cart.scala:15 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt.sum [sum] typed',
  'src/main/scala/com/acme/shop/Cart.scala:15 calls com.acme.shop.Cart.total -> com.acme.model.Base.total [total] super',
  'src/main/scala/com/acme/shop/Cart.scala:15 contains com.acme.shop.Cart -> com.acme.shop.Cart.total [total] local',
  'src/main/scala/com/acme/shop/Cart.scala:17 contains com.acme.shop.Cart -> com.acme.shop.Cart.Receipt [Receipt] local',
  'src/main/scala/com/acme/shop/Cart.scala:18 calls com.acme.shop.Cart.Receipt.sum -> ∅ [hashCode] unresolved:not-found',
  'src/main/scala/com/acme/shop/Cart.scala:18 calls com.acme.shop.Cart.Receipt.sum -> com.acme.shop.Cart.total [total] self',
  'src/main/scala/com/acme/shop/Cart.scala:18 contains com.acme.shop.Cart.Receipt -> com.acme.shop.Cart.Receipt.sum [sum] local',
  'src/main/scala/com/acme/shop/Cart.scala:21 contains com.acme.shop.Cart -> com.acme.shop.Cart.Watcher [Watcher] local',
  'src/main/scala/com/acme/shop/Cart.scala:21 inherits com.acme.shop.Cart.Watcher -> ∅ [Observable] unresolved:external',
  'src/main/scala/com/acme/shop/Cart.scala:22 contains com.acme.shop.Cart.Watcher -> com.acme.shop.Cart.Watcher.ping [ping] local',
  'src/main/scala/com/acme/shop/Cart.scala:23 calls com.acme.shop.Cart.Watcher.ping -> ∅ [cap] unresolved:external',
  'src/main/scala/com/acme/shop/Cart.scala:24 calls com.acme.shop.Cart.Watcher.ping -> ∅ [notifyObservers] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:4 imports com.acme.shop -> com.acme.model [com.acme.model] import',
  'src/main/scala/com/acme/shop/Catalog.scala:5 imports com.acme.shop -> ∅ [scala.collection.mutable.ListBuffer] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:8 calls com.acme.shop.Catalog -> ∅ [ListBuffer] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:9 calls com.acme.shop.Catalog -> com.acme.shop.Helper.audit [audit] package',
  'src/main/scala/com/acme/shop/Catalog.scala:11 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/scala/com/acme/shop/Catalog.scala:12 calls com.acme.shop.Catalog.add -> ∅ [append] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:13 calls com.acme.shop.Catalog.add -> com.acme.model.Base.log [log] typed',
  'src/main/scala/com/acme/shop/Catalog.scala:16 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/scala/com/acme/shop/Catalog.scala:17 calls com.acme.shop.Catalog.add -> com.acme.model.Item [Item] import',
  'src/main/scala/com/acme/shop/Catalog.scala:17 calls com.acme.shop.Catalog.add -> com.acme.shop.Catalog.add [add] self',
  'src/main/scala/com/acme/shop/Catalog.scala:20 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.find [find] local',
  'src/main/scala/com/acme/shop/Catalog.scala:22 calls com.acme.shop.Catalog.find -> ∅ [Some] unresolved:builtin',
  'src/main/scala/com/acme/shop/Catalog.scala:22 calls com.acme.shop.Catalog.find -> ∅ [describe] unresolved:dynamic',
  'src/main/scala/com/acme/shop/Catalog.scala:24 calls com.acme.shop.Catalog.find -> ∅ [describe] unresolved:dynamic',
  'src/main/scala/com/acme/shop/Catalog.scala:24 calls com.acme.shop.Catalog.find -> ∅ [find] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:27 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.each [each] local',
  'src/main/scala/com/acme/shop/Catalog.scala:28 calls com.acme.shop.Catalog.each -> ∅ [foreach] unresolved:external',
  'src/main/scala/com/acme/shop/Catalog.scala:29 calls com.acme.shop.Catalog.each -> com.acme.model.Item [Item] import',
  'src/main/scala/com/acme/shop/Catalog.scala:29 calls com.acme.shop.Catalog.each -> ∅ [action] unresolved:parameter',
  'src/main/scala/com/acme/shop/Catalog.scala:32 calls com.acme.shop.Catalog.currency -> com.acme.Config.currency [currency] import',
  'src/main/scala/com/acme/shop/Catalog.scala:32 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.currency [currency] local',
  'src/main/scala/com/acme/shop/Catalog.scala:34 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/scala/com/acme/shop/Catalog.scala:36 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/scala/com/acme/shop/Catalog.scala:40 calls com.acme.shop.Catalog.create -> com.acme.shop.Catalog [Catalog] local',
  'src/main/scala/com/acme/shop/Catalog.scala:40 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.create [create] local',
  'src/main/scala/com/acme/shop/Helper.scala:4 contains com.acme.shop.Helper -> com.acme.shop.Helper.audit [audit] local',
  'src/main/scala/com/acme/shop/Helper.scala:5 calls com.acme.shop.Helper.audit -> ∅ [Runnable] unresolved:builtin',
  'src/main/scala/com/acme/shop/Helper.scala:6 contains com.acme.shop.Helper.audit -> com.acme.shop.Helper.audit.run [run] local',
  'src/main/scala/com/acme/shop/Helper.scala:7 calls com.acme.shop.Helper.audit.run -> ∅ [flush] unresolved:dynamic',
  'src/main/scala/com/acme/shop/Helper.scala:8 calls com.acme.shop.Helper.audit.run -> com.acme.shop.Helper.audit.report [report] local',
  'src/main/scala/com/acme/shop/Helper.scala:11 contains com.acme.shop.Helper.audit -> com.acme.shop.Helper.audit.report [report] local',
  'src/main/scala/com/acme/shop/Helper.scala:13 calls com.acme.shop.Helper.audit -> ∅ [run] unresolved:dynamic',
  'src/main/scala/com/acme/shop/Helper.scala:16 contains com.acme.shop.Helper -> com.acme.shop.Helper.flush [flush] local',
  'src/main/scala/com/acme/util/StringUtils.scala:4 contains com.acme.util.StringUtils -> com.acme.util.StringUtils.join [join] local',
  'src/main/scala/com/acme/util/Strings.scala:4 calls com.acme.util.Strings.slug -> ∅ [replace] unresolved:dynamic',
  'src/main/scala/com/acme/util/Strings.scala:4 calls com.acme.util.Strings.slug -> ∅ [toLowerCase] unresolved:builtin',
  'src/main/scala/com/acme/util/Strings.scala:4 contains com.acme.util.Strings -> com.acme.util.Strings.slug [slug] local',
  'src/main/scala/com/acme/util/Strings.scala:6 calls com.acme.util.Strings.capitalize -> ∅ [drop] unresolved:builtin',
  'src/main/scala/com/acme/util/Strings.scala:6 calls com.acme.util.Strings.capitalize -> com.acme.util.Strings.slug [slug] self',
  'src/main/scala/com/acme/util/Strings.scala:6 calls com.acme.util.Strings.capitalize -> ∅ [take] unresolved:builtin',
  'src/main/scala/com/acme/util/Strings.scala:6 contains com.acme.util.Strings -> com.acme.util.Strings.capitalize [capitalize] local',
  'src/main/scala/com/acme/util/Strings.scala:8 calls com.acme.util.Strings.factorial -> com.acme.util.Strings.factorial [factorial] self',
  'src/main/scala/com/acme/util/Strings.scala:8 contains com.acme.util.Strings -> com.acme.util.Strings.factorial [factorial] local',
];

/** Resolved calls of overloaded names with the line of the definition they picked (overloads share a qualified name). */
const PICKED = [
  'src/main/scala/com/acme/model/Item.scala:10 [log] -> com.acme.model.Base.log:4',
  'src/main/scala/com/acme/shop/Cart.scala:10 [log] -> com.acme.model.Base.log:4',
  'src/main/scala/com/acme/shop/Cart.scala:11 [add] -> com.acme.shop.Catalog.add:11',
  'src/main/scala/com/acme/shop/Catalog.scala:13 [log] -> com.acme.model.Base.log:4',
  'src/main/scala/com/acme/shop/Catalog.scala:17 [add] -> com.acme.shop.Catalog.add:11',
];
const OVERLOADED = new Set(['add', 'log', 'remove']);

describe.each(BACKENDS)('scala code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('scala'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
      const picked = (await graph.db.edges({ kind: 'calls' }))
        .filter((e) => e.to !== null && OVERLOADED.has(e.toName))
        .map((e) => `${e.filePath.slice(graph.tree.root.length + 1)}:${e.line} [${e.toName}] -> ${e.to!.qualifiedName}:${e.to!.startLine}`);
      expect(picked).toEqual(PICKED);
    } finally {
      graph.close();
    }
  });
});
