// Python: a method called on a literal, or on a local only ever assigned literals, is a builtin
// type's (Python lets no code add methods to `str`, `list` or `dict`): such calls are unresolved
// `builtin`, never `dynamic`, so a codebase method of the same name (`Doc.join`) keeps a complete
// callers answer. And `nonlocal x` in an inner function unties what the outer function's own
// assignments say x holds.
import { describe, expect, it } from 'vitest';
import { openGraph } from './helpers/graph.js';

const FILES = {
  'docs.py': [
    'class Doc:',
    '    def join(self, other):',
    '        return other',
    '',
    '    def put(self, x):',
    '        return x',
    '',
    '',
    'def render(names, obj):',
    "    title = ', '.join(names)",
    '    parts = []',
    '    parts.append(title)',
    '    (1).bit_length()',
    '    counts = {}',
    "    counts.get('a')",
    '    mixed = []',
    '    mixed = obj',
    '    mixed.append(1)',
    "    text = ''",
    "    text += 'x'",
    '    text.upper()',
    '    return obj.join(parts)',
    '',
    '',
    'def outer():',
    '    box = Doc()',
    '    def inner():',
    '        nonlocal box',
    '        box = []',
    '    inner()',
    '    box.put(1)',
    '    kept = Doc()',
    '    kept.put(2)',
    '',
  ].join('\n'),
};

/** A module whose own class is named `dict`: a literal `{}` is still the builtin's. */
const SHADOW = {
  'shadow.py': [
    'class dict:',
    '    def get(self, key):',
    '        return key',
    '',
    '',
    'def literal():',
    '    d = {}',
    "    return d.get('k')",
    '',
    '',
    'def declared(obj):',
    '    x: dict = obj',
    '    return x.get(1)',
    '',
    '',
    'def both(obj):',
    '    y: dict = obj',
    '    y = {}',
    '    return y.get(2)',
    '',
  ].join('\n'),
};

describe('Python: calls on literals are builtin', () => {
  it('literals and locals only ever assigned literals are builtin; other values stay dynamic', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await g.lines({ kind: 'calls' })).toEqual([
        'docs.py:10 calls docs.render -> ∅ [join] unresolved:builtin',
        'docs.py:12 calls docs.render -> ∅ [append] unresolved:builtin',
        'docs.py:13 calls docs.render -> ∅ [bit_length] unresolved:builtin',
        'docs.py:15 calls docs.render -> ∅ [get] unresolved:builtin',
        // Assigned a literal and a parameter: nothing says what it holds.
        'docs.py:18 calls docs.render -> ∅ [append] unresolved:dynamic',
        // `+=` may make anything of it (`__radd__`).
        'docs.py:21 calls docs.render -> ∅ [upper] unresolved:dynamic',
        'docs.py:22 calls docs.render -> ∅ [join] unresolved:dynamic',
        'docs.py:26 calls docs.outer -> docs.Doc [Doc] local',
        'docs.py:30 calls docs.outer -> docs.outer.inner [inner] local',
        // inner() made box a list: no longer the Doc the assignment in outer made.
        'docs.py:31 calls docs.outer -> ∅ [put] unresolved:dynamic',
        'docs.py:32 calls docs.outer -> docs.Doc [Doc] local',
        'docs.py:33 calls docs.outer -> docs.Doc.put [put] typed',
      ]);
      // `', '.join(names)` is no call the answer must count; `obj.join(parts)` is.
      const join = await g.db.callers('Doc.join');
      expect(join.groups[0]!.unresolved.count).toBe(1);
      expect(join.groups[0]!.unresolved.sample.map((s) => s.line)).toEqual([22]);
    } finally {
      g.close();
    }
  });

  it("a literal is the builtin's even where the module names a class like the builtin type", async () => {
    const g = await openGraph(SHADOW);
    try {
      expect(await g.lines({ kind: 'calls' })).toEqual([
        'shadow.py:8 calls shadow.literal -> ∅ [get] unresolved:builtin',
        'shadow.py:13 calls shadow.declared -> shadow.dict.get [get] typed',
        // Declared the module's dict, assigned a builtin dict: either.
        'shadow.py:19 calls shadow.both -> ∅ [get] unresolved:dynamic',
      ]);
    } finally {
      g.close();
    }
  });
});
