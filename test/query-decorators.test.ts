// Decorated definitions in callers and trace answers: a decorator receives the definition as a
// value and may have it called where no edge shows (a property's getter runs on every read of
// the attribute, a registered handler when its event comes), so callers of a decorated
// definition are never "complete: nothing calls it". Decorators that leave the calls as they are
// (`staticmethod`, `functools.lru_cache`…) change nothing. Exact answers on small Python and
// TypeScript codebases, through the API, the ckg tool and an update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGTool, type Decorators } from '../src/index.js';
import { openGraph, type GraphUnderTest } from './helpers/graph.js';

const PYTHON = {
  'settings.py': [
    'import functools',
    'from registry import register',
    '',
    '',
    'class Settings:',
    '    @property',
    '    def configured(self):',
    '        return True',
    '',
    '    @staticmethod',
    '    def default():',
    '        return Settings()',
    '',
    '    @functools.lru_cache(maxsize=None)',
    '    def cached(self):',
    '        return 1',
    '',
    '',
    '@register.filter(name="upper")',
    '@functools.wraps(print)',
    'def shout(value):',
    '    return value.upper()',
    '',
    '',
    'def main(s):',
    '    Settings.default()',
    '    return helper(s)',
    '',
    '',
    'def helper(s):',
    '    if s.configured:',
    '        return 1',
    '    return 0',
    '',
  ].join('\n'),
  'registry.py': ['class Library:', '    def filter(self, name):', '        return lambda f: f', '', '', 'register = Library()', ''].join('\n'),
};

/** `file:line @name on qualified name`, paths relative to the fixture's root. */
function decoratorLines(g: GraphUnderTest, d: Decorators): string[] {
  return d.sample.map((x) => `${x.filePath.slice(g.tree.root.length + 1)}:${x.line} @${x.name} on ${x.symbol.qualifiedName}`);
}

