// The code graph stays exact through updates: after random edit sequences over small Python and
// TypeScript codebases whose names collide on purpose (three function names, three class names,
// a few modules importing each other), `update()` leaves exactly the graph a fresh build of the
// same files gives — every symbol, every edge with its target, resolution and dependencies, every
// binding — in every body mode. The edits are the ones that move edges: a function added to or
// removed from an imported module, a class renamed, a base changed, a function moved between
// files, an import aliased or dropped, a module deleted or created, a same-name definition added
// elsewhere.
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, type BodyMode, type FileSystem } from '../src/index.js';
import { compareEdges } from '../src/query/edges.js';
import { checkEditSequence, type Step } from './helpers/edit-sequence.js';
import { graphLines } from './helpers/graph-dump.js';

type SqlJs = Awaited<ReturnType<typeof initSqlJs>>;
let SQL: SqlJs;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const ROOT = '/repo';
const FN = ['f', 'g', 'h'];
const CLS = ['A', 'B', 'C'];

// --- Python ---------------------------------------------------------------------------------

const PY_FILES = ['a.py', 'b.py', 'pkg/__init__.py', 'pkg/c.py', 'pkg/d.py'];
/** Module names as Python spells them in absolute imports, for each file. */
const PY_MODULES = ['a', 'b', 'pkg', 'pkg.c', 'pkg.d'];

const pyImport = fc.oneof(
  fc.record({ t: fc.constant('from' as const), m: fc.nat(PY_MODULES.length - 1), n: fc.constantFrom(...FN, ...CLS), alias: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }) }),
  fc.record({ t: fc.constant('module' as const), m: fc.nat(PY_MODULES.length - 1), alias: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('star' as const), m: fc.nat(PY_MODULES.length - 1) }),
  fc.record({ t: fc.constant('relative' as const), m: fc.constantFrom('c', 'd'), n: fc.constantFrom(...FN, ...CLS) }),
);
type PyImport = typeof pyImport extends fc.Arbitrary<infer T> ? T : never;

const pyCall = fc.oneof(
  fc.record({ t: fc.constant('plain' as const), n: fc.constantFrom(...FN, ...CLS, 'x', 'y') }),
  fc.record({ t: fc.constant('qualified' as const), q: fc.constantFrom('m', 'n', ...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('self' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('super' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('typed' as const), c: fc.constantFrom(...CLS, 'x'), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('value' as const), n: fc.constantFrom(...FN) }),
);
type PyCall = typeof pyCall extends fc.Arbitrary<infer T> ? T : never;

const pyDef = fc.oneof(
  fc.record({ t: fc.constant('def' as const), n: fc.constantFrom(...FN), calls: fc.array(pyCall, { maxLength: 3 }) }),
  fc.record({
    t: fc.constant('class' as const),
    n: fc.constantFrom(...CLS),
    // Computed bases too (`f()`, `A, f()`): bases of unknown members in their place of the order.
    base: fc.option(fc.constantFrom(...CLS, 'x', 'm.A', 'f()', 'A, f()', 'f(), B'), { nil: undefined }),
    // `self.f = …` in a method: an instance attribute that hides a method f of the class's order.
    methods: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(pyCall, { maxLength: 3 }), stores: fc.array(fc.constantFrom(...FN), { maxLength: 1 }) }), { maxLength: 2 }),
    // Imports and calls in the class body itself: the body's imports are its own, not its methods'.
    bodyImports: fc.array(pyImport.filter((i) => i.t !== 'star'), { maxLength: 1 }),
    bodyCalls: fc.array(pyCall, { maxLength: 2 }),
  }),
);
type PyDef = typeof pyDef extends fc.Arbitrary<infer T> ? T : never;

const pyFile = fc.record({ imports: fc.array(pyImport, { maxLength: 3 }), defs: fc.array(pyDef, { maxLength: 3 }) });
type PyFile = typeof pyFile extends fc.Arbitrary<infer T> ? T : never;

function pyCallLine(c: PyCall, inMethod: boolean): string {
  switch (c.t) {
    case 'plain':
      return `${c.n}()`;
    case 'qualified':
      return `${c.q}.${c.n}()`;
    case 'self':
      return inMethod ? `self.${c.n}()` : `${c.n}()`;
    case 'super':
      return inMethod ? `super().${c.n}()` : `${c.n}()`;
    case 'typed':
      return `v = ${c.c}()\n        v.${c.n}()`;
    case 'value':
      return `sorted([], key=${c.n})`;
  }
}

