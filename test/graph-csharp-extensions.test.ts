// C# extension methods in the code graph: `static int Twice(this Foo x)` in a top-level static
// class extends Foo. A call `f.Twice()` (or `this.Twice()`) on a value of a class with no member
// `Twice` is the one extension method visible at the site that applies to the class: first those
// of the site's namespace, then those of the namespaces around it and of its `using` directives
// (`using static` too); of several that apply, the one of the class lowest in the hierarchy, one
// of `object` last. Unresolved, as they must be: a member of the name wins; a class with a base
// outside the codebase may have the method; two that apply from two namespaces of the second
// level (C# would pick by how near each namespace is: `Near` in Shop.Sub); an extension of a type parameter may apply
// to anything; extensions of `int` or `string` never apply to a class; an extension that the
// file does not see.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'Shop/Model.cs': `namespace Shop;

public class Base
{
    public string Name() => "base";
}

public class Item : Base
{
    public int Price() => 1;
    public void Dup() { }
}

public class Watcher : System.IO.Stream { }
`,
  'Shop/Ext.cs': `namespace Shop;

public static class Ext
{
    public static string Label(this Base b) => b.Name();
    public static string Label(this Item i) => "item";
    public static int Total(this Item i, int times) { i.Price(); return times; }
    public static void Dup(this Item i) { }
    public static void Tag(this object o) { }
    public static void Tag(this Watcher w) { }
    public static int Num(this int x) => x;
    public static void Boxed<T>(this T t) { }
    public static void Near(this Base b) { }
}
`,
  'Shop/Use.cs': `namespace Shop;

public class User
{
    public void Run(Item item, Base b, Watcher w, User u)
    {
        item.Label();
        b.Label();
        item.Total(2);
        item.Total();
        item.Dup();
        u.Tag();
        w.Tag();
        item.Num();
        this.Tag();
    }
}
`,
  'Lib/More.cs': `namespace Lib;

using Shop;

public static class More
{
    public static void Deep(this Base b) { }
    public static void Wide(this Item i) { }
    public static void Near(this Item i) { }
}

public static class Other
{
    public static void Wide(this Base b) { }
}
`,
  'App/App.cs': `using Shop;
using Lib;
using static Lib.Other;

namespace App;

public class Program
{
    public void Main(Item item, Base b)
    {
        item.Deep();
        item.Label();
        item.Wide();
        b.Wide();
        item.Boxed();
    }
}
`,
  'Shop/Sub/Deeper.cs': `using Lib;

namespace Shop.Sub;

public class Deeper
{
    public void Go(Item item)
    {
        item.Near();
    }
}
`,
  'Far/Far.cs': `namespace Far;

