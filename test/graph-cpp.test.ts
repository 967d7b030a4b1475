// The C++ code graph on test/fixtures/graph/cpp (shapes in namespace geo): every edge, exactly.
// Rules shown: includes as in C (`<circle.hpp>` by the end of its path, `"shape.hpp"` next to
// the file, `<vector>` outside the codebase); namespaces in qualified names (`geo::Circle::area`);
// out-of-class definitions joined to their class (`void Shape::rename()`, `contains`); `this->m()`
// and implicit members, inherited from a base in another file (`refresh` → `Shape::touch`);
// typed locals and parameters (`Circle c`, `Round* r`, `const geo::Shape& s`, `Shape* b`,
// templates stripped: `geo::Box<int> box`); constructors (`Circle c(2.0)`, `new Round(1.0)`);
// static and namespace-qualified calls (`geo::Shape::count()`, `geo::scale()`, `app::report()`);
// `using geo::Circle`, `using Round = geo::Circle` and `using namespace geo`; a function of an
// anonymous namespace (`twice`, static); recursion (`fib`); chained calls (`c.grow(1).grow(2)`:
// the second is a method of a call's result); calls of a parameter and of a local pointer; and a
// standard-library class whose name the codebase also uses (`std::vector` is not `vector`).
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
  'include/circle.hpp:2 imports include/circle.hpp -> include/shape.hpp [shape.hpp] import',
  'include/circle.hpp:9 contains geo::Box -> geo::Box::get [get] local',
  'include/circle.hpp:13 inherits geo::Circle -> geo::Shape [Shape] include',
  'include/circle.hpp:15 contains geo::Circle -> geo::Circle::Circle [Circle] local',
  'include/circle.hpp:16 calls geo::Circle::area -> geo::scale [scale] global',
  'include/circle.hpp:16 contains geo::Circle -> geo::Circle::area [area] local',
  'include/circle.hpp:17 contains geo::Circle -> geo::Circle::grow [grow] local',
  'include/shape.hpp:2 imports include/shape.hpp -> ∅ [string] unresolved:external',
  'include/shape.hpp:11 contains geo::Shape -> geo::Shape::label [label] local',
  'include/vector.hpp:6 contains vector -> vector::push_back [push_back] local',
  'src/circle.cpp:1 imports src/circle.cpp -> include/circle.hpp [circle.hpp] import',
  'src/circle.cpp:5 contains geo::Circle -> geo::Circle::refresh [refresh] include',
  'src/circle.cpp:6 calls geo::Circle::refresh -> geo::Shape::touch [touch] self',
  'src/circle.cpp:7 calls geo::Circle::refresh -> geo::Shape::label [label] self',
  'src/circle.cpp:7 calls geo::Circle::refresh -> geo::Shape::rename [rename] self',
  'src/main.cpp:1 imports src/main.cpp -> include/circle.hpp [circle.hpp] import',
  'src/main.cpp:2 imports src/main.cpp -> include/vector.hpp [vector.hpp] import',
  'src/main.cpp:3 imports src/main.cpp -> ∅ [vector] unresolved:external',
  'src/main.cpp:9 calls app::report -> geo::Shape::label [label] typed',
  'src/main.cpp:13 calls main -> geo::Circle::Circle [Circle] include',
  'src/main.cpp:14 calls main -> geo::Circle::Circle [Round] qualified',
  'src/main.cpp:15 calls main -> geo::Shape::rename [rename] typed',
  'src/main.cpp:16 calls main -> geo::Circle::area [area] typed',
  'src/main.cpp:17 calls main -> ∅ [grow] unresolved:dynamic',
  'src/main.cpp:17 calls main -> geo::Circle::grow [grow] typed',
  'src/main.cpp:18 calls main -> geo::scale [scale] qualified',
  'src/main.cpp:19 calls main -> geo::Shape::count [count] qualified',
  'src/main.cpp:20 calls main -> app::report [report] qualified',
  'src/main.cpp:22 calls main -> ∅ [push_back] unresolved:external',
  'src/main.cpp:24 calls main -> vector::push_back [push_back] typed',
  'src/main.cpp:26 calls main -> geo::Box::get [get] typed',
  'src/main.cpp:28 calls main -> ∅ [fp] unresolved:local-variable',
  'src/shape.cpp:1 imports src/shape.cpp -> include/shape.hpp [shape.hpp] import',
  'src/shape.cpp:7 contains geo::Shape -> geo::Shape::Shape [Shape] include',
  'src/shape.cpp:9 calls geo::Shape::Shape -> geo::Shape::touch [touch] self',
  'src/shape.cpp:12 contains geo::Shape -> geo::Shape::~Shape [~Shape] include',
  'src/shape.cpp:14 contains geo::Shape -> geo::Shape::rename [rename] include',
  'src/shape.cpp:16 calls geo::Shape::rename -> geo::Shape::touch [touch] self',
  'src/shape.cpp:19 contains geo::Shape -> geo::Shape::area [area] include',
  'src/shape.cpp:21 contains geo::Shape -> geo::Shape::count [count] include',
  'src/shape.cpp:23 contains geo::Shape -> geo::Shape::touch [touch] include',
  'src/util.cpp:1 imports src/util.cpp -> include/circle.hpp [circle.hpp] import',
  'src/util.cpp:5 calls total -> geo::Circle::area [area] typed',
  'src/util.cpp:5 calls total -> geo::Shape::area [area] typed',
  'src/util.cpp:5 calls total -> geo::scale [scale] global',
  'src/util.cpp:7 calls fib -> fib [fib] local',
  'src/util.cpp:7 calls fib -> fib [fib] local',
  'src/util.cpp:13 calls apply -> ∅ [f] unresolved:parameter',
  'src/util.cpp:15 calls run -> apply [apply] local',
  'src/util.cpp:15 calls run -> apply [apply] local',
  'src/util.cpp:15 calls run -> fib [fib] local',
  'src/util.cpp:15 calls run -> twice [twice] local',
];

