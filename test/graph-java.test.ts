// The Java code graph on a small multi-file shop (test/fixtures/graph/java): every edge, exactly.
// Shown: the package as module (`com.acme.shop.Cart.put`); single-type, on-demand (`.*`) and
// static imports; same-package classes without an import (`Helper.audit`); a codebase class
// through `com.acme.model.*` beside `java.util.*` (two on-demand imports of one name would not
// compile, so the codebase's wins); typed receivers from parameters, locals, `var x = new Foo()`,
// enhanced-for variables and fields; constructors (`new Cart(…)` → its constructor); overloads picked
// by argument count (`new Item("x")` / `new Item(name, cents)`, `this(name, 0)`, `add(Item)` /
// `add(String, int)`, and `item.log("added")` → `Base.log` past `Item.log(String, int)`); `super(…)`, `super.m()`,
// `this.m()` and implicit-this calls, inherited methods found in a base or interface in another
// file, nested classes; `Foo.bar()` static calls; recursion. Unresolved, as they must be: overloads
// of one argument count (`remove(Item)` / `remove(String)`), methods of call results (chained), lambda parameters, the
// parameter of a callback (`action.accept`), a library import whose simple name the codebase also
// has (`org.apache.commons.lang3.StringUtils` vs `com.acme.util.StringUtils`), plain calls in a
// class with a base outside the codebase (it may inherit the name: `capitalize` in `Watcher`) or
// in an anonymous class body (`flush` in `new Runnable() { … }`), `hashCode()` (Object's).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'src/main/java/com/acme/App.java:3 imports com.acme -> com.acme.model.Item [com.acme.model.Item] import',
  'src/main/java/com/acme/App.java:4 imports com.acme -> com.acme.shop.Cart [com.acme.shop.Cart] import',
  'src/main/java/com/acme/App.java:5 imports com.acme -> com.acme.shop.Catalog [com.acme.shop.Catalog] import',
  'src/main/java/com/acme/App.java:6 imports com.acme -> com.acme.util.Strings [com.acme.util.Strings] import',
  'src/main/java/com/acme/App.java:7 imports com.acme -> ∅ [org.apache.commons.lang3.StringUtils] unresolved:external',
  'src/main/java/com/acme/App.java:10 contains com.acme.App -> com.acme.App.main [main] local',
  'src/main/java/com/acme/App.java:11 calls com.acme.App.main -> com.acme.shop.Catalog.create [create] import',
  'src/main/java/com/acme/App.java:12 calls com.acme.App.main -> com.acme.shop.Cart.Cart [Cart] import',
  'src/main/java/com/acme/App.java:13 calls com.acme.App.main -> com.acme.shop.Cart.put [put] typed',
  'src/main/java/com/acme/App.java:14 calls com.acme.App.main -> com.acme.shop.Cart.total [total] typed',
  'src/main/java/com/acme/App.java:15 calls com.acme.App.main -> com.acme.model.Item.Item [Item] import',
  'src/main/java/com/acme/App.java:15 calls com.acme.App.main -> com.acme.model.Priced.label [label] typed',
  'src/main/java/com/acme/App.java:16 calls com.acme.App.main -> ∅ [add] unresolved:dynamic',
  'src/main/java/com/acme/App.java:16 calls com.acme.App.main -> com.acme.shop.Catalog.create [create] import',
  'src/main/java/com/acme/App.java:17 calls com.acme.App.main -> com.acme.model.Item.Item [Item] import',
  'src/main/java/com/acme/App.java:17 calls com.acme.App.main -> com.acme.shop.Catalog.add [add] typed',
  'src/main/java/com/acme/App.java:18 calls com.acme.App.main -> ∅ [join] unresolved:external',
  'src/main/java/com/acme/App.java:18 calls com.acme.App.main -> com.acme.util.Strings.slug [slug] import',
  'src/main/java/com/acme/App.java:19 calls com.acme.App.main -> com.acme.model.Item.Item [Item] import',
  'src/main/java/com/acme/App.java:19 calls com.acme.App.main -> ∅ [of] unresolved:not-found',
  'src/main/java/com/acme/App.java:20 calls com.acme.App.main -> com.acme.model.Item.describe [describe] typed',
  'src/main/java/com/acme/App.java:22 calls com.acme.App.main -> com.acme.shop.Catalog.each [each] typed',
  'src/main/java/com/acme/App.java:22 calls com.acme.App.main -> ∅ [log] unresolved:dynamic',
  'src/main/java/com/acme/App.java:23 calls com.acme.App.main -> com.acme.util.Strings.factorial [factorial] import',
  'src/main/java/com/acme/App.java:24 calls com.acme.App.main -> com.acme.App.run [run] self',
  'src/main/java/com/acme/App.java:25 calls com.acme.App.main -> ∅ [remove] unresolved:ambiguous',
  'src/main/java/com/acme/App.java:28 contains com.acme.App -> com.acme.App.run [run] local',
  'src/main/java/com/acme/App.java:29 calls com.acme.App.run -> ∅ [describe] unresolved:dynamic',
  'src/main/java/com/acme/App.java:29 calls com.acme.App.run -> com.acme.shop.Catalog.find [find] typed',
  'src/main/java/com/acme/App.java:30 calls com.acme.App.run -> com.acme.shop.Catalog.each [each] typed',
  'src/main/java/com/acme/App.java:33 contains com.acme.App -> com.acme.App.show [show] local',
  'src/main/java/com/acme/model/Base.java:6 contains com.acme.model.Base -> com.acme.model.Base.Base [Base] local',
  'src/main/java/com/acme/model/Base.java:10 contains com.acme.model.Base -> com.acme.model.Base.log [log] local',
  'src/main/java/com/acme/model/Base.java:11 calls com.acme.model.Base.log -> ∅ [println] unresolved:builtin',
  'src/main/java/com/acme/model/Base.java:14 contains com.acme.model.Base -> com.acme.model.Base.describe [describe] local',
  'src/main/java/com/acme/model/Base.java:18 contains com.acme.model.Base -> com.acme.model.Base.total [total] local',
  'src/main/java/com/acme/model/Item.java:3 implements com.acme.model.Item -> com.acme.model.Priced [Priced] package',
  'src/main/java/com/acme/model/Item.java:3 inherits com.acme.model.Item -> com.acme.model.Base [Base] package',
  'src/main/java/com/acme/model/Item.java:6 contains com.acme.model.Item -> com.acme.model.Item.Item [Item] local',
  'src/main/java/com/acme/model/Item.java:7 calls com.acme.model.Item.Item -> com.acme.model.Item.Item [Item] self',
  'src/main/java/com/acme/model/Item.java:10 contains com.acme.model.Item -> com.acme.model.Item.Item [Item] local',
  'src/main/java/com/acme/model/Item.java:11 calls com.acme.model.Item.Item -> com.acme.model.Base.Base [super] super',
  'src/main/java/com/acme/model/Item.java:15 contains com.acme.model.Item -> com.acme.model.Item.price [price] local',
  'src/main/java/com/acme/model/Item.java:20 contains com.acme.model.Item -> com.acme.model.Item.describe [describe] local',
  'src/main/java/com/acme/model/Item.java:22 calls com.acme.model.Item.describe -> com.acme.model.Base.describe [describe] super',
  'src/main/java/com/acme/model/Item.java:22 calls com.acme.model.Item.describe -> com.acme.model.Priced.label [label] self',
  'src/main/java/com/acme/model/Item.java:25 contains com.acme.model.Item -> com.acme.model.Item.toString [toString] local',
  'src/main/java/com/acme/model/Item.java:26 calls com.acme.model.Item.toString -> com.acme.model.Item.describe [describe] self',
  'src/main/java/com/acme/model/Item.java:29 contains com.acme.model.Item -> com.acme.model.Item.log [log] local',
  'src/main/java/com/acme/model/Item.java:30 calls com.acme.model.Item.log -> com.acme.model.Base.log [log] self',
  'src/main/java/com/acme/model/Priced.java:4 contains com.acme.model.Priced -> com.acme.model.Priced.price [price] local',
  'src/main/java/com/acme/model/Priced.java:6 contains com.acme.model.Priced -> com.acme.model.Priced.label [label] local',
  'src/main/java/com/acme/model/Priced.java:7 calls com.acme.model.Priced.label -> com.acme.model.Priced.price [price] self',
  'src/main/java/com/acme/shop/Cart.java:3 imports com.acme.shop -> com.acme.model.Base [com.acme.model.Base] import',
  'src/main/java/com/acme/shop/Cart.java:4 imports com.acme.shop -> com.acme.model.Item [com.acme.model.Item] import',
  'src/main/java/com/acme/shop/Cart.java:5 imports com.acme.shop -> ∅ [java.util.Observable] unresolved:external',
  'src/main/java/com/acme/shop/Cart.java:7 imports com.acme.shop -> com.acme.util.Strings [com.acme.util.Strings] import',
  'src/main/java/com/acme/shop/Cart.java:9 inherits com.acme.shop.Cart -> com.acme.model.Base [Base] import',
  'src/main/java/com/acme/shop/Cart.java:12 contains com.acme.shop.Cart -> com.acme.shop.Cart.Cart [Cart] local',
  'src/main/java/com/acme/shop/Cart.java:13 calls com.acme.shop.Cart.Cart -> com.acme.model.Base.Base [super] super',
  'src/main/java/com/acme/shop/Cart.java:17 contains com.acme.shop.Cart -> com.acme.shop.Cart.put [put] local',
  'src/main/java/com/acme/shop/Cart.java:18 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/java/com/acme/shop/Cart.java:19 calls com.acme.shop.Cart.put -> com.acme.util.Strings.capitalize [capitalize] import',
  'src/main/java/com/acme/shop/Cart.java:19 calls com.acme.shop.Cart.put -> com.acme.model.Base.log [log] self',
  'src/main/java/com/acme/shop/Cart.java:20 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.add [add] typed',
  'src/main/java/com/acme/shop/Cart.java:21 calls com.acme.shop.Cart.put -> com.acme.shop.Catalog.find [find] typed',
  'src/main/java/com/acme/shop/Cart.java:21 calls com.acme.shop.Cart.put -> ∅ [price] unresolved:dynamic',
  'src/main/java/com/acme/shop/Cart.java:24 contains com.acme.shop.Cart -> com.acme.shop.Cart.total [total] local',
  'src/main/java/com/acme/shop/Cart.java:26 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt [Receipt] self',
  'src/main/java/com/acme/shop/Cart.java:26 calls com.acme.shop.Cart.total -> com.acme.shop.Cart.Receipt.sum [sum] typed',
  'src/main/java/com/acme/shop/Cart.java:26 calls com.acme.shop.Cart.total -> com.acme.model.Base.total [total] super',
  'src/main/java/com/acme/shop/Cart.java:29 contains com.acme.shop.Cart -> com.acme.shop.Cart.Receipt [Receipt] local',
  'src/main/java/com/acme/shop/Cart.java:30 contains com.acme.shop.Cart.Receipt -> com.acme.shop.Cart.Receipt.sum [sum] local',
  'src/main/java/com/acme/shop/Cart.java:31 calls com.acme.shop.Cart.Receipt.sum -> ∅ [hashCode] unresolved:not-found',
  'src/main/java/com/acme/shop/Cart.java:31 calls com.acme.shop.Cart.Receipt.sum -> com.acme.shop.Cart.total [total] self',
  'src/main/java/com/acme/shop/Cart.java:35 contains com.acme.shop.Cart -> com.acme.shop.Cart.Watcher [Watcher] local',
  'src/main/java/com/acme/shop/Cart.java:35 inherits com.acme.shop.Cart.Watcher -> ∅ [Observable] unresolved:external',
  'src/main/java/com/acme/shop/Cart.java:36 contains com.acme.shop.Cart.Watcher -> com.acme.shop.Cart.Watcher.ping [ping] local',
  'src/main/java/com/acme/shop/Cart.java:37 calls com.acme.shop.Cart.Watcher.ping -> ∅ [capitalize] unresolved:external',
  'src/main/java/com/acme/shop/Cart.java:38 calls com.acme.shop.Cart.Watcher.ping -> ∅ [notifyObservers] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:3 imports com.acme.shop -> com.acme.model [com.acme.model] import',
  'src/main/java/com/acme/shop/Catalog.java:4 imports com.acme.shop -> ∅ [java.util] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:5 imports com.acme.shop -> ∅ [java.util.function.Consumer] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:8 calls com.acme.shop.Catalog -> ∅ [ArrayList] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:10 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.Catalog [Catalog] local',
  'src/main/java/com/acme/shop/Catalog.java:11 calls com.acme.shop.Catalog.Catalog -> com.acme.shop.Helper.audit [audit] package',
  'src/main/java/com/acme/shop/Catalog.java:14 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/java/com/acme/shop/Catalog.java:15 calls com.acme.shop.Catalog.add -> ∅ [add] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:16 calls com.acme.shop.Catalog.add -> com.acme.model.Base.log [log] typed',
  'src/main/java/com/acme/shop/Catalog.java:19 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.add [add] local',
  'src/main/java/com/acme/shop/Catalog.java:20 calls com.acme.shop.Catalog.add -> com.acme.model.Item.Item [Item] import',
  'src/main/java/com/acme/shop/Catalog.java:20 calls com.acme.shop.Catalog.add -> com.acme.shop.Catalog.add [add] self',
  'src/main/java/com/acme/shop/Catalog.java:23 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.find [find] local',
  'src/main/java/com/acme/shop/Catalog.java:25 calls com.acme.shop.Catalog.find -> com.acme.model.Item.describe [describe] typed',
  'src/main/java/com/acme/shop/Catalog.java:25 calls com.acme.shop.Catalog.find -> ∅ [equals] unresolved:dynamic',
  'src/main/java/com/acme/shop/Catalog.java:30 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.each [each] local',
  'src/main/java/com/acme/shop/Catalog.java:31 calls com.acme.shop.Catalog.each -> ∅ [forEach] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:32 calls com.acme.shop.Catalog.each -> ∅ [accept] unresolved:external',
  'src/main/java/com/acme/shop/Catalog.java:35 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.create [create] local',
  'src/main/java/com/acme/shop/Catalog.java:36 calls com.acme.shop.Catalog.create -> com.acme.shop.Catalog.Catalog [Catalog] local',
  'src/main/java/com/acme/shop/Catalog.java:39 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/java/com/acme/shop/Catalog.java:41 contains com.acme.shop.Catalog -> com.acme.shop.Catalog.remove [remove] local',
  'src/main/java/com/acme/shop/Helper.java:4 contains com.acme.shop.Helper -> com.acme.shop.Helper.audit [audit] local',
  'src/main/java/com/acme/shop/Helper.java:5 calls com.acme.shop.Helper.audit -> ∅ [Runnable] unresolved:builtin',
  'src/main/java/com/acme/shop/Helper.java:6 contains com.acme.shop.Helper.audit -> com.acme.shop.Helper.audit.run [run] local',
  'src/main/java/com/acme/shop/Helper.java:7 calls com.acme.shop.Helper.audit.run -> ∅ [flush] unresolved:dynamic',
  'src/main/java/com/acme/shop/Helper.java:8 calls com.acme.shop.Helper.audit.run -> com.acme.shop.Helper.audit.report [report] local',
  'src/main/java/com/acme/shop/Helper.java:11 contains com.acme.shop.Helper.audit -> com.acme.shop.Helper.audit.report [report] local',
  'src/main/java/com/acme/shop/Helper.java:13 calls com.acme.shop.Helper.audit -> ∅ [run] unresolved:builtin',
  'src/main/java/com/acme/shop/Helper.java:16 contains com.acme.shop.Helper -> com.acme.shop.Helper.flush [flush] local',
  'src/main/java/com/acme/util/StringUtils.java:4 contains com.acme.util.StringUtils -> com.acme.util.StringUtils.join [join] local',
  'src/main/java/com/acme/util/Strings.java:4 contains com.acme.util.Strings -> com.acme.util.Strings.Strings [Strings] local',
  'src/main/java/com/acme/util/Strings.java:6 contains com.acme.util.Strings -> com.acme.util.Strings.slug [slug] local',
  'src/main/java/com/acme/util/Strings.java:7 calls com.acme.util.Strings.slug -> ∅ [replace] unresolved:dynamic',
  'src/main/java/com/acme/util/Strings.java:7 calls com.acme.util.Strings.slug -> ∅ [toLowerCase] unresolved:builtin',
  'src/main/java/com/acme/util/Strings.java:10 contains com.acme.util.Strings -> com.acme.util.Strings.capitalize [capitalize] local',
  'src/main/java/com/acme/util/Strings.java:11 calls com.acme.util.Strings.capitalize -> ∅ [isEmpty] unresolved:builtin',
  'src/main/java/com/acme/util/Strings.java:11 calls com.acme.util.Strings.capitalize -> com.acme.util.Strings.slug [slug] self',
  'src/main/java/com/acme/util/Strings.java:11 calls com.acme.util.Strings.capitalize -> ∅ [substring] unresolved:builtin',
  'src/main/java/com/acme/util/Strings.java:11 calls com.acme.util.Strings.capitalize -> ∅ [substring] unresolved:builtin',
  'src/main/java/com/acme/util/Strings.java:14 contains com.acme.util.Strings -> com.acme.util.Strings.factorial [factorial] local',
  'src/main/java/com/acme/util/Strings.java:15 calls com.acme.util.Strings.factorial -> com.acme.util.Strings.factorial [factorial] self',
];