public class Away
{
    public void Go(Shop.Item item)
    {
        item.Label();
    }
}
`,
};

const EXPECTED = [
  // Through `using Lib`.
  'App/App.cs:11 calls App.Program.Main -> Lib.More.Deep [Deep] typed',
  // Through `using Shop`: Item's own, below Base's.
  'App/App.cs:12 calls App.Program.Main -> Shop.Ext.Label [Label] typed',
  // More.Wide (Item) and, through `using static Lib.Other`, Other.Wide (Base): one namespace, More's is lower.
  'App/App.cs:13 calls App.Program.Main -> Lib.More.Wide [Wide] typed',
  'App/App.cs:14 calls App.Program.Main -> Lib.Other.Wide [Wide] typed',
  // An extension of a type parameter applies to anything.
  'App/App.cs:15 calls App.Program.Main -> ∅ [Boxed] unresolved:ambiguous',
  // No `using Shop`: not visible.
  'Far/Far.cs:7 calls Far.Away.Go -> ∅ [Label] unresolved:not-found',
  'Shop/Ext.cs:5 calls Shop.Ext.Label -> Shop.Base.Name [Name] typed',
  'Shop/Ext.cs:7 calls Shop.Ext.Total -> Shop.Item.Price [Price] typed',
  'Shop/Model.cs:8 inherits Shop.Item -> Shop.Base [Base] local',
  'Shop/Model.cs:14 inherits Shop.Watcher -> ∅ [Stream] unresolved:not-found',
  // Shop (around Shop.Sub) comes before the file's `using Lib`: Lib's lower one is not surely it.
  'Shop/Sub/Deeper.cs:9 calls Shop.Sub.Deeper.Go -> ∅ [Near] unresolved:ambiguous',
  'Shop/Use.cs:7 calls Shop.User.Run -> Shop.Ext.Label [Label] typed',
  'Shop/Use.cs:8 calls Shop.User.Run -> Shop.Ext.Label [Label] typed',
  // The receiver is one of the method's arguments.
  'Shop/Use.cs:9 calls Shop.User.Run -> Shop.Ext.Total [Total] typed',
  'Shop/Use.cs:10 calls Shop.User.Run -> ∅ [Total] unresolved:not-found',
  // The member, never the extension.
  'Shop/Use.cs:11 calls Shop.User.Run -> Shop.Item.Dup [Dup] typed',
  // Only `object`'s applies.
  'Shop/Use.cs:12 calls Shop.User.Run -> Shop.Ext.Tag [Tag] typed',
  // Watcher's base is outside the codebase: it may have a method Tag.
  'Shop/Use.cs:13 calls Shop.User.Run -> ∅ [Tag] unresolved:external',
  // An extension of int.
  'Shop/Use.cs:14 calls Shop.User.Run -> ∅ [Num] unresolved:not-found',
  'Shop/Use.cs:15 calls Shop.User.Run -> Shop.Ext.Tag [Tag] self',
];

/** Resolved calls of names several extensions share, with the line of the one picked. */
const PICKED = [
  'App/App.cs:12 [Label] -> line 6',
  'App/App.cs:13 [Wide] -> line 8',
  'App/App.cs:14 [Wide] -> line 14',
  'Shop/Use.cs:7 [Label] -> line 6',
  'Shop/Use.cs:8 [Label] -> line 5',
  'Shop/Use.cs:12 [Tag] -> line 9',
  'Shop/Use.cs:15 [Tag] -> line 9',
];

describe.each(BACKENDS)('c# extension methods on %s', (backend) => {
  it('resolves calls of extension methods exactly', async () => {
    const graph = await openGraph(FILES, backend);
    try {
      expect(await graph.lines({ kind: ['calls', 'inherits', 'implements'] })).toEqual(EXPECTED);
      const picked = (await graph.db.edges({ kind: 'calls' }))
        .filter((e) => e.to !== null && ['Label', 'Wide', 'Tag'].includes(e.toName))
        .map((e) => `${e.filePath.slice(graph.tree.root.length + 1)}:${e.line} [${e.toName}] -> line ${e.to!.startLine}`);
      expect(picked).toEqual(PICKED);
    } finally {
      graph.close();
    }
  });

  it('keeps calls of extension methods exact when one changes its type, its class or goes', async () => {
    await expectExactThrough(FILES, backend, [
      // Item's Label goes: item.Label() is Base's.
      (f) => void (f['Shop/Ext.cs'] = f['Shop/Ext.cs']!.replace('    public static string Label(this Item i) => "item";\n', '')),
      // More.Wide now extends Base: two of Base's in one namespace, neither lower.
      (f) => void (f['Lib/More.cs'] = f['Lib/More.cs']!.replace('Wide(this Item i)', 'Wide(this Base i)')),
      // Item gets a member Total: the extension is no longer called.
      (f) => void (f['Shop/Model.cs'] = f['Shop/Model.cs']!.replace('public void Dup() { }', 'public void Dup() { }\n    public int Total(int n) => n;')),
      // Item no longer derives from Base.
      (f) => void (f['Shop/Model.cs'] = f['Shop/Model.cs']!.replace('public class Item : Base', 'public class Item')),
      // Lib's extensions go; Far sees Shop.
      (f) => {
        f['Lib/More.cs'] = null;
        f['Far/Far.cs'] = f['Far/Far.cs']!.replace('namespace Far;', 'using Shop;\n\nnamespace Far;');
      },
    ]);
  });
});
