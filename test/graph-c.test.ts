// The C code graph on test/fixtures/graph/c (a small kernel-shaped tree): every edge, exactly.
// Rules shown: a call through a header's prototype to the one non-static definition in a .c
// file (`util_add`, resolution `global`), never the prototype; a `static inline` function of an
// included header (`clamp`, `include`); `static` functions of the same name in two files, each
// file calling its own and a third file seeing neither (`helper`); a function defined once per
// architecture (`twice`: ambiguous); a prototype without definition (`never_defined`); calls
// through a pointer (`(*fp)()`), a structure field (`my_ops.open()`) and of a parameter (`cb()`);
// recursion (`fact`); macros (`MAX`, `EXPORT_SYMBOL`); a struct tag that is no function
// (`struct stat` beside the function `stat`); `#if` conditions, which call nothing; library
// functions behind a system header (`printf`: builtin) and undeclared ones (`mystery`). Include
// search: `"util.h"` next to the including file, `<ops.h>` by the end of its path, `"../"`
// paths, an architecture's own `<asm/io.h>` for its files and both for a driver (ambiguous:
// `read_reg` too), `tools/`' own copy of `<util.h>` for the files under `tools/`, and a
// one-part `<stdio.h>` that means the C library's, not the header of the same name deeper below
// an include folder (`tools/include/nolibc/stdio.h`: its `perror` is no selftest's callee).
// Functions used as values (references) and the static/exported/entry flags are read from the
// database. Then: random edits of a small C tree keep the graph equal to a fresh build's.
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, type FileSystem } from '../src/index.js';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';
import { graphLines } from './helpers/graph-dump.js';

type SqlJs = Awaited<ReturnType<typeof initSqlJs>>;
let SQL: SqlJs;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const EXPECTED = [
  'arch/arm/twice.c:1 imports arch/arm/twice.c -> include/util.h [util.h] import',
  'arch/arm/twice.c:5 calls twice -> log_msg [log_msg] global',
  'arch/x86/kernel/setup.c:1 imports arch/x86/kernel/setup.c -> arch/x86/include/asm/io.h [asm/io.h] import',
  'arch/x86/kernel/setup.c:5 calls setup -> read_reg [read_reg] include',
  'arch/x86/twice.c:1 imports arch/x86/twice.c -> include/util.h [util.h] import',
  'arch/x86/twice.c:5 calls twice -> log_msg [log_msg] global',
  'drivers/dev.c:1 imports drivers/dev.c -> ∅ [asm/io.h] unresolved:ambiguous',
  'drivers/dev.c:2 imports drivers/dev.c -> include/util.h [../include/util.h] import',
  'drivers/dev.c:6 calls probe -> ∅ [read_reg] unresolved:ambiguous',
  'drivers/dev.c:6 calls probe -> util_add [util_add] global',
  'include/ops.h:1 imports include/ops.h -> include/util.h [util.h] import',
  'include/util.h:15 calls clamp -> ∅ [MAX] unresolved:macro',
  'lib/noinc.c:3 calls lonely -> ∅ [helper] unresolved:not-found',
  'lib/noinc.c:3 calls lonely -> ∅ [util_add] unresolved:not-found',
  'lib/util.c:1 imports lib/util.c -> include/ops.h [ops.h] import',
  'lib/util.c:10 calls util_add -> helper [helper] local',
  'lib/util.c:12 calls lib/util.c -> ∅ [EXPORT_SYMBOL] unresolved:macro',
  'lib/util.c:27 calls register_ops -> ∅ [cb] unresolved:parameter',
  'src/main.c:1 imports src/main.c -> include/ops.h [ops.h] import',
  'src/main.c:2 imports src/main.c -> ∅ [stdio.h] unresolved:external',
  'src/main.c:15 calls fact -> fact [fact] local',
  'src/main.c:23 calls main -> clamp [clamp] include',
  'src/main.c:23 calls main -> helper [helper] local',
  'src/main.c:23 calls main -> util_add [util_add] global',
  'src/main.c:24 calls main -> ∅ [MAX] unresolved:macro',
  'src/main.c:25 calls main -> register_ops [register_ops] global',
  'src/main.c:26 calls main -> ∅ [open] unresolved:dynamic',
  'src/main.c:27 calls main -> ∅ [fp] unresolved:local-variable',
  'src/main.c:28 calls main -> log_msg [log_msg] global',
  'src/main.c:29 calls main -> ∅ [twice] unresolved:ambiguous',
  'src/main.c:30 calls main -> ∅ [never_defined] unresolved:not-found',
  'src/main.c:31 calls main -> stat [stat] global',
  'src/main.c:33 calls main -> ∅ [printf] unresolved:builtin',
  'src/main.c:35 calls main -> ∅ [mystery] unresolved:external',
  'tools/app.c:1 imports tools/app.c -> tools/include/util.h [util.h] import',
  'tools/app.c:5 calls main -> ∅ [clamp] unresolved:not-found',
  'tools/app.c:5 calls main -> tool_helper [tool_helper] global',
  'tools/testing/selftests/check.c:1 imports tools/testing/selftests/check.c -> ∅ [stdio.h] unresolved:external',
  'tools/testing/selftests/check.c:5 calls main -> ∅ [perror] unresolved:builtin',
];

