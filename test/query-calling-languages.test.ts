// An unresolved call counts as a possible call of a definition only in a language that can call
// it: Django's `static/admin/js` call `page()` on their own objects, never a Python method
// `Paginator.page`. C functions are called from every language (ctypes, cgo, P/Invoke, FFI).
import { describe, expect, it } from 'vitest';
import { openGraph } from './helpers/graph.js';

const FILES = {
  'pages.py': [
    'class Paginator:',
    '    def page(self, n):',
    '        return n',
    '',
    '    def as_json(self):',
    '        return 1',
    '',
    '',
    'def load(lib):',
    '    return lib.checksum(b"x")',
    '',
  ].join('\n'),
  'static/list.js': ['export function show(view, vendor) {', '  view.page(2);', "  return view['as_' + vendor]();", '}', ''].join('\n'),
  'native/sum.c': ['int checksum(const char *s) {', '  return s[0];', '}', ''].join('\n'),
  'static/fmt.js': ['function as_csv() {', '  return 1;', '}', ''].join('\n'),
  'more.py': ['def render(obj, vendor):', "    getattr(obj, 'as_' + vendor)()", '    return obj.page(1)', ''].join('\n'),
};

describe('unresolved calls count in the languages that can make them', () => {
  it('a JavaScript call is no possible call of a Python method; a Python one of a C function is', async () => {
    const g = await openGraph(FILES);
    try {
      const page = await g.db.callers('Paginator.page');
      expect(page.groups[0]!.unresolved.sample.map((s) => `${s.filePath.slice(g.tree.root.length + 1)}:${s.line}`)).toEqual(['more.py:3']);
      const checksum = await g.db.callers('checksum');
      expect(checksum.groups[0]!.unresolved.sample.map((s) => `${s.filePath.slice(g.tree.root.length + 1)}:${s.line}`)).toEqual(['pages.py:10']);
      expect(checksum.complete).toBe(false);
      // Python's `getattr(obj, 'as_' + vendor)` may look up a Python method, never a JavaScript function.
      const asJson = await g.db.callers('as_json');
      expect(asJson.groups[0]!.unresolved.sample.map((s) => `${s.filePath.slice(g.tree.root.length + 1)}:${s.line}`)).toEqual(['more.py:2']);
      expect((await g.db.callers('as_csv')).complete).toBe(true);
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['more.render', 'pages.load', 'static/fmt.as_csv']);
    } finally {
      g.close();
    }
  });

  it('dead code keeps a definition for unresolved calls of its own language only', async () => {
    const g = await openGraph({
      'pages.py': FILES['pages.py'],
      'static/list.js': FILES['static/list.js'],
      'native/sum.c': FILES['native/sum.c'],
    });
    try {
      // `view.page(2)` and `view['as_' + vendor]()` are JavaScript's: Paginator.page and as_json are unused;
      // `lib.checksum()` in Python keeps the C function.
      expect((await g.db.deadCode()).entries.map((e) => e.symbol.qualifiedName)).toEqual(['pages.Paginator.page', 'pages.Paginator.as_json', 'pages.load']);
    } finally {
      g.close();
    }
  });
});
