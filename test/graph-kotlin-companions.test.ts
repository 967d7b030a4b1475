// Kotlin companion objects in the code graph: in a class's body, a plain name that the class and
// its bases do not define is a member of its companion object, or of a base's (a subclass calls
// its superclass's companion members without a qualifier), before any top-level function of the
// name; `Foo.create()` is a member of Foo's companion (named or not), never of a base's. An
// interface's companion member of the name leaves a call in an implementing class unresolved.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'shop/Model.kt': `package shop

open class Base {
    companion object {
        fun make(): Int = 1
    }
}

class Sub : Base() {
    fun m() {
        make()
        Sub.make()
        Base.make()
        create()
    }
}

interface Named {
    companion object {
        fun label(): String = "n"
    }
}

class Impl : Named {
    fun m() {
        label()
    }
}

class Own {
    fun m() {
        make()
        create()
    }

    companion object Factory {
        fun create(): Own = Own()
    }
}
`,
  'shop/Top.kt': `package shop

fun make(): Int = 2

fun create(): Int = 3

fun label(): String = "top"

fun top() {
    make()
    Own.create()
    Base.make()
}
`,
};

const EXPECTED = [
  'shop/Model.kt:9 calls shop.Sub -> shop.Base [Base] local',
  // The superclass's companion, before the package's `make`.
  'shop/Model.kt:11 calls shop.Sub.m -> shop.Base.Companion.make [make] self',
  // Through a subclass's name: no companion of its own.
  'shop/Model.kt:12 calls shop.Sub.m -> ∅ [make] unresolved:not-found',
  'shop/Model.kt:13 calls shop.Sub.m -> shop.Base.Companion.make [make] local',
  'shop/Model.kt:14 calls shop.Sub.m -> shop.create [create] package',
  // Named's companion may be what Impl's body sees, or the package's label.
  'shop/Model.kt:26 calls shop.Impl.m -> ∅ [label] unresolved:ambiguous',
  'shop/Model.kt:32 calls shop.Own.m -> shop.make [make] package',
  // A named companion is the class's companion too.
  'shop/Model.kt:33 calls shop.Own.m -> shop.Own.Factory.create [create] self',
  'shop/Model.kt:37 calls shop.Own.Factory.create -> shop.Own [Own] local',
  'shop/Top.kt:10 calls shop.top -> shop.make [make] local',
  'shop/Top.kt:11 calls shop.top -> shop.Own.Factory.create [create] package',
  'shop/Top.kt:12 calls shop.top -> shop.Base.Companion.make [make] package',
];

describe.each(BACKENDS)('kotlin companion objects on %s', (backend) => {
  it("resolves names in a class's body and through the class's name to its companion's members", async () => {
    const graph = await openGraph(FILES, backend);
    try {
      expect(await graph.lines({ kind: 'calls' })).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('keeps those calls exact when a companion comes, goes or changes its members', async () => {
    await expectExactThrough(FILES, backend, [
      // Base's companion loses make: Sub's make() is the package's.
      (f) => void (f['shop/Model.kt'] = f['shop/Model.kt']!.replace('        fun make(): Int = 1\n', '        fun other(): Int = 1\n')),
      // Own's companion becomes a plain nested object: Own's create() is the package's.
      (f) => void (f['shop/Model.kt'] = f['shop/Model.kt']!.replace('companion object Factory', 'object Factory')),
      // Sub gets a companion with create.
      (f) => void (f['shop/Model.kt'] = f['shop/Model.kt']!.replace('class Sub : Base() {\n', 'class Sub : Base() {\n    companion object {\n        fun create(): Int = 4\n    }\n')),
    ]);
  });
});
