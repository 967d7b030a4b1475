// The C# code graph on a small multi-file shop (test/fixtures/graph/csharp): every edge, exactly.
// Shown: the namespace as module (block and file-scoped), a type in `Acme.Shop` seeing `Acme`'s
// types (`App.Version`), a file with two namespaces (a module of its own, its types still
// `Acme.Util.Text.Words`); `using` namespaces beside `using System` (two namespaces giving one name
// would not compile, so the codebase's wins), `using static`, a class alias (`Text.Slug`);
// same-namespace types without a using (`Helper.Audit`); constructors (`new Cart(…)` → its
// constructor), overloads picked by argument count (`new Item("x")` / `new Item(name, cents)`,
// `: this(name, 0)`, `Add(Item)` / `Add(string, int)`, `item.Log("added")` → `Base.Log` past
// `Item.Log(string, int)`), `: base(…)`,
// `base.M()`, implicit-this calls, inherited methods from a base in another file, a nested class
// calling its outer class's static method; typed receivers from parameters, locals,
// `var x = new Foo()`, `foreach` variables and fields; static calls; recursion; a lambda's call of a
// method (transparent). Unresolved, as they must be: overloads of one argument count (`Remove`),
// `var x = Method()` and chained calls, lambda parameters, calls of delegate parameters and locals
// (`action(…)`, `later()`), a class alias to a library (`StringUtils = Org.Apache.Commons.StringUtils`)
// although `Acme.Util.StringUtils` is visible too, calls through a cast, plain calls in a class with a
// base outside the codebase (`Capitalize` in `Watcher`), `GetHashCode()` (object's), and `base.ToString()`
// and `: base()` in a class whose base list names only an interface (`Tag : INamed`, although
// INamed declares `ToString`): its base is object's, never the interface's. The first entry of a
// base list is labelled by its declaration: `Tag : INamed` implements, `Item : Base` inherits.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'src/App.cs:1 imports Acme -> ∅ [System] unresolved:external',
  'src/App.cs:2 imports Acme -> Acme.Model [Acme.Model] import',
  'src/App.cs:3 imports Acme -> Acme.Shop [Acme.Shop] import',
  'src/App.cs:4 imports Acme -> Acme.Util [Acme.Util] import',
  'src/App.cs:5 imports Acme -> ∅ [Org.Apache.Commons.StringUtils] unresolved:external',
  'src/App.cs:11 contains Acme.App -> Acme.App.Main [Main] local',
  'src/App.cs:13 calls Acme.App.Main -> Acme.Shop.Catalog.Create [Create] import',
  'src/App.cs:14 calls Acme.App.Main -> Acme.Shop.Cart.Cart [Cart] import',
  'src/App.cs:15 calls Acme.App.Main -> Acme.Shop.Cart.Put [Put] typed',
  'src/App.cs:16 calls Acme.App.Main -> Acme.Shop.Cart.Total [Total] typed',
  'src/App.cs:17 calls Acme.App.Main -> Acme.Model.Item.Item [Item] import',
  'src/App.cs:17 calls Acme.App.Main -> Acme.Model.Item.Price [Price] typed',
  'src/App.cs:18 calls Acme.App.Main -> ∅ [Add] unresolved:dynamic',
  'src/App.cs:18 calls Acme.App.Main -> Acme.Shop.Catalog.Create [Create] import',
  'src/App.cs:19 calls Acme.App.Main -> ∅ [Add] unresolved:dynamic',
  'src/App.cs:19 calls Acme.App.Main -> Acme.Model.Item.Item [Item] import',
  'src/App.cs:20 calls Acme.App.Main -> ∅ [Join] unresolved:external',
  'src/App.cs:20 calls Acme.App.Main -> Acme.Util.Strings.Slug [Slug] import',
  'src/App.cs:21 calls Acme.App.Main -> Acme.Model.Item.Item [Item] import',
  'src/App.cs:23 calls Acme.App.Main -> Acme.Model.Item.Describe [Describe] typed',
  'src/App.cs:25 calls Acme.App.Main -> ∅ [Each] unresolved:dynamic',
  'src/App.cs:25 calls Acme.App.Main -> ∅ [Log] unresolved:dynamic',
  'src/App.cs:26 calls Acme.App.Main -> Acme.Util.Strings.Factorial [Factorial] import',
  'src/App.cs:27 calls Acme.App.Main -> Acme.Shop.Catalog.Create [Create] import',
  'src/App.cs:27 calls Acme.App.Main -> Acme.App.Run [Run] self',
  'src/App.cs:30 contains Acme.App -> Acme.App.Run [Run] local',
  'src/App.cs:32 calls Acme.App.Run -> ∅ [Describe] unresolved:dynamic',
  'src/App.cs:32 calls Acme.App.Run -> Acme.Shop.Catalog.Find [Find] typed',
  'src/App.cs:33 calls Acme.App.Run -> Acme.Shop.Catalog.Each [Each] typed',
  'src/App.cs:34 calls Acme.App.Run -> ∅ [Remove] unresolved:ambiguous',
  'src/App.cs:37 contains Acme.App -> Acme.App.Show [Show] local',
  'src/App.cs:39 contains Acme.App -> Acme.App.Version [Version] local',
  'src/Model/Base.cs:7 contains Acme.Model.Base -> Acme.Model.Base.Base [Base] local',
  'src/Model/Base.cs:12 contains Acme.Model.Base -> Acme.Model.Base.Log [Log] local',
  'src/Model/Base.cs:14 calls Acme.Model.Base.Log -> ∅ [WriteLine] unresolved:builtin',
  'src/Model/Base.cs:17 contains Acme.Model.Base -> Acme.Model.Base.Describe [Describe] local',
  'src/Model/Base.cs:19 contains Acme.Model.Base -> Acme.Model.Base.Total [Total] local',
  'src/Model/IPriced.cs:5 contains Acme.Model.IPriced -> Acme.Model.IPriced.Price [Price] local',
  'src/Model/IPriced.cs:7 calls Acme.Model.IPriced.Label -> Acme.Model.IPriced.Price [Price] self',
  'src/Model/IPriced.cs:7 contains Acme.Model.IPriced -> Acme.Model.IPriced.Label [Label] local',
  'src/Model/Item.cs:3 implements Acme.Model.Item -> Acme.Model.IPriced [IPriced] package',
  'src/Model/Item.cs:3 inherits Acme.Model.Item -> Acme.Model.Base [Base] package',
  'src/Model/Item.cs:7 calls Acme.Model.Item.Item -> Acme.Model.Item.Item [Item] self',
  'src/Model/Item.cs:7 contains Acme.Model.Item -> Acme.Model.Item.Item [Item] local',
  'src/Model/Item.cs:11 calls Acme.Model.Item.Item -> Acme.Model.Base.Base [base] super',
  'src/Model/Item.cs:11 contains Acme.Model.Item -> Acme.Model.Item.Item [Item] local',
  'src/Model/Item.cs:16 contains Acme.Model.Item -> Acme.Model.Item.Price [Price] local',
  'src/Model/Item.cs:18 calls Acme.Model.Item.Describe -> Acme.Model.Base.Describe [Describe] super',
  'src/Model/Item.cs:18 calls Acme.Model.Item.Describe -> ∅ [Label] unresolved:dynamic',
  'src/Model/Item.cs:18 contains Acme.Model.Item -> Acme.Model.Item.Describe [Describe] local',
  'src/Model/Item.cs:20 calls Acme.Model.Item.ToString -> Acme.Model.Item.Describe [Describe] self',
  'src/Model/Item.cs:20 contains Acme.Model.Item -> Acme.Model.Item.ToString [ToString] local',
  'src/Model/Item.cs:22 calls Acme.Model.Item.Log -> Acme.Model.Base.Log [Log] self',
  'src/Model/Item.cs:22 contains Acme.Model.Item -> Acme.Model.Item.Log [Log] local',
  'src/Model/Tag.cs:5 contains Acme.Model.INamed -> Acme.Model.INamed.ToString [ToString] local',
  'src/Model/Tag.cs:9 implements Acme.Model.Tag -> Acme.Model.INamed [INamed] local',
  'src/Model/Tag.cs:11 calls Acme.Model.Tag.Tag -> ∅ [base] unresolved:external',
  'src/Model/Tag.cs:11 contains Acme.Model.Tag -> Acme.Model.Tag.Tag [Tag] local',
  'src/Model/Tag.cs:13 calls Acme.Model.Tag.ToString -> ∅ [ToString] unresolved:external',
  'src/Model/Tag.cs:13 contains Acme.Model.Tag -> Acme.Model.Tag.ToString [ToString] local',
  'src/Shop/Cart.cs:1 imports Acme.Shop -> Acme.Model [Acme.Model] import',
  'src/Shop/Cart.cs:2 imports Acme.Shop -> Acme.Util [Acme.Util] import',
  'src/Shop/Cart.cs:3 imports Acme.Shop -> Acme.Util.Strings [Acme.Util.Strings] import',
  'src/Shop/Cart.cs:4 imports Acme.Shop -> Acme.Util.Strings [Acme.Util.Strings] import',
  'src/Shop/Cart.cs:5 imports Acme.Shop -> ∅ [System.Collections.ObjectModel] unresolved:external',
  'src/Shop/Cart.cs:9 inherits Acme.Shop.Cart -> Acme.Model.Base [Base] import',
  'src/Shop/Cart.cs:13 calls Acme.Shop.Cart.Cart -> Acme.Model.Base.Base [base] super',
  'src/Shop/Cart.cs:13 contains Acme.Shop.Cart -> Acme.Shop.Cart.Cart [Cart] local',
  'src/Shop/Cart.cs:18 contains Acme.Shop.Cart -> Acme.Shop.Cart.Put [Put] local',
  'src/Shop/Cart.cs:20 calls Acme.Shop.Cart.Put -> Acme.Shop.Catalog.Find [Find] typed',
  'src/Shop/Cart.cs:21 calls Acme.Shop.Cart.Put -> Acme.Util.Strings.Capitalize [Capitalize] import',
  'src/Shop/Cart.cs:21 calls Acme.Shop.Cart.Put -> Acme.Model.Base.Log [Log] self',
  'src/Shop/Cart.cs:22 calls Acme.Shop.Cart.Put -> Acme.Shop.Catalog.Add [Add] typed',
  'src/Shop/Cart.cs:23 calls Acme.Shop.Cart.Put -> Acme.Shop.Catalog.Find [Find] typed',
  'src/Shop/Cart.cs:23 calls Acme.Shop.Cart.Put -> ∅ [Price] unresolved:dynamic',
  'src/Shop/Cart.cs:24 calls Acme.Shop.Cart.Put -> Acme.Util.Strings.Slug [Slug] import',
  'src/Shop/Cart.cs:27 calls Acme.Shop.Cart.Total -> Acme.Shop.Cart.Receipt [Receipt] self',
  'src/Shop/Cart.cs:27 calls Acme.Shop.Cart.Total -> Acme.Shop.Cart.Receipt.Sum [Sum] typed',
  'src/Shop/Cart.cs:27 calls Acme.Shop.Cart.Total -> Acme.Model.Base.Total [Total] super',
  'src/Shop/Cart.cs:27 contains Acme.Shop.Cart -> Acme.Shop.Cart.Total [Total] local',
  'src/Shop/Cart.cs:29 contains Acme.Shop.Cart -> Acme.Shop.Cart.Fee [Fee] local',
  'src/Shop/Cart.cs:31 contains Acme.Shop.Cart -> Acme.Shop.Cart.Receipt [Receipt] local',
  'src/Shop/Cart.cs:33 calls Acme.Shop.Cart.Receipt.Sum -> Acme.Shop.Cart.Fee [Fee] self',
  'src/Shop/Cart.cs:33 calls Acme.Shop.Cart.Receipt.Sum -> ∅ [GetHashCode] unresolved:not-found',
  'src/Shop/Cart.cs:33 contains Acme.Shop.Cart.Receipt -> Acme.Shop.Cart.Receipt.Sum [Sum] local',
  'src/Shop/Cart.cs:36 contains Acme.Shop.Cart -> Acme.Shop.Cart.Watcher [Watcher] local',
  'src/Shop/Cart.cs:36 inherits Acme.Shop.Cart.Watcher -> ∅ [Collection] unresolved:external',
  'src/Shop/Cart.cs:38 contains Acme.Shop.Cart.Watcher -> Acme.Shop.Cart.Watcher.Ping [Ping] local',
  'src/Shop/Cart.cs:40 calls Acme.Shop.Cart.Watcher.Ping -> ∅ [Capitalize] unresolved:external',
  'src/Shop/Cart.cs:41 calls Acme.Shop.Cart.Watcher.Ping -> ∅ [ClearItems] unresolved:external',
  'src/Shop/Catalog.cs:1 imports Acme.Shop -> ∅ [System] unresolved:external',
  'src/Shop/Catalog.cs:2 imports Acme.Shop -> ∅ [System.Collections.Generic] unresolved:external',
  'src/Shop/Catalog.cs:3 imports Acme.Shop -> Acme.Model [Acme.Model] import',
  'src/Shop/Catalog.cs:9 calls Acme.Shop.Catalog -> ∅ [List] unresolved:external',
  'src/Shop/Catalog.cs:11 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Catalog [Catalog] local',
  'src/Shop/Catalog.cs:13 calls Acme.Shop.Catalog.Catalog -> Acme.Shop.Helper.Audit [Audit] package',
  'src/Shop/Catalog.cs:16 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Add [Add] local',
  'src/Shop/Catalog.cs:18 calls Acme.Shop.Catalog.Add -> ∅ [Add] unresolved:external',
  'src/Shop/Catalog.cs:19 calls Acme.Shop.Catalog.Add -> Acme.Model.Base.Log [Log] typed',
  'src/Shop/Catalog.cs:22 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Add [Add] local',
  'src/Shop/Catalog.cs:24 calls Acme.Shop.Catalog.Add -> Acme.Shop.Catalog.Add [Add] self',
  'src/Shop/Catalog.cs:24 calls Acme.Shop.Catalog.Add -> Acme.Model.Item.Item [Item] import',
  'src/Shop/Catalog.cs:27 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Find [Find] local',
  'src/Shop/Catalog.cs:31 calls Acme.Shop.Catalog.Find -> Acme.Model.Item.Describe [Describe] typed',
  'src/Shop/Catalog.cs:33 calls Acme.Shop.Catalog.Find -> ∅ [Describe] unresolved:dynamic',
  'src/Shop/Catalog.cs:33 calls Acme.Shop.Catalog.Find -> ∅ [Find] unresolved:external',
  'src/Shop/Catalog.cs:36 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Each [Each] local',
  'src/Shop/Catalog.cs:38 calls Acme.Shop.Catalog.Each -> ∅ [ForEach] unresolved:external',
  'src/Shop/Catalog.cs:39 calls Acme.Shop.Catalog.Each -> Acme.Model.Item.Item [Item] import',
  'src/Shop/Catalog.cs:39 calls Acme.Shop.Catalog.Each -> ∅ [action] unresolved:parameter',
  'src/Shop/Catalog.cs:42 calls Acme.Shop.Catalog.Create -> Acme.Shop.Catalog.Catalog [Catalog] local',
  'src/Shop/Catalog.cs:42 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Create [Create] local',
  'src/Shop/Catalog.cs:44 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Remove [Remove] local',
  'src/Shop/Catalog.cs:46 contains Acme.Shop.Catalog -> Acme.Shop.Catalog.Remove [Remove] local',
  'src/Shop/Helper.cs:5 contains Acme.Shop.Helper -> Acme.Shop.Helper.Audit [Audit] local',
  'src/Shop/Helper.cs:7 calls Acme.Shop.Helper.Audit -> Acme.Shop.Helper.Flush [Flush] self',
  'src/Shop/Helper.cs:8 calls Acme.Shop.Helper.Audit -> ∅ [later] unresolved:local-variable',
  'src/Shop/Helper.cs:9 calls Acme.Shop.Helper.Audit -> Acme.Shop.Helper.Report [Report] self',
  'src/Shop/Helper.cs:12 contains Acme.Shop.Helper -> Acme.Shop.Helper.Report [Report] local',
  'src/Shop/Helper.cs:14 contains Acme.Shop.Helper -> Acme.Shop.Helper.Flush [Flush] local',
  'src/Shop/Helper.cs:16 calls Acme.Shop.Helper.Version -> Acme.App.Version [Version] import',
  'src/Shop/Helper.cs:16 contains Acme.Shop.Helper -> Acme.Shop.Helper.Version [Version] local',
  'src/Util/Extra.cs:5 contains Acme.Util.Text.Words -> Acme.Util.Text.Words.Count [Count] local',
  'src/Util/Extra.cs:11 imports /src/Util/Extra.cs -> ∅ [Acme.Util.Text] unresolved:external',
  'src/Util/Extra.cs:15 calls Acme.Legacy.Old.Run -> Acme.Util.Text.Words.Count [Count] local',
  'src/Util/Extra.cs:15 contains Acme.Legacy.Old -> Acme.Legacy.Old.Run [Run] local',
  'src/Util/StringUtils.cs:5 contains Acme.Util.StringUtils -> Acme.Util.StringUtils.Join [Join] local',
  'src/Util/Strings.cs:5 calls Acme.Util.Strings.Slug -> ∅ [Replace] unresolved:dynamic',
  'src/Util/Strings.cs:5 calls Acme.Util.Strings.Slug -> ∅ [ToLower] unresolved:dynamic',
  'src/Util/Strings.cs:5 contains Acme.Util.Strings -> Acme.Util.Strings.Slug [Slug] local',
  'src/Util/Strings.cs:7 calls Acme.Util.Strings.Capitalize -> Acme.Util.Strings.Slug [Slug] self',
  'src/Util/Strings.cs:7 calls Acme.Util.Strings.Capitalize -> ∅ [Substring] unresolved:dynamic',
  'src/Util/Strings.cs:7 calls Acme.Util.Strings.Capitalize -> ∅ [Substring] unresolved:dynamic',
  'src/Util/Strings.cs:7 contains Acme.Util.Strings -> Acme.Util.Strings.Capitalize [Capitalize] local',
  'src/Util/Strings.cs:9 calls Acme.Util.Strings.Factorial -> Acme.Util.Strings.Factorial [Factorial] self',
  'src/Util/Strings.cs:9 contains Acme.Util.Strings -> Acme.Util.Strings.Factorial [Factorial] local',
];

