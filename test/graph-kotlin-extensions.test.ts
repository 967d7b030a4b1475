// Kotlin extension functions in the code graph: `fun Foo.ext()` extends Foo. A call `f.ext()` on a
// value of a class with no member `ext` is the one extension visible at the site that applies to
// the class (Kotlin's order: explicit imports, the same package, `.*` imports; of several that
// apply, the one of the class lowest in the hierarchy); in an extension's body the extended class
// is the implicit receiver (`this.m()`, `m()`). Every call that Kotlin could resolve otherwise
// stays unresolved: a member of the name wins, a local function or a member of an enclosing
// class comes first, an extension of a type parameter or of a type outside the codebase (for a
// class with a base outside it) may apply too, and a member extension (declared in a class body,
// with two implicit receivers) keeps its body unresolved. An extension of `Any` applies to every
// class, below all others.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'shop/Model.kt': `package shop

open class Base {
    fun name(): String = "base"
}

class Item : Base() {
    fun price(): Int = 1
    fun dup() {}
}

class Other

class Watcher : java.util.Observable()
`,
  'shop/Ext.kt': `package shop

fun Base.label(): String = name()

fun Item.label(): String = "item"

fun Item.total(): Int {
    price()
    this.price()
    name()
    dup()
    label()
    toString()
    helper()
    return 0
}

fun Item.dup() {}

fun Other.tag() {}

fun Watcher.ping() {
    notifyObservers()
}

fun helper() {}

fun String.shout() = uppercase()

fun <T> T.boxed() {
    price()
}

fun Any.anything() {}

fun Item.anything() {}

fun Watcher.tag() {}
`,
  'shop/Use.kt': `package shop

class Holder {
    fun Item.member() {
        price()
    }

    fun run(item: Item) {
        item.total()
        item.member()
    }
}

fun use(item: Item, base: Base, other: Other, w: Watcher) {
    item.label()
    base.label()
    item.total()
    other.tag()
    item.dup()
    item.anything()
    Item().total()
    w.tag()
    fun local() {}
    other.local()
    other.anything()
}
`,
  'lib/Deep.kt': `package lib

import shop.Base
import shop.Item

fun Base.deep() {}

fun Item.deep2() {}
`,
  'app/App.kt': `package app

import shop.Item
import shop.Base
import shop.total as sum
import lib.deep
import lib.*

fun Item.deep() {}

