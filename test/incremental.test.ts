// Incremental updates: after any sequence of edits, `db.update()` must leave exactly the rows a
// fresh build gives, parsing only the files whose content changed. Size + mtime equality is
// trusted like git trusts its index (docs/bodies.md, "Change detection"): a same-size edit that
// keeps an old mtime is not seen until the file is touched, while a file whose mtime is racy
// (not safely older than the last sync) is always re-hashed.
import { sealDatabase } from '../src/db/integrity.js';
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { inflateSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CKGDatabase,
  CKGTool,
  createDefaultRegistry,
  extractorVersionOf,
  LanguageRegistry,
  type BodyMode,
  type FileSystem,
  type IndexReport,
  type LanguageDefinition,
} from '../src/index.js';
import { SCHEMA_VERSION } from '../src/db/schema.js';
import { graphLines } from './helpers/graph-dump.js';

type SqlJs = Awaited<ReturnType<typeof initSqlJs>>;
let SQL: SqlJs;
beforeAll(async () => {
  SQL = await initSqlJs();
});

const ROOT = '/repo';
const LANGUAGES = ['python', 'javascript', 'go', 'c'] as const;
type Lang = (typeof LANGUAGES)[number];
const EXT: Record<Lang, string> = { python: '.py', javascript: '.js', go: '.go', c: '.c' };

// Every template has one NAME slot and names all have 3 letters, so two files with the same
// templates and revision digit count have the same size: what a "sneaky" edit needs.
const TEMPLATES: Record<Lang, { header: string; units: readonly string[] }> = {
  python: {
    header: '# rev R\n',
    units: [
      'def NAME():\n    return 1\n',
      'class NAME:\n    def mNAME(self):\n        pass\n',
      'def NAME(x):\n    def iNAME():\n        return x\n    return iNAME\n',
    ],
  },
  javascript: {
    header: '// rev R\n',
    units: ['function NAME() {\n  return 1;\n}\n', 'class NAME {\n  mNAME() {\n    return 2;\n  }\n}\n', 'const NAME = () => 3;\n'],
  },
  go: {
    header: '// rev R\npackage p\n',
    units: ['func NAME() int {\n\treturn 1\n}\n', 'type NAME struct {\n\tx int\n}\n', 'func (r *T) NAME() {}\n'],
  },
  c: {
    header: '// rev R\n',
    units: ['int NAME(void) {\n  return 1;\n}\n', 'struct NAME {\n  int x;\n};\n', 'static void NAME(int a) { (void)a; }\n'],
  },
};

interface Shape {
  readonly lang: Lang;
  readonly units: readonly number[];
}

function render(shape: Shape, names: readonly string[], rev: number): string {
  const t = TEMPLATES[shape.lang];
  return t.header.replace('R', String(rev)) + shape.units.map((u, i) => t.units[u]!.replaceAll('NAME', names[i % names.length]!)).join('\n');
}

const nameArb = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 3, maxLength: 3 });
const namesArb = fc.array(nameArb, { minLength: 3, maxLength: 3 });
const unitsArb = fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 3 });
const revArb = fc.integer({ min: 0, max: 9 });
const PATHS = ['m0', 'm1', 'a/m2', 'a/m3', 'a/b/m4', 'c/m5'];

type Op =
  | { type: 'add'; path: number; lang: Lang; units: number[]; names: string[]; rev: number }
  | { type: 'edit'; file: number; units: number[]; names: string[]; rev: number; racy: boolean }
  | { type: 'sneaky'; file: number; names: string[]; rev: number }
  | { type: 'rename'; file: number; path: number; lang: Lang }
  | { type: 'delete'; file: number }
  | { type: 'editBack'; file: number }
  | { type: 'touch'; file: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant('add' as const), path: fc.nat(PATHS.length - 1), lang: fc.constantFrom(...LANGUAGES), units: unitsArb, names: namesArb, rev: revArb }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('edit' as const), file: fc.nat(), units: unitsArb, names: namesArb, rev: revArb, racy: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('sneaky' as const), file: fc.nat(), names: namesArb, rev: revArb }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('rename' as const), file: fc.nat(), path: fc.nat(PATHS.length - 1), lang: fc.constantFrom(...LANGUAGES) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), file: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('editBack' as const), file: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('touch' as const), file: fc.nat() }) },
);

