import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('kotlin visitor', () => {
  it('extracts classes, objects, companions, methods, extension and nested functions with exact ranges', async () => {
    const { rows, db } = await extractRows('Shapes.kt', fixture('kotlin/Shapes.kt'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        // Extension functions are named without their receiver.
        { kind: 'function', name: 'slug', lines: '5-5' },
        { kind: 'function', name: 'second', lines: '7-7' },
        { kind: 'function', name: 'parse', lines: '9-15' },
        { kind: 'function', name: 'helper', lines: '10-13', parent: 'parse' },
        { kind: 'function', name: 'deeper', lines: '11-11', parent: 'helper' },
        // The annotation is inside the class node (its `modifiers`): the range starts there.
        { kind: 'class', name: 'Point', lines: '17-40' },
        // Secondary constructors are methods named like the class; a local fun in one has it as parent.
        { kind: 'method', name: 'Point', lines: '23-23', parent: 'Point' },
        { kind: 'method', name: 'Point', lines: '25-28', parent: 'Point' },
        { kind: 'function', name: 'log', lines: '26-26', parent: 'Point' },
        { kind: 'method', name: 'plus', lines: '30-33', parent: 'Point' },
        { kind: 'function', name: 'add', lines: '31-31', parent: 'plus' },
        // A member extension function is a method of the class it is declared in.
        { kind: 'method', name: 'mirror', lines: '35-35', parent: 'Point' },
        { kind: 'class', name: 'Companion', lines: '37-39' },
        { kind: 'method', name: 'origin', lines: '38-38', parent: 'Companion' },
        { kind: 'class', name: 'Circle', lines: '42-52' },
        { kind: 'class', name: 'Factory', lines: '43-45' },
        { kind: 'method', name: 'unit', lines: '44-44', parent: 'Factory' },
        { kind: 'method', name: 'area', lines: '47-47', parent: 'Circle' },
        { kind: 'class', name: 'Label', lines: '49-51' },
        { kind: 'method', name: 'text', lines: '50-50', parent: 'Label' },
        { kind: 'class', name: 'Shape', lines: '54-57' },
        { kind: 'method', name: 'area', lines: '55-55', parent: 'Shape' },
        { kind: 'method', name: 'describe', lines: '56-56', parent: 'Shape' },
        { kind: 'class', name: 'Color', lines: '59-64' },
        { kind: 'method', name: 'lower', lines: '63-63', parent: 'Color' },
        { kind: 'class', name: 'Registry', lines: '66-76' },
        { kind: 'method', name: 'register', lines: '69-75', parent: 'Registry' },
        // A method of an anonymous `object :` is local to the function, not a method of Registry.
        { kind: 'function', name: 'run', lines: '71-71', parent: 'register' },
        { kind: 'class', name: 'Result', lines: '78-78' },
        { kind: 'class', name: 'Runner', lines: '79-81' },
        { kind: 'method', name: 'go', lines: '80-80', parent: 'Runner' },
        // Backticks are quoting, not part of the name.
        { kind: 'function', name: 'adds two numbers', lines: '83-83' },
        { kind: 'class', name: 'Lazy', lines: '85-101' },
        // Local to an `init` block or a lambda: no named function around them, never methods.
        { kind: 'function', name: 'setup', lines: '87-87' },
        // A getter counts as its property.
        { kind: 'function', name: 'compute', lines: '93-93', parent: 'size' },
        { kind: 'function', name: 'twice', lines: '98-98' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises properties (val/var constructor parameters too) and function heads', async () => {
    const { db } = await extractRows('Shapes.kt', fixture('kotlin/Shapes.kt'));
    try {
      const [point] = await db.queryClass('Point');
      expect(point?.fields).toBe(['- val x: Int', '- val y: Int', '- var label: String = "p"', '- val sum: Int'].join('\n'));
      expect(point?.methods).toBe(
        ['- constructor(x: Int) : this(x, 0)', '- constructor() : this(0)', '- fun plus(other: Point): Point', '- fun Point.mirror(): Point'].join('\n'),
      );
      expect(point?.body.startsWith('@Suppress("unused")\ndata class Point(')).toBe(true);
      const [circle] = await db.queryClass('Circle');
      expect(circle?.fields).toBe('- private val radius: Double');
      expect(circle?.methods).toBe('- fun area(): Double');
      const [companion] = await db.queryClass('Companion');
      expect(companion?.methods).toBe('- fun origin(): Point');
      expect(companion?.fields).toBeUndefined();
      const [registry] = await db.queryClass('Registry');
      expect(registry?.fields).toBe('- private val items = mutableListOf<String>()');
      expect(registry?.methods).toBe('- fun register(name: String)');
      const [lazy] = await db.queryClass('Lazy');
      // The multi-line lambda initializer of `handlers` is left out of its line.
      expect(lazy?.fields).toBe('- val size: Int\n- val handlers');
      expect(lazy?.methods).toBeUndefined();
      const [slug] = await db.queryFunction('slug');
      expect(slug?.body).toBe("fun String.slug(): String = lowercase().replace(' ', '-')");
      const origins = await db.queryFunction('origin', 'class_method');
      expect(origins.map((o) => o.parentClass)).toEqual(['Companion']);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside an ERROR region', async () => {
    const { rows, db } = await extractRows('Broken.kt', fixture('kotlin/Broken.kt'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(1);
      expect(rows).toEqual([
        { kind: 'function', name: 'before', lines: '1-1' },
        { kind: 'class', name: 'Broken', lines: '3-7' },
        { kind: 'method', name: 'bad', lines: '4-6', parent: 'Broken' },
        { kind: 'function', name: 'after', lines: '9-9' },
      ]);
    } finally {
      db.close();
    }
  });

  it('indexes .kts scripts with the same visitor', async () => {
    const { rows, db } = await extractRows('build.gradle.kts', 'plugins { id("java") }\n\nfun version(): String = "1.0"\n\ntasks.register("hello") {\n    fun greet() = println("hi")\n    doLast { greet() }\n}\n');
    try {
      expect(db.languages.forPath('/src/build.gradle.kts')?.id).toBe('kotlin');
      expect(rows).toEqual([
        { kind: 'function', name: 'version', lines: '3-3' },
        { kind: 'function', name: 'greet', lines: '6-6' },
      ]);
    } finally {
      db.close();
    }
  });
});
