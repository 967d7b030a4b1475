// The graph queries (callers, callees, tracePath, classHierarchy, deadCode, searchSymbols,
// fileOutline) on the Python and TypeScript fixtures of test/fixtures/graph: exact answers,
// paging, the honesty rule (complete or lower bound), and what each must not do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallsAnswer, SymbolRef } from '../src/index.js';
import { graphFixture, openGraph, type GraphUnderTest } from './helpers/graph.js';

let py: GraphUnderTest;
let ts: GraphUnderTest;
beforeAll(async () => {
  py = await openGraph(graphFixture('python'));
  ts = await openGraph(graphFixture('typescript'));
});
afterAll(() => {
  py?.close();
  ts?.close();
});

const rel = (g: GraphUnderTest, p: string): string => p.slice(g.tree.root.length + 1);
/** A calls answer as lines: `group: file:line symbol [resolution] (depth)`. */
function callLines(g: GraphUnderTest, answer: CallsAnswer): string[] {
  return answer.groups.flatMap((group) =>
    group.calls.map((c) => `${group.symbol.qualifiedName}: ${rel(g, c.filePath)}:${c.line} ${c.symbol?.qualifiedName ?? `? ${c.name}`} [${c.resolution}${c.reason ? `:${c.reason}` : ''}] (${c.depth})`),
  );
}

describe('callers', () => {
  it('lists call sites with their callers, and counts unresolved same-name calls: a lower bound', async () => {
    const answer = await py.db.callers('Model.save');
    expect(callLines(py, answer)).toEqual([
      'shop.models.Model.save: app.py:14 app.main [typed] (1)',
      'shop.models.Model.save: shop/catalog.py:14 shop.catalog.Catalog.add_product [typed] (1)',
    ]);
    // `m.Product.create("cup").save()`: create declares no result.
    expect(answer.groups[0]!.unresolved).toEqual({ count: 1, sample: [{ filePath: `${py.tree.root}/app.py`, line: 10 }] });
    expect(answer.complete).toBe(false);
  });

  it('is complete when no unresolved call carries the name', async () => {
    const answer = await py.db.callers('app.helper');
    expect(callLines(py, answer)).toEqual(['app.helper: app.py:15 app.main [local] (1)']);
    expect(answer.complete).toBe(true);
    expect(answer.groups[0]!.unresolved.count).toBe(0);
  });

  it('never counts builtins or calls into modules outside the codebase as possible callers', async () => {
    // catalog.py calls title_case imported from `thirdparty.strings` (not the codebase's): not a caller, not "unresolved".
    const answer = await py.db.callers('shop.util.title_case');
    expect(answer.groups[0]!.calls).toEqual([]);
    expect(answer.groups[0]!.unresolved.count).toBe(0);
    expect(answer.complete).toBe(true);
  });

  it('follows callers of callers to the given depth, each caller once, modules included', async () => {
    expect(callLines(py, await py.db.callers('add_product', { depth: 3 }))).toEqual([
      'shop.catalog.Catalog.add_product: app.py:9 app.main [typed] (1)',
      'shop.catalog.Catalog.add_product: app.py:31 app [local] (2)',
    ]);
  });

  it('answers a class with the calls of its constructor', async () => {
    expect(callLines(py, await py.db.callers('shop.catalog.Catalog'))).toEqual(['shop.catalog.Catalog: app.py:8 app.main [import] (1)']);
    expect(callLines(ts, await ts.db.callers('Registry'))).toEqual([
      'src/registry.Registry: src/main.ts:14 src/main.run [import] (1)',
      'src/registry.Registry: src/registry.ts:13 src/registry.Registry.create [local] (1)',
    ]);
  });

  it('groups an ambiguous name by definition, and narrows by qualified name or SymbolRef', async () => {
    const both = await py.db.callers('join');
    expect(both.groups.map((g) => g.symbol.qualifiedName)).toEqual(['shop.models.Product.join', 'shop.util.join']);
    expect(callLines(py, both)).toEqual(['shop.util.join: app.py:13 app.main [import] (1)']);
    const util = both.groups[1]!.symbol;
    expect(callLines(py, await py.db.callers(util))).toEqual(callLines(py, await py.db.callers('shop.util.join')));
    expect((await py.db.callers('util.join')).groups.map((g) => g.symbol.qualifiedName)).toEqual(['shop.util.join']);
    expect((await py.db.callers({ ...util, startLine: util.startLine + 1 } as SymbolRef)).groups).toEqual([]);
  });

  it('pages over all groups with limit and offset', async () => {
    const all = callLines(ts, await ts.db.callers('helper'));
    expect(all).toEqual([
      'src/registry.helper: src/legacy.js:5 src/legacy.go [import] (1)',
      'src/registry.helper: src/legacy.js:6 src/legacy.go [import] (1)',
      'src/registry.helper: src/main.ts:18 src/main.run [import] (1)',
      'src/registry.helper: src/main.ts:19 src/main.run [import] (1)',
      'src/registry.helper: src/main.ts:25 src/main.run [import] (1)',
    ]);
    const page = await ts.db.callers('helper', { limit: 2, offset: 1 });
    expect(callLines(ts, page)).toEqual(all.slice(1, 3));
    expect(page.total).toBe(5);
    expect(page.complete).toBe(false); // a page is not the whole answer
  });
});