// Functions used as values: `EXPORT_SYMBOL(util_add)`, `.open = helper`, `&helper`, `fact`
// passed to a function (`&my_ops`, a variable, and `cb`, a parameter, are no function uses).
const REFERENCES = [
  'lib/util.c:12 lib/util.c -> util_add [util_add] local',
  'src/main.c:18 src/main.c -> helper [helper] local',
  'src/main.c:22 main -> helper [helper] local',
  'src/main.c:25 main -> fact [fact] local',
];

const FLAGS = [
  'arch/arm/include/asm/io.h read_reg static',
  'arch/x86/include/asm/io.h read_reg static',
  'include/util.h clamp static',
  'lib/util.c helper static',
  'lib/util.c util_add exported',
  'src/main.c helper static',
  'src/main.c fact static',
  'src/main.c main entry',
  'tools/app.c main entry',
  'tools/include/nolibc/stdio.h perror static',
  'tools/testing/selftests/check.c main entry',
];

const FLAG_NAMES: Record<number, string> = { 1: 'exported', 2: 'decorated', 4: 'static', 8: 'entry', 16: 'test' };

/** References and flags, straight from the database (db.edges() answers the other kinds). */
function referencesAndFlags(bytes: Uint8Array, root: string): { references: string[]; flags: string[] } {
  const raw = new SQL.Database(bytes);
  try {
    const rel = (p: unknown): string => String(p).slice(root.length + 1);
    const references = (
      raw.exec(
        `SELECT f.path, e.line, s.qualified_name, t.qualified_name, n.name, r.name FROM edges e JOIN names n ON n.id = e.name_id JOIN symbols s ON s.id = e.from_id
         JOIN files f ON f.id = s.file_id LEFT JOIN symbols t ON t.id = e.to_id JOIN resolutions r ON r.code = e.resolution
         WHERE e.kind = 5 AND e.to_id IS NOT NULL ORDER BY f.path, e.line, e.id`,
      )[0]?.values ?? []
    ).map(([path, line, from, to, name, how]) => `${rel(path)}:${String(line)} ${String(from)} -> ${String(to)} [${String(name)}] ${String(how)}`);
    const flags = (raw.exec('SELECT f.path, s.qualified_name, s.flags FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.flags <> 0 ORDER BY f.path, s.start_line')[0]?.values ?? []).flatMap(
      ([path, name, bits]) => Object.entries(FLAG_NAMES).filter(([bit]) => (Number(bits) & Number(bit)) !== 0).map(([, flag]) => `${rel(path)} ${String(name)} ${flag}`),
    );
    return { references, flags };
  } finally {
    raw.close();
  }
}