fun main(item: Item, base: Base) {
    item.sum()
    item.total()
    item.deep()
    item.deep2()
    base.label()
}
`,
};

const EXPECTED = [
  'app/App.kt:3 imports app -> shop.Item [shop.Item] import',
  'app/App.kt:4 imports app -> shop.Base [shop.Base] import',
  'app/App.kt:5 imports app -> shop.total [shop.total] import',
  'app/App.kt:6 imports app -> lib.deep [lib.deep] import',
  'app/App.kt:7 imports app -> lib [lib] import',
  // An extension imported by an alias.
  'app/App.kt:12 calls app.main -> shop.total [sum] typed',
  // Not imported by name, not in the package, not in a `.*` import: no extension applies.
  'app/App.kt:13 calls app.main -> ∅ [total] unresolved:not-found',
  // The explicit import comes before the package's own `Item.deep`, although that one is lower.
  'app/App.kt:14 calls app.main -> lib.deep [deep] typed',
  // Through `import lib.*`.
  'app/App.kt:15 calls app.main -> lib.deep2 [deep2] typed',
  'app/App.kt:16 calls app.main -> ∅ [label] unresolved:not-found',
  'lib/Deep.kt:3 imports lib -> shop.Base [shop.Base] import',
  'lib/Deep.kt:4 imports lib -> shop.Item [shop.Item] import',
  // The implicit receiver's method, inherited.
  'shop/Ext.kt:3 calls shop.label -> shop.Base.name [name] self',
  'shop/Ext.kt:8 calls shop.total -> shop.Item.price [price] self',
  'shop/Ext.kt:9 calls shop.total -> shop.Item.price [price] self',
  'shop/Ext.kt:10 calls shop.total -> shop.Base.name [name] self',
  // The member, never the extension of the same name.
  'shop/Ext.kt:11 calls shop.total -> shop.Item.dup [dup] self',
  // No member: a top-level function of the package (two extensions of that name: unresolved).
  'shop/Ext.kt:12 calls shop.total -> ∅ [label] unresolved:ambiguous',
  'shop/Ext.kt:13 calls shop.total -> ∅ [toString] unresolved:not-found',
  'shop/Ext.kt:14 calls shop.total -> shop.helper [helper] local',
  // Watcher's base is outside the codebase: it may have the method.
  'shop/Ext.kt:23 calls shop.ping -> ∅ [notifyObservers] unresolved:external',
  'shop/Ext.kt:28 calls shop.shout -> ∅ [uppercase] unresolved:external',
  // A type parameter's members are unknown.
  'shop/Ext.kt:31 calls shop.boxed -> ∅ [price] unresolved:dynamic',
  'shop/Model.kt:4 contains shop.Base -> shop.Base.name [name] local',
  'shop/Model.kt:7 calls shop.Item -> shop.Base [Base] local',
  'shop/Model.kt:7 inherits shop.Item -> shop.Base [Base] local',
  'shop/Model.kt:8 contains shop.Item -> shop.Item.price [price] local',
  'shop/Model.kt:9 contains shop.Item -> shop.Item.dup [dup] local',
  'shop/Model.kt:14 calls shop.Watcher -> ∅ [Observable] unresolved:not-found',
  'shop/Model.kt:14 inherits shop.Watcher -> ∅ [Observable] unresolved:not-found',
  // A member extension's body has two implicit receivers.
  'shop/Use.kt:4 contains shop.Holder -> shop.Holder.member [member] local',
  'shop/Use.kt:5 calls shop.Holder.member -> ∅ [price] unresolved:dynamic',
  'shop/Use.kt:8 contains shop.Holder -> shop.Holder.run [run] local',
  'shop/Use.kt:9 calls shop.Holder.run -> shop.total [total] typed',
  // A member extension of the enclosing class comes before the top-level ones.
  'shop/Use.kt:10 calls shop.Holder.run -> ∅ [member] unresolved:ambiguous',
  // The extension of the lowest class that applies.
  'shop/Use.kt:15 calls shop.use -> shop.label [label] typed',
  'shop/Use.kt:16 calls shop.use -> shop.label [label] typed',
  'shop/Use.kt:17 calls shop.use -> shop.total [total] typed',
  'shop/Use.kt:18 calls shop.use -> shop.tag [tag] typed',
  'shop/Use.kt:19 calls shop.use -> shop.Item.dup [dup] typed',
  // `Item.anything` is below `Any.anything` (which applies to every class: see line 25).
  'shop/Use.kt:20 calls shop.use -> shop.anything [anything] typed',
  'shop/Use.kt:21 calls shop.use -> shop.Item [Item] package',
  'shop/Use.kt:21 calls shop.use -> shop.total [total] typed',
  // Watcher's base is outside the codebase: a member of it may be named tag.
  'shop/Use.kt:22 calls shop.use -> ∅ [tag] unresolved:external',
  'shop/Use.kt:23 contains shop.use -> shop.use.local [local] local',
  // A local function of the name comes first.
  'shop/Use.kt:24 calls shop.use -> ∅ [local] unresolved:ambiguous',
  'shop/Use.kt:25 calls shop.use -> shop.anything [anything] typed',
];

/** Resolved calls of names several extensions share, with the line of the one picked. */
const PICKED = [
  'shop/Use.kt:15 [label] -> line 5',
  'shop/Use.kt:16 [label] -> line 3',
  'shop/Use.kt:18 [tag] -> line 20',
  'shop/Use.kt:20 [anything] -> line 36',
  'shop/Use.kt:25 [anything] -> line 34',
];

describe.each(BACKENDS)('kotlin extension functions on %s', (backend) => {
  it('resolves calls of extensions and in their bodies exactly', async () => {
    const graph = await openGraph(FILES, backend);
    try {
      const lines = await graph.lines({ kind: ['calls', 'imports', 'inherits', 'implements', 'contains'] });
      expect(lines).toEqual(EXPECTED);
      const picked = (await graph.db.edges({ kind: 'calls' }))
        .filter((e) => e.to !== null && ['label', 'tag', 'anything'].includes(e.toName))
        .map((e) => `${e.filePath.slice(graph.tree.root.length + 1)}:${e.line} [${e.toName}] -> line ${e.to!.startLine}`);
      expect(picked).toEqual(PICKED);
    } finally {
      graph.close();
    }
  });

  it('keeps calls of extensions exact when an extension changes its type, moves or goes', async () => {
    await expectExactThrough(FILES, backend, [
      // Item.label goes: item.label() is Base's.
      (f) => void (f['shop/Ext.kt'] = f['shop/Ext.kt']!.replace('fun Item.label(): String = "item"\n', '')),
      // Other.tag now extends Item (item has no member tag): other.tag() finds none.
      (f) => void (f['shop/Ext.kt'] = f['shop/Ext.kt']!.replace('fun Other.tag() {}', 'fun Item.tag() {}')),
      // Item gets a member total: the extension is no longer called.
      (f) => void (f['shop/Model.kt'] = f['shop/Model.kt']!.replace('fun dup() {}', 'fun dup() {}\n    fun total(): Int = 2')),
      // Item no longer extends Base: Base's label and name stop applying to it.
      (f) => void (f['shop/Model.kt'] = f['shop/Model.kt']!.replace('class Item : Base() {', 'class Item {')),
      // lib's extensions move to app's package.
      (f) => {
        f['app/More.kt'] = 'package app\n\nimport shop.Item\n\nfun Item.deep2() {}\n';
        f['lib/Deep.kt'] = null;
      },
    ]);
  });
});