describe('callees', () => {
  it('lists every call a definition makes, unresolved ones with their reason', async () => {
    expect(callLines(py, await py.db.callees('app.main'))).toEqual([
      'app.main: app.py:8 shop.catalog.Catalog.__init__ [import] (1)',
      'app.main: app.py:9 shop.catalog.Catalog.add_product [typed] (1)',
      'app.main: app.py:10 shop.models.Product.create [import] (1)',
      'app.main: app.py:10 ? save [unresolved:dynamic] (1)',
      'app.main: app.py:11 shop.models.Product.parse [import] (1)',
      'app.main: app.py:12 shop.version.get_version [import] (1)',
      'app.main: app.py:12 ? print [unresolved:builtin] (1)',
      'app.main: app.py:13 shop.util.join [import] (1)',
      'app.main: app.py:14 shop.util.retry [import] (1)',
      'app.main: app.py:14 shop.models.Model.save [typed] (1)',
      'app.main: app.py:15 app.helper [local] (1)',
    ]);
  });

  it('goes deeper on request; a module is a caller of its top-level code', async () => {
    const deep = callLines(py, await py.db.callees('app', { depth: 2 }));
    // Level 1: the module's own code (a decorator, the `__main__` block); level 2: what those call.
    expect(deep.filter((l) => l.endsWith('(1)'))).toEqual(['app: app.py:25 shop.util.retry [import] (1)', 'app: app.py:31 app.main [local] (1)']);
    const second = callLines(py, await py.db.callees('shop.util.retry')).map((l) => l.replace('(1)', '(2)'));
    const main = callLines(py, await py.db.callees('app.main')).map((l) => l.replace('(1)', '(2)'));
    expect(deep.filter((l) => l.endsWith('(2)')).sort()).toEqual([...main, ...second].map((l) => l.replace(/^[^:]+:/, 'app:')).sort());
  });
});

