import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

const lines = (...items: string[]): string => items.map((l) => `- ${l}`).join('\n');

describe('ruby visitor', () => {
  it('is registered for .rb files', () => {
    expect(createDefaultRegistry().forPath('/repo/lib/library.rb')?.id).toBe('ruby');
  });

  it('extracts classes, modules, every kind of def and nested defs with exact ranges', async () => {
    const { rows, db } = await extractRows('library.rb', fixture('ruby/library.rb'));
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Library', lines: '2-52' },
        // attr_reader / attr_accessor (lines 6-7) define nothing.
        { kind: 'class', name: 'Book', lines: '5-47' },
        { kind: 'method', name: 'initialize', lines: '10-13', parent: 'Book' },
        { kind: 'method', name: 'short?', lines: '15-15', parent: 'Book' },
        { kind: 'method', name: 'secret', lines: '17-19', parent: 'Book' },
        { kind: 'method', name: 'build', lines: '21-23', parent: 'Book' },
        // `class << self` is not a class: its methods are Book's.
        { kind: 'method', name: 'registry', lines: '26-28', parent: 'Book' },
        { kind: 'method', name: 'label', lines: '31-31', parent: 'Book' },
        { kind: 'method', name: '==', lines: '33-35', parent: 'Book' },
        { kind: 'method', name: 'title=', lines: '37-39', parent: 'Book' },
        { kind: 'method', name: 'render', lines: '41-46', parent: 'Book' },
        { kind: 'function', name: 'helper', lines: '42-44', parent: 'render' },
        // `class Shelf::Row` has the bare name.
        { kind: 'class', name: 'Row', lines: '49-51' },
        { kind: 'method', name: 'size', lines: '50-50', parent: 'Row' },
        // The reopened class is a second entry.
        { kind: 'class', name: 'Book', lines: '54-56' },
        { kind: 'method', name: 'reopened_method', lines: '55-55', parent: 'Book' },
        { kind: 'method', name: 'boot', lines: '58-60', parent: 'Library' },
        { kind: 'function', name: 'top_level', lines: '62-64' },
      ]);
    } finally {
      db.close();
    }
  });

  it('summarises attr_* and constants as fields and every method of each definition', async () => {
    const { db } = await extractRows('library.rb', fixture('ruby/library.rb'));
    try {
      const books = await db.queryClass('Book');
      expect(books.map((b) => `${b.startLine}-${b.endLine}`)).toEqual(['5-47', '54-56']);
      expect(books[0]?.fields).toBe(lines('attr_reader :title, :pages', 'attr_accessor :shelf', 'MAX_PAGES = 2000'));
      expect(books[0]?.methods).toBe(
        lines(
          'initialize(title, pages = 0)',
          'short?',
          'secret',
          'self.build(**opts)',
          'self.registry',
          'shelf.label',
          '==(other)',
          'title=(value)',
          'render fmt',
        ),
      );
      expect(books[1]?.fields).toBeUndefined();
      expect(books[1]?.methods).toBe(lines('reopened_method'));
      expect(books[1]?.body.startsWith('class Library::Book')).toBe(true);
      const [library] = await db.queryClass('Library');
      expect(library?.fields).toBe(lines('VERSION = "1.0"'));
      // Methods of nested classes are not the module's.
      expect(library?.methods).toBeUndefined();
      expect(await db.queryFunction('title')).toEqual([]);
      expect(await db.queryFunction('shelf', 'class_method')).toEqual([]);
      const [secret] = await db.queryFunction('secret', 'class_method');
      expect(secret?.body).toBe('def secret\n      :hidden\n    end');
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside the ERROR regions of a broken file', async () => {
    const { rows, db } = await extractRows('broken.rb', fixture('ruby/broken.rb'));
    try {
      expect(rows).toEqual([
        { kind: 'class', name: 'Before', lines: '1-5' },
        { kind: 'method', name: 'check', lines: '2-4', parent: 'Before' },
        { kind: 'function', name: 'after', lines: '9-11' },
        { kind: 'class', name: 'Later', lines: '13-15' },
        { kind: 'method', name: 'run', lines: '14-14', parent: 'Later' },
      ]);
    } finally {
      db.close();
    }
  });
});
