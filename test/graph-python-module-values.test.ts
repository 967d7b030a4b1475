// Python: a module-level value made by a class (`site = AdminSite()`) is that class's instance
// wherever it is used, as Go's package-level `var std = &Logger{}`: `site.register()` in the
// module, `sites.site.register()` elsewhere, and through a package's re-export
// (`from .sites import site` in `admin/__init__.py`, then `admin.site.register()`: what every
// Django project's admin.py does). Only when nothing else in the file binds the name: another
// assignment, a `global` in a function, an import, a `*` import.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'adm/sites.py': [
    'class AdminSite:',
    '    def register(self, model):',
    '        return model',
    '',
    '',
    'def make_site():',
    '    return AdminSite()',
    '',
    '',
    'site = AdminSite()',
    'made = make_site()',
    'twice = AdminSite()',
    'twice = None',
    'rebound = AdminSite()',
    '',
    '',
    'def reset():',
    '    global rebound',
    '    rebound = None',
    '',
    '',
    'def local_use():',
    '    site.register(1)',
    '    made.register(2)',
    '    twice.register(3)',
    '    rebound.register(4)',
    '',
  ].join('\n'),
  'adm/__init__.py': 'from .sites import AdminSite, site\n',
  'app.py': [
    'from adm import sites',
    'import adm',
    'from adm import site',
    '',
    '',
    'def setup():',
    '    sites.site.register(1)',
    '    adm.site.register(2)',
    '    site.register(3)',
    '    sites.made.register(4)',
    '',
  ].join('\n'),
};

const REGISTER = (db: Awaited<ReturnType<typeof openGraph>>['db'], root: string): Promise<string[]> =>
  db.edges({ kind: 'calls', toName: 'register' }).then((edges) => edges.map((e) => `${e.filePath.slice(root.length + 1)}:${e.line} ${e.to?.qualifiedName ?? `∅ ${e.resolution}`}`));

describe('Python: module-level values of a class', () => {
  it('type their calls in the module, from other modules and through re-exports; never when the name is bound otherwise', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await REGISTER(g.db, g.tree.root)).toEqual([
        'adm/sites.py:23 adm.sites.AdminSite.register',
        // A function's result: nothing declares what it is.
        'adm/sites.py:24 ∅ unresolved',
        // Assigned twice, or assigned by a function through `global`: either value.
        'adm/sites.py:25 ∅ unresolved',
        'adm/sites.py:26 ∅ unresolved',
        'app.py:7 adm.sites.AdminSite.register',
        'app.py:8 adm.sites.AdminSite.register',
        'app.py:9 adm.sites.AdminSite.register',
        'app.py:10 ∅ unresolved',
      ]);
      expect((await g.db.callers('AdminSite.register')).total).toBe(4);
    } finally {
      g.close();
    }
  });

  it('a declared type types the value whatever made it', async () => {
    const g = await openGraph({ 'a.py': 'class A:\n    def go(self):\n        return 1\n\n\ndef make():\n    return A()\n\n\nthing: A = make()\n\n\ndef use():\n    return thing.go()\n' });
    try {
      expect((await g.db.edges({ kind: 'calls', toName: 'go' })).map((e) => e.to?.qualifiedName)).toEqual(['a.A.go']);
    } finally {
      g.close();
    }
  });

  it('a `*` import may bind the name: no type', async () => {
    const g = await openGraph({ 'a.py': 'class A:\n    def go(self):\n        return 1\n', 'b.py': 'from a import A\nfrom c import *\n\nthing = A()\n\n\ndef use():\n    return thing.go()\n', 'c.py': 'thing = None\n' });
    try {
      expect((await g.db.edges({ kind: 'calls', toName: 'go' })).map((e) => e.resolution)).toEqual(['unresolved']);
    } finally {
      g.close();
    }
  });

  it('an import, a definition, a loop, `+=` or a walrus binding the name too: no type', async () => {
    const g = await openGraph({
      'a.py': 'class A:\n    def go(self):\n        return 1\n',
      'c.py': 'imported = None\n',
      'b.py': [
        'from a import A',
        'import c as imported',
        '',
        'imported = A()',
        'defined = A()',
        '',
        '',
        'def defined():',
        '    return 0',
        '',
        '',
        'looped = A()',
        'for looped in range(3):',
        '    pass',
        'added = A()',
        'added += 1',
        'walrus = A()',
        'if (walrus := 2):',
        '    pass',
        'kept = A()',
        '',
        '',
        'def use():',
        '    return imported.go(), defined.go(), looped.go(), added.go(), walrus.go(), kept.go()',
        '',
      ].join('\n'),
    });
    try {
      expect((await g.db.edges({ kind: 'calls', toName: 'go' })).map((e) => e.resolution)).toEqual(['unresolved', 'unresolved', 'unresolved', 'unresolved', 'unresolved', 'typed']);
    } finally {
      g.close();
    }
  });

  it("a package importing its own submodule (`from pkg import signals` in pkg/__init__.py) makes it a member: `pkg.signals.saved.send()`", async () => {
    const g = await openGraph({
      'pkg/__init__.py': 'from pkg import signals\nfrom . import other\n',
      'pkg/signals.py': 'class Signal:\n    def send(self):\n        return 1\n\n\nsaved = Signal()\n',
      'pkg/other.py': 'def go():\n    return 2\n',
      'app.py': 'from pkg import signals, other\n\n\ndef f():\n    signals.saved.send()\n    other.go()\n',
    });
    try {
      expect(await g.lines({ kind: 'calls', filePath: `${g.tree.root}/app.py` })).toEqual([
        'app.py:5 calls app.f -> pkg.signals.Signal.send [send] import',
        'app.py:6 calls app.f -> pkg.other.go [go] import',
      ]);
    } finally {
      g.close();
    }
  });

  it('stays exact through edits of the value, its class and the re-export', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [
        (f) => void (f['adm/sites.py'] = f['adm/sites.py']!.replace('site = AdminSite()', 'site = None')),
        (f) => void (f['adm/sites.py'] = f['adm/sites.py']!.replace('site = None', 'site = AdminSite()')),
        (f) => void (f['adm/__init__.py'] = 'from .sites import AdminSite\n'),
        (f) => void (f['adm/__init__.py'] = 'from .sites import AdminSite, site\n'),
        (f) => void (f['adm/sites.py'] = f['adm/sites.py']!.replace('    def register(self, model):', '    def enrol(self, model):')),
      ],
      REGISTER,
    );
    expect(seen.map((lines) => lines.filter((l) => l.startsWith('app.py')).join(' | '))).toEqual([
      'app.py:7 ∅ unresolved | app.py:8 ∅ unresolved | app.py:9 ∅ unresolved | app.py:10 ∅ unresolved',
      'app.py:7 adm.sites.AdminSite.register | app.py:8 adm.sites.AdminSite.register | app.py:9 adm.sites.AdminSite.register | app.py:10 ∅ unresolved',
      'app.py:7 adm.sites.AdminSite.register | app.py:8 ∅ unresolved | app.py:9 ∅ unresolved | app.py:10 ∅ unresolved',
      'app.py:7 adm.sites.AdminSite.register | app.py:8 adm.sites.AdminSite.register | app.py:9 adm.sites.AdminSite.register | app.py:10 ∅ unresolved',
      'app.py:7 ∅ unresolved | app.py:8 ∅ unresolved | app.py:9 ∅ unresolved | app.py:10 ∅ unresolved',
    ]);
  });
});
