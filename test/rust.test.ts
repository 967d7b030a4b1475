import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

const lines = (...items: string[]): string => items.map((l) => `- ${l}`).join('\n');

describe('rust visitor', () => {
  it('is registered for .rs files', () => {
    expect(createDefaultRegistry().forPath('/repo/src/lib.rs')?.id).toBe('rust');
  });

  it('extracts fns, impl and trait methods, nested fns and type items with exact ranges', async () => {
    const { rows, db } = await extractRows('shapes.rs', fixture('rust/shapes.rs'));
    try {
      expect(rows).toEqual([
        // `#[derive]` and the doc comment (lines 4-5) are outside the struct.
        { kind: 'class', name: 'Stack', lines: '6-9' },
        { kind: 'method', name: 'new', lines: '12-14', parent: 'Stack' },
        // `#[inline]` (line 16) is outside; the closure on line 21 has no name.
        { kind: 'method', name: 'push', lines: '17-27', parent: 'Stack' },
        { kind: 'function', name: 'fits', lines: '18-20', parent: 'push' },
        { kind: 'class', name: 'Meters', lines: '30-30' },
        { kind: 'class', name: 'Shape', lines: '32-36' },
        { kind: 'class', name: 'Bits', lines: '39-42' },
        { kind: 'class', name: 'Area', lines: '44-56' },
        { kind: 'method', name: 'area', lines: '48-48', parent: 'Area' },
        { kind: 'method', name: 'describe', lines: '50-55', parent: 'Area' },
        { kind: 'function', name: 'unit', lines: '51-53', parent: 'describe' },
        { kind: 'method', name: 'area', lines: '62-64', parent: 'Shape' },
        { kind: 'method', name: 'fmt', lines: '68-70', parent: 'Stack' },
        { kind: 'method', name: 'from', lines: '74-76', parent: 'Meters' },
        // `mod geometry` is not a class; `extern "C" { fn abs… }` (line 86) declares, not defines.
        { kind: 'function', name: 'origin', lines: '80-82' },
        { kind: 'function', name: 'run', lines: '90-95' },
        { kind: 'class', name: 'Local', lines: '91-91' },
        { kind: 'method', name: 'hidden', lines: '93-93', parent: 'Local' },
        // `impl dyn Area<…>` adds inherent methods to the trait object: the trait's.
        { kind: 'method', name: 'erased', lines: '98-100', parent: 'Area' },
        // `dyn Area + Send + Sync`: the first bound names the type, not the folded list.
        { kind: 'method', name: 'fmt', lines: '104-106', parent: 'Area' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises fields, variants, associated items and the methods of every impl in the file', async () => {
    const { db } = await extractRows('shapes.rs', fixture('rust/shapes.rs'));
    try {
      const [stack] = await db.queryClass('Stack');
      expect(stack?.fields).toBe(lines('items: Vec<T>', 'pub limit: usize'));
      expect(stack?.methods).toBe(
        lines('pub fn new(limit: usize) -> Self', 'pub fn push(&mut self, item: T) -> bool', "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result"),
      );
      expect(stack?.body.startsWith('pub struct Stack<T> {')).toBe(true);
      const [meters] = await db.queryClass('Meters');
      expect(meters?.fields).toBe(lines('0: pub f64', '1: u8'));
      const [shape] = await db.queryClass('Shape');
      expect(shape?.fields).toBe(lines('Circle { radius: f64 }', 'Square(f64)', 'Empty'));
      expect(shape?.methods).toBe(lines('fn area(&self) -> f64'));
      const [bits] = await db.queryClass('Bits');
      expect(bits?.fields).toBe(lines('f: f32', 'i: u32'));
      expect(bits?.methods).toBeUndefined();
      const [area] = await db.queryClass('Area');
      expect(area?.fields).toBe(lines('type Unit', 'const SIDES: usize'));
      expect(area?.methods).toBe(lines('fn area(&self) -> f64', 'fn describe(&self) -> String', 'fn erased(&self) -> bool', "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result"));
      expect(await db.queryClass('geometry')).toEqual([]);
      expect(await db.queryFunction('abs')).toEqual([]);
      const areas = await db.queryFunction('area', 'class_method');
      expect(areas.map((m) => `${m.parentClass}:${m.startLine}`)).toEqual(['Area:48', 'Shape:62']);
      const [fits] = await db.queryFunction('fits');
      expect(fits?.parentFunction).toBe('push');
      expect(fits?.parentClass).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside the ERROR regions of a broken file', async () => {
    const { rows, db } = await extractRows('broken.rs', fixture('rust/broken.rs'));
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '1-3' },
        { kind: 'method', name: 'check', lines: '6-8', parent: 'Before' },
        { kind: 'function', name: 'after', lines: '13-15' },
        { kind: 'class', name: 'Later', lines: '17-19' },
        { kind: 'method', name: 'run', lines: '18-18', parent: 'Later' },
      ]);
    } finally {
      db.close();
    }
  });
});