/** Resolved calls of overloaded names with the line of the definition they picked (overloads share a qualified name). */
const PICKED = [
  'src/App.cs:17 [Item] -> Acme.Model.Item.Item:7',
  'src/App.cs:19 [Item] -> Acme.Model.Item.Item:7',
  'src/App.cs:21 [Item] -> Acme.Model.Item.Item:7',
  'src/Model/Item.cs:7 [Item] -> Acme.Model.Item.Item:11',
  'src/Model/Item.cs:11 [base] -> Acme.Model.Base.Base:7',
  'src/Model/Item.cs:22 [Log] -> Acme.Model.Base.Log:12',
  'src/Shop/Cart.cs:13 [base] -> Acme.Model.Base.Base:7',
  'src/Shop/Cart.cs:21 [Log] -> Acme.Model.Base.Log:12',
  'src/Shop/Cart.cs:22 [Add] -> Acme.Shop.Catalog.Add:16',
  'src/Shop/Catalog.cs:19 [Log] -> Acme.Model.Base.Log:12',
  'src/Shop/Catalog.cs:24 [Add] -> Acme.Shop.Catalog.Add:16',
  'src/Shop/Catalog.cs:24 [Item] -> Acme.Model.Item.Item:11',
  'src/Shop/Catalog.cs:39 [Item] -> Acme.Model.Item.Item:7',
];
const OVERLOADED = new Set(['Add', 'Log', 'Remove', 'Item', 'base']);

describe.each(BACKENDS)('csharp code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('csharp'), backend);
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
