import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
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