function pyImportLine(i: PyImport): string {
  if (i.t === 'from') return `from ${PY_MODULES[i.m]} import ${i.n}${i.alias ? ` as ${i.alias}` : ''}`;
  if (i.t === 'module') return `import ${PY_MODULES[i.m]} as ${i.alias}`;
  if (i.t === 'star') return `from ${PY_MODULES[i.m]} import *`;
  return `from .${i.m} import ${i.n}`;
}

function renderPy(file: PyFile): string {
  const lines: string[] = [];
  for (const i of file.imports) lines.push(pyImportLine(i));
  for (const d of file.defs) {
    if (d.t === 'def') {
      lines.push(`def ${d.n}():`, ...d.calls.map((c) => `    ${pyCallLine(c, false).replaceAll('\n        ', '\n    ')}`), '    return 1');
    } else {
      lines.push(`class ${d.n}${d.base ? `(${d.base})` : ''}:`, ...d.bodyImports.map((i) => `    ${pyImportLine(i)}`), '    k = 1');
      lines.push(...d.bodyCalls.map((c) => `    ${pyCallLine(c, false).replaceAll('\n        ', '\n    ')}`));
      for (const m of d.methods) lines.push(`    def ${m.n}(self):`, ...m.stores.map((n) => `        self.${n} = None`), ...m.calls.map((c) => `        ${pyCallLine(c, true)}`), '        return 2');
    }
  }
  return `${lines.join('\n')}\n`;
}

// --- TypeScript -----------------------------------------------------------------------------

const TS_FILES = ['src/a.ts', 'src/b.ts', 'src/lib/index.ts', 'src/lib/c.ts', 'src/legacy.js'];
const TS_SPECIFIERS: Record<string, string[]> = {
  'src/a.ts': ['./b', './lib', './lib/c', './legacy'],
  'src/b.ts': ['./a', './lib', './lib/c.js', './legacy'],
  'src/lib/index.ts': ['../a', '../b', './c', '../legacy'],
  'src/lib/c.ts': ['../a', '../b', '.', '../legacy'],
  'src/legacy.js': ['./a', './b', './lib', './lib/c'],
};

const tsImport = fc.oneof(
  fc.record({ t: fc.constant('named' as const), s: fc.nat(3), n: fc.constantFrom(...FN, ...CLS), alias: fc.option(fc.constantFrom('x', 'y'), { nil: undefined }) }),
  fc.record({ t: fc.constant('default' as const), s: fc.nat(3), alias: fc.constantFrom('D', 'A') }),
  fc.record({ t: fc.constant('namespace' as const), s: fc.nat(3), alias: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('reexport' as const), s: fc.nat(3), n: fc.constantFrom(...FN, ...CLS) }),
  fc.record({ t: fc.constant('star' as const), s: fc.nat(3) }),
  fc.record({ t: fc.constant('require' as const), s: fc.nat(3), alias: fc.constantFrom('m', 'n') }),
);
type TsImport = typeof tsImport extends fc.Arbitrary<infer T> ? T : never;

const tsDef = fc.oneof(
  fc.record({ t: fc.constant('function' as const), n: fc.constantFrom(...FN), exported: fc.boolean(), isDefault: fc.boolean(), calls: fc.array(pyCall, { maxLength: 3 }) }),
  fc.record({
    t: fc.constant('class' as const),
    n: fc.constantFrom(...CLS),
    exported: fc.boolean(),
    base: fc.option(fc.constantFrom(...CLS, 'x', 'f()'), { nil: undefined }),
    // `this.f = …` (or the method bound again, `this.f = this.f.bind(this)`): a stored attribute hides a method f.
    methods: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(pyCall, { maxLength: 3 }), stores: fc.array(fc.record({ n: fc.constantFrom(...FN), bound: fc.boolean() }), { maxLength: 1 }) }), { maxLength: 2 }),
  }),
);
type TsDef = typeof tsDef extends fc.Arbitrary<infer T> ? T : never;
const tsFile = fc.record({ imports: fc.array(tsImport, { maxLength: 3 }), defs: fc.array(tsDef, { maxLength: 3 }) });
type TsFile = typeof tsFile extends fc.Arbitrary<infer T> ? T : never;

