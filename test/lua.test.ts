import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('lua visitor', () => {
  it('extracts table methods, local, global and assigned functions with exact ranges', async () => {
    const { rows, db } = await extractRows('shapes.lua', fixture('lua/shapes.lua'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'method', name: 'new', lines: '4-12', parent: 'Shape' },
        // Nested functions have the method around them as parentFunction.
        { kind: 'function', name: 'validate', lines: '7-9', parent: 'new' },
        { kind: 'method', name: 'area', lines: '14-20', parent: 'Shape' },
        { kind: 'function', name: 'square', lines: '15-18', parent: 'area' },
        { kind: 'function', name: 'inner', lines: '16-16', parent: 'square' },
        // `function a.b.c:f()`: the parent is the whole table expression.
        { kind: 'method', name: 'click', lines: '22-24', parent: 'ui.widgets.button' },
        { kind: 'function', name: 'helper', lines: '26-28' },
        { kind: 'function', name: 'global_helper', lines: '30-30' },
        // Assigned anonymous functions span their whole statement (from `local`).
        { kind: 'function', name: 'format', lines: '32-35' },
        { kind: 'function', name: 'pad', lines: '33-33', parent: 'format' },
        { kind: 'method', name: 'describe', lines: '37-39', parent: 'Shape' },
        // A function in a table constructor bound to `handlers`: a method of that table.
        { kind: 'method', name: 'on_load', lines: '42-42', parent: 'handlers' },
      ]);
    } finally {
      db.close();
    }
  });

  it('records no classes; methods are found by name with their table as class', async () => {
    const { db } = await extractRows('shapes.lua', fixture('lua/shapes.lua'));
    try {
      expect(await db.queryClass('Shape')).toEqual([]);
      expect(db.stats().classes).toBe(0);
      const [click] = await db.queryFunction('click', 'class_method');
      expect(click?.parentClass).toBe('ui.widgets.button');
      expect(click?.body).toBe('function ui.widgets.button:click(x, y)\n  return x + y\nend');
      const [area] = await db.queryFunction('area', 'class_method');
      expect(area?.body.startsWith('function Shape:area()')).toBe(true);
      // Methods are not plain functions.
      expect(await db.queryFunction('area')).toEqual([]);
      expect(await db.queryFunction('on_load')).toEqual([]);
      const [onLoad] = await db.queryFunction('on_load', 'class_method');
      expect(onLoad).toMatchObject({ parentClass: 'handlers', body: 'on_load = function() end' });
      const [format] = await db.queryFunction('format');
      expect(format?.body.startsWith('local format = function(value)')).toBe(true);
    } finally {
      db.close();
    }
  });

  it('indexes functions in table constructors by their key, as methods of the table they are bound to', async () => {
    const { rows, db } = await extractRows('tables.lua', fixture('lua/tables.lua'));
    try {
      expect(rows).toEqual([
        { kind: 'method', name: 'greet', lines: '2-5', parent: 'M' },
        { kind: 'function', name: 'shout', lines: '3-3', parent: 'greet' },
        // A nested constructor: the table expression as written, like `function M.util.trim()`.
        { kind: 'method', name: 'trim', lines: '7-7', parent: 'M.util' },
        // `["quoted"] = function` and a positional function have no name to search for.
        { kind: 'method', name: 'run', lines: '13-13', parent: 'M.sub' },
        // A constructor bound to no name (an argument): a plain function.
        { kind: 'function', name: '__call', lines: '16-18' },
      ]);
      expect((await db.queryFunction('__call'))[0]?.body).toBe('__call = function(self, ...)\n    return M.greet(...)\n  end');
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside an ERROR region', async () => {
    const { rows, db } = await extractRows('broken.lua', fixture('lua/broken.lua'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(1);
      // The missing `end` turns `broken` into an ERROR region; the functions around it survive.
      expect(rows).toEqual([
        { kind: 'function', name: 'before', lines: '1-3' },
        { kind: 'function', name: 'after', lines: '9-11' },
      ]);
    } finally {
      db.close();
    }
  });
});
