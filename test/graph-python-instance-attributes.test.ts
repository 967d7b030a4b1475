// Python: an attribute a method stores on its instance (`self.handler = h`) hides a method of the
// same name for every call through an instance, wherever it is set: `self.handler()` and
// `c.handler()` (c: C) may reach the stored value rather than the method, so they stay unresolved
// (ambiguous) when the class or one of its bases stores such an attribute. A subclass storing it
// changes nothing for calls through its bases (as a subclass's override does not). `cls.x = …` in
// a class method stores on the class, with the same effect.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'shop/base.py': `class Base:
    def handler(self):
        pass

    def keep(self):
        pass

    def swap(self):
        pass

    @classmethod
    def configure(cls, f):
        cls.swap = f
`,
  'shop/sub.py': `from shop.base import Base


class Sub(Base):
    def __init__(self, h):
        self.handler = h
        self.count = 0

    def run(self):
        self.handler()
        self.keep()
        self.swap()
        helper = self.keep
        helper()


def use(s: Sub, b: Base):
    s.handler()
    b.handler()
    s.keep()
`,
};

const EXPECTED = [
  'shop/base.py:11 calls shop.base.Base -> ∅ [classmethod] unresolved:builtin',
  'shop/sub.py:1 imports shop.sub -> shop.base [shop.base] import',
  'shop/sub.py:4 inherits shop.sub.Sub -> shop.base.Base [Base] import',
  // Sub stores a handler on its instances: the method may be hidden.
  'shop/sub.py:10 calls shop.sub.Sub.run -> ∅ [handler] unresolved:ambiguous',
  'shop/sub.py:11 calls shop.sub.Sub.run -> shop.base.Base.keep [keep] self',
  // Base's class method stores swap on the class.
  'shop/sub.py:12 calls shop.sub.Sub.run -> ∅ [swap] unresolved:ambiguous',
  'shop/sub.py:14 calls shop.sub.Sub.run -> ∅ [helper] unresolved:local-variable',
  'shop/sub.py:18 calls shop.sub.use -> ∅ [handler] unresolved:ambiguous',
  // Through Base, which does not store it: its method.
  'shop/sub.py:19 calls shop.sub.use -> shop.base.Base.handler [handler] typed',
  'shop/sub.py:20 calls shop.sub.use -> shop.base.Base.keep [keep] typed',
];

describe.each(BACKENDS)('python instance attributes on %s', (backend) => {
  it('leaves calls of methods an instance attribute may hide unresolved', async () => {
    const graph = await openGraph(FILES, backend);
    try {
      expect(await graph.lines({ kind: ['calls', 'imports', 'inherits'] })).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('keeps those calls exact when a class starts or stops storing the attribute', async () => {
    await expectExactThrough(FILES, backend, [
      // Sub stops storing handler: its calls reach Base.handler.
      (f) => void (f['shop/sub.py'] = f['shop/sub.py']!.replace('        self.handler = h\n', '        self.h = h\n')),
      // Base starts storing keep on its instances.
      (f) => void (f['shop/base.py'] = f['shop/base.py']!.replace('    def keep(self):\n        pass\n', '    def keep(self):\n        self.keep = None\n')),
      // Base's class method goes.
      (f) => void (f['shop/base.py'] = f['shop/base.py']!.replace('        cls.swap = f\n', '        pass\n')),
    ]);
  });
});