/** What the test knows of one file: its real content, and what the index must reflect. */
interface FileState {
  shape: Shape;
  content: string;
  /** The content the index is expected to hold (differs after an undetectable sneaky edit). */
  believed: string;
  mtime: number;
  /** Stamped in the future (clock skew): always racy, so never trusted by size + mtime. */
  racy: boolean;
  /** Earlier versions, each with the shape that renders same-size variants of it. */
  history: { content: string; shape: Shape }[];
}

/** A memfs tree plus the model the index is checked against. */
class World {
  readonly vol = new Volume();
  readonly files = new Map<string, FileState>();
  // Old stamps lie a day back (safely older than any sync); racy ones an hour ahead.
  #oldClock = Date.now() - 86_400_000;
  #racyClock = Date.now() + 3_600_000;

  constructor() {
    this.vol.mkdirSync(ROOT, { recursive: true });
  }

  get fs(): FileSystem {
    return this.vol as unknown as FileSystem;
  }

  stamp(racy: boolean): number {
    return racy ? (this.#racyClock += 1000) : (this.#oldClock += 1000);
  }

  write(path: string, content: string, mtime: number): void {
    this.vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    this.vol.writeFileSync(path, content);
    this.vol.utimesSync(path, mtime / 1000, mtime / 1000);
  }

  pick(index: number): string | undefined {
    const paths = [...this.files.keys()].sort();
    return paths.length === 0 ? undefined : paths[index % paths.length];
  }

  apply(op: Op): void {
    if (op.type === 'add') {
      const path = `${ROOT}/${PATHS[op.path]}${EXT[op.lang]}`;
      const shape = { lang: op.lang, units: op.units };
      const content = render(shape, op.names, op.rev);
      const mtime = this.stamp(false);
      this.write(path, content, mtime);
      const old = this.files.get(path);
      this.files.set(path, { shape, content, believed: content, mtime, racy: false, history: [...(old?.history ?? []), ...(old ? [{ content: old.content, shape: old.shape }] : [])] });
      return;
    }
    const path = this.pick(op.file);
    if (path === undefined) return;
    const f = this.files.get(path)!;
    switch (op.type) {
      case 'edit': {
        const shape = { lang: f.shape.lang, units: op.units };
        const content = render(shape, op.names, op.rev);
        const mtime = this.stamp(op.racy);
        this.write(path, content, mtime);
        this.files.set(path, { shape, content, believed: content, mtime, racy: op.racy, history: [...f.history, { content: f.content, shape: f.shape }] });
        return;
      }
      case 'sneaky': {
        // Same templates, other names and digit: same size; the mtime is put back.
        const content = render(f.shape, op.names, op.rev);
        expect(new TextEncoder().encode(content).length).toBe(new TextEncoder().encode(f.content).length);
        this.write(path, content, f.mtime);
        this.files.set(path, { ...f, content, believed: f.racy ? content : f.believed, history: [...f.history, { content: f.content, shape: f.shape }] });
        return;
      }
      case 'editBack': {
        const previous = f.history.at(-1);
        if (previous === undefined) return;
        const mtime = this.stamp(false);
        this.write(path, previous.content, mtime);
        this.files.set(path, {
          shape: previous.shape,
          content: previous.content,
          believed: previous.content,
          mtime,
          racy: false,
          history: [...f.history, { content: f.content, shape: f.shape }],
        });
        return;
      }
      case 'touch': {
        const mtime = this.stamp(false);
        this.vol.utimesSync(path, mtime / 1000, mtime / 1000);
        this.files.set(path, { ...f, believed: f.content, mtime, racy: false });
        return;
      }
      case 'delete':
        this.vol.rmSync(path);
        this.files.delete(path);
        return;
      case 'rename': {
        const to = `${ROOT}/${PATHS[op.path]}${EXT[op.lang]}`;
        if (to === path) return;
        this.vol.mkdirSync(to.slice(0, to.lastIndexOf('/')), { recursive: true });
        this.vol.renameSync(path, to); // keeps the mtime, like mv
        this.files.delete(path);
        // The content keeps its language even under another extension (then it parses with errors).
        this.files.set(to, { ...f, believed: f.content, history: [] });
        return;
      }
    }
  }

  /** A second volume holding what the index should reflect, under the same paths. */
  believedVolume(): FileSystem {
    const vol = new Volume();
    vol.mkdirSync(ROOT, { recursive: true });
    for (const [path, f] of this.files) {
      vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
      vol.writeFileSync(path, f.believed);
    }
    return vol as unknown as FileSystem;
  }
}

/** Every row of an index as sorted JSON lines: functions, classes, files, and stored sources. */
function dump(bytes: Uint8Array): string[] {
  const db = new SQL.Database(bytes);
  try {
    const lines: string[] = [];
    const all = (sql: string): unknown[][] => db.exec(sql)[0]?.values ?? [];
    for (const r of all('SELECT name, file_path, body, start_line, end_line, parent_function, parent_class, body_start, body_end FROM functions')) lines.push(`F ${JSON.stringify(r)}`);
    for (const r of all('SELECT name, file_path, body, fields, methods, start_line, end_line, body_start, body_end FROM classes')) lines.push(`C ${JSON.stringify(r)}`);
    for (const r of all('SELECT path, size, content_hash, language, extractor_version FROM files')) lines.push(`P ${JSON.stringify(r)}`);
    for (const [path, data] of all('SELECT f.path, s.data FROM sources s JOIN files f ON f.id = s.file_id')) {
      lines.push(`S ${String(path)} ${new TextDecoder().decode(inflateSync(data as Uint8Array))}`);
    }
    expect(all("SELECT count(*) FROM functions WHERE file_id NOT IN (SELECT id FROM files)")[0]![0]).toBe(0);
    // The code graph too: symbols, every edge with its resolution and dependencies, bindings.
    lines.push(...graphLines(db));
    return lines.sort();
  } finally {
    db.close();
  }
}

const languages = [...LANGUAGES];

/** The index equals a fresh build of the believed content (`op` names the step on failure). */
async function expectSameAsFreshBuild(db: CKGDatabase, world: World, bodies: BodyMode, op: Op): Promise<void> {
  const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: world.believedVolume(), languages, bodies });
  try {
    expect(dump(db.export()), JSON.stringify(op)).toEqual(dump(fresh.export()));
  } finally {
    fresh.close();
  }
}

