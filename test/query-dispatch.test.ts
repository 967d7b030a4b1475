// Dispatch to overrides in callers, callees and trace answers: `self.process(x)` in a base is an
// edge to the base's method, and on an instance of a subclass it runs the override. Answers
// must not say "complete: nothing calls it" of an override such calls may run; they list those
// calls apart (never as callers: no edge says so), and only those whose receiver may be an
// instance of a class whose lookup reaches the method (Python's order for mixins, Go's embedding
// never dispatching, Go's interfaces holding the types whose method sets fit). Exact answers on
// small codebases in Python, TypeScript, Java, Rust and Go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGTool, type CallsAnswer, type DispatchCalls } from '../src/index.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';
import { openGraph, type GraphUnderTest } from './helpers/graph.js';

const PYTHON = {
  'handlers.py': [
    'class Handler:',
    '    def handle(self, x):',
    '        return self.process(x)',
    '',
    '    def process(self, x):',
    '        return x',
    '',
    '    def explicit(self, x):',
    '        return Handler.process(self, x)',
    '',
    '',
    'class Upper(Handler):',
    '    def process(self, x):',
    '        return super().process(x).upper()',
    '',
    '',
    'class Sibling(Handler):',
    '    def helper(self):',
    '        return self.process(1)',
    '',
    '',
    'class Mixin:',
    '    def process(self, x):',
    '        return x * 2',
    '',
    '',
    'class Mixed(Mixin, Handler):',
    '    pass',
    '',
    '',
    'class Shadowed(Handler, Mixin):',
    '    pass',
    '',
    '',
    'def run(h: Handler):',
    '    return h.process(1)',
    '',
    '',
    'class Other:',
    '    def process(self, x):',
    '        return x',
    '',
    '',
    'class Late(Handler, Mixin, Other):',
    '    pass',
    '',
    '',
    'def use_other(o: Other):',
    '    return o.process(1)',
    '',
    '',
    'def make():',
    '    h = Handler()',
    '    return h.process(2)',
    '',
    '',
    'def sib(s: Sibling):',
    '    return s.process(3)',
    '',
  ].join('\n'),
};

/** A group's dispatch calls as `file:line symbol via method`. */
function dispatchLines(g: GraphUnderTest, d: DispatchCalls): string[] {
  return d.sample.map((c) => `${c.filePath.slice(g.tree.root.length + 1)}:${c.line} ${c.symbol.qualifiedName} via ${c.via.qualifiedName}`);
}

function only(answer: CallsAnswer): CallsAnswer['groups'][number] {
  expect(answer.groups).toHaveLength(1);
  return answer.groups[0]!;
}

