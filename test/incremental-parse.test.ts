// Incremental re-parsing: a kept syntax tree, edited to the new text, must yield exactly the rows
// a fresh parse yields, whatever the edit (inside a token, across lines, breaking the syntax,
// around surrogate pairs). Text with syntax errors is parsed afresh (seed -1309926107 found a
// TypeScript edit whose incremental error recovery lost a definition a fresh parse finds).
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Volume } from 'memfs';
import { CKGDatabase, createDefaultRegistry, type FileProcessor, type FileSystem, type LanguageDefinition } from '../src/index.js';
import { KEEP_TREES_UP_TO_FILES } from '../src/indexer/indexer.js';
import { createWorkerPool } from '../src/node/index.js';
import { extractSource, type ExtractedFile } from '../src/parser/extract.js';
import { ParserPool, textEdit } from '../src/parser/runtime.js';

const registry = createDefaultRegistry();
const fixtures = new URL('./fixtures/', import.meta.url);

/** Every fixture file with its language: real sources of every built-in grammar. */
const samples: { path: string; language: LanguageDefinition; source: string }[] = [];
for (const dir of readdirSync(fixtures)) {
  for (const name of readdirSync(new URL(`${dir}/`, fixtures))) {
    const language = registry.forPath(name);
    if (language) samples.push({ path: `/src/${dir}/${name}`, language, source: readFileSync(new URL(`${dir}/${name}`, fixtures), 'utf8') });
  }
}

/** Rows without the `incremental` flag: what must not depend on how the tree was made. */
function rowsOf(file: ExtractedFile): Omit<ExtractedFile, 'incremental'> {
  const { incremental: _incremental, ...rest } = file;
  return rest;
}

/** Text an edit may insert: code-like pieces, line breaks, non-ASCII and astral characters. */
const insertion = fc.oneof(
  fc.constantFrom('\n', '\n\n', '(', ')', '{', '}', ':', ';', ' ', '    ', '"', "'", '#', '//', '/*', '*/', 'é', '🐍', '\u{1F600}x'),
  fc.constantFrom('def f(x):\n    return x\n', 'int g(void) { return 1; }\n', 'class K:\n    pass\n', 'function h() {}\n', 'fn k() {}\n', 'func m() {}\n'),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

/** One edit as fractions of the current length: where, how much to delete, what to insert. */
const editArb = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), span: fc.double({ min: 0, max: 0.2, noNaN: true }), text: insertion });

function applyEdit(source: string, edit: { at: number; span: number; text: string }): string {
  const start = Math.floor(edit.at * source.length);
  const end = Math.min(source.length, start + Math.floor(edit.span * source.length));
  return source.slice(0, start) + edit.text + source.slice(end);
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;

describe('textEdit', () => {
  it('describes exactly the replaced span, with consistent positions, never inside a surrogate pair', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'é', '😀', '😁', '\ud83d'), maxLength: 30 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const e = textEdit(before, after);
        expect(before.slice(0, e.startIndex)).toBe(after.slice(0, e.startIndex));
        expect(before.slice(e.oldEndIndex)).toBe(after.slice(e.newEndIndex));
        expect(before.slice(0, e.startIndex) + after.slice(e.startIndex, e.newEndIndex) + before.slice(e.oldEndIndex)).toBe(after);
        const point = (s: string, i: number) => {
          const lines = s.slice(0, i).split('\n');
          return { row: lines.length - 1, column: lines[lines.length - 1]!.length };
        };
        expect(e.startPosition).toEqual(point(before, e.startIndex));
        expect(e.oldEndPosition).toEqual(point(before, e.oldEndIndex));
        expect(e.newEndPosition).toEqual(point(after, e.newEndIndex));
        // A pair '😀' -> '😁' shares its high surrogate: the edit must start before it.
        if (e.startIndex > 0) expect(isHigh(before.charCodeAt(e.startIndex - 1)) && !isHigh(before.charCodeAt(e.startIndex))).toBe(false);
      }),
      { numRuns: 500 },
    );
    const smile = textEdit('x😀y', 'x😁y');
    expect([smile.startIndex, smile.oldEndIndex, smile.newEndIndex]).toEqual([1, 3, 3]);
  });
});

