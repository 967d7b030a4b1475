// Python, JavaScript, TypeScript: an attribute a method stores on its instance (`self.handler = h`,
// `this.handler = h`) hides a method of the same name for every call through an instance,
// wherever it is set: `self.handler()` and `c.handler()` (c: C) may reach the stored value rather
// than the method, so they stay unresolved (ambiguous) when the class or one of its bases stores
// such an attribute. A subclass storing it changes nothing for calls through its bases (as a
// subclass's override does not), nor for `super()` calls, which read the classes. Python's
// `cls.x = …` in a class method stores on the class, with the same effect; JavaScript's
// `this.x = this.x.bind(this)` stores the method itself and hides nothing. Lua: a field stored on
// an instance of a table (`self.handler = cb` in `function T:m()`, or on a local made with
// `setmetatable({}, T)`) makes `self:handler()` in T's methods unresolved (`dynamic`). And in
// Python and JS/TS, a method stored over on a local's or parameter's value (`h.process = stub`,
// as tests do) makes `h.process()` in that function unresolved (`dynamic`), wherever the store
// is; `h.run = h.run.bind(h)` stores the method itself.
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
        super().handler()


def use(s: Sub, b: Base):
    s.handler()
    b.handler()
    s.keep()


def stubbed(b: Base):
    b.keep()
    b.keep = lambda: None
    other = Base()
    other.keep()
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
  // super() reads Base, not the instance.
  'shop/sub.py:15 calls shop.sub.Sub.run -> shop.base.Base.handler [handler] super',
  'shop/sub.py:19 calls shop.sub.use -> ∅ [handler] unresolved:ambiguous',
  // Through Base, which does not store it: its method.
  'shop/sub.py:20 calls shop.sub.use -> shop.base.Base.handler [handler] typed',
  'shop/sub.py:21 calls shop.sub.use -> shop.base.Base.keep [keep] typed',
  // b's keep is stored over in the function (after the call: the order is not read).
  'shop/sub.py:25 calls shop.sub.stubbed -> ∅ [keep] unresolved:dynamic',
  'shop/sub.py:27 calls shop.sub.stubbed -> shop.base.Base [Base] import',
  'shop/sub.py:28 calls shop.sub.stubbed -> shop.base.Base.keep [keep] typed',
];

const TS_FILES: Record<string, string> = {
  'src/base.ts': `export class Base {
  handler(): void {}
  keep(): void {}
}
`,
  'src/sub.ts': `import { Base } from './base';

export class Sub extends Base {
  constructor(private readonly h: () => void) {
    super();
    this.handler = h;
    this.keep = this.keep.bind(this);
    const later = () => {
      this.late = () => {};
    };
  }

  late(): void {}

  run(): void {
    this.handler();
    this.keep();
    this.late();
    super.handler();
  }
}

export function use(s: Sub, b: Base): void {
  s.handler();
  b.handler();
  new Sub(() => {}).keep();
}

export function stubbed(b: Base): void {
  b.keep();
  b.keep = () => {};
  const other = new Base();
  other.handler = other.handler.bind(other);
  other.handler();
}
`,
};

const TS_EXPECTED = [
  'src/sub.ts:1 imports src/sub -> src/base [./base] import',
  'src/sub.ts:3 inherits src/sub.Sub -> src/base.Base [Base] import',
  'src/sub.ts:5 calls src/sub.Sub.constructor -> src/base.Base [super] super',
  'src/sub.ts:7 calls src/sub.Sub.constructor -> ∅ [bind] unresolved:dynamic',
  // `this.keep.bind(this)` stores the method itself: line 17 is still Base's keep.
  'src/sub.ts:16 calls src/sub.Sub.run -> ∅ [handler] unresolved:ambiguous',
  'src/sub.ts:17 calls src/sub.Sub.run -> src/base.Base.keep [keep] self',
  // Stored in an arrow function of the constructor, where `this` is the instance.
  'src/sub.ts:18 calls src/sub.Sub.run -> ∅ [late] unresolved:ambiguous',
  'src/sub.ts:19 calls src/sub.Sub.run -> src/base.Base.handler [handler] super',
  'src/sub.ts:24 calls src/sub.use -> ∅ [handler] unresolved:ambiguous',
  'src/sub.ts:25 calls src/sub.use -> src/base.Base.handler [handler] typed',
  'src/sub.ts:26 calls src/sub.use -> src/sub.Sub.constructor [Sub] local',
  'src/sub.ts:26 calls src/sub.use -> src/base.Base.keep [keep] typed',
  // b's keep is stored over in the function; other's handler is bound again, which replaces nothing.
  'src/sub.ts:30 calls src/sub.stubbed -> ∅ [keep] unresolved:dynamic',
  'src/sub.ts:32 calls src/sub.stubbed -> src/base.Base [Base] import',
  'src/sub.ts:33 calls src/sub.stubbed -> ∅ [bind] unresolved:dynamic',
  'src/sub.ts:34 calls src/sub.stubbed -> src/base.Base.handler [handler] typed',
];

