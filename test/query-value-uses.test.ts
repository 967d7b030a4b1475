// Functions used as values in callers and trace answers: `register(on_save)` hands on_save to
// code that may call it (`callback(1)`, a call of a parameter, which names no function), so the
// callers of on_save are never "complete: nothing calls it" while such uses exist. Exact answers
// on small Python and TypeScript codebases, through the API and the ckg tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGTool } from '../src/index.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';
import { expectExactThrough, openGraph, type GraphUnderTest } from './helpers/graph.js';

const PYTHON = {
  'app.py': [
    'def on_save(x):',
    '    return x',
    '',
    '',
    'def register(callback):',
    '    return callback(1)',
    '',
    '',
    'def main():',
    '    return register(on_save)',
    '',
    '',
    'def helper():',
    '    return 2',
    '',
    '',
    'def run():',
    '    handlers = [on_save]',
    '    return helper() + len(handlers)',
    '',
  ].join('\n'),
};

describe('uses as a value', () => {
  let py: GraphUnderTest;
  beforeAll(async () => {
    py = await openGraph(PYTHON);
  });
  afterAll(() => py?.close());

  it('callers count the uses of a function as a value, with their users: a lower bound', async () => {
    const answer = await py.db.callers('on_save');
    const [group] = answer.groups;
    expect(group!.calls).toEqual([]);
    expect(group!.valueUses.count).toBe(2);
    expect(group!.valueUses.sample.map((u) => `${u.filePath.slice(py.tree.root.length + 1)}:${u.line} ${u.symbol.qualifiedName}`)).toEqual(['app.py:10 app.main', 'app.py:18 app.run']);
    expect(answer.complete).toBe(false);
  });

  it('a function only ever called is complete, and callees list no value uses', async () => {
    const answer = await py.db.callers('helper');
    expect(answer.groups[0]!.valueUses.count).toBe(0);
    expect(answer.complete).toBe(true);
    expect((await py.db.callees('main')).groups[0]!.valueUses.count).toBe(0);
  });

  it('inbound traces count the uses of the symbols on the path', async () => {
    const trace = await py.db.tracePath('on_save', { direction: 'inbound' });
    expect(trace.hops).toEqual([]);
    expect(trace.valueUses.count).toBe(2);
    expect(trace.complete).toBe(false);
    expect((await py.db.tracePath('on_save', { direction: 'outbound' })).valueUses.count).toBe(0);
  });

  it('the ckg tool says so in the header', async () => {
    const tree: FixtureTree = makeTree('memfs', PYTHON);
    const tool = new CKGTool({ fs: tree.fs });
    try {
      const result = await tool.execute({ command: 'find_callers', identifier: 'on_save', path: tree.root });
      expect('output' in result ? result.output : result.error).toBe(
        'Callers of app.on_save (function, app.py:1-2): 0 callers. Lower bound: 2 uses of it as a value may lead to calls no edge shows (app.py:10 app.main, app.py:18 app.run).\n',
      );
    } finally {
      await tool.close();
      tree.cleanup();
    }
  });

  it('an unresolved use named like a method (a value of unknown type passed on) makes its callers a lower bound', async () => {
    const g = await openGraph({
      'wiring.py': [
        'class Saver:',
        '    def persist(self, x):',
        '        return x',
        '',
        '    def flush(self):',
        '        return None',
        '',
        '',
        'def wire(obj, bus):',
        '    bus.subscribe(obj.persist)',
        '    bus.subscribe(obj.flush)',
        '',
        '',
        'def call_it(obj):',
        '    return obj.persist(1)',
        '',
      ].join('\n'),
    });
    const tool = new CKGTool({ fs: g.tree.fs });
    try {
      const answer = await g.db.callers('Saver.persist');
      expect(answer.groups[0]!.unresolved).toEqual({
        count: 2,
        uses: 1,
        sample: [
          { filePath: `${g.tree.root}/wiring.py`, line: 10 },
          { filePath: `${g.tree.root}/wiring.py`, line: 15 },
        ],
      });
      expect(answer.complete).toBe(false);
      const result = await tool.execute({ command: 'find_callers', identifier: 'Saver.persist', path: g.tree.root });
      expect('output' in result ? result.output : result.error).toBe(
        'Callers of wiring.Saver.persist (method, wiring.py:2-3): 0 callers. Lower bound: 2 unresolved calls and uses as a value named persist may also be (or lead to) calls of it (wiring.py:10, wiring.py:15).\n',
      );
      const flush = await tool.execute({ command: 'find_callers', identifier: 'Saver.flush', path: g.tree.root });
      expect('output' in flush ? flush.output : flush.error).toBe(
        'Callers of wiring.Saver.flush (method, wiring.py:5-6): 0 callers. Lower bound: 1 unresolved use as a value named flush may lead to calls of it (wiring.py:11).\n',
      );
    } finally {
      await tool.close();
      g.close();
    }
  });

  it('TypeScript: a method passed on (this.handle) counts as a use of it', async () => {
    const g = await openGraph({
      'bus.ts': [
        'export class Bus {',
        '  start(on: (x: number) => void): void { on(1); }',
        '}',
        'export class App {',
        '  handle(x: number): void {}',
        '  run(bus: Bus): void { bus.start(this.handle); }',
        '}',
        '',
      ].join('\n'),
    });
    try {
      const answer = await g.db.callers('App.handle');
      expect(answer.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['6 bus.App.run']);
      expect(answer.complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('a function stored in an object literal is a value the object holds: its callers are a lower bound', async () => {
    const g = await openGraph({
      'app.ts': [
        'export interface Handler { handle(x: number): void; }',
        'function run(h: Handler): void { h.handle(1); }',
        'const obj: Handler = { handle(x: number) { return; } };',
        'run(obj);',
        'export function make() { return { close() { return 1; } }; }',
        'export function plain() { return 2; }',
        'plain();',
        '',
      ].join('\n'),
    });
    try {
      // `h.handle(1)` runs it through `obj`: its edge names Handler.handle, and no edge reaches the literal's method.
      const handle = await g.db.callers('app.handle');
      expect(handle.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['3 app']);
      expect(handle.complete).toBe(false);
      expect((await g.db.callers('close')).groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['5 app.make']);
      expect((await g.db.callers('plain')).complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('Kotlin: bound references passed on (this::show, c::take, B::hide) are uses of the members', async () => {
    const g = await openGraph({
      'q/B.kt': [
        'package q',
        'class B {',
        '  fun show(s: String) {}',
        '  fun hide(s: String) {}',
        '  fun run(l: List<String>, c: C) { l.forEach(this::show); l.forEach(c::take); l.forEach(B::hide); show("x") }',
        '}',
        'class C { fun take(s: String) {} }',
        '',
      ].join('\n'),
    });
    try {
      for (const target of ['B.show', 'B.hide', 'C.take']) {
        const answer = await g.db.callers(target);
        expect(answer.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`), target).toEqual(['5 q.B.run']);
        expect(answer.complete).toBe(false);
      }
    } finally {
      g.close();
    }
  });

  it('PHP: callables written as data ([$this, \'boot\'], [self::class, \'cmp\'], \'trim_all\' where a callable is taken)', async () => {
    const g = await openGraph({
      'src/A.php': [
        '<?php',
        'namespace App;',
        'class A {',
        "  function run() { add_action('init', [$this, 'boot']); usort($x, [self::class, 'cmp']); array_map('trim_all', $l); call_user_func('App\\A::make'); $pair = ['id', 'name']; }",
        '  function boot() {}',
        '  static function cmp($a, $b) {}',
        '  static function make() {}',
        '  function name() {}',
        '  function init() {}',
        '}',
        'function trim_all($s) {}',
        '',
      ].join('\n'),
    });
    try {
      // Array callables on $this and self::class are the class's methods, resolved.
      for (const target of ['boot', 'cmp']) {
        const answer = await g.db.callers(target);
        expect(answer.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`), target).toEqual(['4 App\\A::run']);
        expect(answer.complete).toBe(false);
      }
      // A string names a function or class by its full name: an unresolved use of the name.
      for (const target of ['trim_all', 'make']) {
        const answer = await g.db.callers(target);
        expect(answer.groups[0]!.unresolved, target).toEqual({ count: 1, uses: 1, sample: [{ filePath: `${g.tree.root}/src/A.php`, line: 4 }] });
      }
      // A hook's name, and a pair of strings no callable is taken from, are no uses.
      expect((await g.db.callers('name')).complete).toBe(true);
      expect((await g.db.callers('init')).complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('JS/TS: a module imported at run time (import(\'./page\')) is an import, and its exports are used through it', async () => {
    const files = {
      'a.ts': ["export async function go() { const m = await import('./b'); return m.helper(); }", 'export const Lazy = () => import(`./c`);', "export const Dynamic = (name: string) => import(`./${name}`);", ''].join('\n'),
      'b.ts': ['export function helper() { return 1; }', 'function hidden() { return 2; }', 'hidden();', ''].join('\n'),
      'c.ts': ['export default function Page() { return 2; }', ''].join('\n'),
    };
    const g = await openGraph(files);
    try {
      expect(await g.lines({ kind: 'imports' })).toEqual(['a.ts:1 imports a.go -> b [./b] import', 'a.ts:2 imports a.Lazy -> c [./c] import']);
      const page = await g.db.callers('Page');
      expect(page.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['2 a.Lazy']);
      expect(page.complete).toBe(false);
      expect((await g.db.callers('helper')).groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['1 a.go']);
      // What the module does not export is reached through its names only.
      expect((await g.db.callers('hidden')).complete).toBe(true);
    } finally {
      g.close();
    }
    await expectExactThrough(files, 'memfs', [
      (f) => {
        f['pages/c.ts'] = f['c.ts']!;
        f['c.ts'] = null;
      },
      (f) => {
        f['a.ts'] = f['a.ts']!.replace('`./c`', '`./pages/c`');
      },
      (f) => {
        f['b.ts'] = null;
      },
    ]);
  });
});
