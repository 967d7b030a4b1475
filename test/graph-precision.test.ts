// Edges a precision audit of real code found wrong (commander, picomatch, Django), reduced to
// small codebases: each call here was resolved to a definition it does not call. Each test
// lists the calls of the small codebase exactly, so a rule that invents the edge again fails it,
// and a sound rule that stops resolving the right ones does too.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

async function callLines(files: Record<string, string>): Promise<string[]> {
  const g = await openGraph(files);
  try {
    return (await g.lines({ kind: ['calls', 'inherits', 'implements'] })).sort();
  } finally {
    g.close();
  }
}

describe('JavaScript and TypeScript scopes', () => {
  it('a function stored in an object literal or a property binds no name', async () => {
    const lines = await callLines({
      'a.js': [
        'function helper() { return 0; }', // 1
        'function stripColor(s) { return s; }', // 2
        'function make() {', // 3
        '  const out = { stripColor: (s) => stripColor(s) };', // 4: the module's stripColor, not the property
        '  out.helper = () => 1;', // 5
        '  helper();', // 6: the module's helper
        '  return out;',
        '}',
        'exports.exported = function () { return 2; };', // 9
        'function user() { return exported(); }', // 10: no name `exported` exists
        'const o = { step() { return 1; } };', // 11
        'function step2() { return step(); }', // 12: no name `step` exists
        'module.exports = { make, user, o, step2 };',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.js:10 calls a.user -> ∅ [exported] unresolved:not-found',
      'a.js:12 calls a.step2 -> ∅ [step] unresolved:not-found',
      'a.js:4 calls a.make.stripColor -> a.stripColor [stripColor] local',
      'a.js:6 calls a.make -> a.helper [helper] local',
    ]);
  });

  it('const, let, classes and functions declared in a block are names of that block only', async () => {
    const lines = await callLines({
      'a.ts': [
        'export function step(): number { return 0; }', // 1
        'export function f(): number {', // 2
        '  if (Math.random() > 0.5) { const step = (): number => 9; return step(); }', // 3: the block's
        '  return step();', // 4: the module's
        '}',
        'export function g(flag: boolean): number {', // 6
        '  if (flag) { function step(): number { return 9; } return step(); }', // 7: the block's
        '  return step();', // 8: sloppy scripts hoist the block's function here: unknown
        '}',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.ts:3 calls a.f -> a.f.step [step] local',
      'a.ts:3 calls a.f -> ∅ [random] unresolved:builtin',
      'a.ts:4 calls a.f -> a.step [step] local',
      'a.ts:7 calls a.g -> a.g.step [step] local',
      'a.ts:8 calls a.g -> ∅ [step] unresolved:local-variable',
    ]);
  });

  it('a call that wraps a function literal, bound inside a function, is a value there (no definition is made of it)', async () => {
    const lines = await callLines({
      'lib/ser.js': 'function errSerializer(e) { return e }\nmodule.exports = errSerializer\n',
      'index.js': 'function wrap(f) { return f }\nmodule.exports = wrap\n',
      'test/t.test.js': [
        "const serializer = require('../lib/ser')", // 1
        "const wrap = require('../')", // 2
        'function a() { serializer(1) }', // 3: the module's (the required function)
        'function b() {', // 4
        '  const serializer = wrap(function (err) { return err })', // 5
        '  serializer(2)', // 6: this function's local value, not the module's
        '}',
      ].join('\n'),
    });
    expect(lines.filter((l) => l.includes('[serializer]'))).toEqual([
      'test/t.test.js:3 calls test/t.test.a -> lib/ser.errSerializer [serializer] import',
      'test/t.test.js:6 calls test/t.test.b -> ∅ [serializer] unresolved:local-variable',
    ]);
  });

  it('a name assigned again holds what nothing declares', async () => {
    const lines = await callLines({
      'a.js': [
        'function build(p) { return (s) => s === p; }', // 1
        'function matcher(ignore) {', // 2
        '  let isIgnored = () => false;',
        '  if (ignore) isIgnored = build(ignore);', // 4
        '  return (s) => isIgnored(s);', // 5: the first value or build's result
        '}',
        'let hook = () => 1;', // 7
        'function setHook(fn) { hook = fn; }',
        'function runHook() { return hook(); }', // 9: whatever setHook stored
        'class K { step() {} }', // 10
        'class L { step() {} }', // 11
        'function h() { let k = new K(); k = new L(); return k.step(); }', // 12: K's or L's
        'function same() { let k = new K(); k = new K(); return k.step(); }', // 13: K's either way
        'module.exports = { matcher, setHook, runHook, h, same };',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.js:12 calls a.h -> a.K [K] local',
      'a.js:12 calls a.h -> a.L [L] local',
      'a.js:12 calls a.h -> ∅ [step] unresolved:dynamic',
      'a.js:13 calls a.same -> a.K [K] local',
      'a.js:13 calls a.same -> a.K [K] local',
      'a.js:13 calls a.same -> a.K.step [step] typed',
      'a.js:4 calls a.matcher -> a.build [build] local',
      'a.js:5 calls a.matcher -> ∅ [isIgnored] unresolved:local-variable',
      'a.js:9 calls a.runHook -> ∅ [hook] unresolved:dynamic',
    ]);
  });

  it('keeps this in an arrow inside a block, and a declared type through assignments', async () => {
    const lines = await callLines({
      'a.ts': [
        'export class Store { save(): void {} }', // 1
        'export class Shop {', // 2
        '  x(): number { return 1; }',
        '  run(list: number[], c: boolean): void {',
        '    if (c) { list.map(() => this.x()); }', // 5: the class's x
        '    let store: Store | undefined;',
        '    store = make();', // 7
        '    store.save();', // 8: a Store, as declared
        '  }',
        '}',
        'export function make(): Store { return new Store(); }', // 11
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.ts:11 calls a.make -> a.Store [Store] local',
      'a.ts:5 calls a.Shop.run -> a.Shop.x [x] self',
      'a.ts:5 calls a.Shop.run -> ∅ [map] unresolved:dynamic',
      'a.ts:7 calls a.Shop.run -> a.make [make] local',
      'a.ts:8 calls a.Shop.run -> a.Store.save [save] typed',
    ]);
  });

  it('static and instance members of one name are apart', async () => {
    const lines = await callLines({
      'a.ts': [
        'export class Base { static create(): string { return ""; } run(): string { return ""; } }', // 1
        'export class Derived extends Base {', // 2
        '  create(): string { return ""; }',
        '  static run(): string { return ""; }',
        '  static make(): string { return this.create(); }', // 5: Base's static create, not Derived's instance one
        '  go(): string { return this.run(); }', // 6: Base's instance run
        '  again(): string { return this.create(); }', // 7: Derived's instance create
        '}',
        'export function use(d: Derived): string { return d.run() + Derived.create() + Derived.run(); }', // 9
      ].join('\n'),
    });
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'a.ts:5 calls a.Derived.make -> ∅ [create] unresolved:ambiguous',
      'a.ts:6 calls a.Derived.go -> ∅ [run] unresolved:ambiguous',
      'a.ts:7 calls a.Derived.again -> a.Derived.create [create] self',
      'a.ts:9 calls a.use -> a.Derived.run [run] local',
      'a.ts:9 calls a.use -> ∅ [create] unresolved:ambiguous',
      'a.ts:9 calls a.use -> ∅ [run] unresolved:ambiguous',
    ]);
  });

  it('an update that makes a method or a function-valued field static re-resolves the calls other files make of it', async () => {
    await expectExactThrough(
      {
        'a.ts': 'export class A {\n  create() { return 1; }\n  build = () => 2;\n}\n',
        'b.ts': "import { A } from './a';\nexport function f(a: A) { return a.create() + a.build(); }\nexport function g() { return A.create() + A.build(); }\n",
      },
      'memfs',
      [
        (f) => {
          f['a.ts'] = f['a.ts']!.replace('  create()', '  static create()').replace('  build =', '  static build =');
        },
        (f) => {
          f['a.ts'] = f['a.ts']!.replace('  static create()', '  create()');
        },
        (f) => {
          f['a.ts'] = f['a.ts']!.replace('  static build', '  build');
        },
      ],
    );
  });

  it('type parameters and parameters are not the classes they are named like', async () => {
    const lines = await callLines({
      'a.ts': [
        'export class Service { start(): void {} }', // 1
        'export interface Named { name(): string }', // 2
        'export class Box<Service extends { start(): void }> { go(s: Service): void { s.start(); } }', // 3
        'export function make<Named>(): unknown { return class implements Named {}; }', // 4
        'export function run(s: Service): void { s.start(); }', // 5: the class
        'export class A { m(): string { return "A"; } }', // 6
        'export function factory(A: new () => { m(): string }) { return class B extends A { n(): string { return super.m(); } }; }', // 7
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.ts:3 calls a.Box.go -> ∅ [start] unresolved:dynamic',
      'a.ts:4 implements a.make -> ∅ [Named] unresolved:local-variable',
      'a.ts:5 calls a.run -> a.Service.start [start] typed',
      'a.ts:7 calls a.factory.B.n -> ∅ [m] unresolved:dynamic', // the parameter's class may define m
      'a.ts:7 inherits a.factory.B -> ∅ [A] unresolved:parameter',
    ]);
  });
  it('a function or class expression\'s own name means its own definition inside it, or a value: never an outer definition of that name', async () => {
    const lines = await callLines({
      'a.js': [
        'function g(n) { return n; }', // 1
        'function h(n) { return n; }', // 2
        'class Inner { static make() { return 1; } }', // 3
        'function* gen() { yield 1; }', // 4
        'export function run(arr) {', // 5
        '  arr.map(function g(x) { return g(x); });', // 6: the callback, a definition named g: itself
        '  const k = function h(y) { return h(y); };', // 7: k itself (a definition named k), not the module's h
        '  return k;',
        '}',
        'export const K = class Inner { m() { return Inner.make(); } n() { return new Inner(); } };', // 10: K itself
        'export const G = function* gen(n) { yield* gen(n - 1); };', // 11: G itself
        'export function use() { g(1); h(2); gen(); return new Inner(); }', // 12: the module's names
        'var Same = class Same { static a() { return 1; } b() { return Same.a(); } };', // 13: the variable is the class
        'export function mk() { return function rec(n) { return rec(n); }; }', // 14: itself
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.js:10 calls a.K.m -> ∅ [make] unresolved:dynamic',
      'a.js:10 calls a.K.n -> ∅ [Inner] unresolved:local-variable',
      'a.js:11 calls a.G -> ∅ [gen] unresolved:local-variable',
      'a.js:12 calls a.use -> a.Inner [Inner] local',
      'a.js:12 calls a.use -> a.g [g] local',
      'a.js:12 calls a.use -> a.gen [gen] local',
      'a.js:12 calls a.use -> a.h [h] local',
      'a.js:13 calls a.Same.b -> a.Same.a [a] local',
      'a.js:14 calls a.mk.rec -> a.mk.rec [rec] local',
      'a.js:6 calls a.run -> ∅ [map] unresolved:dynamic',
      'a.js:6 calls a.run.g -> a.run.g [g] local',
      'a.js:7 calls a.run.k -> ∅ [h] unresolved:local-variable',
    ]);
  });
  it('a definition inside an anonymous function or a block is no module name outside it (IIFEs, bundlers\' module wrappers)', async () => {
    const lines = await callLines({
      'a.js': [
        'var require_string = __commonJSMin((exports, module) => {', // 1: a bundler's module wrapper
        '  var String = function(_super) { function String(opts) { return _super.call(this, opts); } return String; }(Base);', // 2
        '  function helper() { return 1; }', // 3
        '  module.exports = helper;', // 4
        '});', // 5
        'function valueToString(v) { return String(v) + helper(); }', // 6: the global String; no helper in scope
        '(function () { function inner() { return 1; } inner(); })();', // 7: the IIFE's inner
        'export function outside() { return inner(); }', // 8: no inner in scope
        'export function top() { return 1; }', // 9
        '(() => { top(); })();', // 10: the module's top
        '{ const blocked = () => 1; blocked(); }', // 11: the block's
        'export function afterBlock() { return blocked(); }', // 12: no blocked in scope
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.js:1 calls a -> ∅ [__commonJSMin] unresolved:not-found',
      'a.js:10 calls a -> a.top [top] local',
      'a.js:11 calls a -> a.blocked [blocked] local',
      'a.js:12 calls a.afterBlock -> ∅ [blocked] unresolved:not-found',
      'a.js:2 calls a.String -> ∅ [call] unresolved:dynamic',
      'a.js:6 calls a.valueToString -> ∅ [String] unresolved:builtin',
      'a.js:6 calls a.valueToString -> ∅ [helper] unresolved:not-found',
      'a.js:7 calls a -> a.inner [inner] local',
      'a.js:8 calls a.outside -> ∅ [inner] unresolved:not-found',
    ]);
  });

  it('Kotlin: a local function inside a lambda is no name of the file', async () => {
    const lines = await callLines({
      'a/A.kt': [
        'package a', // 1
        '',
        'val x = run { fun helper(): Int = 1; helper() }', // 3: the lambda's (its symbol sits at file level: unresolved)
        'fun other(): Int = helper()', // 4: no helper in scope
        'fun outer(): Int { fun inner(): Int = 2; return inner() }', // 5: a local function of a named function
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a/A.kt:3 calls a -> ∅ [helper] unresolved:not-found',
      'a/A.kt:3 calls a -> ∅ [run] unresolved:builtin',
      'a/A.kt:4 calls a.other -> ∅ [helper] unresolved:not-found',
      'a/A.kt:5 calls a.outer -> a.outer.inner [inner] local',
    ]);
  });

  it('Scala: a def in a block is no member of the object; TS: a function in a field\'s IIFE is no member of the class', async () => {
    const lines = await callLines({
      'd/D.scala': [
        'package d', // 1
        '',
        'object D {', // 3
        '  val x = { def helper(): Int = 1; helper() }', // 4: the block's (its symbol sits in D: unresolved)
        '  def other(): Int = helper()', // 5: no member helper
        '  def m(): Int = { def inner(): Int = 2; inner() }', // 6: a local def of a named def
        '}',
      ].join('\n'),
      'f.ts': [
        'export class F {', // 1
        '  x = (() => { function helper() { return 1; } return helper(); })();', // 2
        '  other() { return this.helper(); }', // 3: F has no method helper
        '}',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'd/D.scala:4 calls d.D -> ∅ [helper] unresolved:not-found',
      'd/D.scala:5 calls d.D.other -> ∅ [helper] unresolved:not-found',
      'd/D.scala:6 calls d.D.m -> d.D.m.inner [inner] local',
      'f.ts:2 calls f.F -> ∅ [helper] unresolved:not-found',
      'f.ts:3 calls f.F.other -> ∅ [helper] unresolved:not-found',
    ]);
  });

  it('Java: a local class in a lambda of a field\'s initialiser is no member of the class', async () => {
    const lines = await callLines({
      'e/E.java': [
        'package e;', // 1
        '',
        'class E {', // 3
        '  void a() { class Local { class M { void q() {} } void helper() { new M().q(); } } new Local().helper(); }', // 4
        '  Runnable r = () -> { class Lam { void h() {} } new Lam().h(); };', // 5: its symbol sits in E (unresolved)
        '  void other() { new Local(); new Lam(); }', // 6: neither is in scope
        '}',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'e/E.java:4 calls e.E.a -> e.E.a.Local [Local] local',
      'e/E.java:4 calls e.E.a -> e.E.a.Local.helper [helper] typed',
      'e/E.java:4 calls e.E.a.Local.helper -> e.E.a.Local.M [M] self',
      'e/E.java:4 calls e.E.a.Local.helper -> e.E.a.Local.M.q [q] typed',
      'e/E.java:5 calls e.E -> ∅ [Lam] unresolved:not-found',
      'e/E.java:5 calls e.E -> ∅ [h] unresolved:not-found',
      'e/E.java:6 calls e.E.other -> ∅ [Lam] unresolved:not-found',
      'e/E.java:6 calls e.E.other -> ∅ [Local] unresolved:not-found',
    ]);
  });

  it('an update that moves a definition into or out of a wrapper re-resolves its callers', async () => {
    const caller = 'export function use() { return helper(); }\n';
    await expectExactThrough({ 'a.js': `function helper() { return 1; }\n${caller}`, 'b.js': 'function helper() { return 2; }\n' }, 'memfs', [
      (f) => {
        f['a.js'] = `(function () { function helper() { return 1; } helper(); })();\n${caller}`;
      },
      (f) => {
        f['a.js'] = `{ const helper = () => 1; }\n${caller}`;
      },
      (f) => {
        f['a.js'] = `const helper = () => 1;\n${caller}`;
      },
    ]);
  });
});

describe('Python scopes', () => {
  it('super(Other, self) starts after Other, which the file cannot know; super(Own, self) is super()', async () => {
    const lines = await callLines({
      'pkg/__init__.py': '',
      'pkg/base.py': ['class A:', '    def m(self): return "A"', '', 'class B(A):', '    def m(self): return "B"', ''].join('\n'),
      'pkg/child.py': [
        'from pkg.base import B', // 1
        '',
        'class C(B):', // 3
        '    def m(self):',
        '        return super(B, self).m()', // 5: A.m at run time, never B.m
        '',
        '    def n(self):',
        '        return super(C, self).m()', // 8: B.m
        '',
      ].join('\n'),
    });
    expect(lines.filter((l) => l.startsWith('pkg/child.py'))).toEqual([
      'pkg/child.py:3 inherits pkg.child.C -> pkg.base.B [B] import',
      'pkg/child.py:5 calls pkg.child.C.m -> ∅ [m] unresolved:dynamic',
      'pkg/child.py:8 calls pkg.child.C.n -> pkg.base.B.m [m] super',
    ]);
  });

  it('nonlocal or global beside a def, a rebinding of a typed name or of self leave the value unknown', async () => {
    const lines = await callLines({
      'mod.py': [
        'class Foo:', // 1
        '    def go(self): pass',
        '',
        'class Other:', // 4
        '    def go(self): pass',
        '',
        'def outer(cb):', // 7
        '    def inner(flag):',
        '        nonlocal cb',
        '        if flag:',
        '            def cb(): return 1',
        '        return cb()', // 12: outer's parameter, or the def
        '    return inner',
        '',
        'def typed():', // 15
        '    x = Foo()', // 16
        '    import os as x',
        '    return x.go()', // 18: Foo's go or the os module's
        '',
        'class K:', // 20
        '    def go(self): pass',
        '    def m(self, c):',
        '        if c:',
        '            self = Other()', // 24
        '        return self.go()', // 25: K's or Other's
        '',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'mod.py:12 calls mod.outer.inner -> ∅ [cb] unresolved:local-variable',
      'mod.py:16 calls mod.typed -> mod.Foo [Foo] local',
      'mod.py:18 calls mod.typed -> ∅ [go] unresolved:dynamic',
      'mod.py:24 calls mod.K.m -> mod.Other [Other] local',
      'mod.py:25 calls mod.K.m -> ∅ [go] unresolved:dynamic',
    ]);
  });
});

/** Every file under a folder of the audit's reproductions, by relative path. */
function files(entries: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(entries).map(([path, lines]) => [path, lines.join('\n') + '\n']));
}

describe('Python method resolution order', () => {
  it('self and super follow the C3 order, and a class attribute hides an inherited method', async () => {
    const lines = await callLines(
      files({
        'pkg/__init__.py': [''],
        'pkg/compiler.py': ['class SQLCompiler:', '    def as_sql(self): pass', '', 'class SQLDeleteCompiler(SQLCompiler):', '    pass'],
        'pkg/mysql.py': [
          'from pkg import compiler', // 1
          '',
          'class SQLCompiler(compiler.SQLCompiler):', // 3
          '    def as_sql(self): pass',
          '',
          'class SQLDeleteCompiler(compiler.SQLDeleteCompiler, SQLCompiler):', // 6
          '    def run(self):',
          '        return self.as_sql()', // 8: C3: mysql.SQLCompiler before compiler.SQLCompiler
          '',
          '    def run_super(self):',
          '        return super().as_sql()', // 11: the same
          '',
          'class Quiet(SQLCompiler):', // 13
          '    as_sql = None', // 14
          '',
          'class Quieter(Quiet):', // 16
          '    def run(self):',
          '        return self.as_sql()', // 18: None here, not SQLCompiler.as_sql
          '',
          'class Broken(SQLCompiler, SQLDeleteCompiler):', // 20: no consistent order (Python refuses it)
          '    def run(self):',
          '        return self.as_sql()', // 22
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'pkg/mysql.py:11 calls pkg.mysql.SQLDeleteCompiler.run_super -> pkg.mysql.SQLCompiler.as_sql [as_sql] super',
      'pkg/mysql.py:18 calls pkg.mysql.Quieter.run -> ∅ [as_sql] unresolved:dynamic',
      'pkg/mysql.py:22 calls pkg.mysql.Broken.run -> ∅ [as_sql] unresolved:ambiguous',
      'pkg/mysql.py:8 calls pkg.mysql.SQLDeleteCompiler.run -> pkg.mysql.SQLCompiler.as_sql [as_sql] self',
    ]);
  });
});

describe('Python method resolution order across updates', () => {
  it('an update that gives a base a class attribute of a method\'s name re-resolves the calls that found the method past it', async () => {
    await expectExactThrough(
      {
        'base.py': 'class A:\n    def m(self):\n        return 1\n\nclass B(A):\n    pass\n',
        'user.py': 'from base import B\n\nclass C(B):\n    def run(self):\n        return self.m()\n',
      },
      'memfs',
      [
        (f) => {
          f['base.py'] = f['base.py']!.replace('    pass\n', '    m = None\n');
        },
        (f) => {
          f['base.py'] = f['base.py']!.replace('    m = None\n', '    pass\n');
        },
      ],
    );
  });
});

describe('Java super constructors', () => {
  it('super(...) constructs the superclass (never an interface, never a class above it)', async () => {
    const lines = await callLines(
      files({
        'p/Marker.java': ['package p;', 'public interface Marker {}'],
        'p/Root.java': ['package p;', 'public class Root implements Marker {', '    public Root(String s) {}', '}'],
        'p/Base.java': ['package p;', 'public class Base extends Root {', '    public Base(String s) { super(s); }', '    public Base(Throwable t) { super(""); }', '}'],
        'p/Derived.java': ['package p;', 'public class Derived extends Base {', '    public Derived(String s) {', '        super(s);', '    }', '}'],
        'p/Plain.java': ['package p;', 'public class Plain implements Marker {', '    public Plain() {', '        super();', '    }', '}'],
        'p/Bare.java': ['package p;', 'public class Bare {}'],
        'p/OnBare.java': ['package p;', 'public class OnBare extends Bare {', '    public OnBare() {', '        super();', '    }', '}'],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      // Base(String) or Base(Throwable): the argument's type decides; Root's is never called here.
      'p/Base.java:3 calls p.Base.Base -> p.Root.Root [super] super',
      'p/Base.java:4 calls p.Base.Base -> p.Root.Root [super] super',
      'p/Derived.java:4 calls p.Derived.Derived -> ∅ [super] unresolved:ambiguous',
      // Bare declares no constructor: its implicit one.
      'p/OnBare.java:4 calls p.OnBare.OnBare -> p.Bare [super] super',
      // Marker is an interface: Object() is called, outside the codebase.
      'p/Plain.java:4 calls p.Plain.Plain -> ∅ [super] unresolved:external',
    ]);
  });
});

describe('Java implicit imports', () => {
  const CLASS_LOADER = [
    'package java.lang;',
    'public abstract class ClassLoader {',
    '    protected final Class<?> defineClass(String name, byte[] b, int off, int len, ProtectionDomain pd) { return null; }',
    '    protected Class<?> findClass(String name) { return null; }',
    '}',
  ];
  const SECURE = [
    'package java.security;',
    'public class SecureClassLoader extends ClassLoader {',
    '    protected final Class<?> defineClass(String name, byte[] b, int off, int len, CodeSource cs) {',
    '        return defineClass(name, b, off, len, getProtectionDomain(cs));', // 4: ClassLoader's, by its parameter types
    '    }',
    '    void load() { findClass("x"); }', // 6: ClassLoader's
    '    ProtectionDomain getProtectionDomain(CodeSource cs) { return null; }',
    '}',
  ];

  it('every file imports java.lang.* when the codebase holds it (the JDK): its classes are bases', async () => {
    // Without the implicit import ClassLoader was outside the codebase, and defineClass(…) found
    // only SecureClassLoader's own method of five parameters: an edge to itself.
    const lines = await callLines(files({ 'java/lang/ClassLoader.java': CLASS_LOADER, 'java/security/SecureClassLoader.java': SECURE }));
    expect(lines).toEqual([
      'java/security/SecureClassLoader.java:2 inherits java.security.SecureClassLoader -> java.lang.ClassLoader [ClassLoader] import',
      'java/security/SecureClassLoader.java:4 calls java.security.SecureClassLoader.defineClass -> java.security.SecureClassLoader.getProtectionDomain [getProtectionDomain] self',
      'java/security/SecureClassLoader.java:4 calls java.security.SecureClassLoader.defineClass -> ∅ [defineClass] unresolved:ambiguous',
      'java/security/SecureClassLoader.java:6 calls java.security.SecureClassLoader.load -> java.lang.ClassLoader.findClass [findClass] self',
    ]);
    // Outside the codebase java.lang stays a builtin, as before.
    const alone = await callLines(files({ 'java/security/SecureClassLoader.java': SECURE }));
    expect(alone.filter((l) => l.includes(' inherits '))).toEqual([
      'java/security/SecureClassLoader.java:2 inherits java.security.SecureClassLoader -> ∅ [ClassLoader] unresolved:builtin',
    ]);
  });

  it('a call a base answers with several candidates is ambiguous, never external: callers count it; constructors are not inherited', async () => {
    const tree = files({
      'p/Base.java': ['package p;', 'public class Base {', '    void put(int x) {}', '    void put(String s) {}', '}'],
      'p/Mid.java': ['package p;', 'public class Mid extends Base {}'],
      'p/Leaf.java': ['package p;', 'public class Leaf extends Mid {', '    void go() { put(1); }', '    private Reader in;', '    void pull() { in.read(1); }', '}'],
      'p/Reader.java': ['package p;', 'public class Reader {', '    public Reader() {}', '    public Reader(Object lock) {}', '    int read(int n) { return n; }', '}'],
      'p/Buffered.java': ['package p;', 'public class Buffered extends Reader {', '    private Reader in;', '    void fill() { in.read(2); }', '}'],
      'p/I0.java': ['package p;', 'public interface I0 {}'],
      'p/I1.java': ['package p;', 'public interface I1 extends I0 {}'],
      'p/I2.java': ['package p;', 'public interface I2 extends I0 {}'],
      'p/Both.java': ['package p;', 'public class Both implements I1, I2 {', '    void go() { nowhere(); }', '}'],
    });
    // `put(1)` is one of Base's two puts, two classes up (it was `external`: a base outside the
    // codebase, which callers do not count); an interface met twice (I0 through I1 and I2) adds
    // nothing the second time (it made `nowhere()` ambiguous); constructors are not inherited.
    expect((await callLines(tree)).filter((l) => l.includes(' calls '))).toEqual([
      'p/Both.java:3 calls p.Both.go -> ∅ [nowhere] unresolved:not-found',
      // `Reader` in a subclass of Reader is the class (its two constructors are no members).
      'p/Buffered.java:4 calls p.Buffered.fill -> p.Reader.read [read] typed',
      'p/Leaf.java:3 calls p.Leaf.go -> ∅ [put] unresolved:ambiguous',
      'p/Leaf.java:5 calls p.Leaf.pull -> p.Reader.read [read] typed',
    ]);
    const g = await openGraph(tree);
    try {
      const answer = await g.db.callers('p.Base.put');
      expect(answer.complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('Kotlin secondary constructors are not inherited either', async () => {
    const lines = await callLines(
      files({
        'p/Base.kt': ['package p', 'open class Base {', '    constructor(x: Int) {}', '    constructor(s: String) {}', '    fun read(n: Int): Int = n', '}'],
        'p/Sub.kt': ['package p', 'class Sub : Base(1) {', '    fun go(b: Base) { b.read(1) }', '}'],
        'p/One.kt': ['package p', 'open class One {', '    constructor(x: Int) {}', '    fun read(n: Int): Int = n', '}'],
        'p/SubOne.kt': ['package p', 'class SubOne : One(1) {', '    fun go(b: One) { b.read(1) }', '}'],
      }),
    );
    // `Base` / `One` inside their subclasses are the classes: two secondary constructors made them
    // ambiguous, one made `One` that constructor (and `b.read(1)` not found).
    expect(lines).toEqual([
      'p/Sub.kt:2 calls p.Sub -> p.Base [Base] package',
      'p/Sub.kt:2 inherits p.Sub -> p.Base [Base] package',
      'p/Sub.kt:3 calls p.Sub.go -> p.Base.read [read] typed',
      'p/SubOne.kt:2 calls p.SubOne -> p.One [One] package',
      'p/SubOne.kt:2 inherits p.SubOne -> p.One [One] package',
      'p/SubOne.kt:3 calls p.SubOne.go -> p.One.read [read] typed',
    ]);
  });

  it('an update that adds or removes java.lang re-resolves the files that relied on it', async () => {
    const base = files({ 'java/security/SecureClassLoader.java': SECURE });
    await expectExactThrough(base, 'memfs', [
      (f) => {
        f['java/lang/ClassLoader.java'] = CLASS_LOADER.join('\n');
      },
      (f) => {
        f['java/lang/ClassLoader.java'] = null;
      },
    ]);
  });
});

describe('Java overloads across a class hierarchy', () => {
  it('an inherited method with as many parameters is another candidate unless overridden', async () => {
    const lines = await callLines(
      files({
        'p/Base.java': [
          'package p;',
          'public class Base {',
          '    public void write(byte[] b) {}',
          '    public void run(int times) {}',
          '    public void stop(java.util.Map<String, Integer> m, int code) {}',
          '    public void read(byte[] b) {}',
          '    public void putAll(java.util.Map<? extends String, ? extends Integer> m) {}',
          '}',
        ],
        'p/Derived.java': [
          'package p;',
          'public class Derived extends Base {',
          '    public void write(int b) {}',
          '    @Override public void run(final int n) {}',
          '    public void stop(java.util.Map<String, Integer> state, int c) {}',
          '    void use(Derived d, byte[] data) {',
          '        d.write(data);', // 7: Base.write(byte[]) or Derived.write(int): the argument's type decides
          '        write(data);', // 8: the same
          '        d.run(2);', // 9: the override
          '        stop(null, 1);', // 10: the override (generic arguments with a comma)
          '        d.read(data);', // 11: the override, its array written after the name
          '        d.putAll(null);', // 12: the override (the same erasure)
          '    }',
          '    public void read(byte b[]) {}',
          '    public void putAll(java.util.Map<?, ?> m) {}',
          '}',
        ],
      }),
    );
    const more = await callLines(
      files({
        'p/Writer.java': ['package p;', 'public abstract class Writer {', '    public void write(int c) {}', '    public void write(String s) {}', '}'],
        'p/Buffered.java': ['package p;', 'public class Buffered extends Writer {', '    @Override public void write(int c) {}', '}'],
        'p/CharSeq.java': ['package p;', 'public interface CharSeq { int length(); }'],
        'p/Str.java': [
          'package p;',
          'public final class Str implements java.io.Serializable, CharSeq {', // a base outside the codebase first
          '    public int length() { return 0; }',
          '    static void use(Buffered bw, Str s) {',
          '        bw.write("#");', // 5: Writer.write(String), not Buffered.write(int)
          '        s.length();', // 6: the override
          '    }',
          '}',
        ],
      }),
    );
    expect(more.filter((l) => l.includes(' calls '))).toEqual([
      'p/Str.java:5 calls p.Str.use -> ∅ [write] unresolved:ambiguous',
      'p/Str.java:6 calls p.Str.use -> p.Str.length [length] typed',
    ]);
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Derived.java:10 calls p.Derived.use -> p.Derived.stop [stop] self',
      'p/Derived.java:11 calls p.Derived.use -> p.Derived.read [read] typed',
      'p/Derived.java:12 calls p.Derived.use -> p.Derived.putAll [putAll] typed',
      'p/Derived.java:7 calls p.Derived.use -> ∅ [write] unresolved:ambiguous',
      'p/Derived.java:8 calls p.Derived.use -> ∅ [write] unresolved:ambiguous',
      'p/Derived.java:9 calls p.Derived.use -> p.Derived.run [run] typed',
    ]);
  });
});

describe('Java members, as javac binds them', () => {
  // A differential audit of OpenJDK's java.base, java.logging and java.net.http against javac's
  // own binding of each call found these wrong edges; each test fails without its rule.
  it('super.m() is the superclass\'s m (never an interface the class implements itself)', async () => {
    const lines = await callLines(
      files({
        'p/Marker.java': ['package p;', 'public interface Marker {', '    Object clone();', '    default String label() { return ""; }', '}'],
        'p/Root.java': ['package p;', 'public class Root implements Marker {', '    public Object clone() { return this; }', '}'],
        'p/Plain.java': ['package p;', 'public class Plain implements Marker {', '    public Object clone() { return super.clone(); }', '}'],
        'p/Leaf.java': [
          'package p;',
          'public class Leaf extends Root implements Marker {',
          '    public Object clone() { return super.clone(); }', // 3: Root's
          '    public String label() { return super.label(); }', // 4: Root inherits Marker's
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Leaf.java:3 calls p.Leaf.clone -> p.Root.clone [clone] super',
      'p/Leaf.java:4 calls p.Leaf.label -> p.Marker.label [label] super',
      // Object's clone: Marker's declaration is no superclass method.
      'p/Plain.java:3 calls p.Plain.clone -> ∅ [clone] unresolved:external',
    ]);
  });

  it('a base\'s private methods are not inherited: the name is the enclosing class\'s', async () => {
    const lines = await callLines(
      files({
        'p/AbstractMap.java': ['package p;', 'public abstract class AbstractMap {', '    private static boolean eq(Object a, Object b) { return a == b; }', '    protected int size() { return 0; }', '}'],
        'p/Collections.java': [
          'package p;',
          'public class Collections {',
          '    static boolean eq(Object a, Object b) { return a == b; }',
          '    static class Single extends AbstractMap {',
          '        boolean has(Object k) { return eq(k, k) && size() > 0; }', // 5: Collections.eq; AbstractMap.size
          '    }',
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Collections.java:5 calls p.Collections.Single.has -> p.AbstractMap.size [size] self',
      'p/Collections.java:5 calls p.Collections.Single.has -> p.Collections.eq [eq] self',
    ]);
  });

  it('Kotlin, C# and Scala: a base\'s private method is not inherited either', async () => {
    const lines = await callLines(
      files({
        'p/Base.kt': ['package p', '', 'open class Base { private fun eq(a: Any) = true }'],
        'p/Outer.kt': ['package p', '', 'class Outer {', '    fun eq(a: Any) = false', '    inner class Single : Base() { fun has(k: Any) = eq(k) }', '}'],
        'p/Shapes.cs': [
          'namespace P {',
          '    class Base { private static bool Eq(object a) => true; protected static bool Near(object a) => true; }',
          '    class Outer {',
          '        static bool Eq(object a) => false;',
          '        class Single : Base { bool Has(object k) => Eq(k) && Near(k); }', // 5
          '    }',
          '}',
        ],
        's/Outer.scala': ['package s', 'class Base { private def same(a: Any) = true }', 'class Outer {', '  def same(a: Any) = false', '  class Single extends Base { def has(k: Any) = same(k) }', '}'],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls ') && !l.includes('[Base]'))).toEqual([
      'p/Outer.kt:5 calls p.Outer.Single.has -> p.Outer.eq [eq] self',
      'p/Shapes.cs:5 calls P.Outer.Single.Has -> P.Base.Near [Near] self',
      'p/Shapes.cs:5 calls P.Outer.Single.Has -> P.Outer.Eq [Eq] self',
      's/Outer.scala:5 calls s.Outer.Single.has -> s.Outer.same [same] self',
    ]);
  });

  it('an enum\'s valueOf and a record\'s accessors are their own, never a method of the class around', async () => {
    const lines = await callLines(
      files({
        'p/Character.java': [
          'package p;',
          'public class Character {',
          '    static Character valueOf(char c) { return null; }',
          '    int x() { return 1; }',
          '    enum Script {',
          '        LATIN;',
          '        static Script forName(String s) { return valueOf(s); }', // 7: the enum's implicit valueOf
          '        String label() { return name(); }', // 8: Enum's name()
          '    }',
          '    record Point(int x, int y) {',
          '        int sum() { return x() + y(); }', // 11: the record's accessors
          '    }',
          '    record Sized(int x) {',
          '        public int x() { return 2; }',
          '        int twice() { return x() * 2; }', // 15: the declared accessor
          '    }',
          '    int outer() { return x(); }', // 17: Character.x
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Character.java:11 calls p.Character.Point.sum -> ∅ [x] unresolved:not-found',
      'p/Character.java:11 calls p.Character.Point.sum -> ∅ [y] unresolved:not-found',
      'p/Character.java:15 calls p.Character.Sized.twice -> p.Character.Sized.x [x] self',
      'p/Character.java:17 calls p.Character.outer -> p.Character.x [x] self',
      'p/Character.java:7 calls p.Character.Script.forName -> ∅ [valueOf] unresolved:not-found',
      'p/Character.java:8 calls p.Character.Script.label -> ∅ [name] unresolved:not-found',
    ]);
  });

  it('a field of a class around is a typed receiver in a nested class that names no base (which might hide it)', async () => {
    const lines = await callLines(
      files({
        'p/Unsafe.java': ['package p;', 'public class Unsafe {', '    public long get(Object o) { return 0; }', '}'],
        'p/Other.java': ['package p;', 'public class Other {', '    public long get(Object o) { return 1; }', '}'],
        'p/Base.java': ['package p;', 'public class Base {', '    protected Other UNSAFE;', '}'],
        'p/Holder.java': [
          'package p;',
          'public class Holder {',
          '    static final Unsafe UNSAFE = new Unsafe();',
          '    static class Plain {',
          '        long read(Object o) { return UNSAFE.get(o); }', // 5: Holder's field: Unsafe.get
          '    }',
          '    static class Sub extends Base {',
          '        long read(Object o) { return UNSAFE.get(o); }', // 8: Base's field hides it: Other.get
          '    }',
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Holder.java:3 calls p.Holder -> p.Unsafe [Unsafe] package',
      'p/Holder.java:5 calls p.Holder.Plain.read -> p.Unsafe.get [get] typed',
      'p/Holder.java:8 calls p.Holder.Sub.read -> p.Other.get [get] typed',
    ]);
  });

  it('a field names its declared class as a receiver: through a static import, a class, a base (not a private one, nor a type parameter)', async () => {
    const fixture = {
      'p/Unsafe.java': ['package p;', 'public class Unsafe {', '    public long get(Object o) { return 0; }', '}'],
      'p/Statics.java': ['package p;', 'class Statics {', '    static final Unsafe UNSAFE = new Unsafe();', '}'],
      'p/Sys.java': ['package p;', 'public final class Sys {', '    public static final Unsafe err = null;', '}'],
      'p/Printer.java': [
        'package p;',
        'public abstract class Printer<T> {',
        '    protected final StringBuilder sb = new StringBuilder();',
        '    private Unsafe priv;',
        '    protected T item;',
        '}',
      ],
      'p/StringBuilder.java': ['package p;', 'public class StringBuilder {', '    public StringBuilder append(String s) { return this; }', '}'],
      'p/T.java': ['package p;', 'public class T {', '    public void go() {}', '}'],
      'q/Use.java': [
        'package q;',
        'import static p.Statics.UNSAFE;',
        'import p.Sys;',
        'class Use extends p.Printer<String> {',
        '    long a(Object o) { return UNSAFE.get(o); }', // 5: Unsafe.get through the static import
        '    void b() { Sys.err.get(null); }', // 6: Unsafe.get through Sys's field
        '    void c() { sb.append("x"); priv.get(null); item.go(); }', // 7: StringBuilder.append; a private field and a T are not seen
        '    static class Inner extends ext.Thing {',
        '        long d(Object o) { return UNSAFE.get(o); }', // 9: ext.Thing may have a field UNSAFE hiding the import
        '    }',
        '}',
      ],
    };
    const lines = await callLines(files(fixture));
    expect(lines.filter((l) => l.startsWith('q/') && l.includes(' calls '))).toEqual([
      'q/Use.java:5 calls q.Use.a -> p.Unsafe.get [get] import',
      'q/Use.java:6 calls q.Use.b -> p.Unsafe.get [get] import',
      'q/Use.java:7 calls q.Use.c -> p.StringBuilder.append [append] typed',
      'q/Use.java:7 calls q.Use.c -> ∅ [get] unresolved:not-found',
      'q/Use.java:7 calls q.Use.c -> ∅ [go] unresolved:not-found',
      'q/Use.java:9 calls q.Use.Inner.d -> ∅ [get] unresolved:external',
    ]);
    // Updates: a field's type changed, a field made private, a field removed.
    await expectExactThrough(files(fixture), 'memfs', [
      (f) => {
        f['p/Statics.java'] = f['p/Statics.java']!.replace('static final Unsafe UNSAFE = new Unsafe()', 'static final StringBuilder UNSAFE = null');
      },
      (f) => {
        f['p/Printer.java'] = f['p/Printer.java']!.replace('protected final StringBuilder sb', 'private final StringBuilder sb');
      },
      (f) => {
        f['p/Sys.java'] = f['p/Sys.java']!.replace('    public static final Unsafe err = null;\n', '');
      },
    ]);
  });

  it('a call only a variadic method takes is unresolved where a base outside the codebase may declare a fixed-arity one', async () => {
    const lines = await callLines(
      files({
        'p/Log.java': [
          'package p;',
          'public interface Log extends System.Logger {',
          '    default void log(String format, Object... params) {',
          '        log(System.Logger.Level.DEBUG, format, params);', // 4: System.Logger's log(Level, String, Object...)
          '        log("again", 1, 2);', // 5: the same rule: some base may take three
          '    }',
          '}',
        ],
        'p/Say.java': [
          'package p;',
          'public interface Say {',
          '    default void say(String format, Object... params) {}',
          '    default void hi() { say("x", 1, 2); }', // 4: no other class can declare a say here
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'p/Log.java:4 calls p.Log.log -> ∅ [log] unresolved:external',
      'p/Log.java:5 calls p.Log.log -> ∅ [log] unresolved:external',
      'p/Say.java:4 calls p.Say.hi -> p.Say.say [say] self',
    ]);
  });

  it('a fully qualified name starts at a package (Java and Kotlin)', async () => {
    const lines = await callLines(
      files({
        'b/c/Y.java': ['package b.c;', 'public class Y {', '    public static void go() {}', '}'],
        'a/X.java': [
          'package a;',
          'public class X extends b.c.Y implements java.io.Serializable {',
          '    void f() {',
          '        b.c.Y.go();', // 4
          '        new b.c.Y();', // 5
          '        b.c.Z.go();', // 6: no class Z in b.c
          '    }',
          '}',
        ],
        'k/util/Slug.kt': ['package k.util', '', 'fun slug(s: String) = s'],
        'k/app/Main.kt': ['package k.app', '', 'fun main() {', '    k.util.slug("x")', '}'],
      }),
    );
    expect(lines).toEqual([
      'a/X.java:2 implements a.X -> ∅ [Serializable] unresolved:not-found',
      'a/X.java:2 inherits a.X -> b.c.Y [Y] qualified',
      'a/X.java:4 calls a.X.f -> b.c.Y.go [go] qualified',
      'a/X.java:5 calls a.X.f -> b.c.Y [Y] qualified',
      'a/X.java:6 calls a.X.f -> ∅ [go] unresolved:not-found',
      'k/app/Main.kt:4 calls k.app.main -> k.util.slug [slug] qualified',
    ]);
  });

  it('an update that makes a base\'s method private, or an interface a superclass, re-resolves the calls', async () => {
    const base = {
      'p/AbstractMap.java': 'package p;\npublic abstract class AbstractMap {\n    static boolean eq(Object a, Object b) { return a == b; }\n    public Object clone() { return null; }\n}\n',
      'p/Collections.java': 'package p;\npublic class Collections {\n    static boolean eq(Object a, Object b) { return a == b; }\n    static class Single implements Cloneable2 {\n        boolean has(Object k) { return eq(k, k); }\n        public Object clone() { return super.clone(); }\n    }\n}\n',
      'p/Cloneable2.java': 'package p;\npublic interface Cloneable2 {\n    Object clone();\n}\n',
    };
    await expectExactThrough(base, 'memfs', [
      (f) => {
        f['p/Collections.java'] = f['p/Collections.java']!.replace('implements Cloneable2', 'extends AbstractMap');
      },
      (f) => {
        f['p/AbstractMap.java'] = f['p/AbstractMap.java']!.replace('    static boolean eq', '    private static boolean eq');
      },
      (f) => {
        f['p/AbstractMap.java'] = f['p/AbstractMap.java']!.replace('private static boolean eq', 'protected static boolean eq');
      },
    ]);
  });
});

describe('Java overloads across updates', () => {
  it('an update that changes a base method\'s parameter types re-resolves the calls that told an override from an overload by them', async () => {
    await expectExactThrough(
      {
        'p/Base.java': 'package p;\npublic class Base {\n    public void write(byte[] b) {}\n}\n',
        'p/Derived.java': 'package p;\npublic class Derived extends Base {\n    public void write(byte[] b) {}\n    void use(byte[] d) { write(d); }\n}\n',
        'p/User.java': 'package p;\npublic class User {\n    void use(Derived x, byte[] d) { x.write(d); }\n}\n',
      },
      'memfs',
      [
        (f) => {
          f['p/Base.java'] = f['p/Base.java']!.replace('write(byte[] b)', 'write(int b)');
        },
        (f) => {
          f['p/Base.java'] = f['p/Base.java']!.replace('write(int b)', 'write(byte[] b)');
        },
      ],
    );
  });
});

describe('Kotlin super<T>', () => {
  it('super<I>.m() is the named supertype\'s m', async () => {
    const lines = await callLines(
      files({
        'p/A.kt': [
          'package p',
          '',
          'open class B {',
          '    open fun m() = 1',
          '}',
          '',
          'interface I {',
          '    fun m() = 2',
          '}',
          '',
          'class A : B(), I {',
          '    override fun m() = super<I>.m() + super<B>.m()', // 12: I.m, B.m
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls ') && !l.includes('[B] local'))).toEqual(['p/A.kt:12 calls p.A.m -> p.B.m [m] super', 'p/A.kt:12 calls p.A.m -> p.I.m [m] super']);
  });
});

describe('Scala super[T]', () => {
  it('super[T].m() is the named parent\'s m', async () => {
    const lines = await callLines(
      files({
        's/A.scala': [
          'package s',
          'class B { def m() = 1 }',
          'trait T { def m() = 2 }',
          'class A extends B with T {',
          '  override def m() = {',
          '    val t = super[T].m()', // 6: T.m
          '    val b = super[B].m()', // 7: B.m
          '    t + b',
          '  }',
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual(['s/A.scala:6 calls s.A.m -> s.T.m [m] super', 's/A.scala:7 calls s.A.m -> s.B.m [m] super']);
  });

  it('a trait mixed in later overrides what an earlier base defines: such a member is no earlier base\'s', async () => {
    const lines = await callLines(
      files({
        's/A.scala': [
          'package s',
          'class Base { def m(): Int = 0; def b(): Int = 1 }', // 2
          'trait V extends Base { override def m(): Int = 3 }', // 3
          'class D extends Base with V {', // 4
          '  def k(): Int = m() + super.m() + b()', // 5: V's m (not Base's), Base's b (V inherits it)
          '}',
          'class E extends Base with Serializable {', // 7
          '  def k(): Int = b()', // 8: a trait outside the codebase may override b
          '}',
          'class F extends Base {', // 10
          '  def k(): Int = m()', // 11: Base's
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      's/A.scala:11 calls s.F.k -> s.Base.m [m] self',
      's/A.scala:5 calls s.D.k -> s.Base.b [b] self',
      's/A.scala:5 calls s.D.k -> ∅ [m] unresolved:ambiguous',
      's/A.scala:5 calls s.D.k -> ∅ [m] unresolved:ambiguous',
      's/A.scala:8 calls s.E.k -> ∅ [b] unresolved:ambiguous',
    ]);
  });
});

describe('C# partial classes', () => {
  it('the parts of a partial class, in any file, are one class; classes without the modifier are not merged', async () => {
    const lines = await callLines({
      'A.cs': [
        'namespace N {',
        '  partial class P { int X() => Y() + this.Z(); }', // 2: P's Y and Z, declared in other parts
        '  partial class P { int Y() => 1; }', // 3
        '  class Q { int X() => Y(); }', // 4: another class Q declares Y: not this one's
        '  class R { int K() => new P().Z(); }', // 5: a part's member through a typed value
        '}',
      ].join('\n'),
      'B.cs': ['namespace N {', '  public partial class P : Base { int Z() => X() + B(); }', '  class Q { int Y() => 2; }', '  class Base { public int B() => 3; }', '}'].join('\n'),
    });
    expect(lines).toEqual([
      'A.cs:2 calls N.P.X -> N.P.Y [Y] self',
      'A.cs:2 calls N.P.X -> N.P.Z [Z] self',
      'A.cs:4 calls N.Q.X -> ∅ [Y] unresolved:not-found',
      'A.cs:5 calls N.R.K -> N.P [P] package',
      'A.cs:5 calls N.R.K -> N.P.Z [Z] typed',
      'B.cs:2 calls N.P.Z -> N.Base.B [B] self',
      'B.cs:2 calls N.P.Z -> N.P.X [X] self',
      'B.cs:2 inherits N.P -> N.Base [Base] local',
    ]);
  });
});

describe('PHP parent::', () => {
  it('parent::m() is the class extends names (with its traits and bases), never a trait the class uses itself', async () => {
    const lines = await callLines(
      files({
        'a.php': [
          '<?php',
          'namespace App;',
          'class B { public function m() { return 1; } }',
          'trait T { public function m() { return 2; } public function n() { return parent::m(); } }', // 4: the using class's parent: unknown here
          'trait U { public function k() { return 3; } }',
          'class C extends B { use U; }',
          'class A extends C {',
          '  use T;',
          '  public function m() { return parent::m() + parent::k(); }', // 9: B::m (through C), C's trait U::k
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'a.php:4 calls App\\T::n -> ∅ [m] unresolved:not-found',
      'a.php:9 calls App\\A::m -> App\\B::m [m] super',
      'a.php:9 calls App\\A::m -> App\\U::k [k] super',
    ]);
  });
});

describe('Go packages', () => {
  it('a type that becomes a container, or stops being one, re-resolves the indexes of its values elsewhere', async () => {
    const fixture = {
      'go.mod': 'module ex\n\ngo 1.19\n',
      'a.go': 'package a\n\ntype S struct{}\n\nfunc (s *S) M() {}\n\nfunc Use(p T) {\n\tp[0].M()\n}\n',
      't.go': 'package a\n\ntype T struct{}\n',
    };
    expect((await callLines(fixture)).filter((l) => l.includes('[M]'))).toEqual(['a.go:8 calls ex.Use -> ∅ [M] unresolved:dynamic']);
    await expectExactThrough(fixture, 'memfs', [
      (f) => {
        f['t.go'] = 'package a\n\ntype T []*S\n';
      },
      (f) => {
        f['t.go'] = 'package a\n\ntype T map[string]int\n';
      },
    ]);
  });

  it("a call of a value of a function type is never a conversion to that type", async () => {
    const lines = await callLines({
      'go.mod': 'module ex\n\ngo 1.19\n',
      'a.go': [
        'package a',
        '',
        'type Conn struct{}',
        '',
        'func (c *Conn) Next() *Conn { return c }',
        'func (c *Conn) Close()      {}',
        '',
        'type Other struct{}',
        '',
        'func (o *Other) Close() {}',
        '',
        'type Dial func() *Conn',
        '',
        'func (d Dial) Next() *Other { return nil }',
        '',
        'var dial Dial',
        '',
        'func Use() {',
        '\tdial().Next().Close()', // 19: Conn's Next and Close, which nothing here declares dial returns: unknown
        '\tDial(nil).Next().Close()', // 20: a conversion: Dial's Next, then Other's Close
        '}',
      ].join('\n'),
    });
    expect(lines.filter((l) => l.includes('[Close]') || l.includes('[Next]'))).toEqual([
      'a.go:19 calls ex.Use -> ∅ [Close] unresolved:dynamic',
      'a.go:19 calls ex.Use -> ∅ [Next] unresolved:dynamic',
      'a.go:20 calls ex.Use -> ex.Dial.Next [Next] typed',
      'a.go:20 calls ex.Use -> ex.Other.Close [Close] typed',
    ]);
  });

  it('x := f() types x with what f declares it returns first (not a type parameter), read in f\'s file', async () => {
    const fixture = {
      'go.mod': 'module ex\n\ngo 1.19\n',
      'os/file.go': 'package os\n\ntype File struct{}\n\nfunc (f *File) Read() int { return 0 }\n\ntype Dir struct{}\n\nfunc (d *Dir) Read() int { return 1 }\n\nfunc Open(name string) (*File, error) { return nil, nil }\n\nfunc Make[T any]() T { var t T; return t }\n',
      'app/main.go': [
        'package main',
        '',
        'import "ex/os"',
        '',
        'func helper() *os.File { return nil }',
        '',
        'func main() {',
        '\tf, err := os.Open("x")', // 8
        '\t_ = err',
        '\tf.Read()', // 10: File.Read
        '\th := helper()',
        '\th.Read()', // 12: File.Read (helper's *os.File, read in its file)
        '\tm := os.Make[os.File]()',
        '\tm.Read()', // 14: an instantiation: not followed
        '}',
      ].join('\n'),
    };
    const lines = await callLines(fixture);
    expect(lines.filter((l) => l.includes('[Read]'))).toEqual([
      'app/main.go:10 calls ex/app.main -> ex/os.File.Read [Read] typed',
      'app/main.go:12 calls ex/app.main -> ex/os.File.Read [Read] typed',
      'app/main.go:14 calls ex/app.main -> ∅ [Read] unresolved:dynamic',
    ]);
    // An update that changes what Open returns re-resolves the call on its result.
    await expectExactThrough(fixture, 'memfs', [
      (f) => {
        f['os/file.go'] = f['os/file.go']!.replace('(*File, error)', '(*Dir, error)');
      },
    ]);
  });

  it('a field of a struct of the file types its receiver (not a type parameter); a type another build defines otherwise leaves the call ambiguous', async () => {
    const lines = await callLines(
      files({
        'go.mod': ['module ex', '', 'go 1.19'],
        'a/x_windows.go': ['package a', '', 'func Helper() int { return 1 }', '', 'type WaitStatus struct{ ExitCode uint32 }', '', 'func (w WaitStatus) Exited() bool { return true }'],
        'a/x_linux.go': ['package a', '', 'type WaitStatus uint32', '', 'func (w WaitStatus) Exited() bool { return false }'],
        'a/half.go': ['package a', '', 'type Half struct{ n int }', '', 'func (h *Half) Set(k int) { h.n = k }', '', 'type T struct{}', '', 'func (T) Set(k int) {}'],
        'a/conn.go': [
          'package a',
          '',
          'type Conn struct {',
          '\tin, out Half',
          '\tlast    *Half',
          '}',
          '',
          'type List[T any] struct{ head T }',
          '',
          'func (c *Conn) Reset() { c.in.Set(0); c.last.Set(1) }', // 10: Half.Set twice
          '',
          'func (l *List[T]) Clear() { l.head.Set(0) }', // 12: T is the type parameter, not the struct T
        ],
        'b/y_linux.go': ['package b', '', 'import "ex/a"', '', 'func Use(w a.WaitStatus) int { w.Exited(); return a.Helper() }'], // 5: Windows-only definitions
        'b/z.go': ['package b', '', 'import "ex/a"', '', 'func Any(w a.WaitStatus) bool { return w.Exited() }'], // 5: Windows' or Linux's
      }),
    );
    expect(lines.filter((l) => l.includes(' calls '))).toEqual([
      'a/conn.go:10 calls ex/a.Conn.Reset -> ex/a.Half.Set [Set] typed',
      'a/conn.go:10 calls ex/a.Conn.Reset -> ex/a.Half.Set [Set] typed',
      'a/conn.go:12 calls ex/a.List.Clear -> ∅ [Set] unresolved:dynamic',
      'b/y_linux.go:5 calls ex/b.Use -> ∅ [Exited] unresolved:ambiguous',
      'b/y_linux.go:5 calls ex/b.Use -> ∅ [Helper] unresolved:ambiguous',
      'b/z.go:5 calls ex/b.Any -> ∅ [Exited] unresolved:ambiguous',
    ]);
  });

  it('an external test package and files for other systems are not the site\'s package; a package-level var is a candidate', async () => {
    const lines = await callLines(
      files({
        'go.mod': ['module example.com/r3', 'go 1.19'],
        'p/close_aix.go': ['package p', '', 'func close(fd uintptr) int { return 0 }', '', 'func other() int { return close(1) }'],
        'p/wait_plan9.go': ['package p', '', 'func wait(c chan int) {', '\tclose(c)', '}'],
        'p/helper.go': ['package p', '', 'func helper() int { return 1 }'],
        'p/use_linux.go': ['package p', '', 'func use() int { return helper() }'],
        'p/p_ext_test.go': ['package p_test', '', 'import "testing"', '', 'func TestClose(t *testing.T) {', '\tc := make(chan int)', '\tclose(c)', '}'],
        'p/swap.go': ['package p', '', 'func Slice(x any) { _ = swapper(x) }'],
        'p/swap_new.go': ['//go:build go1.8', '', 'package p', '', 'import "reflect"', '', 'var swapper = reflect.Swapper'],
        'p/swap_old.go': ['//go:build !go1.8', '', 'package p', '', 'func swapper(x any) func(i, j int) { return nil }'],
      }),
    );
    expect(lines).toEqual([
      'p/close_aix.go:5 calls example.com/r3/p.other -> example.com/r3/p.close [close] local',
      'p/p_ext_test.go:6 calls example.com/r3/p_test.TestClose -> ∅ [make] unresolved:builtin',
      'p/p_ext_test.go:7 calls example.com/r3/p_test.TestClose -> ∅ [close] unresolved:builtin',
      // The var of swap_new.go or the func of swap_old.go, as the build tags decide.
      'p/swap.go:3 calls example.com/r3/p.Slice -> ∅ [swapper] unresolved:ambiguous',
      'p/use_linux.go:3 calls example.com/r3/p.use -> example.com/r3/p.helper [helper] package',
      'p/wait_plan9.go:4 calls example.com/r3/p.wait -> ∅ [close] unresolved:builtin',
    ]);
  });

  it('//go:build lines keep apart the files no build compiles together', async () => {
    const tree = files({
      'go.mod': ['module example.com/r4', 'go 1.19'],
      // One fd per system, by build line and by file name.
      'p/fd_plan9.go': ['//go:build plan9', '', 'package p', '', 'func openFd() int { return 9 }'],
      'p/fd_unix.go': ['//go:build unix && !darwin', '', 'package p', '', 'func openFd() int { return 1 }'],
      'p/fd_darwin.go': ['package p', '', 'func openFd() int { return 2 }'],
      // Only for plan9: never what a linux file calls.
      'p/note_plan9.go': ['package p', '', 'func notePlan9() int { return 0 }'],
      'p/use_linux.go': ['package p', '', 'func use() int { return openFd() + notePlan9() }'],
      'p/use_ios.go': ['package p', '', 'func useIOS() int { return openFd() }'],
      'p/any.go': ['package p', '', 'func anyOS() int { return openFd() }'],
      'p/gen.go': ['//go:build ignore', '', 'package main', '', 'import "example.com/r4/q"', '', 'func gen() int { return genHelper() + anyOS() + q.Count() }'],
      'q/q.go': ['package q', '', 'func Count() int { return 1 }'],
      'p/gen_helper.go': ['//go:build gen', '', 'package main', '', 'func genHelper() int { return 0 }'],
      'p/cgo.go': ['//go:build cgo && linux', '', 'package p', '', 'func withCgo() int { return openFd() }'],
      // Code older than Go 1.17: `// +build` lines (spaces or, commas and; lines and).
      'p/old.go': ['// +build linux,!android freebsd', '// +build amd64', '', 'package p', '', 'func old() int { return openFd() + notePlan9() }'],
    });
    expect((await callLines(tree)).filter((l) => l.includes(' calls '))).toEqual([
      // any.go is in every build: each openFd is a candidate.
      'p/any.go:3 calls example.com/r4/p.anyOS -> ∅ [openFd] unresolved:ambiguous',
      // linux is unix and not darwin, whatever cgo is.
      'p/cgo.go:5 calls example.com/r4/p.withCgo -> example.com/r4/p.openFd [openFd] package',
      // An ignored file is in none of the package's builds; `go run` builds it with files of build lines of their own.
      'p/gen.go:7 calls example.com/r4/p.gen -> example.com/r4/p.genHelper [genHelper] package',
      // The packages it imports are built as for any program.
      'p/gen.go:7 calls example.com/r4/p.gen -> example.com/r4/q.Count [Count] import',
      'p/gen.go:7 calls example.com/r4/p.gen -> ∅ [anyOS] unresolved:not-found',
      'p/old.go:6 calls example.com/r4/p.old -> example.com/r4/p.openFd [openFd] package',
      'p/old.go:6 calls example.com/r4/p.old -> ∅ [notePlan9] unresolved:not-found',
      // ios builds darwin's files too (and is unix, but darwin is excluded from fd_unix.go).
      'p/use_ios.go:3 calls example.com/r4/p.useIOS -> example.com/r4/p.openFd [openFd] package',
      'p/use_linux.go:3 calls example.com/r4/p.use -> example.com/r4/p.openFd [openFd] package',
      'p/use_linux.go:3 calls example.com/r4/p.use -> ∅ [notePlan9] unresolved:not-found',
    ]);
    const g = await openGraph(tree);
    try {
      const fdOf = async (file: string): Promise<string | undefined> => (await g.db.edges({ kind: 'calls', filePath: file, toName: 'openFd' }))[0]?.to?.filePath.split('/').pop();
      expect([await fdOf(`${g.tree.root}/p/use_linux.go`), await fdOf(`${g.tree.root}/p/use_ios.go`), await fdOf(`${g.tree.root}/p/cgo.go`)]).toEqual(['fd_unix.go', 'fd_darwin.go', 'fd_unix.go']);
    } finally {
      g.close();
    }
    // A type defined once per system, with methods in a file every build takes (os.File's Read
    // in file.go): those methods are the type's in each build.
    const file = await callLines(
      files({
        'go.mod': ['module example.com/os', 'go 1.19'],
        'file_unix.go': ['//go:build unix', '', 'package os', '', 'type File struct{ fd int }', '', 'func (f *File) close() int { return f.fd }'],
        'file_windows.go': ['package os', '', 'type File struct{ h int }', '', 'func (f *File) close() int { return f.h }'],
        'file.go': ['package os', '', 'func (f *File) Read() int { return 0 }'],
        'use_linux.go': ['package os', '', 'func use(f *File) int { return f.Read() + f.close() }'],
      }),
    );
    expect(file.filter((l) => l.startsWith('use_linux.go'))).toEqual([
      'use_linux.go:3 calls example.com/os.use -> example.com/os.File.Read [Read] typed',
      'use_linux.go:3 calls example.com/os.use -> example.com/os.File.close [close] typed',
    ]);
    // A build line changed, added or removed re-resolves the calls of what that file defines.
    await expectExactThrough(tree, 'memfs', [
      (f) => {
        f['p/fd_unix.go'] = '//go:build linux || darwin\n\npackage p\n\nfunc openFd() int { return 1 }\n';
      },
      (f) => {
        f['p/note_plan9.go'] = '//go:build linux\n\npackage p\n\nfunc notePlan9() int { return 0 }\n';
      },
      (f) => {
        f['p/fd_unix.go'] = 'package p\n\nfunc openFd() int { return 1 }\n';
      },
    ]);
  });
});

describe('C includes', () => {
  it('an object-like macro that renames a function hides it; one that names itself does not', async () => {
    const lines = await callLines(
      files({
        // Linux's include/linux/hash.h: without an architecture's own hash_64, the generic one.
        'include/linux/hash.h': ['#define hash_64 hash_64_generic', 'static inline unsigned hash_64_generic(unsigned long v) { return v; }'],
        // An architecture's own function of the name, which the kernel built for it calls.
        'arch/x/lib/hash.c': ['unsigned hash_64(unsigned long v) { return 1; }'],
        // asm-generic/io.h style: `#define writel writel` says "this architecture has one".
        'include/asm/io.h': ['void writel(unsigned v);', '#define writel writel'],
        'lib/io.c': ['#include <asm/io.h>', 'void writel(unsigned v) {}'],
        'lib/user.c': [
          '#include <linux/hash.h>',
          '#include <asm/io.h>',
          'unsigned f(unsigned long v) {',
          '    writel(1);', // 4: the one writel
          '    return hash_64(v);', // 5: hash_64_generic, through the macro: not arch/x's hash_64
          '}',
        ],
      }),
    );
    expect(lines.filter((l) => l.startsWith('lib/user.c'))).toEqual([
      'lib/user.c:4 calls f -> writel [writel] global',
      'lib/user.c:5 calls f -> ∅ [hash_64] unresolved:macro',
    ]);
  });

  it('a file never includes itself', async () => {
    const g = await openGraph(
      files({
        'arch/mips/include/asm/irq.h': ['#include <irq.h>', 'static inline int arch_irq(void) { return 0; }'],
        'include/irq.h': ['int generic_irq(void);'],
      }),
    );
    try {
      expect((await g.lines({ kind: 'imports' })).sort()).toEqual(['arch/mips/include/asm/irq.h:1 imports arch/mips/include/asm/irq.h -> include/irq.h [irq.h] import']);
    } finally {
      g.close();
    }
  });
});

describe('bases no declaration names', () => {
  it('Python: a computed base, a parameter or local named as a base, and a name of an enclosing class body are bases of unknown members, in their place', async () => {
    const lines = await callLines({
      'a.py': [
        'class Base:', // 1
        '    def m(self): return 1',
        'def make_mixin():', // 3
        '    class M:',
        '        def m(self): return 2',
        '    return M',
        'class A(make_mixin(), Base):', // 7: the mixin comes first in A's order
        '    def f(self): return self.m()', // 8: the mixin's m or Base's
        'class C(Base, make_mixin()):', // 9
        '    def f(self): return self.m()', // 10: Base's m comes first
        'def g(Param):', // 11
        '    Local = make_mixin()',
        '    class P(Param):', // 13
        '        def f(self): return self.m()', // 14
        '    class L(Local):', // 15
        '        def f(self): return self.m()', // 16
        '    return P, L',
        'def h(Base):', // 18: the parameter hides the module's class
        '    class H(Base):', // 19
        '        def f(self): return self.m()', // 20
        '    return H',
        'class Outer:', // 22
        '    class Base:',
        '        def m(self): return 3',
        '    class Inner(Base):', // 25: Outer's Base, which the graph does not look up from here
        '        def f(self): return self.m()', // 26
        '    def g(self): return Base()', // 27: a method does not see the class body: the module's Base
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.py:10 calls a.C.f -> a.Base.m [m] self',
      'a.py:12 calls a.g -> a.make_mixin [make_mixin] local',
      'a.py:13 inherits a.g.P -> ∅ [Param] unresolved:parameter',
      'a.py:14 calls a.g.P.f -> ∅ [m] unresolved:dynamic',
      'a.py:15 inherits a.g.L -> ∅ [Local] unresolved:local-variable',
      'a.py:16 calls a.g.L.f -> ∅ [m] unresolved:dynamic',
      'a.py:19 inherits a.h.H -> ∅ [Base] unresolved:parameter',
      'a.py:20 calls a.h.H.f -> ∅ [m] unresolved:dynamic',
      'a.py:25 inherits a.Outer.Inner -> ∅ [Base] unresolved:dynamic',
      'a.py:26 calls a.Outer.Inner.f -> ∅ [m] unresolved:dynamic',
      'a.py:27 calls a.Outer.g -> a.Base [Base] local',
      'a.py:7 calls a.A -> a.make_mixin [make_mixin] local',
      'a.py:7 inherits a.A -> a.Base [Base] local',
      'a.py:7 inherits a.A -> ∅ [make_mixin()] unresolved:dynamic',
      'a.py:8 calls a.A.f -> ∅ [m] unresolved:ambiguous',
      'a.py:9 calls a.C -> a.make_mixin [make_mixin] local',
      'a.py:9 inherits a.C -> a.Base [Base] local',
      'a.py:9 inherits a.C -> ∅ [make_mixin()] unresolved:dynamic',
    ]);
  });

  it('Python: a name the class body defines is the class\'s own in that body, the module\'s in its methods', async () => {
    const lines = await callLines({
      'a.py': [
        'def helper(x): return x', // 1
        'class A:', // 2
        '    def helper(x): return x',
        '    y = helper(1)', // 4: A's helper
        '    @helper', // 5: A's helper
        '    def f(self): return helper(2)', // 6: the module's helper
        '    z = [helper(i) for i in range(3)]', // 7: a comprehension does not see the class body
        '    q = [i for i in helper(4)]', // 8: but its first iterable is evaluated in the body: A's helper
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.py:4 calls a.A -> a.A.helper [helper] self',
      'a.py:5 calls a.A -> a.A.helper [helper] self',
      'a.py:6 calls a.A.f -> a.helper [helper] local',
      'a.py:7 calls a.A -> a.helper [helper] local',
      'a.py:7 calls a.A -> ∅ [range] unresolved:builtin',
      'a.py:8 calls a.A -> a.A.helper [helper] self',
    ]);
  });

  it('Python: a name an import in the class body binds is the import\'s in that body, the module\'s in its methods and comprehensions', async () => {
    const files = {
      'a.py': [
        'import c as m', // 1
        'def helper(): return 0', // 2
        'class A:', // 3
        '    from b import helper', // 4
        '    import b as m', // 5
        '    from ext import widget', // 6
        '    x = helper()', // 7: b's helper
        '    y = m.f()', // 8: b's f
        '    z = [helper() for i in m.f()]', // 9: the comprehension sees the module's helper; its first iterable the body's m
        '    w = [m.f() for i in ()]', // 10: the module's m (c)
        '    v = widget()', // 11: outside the codebase
        '    def g(self): return helper() + m.f()', // 12: the module's helper and m
      ].join('\n'),
      'b.py': ['def helper(): return 1', 'def f(): return [1]'].join('\n'),
      'c.py': ['def f(): return 2', 'def widget(): return 3'].join('\n'),
    };
    const expected = [
      'a.py:10 calls a.A -> c.f [f] import',
      'a.py:11 calls a.A -> ∅ [widget] unresolved:external',
      'a.py:12 calls a.A.g -> a.helper [helper] local',
      'a.py:12 calls a.A.g -> c.f [f] import',
      'a.py:7 calls a.A -> b.helper [helper] import',
      'a.py:8 calls a.A -> b.f [f] import',
      'a.py:9 calls a.A -> a.helper [helper] local',
      'a.py:9 calls a.A -> b.f [f] import',
    ];
    expect(await callLines(files)).toEqual(expected);
  });

  it('Python: super(C, self) names the class around the call, not one the file ends in', async () => {
    const lines = await callLines({
      'a.py': [
        'class Base:', // 1
        '    def m(self): return 1',
        'class Other:', // 3
        '    def m(self): return 2',
        'class S(Other):', // 5
        '    class Inner(Base):', // 6
        '        def f(self): return super(S, self).m()', // 7: S is not Inner: unknown
        '    x = 1', // 8: the file's last binding is in S's body
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.py:5 inherits a.S -> a.Other [Other] local',
      'a.py:6 inherits a.S.Inner -> a.Base [Base] local',
      'a.py:7 calls a.S.Inner.f -> ∅ [m] unresolved:dynamic',
    ]);
  });

  it('TypeScript: a computed base and a parameter named as a base are bases of unknown members, in a build as in an update', async () => {
    const files = {
      'a.ts': [
        'export class B { m() { return 2; } }', // 1
        'export function mixin(Base: any) {', // 2
        '  class Mixed extends Base {', // 3
        '    f() { return this.m(); }', // 4
        '  }',
        '  return Mixed;',
        '}',
        'export class A extends mixin(B) {', // 8
        '  f() { return this.m(); }', // 9
        '}',
      ].join('\n'),
    };
    expect(await callLines(files)).toEqual([
      'a.ts:3 inherits a.mixin.Mixed -> ∅ [Base] unresolved:parameter',
      'a.ts:4 calls a.mixin.Mixed.f -> ∅ [m] unresolved:dynamic',
      'a.ts:8 calls a.A -> a.mixin [mixin] local',
      'a.ts:8 inherits a.A -> ∅ [mixin(B)] unresolved:dynamic',
      'a.ts:9 calls a.A.f -> ∅ [m] unresolved:dynamic',
    ]);
    await expectExactThrough(files, 'memfs', [
      (f) => {
        f['a.ts'] = `${f['a.ts']!}\n// edited\n`;
      },
    ]);
  });

  it('C++: a template\'s type parameter hides the class of its name, as a base and as a type', async () => {
    const lines = await callLines({
      'a.cpp': [
        'class Shape { public: void render() {} };', // 1
        'class Base { public: void m() {} };', // 2
        'template <typename Shape> void draw(Shape& s) { s.render(); Shape t; t.render(); }', // 3: any type's render
        'template <class Base> class W : public Base {', // 4
        ' public:',
        '  void f() { this->m(); }', // 6
        '};',
        'void g(Shape& s) { s.render(); }', // 8: Shape's
        'class V : public Base { public: void f() { this->m(); } };', // 9
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.cpp:3 calls draw -> ∅ [render] unresolved:dynamic',
      'a.cpp:3 calls draw -> ∅ [render] unresolved:dynamic',
      'a.cpp:4 inherits W -> ∅ [Base] unresolved:parameter',
      'a.cpp:6 calls W::f -> ∅ [m] unresolved:dynamic',
      'a.cpp:8 calls g -> Shape::render [render] typed',
      'a.cpp:9 calls V::f -> Base::m [m] self',
      'a.cpp:9 inherits V -> Base [Base] local',
    ]);
  });


  it('C++: a base the grammar cannot read (decltype) is a base of unknown members, never a global function of the name', async () => {
    const lines = await callLines({
      'a.cpp': [
        'void g() {}', // 1
        'struct B { void g() {} };', // 2
        'B b;',
        'struct A : decltype(b) {', // 4
        '  void f() { g(); }', // 5: decltype(b)'s g (B's), not ::g
        '};',
        'struct C : public B, public decltype(b) {', // 7
        '  void f() { g(); }', // 8: B's
        '};',
        'struct D { void f() { g(); } };', // 10: ::g
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.cpp:10 calls D::f -> g [g] local',
      'a.cpp:4 inherits A -> ∅ [decltype(b)] unresolved:dynamic',
      'a.cpp:5 calls A::f -> ∅ [g] unresolved:dynamic',
      'a.cpp:7 inherits C -> B [B] local',
      'a.cpp:7 inherits C -> ∅ [decltype(b)] unresolved:dynamic',
      'a.cpp:8 calls C::f -> B::g [g] self',
    ]);
  });
  it('Ruby: a module mixed in by a computed expression, and a computed superclass, are bases of unknown members', async () => {
    const lines = await callLines({
      'a.rb': [
        'class B', // 1
        '  def m; 2; end',
        'end',
        'class C < B', // 4
        '  include make_mod()', // 5: comes before B in C's ancestors
        '  def f',
        '    m', // 7
        '  end',
        'end',
        'class E < make_base(B)', // 10
        '  def f',
        '    zz', // 12
        '  end',
        'end',
      ].join('\n'),
    });
    expect(lines).toEqual([
      'a.rb:10 calls E -> ∅ [make_base] unresolved:dynamic',
      'a.rb:10 inherits E -> ∅ [make_base(B)] unresolved:dynamic',
      'a.rb:12 calls E#f -> ∅ [zz] unresolved:dynamic',
      'a.rb:4 inherits C -> B [B] local',
      'a.rb:5 calls C -> ∅ [include] unresolved:dynamic',
      'a.rb:5 calls C -> ∅ [make_mod] unresolved:dynamic',
      'a.rb:5 implements C -> ∅ [make_mod()] unresolved:dynamic',
      'a.rb:7 calls C#f -> ∅ [m] unresolved:ambiguous',
    ]);
  });
});

describe('values made by calls outside the codebase', () => {
  it('Python: a function outside returns a value of unknown type (dynamic); a class outside makes one of its own (external)', async () => {
    const lines = await callLines({
      'load.py': [
        'from importlib import import_module', // 1
        'from pathlib import Path', // 2
        '', // 3
        '', // 4
        'def load(name):', // 5
        '    module = import_module(name)', // 6
        '    return module.Command()', // 7: maybe the codebase's Command: dynamic
        '', // 8
        '', // 9
        'def read(name):', // 10
        '    p = Path(name)', // 11
        '    return p.read_text()', // 12: a method of an outside class: external
        '',
      ].join('\n'),
      'commands/hello.py': ['class Command:', '    pass', ''].join('\n'),
    });
    expect(lines).toEqual([
      'load.py:11 calls load.read -> ∅ [Path] unresolved:external',
      'load.py:12 calls load.read -> ∅ [read_text] unresolved:external',
      'load.py:6 calls load.load -> ∅ [import_module] unresolved:external',
      'load.py:7 calls load.load -> ∅ [Command] unresolved:dynamic',
    ]);
  });
});

describe('calls named by data', () => {
  it('Ruby: send, public_send and try call the method a symbol names, &:name on each yielded value; JavaScript: obj[\'name\']()', async () => {
    const lines = await callLines({
      'a.rb': [
        'class A', // 1
        '  def greet; end', // 2
        '  def wave; end', // 3
        '  def hello; end', // 4
        '  def run(o)', // 5
        '    o.send(:greet)', // 6: o is of unknown type
        '    public_send(:wave)', // 7: self's wave
        '    [1].each(&:hello)', // 8: on each element
        '    send(:"not a name")', // 9: no method name
        '  end', // 10
        'end', // 11
        '',
      ].join('\n'),
      'b.js': ["class B { go() {} }", "function run(b, m) { b['go'](); b[m](); b['no-name'](); }", 'module.exports = { run, B };', ''].join('\n'),
    });
    expect(lines).toEqual([
      'a.rb:6 calls A#run -> ∅ [greet] unresolved:dynamic',
      'a.rb:6 calls A#run -> ∅ [send] unresolved:dynamic',
      'a.rb:7 calls A#run -> A#wave [wave] self',
      'a.rb:7 calls A#run -> ∅ [public_send] unresolved:builtin',
      'a.rb:8 calls A#run -> ∅ [each] unresolved:dynamic',
      'a.rb:8 calls A#run -> ∅ [hello] unresolved:dynamic',
      'a.rb:9 calls A#run -> ∅ [send] unresolved:builtin',
      'b.js:2 calls b.run -> ∅ [go] unresolved:dynamic',
    ]);
  });
});