describe.each(BACKENDS)('typescript instance attributes on %s', (backend) => {
  it('leaves calls of methods an instance attribute may hide unresolved', async () => {
    const graph = await openGraph(TS_FILES, backend);
    try {
      expect(await graph.lines({ kind: ['calls', 'imports', 'inherits'] })).toEqual(TS_EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('keeps those calls exact when a class starts or stops storing the attribute', async () => {
    await expectExactThrough(TS_FILES, backend, [
      (f) => void (f['src/sub.ts'] = f['src/sub.ts']!.replace('    this.handler = h;\n', '')),
      (f) => void (f['src/base.ts'] = f['src/base.ts']!.replace('  keep(): void {}\n', '  keep(): void {\n    this.keep = () => {};\n  }\n')),
    ]);
  });
});

const LUA_FILES: Record<string, string> = {
  'shop.lua': `local T = {}
T.__index = T

function T.new(cb)
  local self = setmetatable({}, T)
  self.handler = cb
  return self
end

function T:handler()
end

function T:keep()
  self.count = 1
  self.items = {}
end

function T:count()
end

function T:items()
end

function T:run()
  self:handler()
  self:keep()
  self:count()
  self.items()
  self.child:keep()
end

return T
`,
};

const LUA_EXPECTED = [
  'shop.lua:5 calls shop.T.new -> ∅ [setmetatable] unresolved:builtin',
  'shop.lua:25 calls shop.T.run -> ∅ [handler] unresolved:dynamic',
  'shop.lua:26 calls shop.T.run -> shop.T.keep [keep] self',
  'shop.lua:27 calls shop.T.run -> ∅ [count] unresolved:dynamic',
  'shop.lua:28 calls shop.T.run -> ∅ [items] unresolved:dynamic',
  // A method of a field's table, not of the instance: no such table of T in the file.
  'shop.lua:29 calls shop.T.run -> ∅ [keep] unresolved:not-found',
];

describe.each(BACKENDS)('lua instance fields on %s', (backend) => {
  it("leaves calls of a table's methods that a stored field may hide unresolved", async () => {
    const graph = await openGraph(LUA_FILES, backend);
    try {
      expect(await graph.lines({ kind: 'calls' })).toEqual(LUA_EXPECTED);
    } finally {
      graph.close();
    }
  });
});

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

// A call of an attribute that no class of the order defines as a method but that a method stores
// on the instances (`self.callback = cb` then `self.callback(1)`) calls the value stored: it may
// be any function of the codebase, so it is `dynamic` (counted by callers answers), never
// `not-found` (counted by none); an attribute stored nowhere stays not-found.
describe('calls of a value a method stores on the instances', () => {
  const files: Record<string, string> = {
    'a.py': [
      'class Job:',
      '    def __init__(self, callback):',
      '        self.callback = callback',
      '',
      '    def run(self):',
      '        self.callback(1)', // 6
      '        self.missing(2)',
      '',
      '',
      'def use(job: Job):',
      '    job.callback(3)', // 11
      '',
    ].join('\n'),
    'b.ts': [
      'export class Stream {',
      '  private readonly add: (x: number) => void;',
      '  constructor(add: (x: number) => void) {',
      '    this.add = add;',
      '    this.add(1);', // 5
      '    this.missing();',
      '  }',
      '}',
      'export function use(s: Stream) { s.add(2); }', // 9
      '',
    ].join('\n'),
  };
  const causes = async (db: Awaited<ReturnType<typeof openGraph>>['db']): Promise<string[]> =>
    (await db.edges({ kind: 'calls' })).map((e) => `${e.filePath.split('/').pop()}:${e.line} ${e.toName} ${e.reason ?? e.resolution}`);

  it('leaves them dynamic, not not-found', async () => {
    const graph = await openGraph(files);
    try {
      expect(await causes(graph.db)).toEqual(['a.py:6 callback dynamic', 'a.py:7 missing not-found', 'a.py:11 callback dynamic', 'b.ts:5 add dynamic', 'b.ts:6 missing not-found', 'b.ts:9 add dynamic']);
    } finally {
      graph.close();
    }
  });

  it('keeps them exact when the store goes and comes back', async () => {
    const seen = await expectExactThrough(
      files,
      'memfs',
      [
        (f) => void (f['a.py'] = f['a.py']!.replace('        self.callback = callback\n', '        pass\n')),
        (f) => void (f['a.py'] = f['a.py']!.replace('        pass\n', '        self.callback = callback\n')),
      ],
      async (db) => (await causes(db)).filter((l) => l.startsWith('a.py:6')),
    );
    expect(seen).toEqual([['a.py:6 callback not-found'], ['a.py:6 callback dynamic']]);
  });
});