describe.each(BACKENDS)('c code graph on %s', (backend) => {
  it('has exactly the expected edges, function uses and flags', async () => {
    const graph = await openGraph(graphFixture('c'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
      const { references, flags } = referencesAndFlags(graph.db.export(), graph.tree.root);
      expect(references).toEqual(REFERENCES);
      expect(flags).toEqual(FLAGS);
    } finally {
      graph.close();
    }
  });
});

describe('c code graph: what an include makes visible is kept exact by updates', () => {
  it('editing headers updates the files that include them, directly or not', async () => {
    const files = graphFixture('c');
    const graph = await openGraph(files);
    try {
      // The prototype goes: util_add is no longer declared where main.c looks.
      graph.tree.write('include/util.h', files['include/util.h']!.replace('int util_add(int a, int b);\n', ''));
      await graph.db.update();
      expect(await graph.lines({ toName: 'util_add' })).toEqual([
        'drivers/dev.c:6 calls probe -> ∅ [util_add] unresolved:not-found',
        'lib/noinc.c:3 calls lonely -> ∅ [util_add] unresolved:not-found',
        'src/main.c:23 calls main -> ∅ [util_add] unresolved:external', // stdio.h may declare it
      ]);
      // ops.h stops including util.h: main.c (which includes ops.h) no longer sees clamp.
      graph.tree.write('include/ops.h', files['include/ops.h']!.replace('#include "util.h"\n', ''));
      await graph.db.update();
      expect(await graph.lines({ toName: 'clamp' })).toEqual([
        'src/main.c:23 calls main -> ∅ [clamp] unresolved:external',
        'tools/app.c:5 calls main -> ∅ [clamp] unresolved:not-found',
      ]);
      // An architecture's header goes: the driver's <asm/io.h> means the other one alone.
      graph.tree.remove('arch/arm/include/asm/io.h');
      await graph.db.update();
      expect(await graph.lines({ toName: 'read_reg' })).toEqual([
        'arch/x86/kernel/setup.c:5 calls setup -> read_reg [read_reg] include',
        'drivers/dev.c:6 calls probe -> read_reg [read_reg] include',
      ]);
    } finally {
      graph.close();
    }
  });

  it('a definition that becomes static is no longer reached from other files, and back', async () => {
    const files = graphFixture('c');
    const graph = await openGraph(files);
    try {
      const before = await graph.lines({ toName: 'log_msg' });
      expect(before).toContain('src/main.c:28 calls main -> log_msg [log_msg] global');
      // The same definition, now file-local: its symbol stays, its flag changed.
      graph.tree.write('lib/util.c', files['lib/util.c']!.replace('void log_msg(const char *msg)', 'static void log_msg(const char *msg)'));
      await graph.db.update();
      expect(await graph.lines({ toName: 'log_msg' })).toEqual([
        'arch/arm/twice.c:5 calls twice -> ∅ [log_msg] unresolved:not-found',
        'arch/x86/twice.c:5 calls twice -> ∅ [log_msg] unresolved:not-found',
        'src/main.c:28 calls main -> ∅ [log_msg] unresolved:not-found',
      ]);
      graph.tree.write('lib/util.c', files['lib/util.c']!);
      await graph.db.update();
      expect(await graph.lines({ toName: 'log_msg' })).toEqual(before);
    } finally {
      graph.close();
    }
  });

  // Random edits of a small tree shaped like the fixture: headers that include one another
  // (by tail, next to the file, through `../`, one per architecture), prototypes, `static`
  // and `static inline` definitions, macros and calls of three names.
  const ROOT = '/repo';
  const PATHS = ['include/a.h', 'include/b.h', 'lib/x.c', 'lib/y.c', 'arch/p/include/asm/h.h', 'arch/q/include/asm/h.h', 'arch/p/k.c', 'src/m.c', 'tools/include/a.h', 'tools/t.c'];
  const LINES = [
    '#include <a.h>',
    '#include "b.h"',
    '#include <asm/h.h>',
    '#include "../include/b.h"',
    'int f1(void);',
    'int f2(void);',
    'static int f3(void);',
    '#define f2(x) (x)',
    'int f1(void) { return f2() + f3(); }',
    'static int f2(void) { return 0; }',
    'static inline int f3(void) { return f1(); }',
    'int f3(void) { return 0; }',
    'int user(void) { return f1() + f2() + f3(); }',
  ];
  type Op = { type: 'write'; path: number; lines: number[] } | { type: 'delete'; path: number } | { type: 'move'; path: number; to: number };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ type: fc.constant('write' as const), path: fc.nat(PATHS.length - 1), lines: fc.array(fc.nat(LINES.length - 1), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), path: fc.nat(PATHS.length - 1) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), path: fc.nat(PATHS.length - 1), to: fc.nat(PATHS.length - 1) }) },
  );

  it('after random edits of headers and sources, the graph equals a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.nat(LINES.length - 1), { maxLength: 5 }), { minLength: PATHS.length, maxLength: PATHS.length }), fc.array(opArb, { minLength: 1, maxLength: 8 }), async (initial, ops) => {
        const vol = new Volume();
        let clock = Date.now() - 86_400_000;
        const write = (path: string, content: string): void => {
          vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
          vol.writeFileSync(path, content);
          clock += 1000;
          vol.utimesSync(path, clock / 1000, clock / 1000);
        };
        const render = (lines: readonly number[]): string => `${lines.map((l) => LINES[l]).join('\n')}\n`;
        vol.mkdirSync(ROOT, { recursive: true });
        initial.forEach((lines, i) => write(`${ROOT}/${PATHS[i]}`, render(lines)));
        const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['c'] });
        try {
          for (const op of ops) {
            const path = `${ROOT}/${PATHS[op.path]}`;
            if (op.type === 'write') write(path, render(op.lines));
            else if (op.type === 'delete') vol.rmSync(path, { force: true });
            else if (vol.existsSync(path) && op.to !== op.path) {
              const content = String(vol.readFileSync(path));
              vol.rmSync(path);
              write(`${ROOT}/${PATHS[op.to]}`, content);
            }
            await db.update();
            const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['c'] });
            try {
              const lines = (d: CKGDatabase): string[] => {
                const raw = new SQL.Database(d.export());
                try {
                  return graphLines(raw);
                } finally {
                  raw.close();
                }
              };
              expect(lines(db), JSON.stringify(op)).toEqual(lines(fresh));
              expect(db.stats()).toEqual(fresh.stats());
            } finally {
              fresh.close();
            }
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
