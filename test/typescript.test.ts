import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { typescript } from '../src/languages/index.js';
import { rewriteTypeScriptSource } from '../src/languages/ecmascript.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('typescript visitor', () => {
  it('extracts every function, class-like and method form with exact ranges and parents', async () => {
    const { rows, db } = await extractRows('shapes.ts', fixture('typescript/shapes.ts'));
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'parseConfig', lines: '4-10' },
        { kind: 'function', name: 'splitLine', lines: '5-8', parent: 'parseConfig' },
        { kind: 'function', name: 'walk', lines: '12-14' },
        // Bound functions span their declaration statement (`export` outside)...
        { kind: 'function', name: 'area', lines: '16-16' },
        { kind: 'function', name: 'scale', lines: '18-20' },
        { kind: 'function', name: 'loadShape', lines: '22-25' },
        { kind: 'function', name: 'normalize', lines: '23-23', parent: 'loadShape' },
        // ...or their declarator when the statement declares two names.
        { kind: 'function', name: 'first', lines: '27-27' },
        { kind: 'function', name: 'second', lines: '27-29' },
        // `@sealed` (line 31) is written before `export`: outside the class node.
        { kind: 'class', name: 'Shape', lines: '32-79' },
        { kind: 'method', name: 'constructor', lines: '38-40', parent: 'Shape' },
        { kind: 'method', name: 'label', lines: '42-44', parent: 'Shape' },
        { kind: 'method', name: 'label', lines: '46-48', parent: 'Shape' },
        { kind: 'method', name: '#rotate', lines: '50-52', parent: 'Shape' },
        // The TS grammar puts member decorators (`@memoize`, line 54) beside the member.
        { kind: 'method', name: 'vertices', lines: '55-57', parent: 'Shape' },
        // Two overload signatures (59, 60) then the implementation: one row.
        { kind: 'method', name: 'resize', lines: '61-63', parent: 'Shape' },
        { kind: 'method', name: 'onClick', lines: '65-67', parent: 'Shape' },
        { kind: 'method', name: 'describe', lines: '69-78', parent: 'Shape' },
        // An object-literal method inside a method is nested in it, not a method of Shape.
        { kind: 'function', name: 'format', lines: '73-75', parent: 'describe' },
        { kind: 'class', name: 'Base', lines: '81-87' },
        { kind: 'method', name: 'render', lines: '82-82', parent: 'Base' },
        { kind: 'method', name: 'size', lines: '83-83', parent: 'Base' },
        { kind: 'method', name: 'describe', lines: '84-86', parent: 'Base' },
        { kind: 'class', name: 'Drawable', lines: '89-93' },
        { kind: 'method', name: 'draw', lines: '91-91', parent: 'Drawable' },
        { kind: 'method', name: 'bounds', lines: '92-92', parent: 'Drawable' },
        { kind: 'class', name: 'Point', lines: '95-100' },
        { kind: 'method', name: 'move', lines: '97-99', parent: 'Point' },
        { kind: 'class', name: 'Color', lines: '102-105' },
        // A function inside a namespace is a plain function.
        { kind: 'function', name: 'distance', lines: '108-110' },
        { kind: 'function', name: 'overloaded', lines: '115-117' },
        { kind: 'function', name: 'external', lines: '119-119' },
        // Top-level object-literal methods and function-valued keys are functions.
        { kind: 'function', name: 'register', lines: '122-124' },
        { kind: 'function', name: 'lookup', lines: '125-125' },
        // `export default class { hidden() {} }` has no name: neither it nor `hidden` is indexed.
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises methods as one-line signatures and fields without `;`, for classes, abstract classes, interfaces, class expressions and enums', async () => {
    const { db } = await extractRows('shapes.ts', fixture('typescript/shapes.ts'));
    try {
      const [shape] = await db.queryClass('Shape');
      expect(shape?.fields).toBe(['- static count = 0', '- readonly name: string', '- #secret = 42', '- private sides: number = 0'].join('\n'));
      expect(shape?.methods).toBe(
        [
          '- constructor(name: string)',
          '- get label(): string',
          '- set label(value: string)',
          '- #rotate(deg: number): void',
          '- *vertices(): Generator<number>',
          '- resize(by: number | string): void',
          '- onClick = (event: MouseEvent): void =>',
          '- async describe(verbose: boolean,): Promise<string>',
        ].join('\n'),
      );
      expect(shape?.body.startsWith('class Shape {')).toBe(true);

      const [base] = await db.queryClass('Base');
      expect(base?.fields).toBeUndefined();
      expect(base?.methods).toBe(['- abstract render(item: T): string', '- protected abstract get size(): number', '- describe(): string'].join('\n'));
      expect(base?.body.startsWith('abstract class Base<T> {')).toBe(true);

      const [drawable] = await db.queryClass('Drawable');
      expect(drawable?.fields).toBe('- color: string');
      expect(drawable?.methods).toBe(['- draw(ctx: CanvasRenderingContext2D): void', '- bounds?(): [number, number]'].join('\n'));

      const [point] = await db.queryClass('Point');
      expect(point?.body.startsWith('const Point = class {')).toBe(true);
      expect(point?.fields).toBe('- x = 0');
      expect(point?.methods).toBe('- move(dx: number)');

      const [color] = await db.queryClass('Color');
      expect(color?.fields).toBe(['- Red', "- Green = 'green'"].join('\n'));
      expect(color?.methods).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('keeps bodies of bound functions from the declaration keyword and separates functions from class methods', async () => {
    const { db } = await extractRows('shapes.ts', fixture('typescript/shapes.ts'));
    try {
      const [loadShape] = await db.queryFunction('loadShape');
      expect(loadShape?.body.startsWith('const loadShape = async (id: string) => {')).toBe(true);
      expect(loadShape?.body.endsWith('};')).toBe(true);
      const [scale] = await db.queryFunction('scale');
      expect(scale?.body.startsWith('let scale = function (value: number, by: number) {')).toBe(true);
      expect(await db.queryFunction('describe')).toEqual([]);
      const describes = await db.queryFunction('describe', 'class_method');
      expect(describes.map((d) => [d.parentClass, d.startLine])).toEqual([['Shape', 69], ['Base', 84]]);
      expect((await db.queryFunction('format'))[0]?.parentFunction).toBe('describe');
      expect(await db.queryFunction('format', 'class_method')).toEqual([]);
      expect(await db.queryFunction('hidden', 'class_method')).toEqual([]);
      expect(await db.queryFunction('hidden')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('indexes declaration files: signatures without an implementation are definitions, overloads included', async () => {
    const { rows, db } = await extractRows('ambient.d.ts', fixture('typescript/ambient.d.ts'));
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'parse', lines: '2-2' },
        { kind: 'function', name: 'parse', lines: '3-3' },
        { kind: 'function', name: 'clear', lines: '6-6' },
        { kind: 'class', name: 'Entry', lines: '7-10' },
        { kind: 'method', name: 'touch', lines: '9-9', parent: 'Entry' },
        { kind: 'class', name: 'Store', lines: '13-18' },
        { kind: 'method', name: 'constructor', lines: '15-15', parent: 'Store' },
        { kind: 'method', name: 'get', lines: '16-16', parent: 'Store' },
        { kind: 'method', name: 'get', lines: '17-17', parent: 'Store' },
      ]);
      const [store] = await db.queryClass('Store');
      expect(store?.fields).toBe('- private items');
      expect(store?.methods).toBe(['- constructor(seed: T[])', '- get(index: number): T', '- get(index: number, fallback: T): T'].join('\n'));
    } finally {
      db.close();
    }
  });

  it('parses variance annotations (`<out A>`, `<in out A>`), which tree-sitter-typescript 0.23 cannot, through the rewrite', async () => {
    const { rows, db } = await extractRows('variance.ts', fixture('typescript/variance.ts'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'function', name: 'beforeVariance', lines: '1-3' },
        { kind: 'class', name: 'Producer', lines: '5-7' },
        { kind: 'method', name: 'produce', lines: '6-6', parent: 'Producer' },
        { kind: 'class', name: 'Channel', lines: '9-11' },
        { kind: 'method', name: 'send', lines: '10-10', parent: 'Channel' },
        { kind: 'class', name: 'AfterVariance', lines: '13-15' },
        { kind: 'method', name: 'run', lines: '14-14', parent: 'AfterVariance' },
        { kind: 'function', name: 'afterArrow', lines: '17-17' },
      ]);
      // Bodies are the original text, variance keywords included.
      expect((await db.queryClass('Channel'))[0]?.body).toBe('interface Channel<in out A> {\n  send(value: A): void;\n}');
    } finally {
      db.close();
    }
  });
});

