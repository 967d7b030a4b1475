import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { java } from '../src/languages/index.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('java visitor', () => {
  it('extracts class-likes, constructors and methods with their owners and exact ranges', async () => {
    const { rows, db } = await extractRows('Shapes.java', fixture('java/Shapes.java'));
    try {
      expect(rows).toEqual([
        // Ranges include annotations (line 5, 15, 42).
        { kind: 'class', name: 'Shapes', lines: '5-94' },
        { kind: 'method', name: 'Shapes', lines: '11-13', parent: 'Shapes' },
        { kind: 'method', name: 'toString', lines: '15-18', parent: 'Shapes' },
        { kind: 'method', name: 'sorted', lines: '20-24', parent: 'Shapes' },
        { kind: 'class', name: 'Base', lines: '26-28' },
        { kind: 'method', name: 'area', lines: '27-27', parent: 'Base' },
        { kind: 'class', name: 'Visitor', lines: '30-38' },
        { kind: 'method', name: 'visit', lines: '33-33', parent: 'Visitor' },
        { kind: 'method', name: 'depth', lines: '35-37', parent: 'Visitor' },
        { kind: 'class', name: 'Kind', lines: '40-58' },
        // A method in an enum constant's body belongs to the enum.
        { kind: 'method', name: 'corners', lines: '42-45', parent: 'Kind' },
        { kind: 'method', name: 'Kind', lines: '51-53', parent: 'Kind' },
        { kind: 'method', name: 'corners', lines: '55-57', parent: 'Kind' },
        { kind: 'class', name: 'Point', lines: '60-72' },
        { kind: 'method', name: 'Point', lines: '61-63', parent: 'Point' },
        { kind: 'method', name: 'Point', lines: '65-67', parent: 'Point' },
        { kind: 'method', name: 'sum', lines: '69-71', parent: 'Point' },
        { kind: 'class', name: 'Marker', lines: '74-76' },
        { kind: 'method', name: 'value', lines: '75-75', parent: 'Marker' },
        // Anonymous-class methods belong to no class: a field initializer's has no parent,
        // a method's anonymous class reports that method as parentFunction.
        { kind: 'function', name: 'run', lines: '79-79' },
        { kind: 'method', name: 'schedule', lines: '82-93', parent: 'Shapes' },
        { kind: 'function', name: 'run', lines: '84-87', parent: 'schedule' },
        { kind: 'class', name: 'Local', lines: '89-91' },
        { kind: 'method', name: 'helper', lines: '90-90', parent: 'Local' },
        // The lambda (92) is not indexed.
        { kind: 'class', name: 'Top', lines: '96-98' },
        { kind: 'method', name: 'act', lines: '97-97', parent: 'Top' },
        { kind: 'class', name: 'Level', lines: '100-100' },
        { kind: 'method', name: 'high', lines: '100-100', parent: 'Level' },
      ]);
    } finally {
      db.close();
    }
  });

  it('never attributes anonymous-class methods to the enclosing class', async () => {
    const { db } = await extractRows('Shapes.java', fixture('java/Shapes.java'));
    try {
      const methods = await db.queryFunction('run', 'class_method');
      expect(methods).toEqual([]);
      const functions = await db.queryFunction('run');
      expect(functions.map((f) => [f.startLine, f.parentFunction, f.parentClass])).toEqual([
        [79, undefined, undefined],
        [84, 'schedule', undefined],
      ]);
      expect(functions[1]?.body.startsWith('@Override\n            public void run() {')).toBe(true);
    } finally {
      db.close();
    }
  });

  it('summarises fields and methods (constructors included) folded to one line', async () => {
    const { db } = await extractRows('Shapes.java', fixture('java/Shapes.java'));
    try {
      const [shapes] = await db.queryClass('Shapes');
      expect(shapes?.fields).toBe(
        ['- @Deprecated private final int sides = 0;', '- static String label, title;', '- Runnable field = new Runnable() {...};'].join('\n'),
      );
      expect(shapes?.methods).toBe(
        [
          '- public Shapes(int sides)',
          '- @Override public String toString()',
          '- public <T extends Comparable<T>> List<T> sorted(List<T> items, boolean reverse)',
          '- void schedule()',
        ].join('\n'),
      );
      expect(shapes?.body.startsWith('@SuppressWarnings("unused")\npublic class Shapes {')).toBe(true);
      const [visitor] = await db.queryClass('Visitor');
      expect(visitor?.fields).toBe('- int LIMIT = 3;');
      expect(visitor?.methods).toBe(['- void visit(Shapes s);', '- default int depth()'].join('\n'));
      const [kind] = await db.queryClass('Kind');
      expect(kind?.fields).toBe(['- CIRCLE(1)', '- SQUARE(4)', '- private final int n;'].join('\n'));
      expect(kind?.methods).toBe(['- Kind(int n)', '- int corners()'].join('\n'));
      const [point] = await db.queryClass('Point');
      expect(point?.fields).toBe(['- int x', '- int y'].join('\n'));
      expect(point?.methods).toBe(['- Point', '- Point(int both)', '- int sum()'].join('\n'));
      const [marker] = await db.queryClass('Marker');
      expect(marker?.methods).toBe('- String value() default "";');
      const [base] = await db.queryClass('Base');
      expect(base?.methods).toBe('- abstract double area();');
      expect(base?.fields).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('still finds the definitions around a syntax error', async () => {
    const source = fixture('java/Broken.java');
    const pool = new ParserPool();
    try {
      expect((await extractSource(pool, java, source)).hasSyntaxErrors).toBe(true);
    } finally {
      await pool.delete();
    }
    const { rows, db } = await extractRows('Broken.java', source);
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '1-5' },
        { kind: 'method', name: 'ok', lines: '2-4', parent: 'Before' },
        { kind: 'class', name: 'After', lines: '9-13' },
        { kind: 'method', name: 'later', lines: '10-12', parent: 'After' },
      ]);
    } finally {
      db.close();
    }
  });

  it('owns .java', () => {
    expect(createDefaultRegistry().forPath('/src/a/Shapes.java')?.id).toBe('java');
    expect(java.grammarPackage).toEqual({ name: 'tree-sitter-java', version: '0.23.5' });
  });
});
