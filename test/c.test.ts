import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, createDefaultRegistry, type FileProcessor, type FileSystem } from '../src/index.js';
import { c } from '../src/languages/index.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('c visitor', () => {
  it('extracts functions by their plain name and structs / unions as classes with exact ranges', async () => {
    const { rows, db } = await extractRows('list.c', fixture('c/list.c'));
    try {
      expect(rows).toEqual([
        // Forward declarations (3-4), prototypes (5-6) and `struct node *` type uses are absent.
        { kind: 'class', name: 'node', lines: '8-19' },
        { kind: 'class', name: 'Point', lines: '21-24' },
        { kind: 'class', name: 'pair', lines: '26-28' },
        { kind: 'class', name: 'number', lines: '30-33' },
        { kind: 'class', name: 'outer', lines: '35-40' },
        { kind: 'class', name: 'inner', lines: '36-38' },
        { kind: 'function', name: 'count_nodes', lines: '42-50' },
        { kind: 'function', name: 'dup_string', lines: '52-55' },
        { kind: 'function', name: 'split_words', lines: '57-60' },
        { kind: 'function', name: 'pick_handler', lines: '62-65' },
        { kind: 'function', name: 'identity', lines: '67-70' },
        { kind: 'function', name: 'make_node', lines: '72-72' },
        { kind: 'function', name: 'square', lines: '74-74' },
        // The anonymous, untypedef'd struct inside main (78) is not a class.
        { kind: 'function', name: 'main', lines: '76-81' },
        // Attribute-macro definitions (`static int __init f(void)`) misparse; they are recovered,
        // the range starting at the name's line.
        { kind: 'function', name: 'board_setup', lines: '83-86' },
        { kind: 'function', name: 'schedule', lines: '89-91' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises struct members, splicing anonymous unions and #ifdef blocks and shortening nested bodies', async () => {
    const { db } = await extractRows('list.c', fixture('c/list.c'));
    try {
      const [node] = await db.queryClass('node');
      expect(node?.fields).toBe(
        ['- int value;', '- struct node *next;', '- int i;', '- float f;', '- void (*visit)(struct node *self);', '- const char *label;'].join('\n'),
      );
      expect(node?.methods).toBeUndefined();
      const [point] = await db.queryClass('Point');
      expect(point?.body.startsWith('struct {')).toBe(true);
      expect(point?.fields).toBe(['- double x;', '- double y;'].join('\n'));
      expect((await db.queryClass('pair'))[0]?.fields).toBe('- int a, b;');
      expect(await db.queryClass('pair_t')).toEqual([]);
      expect((await db.queryClass('number'))[0]?.fields).toBe(['- long l;', '- double d;'].join('\n'));
      expect((await db.queryClass('outer'))[0]?.fields).toBe(['- struct inner {...} in;', '- int width;'].join('\n'));
      const [schedule] = await db.queryFunction('schedule');
      expect(schedule?.body).toBe('schedule(void)\n{\n}');
      const [split] = await db.queryFunction('split_words');
      expect(split?.body.startsWith('char **split_words(char *text, char sep)')).toBe(true);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions around a syntax error', async () => {
    const source = fixture('c/broken.c');
    const pool = new ParserPool();
    try {
      expect((await extractSource(pool, c, source)).hasSyntaxErrors).toBe(true);
    } finally {
      await pool.delete();
    }
    const { rows, db } = await extractRows('broken.c', source);
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'before', lines: '1-3' },
        { kind: 'function', name: 'first', lines: '5-8' },
        { kind: 'function', name: 'after', lines: '12-15' },
        { kind: 'class', name: 'later', lines: '17-19' },
      ]);
    } finally {
      db.close();
    }
  });

  it('parses .h as C: C++ constructs in a header yield no bogus rows and the C definitions survive', async () => {
    expect(createDefaultRegistry().forPath('/src/mixed.h')?.id).toBe('c');
    const { rows, db } = await extractRows('mixed.h', fixture('c/mixed.h'));
    try {
      // `namespace util { class Widget ... }` misparses as function definitions without a
      // function declarator, which are skipped.
      expect(rows).toEqual([
        { kind: 'class', name: 'config', lines: '4-6' },
        { kind: 'function', name: 'config_load', lines: '15-15' },
      ]);
    } finally {
      db.close();
    }
  });

  it('owns .c and .h', () => {
    const registry = createDefaultRegistry();
    expect(registry.forPath('/src/a.c')?.id).toBe('c');
    expect(c.extensions).toEqual(['.c', '.h']);
    expect(c.grammarPackage).toEqual({ name: 'tree-sitter-c', version: '0.24.1' });
  });
});