describe('incremental re-parse', () => {
  const reusing = new ParserPool();
  const fresh = new ParserPool();
  afterAll(async () => {
    await reusing.delete();
    await fresh.delete();
  });

  it(`yields the rows of a fresh parse after random edit sequences, in every grammar (${samples.length} fixture files)`, async () => {
    expect(new Set(samples.map((s) => s.language.id)).size).toBeGreaterThanOrEqual(15);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat(samples.length - 1), fc.array(editArb, { minLength: 1, maxLength: 6 }), async (pick, edits) => {
        const { language, source } = samples[pick]!;
        const path = `${samples[pick]!.path}#${run++}`; // a key no earlier run kept a tree for
        let text = source;
        const first = await extractSource(reusing, language, text, { key: path, keep: true });
        expect(first.incremental).toBeUndefined();
        for (const edit of edits) {
          text = applyEdit(text, edit);
          const got = await extractSource(reusing, language, text, { key: path, keep: true });
          // Text with syntax errors is parsed afresh: error recovery from an old tree may differ.
          const check = await fresh.parse(language, text);
          const hasError = check.rootNode.hasError;
          check.delete();
          expect(got.incremental).toBe(hasError ? undefined : true);
          expect(rowsOf(got)).toEqual(await extractSource(fresh, language, text));
        }
      }),
      { numRuns: 120 },
    );
  });

  it('parses text with syntax errors afresh: incremental error recovery lost a definition a fresh parse finds', async () => {
    const sample = samples.find((s) => s.path.endsWith('/typescript/call-made.ts'))!;
    const own = new ParserPool();
    try {
      await extractSource(own, sample.language, sample.source, { key: 'k', keep: true });
      let text = sample.source;
      const flags: (boolean | undefined)[] = [];
      for (const prefix of ['0(A', '?', '']) {
        text = prefix + text;
        const got = await extractSource(own, sample.language, text, { key: 'k', keep: true });
        expect(rowsOf(got)).toEqual(await extractSource(fresh, sample.language, text));
        flags.push(got.incremental);
      }
      // A fresh parse of `?0(A` + the file finds `map`; the incremental one did not.
      expect((await extractSource(fresh, sample.language, text)).functions.map((f) => f.name)).toContain('map');
      expect(flags).toEqual([undefined, undefined, undefined]);
    } finally {
      await own.delete();
    }
  });

  it('keeps a bounded number of trees, drops a tree when the key changes language, frees all on delete', async () => {
    const pool = new ParserPool({}, { keptTrees: 2, keptChars: 200 });
    const python = registry.get('python')!;
    const c = registry.get('c')!;
    try {
      await extractSource(pool, python, 'def a(): pass\n', { key: '/a.py', keep: true });
      await extractSource(pool, python, 'def b(): pass\n', { key: '/b.py', keep: true });
      await extractSource(pool, python, 'def c(): pass\n', { key: '/c.py', keep: true });
      expect(pool.keptTrees).toBe(2); // '/a.py' went first
      expect((await extractSource(pool, python, 'def a2(): pass\n', { key: '/a.py' })).incremental).toBeUndefined();
      expect((await extractSource(pool, python, 'def b2(): pass\n', { key: '/b.py' })).incremental).toBe(true);
      expect(pool.keptTrees).toBe(1); // used without `keep`: dropped
      // Over the character budget: not kept.
      await extractSource(pool, python, `x = "${'y'.repeat(300)}"\n`, { key: '/big.py', keep: true });
      expect((await extractSource(pool, python, 'x = 1\n', { key: '/big.py' })).incremental).toBeUndefined();
      // Same key, another language: a fresh parse.
      await extractSource(pool, python, 'def d(): pass\n', { key: '/d', keep: true });
      const asC = await extractSource(pool, c, 'int d(void) { return 0; }\n', { key: '/d', keep: true });
      expect(asC.incremental).toBeUndefined();
      expect(asC.functions.map((f) => f.name)).toEqual(['d']);
    } finally {
      await pool.delete();
    }
    expect(pool.keptTrees).toBe(0);
  });
});

describe('worker pool', () => {
  it('sends a file whose tree a worker kept back to that worker, and its rows match a fresh parse', async () => {
    const pool = createWorkerPool({ size: 2, workerUrl: new URL('./helpers/workers/source-worker.mjs', import.meta.url) });
    const local = new ParserPool();
    const python = registry.get('python')!;
    try {
      const v1 = 'class A:\n    def m(self):\n        return 1\n';
      const v2 = `${v1}\ndef added():\n    return 2\n`;
      const v3 = v2.replace('return 1', 'return "é🐍"');
      expect((await pool.process(python, v1, '/p/a.py', { keepTree: true })).incremental).toBeUndefined();
      // Another file in between: round-robin alone would now pick the other worker.
      await pool.process(python, 'def other(): pass\n', '/p/b.py');
      for (const text of [v2, v3]) {
        const got = await pool.process(python, text, '/p/a.py', { keepTree: true });
        expect(got.incremental).toBe(true);
        expect(rowsOf(got)).toEqual(await extractSource(local, python, text));
      }
      // Without keepTree the kept tree is used once more, then dropped.
      expect((await pool.process(python, v1, '/p/a.py')).incremental).toBe(true);
      expect((await pool.process(python, v2, '/p/a.py')).incremental).toBeUndefined();
    } finally {
      await pool.close();
      await local.delete();
    }
  });
});

describe('updates', () => {
  it('ask the processor to keep trees only in small updates, and re-parse an edited file incrementally', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < KEEP_TREES_UP_TO_FILES + 4; i++) files[`/repo/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
    const vol = Volume.fromJSON(files);
    const fs = vol as unknown as FileSystem;
    const local = new ParserPool();
    const calls: { path: string; keepTree: boolean; incremental: boolean }[] = [];
    const processor: FileProcessor = {
      async process(language, source, path, options) {
        const file = await extractSource(local, language, source, { key: path, keep: options?.keepTree === true });
        calls.push({ path, keepTree: options?.keepTree === true, incremental: file.incremental === true });
        return file;
      },
    };
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs, processor });
    try {
      expect(calls).toHaveLength(KEEP_TREES_UP_TO_FILES + 4);
      expect(calls.some((c) => c.keepTree)).toBe(false); // a full build keeps no tree
      for (const round of [1, 2]) {
        calls.length = 0;
        vol.writeFileSync('/repo/m0.py', `def f0():\n    return 0\n${'\ndef more():\n    pass\n'.repeat(round)}`);
        await db.update({ paths: ['/repo/m0.py'] });
        expect(calls).toEqual([{ path: '/repo/m0.py', keepTree: true, incremental: round === 2 }]);
        expect((await db.queryFunction('more')).length).toBe(round);
      }
    } finally {
      db.close();
      await local.delete();
    }
  });
});