describe('incremental update equals a fresh build', () => {
  it('after random add / edit / sneaky edit / rename / delete / edit-back / touch sequences, in every body mode', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<BodyMode>('stored', 'compressed', 'lazy'), fc.array(opArb, { minLength: 1, maxLength: 10 }), async (bodies, ops) => {
        const world = new World();
        const db = await CKGDatabase.open({ codebasePath: ROOT, fs: world.fs, languages, bodies });
        try {
          for (const op of ops) {
            const before = new Map([...world.files].map(([p, f]) => [p, f.believed]));
            world.apply(op);
            const report: IndexReport = await db.update();
            await expectSameAsFreshBuild(db, world, bodies, op);
            // Only files whose (believed) content changed are parsed; gone files are removed.
            const changed = [...world.files].filter(([p, f]) => before.get(p) !== f.believed).length;
            expect(report.filesParsed, JSON.stringify(op)).toBe(changed);
            expect(report.filesRemoved).toBe([...before.keys()].filter((p) => !world.files.has(p)).length);
            expect(report.filesIndexed).toBe(world.files.size);
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 30 },
    );
  });

  it('update({ paths }) told only the changed files equals a fresh build too, without walking the tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<BodyMode>('stored', 'lazy'), fc.array(opArb, { minLength: 1, maxLength: 10 }), async (bodies, ops) => {
        const world = new World();
        const db = await CKGDatabase.open({ codebasePath: ROOT, fs: world.fs, languages, bodies });
        try {
          for (const op of ops) {
            const before = new Map([...world.files].map(([p, f]) => [p, f.believed]));
            world.apply(op);
            const after = new Map([...world.files].map(([p, f]) => [p, f.believed]));
            const touched = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
            const report = await db.update({ paths: touched });
            await expectSameAsFreshBuild(db, world, bodies, op);
            expect(report.filesParsed, JSON.stringify(op)).toBe(touched.filter((p) => after.has(p)).length);
            expect(report.filesRemoved).toBe(touched.filter((p) => !after.has(p)).length);
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 20 },
    );
  });
});

