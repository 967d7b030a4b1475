// A base the graph cannot name because it is computed (`class Manager(BaseManager.from_queryset(QuerySet))`
// in Django, `class Mixed extends mixin(Store)`) may well be the codebase's own class: a member
// that no class of the codebase above defines is then of unknown origin (`dynamic`, which callers
// answers count), never `external` as for a base imported from outside (which they do not).
import { describe, expect, it } from 'vitest';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'm.py': [
    'from outside import Ext',
    '',
    '',
    'class QuerySet:',
    '    def get(self):',
    '        return 1',
    '',
    '',
    'def make(qs):',
    '    return qs',
    '',
    '',
    'class Manager(make(QuerySet)):',
    '    pass',
    '',
    '',
    'class PermissionManager(Manager):',
    '    def by_key(self):',
    '        return self.get()', // 19
    '',
    '',
    'class Plain(Ext):',
    '    def x(self):',
    '        return self.get()', // 24
    '',
  ].join('\n'),
  'a.ts': [
    "import { Ext } from 'outside';",
    'export class Store { get(): number { return 1; } }',
    'function mixin<T>(b: T): T { return b; }',
    'export class Mixed extends mixin(Store) {}',
    'export class Sub extends Mixed { run() { return this.get(); } }',
    'export class Plain extends Ext { run() { return this.get(); } }',
    '',
  ].join('\n'),
};

const lines = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
  (await db.edges({ kind: 'calls', toName: 'get' })).map((e) => `${e.filePath.split('/').pop()}:${e.line} ${e.to?.qualifiedName ?? e.reason ?? e.resolution}`);

describe('computed bases', () => {
  it('leave a member no codebase class defines dynamic, an outside base external', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await lines(g.db)).toEqual(['a.ts:5 dynamic', 'a.ts:6 external', 'm.py:19 dynamic', 'm.py:24 external']);
      // So the callers of QuerySet.get and Store.get are a lower bound.
      expect((await g.db.callers('QuerySet.get')).complete).toBe(false);
      expect((await g.db.callers('Store.get')).complete).toBe(false);
    } finally {
      g.close();
    }
  });

  it('stay exact as the base becomes a name', async () => {
    const seen = await expectExactThrough(
      FILES,
      'memfs',
      [(f) => void (f['m.py'] = f['m.py']!.replace('class Manager(make(QuerySet)):', 'class Manager(QuerySet):')), (f) => void (f['m.py'] = f['m.py']!.replace('class Manager(QuerySet):', 'class Manager(make(QuerySet)):'))],
      async (db) => (await lines(db)).filter((l) => l.startsWith('m.py:19')),
    );
    expect(seen).toEqual([['m.py:19 m.QuerySet.get'], ['m.py:19 dynamic']]);
  });
});
