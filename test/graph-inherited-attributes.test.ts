// An attribute a base class declares (TypeScript `protected client: Client`, a parameter
// property; Python `store: Store` in the class body, `self.db: Optional[Store] = …`, a typed
// `@property`; a Java or C# field, a Kotlin property) types `this.client.get()` / `self.store.get()` in its subclasses' methods, as the
// class's own declarations do in its own. Nothing else is guessed: a `private` field, an
// attribute only assigned, a class without bases, or two bases declaring different classes leave
// the calls unresolved; and a change of the base's declaration re-resolves them.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

type Graph = Awaited<ReturnType<typeof openGraph>>;

const calls = async (db: Graph['db'], root: string): Promise<string[]> =>
  (await db.edges({ kind: 'calls', toName: 'get' })).map((e) => `${e.filePath.slice(root.length + 1)}:${e.line} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

const PYTHON: Record<string, string> = {
  'shop/__init__.py': '',
  'shop/base.py': [
    'from typing import Optional',
    '',
    '',
    'class Store:',
    '    def get(self):',
    '        return 1',
    '',
    '',
    'class Other:',
    '    def get(self):',
    '        return 2',
    '',
    '',
    'class Base:',
    '    store: Store',
    '',
    '    def __init__(self):',
    '        self.db: Optional[Store] = None',
    '        self.plain = Store()',
    '',
    '    @property',
    '    def cached(self) -> Store:',
    '        return Store()',
    '',
    '',
    'class Mixin:',
    '    store: Other',
    '',
  ].join('\n'),
  'shop/sub.py': [
    'from .base import Base, Mixin',
    '',
    '',
    'class Sub(Base):',
    '    def run(self):',
    '        self.store.get()', // 6
    '        self.db.get()',
    '        self.cached.get()',
    '        self.plain.get()', // only assigned
    '        self.missing.get()',
    '',
    '',
    'class Deeper(Sub):',
    '    def run(self):',
    '        self.store.get()', // 15
    '',
    '',
    'class Both(Base, Mixin):',
    '    def run(self):',
    '        self.store.get()', // 20: Store or Other
    '',
    '',
    'class Lone:',
    '    def run(self):',
    '        self.store.get()', // 25
    '',
  ].join('\n'),
};

const TYPESCRIPT: Record<string, string> = {
  'src/base.ts': [
    'export class Client { get(): number { return 1; } }',
    'export class Other { get(): number { return 2; } }',
    'export class Base {',
    '  protected client: Client = new Client();',
    '  private secret: Client = new Client();',
    '  #hidden: Client = new Client();',
    '  constructor(protected readonly other: Other) {}',
    '}',
    '',
  ].join('\n'),
  'src/sub.ts': [
    "import { Base } from './base';",
    'export class Sub extends Base {',
    '  run(): void {',
    '    this.client.get();', // 4
    '    this.other.get();',
    '    this.secret.get();',
    '    this.nothing.get();',
    '    [1].forEach(() => this.client.get());', // 8: an arrow's `this` is the method's
    '  }',
    '  static make(): void {',
    '    this.client.get();', // 11: the class, not an instance
    '  }',
    '}',
    'export class Lone {',
    '  run(): void { this.client.get(); }', // 15
    '}',
    '',
  ].join('\n'),
};

describe('attributes declared by a base class', () => {
  it('Python: type self.x.get() in subclasses, transitively; nothing only assigned, undeclared or declared twice differently', async () => {
    const g = await openGraph(PYTHON);
    try {
      expect(await calls(g.db, g.tree.root)).toEqual([
        'shop/sub.py:6 -> shop.base.Store.get',
        'shop/sub.py:7 -> shop.base.Store.get',
        'shop/sub.py:8 -> shop.base.Store.get',
        'shop/sub.py:9 -> ∅ dynamic',
        'shop/sub.py:10 -> ∅ dynamic',
        'shop/sub.py:15 -> shop.base.Store.get',
        'shop/sub.py:20 -> ∅ dynamic',
        'shop/sub.py:25 -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('TypeScript: type this.x.get() in subclasses; never a private field, in a static method, or in a class without a base', async () => {
    const g = await openGraph(TYPESCRIPT);
    try {
      expect(await calls(g.db, g.tree.root)).toEqual([
        'src/sub.ts:4 -> src/base.Client.get',
        'src/sub.ts:5 -> src/base.Other.get',
        'src/sub.ts:6 -> ∅ dynamic',
        'src/sub.ts:7 -> ∅ dynamic',
        'src/sub.ts:8 -> src/base.Client.get',
        'src/sub.ts:11 -> ∅ dynamic',
        'src/sub.ts:15 -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('Java and C#: type this.x.get() in subclasses; never a private field (C#: also by default) or in a partial class', async () => {
    const g = await openGraph({
      'p/Store.java': 'package p;\npublic class Store { public int get() { return 1; } }\n',
      'p/Base.java': 'package p;\npublic class Base { protected Store store = new Store(); }\n',
      'p/Sub.java': [
        'package p;',
        'public class Sub extends Base {',
        '  void run() { this.store.get(); }', // 3
        '}',
        'class Lone {',
        '  void run() { this.store.get(); }', // 6
        '}',
        '',
      ].join('\n'),
      'A.cs': [
        'namespace P {',
        '  public class Store { public int get() { return 1; } }',
        '  public class Base { protected Store store = new Store(); private Store secret = new Store(); Store plain = new Store(); }',
        '  public class Sub : Base {',
        '    void Run() { this.store.get(); this.secret.get(); this.plain.get(); }', // 5
        '  }',
        '  public partial class Part : Base { void Run() { this.store.get(); } }', // 7: another part may declare it
        '  public class Bare : Base { void Run() { store.get(); } }', // 8: a base's field by its bare name
        '  public class Holder { public Store Store { get; } = new Store(); void Run() { Store.get(); } }', // 9: the property named like its class
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect(await calls(g.db, g.tree.root)).toEqual([
        'A.cs:5 -> ∅ dynamic', // private
        'A.cs:5 -> ∅ dynamic', // private by default
        'A.cs:5 -> P.Store.get',
        'A.cs:7 -> ∅ dynamic',
        'A.cs:8 -> P.Store.get',
        'A.cs:9 -> P.Store.get',
        'p/Sub.java:3 -> p.Store.get',
        'p/Sub.java:6 -> ∅ dynamic',
      ]);
    } finally {
      g.close();
    }
  });

  it('Kotlin: type this.x.get() and x.get() through a supertype’s property; never a private one', async () => {
    const g = await openGraph({
      'A.kt': [
        'package p',
        '',
        'class Store {',
        '    fun get(): Int = 1',
        '}',
        '',
        'open class Base(protected val store: Store, private val secret: Store, plain: Store)',
        '',
        'class Sub(s: Store) : Base(s, s, s) {',
        '    fun run() {',
        '        this.store.get()', // 11
        '        store.get()',
        '        this.secret.get()',
        '        this.plain.get()', // a parameter, no property
        '    }',
        '}',
        '',
        'class Lone {',
        '    fun run() {',
        '        this.store.get()', // 20
        '    }',
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect(await calls(g.db, g.tree.root)).toEqual(['A.kt:11 -> p.Store.get', 'A.kt:12 -> p.Store.get', 'A.kt:13 -> ∅ dynamic', 'A.kt:14 -> ∅ dynamic', 'A.kt:20 -> ∅ dynamic']);
    } finally {
      g.close();
    }
  });

  it('keeps them exact when the base changes what it declares', async () => {
    const pick = (line: number) => async (db: Graph['db'], root: string) => (await calls(db, root)).filter((l) => l.includes(`:${line} `));
    const python = await expectExactThrough(
      PYTHON,
      'memfs',
      [
        (f) => void (f['shop/base.py'] = f['shop/base.py']!.replace('    store: Store\n', '    store: Other\n')),
        (f) => void (f['shop/base.py'] = f['shop/base.py']!.replace('    store: Other\n', '    store = None\n')),
      ],
      pick(6),
    );
    expect(python).toEqual([['shop/sub.py:6 -> shop.base.Other.get'], ['shop/sub.py:6 -> ∅ dynamic']]);
    const typescript = await expectExactThrough(
      TYPESCRIPT,
      'memfs',
      [
        (f) => void (f['src/base.ts'] = f['src/base.ts']!.replace('protected client: Client = new Client();', 'protected client: Other = new Other();')),
        (f) => void (f['src/base.ts'] = f['src/base.ts']!.replace('protected client: Other', 'private client: Other')),
      ],
      pick(4),
    );
    expect(typescript).toEqual([['src/sub.ts:4 -> src/base.Other.get'], ['src/sub.ts:4 -> ∅ dynamic']]);
  });
});