describe('dispatch in Python (C3 order, mixins, self and typed receivers)', () => {
  let py: GraphUnderTest;
  beforeAll(async () => {
    py = await openGraph(PYTHON);
  });
  afterAll(() => py?.close());

  it('an override is no "complete: nothing calls it": calls of the method it overrides may run it', async () => {
    const answer = await py.db.callers('Upper.process');
    const group = only(answer);
    expect(group.calls).toEqual([]);
    // handle's self.process (self may be an Upper) and run's typed h.process; not Sibling.helper
    // (self there is a Sibling, never an Upper), not Handler.process(self, x), not super().process,
    // not make's h = Handler() (exactly a Handler), not sib's s: Sibling.
    expect(group.dispatch.count).toBe(2);
    expect(dispatchLines(py, group.dispatch)).toEqual(['handlers.py:3 handlers.Handler.handle via handlers.Handler.process', 'handlers.py:36 handlers.run via handlers.Handler.process']);
    expect(answer.complete).toBe(false);
  });

  it("a mixin's method takes the place of a later base's in a subclass, never of an earlier one's", async () => {
    // Mixed(Mixin, Handler): Mixin.process runs for handle's self.process on a Mixed.
    // Shadowed(Handler, Mixin): Handler.process comes first; Sibling.helper's self is no Mixed.
    // Late(Handler, Mixin, Other): Handler.process comes first too, so use_other's o.process
    // (an Other, maybe a Late) never runs Mixin.process.
    const group = only(await py.db.callers('Mixin.process'));
    expect(dispatchLines(py, group.dispatch)).toEqual(['handlers.py:3 handlers.Handler.handle via handlers.Handler.process', 'handlers.py:36 handlers.run via handlers.Handler.process']);
    // On a Late, o.process runs Handler.process: a call of Other.process that may run it.
    expect(dispatchLines(py, only(await py.db.callers('Handler.process')).dispatch)).toEqual(['handlers.py:49 handlers.use_other via handlers.Other.process']);
  });

  it('the overridden method keeps its own callers; a method that overrides nothing has no dispatch calls', async () => {
    const group = only(await py.db.callers('Handler.process'));
    expect(group.calls.map((c) => `${c.line} ${c.symbol?.qualifiedName} [${c.resolution}]`)).toEqual([
      '3 handlers.Handler.handle [self]',
      '9 handlers.Handler.explicit [local]',
      '14 handlers.Upper.process [super]',
      '19 handlers.Sibling.helper [self]',
      '36 handlers.run [typed]',
      '54 handlers.make [typed]',
      '58 handlers.sib [typed]',
    ]);
    expect(only(await py.db.callers('Other.process')).dispatch).toEqual({ count: 0, sample: [] });
  });

  it('callees: a call on self or a typed value may run the overrides below the receiver’s class', async () => {
    const handle = only(await py.db.callees('Handler.handle'));
    expect(dispatchLines(py, handle.dispatch)).toEqual(['handlers.py:3 handlers.Mixin.process via handlers.Handler.process', 'handlers.py:3 handlers.Upper.process via handlers.Handler.process']);
    expect(only(await py.db.callees('run')).dispatch.count).toBe(2);
    // A value made by a call of its class is that class (make's h), and a declared Sibling
    // (sib's s) is a Sibling or below: neither may be an Upper or a Mixed.
    expect(only(await py.db.callees('make')).dispatch.count).toBe(0);
    expect(only(await py.db.callees('sib')).dispatch.count).toBe(0);
    const answer = await py.db.callees('Sibling.helper');
    // No class below Sibling: its self.process is Handler.process.
    expect(only(answer).dispatch.count).toBe(0);
    expect(answer.complete).toBe(true);
    // A call super() names, or one through the class, is the method it names.
    expect(only(await py.db.callees('Upper.process')).dispatch.count).toBe(0);
    expect(only(await py.db.callees('Handler.explicit')).dispatch.count).toBe(0);
  });

  it('trace: dispatch calls into the path are counted unless their caller is on the path', async () => {
    const inbound = await py.db.tracePath('Upper.process', { direction: 'inbound' });
    expect(inbound.hops).toEqual([]);
    expect(dispatchLines(py, inbound.dispatch)).toEqual(['handlers.py:3 handlers.Handler.handle via handlers.Handler.process', 'handlers.py:36 handlers.run via handlers.Handler.process']);
    expect(inbound.complete).toBe(false);
    // Both process methods: handle is on the path (it calls Handler.process), run too.
    const both = await py.db.tracePath('process', { direction: 'inbound' });
    expect(both.dispatch.count).toBe(0);
    const outbound = await py.db.tracePath('Handler.handle', { direction: 'outbound' });
    expect(outbound.dispatch.count).toBe(2);
    expect(outbound.complete).toBe(false);
  });

  it('the ckg tool says so in the answer’s header', async () => {
    const tree: FixtureTree = makeTree('memfs', PYTHON);
    const tool = new CKGTool({ fs: tree.fs });
    try {
      const run = async (args: Record<string, unknown>): Promise<string> => {
        const result = await tool.execute({ path: tree.root, ...args });
        if ('error' in result) throw new Error(result.error);
        return result.output;
      };
      expect(await run({ command: 'find_callers', identifier: 'Upper.process' })).toBe(
        'Callers of handlers.Upper.process (method, handlers.py:13-14): 0 callers. Lower bound: 2 calls of methods it overrides or implements may run it by dispatch (handlers.py:3 handlers.Handler.handle via handlers.Handler.process, handlers.py:36 handlers.run via handlers.Handler.process).\n',
      );
      expect(await run({ command: 'find_callees', identifier: 'Handler.handle' })).toBe(
        'Calls made by handlers.Handler.handle (method, handlers.py:2-3): 1 call. 2 overrides or implementations may run instead by dispatch (handlers.py:3 process -> handlers.Mixin.process, handlers.py:3 process -> handlers.Upper.process).\n' +
          '1. handlers.py:3 process -> handlers.Handler.process\n',
      );
      expect(await run({ command: 'trace_path', identifier: 'Upper.process', direction: 'inbound' })).toBe(
        'Calls into handlers.Upper.process (handlers.py:13-14), depth 3: 0 hops. Lower bound: 2 calls of overridden or implemented methods may run methods on the path by dispatch, not followed (handlers.py:3 handlers.Handler.handle via handlers.Handler.process, handlers.py:36 handlers.run via handlers.Handler.process).\n',
      );
    } finally {
      await tool.close();
      tree.cleanup();
    }
  });
});