/** Resolved calls of overloaded names with the line of the definition they picked (overloads share a qualified name). */
const PICKED = [
  'src/main/java/com/acme/App.java:15 [Item] -> com.acme.model.Item.Item:6',
  'src/main/java/com/acme/App.java:17 [Item] -> com.acme.model.Item.Item:6',
  'src/main/java/com/acme/App.java:17 [add] -> com.acme.shop.Catalog.add:14',
  'src/main/java/com/acme/App.java:19 [Item] -> com.acme.model.Item.Item:6',
  'src/main/java/com/acme/model/Item.java:7 [Item] -> com.acme.model.Item.Item:10',
  'src/main/java/com/acme/model/Item.java:30 [log] -> com.acme.model.Base.log:10',
  'src/main/java/com/acme/shop/Cart.java:19 [log] -> com.acme.model.Base.log:10',
  'src/main/java/com/acme/shop/Cart.java:20 [add] -> com.acme.shop.Catalog.add:14',
  'src/main/java/com/acme/shop/Catalog.java:16 [log] -> com.acme.model.Base.log:10',
  'src/main/java/com/acme/shop/Catalog.java:20 [Item] -> com.acme.model.Item.Item:10',
  'src/main/java/com/acme/shop/Catalog.java:20 [add] -> com.acme.shop.Catalog.add:14',
];
const OVERLOADED = new Set(['add', 'Item', 'log', 'remove']);

describe.each(BACKENDS)('java code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('java'), backend);
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