describe('typescript: grammar gaps and call-made functions', () => {
  it('keeps every definition around the three shapes the grammar cannot parse', async () => {
    const source = fixture('typescript/grammar-gaps.ts');
    const { rows, db } = await extractRows('grammar-gaps.ts', source);
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'class', name: 'Stream', lines: '2-5' },
        { kind: 'method', name: 'pipe', lines: '4-4', parent: 'Stream' },
        // `class<in E>`: variance on a class expression's parameters.
        { kind: 'class', name: 'Filter', lines: '7-11' },
        { kind: 'method', name: 'constructor', lines: '8-10', parent: 'Filter' },
        // Generic call signatures on their own lines, after a doc comment, over several lines.
        { kind: 'class', name: 'Dual', lines: '14-24' },
        // After a template literal type holding escaped backticks.
        { kind: 'function', name: 'afterGaps', lines: '30-32' },
      ]);
      expect((await db.queryClass('Stream'))[0]?.body.startsWith('interface Stream<out A, out E = never, in R = never> {')).toBe(true);
      // The rewritten text never reaches rows: the interface summary is the source's.
      expect((await db.queryClass('Stream'))[0]?.fields).toBe('- readonly [TypeId]: Variance<A, E, R>');
    } finally {
      db.close();
    }
    // Without the rewrite the grammar loses the interfaces and the function after them.
    const pool = new ParserPool();
    try {
      const plain = await extractSource(pool, { ...typescript, id: 'typescript_plain', rewriteSource: undefined }, source);
      expect(plain.hasSyntaxErrors).toBe(true);
      expect(plain.functions.map((f) => f.name)).not.toContain('afterGaps');
    } finally {
      await pool.delete();
    }
  });

  it('rewrites each gap with its offsets kept', () => {
    const cases: [string, string][] = [
      ['interface S<in out A, out B = never> {}', 'interface S<       A,     B = never> {}'],
      ['interface T<out extends string> {}', 'interface T<out extends string> {}'],
      ['type D = {\n  (a: A): B\n  <C>(c: C): C\n}', 'type D = {\n  (a: A): B\n ;<C>(c: C): C\n}'],
      ['type F = {\n  x: (a: A) =>\n    <C>(c: C) => C\n}', 'type F = {\n  x: (a: A) =>\n    <C>(c: C) => C\n}'],
      ['type M = `a\\`b`', 'type M = `a__b`'],
    ];
    for (const [input, expected] of cases) {
      expect(rewriteTypeScriptSource(input)).toBe(expected);
      expect(expected.length).toBe(input.length);
    }
    const untouched = 'export function f(): number { return 1 }\n';
    expect(rewriteTypeScriptSource(untouched)).toBe(untouched);
  });

  it('indexes module-scope consts made by a call from a function literal as functions', async () => {
    const { rows, db } = await extractRows('call-made.ts', fixture('typescript/call-made.ts'));
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'map', lines: '4-12' },
        { kind: 'function', name: 'helper', lines: '8-10', parent: 'map' },
        { kind: 'function', name: 'Button', lines: '14-16' },
        // The named function expression inside (`function Card`) is the same definition.
        { kind: 'function', name: 'Card', lines: '18-20' },
        { kind: 'function', name: 'run', lines: '22-24' },
        { kind: 'function', name: 'impl', lines: '26-28' },
        { kind: 'function', name: 'checked', lines: '30-30' },
        // `config` is a call without a function literal; `sum` is local to `total`.
        { kind: 'function', name: 'make', lines: '35-35' },
        { kind: 'function', name: 'total', lines: '38-41' },
        { kind: 'class', name: 'Service', lines: '43-47' },
        // A member typed as a function is a method; a construct signature is `new`.
        { kind: 'method', name: 'lookup', lines: '44-44', parent: 'Service' },
        { kind: 'method', name: 'new', lines: '46-46', parent: 'Service' },
      ]);
      const [map] = await db.queryFunction('map');
      expect(map?.body.startsWith('const map: {\n  <A, B>(f: (a: A) => B)')).toBe(true);
      expect((await db.queryClass('Service'))[0]?.methods).toBe('- readonly lookup: <K>(key: K) => Effect<string>\n- new (options: Options): Service');
      expect((await db.queryClass('Service'))[0]?.fields).toBe('- readonly name: string');
    } finally {
      db.close();
    }
  });

  it('re-parses a rewritten file incrementally to the rows of a fresh parse', async () => {
    const reusing = new ParserPool();
    const fresh = new ParserPool();
    try {
      const before = 'interface Box<A> {\n  get(): A\n}\n';
      const after = 'interface Box<out A> {\n  get(): A\n}\nexport const mapBox = dual(2, (b: Box<number>) => b)\n';
      await extractSource(reusing, typescript, before, { key: '/src/box.ts', keep: true });
      const incremental = await extractSource(reusing, typescript, after, { key: '/src/box.ts', keep: true });
      expect(incremental.incremental).toBe(true);
      const { incremental: _flag, ...rows } = incremental;
      expect(rows).toEqual(await extractSource(fresh, typescript, after));
      expect(rows.classes[0]?.body).toBe('interface Box<out A> {\n  get(): A\n}');
      expect(rows.functions.map((f) => f.name)).toEqual(['get', 'mapBox']);
    } finally {
      await reusing.delete();
      await fresh.delete();
    }
  });
});