function tsCallLine(c: PyCall, inMethod: boolean): string {
  switch (c.t) {
    case 'plain':
      return `${c.n}();`;
    case 'qualified':
      return `${c.q}.${c.n}();`;
    case 'self':
      return inMethod ? `this.${c.n}();` : `${c.n}();`;
    case 'super':
      return inMethod ? `super.${c.n}();` : `${c.n}();`;
    case 'typed':
      return `const v = new ${c.c}(); v.${c.n}();`;
    case 'value':
      return `[].sort(${c.n});`;
  }
}

function renderTs(path: string, file: TsFile): string {
  const js = path.endsWith('.js');
  const lines: string[] = [];
  const spec = (s: number): string => TS_SPECIFIERS[path]![s]!;
  for (const i of file.imports) {
    if (i.t === 'named') lines.push(`import { ${i.n}${i.alias ? ` as ${i.alias}` : ''} } from '${spec(i.s)}';`);
    else if (i.t === 'default') lines.push(`import ${i.alias} from '${spec(i.s)}';`);
    else if (i.t === 'namespace') lines.push(`import * as ${i.alias} from '${spec(i.s)}';`);
    else if (i.t === 'reexport') lines.push(`export { ${i.n} } from '${spec(i.s)}';`);
    else if (i.t === 'star') lines.push(`export * from '${spec(i.s)}';`);
    else lines.push(`const ${i.alias} = require('${spec(i.s)}');`);
  }
  let defaulted = false;
  for (const d of file.defs) {
    let prefix = d.exported ? 'export ' : '';
    if (d.t === 'function' && d.exported && d.isDefault && !defaulted) {
      prefix = 'export default ';
      defaulted = true;
    }
    if (d.t === 'function') {
      lines.push(`${prefix}function ${d.n}()${js ? '' : ': number'} {`, ...d.calls.map((c) => `  ${tsCallLine(c, false)}`), '  return 1;', '}');
    } else {
      lines.push(`${prefix}class ${d.n}${d.base ? ` extends ${d.base}` : ''} {`);
      for (const m of d.methods) {
        const stores = m.stores.map((st) => `    this.${st.n} = ${st.bound ? `this.${st.n}.bind(this)` : 'null'};`);
        lines.push(`  ${m.n}()${js ? '' : ': number'} {`, ...stores, ...m.calls.map((c) => `    ${tsCallLine(c, true)}`), '    return 2;', '  }');
      }
      lines.push('}');
    }
  }
  return `${lines.join('\n')}\n`;
}

// --- The property ---------------------------------------------------------------------------

function stepsArb(contentOf: (file: number) => fc.Arbitrary<string>, files: number): fc.Arbitrary<Step[]> {
  const write = fc.nat(files - 1).chain((file) => contentOf(file).map((content) => ({ type: 'write' as const, file, content })));
  const step = fc.oneof(
    { weight: 5, arbitrary: write },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), file: fc.nat(files - 1) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), from: fc.nat(files - 1), to: fc.nat(files - 1) }) },
  );
  return fc.array(step, { minLength: 1, maxLength: 5 });
}

/** The graph of an index as id-free lines, plus its public edges (sorted as `edges()` sorts them) and the counts it keeps. */
async function snapshot(db: CKGDatabase): Promise<{ lines: string[]; edges: string[]; stats: string }> {
  const raw = new SQL.Database(db.export());
  try {
    const edges = await db.edges();
    const sorted = [...edges].sort(compareEdges);
    expect(edges).toEqual(sorted);
    return { lines: graphLines(raw), edges: edges.map((e) => JSON.stringify(e)), stats: JSON.stringify(db.stats()) };
  } finally {
    raw.close();
  }
}

function volumeOf(files: ReadonlyMap<string, string>): FileSystem {
  const vol = new Volume();
  vol.mkdirSync(ROOT, { recursive: true });
  for (const [path, content] of files) {
    vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
    vol.writeFileSync(`${ROOT}/${path}`, content);
  }
  return vol as unknown as FileSystem;
}

const bodiesArb = fc.constantFrom<BodyMode>('stored', 'compressed', 'lazy');