describe('change detection', () => {
  const file = `${ROOT}/a.py`;
  const v1 = 'def one():\n    return 1\n';
  const v2 = 'def two():\n    return 2\n'; // same size as v1

  function volumeWith(content: string, mtimeMs: number): Volume {
    const vol = new Volume();
    vol.mkdirSync(ROOT, { recursive: true });
    vol.writeFileSync(file, content);
    vol.utimesSync(file, mtimeMs / 1000, mtimeMs / 1000);
    return vol;
  }

  it('trusts size + mtime of files older than the last sync: a same-size edit keeping the mtime is seen after a touch', async () => {
    const old = Date.now() - 86_400_000;
    const vol = volumeWith(v1, old);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'stored' });
    try {
      vol.writeFileSync(file, v2);
      vol.utimesSync(file, old / 1000, old / 1000);
      const trusted = await db.update();
      expect(trusted).toMatchObject({ filesParsed: 0, filesReused: 1 });
      expect(await db.queryFunction('one')).toHaveLength(1); // documented: like git, not re-read
      vol.utimesSync(file, (old + 1000) / 1000, (old + 1000) / 1000);
      expect(await db.update()).toMatchObject({ filesParsed: 1 });
      expect(await db.queryFunction('one')).toEqual([]);
      expect((await db.queryFunction('two'))[0]?.body).toBe('def two():\n    return 2');
    } finally {
      db.close();
    }
  });

  it('re-hashes racy files (mtime not safely older than the last sync), re-parsing only when the hash changed', async () => {
    const future = Date.now() + 3_600_000; // a skewed clock: never safely old
    const vol = volumeWith(v1, future);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'stored' });
    try {
      expect(await db.update()).toMatchObject({ filesParsed: 0, filesReused: 1 });
      vol.writeFileSync(file, v2);
      vol.utimesSync(file, future / 1000, future / 1000);
      expect(await db.update()).toMatchObject({ filesParsed: 1 });
      expect((await db.queryFunction('two'))[0]?.startLine).toBe(1);
    } finally {
      db.close();
    }
  });

  it("in 'lazy' mode a body read back with the wrong hash makes the query re-index that file", async () => {
    const old = Date.now() - 86_400_000;
    const vol = volumeWith(v1, old);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'lazy' });
    try {
      vol.writeFileSync(file, v2);
      vol.utimesSync(file, old / 1000, old / 1000);
      // The name is still indexed, but its body no longer matches: the query re-indexes and
      // answers from the file's current content.
      expect(await db.queryFunction('one')).toEqual([]);
      expect(db.report).toMatchObject({ filesParsed: 1 });
      expect(await db.queryFunction('two')).toEqual([{ name: 'two', filePath: file, body: 'def two():\n    return 2', startLine: 1, endLine: 2 }]);
    } finally {
      db.close();
    }
  });

  it("in 'lazy' mode only the returned bodies are checked: an edit elsewhere in the file leaves them valid", async () => {
    const old = Date.now() - 86_400_000;
    const two = `${v1}\ndef other():\n    return 'a'\n`;
    const vol = volumeWith(two, old);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'lazy' });
    try {
      // A same-size edit in the other function, mtime kept: invisible to stat checks.
      vol.writeFileSync(file, two.replace("'a'", "'b'"));
      vol.utimesSync(file, old / 1000, old / 1000);
      // 'one' still has exactly its indexed text: answered as is, nothing re-indexed.
      const built = db.report;
      expect(await db.queryFunction('one')).toEqual([{ name: 'one', filePath: file, body: 'def one():\n    return 1', startLine: 1, endLine: 2 }]);
      expect(db.report).toBe(built);
      // 'other' changed: the query re-indexes the file and answers from its current content.
      expect((await db.queryFunction('other'))[0]?.body).toBe("def other():\n    return 'b'");
      expect(db.report).not.toBe(built);
      expect(db.report).toMatchObject({ filesParsed: 1, filesIndexed: 1 });
    } finally {
      db.close();
    }
  });

  it("in 'lazy' mode a codebase that vanished still answers, with marked bodies", async () => {
    const vol = volumeWith(v1, Date.now() - 86_400_000);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'lazy' });
    try {
      vol.rmSync(ROOT, { recursive: true });
      expect(await db.queryFunction('one')).toEqual([
        { name: 'one', filePath: file, body: `[body unavailable: ${file} changed since it was indexed; update the index]`, startLine: 1, endLine: 2 },
      ]);
    } finally {
      db.close();
    }
  });

  it("without a file system, a 'lazy' body reads as a marker that says the bytes hold no text and what to do", async () => {
    const vol = volumeWith(v1, Date.now() - 86_400_000);
    const built = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'], bodies: 'lazy' });
    const bytes = built.export();
    built.close();
    const detached = await CKGDatabase.fromBytes(bytes);
    try {
      const [entry] = await detached.queryFunction('one');
      expect(entry).toMatchObject({ startLine: 1, endLine: 2 });
      // The file is unchanged: the old wording ("changed since it was indexed") was wrong here.
      expect(entry!.body).toBe(
        `[body not stored: this index keeps 'lazy' bodies (offsets into ${file}); open it with fs and codebasePath to read them from the files, or build it with bodies: 'compressed' to keep them in the database]`,
      );
    } finally {
      detached.close();
    }
  });
});