describe('tracePath', () => {
  it('walks outbound breadth first, each symbol once (recursion ends)', async () => {
    const path = await py.db.tracePath('shop.util.retry', { direction: 'outbound', depth: 4 });
    // Builtins (range) are not part of the codebase's paths.
    expect(path.hops.map((h) => `${h.depth} ${h.from.qualifiedName} -> ${h.to?.qualifiedName ?? `? ${h.name}`}`)).toEqual([
      '1 shop.util.retry -> ? task',
      '1 shop.util.retry -> shop.util.retry',
    ]);
    expect(path.complete).toBe(false);
  });

  it('walks inbound to the entry points, and says which unresolved calls may add callers', async () => {
    const path = await py.db.tracePath('validate', { direction: 'inbound', depth: 10 });
    expect(path.hops.map((h) => `${h.depth} ${h.from.qualifiedName} -> ${h.to?.qualifiedName} ${rel(py, h.filePath)}:${h.line}`)).toEqual([
      '1 shop.models.Model.save -> shop.models.Model.validate shop/models.py:6',
      '2 app.main -> shop.models.Model.save app.py:14',
      '2 shop.catalog.Catalog.add_product -> shop.models.Model.save shop/catalog.py:14',
      '3 app.main -> shop.catalog.Catalog.add_product app.py:9',
      '3 app -> app.main app.py:31',
    ]);
    // `save` is also called on a value of unknown type: that may be a further caller.
    expect(path.unresolved.count).toBe(1);
    expect(path.complete).toBe(false);
  });

  it('rejects a depth over 10 and an unknown direction', async () => {
    await expect(py.db.tracePath('main', { depth: 11 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(py.db.tracePath('main', { direction: 'sideways' as 'inbound' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('classHierarchy', () => {
  it('gives bases up and subclasses down, across files', async () => {
    const [product] = await py.db.classHierarchy('Product');
    expect(product!.bases.map((b) => `${b.depth} ${b.relation} ${b.symbol?.qualifiedName}`)).toEqual(['1 inherits shop.models.Model']);
    const [registry] = await ts.db.classHierarchy('src/registry.Registry');
    expect(registry!.subclasses.map((s) => `${s.depth} ${s.relation} ${s.symbol?.qualifiedName}`)).toEqual(['1 inherits src/main.Sub']);
    expect(await py.db.classHierarchy('helper')).toEqual([]); // not a class
  });
});

describe('deadCode', () => {
  it('finds what nothing reaches, and leaves out entry points, constructors, decorated, exported and maybe-called code', async () => {
    // Product.join: the fixture's other `join` calls are str's (`"/".join(parts)`), none of it.
    expect((await py.db.deadCode()).entries.map((e) => `${e.symbol.qualifiedName}: ${e.signature}`)).toEqual([
      'shop.models.Product.join: def join(self, other):',
      'shop.util.title_case: def title_case(text):',
    ]);
    // TypeScript: `hidden` is not exported and never called; everything else is exported or called.
    expect((await ts.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['src/util/strings.hidden']);
    expect((await py.db.deadCode({ path: 'app.py' })).total).toBe(0);
    expect((await ts.db.deadCode({ language: 'python' })).total).toBe(0);
  });
});

describe('searchSymbols', () => {
  const names = async (g: GraphUnderTest, q: string, options = {}): Promise<string[]> =>
    (await g.db.searchSymbols(q, options)).results.map((r) => `${r.match} ${r.symbol.qualifiedName}`);

  it('ranks exact, prefix, word, substring, then typos', async () => {
    expect(await names(py, 'save')).toEqual(['exact shop.models.Model.save']);
    expect(await names(py, 'add_')).toEqual(['prefix shop.catalog.Catalog.add_product']);
    expect(await names(py, 'case')).toEqual(['word shop.util.title_case']);
    expect(await names(py, 'itle')).toEqual(['substring shop.util.title_case']);
    expect(await names(py, 'prase')).toEqual(['fuzzy shop.models.Product.parse']);
    expect(await names(py, 'vesion')).toEqual(['fuzzy shop.version.get_version']);
  });

  it('breaks ties by call count, then path', async () => {
    // Each __init__ is called once (Cat(), Product(), super().__init__()): then by path and line.
    expect(await names(py, '__init__')).toEqual(['exact shop.catalog.Catalog.__init__', 'exact shop.models.Model.__init__', 'exact shop.models.Product.__init__']);
    // `helper` (5 calls) before anything less called of the same tier.
    expect((await ts.db.searchSymbols('h')).results.map((r) => `${r.match} ${r.symbol.name} ${r.calls}`).slice(0, 2)).toEqual(['prefix helper 5', 'prefix hidden 0']);
  });

  it('filters by +term, -term, /regex/, kind, language and path glob; qualified prefixes list a module', async () => {
    expect(await names(py, 'join +util')).toEqual(['exact shop.util.join']);
    expect(await names(py, 'join -util')).toEqual(['exact shop.models.Product.join']);
    expect(await names(py, '/^get_/')).toEqual(['regex shop.version.get_version']);
    expect(await names(py, 'join', { kind: 'method' })).toEqual(['exact shop.models.Product.join']);
    expect(await names(py, 'join', { path: 'shop/util.py' })).toEqual(['exact shop.util.join']);
    expect(await names(py, 'shop.version.')).toEqual(['qualified shop.version.get_version']);
    expect(await names(ts, 'slug', { language: 'typescript' })).toEqual(['exact src/util/strings.slug']);
  });

  it('pages with limit and offset, and gives each result its signature line', async () => {
    const first = await py.db.searchSymbols('shop.models.', { limit: 3 });
    const second = await py.db.searchSymbols('shop.models.', { limit: 3, offset: 3 });
    expect(first.total).toBe(9);
    expect(first.results).toHaveLength(3);
    expect(new Set([...first.results, ...second.results].map((r) => r.symbol.qualifiedName)).size).toBe(6);
    expect((await py.db.searchSymbols('get_version')).results[0]!.signature).toBe('def get_version():');
  });
});

describe('fileOutline', () => {
  it('nests the definitions of a file with their ranges and signature lines', async () => {
    const outline = await py.db.fileOutline('shop/models.py');
    const lines: string[] = [];
    const walk = (entries: typeof outline extends undefined ? never : NonNullable<typeof outline>['entries'], depth: number): void => {
      for (const e of entries) {
        lines.push(`${'  '.repeat(depth)}${e.startLine}-${e.endLine} ${e.signature}`);
        walk(e.children, depth + 1);
      }
    };
    walk(outline!.entries, 0);
    expect(lines).toEqual([
      '1-9 class Model:',
      '  2-3 def __init__(self, name):',
      '  5-6 def save(self):',
      '  8-9 def validate(self):',
      '12-26 class Product(Model):',
      '  13-15 def __init__(self, name, price):',
      '  18-19 def create(cls, name):',
      '  22-23 def parse(text):',
      '  25-26 def join(self, other):',
    ]);
    expect(outline!.module.qualifiedName).toBe('shop.models');
    expect(await py.db.fileOutline(`${py.tree.root}/shop/models.py`)).toEqual(outline);
    expect(await py.db.fileOutline('nope.py')).toBeUndefined();
  });
});

describe('signature lines', () => {
  it('are the same whichever way bodies are kept (read from files, stored, compressed)', async () => {
    const signatures = async (g: GraphUnderTest): Promise<string[]> => [
      ...(await g.db.fileOutline('shop/models.py'))!.entries.flatMap((e) => [e.signature, ...e.children.map((c) => c.signature)]),
      ...(await g.db.deadCode()).entries.map((e) => e.signature),
      ...(await g.db.searchSymbols('a')).results.map((r) => r.signature),
    ];
    const expected = await signatures(py);
    expect(expected.filter((s) => s.startsWith('def ')).length).toBeGreaterThan(5);
    for (const bodies of ['stored', 'compressed'] as const) {
      const other = await openGraph(graphFixture('python'), 'memfs', { bodies });
      try {
        expect(await signatures(other)).toEqual(expected);
      } finally {
        other.close();
      }
    }
  });
});

describe('deadCode: uses the graph cannot resolve', () => {
  it('leaves out what dispatch, binding, object literals, imports and unresolved value uses may reach', async () => {
    const g = await openGraph({
      // Python: a mixin's method overriding a sibling base's (AutocompleteSelect's MRO), a method
      // passed as a bound method of an untyped object, `a or b` and `a if c else b` values, and a
      // function a package imports by name (re-exported).
      'forms/widgets.py': [
        'class Select:',
        '    def render(self):',
        '        return self.optgroups()',
        '    def optgroups(self):',
        '        return []',
        '',
        'class AutocompleteMixin:',
        '    def optgroups(self):',
        '        return [1]',
        '    def lonely(self):',
        '        return 2',
        '',
        'class AutocompleteSelect(AutocompleteMixin, Select):',
        '    pass',
        '',
        'class Feed:',
        '    def add_root_elements(self):',
        '        return None',
        '',
        'class RssFeed(Feed):',
        '    def add_root_elements(self):',
        '        return 1',
        '    def write(self):',
        '        return self.add_root_elements()',
        '',
        'class Seq:',
        '    def get_y(self, i):',
        '        return i',
        '    def get_z(self, i):',
        '        return i',
        '    def get_w(self, i):',
        '        return i',
        '',
        'def listing(other, flag):',
        '    f = other.cs.get_y',
        '    g = other.cs.get_z or None',
        '    return [f, g, other.cs.get_w if flag else None]',
        '',
        'def unused_helper():',
        '    return 0',
        '',
        'def reexported():',
        '    return 1',
        '',
        'def run():',
        '    return AutocompleteSelect().render(), listing(None, True), RssFeed().write()',
        '',
        'run()',
        '',
      ].join('\n'),
      'forms/__init__.py': 'from .widgets import reexported\n',
      // JavaScript: a local function passed as a callback and bound, object literal members, `a || b`.
      'static/app.js': [
        'function setup(el, options) {',
        '  const onClick = function (e) { return e; };',
        '  const onKey = function (e) { return e; };',
        '  const fallback = function () { return 0; };',
        '  const unusedLocal = function () { return 1; };',
        "  el.addEventListener('click', onClick);",
        "  el.addEventListener('keyup', onKey.bind(this));",
        '  let adapter = null;',
        '  adapter = function (c) { return c; };',
        '  el.adapt(adapter);',
        '  const chosen = options.handler || fallback;',
        '  return { chosen, translations: { noResults: function () { return "none"; }, searching() { return "…"; } } };',
        '}',
        'setup(document.body, {});',
        '',
      ].join('\n'),
      // Go: a method value of an untyped receiver (`h.less` passed on).
      'go.mod': 'module example.com/m\n',
      'sorter/sorter.go': [
        'package sorter',
        '',
        'type byLen struct{}',
        '',
        'func (byLen) less(i, j int) bool { return i < j }',
        '',
        'func (byLen) unusedMethod() int { return 0 }',
        '',
        'func Sort(h interface{ less(int, int) bool }, apply func(func(int, int) bool)) {',
        '\tapply(h.less)',
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual([
        'forms.widgets.AutocompleteMixin.lonely',
        'forms.widgets.unused_helper',
        'example.com/m/sorter.byLen.unusedMethod',
        'static/app.setup.unusedLocal',
      ]);
      // The local function is a definition its uses lead to: passed to addEventListener, which
      // may call it (no edge shows that call: a lower bound).
      const onClick = await g.db.callers('static/app.setup.onClick');
      expect(onClick.groups[0]!.valueUses.sample.map((u) => `${u.line} ${u.symbol.qualifiedName}`)).toEqual(['6 static/app.setup']);
      expect(onClick.complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('counts a shorthand property ({ setup }) as a use of the function it names, as { data: data } is', async () => {
    const g = await openGraph({
      'static/vue.js': ['function setup() { return 1; }', 'function data() { return 2; }', 'function unused() { return 3; }', 'export default { setup, data: data };', ''].join('\n'),
    });
    try {
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['static/vue.unused']);
    } finally {
      g.close();
    }
  });

  it('leaves out entry points, root-class overrides, anonymous-class methods and functions passed by name', async () => {
    const g = await openGraph({
      // C#: Main, ToString (System.Object's), method groups passed or subscribed.
      'App.cs': [
        'namespace Acme {',
        '  class App {',
        '    static void Main(string[] args) { var a = new App(); a.Start(); }',
        '    void Start() { Each(Show); Clicked += OnClick; }',
        '    void Each(System.Action<int> f) { f(1); }',
        '    static void Show(int x) { }',
        '    static void OnClick(int x) { }',
        '    event System.Action<int> Clicked;',
        '    public override string ToString() => "app";',
        '    static void Unused() { }',
        '  }',
        '}',
        '',
      ].join('\n'),
      // Java: toString and an anonymous class's method.
      'src/Job.java': [
        'class Job {',
        '  void schedule() { Runnable later = new Runnable() { public void run() { } }; later.run(); }',
        '  public String toString() { return "job"; }',
        '  void unusedJava() { }',
        '}',
        '',
      ].join('\n'),
      // Scala: a method passed by name (eta-expanded).
      'App.scala': ['object Shop {', '  def main(args: Array[String]): Unit = List(1).foreach(show)', '  def show(i: Int): Unit = ()', '  def unusedScala(): Unit = ()', '}', ''].join('\n'),
      // Bash: a function passed to another command as a word.
      'deploy.sh': ['retry() { "$@"; }', 'upload() { echo up; }', 'unused_sh() { echo no; }', 'retry 3 upload', ''].join('\n'),
    });
    try {
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.name)).toEqual(['Unused', 'unusedScala', 'unused_sh', 'schedule', 'unusedJava']);
    } finally {
      g.close();
    }
  });

  it('leaves out what getattr may look up: a literal name, a computed name by its literal start, any method on self', async () => {
    const g = await openGraph({
      'dateformat.py': [
        'class Formatter:',
        '    def format(self, spec):',
        '        return [getattr(self, piece)() for piece in spec]',
        '',
        'class DateFormat(Formatter):',
        '    def d(self):',
        '        return 1',
        '',
        'class Unrelated:',
        '    def d2(self):',
        '        return 3',
        '',
        'def run(connection, node):',
        "    a = getattr(node, 'as_' + connection.vendor, None)",
        "    b = getattr(node, 'clean_%s' % connection.name)",
        "    c = getattr(node, 'render_{}'.format(connection.kind))",
        "    d = getattr(node, f'alter_{connection.option}')",
        "    e = getattr(node, 'literal_name')",
        '    f = getattr(node, connection.anything)',
        '    return DateFormat().format("d"), a, b, c, d, e, f',
        '',
        'def as_mysql():',
        '    return 1',
        'def clean_title():',
        '    return 1',
        'def render_js():',
        '    return 1',
        'def alter_unique():',
        '    return 1',
        'def literal_name():',
        '    return 1',
        'def really_dead():',
        '    return 1',
        '',
        'run(None, None)',
        '',
      ].join('\n'),
    });
    try {
      // A computed name on another object with no literal start (`connection.anything`) could be
      // anything: it keeps nothing alive, or dead code would say nothing at all.
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['dateformat.Unrelated.d2', 'dateformat.really_dead']);
      // And callers answers say they may be a lower bound, with the lookup's line.
      const lookupLines = async (target: string) => {
        const answer = await g.db.callers(target);
        return { complete: answer.complete, lines: answer.groups.flatMap((group) => group.unresolved.sample.map((at) => at.line)) };
      };
      expect(await lookupLines('as_mysql')).toEqual({ complete: false, lines: [14] });
      expect(await lookupLines('dateformat.DateFormat.d')).toEqual({ complete: false, lines: [3] });
      // A literal name is a use of that name (dead code keeps literal_name for it): whatever
      // getattr returns may be called, so its callers are a lower bound too.
      expect(await lookupLines('literal_name')).toEqual({ complete: false, lines: [18] });
      expect(await lookupLines('dateformat.Unrelated.d2')).toEqual({ complete: true, lines: [] });
      expect(await lookupLines('really_dead')).toEqual({ complete: true, lines: [] });
    } finally {
      g.close();
    }
  });
});
