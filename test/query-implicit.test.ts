// Methods the language calls where no call is written: Python runs `__iter__` for `for`, `__len__`
// for `len()`, `__add__` for `+`; PHP `__toString` where an object is a string; C++ an operator
// for its operator; Java `toString()` in string concatenation. No edge shows those calls, so
// callers of such a method are never "complete: nothing calls it". Constructors are not among
// them (a construction is a call of the class, which the graph records).
import { describe, expect, it } from 'vitest';
import { CKGTool } from '../src/index.js';
import { openGraph } from './helpers/graph.js';

const PYTHON = {
  'bag.py': [
    'class Bag:',
    '    def __init__(self, items):',
    '        self.items = items',
    '',
    '    def __iter__(self):',
    '        return iter(self.items)',
    '',
    '    def __len__(self):',
    '        return len(self.items)',
    '',
    '    def total(self):',
    '        return sum(x for x in self)',
    '',
    '',
    'def main():',
    '    bag = Bag([1, 2])',
    '    return len(bag) + bag.total()',
    '',
  ].join('\n'),
};

describe('methods the language calls implicitly', () => {
  it('Python: dunders are a lower bound, __init__ and plain methods are not', async () => {
    const g = await openGraph(PYTHON);
    try {
      for (const target of ['Bag.__iter__', 'Bag.__len__']) {
        const answer = await g.db.callers(target);
        expect(answer.groups[0]!.implicit, target).toBe(true);
        expect(answer.complete, target).toBe(false);
      }
      const init = await g.db.callers('Bag.__init__');
      expect(init.groups[0]!.calls.map((c) => `${c.line} ${c.symbol?.qualifiedName}`)).toEqual(['16 bag.main']);
      expect(init.groups[0]!.implicit).toBe(false);
      expect(init.complete).toBe(true);
      expect((await g.db.callers('Bag.total')).complete).toBe(true);
      // Callees never are.
      expect((await g.db.callees('Bag.__iter__')).groups[0]!.implicit).toBe(false);
      // An inbound trace names the path's implicitly called methods.
      const trace = await g.db.tracePath('Bag.__len__', { direction: 'inbound' });
      expect(trace.implicit.map((s) => s.qualifiedName)).toEqual(['bag.Bag.__len__']);
      expect(trace.complete).toBe(false);
      expect((await g.db.tracePath('Bag.total', { direction: 'inbound' })).implicit).toEqual([]);
      const tool = new CKGTool({ fs: g.tree.fs });
      try {
        const result = await tool.execute({ command: 'find_callers', identifier: 'Bag.__iter__', path: g.tree.root });
        expect('output' in result ? result.output : result.error).toBe(
          'Callers of bag.Bag.__iter__ (method, bag.py:5-6): 0 callers. Lower bound: the language or its runtime calls it where no call is written (an operator, a loop, a conversion to text, an entry point, a test, …).\n',
        );
      } finally {
        await tool.close();
      }
    } finally {
      g.close();
    }
  });

  it.each([
    { language: 'PHP', file: 'Money.php', source: '<?php\nclass Money {\n  public function __toString() { return "1"; }\n  public function __construct() {}\n  public function plain() {}\n}\n', implicit: 'Money::__toString', plain: 'Money::plain' },
    { language: 'C++', file: 'vec.cpp', source: 'struct Vec {\n  Vec operator+(const Vec& o) const { return o; }\n  ~Vec() {}\n  int plain() { return 1; }\n};\n', implicit: 'Vec::operator+', plain: 'Vec::plain' },
    { language: 'Java', file: 'p/Money.java', source: 'package p;\nclass Money {\n  public String toString() { return "1"; }\n  int plain() { return 1; }\n}\n', implicit: 'Money.toString', plain: 'Money.plain' },
  ])('$language: the language’s own hooks are a lower bound, a plain method is not', async ({ file, source, implicit, plain }) => {
    const g = await openGraph({ [file]: source });
    try {
      const hook = await g.db.callers(implicit);
      expect(hook.groups.map((x) => x.implicit)).toEqual([true]);
      expect(hook.complete).toBe(false);
      const other = await g.db.callers(plain);
      expect(other.groups.map((x) => x.implicit)).toEqual([false]);
      expect(other.complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('entry points and tests: the runtime calls them', async () => {
    const g = await openGraph({
      'cmd/main.go': ['package main', '', 'func init() {}', '', 'func main() { helper() }', '', 'func helper() {}', ''].join('\n'),
      'src/lib.rs': ['pub fn add(a: i32) -> i32 { a }', '', '#[test]', 'fn adds() { assert_eq!(add(1), 1); }', ''].join('\n'),
    });
    try {
      for (const target of ['init', 'main', 'adds']) {
        const answer = await g.db.callers(target);
        expect(answer.groups.map((x) => x.implicit), target).toEqual([true]);
        expect(answer.complete, target).toBe(false);
      }
      expect((await g.db.callers('helper')).complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('a method of a class with bases outside the codebase may override one their code calls', async () => {
    const g = await openGraph({
      'views.py': [
        'from django.views.generic import ListView',
        '',
        '',
        'class Base(ListView):',
        '    pass',
        '',
        '',
        'class MyView(Base):',
        '    def get_queryset(self):',
        '        return []',
        '',
        '',
        'class Plain(object):',
        '    def helper(self):',
        '        return 1',
        '',
        '',
        'def use():',
        '    return Plain().helper()',
        '',
      ].join('\n'),
      'p/Task.java': ['package p;', 'class Task implements Runnable {', '  public void run() {}', '  void helper() {}', '}', ''].join('\n'),
    });
    try {
      const view = await g.db.callers('MyView.get_queryset');
      expect(view.groups[0]!.outsideBases).toEqual(['ListView']);
      expect(view.complete).toBe(false);
      // `object` is no such base (its methods are called implicitly, which `implicit` says).
      const plain = await g.db.callers('Plain.helper');
      expect(plain.groups[0]!.outsideBases).toEqual([]);
      expect(plain.complete).toBe(true);
      expect((await g.db.callers('Task.helper')).groups[0]!.outsideBases).toEqual(['Runnable']);
      expect((await g.db.callees('MyView.get_queryset')).groups[0]!.outsideBases).toEqual([]);
      const trace = await g.db.tracePath('MyView.get_queryset', { direction: 'inbound' });
      expect(trace.overridable.map((s) => s.qualifiedName)).toEqual(['views.MyView.get_queryset']);
      expect(trace.complete).toBe(false);
      const tool = new CKGTool({ fs: g.tree.fs });
      try {
        const result = await tool.execute({ command: 'find_callers', identifier: 'MyView.get_queryset', path: g.tree.root });
        expect('output' in result ? result.output : result.error).toBe(
          'Callers of views.MyView.get_queryset (method, views.py:9-10): 0 callers. Lower bound: its class has a base outside the codebase (ListView): if it overrides one of its methods, that code calls it where no edge shows.\n',
        );
      } finally {
        await tool.close();
      }
    } finally {
      g.close();
    }
  });

  it('Python: `object` written as a base is no base outside the codebase (dead code and dispatch see the class as having none)', async () => {
    const g = await openGraph({
      'a.py': ['class Foo(object):', '    def used(self):', '        return 1', '', '    def unused(self):', '        return 2', '', '', 'def main():', '    return Foo().used()', ''].join('\n'),
    });
    try {
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['a.Foo.unused']);
      expect((await g.db.callers('Foo.unused')).complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('callers of a class only ever subclassed say how many classes derive from it', async () => {
    const g = await openGraph({
      'shapes.py': ['class Mixin:', '    pass', '', '', 'class A(Mixin):', '    pass', '', '', 'class B(A):', '    pass', '', '', 'def make():', '    return B()', ''].join('\n'),
    });
    const tool = new CKGTool({ fs: g.tree.fs });
    try {
      const mixin = await g.db.callers('Mixin');
      expect(mixin.groups[0]!.subclasses).toBe(2);
      expect(mixin.complete).toBe(true);
      expect((await g.db.callers('B')).groups[0]!.subclasses).toBe(0);
      expect((await g.db.callees('Mixin')).groups[0]!.subclasses).toBe(0);
      const result = await tool.execute({ command: 'find_callers', identifier: 'Mixin', path: g.tree.root });
      expect('output' in result ? result.output : result.error).toBe(
        'Callers of shapes.Mixin (class, shapes.py:1-2): 0 callers. Complete: nothing calls it. 2 classes derive from it (class_hierarchy lists them).\n',
      );
    } finally {
      await tool.close();
      g.close();
    }
  });
});
