import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('c_sharp visitor', () => {
  it('extracts types, methods, constructor overloads and local functions with exact ranges', async () => {
    const { rows, db } = await extractRows('Shapes.cs', fixture('csharp/Shapes.cs'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        // The two attribute lines are inside the class node: the range starts at the first one.
        { kind: 'class', name: 'Shape', lines: '6-50' },
        { kind: 'method', name: 'Shape', lines: '13-13', parent: 'Shape' },
        { kind: 'method', name: 'Shape', lines: '15-18', parent: 'Shape' },
        { kind: 'method', name: 'Shape', lines: '20-24', parent: 'Shape' },
        // A local function of a constructor: its parent is the constructor, named like the class.
        { kind: 'function', name: 'Clamp', lines: '22-22', parent: 'Shape' },
        { kind: 'method', name: 'Area', lines: '26-42', parent: 'Shape' },
        { kind: 'function', name: 'Square', lines: '31-35', parent: 'Area' },
        { kind: 'function', name: 'Twice', lines: '33-33', parent: 'Square' },
        // Lambdas are transparent: the local function belongs to the method around the lambda.
        { kind: 'function', name: 'InLambda', lines: '38-38', parent: 'Area' },
        { kind: 'method', name: 'Render', lines: '44-44', parent: 'Shape' },
        { kind: 'class', name: 'Meta', lines: '46-49' },
        { kind: 'method', name: 'Describe', lines: '48-48', parent: 'Meta' },
        { kind: 'class', name: 'Point', lines: '52-57' },
        { kind: 'method', name: 'Point', lines: '55-55', parent: 'Point' },
        { kind: 'method', name: 'Length', lines: '56-56', parent: 'Point' },
        { kind: 'class', name: 'IShape', lines: '59-63' },
        { kind: 'method', name: 'Area', lines: '61-61', parent: 'IShape' },
        { kind: 'method', name: 'Draw', lines: '62-62', parent: 'IShape' },
        { kind: 'class', name: 'Person', lines: '65-68' },
        { kind: 'method', name: 'Full', lines: '67-67', parent: 'Person' },
        { kind: 'class', name: 'Pair', lines: '70-70' },
        { kind: 'class', name: 'Color', lines: '72-72' },
        { kind: 'class', name: 'Counter', lines: '74-96' },
        // A local function in an accessor has the property as its parent.
        { kind: 'function', name: 'Read', lines: '86-86', parent: 'Count' },
        { kind: 'method', name: 'operator+', lines: '91-91', parent: 'Counter' },
        { kind: 'method', name: 'operator int', lines: '93-93', parent: 'Counter' },
        { kind: 'method', name: '~Counter', lines: '95-95', parent: 'Counter' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises fields (properties, record parameters, enum members) and member heads without attributes', async () => {
    const { db } = await extractRows('Shapes.cs', fixture('csharp/Shapes.cs'));
    try {
      const [shape, ...more] = await db.queryClass('Shape');
      expect(more).toEqual([]);
      expect(shape?.fields).toBe(['- private int sides = 0', '- public string Name'].join('\n'));
      expect(shape?.methods).toBe(
        [
          '- public Shape()',
          '- public Shape(int sides)',
          '- public Shape(string name, int sides) : this(sides)',
          '- public virtual double Area(double scale, bool round = false)',
          '- public abstract void Render()',
        ].join('\n'),
      );
      expect(shape?.body.startsWith('[Serializable]\n')).toBe(true);
      const [person] = await db.queryClass('Person');
      expect(person?.fields).toBe('- string First\n- string Last');
      expect(person?.methods).toBe('- public string Full()');
      const [color] = await db.queryClass('Color');
      expect(color?.fields).toBe('- Red\n- Green');
      expect(color?.methods).toBeUndefined();
      const [iface] = await db.queryClass('IShape');
      expect(iface?.fields).toBeUndefined();
      expect(iface?.methods).toBe('- double Area()\n- void Draw()');
      const [counter] = await db.queryClass('Counter');
      // The multi-line initializer of `limits` is left out of its line.
      expect(counter?.fields).toBe(['- private int count', '- private readonly int[] limits', '- public int Count'].join('\n'));
      expect(counter?.methods).toBe(
        ['- public static Counter operator +(Counter a, Counter b)', '- public static implicit operator int(Counter c)', '- ~Counter()'].join('\n'),
      );
      const ctors = await db.queryFunction('Shape', 'class_method');
      expect(ctors.map((c) => c.startLine)).toEqual([13, 15, 20]);
      const [local] = await db.queryFunction('Twice');
      expect(local?.parentFunction).toBe('Square');
      expect(local?.body).toBe('double Twice(double y) => y * 2;');
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside an ERROR region', async () => {
    const { rows, db } = await extractRows('Broken.cs', fixture('csharp/Broken.cs'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(1);
      // The unterminated string turns class Broken into an ERROR node: its method survives as a
      // function with no class, `Good` is swallowed, and everything after the region is intact.
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '1-4' },
        { kind: 'method', name: 'Ok', lines: '3-3', parent: 'Before' },
        { kind: 'function', name: 'Bad', lines: '8-11' },
        { kind: 'class', name: 'After', lines: '13-16' },
        { kind: 'method', name: 'Fine', lines: '15-15', parent: 'After' },
      ]);
    } finally {
      db.close();
    }
  });
});