describe('dispatch after updates', () => {
  it('answers follow the index: a subclass or a type added by an update counts at once', async () => {
    const g = await openGraph(PYTHON);
    try {
      expect((await g.db.callees('Handler.handle')).groups[0]!.dispatch.count).toBe(2);
      g.tree.write('more.py', 'from handlers import Handler\n\n\nclass Lower(Handler):\n    def process(self, x):\n        return x.lower()\n');
      await g.db.update();
      expect(dispatchLines(g, only(await g.db.callees('Handler.handle')).dispatch)).toEqual([
        'handlers.py:3 handlers.Mixin.process via handlers.Handler.process',
        'handlers.py:3 handlers.Upper.process via handlers.Handler.process',
        'handlers.py:3 more.Lower.process via handlers.Handler.process',
      ]);
      expect(only(await g.db.callers('Lower.process')).dispatch.count).toBe(2);
    } finally {
      g.close();
    }
    const go = await openGraph({
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'a.go': 'package m\n\ntype Shape interface {\n\tArea() float64\n}\n\nfunc Total(s Shape) float64 { return s.Area() }\n',
    });
    try {
      expect(only(await go.db.callees('Total')).dispatch.count).toBe(0);
      go.tree.write('b.go', 'package m\n\ntype Tri struct{}\n\nfunc (t Tri) Area() float64 { return 1 }\n');
      await go.db.update();
      expect(dispatchLines(go, only(await go.db.callees('Total')).dispatch)).toEqual(['a.go:7 example.com/m.Tri.Area via example.com/m.Shape.Area']);
    } finally {
      go.close();
    }
  });
});

