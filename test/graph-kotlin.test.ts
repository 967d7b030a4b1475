// The Kotlin code graph on a small multi-file shop (test/fixtures/graph/kotlin): every edge, exactly.
// Shown: the package as module; imports of classes, of top-level functions (`com.acme.shop.create`,
// `com.acme.util.factorial`) and of an object's member under an alias (`Strings.capitalize as cap`),
// `.*` imports; same-package top-level functions without an import (`audit`); `Foo(…)` targets the
// class (its primary constructor is no symbol); a class header's `Base(name)` is both a base and a
// constructor call; typed receivers from parameters, `val x = Foo()`, `for (x: Foo in …)` and
// constructor properties (`catalog.find`, `this.catalog`); `super.m()`, implicit-this calls,
// inherited methods from a base class or interface in another file, an inner class; supertypes
// written without a call, told apart by their declarations (`Bundle : Priced, Base`, whose
// `super(name)` constructs Base); objects
// (`Strings.slug`); recursion; overloads picked by argument count (`add(Item)` / `add(String, Int)`,
// `item.log("added")` → `Base.log` past `Item.log(String, Int)`). Unresolved, as they must be:
// overloads of one argument count (`remove`), methods of call results and of `val x = f()` for a function f, lambda parameters (`it`,
// `i ->`), a call of a function-typed parameter (`action(…)`), a library import whose simple name
// the codebase also has (`org.apache.commons.lang3.StringUtils`), plain calls in a class with a base
// outside the codebase (`cap` in `Watcher`), in an anonymous `object :` body (`flush`), in a lambda
// that may have a receiver of its own (`apply { describe() }`), in an extension of a type outside the
// codebase (`uppercase()` in `String.shout`: one of String's members, `external`), `hashCode()`.
// A companion object's member through its class (`Item.free`) is the companion's. (Extension functions of the
// codebase's classes: graph-kotlin-extensions.test.ts.)
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'src/main/kotlin/com/acme/App.kt:3 imports com.acme -> com.acme.model.Item [com.acme.model.Item] import',
  'src/main/kotlin/com/acme/App.kt:4 imports com.acme -> com.acme.shop.Cart [com.acme.shop.Cart] import',
  'src/main/kotlin/com/acme/App.kt:5 imports com.acme -> com.acme.shop.Catalog [com.acme.shop.Catalog] import',
  'src/main/kotlin/com/acme/App.kt:6 imports com.acme -> com.acme.shop.create [com.acme.shop.create] import',
  'src/main/kotlin/com/acme/App.kt:7 imports com.acme -> com.acme.util.Strings [com.acme.util.Strings] import',
  'src/main/kotlin/com/acme/App.kt:8 imports com.acme -> com.acme.util.factorial [com.acme.util.factorial] import',
  'src/main/kotlin/com/acme/App.kt:9 imports com.acme -> com.acme.util.shout [com.acme.util.shout] import',
  'src/main/kotlin/com/acme/App.kt:10 imports com.acme -> ∅ [org.apache.commons.lang3.StringUtils] unresolved:external',
  'src/main/kotlin/com/acme/App.kt:13 calls com.acme.main -> com.acme.shop.create [create] import',
  'src/main/kotlin/com/acme/App.kt:14 calls com.acme.main -> com.acme.shop.Cart [Cart] import',
  'src/main/kotlin/com/acme/App.kt:15 calls com.acme.main -> com.acme.shop.Cart.put [put] typed',
  'src/main/kotlin/com/acme/App.kt:16 calls com.acme.main -> com.acme.shop.Cart.total [total] typed',
  'src/main/kotlin/com/acme/App.kt:17 calls com.acme.main -> com.acme.model.Item [Item] import',
  'src/main/kotlin/com/acme/App.kt:17 calls com.acme.main -> com.acme.model.Priced.label [label] typed',
  'src/main/kotlin/com/acme/App.kt:18 calls com.acme.main -> ∅ [add] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:18 calls com.acme.main -> com.acme.shop.create [create] import',
  'src/main/kotlin/com/acme/App.kt:19 calls com.acme.main -> com.acme.model.Item [Item] import',
  'src/main/kotlin/com/acme/App.kt:19 calls com.acme.main -> ∅ [add] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:20 calls com.acme.main -> ∅ [join] unresolved:external',
  'src/main/kotlin/com/acme/App.kt:20 calls com.acme.main -> com.acme.util.Strings.slug [slug] import',
  'src/main/kotlin/com/acme/App.kt:21 calls com.acme.main -> com.acme.model.Item [Item] import',
  'src/main/kotlin/com/acme/App.kt:21 calls com.acme.main -> ∅ [listOf] unresolved:builtin',
  'src/main/kotlin/com/acme/App.kt:22 calls com.acme.main -> com.acme.model.Item.describe [describe] typed',
  'src/main/kotlin/com/acme/App.kt:24 calls com.acme.main -> ∅ [each] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:24 calls com.acme.main -> ∅ [log] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:25 calls com.acme.main -> com.acme.util.factorial [factorial] import',
  'src/main/kotlin/com/acme/App.kt:26 calls com.acme.main -> com.acme.run [run] local',
  'src/main/kotlin/com/acme/App.kt:27 calls com.acme.main -> ∅ [shout] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:28 calls com.acme.main -> com.acme.model.Item.Companion.free [free] import',
  'src/main/kotlin/com/acme/App.kt:32 calls com.acme.run -> ∅ [describe] unresolved:dynamic',
  'src/main/kotlin/com/acme/App.kt:32 calls com.acme.run -> com.acme.shop.Catalog.find [find] typed',
  'src/main/kotlin/com/acme/App.kt:33 calls com.acme.run -> com.acme.shop.Catalog.each [each] typed',
  'src/main/kotlin/com/acme/App.kt:34 calls com.acme.run -> ∅ [remove] unresolved:ambiguous',
  'src/main/kotlin/com/acme/model/Base.kt:4 contains com.acme.model.Base -> com.acme.model.Base.log [log] local',
  'src/main/kotlin/com/acme/model/Base.kt:5 calls com.acme.model.Base.log -> ∅ [println] unresolved:builtin',
  'src/main/kotlin/com/acme/model/Base.kt:8 contains com.acme.model.Base -> com.acme.model.Base.describe [describe] local',
  'src/main/kotlin/com/acme/model/Base.kt:10 contains com.acme.model.Base -> com.acme.model.Base.total [total] local',
  // Both supertypes are written without a call: the declarations tell the interface from the superclass.
  'src/main/kotlin/com/acme/model/Bundle.kt:5 implements com.acme.model.Bundle -> com.acme.model.Priced [Priced] package',
  'src/main/kotlin/com/acme/model/Bundle.kt:5 inherits com.acme.model.Bundle -> com.acme.model.Base [Base] package',
  'src/main/kotlin/com/acme/model/Bundle.kt:6 calls com.acme.model.Bundle.Bundle -> com.acme.model.Base [super] super',
  'src/main/kotlin/com/acme/model/Bundle.kt:6 contains com.acme.model.Bundle -> com.acme.model.Bundle.Bundle [Bundle] local',
  'src/main/kotlin/com/acme/model/Bundle.kt:8 contains com.acme.model.Bundle -> com.acme.model.Bundle.price [price] local',
  'src/main/kotlin/com/acme/model/Item.kt:3 calls com.acme.model.Item -> com.acme.model.Base [Base] package',
  'src/main/kotlin/com/acme/model/Item.kt:3 implements com.acme.model.Item -> com.acme.model.Priced [Priced] package',
  'src/main/kotlin/com/acme/model/Item.kt:3 inherits com.acme.model.Item -> com.acme.model.Base [Base] package',
  'src/main/kotlin/com/acme/model/Item.kt:4 contains com.acme.model.Item -> com.acme.model.Item.Item [Item] local',
  'src/main/kotlin/com/acme/model/Item.kt:6 contains com.acme.model.Item -> com.acme.model.Item.price [price] local',
  'src/main/kotlin/com/acme/model/Item.kt:8 calls com.acme.model.Item.describe -> com.acme.model.Base.describe [describe] super',
  'src/main/kotlin/com/acme/model/Item.kt:8 calls com.acme.model.Item.describe -> com.acme.model.Priced.label [label] self',
  'src/main/kotlin/com/acme/model/Item.kt:8 contains com.acme.model.Item -> com.acme.model.Item.describe [describe] local',
  'src/main/kotlin/com/acme/model/Item.kt:10 calls com.acme.model.Item.toString -> com.acme.model.Item.describe [describe] self',
  'src/main/kotlin/com/acme/model/Item.kt:10 contains com.acme.model.Item -> com.acme.model.Item.toString [toString] local',
  'src/main/kotlin/com/acme/model/Item.kt:12 contains com.acme.model.Item -> com.acme.model.Item.log [log] local',
  'src/main/kotlin/com/acme/model/Item.kt:13 calls com.acme.model.Item.log -> com.acme.model.Base.log [log] self',
  'src/main/kotlin/com/acme/model/Item.kt:16 contains com.acme.model.Item -> com.acme.model.Item.Companion [Companion] local',
  'src/main/kotlin/com/acme/model/Item.kt:17 calls com.acme.model.Item.Companion.free -> com.acme.model.Item [Item] local',
  'src/main/kotlin/com/acme/model/Item.kt:17 contains com.acme.model.Item.Companion -> com.acme.model.Item.Companion.free [free] local',
  'src/main/kotlin/com/acme/model/Priced.kt:4 contains com.acme.model.Priced -> com.acme.model.Priced.price [price] local',
  'src/main/kotlin/com/acme/model/Priced.kt:6 calls com.acme.model.Priced.label -> com.acme.model.Priced.price [price] self',
  'src/main/kotlin/com/acme/model/Priced.kt:6 contains com.acme.model.Priced -> com.acme.model.Priced.label [label] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:3 imports com.acme.shop -> com.acme.model.Base [com.acme.model.Base] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:4 imports com.acme.shop -> com.acme.model.Item [com.acme.model.Item] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:5 imports com.acme.shop -> com.acme.util.Strings.capitalize [com.acme.util.Strings.capitalize] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:6 imports com.acme.shop -> ∅ [java.util.Observable] unresolved:external',
  'src/main/kotlin/com/acme/shop/Cart.kt:8 calls com.acme.shop.Cart -> com.acme.model.Base [Base] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:8 inherits com.acme.shop.Cart -> com.acme.model.Base [Base] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:9 contains com.acme.shop.Cart -> com.acme.shop.Cart.put [put] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:10 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/kotlin/com/acme/shop/Cart.kt:11 calls com.acme.shop.Cart.put -> com.acme.util.Strings.capitalize [cap] import',
  'src/main/kotlin/com/acme/shop/Cart.kt:11 calls com.acme.shop.Cart.put -> com.acme.model.Base.log [log] self',
  'src/main/kotlin/com/acme/shop/Cart.kt:12 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.add [add] typed',
  'src/main/kotlin/com/acme/shop/Cart.kt:13 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/kotlin/com/acme/shop/Cart.kt:13 calls com.acme.shop.Cart.put -> ∅ [price] unresolved:dynamic',
  'src/main/kotlin/com/acme/shop/Cart.kt:14 calls com.acme.shop.Cart.put -> ∅ [apply] unresolved:builtin',
  'src/main/kotlin/com/acme/shop/Cart.kt:14 calls com.acme.shop.Cart.put -> ∅ [describe] unresolved:dynamic',
  'src/main/kotlin/com/acme/shop/Cart.kt:17 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt [Receipt] self',
  'src/main/kotlin/com/acme/shop/Cart.kt:17 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt.sum [sum] typed',
  'src/main/kotlin/com/acme/shop/Cart.kt:17 calls com.acme.shop.Cart.total -> com.acme.model.Base.total [total] super',
  'src/main/kotlin/com/acme/shop/Cart.kt:17 contains com.acme.shop.Cart -> com.acme.shop.Cart.total [total] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:19 contains com.acme.shop.Cart -> com.acme.shop.Cart.Receipt [Receipt] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:20 calls com.acme.shop.Cart.Receipt.sum -> ∅ [hashCode] unresolved:not-found',
  'src/main/kotlin/com/acme/shop/Cart.kt:20 calls com.acme.shop.Cart.Receipt.sum -> com.acme.shop.Cart.total [total] self',
  'src/main/kotlin/com/acme/shop/Cart.kt:20 contains com.acme.shop.Cart.Receipt -> com.acme.shop.Cart.Receipt.sum [sum] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:23 calls com.acme.shop.Cart.Watcher -> ∅ [Observable] unresolved:external',
  'src/main/kotlin/com/acme/shop/Cart.kt:23 contains com.acme.shop.Cart -> com.acme.shop.Cart.Watcher [Watcher] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:23 inherits com.acme.shop.Cart.Watcher -> ∅ [Observable] unresolved:external',
  'src/main/kotlin/com/acme/shop/Cart.kt:24 contains com.acme.shop.Cart.Watcher -> com.acme.shop.Cart.Watcher.ping [ping] local',
  'src/main/kotlin/com/acme/shop/Cart.kt:25 calls com.acme.shop.Cart.Watcher.ping -> ∅ [cap] unresolved:external',
  'src/main/kotlin/com/acme/shop/Cart.kt:26 calls com.acme.shop.Cart.Watcher.ping -> ∅ [notifyObservers] unresolved:external',
  'src/main/kotlin/com/acme/shop/Catalog.kt:3 imports com.acme.shop -> com.acme.model [com.acme.model] import',
  'src/main/kotlin/com/acme/shop/Catalog.kt:6 calls com.acme.shop.Catalog -> ∅ [mutableListOf] unresolved:builtin',
  'src/main/kotlin/com/acme/shop/Catalog.kt:9 calls com.acme.shop.Catalog -> com.acme.shop.audit [audit] package',
  'src/main/kotlin/com/acme/shop/Catalog.kt:12 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:13 calls com.acme.shop.Catalog.add -> ∅ [add] unresolved:builtin',
  'src/main/kotlin/com/acme/shop/Catalog.kt:14 calls com.acme.shop.Catalog.add -> com.acme.model.Base.log [log] typed',
  'src/main/kotlin/com/acme/shop/Catalog.kt:17 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:18 calls com.acme.shop.Catalog.add -> com.acme.model.Item [Item] import',
  'src/main/kotlin/com/acme/shop/Catalog.kt:18 calls com.acme.shop.Catalog.add -> com.acme.shop.Catalog.add [add] self',
  'src/main/kotlin/com/acme/shop/Catalog.kt:21 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.find [find] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:23 calls com.acme.shop.Catalog.find -> ∅ [describe] unresolved:dynamic',
  'src/main/kotlin/com/acme/shop/Catalog.kt:25 calls com.acme.shop.Catalog.find -> ∅ [describe] unresolved:dynamic',
  'src/main/kotlin/com/acme/shop/Catalog.kt:25 calls com.acme.shop.Catalog.find -> ∅ [firstOrNull] unresolved:builtin',
  'src/main/kotlin/com/acme/shop/Catalog.kt:28 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.each [each] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:29 calls com.acme.shop.Catalog.each -> ∅ [forEach] unresolved:builtin',
  'src/main/kotlin/com/acme/shop/Catalog.kt:30 calls com.acme.shop.Catalog.each -> com.acme.model.Item [Item] import',
  'src/main/kotlin/com/acme/shop/Catalog.kt:30 calls com.acme.shop.Catalog.each -> ∅ [action] unresolved:parameter',
  'src/main/kotlin/com/acme/shop/Catalog.kt:33 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:35 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/kotlin/com/acme/shop/Catalog.kt:38 calls com.acme.shop.create -> com.acme.shop.Catalog [Catalog] local',
  'src/main/kotlin/com/acme/shop/Helper.kt:5 contains com.acme.shop.audit -> com.acme.shop.audit.run [run] local',
  'src/main/kotlin/com/acme/shop/Helper.kt:6 calls com.acme.shop.audit.run -> ∅ [flush] unresolved:dynamic',
  'src/main/kotlin/com/acme/shop/Helper.kt:7 calls com.acme.shop.audit.run -> com.acme.shop.audit.report [report] local',
  'src/main/kotlin/com/acme/shop/Helper.kt:10 contains com.acme.shop.audit -> com.acme.shop.audit.report [report] local',
  'src/main/kotlin/com/acme/shop/Helper.kt:12 calls com.acme.shop.audit -> ∅ [run] unresolved:dynamic',
  'src/main/kotlin/com/acme/util/StringUtils.kt:4 contains com.acme.util.StringUtils -> com.acme.util.StringUtils.join [join] local',
  'src/main/kotlin/com/acme/util/Strings.kt:4 calls com.acme.util.Strings.slug -> ∅ [lowercase] unresolved:builtin',
  'src/main/kotlin/com/acme/util/Strings.kt:4 calls com.acme.util.Strings.slug -> ∅ [replace] unresolved:dynamic',
  'src/main/kotlin/com/acme/util/Strings.kt:4 contains com.acme.util.Strings -> com.acme.util.Strings.slug [slug] local',
  'src/main/kotlin/com/acme/util/Strings.kt:6 calls com.acme.util.Strings.capitalize -> ∅ [drop] unresolved:builtin',
  'src/main/kotlin/com/acme/util/Strings.kt:6 calls com.acme.util.Strings.capitalize -> ∅ [isEmpty] unresolved:builtin',
  'src/main/kotlin/com/acme/util/Strings.kt:6 calls com.acme.util.Strings.capitalize -> com.acme.util.Strings.slug [slug] self',
  'src/main/kotlin/com/acme/util/Strings.kt:6 calls com.acme.util.Strings.capitalize -> ∅ [take] unresolved:builtin',
  'src/main/kotlin/com/acme/util/Strings.kt:6 contains com.acme.util.Strings -> com.acme.util.Strings.capitalize [capitalize] local',
  'src/main/kotlin/com/acme/util/Strings.kt:9 calls com.acme.util.factorial -> com.acme.util.factorial [factorial] local',
  'src/main/kotlin/com/acme/util/Strings.kt:11 calls com.acme.util.shout -> ∅ [uppercase] unresolved:external',
];

/** Resolved calls of overloaded names with the line of the definition they picked (overloads share a qualified name). */
const PICKED = [
  'src/main/kotlin/com/acme/model/Item.kt:13 [log] -> com.acme.model.Base.log:4',
  'src/main/kotlin/com/acme/shop/Cart.kt:11 [log] -> com.acme.model.Base.log:4',
  'src/main/kotlin/com/acme/shop/Cart.kt:12 [add] -> com.acme.shop.Catalog.add:12',
  'src/main/kotlin/com/acme/shop/Catalog.kt:14 [log] -> com.acme.model.Base.log:4',
  'src/main/kotlin/com/acme/shop/Catalog.kt:18 [add] -> com.acme.shop.Catalog.add:12',
];
const OVERLOADED = new Set(['add', 'log', 'remove']);

describe.each(BACKENDS)('kotlin code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('kotlin'), backend);
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
