// The Java code graph stays exact through updates: after random edit sequences over two packages
// whose class and method names collide on purpose, `update()` leaves exactly the graph a fresh build
// gives — every symbol, edge, resolution, dependency and binding. The edits move the edges the
// package rules make: a class added to or removed from a package (same-package names), a
// single-type, on-demand or static import changed, a base or an implemented interface changed, an
// overload added (arity, parameter types, varargs), a method made private, a class moved between
// packages, a file deleted or created.
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, type FileSystem } from '../src/index.js';
import { graphLines } from './helpers/graph-dump.js';

let SQL: Awaited<ReturnType<typeof initSqlJs>>;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const ROOT = '/repo';
const FILES = ['p/A.java', 'p/B.java', 'q/C.java', 'q/D.java'];
const CLS = ['A', 'B', 'C'];
const FN = ['f', 'g'];

const call = fc.oneof(
  fc.record({ t: fc.constant('plain' as const), n: fc.constantFrom(...FN), args: fc.nat(1) }),
  fc.record({ t: fc.constant('this' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('super' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('new' as const), c: fc.constantFrom(...CLS) }),
  fc.record({ t: fc.constant('static' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('typed' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN), args: fc.nat(1) }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const javaFile = fc.record({
  pkg: fc.constantFrom('p', 'q'),
  imports: fc.array(
    fc.oneof(
      fc.record({ t: fc.constant('single' as const), pkg: fc.constantFrom('p', 'q', 'ext'), c: fc.constantFrom(...CLS) }),
      fc.record({ t: fc.constant('star' as const), pkg: fc.constantFrom('p', 'q', 'ext') }),
      fc.record({ t: fc.constant('static' as const), pkg: fc.constantFrom('p', 'q'), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
    ),
    { maxLength: 2 },
  ),
  classes: fc.array(
    fc.record({
      n: fc.constantFrom(...CLS),
      base: fc.option(fc.constantFrom(...CLS, 'ext.X'), { nil: undefined }),
      implemented: fc.option(fc.constantFrom(...CLS, 'ext.Y'), { nil: undefined }),
      methods: fc.array(
        fc.record({
          n: fc.constantFrom(...FN),
          params: fc.constantFrom('', 'int x', 'String x', 'int... x'),
          isStatic: fc.boolean(),
          isPrivate: fc.boolean(),
          calls: fc.array(call, { maxLength: 3 }),
        }),
        { maxLength: 2 },
      ),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});
type JavaFile = typeof javaFile extends fc.Arbitrary<infer T> ? T : never;

function callLine(c: Call): string {
  const args = (n: number): string => (n === 0 ? '' : '1');
  switch (c.t) {
    case 'plain':
      return `${c.n}(${args(c.args)});`;
    case 'this':
      return `this.${c.n}();`;
    case 'super':
      return `super.${c.n}();`;
    case 'new':
      return `new ${c.c}();`;
    case 'static':
      return `${c.c}.${c.n}();`;
    case 'typed':
      return `${c.c} v = new ${c.c}(); v.${c.n}(${args(c.args)});`;
  }
}

function render(file: JavaFile): string {
  const lines = [`package ${file.pkg};`];
  for (const i of file.imports) {
    if (i.t === 'single') lines.push(`import ${i.pkg}.${i.c};`);
    else if (i.t === 'star') lines.push(`import ${i.pkg}.*;`);
    else lines.push(`import static ${i.pkg}.${i.c}.${i.n};`);
  }
  for (const c of file.classes) {
    lines.push(`class ${c.n}${c.base ? ` extends ${c.base}` : ''}${c.implemented ? ` implements ${c.implemented}` : ''} {`);
    for (const m of c.methods) {
      // A static method's `this`/`super` calls would not compile: they become plain calls.
      const body = m.calls.map((x) => (m.isStatic && (x.t === 'this' || x.t === 'super') ? `${x.n}();` : callLine(x)));
      lines.push(`  ${m.isPrivate ? 'private ' : ''}${m.isStatic ? 'static ' : ''}void ${m.n}(${m.params}) {`, ...body.map((b) => `    ${b}`), '  }');
    }
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}

type Step = { readonly type: 'write'; readonly file: number; readonly content: string } | { readonly type: 'delete'; readonly file: number };

function volumeOf(files: ReadonlyMap<string, string>): Volume {
  const vol = new Volume();
  vol.mkdirSync(ROOT, { recursive: true });
  for (const [path, content] of files) {
    vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
    vol.writeFileSync(`${ROOT}/${path}`, content);
  }
  return vol;
}

async function graphOf(db: CKGDatabase): Promise<{ lines: string[]; edges: string[] }> {
  const raw = new SQL.Database(db.export());
  try {
    return { lines: graphLines(raw), edges: (await db.edges()).map((e) => JSON.stringify(e)) };
  } finally {
    raw.close();
  }
}

async function checkSequence(initial: readonly string[], steps: readonly Step[]): Promise<void> {
  const files = new Map<string, string>(initial.map((content, i) => [FILES[i]!, content]));
  const vol = volumeOf(files);
  const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['java'] });
  try {
    for (const step of steps) {
      const path = FILES[step.file]!;
      if (step.type === 'write') {
        vol.writeFileSync(`${ROOT}/${path}`, step.content);
        files.set(path, step.content);
      } else {
        if (!files.has(path)) continue;
        vol.rmSync(`${ROOT}/${path}`);
        files.delete(path);
      }
      await db.update();
      const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: volumeOf(files) as unknown as FileSystem, languages: ['java'] });
      try {
        const [got, want] = [await graphOf(db), await graphOf(fresh)];
        expect(got.lines, JSON.stringify({ step, files: Object.fromEntries(files) }, null, 1)).toEqual(want.lines);
        expect(got.edges).toEqual(want.edges);
      } finally {
        fresh.close();
      }
    }
  } finally {
    db.close();
  }
}

describe('the Java code graph after updates equals a fresh build', () => {
  it('random packages, imports, bases, overloads and calls over colliding names', async () => {
    const content = javaFile.map(render);
    const step = fc.oneof(
      { weight: 5, arbitrary: fc.record({ type: fc.constant('write' as const), file: fc.nat(FILES.length - 1), content }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), file: fc.nat(FILES.length - 1) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(content, { minLength: FILES.length, maxLength: FILES.length }), fc.array(step, { minLength: 1, maxLength: 4 }), async (initial, steps) => {
        await checkSequence(initial, steps);
      }),
      { numRuns: 25 },
    );
  });
});