describe('the code graph after updates equals a fresh build', () => {
  it('Python: random imports, definitions, bases and calls over colliding names', async () => {
    const content = (): fc.Arbitrary<string> => pyFile.map(renderPy);
    await fc.assert(
      fc.asyncProperty(bodiesArb, fc.array(content(), { minLength: PY_FILES.length, maxLength: PY_FILES.length }), stepsArb(content, PY_FILES.length), async (bodies, initial, steps) => {
        await checkEditSequence(undefined, PY_FILES, initial, steps, bodies, { checkOrder: true });
      }),
      { numRuns: 30 },
    );
  });

  it('TypeScript/JavaScript: random named/default/namespace imports, re-exports, require, classes and calls', async () => {
    const content = (file: number): fc.Arbitrary<string> => tsFile.map((f) => renderTs(TS_FILES[file]!, f));
    await fc.assert(
      fc.asyncProperty(
        bodiesArb,
        fc.tuple(...TS_FILES.map((_, i) => content(i))),
        stepsArb(content, TS_FILES.length),
        async (bodies, initial, steps) => {
          await checkEditSequence(undefined, TS_FILES, initial, steps, bodies, { checkOrder: true });
        },
      ),
      { numRuns: 30 },
    );
  });
});

/** Edits that move edges, each checked against a fresh build (and each seen to fail when the rule that keeps it exact is removed). */
const SCENARIOS: readonly { readonly name: string; readonly before: Record<string, string>; readonly after: Record<string, string | null> }[] = [
  {
    name: 'a base class changes in another file: inherited self-calls of a subclass two files away follow',
    before: {
      'z.py': 'class A:\n    def f(self):\n        pass\n\nclass C:\n    def f(self):\n        pass\n',
      'y.py': 'from z import A, C\n\nclass B(A):\n    pass\n',
      'x.py': 'from y import B\n\nclass D(B):\n    def g(self):\n        self.f()\n',
    },
    after: { 'y.py': 'from z import A, C\n\nclass B(C):\n    pass\n' },
  },
  {
    // The second method's `self.f()` gets the first one's answer, kept for the pass with the
    // names it depended on: without those, the second site would keep pointing at A.f.
    name: 'a base class changes in another file: every method of a subclass asking the same inherited name follows',
    before: {
      'z.py': 'class A:\n    def f(self):\n        pass\n\nclass C:\n    def f(self):\n        pass\n',
      'y.py': 'from z import A, C\n\nclass B(A):\n    pass\n',
      'x.py': 'from y import B\n\nclass D(B):\n    def g(self):\n        self.f()\n\n    def h(self):\n        self.f()\n\n    def k(self):\n        super().f()\n\n    def m(self):\n        super().f()\n',
    },
    after: { 'y.py': 'from z import A, C\n\nclass B(C):\n    pass\n' },
  },
  {
    // C#'s base list does not tell an interface from a class: `base` follows what the first
    // entry is declared as, in another file.
    name: 'a C# interface named first in a base list becomes a class: `base.M()` and `: base()` follow',
    before: {
      'a/Named.cs': 'namespace A;\n\npublic interface Named\n{\n    string ToString();\n}\n',
      'a/Tag.cs': 'namespace A;\n\npublic class Tag : Named\n{\n    public Tag() : base() { }\n\n    public override string ToString() { return base.ToString(); }\n}\n',
    },
    after: { 'a/Named.cs': 'namespace A;\n\npublic class Named\n{\n    public Named() { }\n\n    public override string ToString() { return "n"; }\n}\n' },
  },
  {
    // Kotlin writes a superclass without a call when the class has no primary constructor: the
    // declaration in another file tells it from an interface, and its kind and `super(…)` follow.
    name: 'a Kotlin supertype written without a call becomes an interface: the edge\'s kind and `super(…)` follow',
    before: {
      'p/Base.kt': 'package p\n\nopen class Base(val n: String)\n',
      'p/Sub.kt': 'package p\n\nclass Sub : Base {\n    constructor(n: String) : super(n)\n}\n',
    },
    after: { 'p/Base.kt': 'package p\n\ninterface Base\n' },
  },
  {
    // `super()` read no name while its class had no superclass in the codebase.
    name: 'a Java superclass outside the codebase is added: `super()` follows',
    before: {
      'p/B.java': 'package p;\n\npublic class B extends A {\n    public B() { super(); }\n}\n',
    },
    after: { 'p/A.java': 'package p;\n\npublic class A {\n    public A() { }\n}\n' },
  },
  {
    // The method is in another file than its struct: the field's type is read in the struct's file.
    name: 'Go: a struct field\'s type changes in another file: `s.db.Query()` in a method elsewhere follows',
    before: {
      'm/store.go': 'package m\n\ntype Store struct{}\n\nfunc (s *Store) Query() {}\n\ntype Cache struct{}\n\nfunc (c *Cache) Query() {}\n',
      'm/server.go': 'package m\n\ntype Server struct {\n\tdb *Store\n}\n',
      'm/handlers.go': 'package m\n\nfunc (s *Server) handle() {\n\ts.db.Query()\n}\n',
    },
    after: { 'm/server.go': 'package m\n\ntype Server struct {\n\tdb *Cache\n}\n' },
  },
  {
    name: 'Go: a method\'s declared result changes in another file: `x := s.Get(); x.Query()` follows',
    before: {
      'm/store.go': 'package m\n\ntype Store struct{}\n\nfunc (s *Store) Query() {}\n\ntype Cache struct{}\n\nfunc (c *Cache) Query() {}\n',
      'm/server.go': 'package m\n\ntype Server struct{}\n\nfunc (s *Server) Get() *Store { return nil }\n',
      'm/handlers.go': 'package m\n\nfunc handle(s *Server) {\n\tx := s.Get()\n\tx.Query()\n}\n',
    },
    after: { 'm/server.go': 'package m\n\ntype Server struct{}\n\nfunc (s *Server) Get() *Cache { return nil }\n' },
  },
  {
    name: 'an imported function is removed, then added back under an alias chain',
    before: {
      'lib.py': 'def helper():\n    pass\n',
      'pkg/__init__.py': 'from lib import helper as h\n',
      'app.py': 'from pkg import h\n\ndef run():\n    h()\n',
    },
    after: { 'lib.py': 'def other():\n    pass\n' },
  },
  {
    name: 'a class is renamed: constructor calls and typed receivers elsewhere come loose',
    before: {
      'models.py': 'class Product:\n    def __init__(self):\n        pass\n    def save(self):\n        pass\n',
      'app.py': 'from models import Product\n\ndef run(p: Product):\n    Product()\n    p.save()\n',
    },
    after: { 'models.py': 'class Item:\n    def __init__(self):\n        pass\n    def save(self):\n        pass\n' },
  },
  {
    name: 'a function moves to another file; its importer follows the new import',
    before: {
      'a.py': 'def f():\n    pass\n',
      'b.py': '',
      'app.py': 'from a import f\n\ndef run():\n    f()\n',
    },
    after: { 'a.py': '', 'b.py': 'def f():\n    pass\n', 'app.py': 'from b import f\n\ndef run():\n    f()\n' },
  },
  {
    name: 'an imported module is deleted, then a same-name function is added elsewhere: still unresolved',
    before: {
      'strings.py': 'def title_case(s):\n    return s\n',
      'app.py': 'from strings import title_case\n\ndef run():\n    title_case("x")\n',
    },
    after: { 'strings.py': null, 'util.py': 'def title_case(s):\n    return s\n' },
  },
  {
    name: 'TypeScript: a re-exporting index changes what it re-exports',
    before: {
      'src/a.ts': 'export function f(): number { return 1; }\nexport function g(): number { return 2; }\n',
      'src/index.ts': "export { f } from './a';\n",
      'src/main.ts': "import { f } from './index';\nexport function run(): void { f(); }\n",
    },
    after: { 'src/index.ts': "export { g as f } from './a';\n" },
  },
  {
    name: 'TypeScript: a default export changes from a class to a function',
    before: {
      'src/reg.ts': 'export function helper(): void {}\nexport default class Registry { add(): void {} }\n',
      'src/main.ts': "import Registry from './reg';\nexport function run(): void { new Registry().add(); }\n",
    },
    after: { 'src/reg.ts': 'export default function helper(): void {}\nexport class Registry { add(): void {} }\n' },
  },
];

describe('the code graph after targeted edits equals a fresh build', () => {
  it.each(SCENARIOS)('$name', async ({ before, after }) => {
    const files = new Map(Object.entries(before));
    const vol = volumeOf(files) as unknown as Volume;
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem });
    try {
      const initial = await snapshot(db);
      for (const [path, content] of Object.entries(after)) {
        if (content === null) {
          vol.rmSync(`${ROOT}/${path}`);
          files.delete(path);
        } else {
          vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
          vol.writeFileSync(`${ROOT}/${path}`, content);
          files.set(path, content);
        }
      }
      await db.update();
      const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: volumeOf(files) });
      try {
        const [got, want] = [await snapshot(db), await snapshot(fresh)];
        expect(got.lines).toEqual(want.lines);
        expect(got.edges).toEqual(want.edges);
        expect(got.stats).toEqual(want.stats);
        // The edit changed the graph: the scenario tests something.
        expect(want.edges).not.toEqual(initial.edges);
      } finally {
        fresh.close();
      }
    } finally {
      db.close();
    }
  });
});