describe('c: files that cannot hold a definition or a graph fact are not parsed', () => {
  // A skipped file must extract nothing: no row, and for the code graph no site and no binding.
  const expectNothing = (file: Awaited<ReturnType<typeof extractSource>>): void => {
    expect(file.functions).toEqual([]);
    expect(file.classes).toEqual([]);
    expect(file.graph?.sites ?? []).toEqual([]);
    expect(file.graph?.bindings ?? []).toEqual([]);
  };

  it('a name before a directive is no call of the directive\'s parentheses (found by the property below)', async () => {
    const pool = new ParserPool({});
    try {
      // Seed -37497554: error recovery read `int` + `(A + 4)` of the #define as a call.
      expectNothing(await extractSource(pool, c, 'int [ int \n#define B (A + 4)\n *'));
    } finally {
      await pool.delete();
    }
  });

  it('a source without braces, parentheses, `=`, `?`, `&`, quotes or `return` outside comments and directives yields nothing whatever it holds', async () => {
    const fc = (await import('fast-check')).default;
    const pool = new ParserPool({});
    try {
      // C-ish tokens without those characters outside directives and comments: declarations,
      // object-like macros (parenthesised bodies too), conditions that call macros, garbage.
      const token = fc.constantFrom(
        'int', 'static', 'struct', 'union', 'enum', 'typedef', 'void', 'char', '*', ';', ',', '[', ']', 'foo', 'bar', 'main', 'x', '0', '1',
        'if', 'else', ':', '->', '.', '\n', '\n#define A 1\n', '\n#define B (A + 4)\n', '\n#if IS_ENABLED(X) && defined(Y)\n', '\n# elif f(2) > 1\n',
        '\n#ifdef X\n', '\n#endif\n', '\n#undef A\n', 'extern', '/* c() = */', '// c(x) = y\n', '/* multi\nline () */', '\n#define C 1 /* ( */ \\\n 2\n',
        '\n#if A && \\\n f(x)\n',
      );
      await fc.assert(
        fc.asyncProperty(fc.array(token, { maxLength: 40 }), async (tokens) => {
          const source = tokens.join(' ');
          expect(c.mayDefine?.(source)).toBe(false);
          expectNothing(await extractSource(pool, c, source));
        }),
        { numRuns: 300 },
      );
    } finally {
      await pool.delete();
    }
  });

  it('reads a directive after a comment on its line as a directive (a comment is a space to the preprocessor)', async () => {
    const pool = new ParserPool({});
    try {
      for (const source of ['/* ( */ #if f(1)\n#endif\n', '/* a\n b */ #if g(2)\n#endif\n']) {
        expect(c.mayDefine?.(source)).toBe(false);
        expectNothing(await extractSource(pool, c, source));
      }
    } finally {
      await pool.delete();
    }
  });

  it('whatever a source holds, it is skipped only when it yields nothing', async () => {
    const fc = (await import('fast-check')).default;
    const pool = new ParserPool({});
    try {
      const token = fc.constantFrom(
        'int', 'static', 'struct', 'void', '*', '(', ')', ';', ',', '=', '?', '&', '{', '}', 'foo', 'bar', 'x', '0', '"s"', 'return', '\n',
        '#define A 1\n', '#define F(x) x\n', '#include <a.h>\n', '#if f(1)\n', '#endif\n', '/* ( */', '// = \n', 'extern "C"',
      );
      await fc.assert(
        fc.asyncProperty(fc.array(token, { maxLength: 30 }), async (tokens) => {
          const source = tokens.join(' ');
          if (c.mayDefine?.(source) === false) expectNothing(await extractSource(pool, c, source));
        }),
        { numRuns: 300 },
      );
    } finally {
      await pool.delete();
    }
  });

  it('indexes such a file with no rows and never sends it to the parser', async () => {
    const vol = Volume.fromJSON({
      '/src/regs.h': '/* Registers (generated) */\n#define REG_A 0x10\n#define REG_B (REG_A + 4)\nstruct opaque;\n',
      '/src/proto.h': '#define REG_C 0x20\nint prototype(int a);\n',
      '/src/code.c': 'struct point { int x; };\nint area(int w) { return w; }\n',
    });
    const pool = new ParserPool({});
    const seen: string[] = [];
    const processor: FileProcessor = {
      process: (language, source, path) => {
        seen.push(path);
        return extractSource(pool, language, source);
      },
    };
    const db = await CKGDatabase.open({ codebasePath: '/src', fs: vol as unknown as FileSystem, processor });
    try {
      // A brace-free header with a prototype is parsed: files that include it see the prototype.
      expect(seen.sort()).toEqual(['/src/code.c', '/src/proto.h']);
      expect(db.report).toMatchObject({ filesIndexed: 3, filesParsed: 3, functions: 1, classes: 1 });
      expect((await db.queryFunction('area'))[0]?.body).toBe('int area(int w) { return w; }');
      // A brace added later makes the file parse again.
      vol.writeFileSync('/src/regs.h', '#define REG_A 0x10\nstruct regs { int a; };\n');
      await db.update();
      expect(seen).toEqual(['/src/code.c', '/src/proto.h', '/src/regs.h']);
      expect((await db.queryClass('regs'))[0]?.filePath).toBe('/src/regs.h');
    } finally {
      db.close();
      await pool.delete();
    }
  });
});

