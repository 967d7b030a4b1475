import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('scala visitor', () => {
  it('extracts classes, objects, traits, enums, defs and nested defs with exact ranges', async () => {
    const { rows, db } = await extractRows('Shapes.scala', fixture('scala/Shapes.scala'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'class', name: 'Shape', lines: '3-6' },
        // Abstract defs (no body) are methods too.
        { kind: 'method', name: 'area', lines: '4-4', parent: 'Shape' },
        { kind: 'method', name: 'describe', lines: '5-5', parent: 'Shape' },
        // The case class (annotation included in its node) and its companion: two class rows.
        { kind: 'class', name: 'Point', lines: '8-19' },
        { kind: 'method', name: 'area', lines: '11-11', parent: 'Point' },
        { kind: 'method', name: 'plus', lines: '12-18', parent: 'Point' },
        { kind: 'function', name: 'add', lines: '13-16', parent: 'plus' },
        { kind: 'function', name: 'twice', lines: '14-14', parent: 'add' },
        { kind: 'class', name: 'Point', lines: '21-23' },
        { kind: 'method', name: 'origin', lines: '22-22', parent: 'Point' },
        { kind: 'class', name: 'Base', lines: '25-31' },
        { kind: 'method', name: 'run', lines: '27-27', parent: 'Base' },
        { kind: 'method', name: 'listener', lines: '28-30', parent: 'Base' },
        // A def of an anonymous class (`new Runnable { … }`) is local to the def around it.
        { kind: 'function', name: 'run', lines: '29-29', parent: 'listener' },
        { kind: 'class', name: 'Main', lines: '33-35' },
        { kind: 'method', name: 'main', lines: '34-34', parent: 'Main' },
        { kind: 'function', name: 'topLevel', lines: '37-37' },
        // Indentation syntax: tree-sitter ends these nodes after the blank line that follows them.
        { kind: 'class', name: 'Color', lines: '39-42' },
        { kind: 'method', name: 'lower', lines: '41-41', parent: 'Color' },
        { kind: 'class', name: 'Indented', lines: '43-47' },
        { kind: 'method', name: 'm', lines: '44-47', parent: 'Indented' },
        // Scala 3 extension methods are functions.
        { kind: 'function', name: 'slug', lines: '49-49' },
        { kind: 'class', name: 'Settings', lines: '51-61' },
        { kind: 'method', name: 'apply', lines: '56-56', parent: 'Settings' },
        // A def inside a lambda of a class-level val: local, with no named function around it.
        { kind: 'function', name: 'twice', lines: '58-58' },
        // `given … with` instances are not classes; their defs are functions.
        { kind: 'function', name: 'compare', lines: '64-64' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises fields (case-class and val parameters, vals, enum cases) and def heads', async () => {
    const { db } = await extractRows('Shapes.scala', fixture('scala/Shapes.scala'));
    try {
      const points = await db.queryClass('Point');
      expect(points.map((p) => [p.startLine, p.endLine])).toEqual([[8, 19], [21, 23]]);
      const [caseClass, companion] = points;
      expect(caseClass?.fields).toBe(['- x: Int', '- y: Int', '- val sum = x + y'].join('\n'));
      expect(caseClass?.methods).toBe('- def area: Double\n- def plus(other: Point): Point');
      expect(caseClass?.body.startsWith('@SerialVersionUID(1L)\ncase class Point(')).toBe(true);
      expect(companion?.fields).toBeUndefined();
      expect(companion?.methods).toBe('- def origin: Point');
      const [base] = await db.queryClass('Base');
      // `size` has no `val`: a constructor parameter, not a field.
      expect(base?.fields).toBe('- val name: String\n- var count: Int = 0');
      expect(base?.methods).toBe('- def run[A](a: A)(implicit ev: T): Unit\n- def listener: Runnable');
      const [color] = await db.queryClass('Color');
      expect(color?.fields).toBe('- case Red, Green');
      const [shape] = await db.queryClass('Shape');
      expect(shape?.methods).toBe('- def area: Double\n- def describe(): String');
      const [settings] = await db.queryClass('Settings');
      // Multi-line initializers are left out of the field lines.
      expect(settings?.fields).toBe(['- val defaults', '- val name = "settings"', '- val doubled'].join('\n'));
      expect(await db.queryClass('intOrdering')).toEqual([]);
      const runs = await db.queryFunction('run', 'class_method');
      expect(runs.map((r) => r.parentClass)).toEqual(['Base']);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside an ERROR region', async () => {
    const { rows, db } = await extractRows('Broken.scala', fixture('scala/Broken.scala'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(1);
      // Inside the region tree-sitter salvages what it can (`bad` is cut to its first line, the
      // class ends early); the objects before and after are intact.
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '1-3' },
        { kind: 'method', name: 'ok', lines: '2-2', parent: 'Before' },
        { kind: 'class', name: 'Broken', lines: '5-8' },
        { kind: 'method', name: 'bad', lines: '6-6', parent: 'Broken' },
        { kind: 'class', name: 'After', lines: '11-13' },
        { kind: 'method', name: 'fine', lines: '12-12', parent: 'After' },
      ]);
    } finally {
      db.close();
    }
  });

  it('indexes .sc worksheets with the same visitor', async () => {
    const { rows, db } = await extractRows('sheet.sc', 'val xs = List(1, 2)\n\ndef total(ys: List[Int]): Int =\n  ys.sum\n\nobject Helpers {\n  def double(n: Int) = n * 2\n}\n');
    try {
      expect(db.languages.forPath('/src/sheet.sc')?.id).toBe('scala');
      expect(rows).toEqual([
        // An indented body: tree-sitter ends the def after the blank line 5.
        { kind: 'function', name: 'total', lines: '3-5' },
        { kind: 'class', name: 'Helpers', lines: '6-8' },
        { kind: 'method', name: 'double', lines: '7-7', parent: 'Helpers' },
      ]);
    } finally {
      db.close();
    }
  });
});