describe('decorated definitions', () => {
  let py: GraphUnderTest;
  beforeAll(async () => {
    py = await openGraph(PYTHON);
  });
  afterAll(() => py?.close());

  it('callers of a property list its decorator and are a lower bound', async () => {
    const answer = await py.db.callers('Settings.configured');
    const [group] = answer.groups;
    expect(group!.calls).toEqual([]);
    expect(group!.decorators.count).toBe(1);
    expect(decoratorLines(py, group!.decorators)).toEqual(['settings.py:6 @property on settings.Settings.configured']);
    expect(answer.complete).toBe(false);
  });

  it('a registering decorator is listed without its arguments; one that keeps calls as they are is not', async () => {
    const answer = await py.db.callers('shout');
    expect(decoratorLines(py, answer.groups[0]!.decorators)).toEqual(['settings.py:19 @register.filter on settings.shout']);
    expect(answer.complete).toBe(false);
  });

  it('staticmethod and functools.lru_cache leave the answer complete', async () => {
    const answer = await py.db.callers('Settings.default');
    expect(answer.groups[0]!.calls.map((c) => `${c.line} ${c.symbol?.qualifiedName}`)).toEqual(['26 settings.main']);
    expect(answer.groups[0]!.decorators.count).toBe(0);
    expect(answer.complete).toBe(true);
    const cached = await py.db.callers('Settings.cached');
    expect(cached.groups[0]!.decorators.count).toBe(0);
    expect(cached.complete).toBe(true);
  });

  it('callees list no decorators, and decorators are no edges', async () => {
    expect((await py.db.callees('Settings.configured')).groups[0]!.decorators.count).toBe(0);
    // The decorator expressions are the class's and the module's calls, as before (`register`
    // is registry.py's `Library()`: a module-level value of the class).
    expect(await py.lines({ filePath: `${py.tree.root}/settings.py`, kind: 'calls' })).toContain('settings.py:19 calls settings -> registry.Library.filter [filter] typed');
  });

  it('inbound traces count the decorators of the symbols on the path', async () => {
    const trace = await py.db.tracePath('helper', { direction: 'inbound' });
    expect(trace.hops.map((h) => h.from.qualifiedName)).toEqual(['settings.main']);
    expect(trace.decorators.count).toBe(0);
    expect(trace.complete).toBe(true);
    const property = await py.db.tracePath('Settings.configured', { direction: 'inbound' });
    expect(decoratorLines(py, property.decorators)).toEqual(['settings.py:6 @property on settings.Settings.configured']);
    expect(property.complete).toBe(false);
    expect((await py.db.tracePath('Settings.configured', { direction: 'outbound' })).decorators.count).toBe(0);
  });

  it('the ckg tool says why in the header', async () => {
    const tool = new CKGTool({ fs: py.tree.fs });
    try {
      const property = await tool.execute({ command: 'find_callers', identifier: 'Settings.configured', path: py.tree.root });
      expect('output' in property ? property.output : property.error).toBe(
        'Callers of settings.Settings.configured (method, settings.py:7-8): 0 callers. Lower bound: it is a property (@property settings.py:6): reading the attribute runs it, and attribute reads are no edges.\n',
      );
      const upper = await tool.execute({ command: 'find_callers', identifier: 'shout', path: py.tree.root });
      expect('output' in upper ? upper.output : upper.error).toBe(
        'Callers of settings.shout (function, settings.py:21-22): 0 callers. Lower bound: decorated (@register.filter settings.py:19): the decorator receives it and may have it called where no edge shows.\n',
      );
      const trace = await tool.execute({ command: 'trace_path', identifier: 'Settings.configured', path: py.tree.root, direction: 'inbound' });
      expect('output' in trace ? trace.output : trace.error).toBe(
        'Calls into settings.Settings.configured (settings.py:7-8), depth 3: 0 hops. Lower bound: 1 decorator of symbols on the path may have them called where no hop shows (settings.py:6 @property on settings.Settings.configured).\n',
      );
    } finally {
      await tool.close();
    }
  });

  it('answers follow updates: a decorator removed or added', async () => {
    const g = await openGraph(PYTHON);
    try {
      g.tree.write('settings.py', PYTHON['settings.py'].replace('    @property\n', '').replace('    @staticmethod\n', '    @cached_property\n'));
      await g.db.update();
      const configured = await g.db.callers('Settings.configured');
      expect(configured.groups[0]!.decorators.count).toBe(0);
      expect(configured.complete).toBe(true);
      expect(decoratorLines(g, (await g.db.callers('Settings.default')).groups[0]!.decorators)).toEqual(['settings.py:9 @cached_property on settings.Settings.default']);
    } finally {
      g.close();
    }
  });

  it('a decorator named like a kept one but bound to a parameter is listed', async () => {
    const g = await openGraph({
      'factory.py': ['def make(staticmethod):', '    @staticmethod', '    def inner():', '        return 1', '    return inner', ''].join('\n'),
    });
    try {
      expect(decoratorLines(g, (await g.db.callers('make.inner')).groups[0]!.decorators)).toEqual(['factory.py:2 @staticmethod on factory.make.inner']);
    } finally {
      g.close();
    }
  });

  it('a decorator binds no name: a call of the same name inside the decorated function is the module function', async () => {
    const g = await openGraph({
      'hooks.py': ['def register(f):', '    return f', '', '', '@register', 'def handler():', '    return register(None)', ''].join('\n'),
    });
    try {
      expect(await g.lines({ kind: 'calls' })).toEqual(['hooks.py:5 calls hooks -> hooks.register [register] local', 'hooks.py:7 calls hooks.handler -> hooks.register [register] local']);
    } finally {
      g.close();
    }
  });

  it('TypeScript: decorators of a class and of a method', async () => {
    const g = await openGraph({
      'widget.ts': [
        'function Component(options: object) { return (c: unknown) => c; }',
        'function HostListener(event: string) { return (t: unknown, k: string) => undefined; }',
        '',
        "@Component({ selector: 'w' })",
        'export class Widget {',
        "  @HostListener('click')",
        '  onClick(): void {}',
        '  plain(): void {}',
        '  run(): void { this.plain(); }',
        '}',
        '',
      ].join('\n'),
    });
    try {
      expect(decoratorLines(g, (await g.db.callers('Widget.onClick')).groups[0]!.decorators)).toEqual(['widget.ts:6 @HostListener on widget.Widget.onClick']);
      expect(decoratorLines(g, (await g.db.callers('Widget')).groups[0]!.decorators)).toEqual(['widget.ts:4 @Component on widget.Widget']);
      const plain = await g.db.callers('Widget.plain');
      expect(plain.groups[0]!.decorators.count).toBe(0);
      expect(plain.complete).toBe(true);
    } finally {
      g.close();
    }
  });
});