describe('aborted updates', () => {
  it('leave the index as it was, and the next update still sees every change', async () => {
    const old = (Date.now() - 86_400_000) / 1000;
    const vol = Volume.fromJSON({
      [`${ROOT}/a.py`]: 'def a_v1():\n    pass\n',
      [`${ROOT}/b.py`]: 'def b_v1():\n    pass\n',
      [`${ROOT}/c.py`]: 'def c_v1():\n    pass\n',
    });
    for (const f of ['a', 'b', 'c']) vol.utimesSync(`${ROOT}/${f}.py`, old, old);
    const fs = vol as unknown as FileSystem;
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python'] });
    try {
      const before = dump(db.export());
      for (const f of ['a', 'b', 'c']) vol.writeFileSync(`${ROOT}/${f}.py`, `def ${f}_v2():\n    pass\n`);
      // Abort once the first changed file has been written into the transaction.
      const controller = new AbortController();
      const update = db.update({
        signal: controller.signal,
        onProgress: (e) => {
          if (e.phase === 'parse' && e.filesDone === 1) controller.abort();
        },
      });
      await expect(update).rejects.toMatchObject({ code: 'ABORTED' });
      expect(dump(db.export())).toEqual(before); // rolled back: the old content, whole
      // Nothing of the aborted run may be taken for done: all three files are parsed again.
      expect(await db.update()).toMatchObject({ filesParsed: 3 });
      const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python'] });
      try {
        expect(dump(db.export())).toEqual(dump(fresh.export()));
      } finally {
        fresh.close();
      }
    } finally {
      db.close();
    }
  });
});