describe('tsx visitor', () => {
  it('parses .tsx with the TSX grammar: components returning JSX are found and class ranges are whole', async () => {
    const { rows, db } = await extractRows('App.tsx', fixture('tsx/App.tsx'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'function', name: 'App', lines: '3-13' },
        { kind: 'function', name: 'onSave', lines: '4-6', parent: 'App' },
        { kind: 'function', name: 'Header', lines: '15-20' },
        { kind: 'function', name: 'Item', lines: '22-22' },
        { kind: 'class', name: 'Counter', lines: '24-39' },
        { kind: 'method', name: 'increment', lines: '27-29', parent: 'Counter' },
        { kind: 'method', name: 'render', lines: '31-38', parent: 'Counter' },
        { kind: 'function', name: 'Footer', lines: '41-43' },
      ]);
      const [counter] = await db.queryClass('Counter');
      // No bogus field made of JSX fragments: the only field is `state`.
      expect(counter?.fields).toBe('- state = { n: this.props.start }');
      expect(counter?.methods).toBe(['- increment = () =>', '- render()'].join('\n'));
    } finally {
      db.close();
    }
  });
});

describe('typescript registration', () => {
  it('maps .ts/.mts/.cts to typescript and .tsx to tsx, with their own grammars', () => {
    const registry = createDefaultRegistry();
    expect(['a.ts', 'a.mts', 'a.cts', 'a.d.ts', 'a.tsx'].map((p) => registry.forPath(`/r/${p}`)?.id)).toEqual(['typescript', 'typescript', 'typescript', 'typescript', 'tsx']);
    expect(registry.get('typescript')?.grammar).toBe('tree-sitter-typescript.wasm');
    expect(registry.get('tsx')?.grammar).toBe('tree-sitter-tsx.wasm');
    expect(registry.get('tsx')?.grammarPackage).toEqual({ name: 'tree-sitter-typescript', version: '0.23.2' });
  });

  it('indexes .mts and .cts files', async () => {
    for (const file of ['mod.mts', 'mod.cts']) {
      const { rows, db } = await extractRows(file, 'export const run = (): number => 1;\nexport class Job {}\n');
      try {
        expect(rows).toEqual([
          { kind: 'function', name: 'run', lines: '1-1' },
          { kind: 'class', name: 'Job', lines: '2-2' },
        ]);
      } finally {
        db.close();
      }
    }
  });
});