describe('c: function-defining macros and enums', () => {
  it('indexes file-scope macro definitions by their first identifier argument, and enums as classes', async () => {
    const { rows, db } = await extractRows('macros.c', fixture('c/macros.c'));
    try {
      expect(rows).toEqual([
        // `SYSCALL_DEFINE6(…)` ⏎ `{…}` parses as a call then a block: one row over both.
        { kind: 'function', name: 'mmap_pgoff', lines: '4-9' },
        // One argument: a definition of type `SYSCALL_DEFINE0` with declarator `(fork)`.
        { kind: 'function', name: 'fork', lines: '11-14' },
        { kind: 'function', name: 'bpf_map_lookup_elem', lines: '16-19' },
        { kind: 'function', name: 'getrlimit', lines: '22-26' },
        { kind: 'function', name: 'timer_interrupt', lines: '29-32' },
        // Not registered with `:2`: the first identifier argument.
        { kind: 'function', name: 'Widget', lines: '34-36' },
        // After `static int`, tree-sitter reads the macro as the function's name.
        { kind: 'function', name: 'DEFINE_HANDLER', lines: '38-41' },
        // `for_each_possible_cpu(cpu) {…}` inside a function is a loop, not a definition.
        { kind: 'function', name: 'count_cpus', lines: '43-50' },
        { kind: 'class', name: 'zone_type', lines: '52-55' },
        { kind: 'class', name: 'color_t', lines: '57-57' },
        // An anonymous enum has no name to search for; `MODULE_LICENSE(…);` defines nothing.
      ]);
      const [mmap] = await db.queryFunction('mmap_pgoff');
      // The body keeps the macro: what the function is, and its parameters.
      expect(mmap?.body.startsWith('SYSCALL_DEFINE6(mmap_pgoff, unsigned long, addr, unsigned long, len,')).toBe(true);
      expect(mmap?.body.endsWith('return ksys_mmap_pgoff(addr, len, prot, flags, fd, pgoff);\n}')).toBe(true);
      expect((await db.queryClass('zone_type'))[0]?.fields).toBe('- ZONE_DMA\n- ZONE_NORMAL = 2');
      expect((await db.queryClass('color_t'))[0]?.fields).toBe('- RED\n- GREEN');
    } finally {
      db.close();
    }
  });

  it('names registered macros after the argument they say, also after specifiers', async () => {
    const { rows, db } = await extractRows('macros.c', fixture('c/macros.c'), { functionMacros: ['PHP_METHOD:2', 'DEFINE_HANDLER'] });
    try {
      expect(rows.filter((r) => ['34-36', '38-41'].includes(r.lines))).toEqual([
        { kind: 'function', name: 'render', lines: '34-36' },
        { kind: 'function', name: 'timer_tick', lines: '38-41' },
      ]);
      expect((await db.queryFunction('render'))[0]?.body).toBe('PHP_METHOD(Widget, render)\n{\n}');
    } finally {
      db.close();
    }
  });
});