// Annotations and attributes that code reading them acts on (a framework's handler, a test
// runner's test, an injector's factory) are the same for callers; those of the compiler and of
// tools (`@Override`, `[Obsolete]`, `#[inline]`) are not reported.
const ANNOTATED: readonly { language: string; file: string; source: string; handler: string; kept: string; expected: string }[] = [
  {
    language: 'Java',
    file: 'web/Api.java',
    source: ['package web;', '', 'class Api {', '  @GetMapping("/x")', '  @Deprecated', '  String handle() { return helper(); }', '', '  @Override', '  public String helper() { return ""; }', '}', ''].join('\n'),
    handler: 'Api.handle',
    kept: 'Api.helper',
    expected: 'web/Api.java:4 @GetMapping on web.Api.handle',
  },
  {
    language: 'Kotlin',
    file: 'web/Api.kt',
    source: ['package web', '', 'class Api {', '    @JvmStatic', '    @org.junit.Test', '    fun handle() { helper() }', '', '    @Suppress("x") fun helper() {}', '}', ''].join('\n'),
    handler: 'Api.handle',
    kept: 'Api.helper',
    expected: 'web/Api.kt:5 @org.junit.Test on web.Api.handle',
  },
  {
    language: 'C#',
    file: 'Web/Api.cs',
    source: ['namespace Web {', '  class Api {', '    [HttpGet("/x"), Obsolete]', '    public void Handle() { Helper(); }', '', '    [ObsoleteAttribute]', '    public void Helper() {}', '  }', '}', ''].join('\n'),
    handler: 'Api.Handle',
    kept: 'Api.Helper',
    expected: 'Web/Api.cs:3 @HttpGet on Web.Api.Handle',
  },
  {
    language: 'Scala',
    file: 'web/Api.scala',
    source: ['package web', '', 'class Api {', '  @Test @deprecated("x") def handle(): Unit = helper()', '', '  @inline def helper(): Unit = {}', '}', ''].join('\n'),
    handler: 'Api.handle',
    kept: 'Api.helper',
    expected: 'web/Api.scala:4 @Test on web.Api.handle',
  },
  {
    language: 'PHP',
    file: 'web/Api.php',
    source: ['<?php', 'class Api {', "  #[Route('/x'), \\Override]", '  public function handle() { return $this->helper(); }', '', '  #[\\ReturnTypeWillChange]', '  public function helper() { return 1; }', '}', ''].join('\n'),
    handler: 'Api::handle',
    kept: 'Api::helper',
    expected: 'web/Api.php:3 @Route on Api::handle',
  },
  {
    language: 'Rust',
    file: 'src/main.rs',
    source: ['#[tokio::main]', '// the entry', '#[allow(dead_code)]', 'async fn main() { helper(); }', '', '#[inline]', '#[clippy::must_use]', 'fn helper() {}', ''].join('\n'),
    handler: 'main',
    kept: 'helper',
    expected: 'src/main.rs:1 @tokio::main on crate::main',
  },
];

describe('annotations and attributes', () => {
  it.each(ANNOTATED)('$language: a framework annotation is listed, a compiler annotation is not', async ({ file, source, handler, kept, expected }) => {
    const g = await openGraph({ [file]: source });
    try {
      const answer = await g.db.callers(handler);
      expect(decoratorLines(g, answer.groups[0]!.decorators)).toEqual([expected]);
      expect(answer.complete).toBe(false);
      const plain = await g.db.callers(kept);
      const shortName = handler.split(/\.|::/).pop();
      expect(plain.groups[0]!.calls.map((c) => c.symbol?.name)).toEqual([shortName]);
      expect(plain.groups[0]!.decorators.count).toBe(0);
      expect(plain.complete).toBe(true);
      // Dead code leaves the annotated definition out, as it does a decorated one.
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.name)).not.toContain(shortName);
    } finally {
      g.close();
    }
  });
});