describe('dispatch in other languages', () => {
  it('TypeScript: this.name() in a base and a typed parameter may run a subclass’s override', async () => {
    const g = await openGraph({
      'shapes.ts': [
        'export class Shape {',
        '  describe(): string { return this.name(); }',
        "  name(): string { return 'shape'; }",
        '}',
        'export class Circle extends Shape {',
        "  name(): string { return 'circle'; }",
        '}',
        'export function show(s: Shape): string { return s.name(); }',
        '',
      ].join('\n'),
    });
    try {
      const answer = await g.db.callers('Circle.name');
      expect(only(answer).calls).toEqual([]);
      expect(dispatchLines(g, only(answer).dispatch)).toEqual(['shapes.ts:2 shapes.Shape.describe via shapes.Shape.name', 'shapes.ts:8 shapes.show via shapes.Shape.name']);
      expect(answer.complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('TypeScript: a class with what an interface names may run for its calls without `implements`', async () => {
    const g = await openGraph({
      'shapes.ts': [
        'export interface Shape { area(): number; name(): string; }',
        'export interface Named extends Outside { name(): string; id(): string; }',
        'export class Tag { name(): string { return "t"; } id(): string { return "1"; } }',
        'export class Circle { area(): number { return 3; } name(): string { return "c"; } }',
        'export class Square implements Shape { area(): number { return 4; } name(): string { return "s"; } }',
        'class Blob { area(): number { return 0; } }', // not exported: dead code may list its methods
        'export class Base { area(): number { return 1; } name(): string { return "b"; } }',
        'export class Derived extends Base {}',
        'export class Widget extends External { area(): number { return 2; } }',
        '',
      ].join('\n'),
      'use.ts': ['import { Shape, Named } from "./shapes";', '', 'export function total(s: Shape): number { return s.area(); }', 'export function label(n: Named): string { return n.name(); }', ''].join('\n'),
    });
    try {
      // Circle fits Shape (area and name), Blob does not (no name); Square declares it (the class graph's, once).
      expect(dispatchLines(g, only(await g.db.callers('Circle.area')).dispatch)).toEqual(['use.ts:3 use.total via shapes.Shape.area']);
      expect((await g.db.callers('Circle.area')).complete).toBe(false);
      expect(dispatchLines(g, only(await g.db.callers('Square.area')).dispatch)).toEqual(['use.ts:3 use.total via shapes.Shape.area']);
      const blob = await g.db.callers('Blob.area');
      expect(only(blob).dispatch.count).toBe(0);
      expect(blob.complete).toBe(true);
      // A base's method runs for a subclass that fits; a class with a base outside the codebase may have anything.
      expect(dispatchLines(g, only(await g.db.callers('Base.area')).dispatch)).toEqual(['use.ts:3 use.total via shapes.Shape.area']);
      expect(dispatchLines(g, only(await g.db.callers('Widget.area')).dispatch)).toEqual(['use.ts:3 use.total via shapes.Shape.area']);
      // An interface extending one outside the codebase requires at least what the codebase shows of it.
      expect(dispatchLines(g, only(await g.db.callers('Tag.name')).dispatch)).toEqual(['use.ts:4 use.label via shapes.Named.name']);
      expect(only(await g.db.callers('Circle.name')).dispatch.count).toBe(0);
      // Callees: the call of Shape.area may run each class that fits it.
      expect(dispatchLines(g, only(await g.db.callees('total')).dispatch)).toEqual([
        'use.ts:3 shapes.Base.area via shapes.Shape.area',
        'use.ts:3 shapes.Circle.area via shapes.Shape.area',
        'use.ts:3 shapes.Square.area via shapes.Shape.area',
        'use.ts:3 shapes.Widget.area via shapes.Shape.area',
      ]);
      // Dead code: a method an interface may be called for is not dead; one no interface names is.
      const dead = (await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName);
      expect(dead).not.toContain('shapes.Circle.area');
      expect(dead).toContain('shapes.Blob.area');
    } finally {
      g.close();
    }
  });

  it('Python: a class with what a Protocol names may run for its calls, a TypeScript interface holds no Python class', async () => {
    const g = await openGraph({
      'io_like.py': [
        'from typing import Protocol',
        '',
        '',
        'class Closer(Protocol):',
        '    def close(self) -> None: ...',
        '',
        '',
        'class File:',
        '    def close(self):',
        '        return None',
        '',
        '',
        'class Stream:',
        '    def flush(self):',
        '        return None',
        '',
        '',
        'def shut(c: Closer):',
        '    c.close()',
        '',
      ].join('\n'),
      'web.ts': ['export interface Closer { close(): void; }', 'export function shut(c: Closer): void { c.close(); }', ''].join('\n'),
    });
    try {
      expect(dispatchLines(g, only(await g.db.callers('File.close')).dispatch)).toEqual(['io_like.py:19 io_like.shut via io_like.Closer.close']);
      expect((await g.db.callers('File.close')).complete).toBe(false);
      expect(dispatchLines(g, only(await g.db.callees('io_like.shut')).dispatch)).toEqual(['io_like.py:19 io_like.File.close via io_like.Closer.close']);
      expect(dispatchLines(g, only(await g.db.callees('web.shut')).dispatch)).toEqual([]);
      const dead = (await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName);
      expect(dead).not.toContain('io_like.File.close');
      expect(dead).toContain('io_like.Stream.flush');
    } finally {
      g.close();
    }
  });

  it('Java: a call through an interface may run each implementation', async () => {
    const g = await openGraph({
      'app/Greeter.java': 'package app;\n\npublic interface Greeter {\n    String greet(String who);\n}\n',
      'app/Loud.java': 'package app;\n\npublic class Loud implements Greeter {\n    public String greet(String who) {\n        return who.toUpperCase();\n    }\n}\n',
      'app/Main.java': 'package app;\n\npublic class Main {\n    static String run(Greeter g) {\n        return g.greet("x");\n    }\n}\n',
    });
    try {
      const group = only(await g.db.callers('Loud.greet'));
      expect(dispatchLines(g, group.dispatch)).toEqual(['app/Main.java:5 app.Main.run via app.Greeter.greet']);
    } finally {
      g.close();
    }
  });

  it('Rust: a trait’s default method calling self.name() may run each impl’s name', async () => {
    const g = await openGraph({
      'src/lib.rs': [
        'pub trait Greet {',
        '    fn name(&self) -> String;',
        '    fn greet(&self) -> String { format!("hi {}", self.name()) }',
        '}',
        '',
        'pub struct Bob;',
        '',
        'impl Greet for Bob {',
        '    fn name(&self) -> String { "bob".to_string() }',
        '}',
        '',
      ].join('\n'),
    });
    try {
      // Bob::name is joined to Bob by a member_of edge (an impl block), not by nesting.
      expect(dispatchLines(g, only(await g.db.callers('Bob::name')).dispatch)).toEqual(['src/lib.rs:3 crate::Greet::greet via crate::Greet::name']);
      expect(dispatchLines(g, only(await g.db.callees('Greet::greet')).dispatch)).toEqual(['src/lib.rs:3 crate::Bob::name via crate::Greet::name']);
    } finally {
      g.close();
    }
  });

  it('Go: a call through an interface may run the methods of each type whose method set has the interface’s', async () => {
    const g = await openGraph({
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'shapes.go': [
        'package m',
        '',
        'type Shape interface {',
        '\tArea() float64',
        '\tName() string',
        '}',
        '',
        'type Named interface {',
        '\tName() string',
        '}',
        '',
        'type Circle struct{ r float64 }',
        '',
        'func (c Circle) Area() float64 { return c.r * c.r }',
        '',
        'func (c Circle) Name() string { return "circle" }',
        '',
        'type Label struct{}',
        '',
        'func (l Label) Name() string { return "label" }',
        '',
        'type Base struct{}',
        '',
        'func (b Base) Area() float64 { return 0 }',
        '',
        'type Square struct{ Base }',
        '',
        'func (s Square) Name() string { return "square" }',
        '',
        'func Total(s Shape) float64 { return s.Area() }',
        '',
        'func Title(n Named) string { return n.Name() }',
        '',
        'func Describe(s Shape) string { return s.Name() }',
        '',
        'type Failure struct{ error }',
        '',
        'func (f Failure) Area() float64 { return -1 }',
        '',
        'type Oops interface {',
        '\terror',
        '\tArea() float64',
        '}',
        '',
        'func Check(o Oops) float64 { return o.Area() }',
        '',
      ].join('\n'),
    });
    try {
      const m = 'example.com/m';
      expect(dispatchLines(g, only(await g.db.callers('Circle.Area')).dispatch)).toEqual([`shapes.go:30 ${m}.Total via ${m}.Shape.Area`]);
      // Label has Name but no Area: a Named, never a Shape.
      expect(dispatchLines(g, only(await g.db.callers('Label.Name')).dispatch)).toEqual([`shapes.go:32 ${m}.Title via ${m}.Named.Name`]);
      // Base alone is no Shape, but Square embeds it (its Area promoted) and adds Name.
      expect(dispatchLines(g, only(await g.db.callers('Base.Area')).dispatch)).toEqual([`shapes.go:30 ${m}.Total via ${m}.Shape.Area`]);
      expect(dispatchLines(g, only(await g.db.callees('Total')).dispatch)).toEqual([`shapes.go:30 ${m}.Base.Area via ${m}.Shape.Area`, `shapes.go:30 ${m}.Circle.Area via ${m}.Shape.Area`]);
      expect(dispatchLines(g, only(await g.db.callees('Describe')).dispatch)).toEqual([`shapes.go:34 ${m}.Circle.Name via ${m}.Shape.Name`, `shapes.go:34 ${m}.Square.Name via ${m}.Shape.Name`]);
      // Failure embeds the predeclared error: its method set is Error and Area, an Oops, no Shape
      // (an embedded type the graph cannot see would make it anything).
      expect(dispatchLines(g, only(await g.db.callees('Check')).dispatch)).toEqual([`shapes.go:45 ${m}.Failure.Area via ${m}.Oops.Area`]);
      expect(dispatchLines(g, only(await g.db.callers('Failure.Area')).dispatch)).toEqual([`shapes.go:45 ${m}.Check via ${m}.Oops.Area`]);
    } finally {
      g.close();
    }
  });

  it('Go: a method an interface may be called for is not dead code', async () => {
    const g = await openGraph({
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'a.go': [
        'package m',
        '',
        'type shape interface {',
        '\tarea() float64',
        '}',
        '',
        'type circle struct{ r float64 }',
        '',
        'func (c circle) area() float64 { return c.r * c.r }',
        '',
        'func (c circle) unused() float64 { return c.r }',
        '',
        'func one(s shape) float64 { return s.area() }',
        '',
        'func Two() float64 { return one(circle{1}) }',
        '',
      ].join('\n'),
    });
    try {
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['example.com/m.circle.unused']);
    } finally {
      g.close();
    }
  });

  it('Go: a method of an embedding struct never runs for the embedded one’s calls', async () => {
    const g = await openGraph({
      'go.mod': 'module example.com/m\n\ngo 1.19\n',
      'a.go': [
        'package m',
        '',
        'type Inner struct{}',
        '',
        'func (i Inner) Name() string { return "inner" }',
        '',
        'func (i Inner) Describe() string { return i.Name() }',
        '',
        'type Outer struct{ Inner }',
        '',
        'func (o Outer) Name() string { return "outer" }',
        '',
      ].join('\n'),
    });
    try {
      // The graph holds the embedding as a base, and i.Name() as Inner.Name's call.
      expect(await g.lines({ kind: ['calls', 'inherits'] })).toEqual(['a.go:7 calls example.com/m.Inner.Describe -> example.com/m.Inner.Name [Name] self', 'a.go:9 inherits example.com/m.Outer -> example.com/m.Inner [Inner] local']);
      const answer = await g.db.callers('Outer.Name');
      expect(only(answer).dispatch.count).toBe(0);
      expect(answer.complete).toBe(true);
      expect(only(await g.db.callees('Inner.Describe')).dispatch.count).toBe(0);
    } finally {
      g.close();
    }
  });
});