// Functions used as values: `&geo::scale`, `apply(fib)`, `apply(&twice)`.
const REFERENCES = ['src/main.cpp:27 main -> geo::scale [scale] qualified', 'src/util.cpp:15 run -> fib [fib] local', 'src/util.cpp:15 run -> twice [twice] local'];

describe.each(BACKENDS)('c++ code graph on %s', (backend) => {
  it('has exactly the expected edges and function uses', async () => {
    const graph = await openGraph(graphFixture('cpp'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
      const raw = new SQL.Database(graph.db.export());
      try {
        const rel = (p: unknown): string => String(p).slice(graph.tree.root.length + 1);
        const rows = raw.exec(
          `SELECT f.path, e.line, s.qualified_name, t.qualified_name, n.name, r.name FROM edges e JOIN names n ON n.id = e.name_id JOIN symbols s ON s.id = e.from_id
           JOIN files f ON f.id = s.file_id JOIN symbols t ON t.id = e.to_id JOIN resolutions r ON r.code = e.resolution
           WHERE e.kind = 5 ORDER BY f.path, e.line, e.id`,
        )[0]?.values ?? [];
        expect(rows.map(([path, line, from, to, name, how]) => `${rel(path)}:${String(line)} ${String(from)} -> ${String(to)} [${String(name)}] ${String(how)}`)).toEqual(REFERENCES);
        // Only the anonymous namespace's function is file-local; `static int count()` is a static member.
        const statics = raw.exec('SELECT qualified_name FROM symbols WHERE flags & 4 <> 0')[0]?.values.map((r) => String(r[0]));
        expect(statics).toEqual(['twice']);
      } finally {
        raw.close();
      }
    } finally {
      graph.close();
    }
  });
});

// Random edits of a small C++ tree: headers that include one another, namespaces, `using`
// directives, declarations and aliases, classes with bases and members, out-of-class methods,
// typed locals, qualified calls. After each edit the graph must equal a fresh build's.
describe('c++ code graph: updates keep it exact', () => {
  const ROOT = '/repo';
  const PATHS = ['include/a.hpp', 'include/b.hpp', 'include/c.h', 'src/x.cpp', 'src/y.cpp', 'src/z.cpp'];
  const LINES = [
    '#include <a.hpp>',
    '#include "b.hpp"',
    '#include "../include/b.hpp"',
    '#include <c.h>',
    'namespace n { int f(); }',
    'int f();',
    'using namespace n;',
    'using n::f;',
    'namespace n { int f() { return g(); } }',
    'int f() { return 0; }',
    'static int g() { return f(); }',
    'class A { public: int m() { return f(); } };',
    'namespace n { class A { public: int m(); }; }',
    'class B : public A { public: int k() { return m(); } };',
    'int n::A::m() { return f(); }',
    'using T = n::A;',
    'int user() { A a; B b; T t; return a.m() + b.k() + b.m() + t.m() + n::f(); }',
    'int ctor() { B* p = new B(); return p->k() + A().m(); }',
    // Bases no declaration names: a template's type parameter, a header the grammar cannot read.
    'template <class Base> class W : public Base { public: int w() { return this->m() + f(); } };',
    'B b0; class D : public decltype(b0) { public: int d() { return m() + f(); } };',
  ];
  type Op = { type: 'write'; path: number; lines: number[] } | { type: 'delete'; path: number } | { type: 'move'; path: number; to: number };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ type: fc.constant('write' as const), path: fc.nat(PATHS.length - 1), lines: fc.array(fc.nat(LINES.length - 1), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), path: fc.nat(PATHS.length - 1) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), path: fc.nat(PATHS.length - 1), to: fc.nat(PATHS.length - 1) }) },
  );

  it('after random edits of headers and sources, the graph equals a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.nat(LINES.length - 1), { maxLength: 5 }), { minLength: PATHS.length, maxLength: PATHS.length }), fc.array(opArb, { minLength: 1, maxLength: 6 }), async (initial, ops) => {
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
        const languages = ['c', 'cpp'];
        const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages });
        const lines = (d: CKGDatabase): string[] => {
          const raw = new SQL.Database(d.export());
          try {
            return graphLines(raw);
          } finally {
            raw.close();
          }
        };
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
            const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages });
            try {
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
      { numRuns: 30, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
    );
  });
});
