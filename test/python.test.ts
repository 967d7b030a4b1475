import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('python visitor', () => {
  it('extracts functions, nested functions, methods and classes with exact ranges', async () => {
    const { rows, db } = await extractRows('shapes.py', fixture('python/shapes.py'));
    try {
      expect(rows).toEqual([
        { kind: 'function', name: 'parse_config', lines: '4-8' },
        { kind: 'function', name: 'helper', lines: '5-6', parent: 'parse_config' },
        { kind: 'function', name: 'fetch', lines: '11-12' },
        { kind: 'class', name: 'Shape', lines: '15-45' },
        { kind: 'method', name: '__init__', lines: '19-20', parent: 'Shape' },
        { kind: 'method', name: 'label', lines: '23-24', parent: 'Shape' },
        { kind: 'method', name: 'area', lines: '27-31', parent: 'Shape' },
        { kind: 'class', name: 'Meta', lines: '33-37' },
        { kind: 'method', name: 'describe', lines: '36-37', parent: 'Meta' },
        { kind: 'method', name: 'refresh', lines: '39-45', parent: 'Shape' },
        { kind: 'function', name: 'inner', lines: '40-44', parent: 'refresh' },
        { kind: 'class', name: 'Local', lines: '41-43' },
        { kind: 'method', name: 'local_method', lines: '42-43', parent: 'Local' },
        { kind: 'class', name: 'Square', lines: '49-51' },
        { kind: 'method', name: 'area', lines: '50-51', parent: 'Square' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises methods with their return types (decorated ones too) and fields, never nested classes', async () => {
    const { db } = await extractRows('shapes.py', fixture('python/shapes.py'));
    try {
      const [shape] = await db.queryClass('Shape');
      expect(shape?.methods).toBe(
        ['- __init__(self, name)', '- label(self) -> str', '- area(self, scale: float = 1.0,) -> float', '- refresh(self)'].join('\n'),
      );
      expect(shape?.fields).toBe(['- sides: int = 0', '- name = "shape"'].join('\n'));
      expect(shape?.body.startsWith('class Shape:')).toBe(true);
      const [square] = await db.queryClass('Square');
      expect(square?.body.startsWith('class Square(Shape):')).toBe(true);
      expect(square?.fields).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
