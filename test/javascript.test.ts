import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('javascript visitor', () => {
  it('extracts every function, class and method form with exact ranges and parents', async () => {
    const { rows, db } = await extractRows('widgets.js', fixture('javascript/widgets.js'));
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'createWidget', lines: '4-9' },
        { kind: 'function', name: 'validate', lines: '5-7', parent: 'createWidget' },
        { kind: 'function', name: 'ids', lines: '11-14' },
        { kind: 'function', name: 'debounce', lines: '16-24' },
        // Anonymous callbacks are transparent: `fire` is nested in `debounce`.
        { kind: 'function', name: 'fire', lines: '20-22', parent: 'debounce' },
        { kind: 'function', name: 'legacy', lines: '26-28' },
        { kind: 'class', name: 'Widget', lines: '30-65' },
        { kind: 'method', name: 'constructor', lines: '35-38', parent: 'Widget' },
        { kind: 'method', name: 'id', lines: '40-42', parent: 'Widget' },
        { kind: 'method', name: '#log', lines: '44-46', parent: 'Widget' },
        { kind: 'method', name: 'handle', lines: '48-50', parent: 'Widget' },
        { kind: 'method', name: 'stream', lines: '52-54', parent: 'Widget' },
        // The JS grammar puts member decorators inside the member: `@bound` (line 56) is in range.
        { kind: 'method', name: 'render', lines: '56-64', parent: 'Widget' },
        { kind: 'function', name: 'draw', lines: '59-61', parent: 'render' },
        { kind: 'class', name: 'Panel', lines: '67-71' },
        { kind: 'method', name: 'open', lines: '68-70', parent: 'Panel' },
        // Assigned functions are named after the last property.
        { kind: 'function', name: 'helper', lines: '73-75' },
        { kind: 'function', name: 'reset', lines: '77-79' },
        { kind: 'function', name: 'click', lines: '82-84' },
        { kind: 'function', name: 'hover', lines: '85-85' },
        // `register(class { ignored() {} })`: anonymous class, nothing indexed.
      ]);
    } finally {
      db.close();
    }
  });

  it('lists JS class fields (field_definition) and leaves decorators out of summaries', async () => {
    const { db } = await extractRows('widgets.js', fixture('javascript/widgets.js'));
    try {
      const [widget] = await db.queryClass('Widget');
      expect(widget?.fields).toBe(["- static instances = 0", '- #id', "- label = 'widget'"].join('\n'));
      expect(widget?.methods).toBe(
        ['- constructor(name)', '- get id()', '- #log(message)', '- handle = (event) =>', '- async *stream()', '- render()'].join('\n'),
      );
      const [panel] = await db.queryClass('Panel');
      expect(panel?.body.startsWith('const Panel = class extends Widget {')).toBe(true);
      expect(panel?.fields).toBeUndefined();
      expect(panel?.methods).toBe('- open()');
      expect(await db.queryFunction('draw', 'class_method')).toEqual([]);
      expect(await db.queryFunction('ignored', 'class_method')).toEqual([]);
      const [reset] = await db.queryFunction('reset');
      expect(reset?.body.startsWith('Widget.prototype.reset = function reset() {')).toBe(true);
    } finally {
      db.close();
    }
  });

  it('parses JSX in .jsx files', async () => {
    const { rows, db } = await extractRows('Card.jsx', fixture('javascript/Card.jsx'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'function', name: 'Card', lines: '1-9' },
        { kind: 'class', name: 'CardList', lines: '11-17' },
        { kind: 'method', name: 'render', lines: '14-16', parent: 'CardList' },
        { kind: 'function', name: 'Empty', lines: '19-19' },
      ]);
      const [list] = await db.queryClass('CardList');
      expect(list?.fields).toBe('- items = []');
      expect(list?.methods).toBe('- render()');
    } finally {
      db.close();
    }
  });

  it('skips object-literal functions with computed keys, keeps string keys without quotes', async () => {
    const source = [
      'const table = {',
      "  [Kind.Call]: function () {},",
      "  'on-save': () => 1,",
      '};',
      'class Bag {',
      '  [Symbol.iterator]() {}',
      '}',
      '',
    ].join('\n');
    const { rows, db } = await extractRows('table.js', source);
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'on-save', lines: '3-3' },
        { kind: 'class', name: 'Bag', lines: '5-7' },
        { kind: 'method', name: '[Symbol.iterator]', lines: '6-6', parent: 'Bag' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('javascript registration', () => {
  it('maps .js/.jsx/.mjs/.cjs to javascript with its grammar', async () => {
    const registry = createDefaultRegistry();
    expect(['a.js', 'a.jsx', 'a.mjs', 'a.cjs'].map((p) => registry.forPath(`/r/${p}`)?.id)).toEqual(['javascript', 'javascript', 'javascript', 'javascript']);
    expect(registry.get('javascript')?.grammarPackage).toEqual({ name: 'tree-sitter-javascript', version: '0.25.0' });
    for (const file of ['mod.mjs', 'mod.cjs']) {
      const { rows, db } = await extractRows(file, 'exports.run = () => 1;\nfunction local() {}\n');
      try {
        expect(rows).toEqual([
          { kind: 'function', name: 'run', lines: '1-1' },
          { kind: 'function', name: 'local', lines: '2-2' },
        ]);
      } finally {
        db.close();
      }
    }
  });
});

describe('javascript: call-made functions', () => {
  it('indexes React components made by forwardRef / memo under their binding', async () => {
    const source = [
      "import React, { memo } from 'react';",
      'export const Button = React.forwardRef((props, ref) => (',
      '  <button ref={ref} {...props} />',
      '));',
      'export const List = memo(function List({ items }) {',
      '  return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;',
      '});',
      'export const theme = createTheme({ dark: true });',
      '',
    ].join('\n');
    const { rows, db } = await extractRows('Button.jsx', source);
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'Button', lines: '2-4' },
        { kind: 'function', name: 'List', lines: '5-7' },
      ]);
      expect((await db.queryFunction('Button'))[0]?.body.startsWith('const Button = React.forwardRef((props, ref) => (')).toBe(true);
    } finally {
      db.close();
    }
  });
});
