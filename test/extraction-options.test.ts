// Extraction options (`functionMacros`) and source rewrites as they travel through an index:
// validated, handed to visitors in this thread and in parse workers, part of every file's
// extractor version (so changing them re-parses), and rewrites that move text rejected.
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, MemoryStorage, createDefaultRegistry, extractorVersionOf, type FileSystem, type LanguageDefinition } from '../src/index.js';
import { c, python } from '../src/languages/index.js';
import { createWorkerPool } from '../src/node/index.js';

const SOURCE = 'PHP_METHOD(Widget, render)\n{\n}\n\nstatic int DEFINE_HANDLER(timer_tick, int, irq)\n{\n\treturn irq;\n}\n';

function codebase(): FileSystem {
  return Volume.fromJSON({ '/src/widget.c': SOURCE, '/src/app.py': 'def main():\n    pass\n' }) as unknown as FileSystem;
}

async function names(db: CKGDatabase): Promise<string[]> {
  const out: string[] = [];
  for (const name of ['Widget', 'render', 'DEFINE_HANDLER', 'timer_tick']) if ((await db.queryFunction(name)).length > 0) out.push(name);
  return out;
}

describe('functionMacros', () => {
  it('reaches the visitor, in this thread and in parse workers', async () => {
    const fs = codebase();
    const plain = await CKGDatabase.open({ codebasePath: '/src', fs });
    const local = await CKGDatabase.open({ codebasePath: '/src', fs, functionMacros: ['PHP_METHOD:2', 'DEFINE_*'] });
    const pool = createWorkerPool({ size: 1, workerUrl: new URL('./helpers/workers/source-worker.mjs', import.meta.url) });
    try {
      const pooled = await CKGDatabase.open({ codebasePath: '/src', fs, functionMacros: ['PHP_METHOD:2', 'DEFINE_*'], processor: pool });
      try {
        expect(await names(plain)).toEqual(['Widget', 'DEFINE_HANDLER']);
        expect(await names(local)).toEqual(['render', 'timer_tick']);
        expect(await names(pooled)).toEqual(['render', 'timer_tick']);
      } finally {
        pooled.close();
      }
    } finally {
      plain.close();
      local.close();
      await pool.close();
    }
  });

  it('is part of every file extractor version: bytes built with other macros are re-parsed, all files', async () => {
    const fs = codebase();
    const first = await CKGDatabase.open({ codebasePath: '/src', fs });
    const bytes = first.export();
    first.close();
    const same = await CKGDatabase.fromBytes(bytes, { codebasePath: '/src', fs });
    try {
      expect(same.origin).toBe('storage');
    } finally {
      same.close();
    }
    const other = await CKGDatabase.fromBytes(bytes, { codebasePath: '/src', fs, functionMacros: ['PHP_METHOD:2'] });
    try {
      expect(other.origin).toBe('updated');
      expect(other.report).toMatchObject({ filesParsed: 2, filesReused: 0 });
      expect(await names(other)).toEqual(['render', 'DEFINE_HANDLER']);
    } finally {
      other.close();
    }
    // Defaults keep the plain versions: an index without options is not re-parsed by this change.
    expect(extractorVersionOf(python, {})).toBe(`${python.version}+tree-sitter-python@${python.grammarPackage!.version}`);
    expect(extractorVersionOf(c, { functionMacros: [] })).toBe(extractorVersionOf(c));
    expect(extractorVersionOf(c, { functionMacros: ['B', 'A'] })).toBe(extractorVersionOf(c, { functionMacros: ['A', 'B', 'A'] }));
    expect(extractorVersionOf(c, { functionMacros: ['A'] })).not.toBe(extractorVersionOf(c, { functionMacros: ['B'] }));
  });

  it('separates stored indexes: another list is another storage entry', async () => {
    const fs = codebase();
    const storage = new MemoryStorage();
    const a = await CKGDatabase.open({ codebasePath: '/src', fs, storage });
    const b = await CKGDatabase.open({ codebasePath: '/src', fs, storage, functionMacros: ['PHP_METHOD:2'] });
    try {
      expect(a.storageKey).not.toBe(b.storageKey);
      expect(b.origin).toBe('built');
      expect(await names(b)).toEqual(['render', 'DEFINE_HANDLER']);
    } finally {
      a.close();
      b.close();
    }
  });

  it('rejects entries that are no macro names with INVALID_ARGUMENT', async () => {
    for (const bad of [['PHP METHOD'], ['X:0'], ['*'], [42], 'TEST']) {
      const error = await CKGDatabase.open({ codebasePath: '/src', fs: codebase(), functionMacros: bad as unknown as string[] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CKGError);
      expect((error as CKGError).code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('rewriteSource', () => {
  const toyOf = (rewriteSource: (source: string) => string): LanguageDefinition => ({
    id: 'toy',
    extensions: ['.toy'],
    grammar: 'tree-sitter-python.wasm',
    version: '1',
    rewriteSource,
    visitor: (root, sink) => {
      for (const node of root.descendantsOfType('function_definition')) {
        const name = node?.childForFieldName('name')?.text;
        if (node && name) sink.addFunction(node, { name });
      }
    },
  });

  it('parses the rewritten text and reads rows, names and bodies from the original', async () => {
    // `fn` is not Python; `def` is: the grammar sees definitions, the rows keep `fn`.
    const toy = toyOf((source) => source.replace(/^fn /gm, 'def'));
    const fs = Volume.fromJSON({ '/src/a.toy': 'fn  first():\n    pass\n\nfn  second():\n    pass\n' }) as unknown as FileSystem;
    const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: createDefaultRegistry().register(toy).subset(['toy']) });
    try {
      const [second] = await db.queryFunction('second');
      expect(second).toMatchObject({ startLine: 4, endLine: 5, body: 'fn  second():\n    pass' });
    } finally {
      db.close();
    }
  });

  it('skips a file as parse-failed when the rewrite moves text (length or line breaks)', async () => {
    for (const rewrite of [(s: string) => `${s} `, (s: string) => s.replace('\n', ' ').replace('  ', ' \n')]) {
      const fs = Volume.fromJSON({ '/src/a.toy': 'def  first():\n    pass\n' }) as unknown as FileSystem;
      const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: createDefaultRegistry().register(toyOf(rewrite)).subset(['toy']) });
      try {
        expect(db.stats().functions).toBe(0);
        expect(db.report?.skipped).toEqual([
          { path: '/src/a.toy', reason: 'parse-failed', detail: 'The toy source rewrite moved text (it must keep the length and every line break)' },
        ]);
      } finally {
        db.close();
      }
    }
  });
});
