// The PHP code graph stays exact through updates: after random edit sequences over two namespaces
// and the global one, whose class and function names collide on purpose, `update()` leaves exactly
// the graph a fresh build gives — every symbol, edge, resolution, dependency and binding — in
// every body mode. The edits move the edges PHP's rules make: a class or function added to or
// removed from a namespace (its files share one module), a `use` of a class, alias or function
// changed, a base or trait changed, a function that appears in the global namespace (the fallback
// of unqualified calls), fully qualified names, a file moved or deleted.
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, type BodyMode, type FileSystem } from '../src/index.js';
import { graphLines } from './helpers/graph-dump.js';

let SQL: Awaited<ReturnType<typeof initSqlJs>>;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const ROOT = '/repo';
const FILES = ['p/A.php', 'p/B.php', 'q/C.php', 'q/D.php', 'g.php'];
const CLS = ['A', 'B', 'C'];
const FN = ['f', 'g'];
const NS = ['N\\P', 'N\\Q', ''];

const call = fc.oneof(
  fc.record({ t: fc.constant('plain' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('this' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('self' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('parent' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('new' as const), c: fc.constantFrom(...CLS) }),
  fc.record({ t: fc.constant('static' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('typed' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('full' as const), ns: fc.constantFrom(...NS, 'Ext'), n: fc.constantFrom(...FN, ...CLS) }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const phpFile = fc.record({
  ns: fc.constantFrom(...NS),
  uses: fc.array(
    fc.oneof(
      fc.record({ t: fc.constant('class' as const), ns: fc.constantFrom(...NS, 'Ext'), c: fc.constantFrom(...CLS), alias: fc.option(fc.constantFrom(...CLS), { nil: undefined }) }),
      fc.record({ t: fc.constant('function' as const), ns: fc.constantFrom(...NS, 'Ext'), n: fc.constantFrom(...FN) }),
    ),
    { maxLength: 2 },
  ),
  functions: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(call, { maxLength: 2 }) }), { maxLength: 1 }),
  classes: fc.array(
    fc.record({
      kind: fc.constantFrom('class', 'trait'),
      n: fc.constantFrom(...CLS),
      base: fc.option(fc.constantFrom(...CLS, '\\Ext\\X'), { nil: undefined }),
      trait: fc.option(fc.constantFrom(...CLS), { nil: undefined }),
      methods: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(call, { maxLength: 3 }) }), { maxLength: 2 }),
    }),
    { maxLength: 2 },
  ),
});
type PhpFile = typeof phpFile extends fc.Arbitrary<infer T> ? T : never;

function callLine(c: Call, inClass: boolean): string {
  switch (c.t) {
    case 'plain':
      return `${c.n}();`;
    case 'this':
      return inClass ? `$this->${c.n}();` : `${c.n}();`;
    case 'self':
      return inClass ? `self::${c.n}();` : `${c.n}();`;
    case 'parent':
      return inClass ? `parent::${c.n}();` : `${c.n}();`;
    case 'new':
      return `new ${c.c}();`;
    case 'static':
      return `${c.c}::${c.n}();`;
    case 'typed':
      return `(function (${c.c} $v) { $v->${c.n}(); })(null);`;
    case 'full': {
      const prefix = c.ns === '' ? '\\' : `\\${c.ns}\\`;
      return CLS.includes(c.n) ? `new ${prefix}${c.n}();` : `${prefix}${c.n}();`;
    }
  }
}

function render(file: PhpFile): string {
  const lines = ['<?php'];
  if (file.ns !== '') lines.push(`namespace ${file.ns};`);
  for (const u of file.uses) {
    const prefix = u.ns === '' ? '' : `${u.ns}\\`;
    if (u.t === 'class') lines.push(`use ${prefix}${u.c}${u.alias ? ` as ${u.alias}` : ''};`);
    else lines.push(`use function ${prefix}${u.n};`);
  }
  for (const f of file.functions) lines.push(`function ${f.n}() {`, ...f.calls.map((c) => `  ${callLine(c, false)}`), '}');
  for (const c of file.classes) {
    const extendsClause = c.kind === 'class' && c.base ? ` extends ${c.base}` : '';
    lines.push(`${c.kind} ${c.n}${extendsClause} {`);
    if (c.trait) lines.push(`  use ${c.trait};`);
    for (const m of c.methods) lines.push(`  public function ${m.n}() {`, ...m.calls.map((x) => `    ${callLine(x, true)}`), '  }');
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}

type Step =
  | { readonly type: 'write'; readonly file: number; readonly content: string }
  | { readonly type: 'delete'; readonly file: number }
  | { readonly type: 'move'; readonly from: number; readonly to: number };

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

async function checkSequence(initial: readonly string[], steps: readonly Step[], bodies: BodyMode): Promise<void> {
  const files = new Map<string, string>(initial.map((content, i) => [FILES[i]!, content]));
  const vol = volumeOf(files);
  const open = (fs: Volume): Promise<CKGDatabase> => CKGDatabase.open({ codebasePath: ROOT, fs: fs as unknown as FileSystem, languages: ['php'], bodies });
  const db = await open(vol);
  try {
    for (const step of steps) {
      if (step.type === 'write') {
        const path = FILES[step.file]!;
        vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
        vol.writeFileSync(`${ROOT}/${path}`, step.content);
        files.set(path, step.content);
      } else if (step.type === 'delete') {
        const path = FILES[step.file]!;
        if (!files.has(path)) continue;
        vol.rmSync(`${ROOT}/${path}`);
        files.delete(path);
      } else {
        const from = FILES[step.from]!;
        const to = FILES[step.to]!;
        const content = files.get(from);
        if (content === undefined || from === to) continue;
        vol.mkdirSync(`${ROOT}/${to}`.replace(/\/[^/]+$/, ''), { recursive: true });
        vol.renameSync(`${ROOT}/${from}`, `${ROOT}/${to}`);
        files.delete(from);
        files.set(to, content);
      }
      await db.update();
      const fresh = await open(volumeOf(files));
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

describe('the PHP code graph after updates equals a fresh build', () => {
  it('random namespaces, uses, bases, traits and calls over colliding names', async () => {
    const content = phpFile.map(render);
    const step = fc.oneof(
      { weight: 5, arbitrary: fc.record({ type: fc.constant('write' as const), file: fc.nat(FILES.length - 1), content }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), file: fc.nat(FILES.length - 1) }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), from: fc.nat(FILES.length - 1), to: fc.nat(FILES.length - 1) }) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<BodyMode>('stored', 'compressed', 'lazy'),
        fc.array(content, { minLength: FILES.length, maxLength: FILES.length }),
        fc.array(step, { minLength: 1, maxLength: 4 }),
        async (bodies, initial, steps) => {
          await checkSequence(initial, steps, bodies);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a function added to the global namespace becomes the target of unqualified calls in a namespace', async () => {
    await checkSequence(
      ['<?php\nnamespace N\\P;\nfunction g() { f(); }\n', '<?php\n', '<?php\n', '<?php\n', '<?php\nfunction h() {}\n'],
      [
        { type: 'write', file: 4, content: '<?php\nfunction f() {}\n' },
        { type: 'write', file: 1, content: '<?php\nnamespace N\\P;\nfunction f() {}\n' },
        { type: 'delete', file: 1 },
        { type: 'write', file: 4, content: '<?php\nfunction h() {}\n' },
      ],
      'stored',
    );
  });
});