describe('versions and registry changes', () => {
  function tree(): Volume {
    return Volume.fromJSON({
      [`${ROOT}/a.py`]: 'def alpha():\n    pass\n',
      [`${ROOT}/b.py`]: 'class Beta:\n    pass\n',
      [`${ROOT}/c.js`]: 'function gamma() {}\n',
    });
  }

  function withPython(patch: Partial<LanguageDefinition>): LanguageRegistry {
    const registry = createDefaultRegistry().subset(['python', 'javascript']);
    const python = registry.get('python')!;
    registry.unregister('python');
    return registry.register({ ...python, ...patch });
  }

  async function reopen(bytes: Uint8Array, vol: Volume, registry: LanguageRegistry): Promise<CKGDatabase> {
    return CKGDatabase.fromBytes(bytes, { fs: vol as unknown as FileSystem, codebasePath: ROOT, languages: registry });
  }

  it('records the extractor and the grammar package version per file', async () => {
    const vol = tree();
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'] });
    try {
      const python = db.languages.get('python')!;
      expect(python.grammarPackage).toBeDefined();
      expect(extractorVersionOf(python)).toBe(`${python.version}+${python.grammarPackage!.name}@${python.grammarPackage!.version}`);
      const files = dump(db.export()).filter((l) => l.startsWith('P '));
      expect(files).toHaveLength(2);
      for (const line of files) expect(line).toContain(JSON.stringify(extractorVersionOf(python)));
    } finally {
      db.close();
    }
  });

  it('a grammar or extractor upgrade re-parses that language only; an unchanged registry re-parses nothing', async () => {
    const vol = tree();
    const base = withPython({});
    const first = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: base });
    const bytes = first.export();
    first.close();

    const same = await reopen(bytes, vol, withPython({}));
    expect(same.origin).toBe('storage');
    same.close();

    const grammarBump = await reopen(bytes, vol, withPython({ grammarPackage: { name: 'tree-sitter-python', version: '99.0.0' } }));
    expect(grammarBump.report).toMatchObject({ filesParsed: 2, filesReused: 1, filesIndexed: 3 });
    grammarBump.close();

    const extractorBump = await reopen(bytes, vol, withPython({ version: 'next' }));
    expect(extractorBump.report).toMatchObject({ filesParsed: 2, filesReused: 1 });
    extractorBump.close();
  });

  it('a language added to or removed from the registry indexes or drops just its files', async () => {
    const vol = tree();
    const first = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'] });
    const bytes = first.export();
    first.close();
    const added = await reopen(bytes, vol, createDefaultRegistry().subset(['python', 'javascript']));
    expect(added.report).toMatchObject({ filesParsed: 1, filesReused: 2, filesIndexed: 3 });
    expect(await added.queryFunction('gamma')).toHaveLength(1);
    const both = added.export();
    added.close();
    const removed = await reopen(both, vol, createDefaultRegistry().subset(['javascript']));
    expect(removed.report).toMatchObject({ filesParsed: 0, filesRemoved: 2, filesIndexed: 1 });
    expect(await removed.queryFunction('alpha')).toEqual([]);
    removed.close();
  });

  it('bytes of another schema version are rebuilt in full (and refused without a codebase)', async () => {
    const vol = tree();
    const first = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'] });
    const raw = new SQL.Database(first.export());
    first.close();
    raw.run("UPDATE meta SET value = 'old' WHERE key = 'schema_version'");
    const bytes = sealDatabase(raw.export()); // as another version would have written them
    raw.close();
    await expect(CKGDatabase.fromBytes(bytes)).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
    const rebuilt = await CKGDatabase.fromBytes(bytes, { fs: vol as unknown as FileSystem, codebasePath: ROOT, languages: ['python'] });
    try {
      expect(rebuilt.rebuildReason).toContain('SCHEMA_MISMATCH');
      expect(rebuilt.report).toMatchObject({ filesParsed: 2, filesReused: 0 });
      const check = new SQL.Database(rebuilt.export());
      expect(check.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.values[0]?.[0]).toBe(SCHEMA_VERSION);
      check.close();
    } finally {
      rebuilt.close();
    }
  });
});

describe('CKGTool sees edits at the cost of the changed files', () => {
  let tool: CKGTool;
  const vol = Volume.fromJSON({
    [`${ROOT}/a.py`]: 'def parse_config():\n    return {}\n',
    [`${ROOT}/b.py`]: 'def other():\n    pass\n',
  });
  afterAll(async () => {
    await tool?.close();
  });

  it('answers the next query from the new content', async () => {
    tool = new CKGTool({ fs: vol as unknown as FileSystem, languages: ['python'] });
    const first = await tool.execute({ command: 'search_function', path: ROOT, identifier: 'parse_config' });
    expect('output' in first && first.output).toContain('return {}');
    vol.writeFileSync(`${ROOT}/a.py`, '# moved down\n\ndef parse_config(path):\n    return {"path": path}\n');
    const second = await tool.execute({ command: 'search_function', path: ROOT, identifier: 'parse_config' });
    expect('output' in second && second.output).toContain(`${ROOT}/a.py:3-4`);
    expect('output' in second && second.output).toContain('return {"path": path}');
  });
});
