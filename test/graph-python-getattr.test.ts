// Python: a class that defines `__getattr__` answers for the members it lacks (a proxy, such as
// Django's LazyObject). A call of a name its lookup order does not find is then of unknown
// origin (`dynamic`: callers of any `real` are a lower bound), never "not found"; `super()` looks
// along the classes only, and a class without the hook still has its members missing.
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'm.py': [
    'class Target:',
    '    def real(self):',
    '        return 1',
    '',
    '',
    'class Proxy:',
    '    def __getattr__(self, name):',
    '        return getattr(Target(), name)',
    '',
    '    def own(self):',
    '        return 2',
    '',
    '',
    'class Sub(Proxy):',
    '    def go(self):',
    '        self.real()', // 16
    '        self.own()',
    '        super().real()',
    '',
    '',
    'class Plain:',
    '    pass',
    '',
    '',
    'def use(p: Proxy, q: Plain):',
    '    p.real()', // 26
    '    q.real()',
    '    Sub().real()',
    '',
  ].join('\n'),
  // A base outside the codebase may define `shout`; if not, the hook answers: either way the
  // call may be Loud.shout's (it was `external`, which left Loud.shout's callers complete).
  'n.py': [
    'from outside import Base',
    '',
    '',
    'class Wrapped(Base):',
    '    def __getattr__(self, name):',
    '        return Loud()',
    '',
    '',
    'class Loud:',
    '    def shout(self):',
    '        return 3',
    '',
    '',
    'def other(w: Wrapped):',
    '    w.shout()',
    '',
  ].join('\n'),
};

const lines = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
  (await db.edges({ kind: 'calls' })).filter((e) => e.toName === 'real' || e.toName === 'own').map((e) => `${e.line} ${e.toName} -> ${e.to?.qualifiedName ?? `∅ ${e.reason ?? e.resolution}`}`);

describe('Python: classes with __getattr__', () => {
  it('make a member their lookup order lacks dynamic, not not-found', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await lines(g.db)).toEqual(['16 real -> ∅ dynamic', '17 own -> m.Proxy.own', '18 real -> ∅ not-found', '26 real -> ∅ dynamic', '27 real -> ∅ not-found', '28 real -> ∅ dynamic']);
      // So callers of Target.real are a lower bound.
      expect((await g.db.callers('Target.real')).complete).toBe(false);
      expect((await g.db.edges({ kind: 'calls', toName: 'shout' })).map((e) => e.reason ?? e.resolution)).toEqual(['dynamic']);
      expect((await g.db.callers('Loud.shout')).complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('stays exact as the hook comes and goes', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [(f) => void (f['m.py'] = f['m.py']!.replace('def __getattr__(self, name):', 'def lookup(self, name):')), (f) => void (f['m.py'] = f['m.py']!.replace('def lookup(self, name):', 'def __getattr__(self, name):'))],
      async (db) => (await lines(db)).filter((l) => l.startsWith('26 ')),
    );
    expect(seen).toEqual([['26 real -> ∅ not-found'], ['26 real -> ∅ dynamic']]);
  });
});
