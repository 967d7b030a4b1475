import nodeFs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Volume } from 'memfs';
import { CKGDatabase, CKGError, type FileSystem } from '../src/index.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CKGError);
    return (error as CKGError).code;
  }
  throw new Error('expected a CKGError');
}

describe.each(BACKENDS)('CKGDatabase on %s', (backend) => {
  let tree: FixtureTree;
  let db: CKGDatabase | undefined;
  afterEach(() => {
    db?.close();
    db = undefined;
    tree?.cleanup();
  });

  it('rejects bad codebase paths and file systems with typed errors', async () => {
    tree = makeTree(backend, { 'a.py': 'def a():\n    pass\n' });
    expect(await codeOf(CKGDatabase.open({ codebasePath: 'relative/path', fs: tree.fs }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(CKGDatabase.open({ codebasePath: `${tree.root}/missing`, fs: tree.fs }))).toBe('NOT_FOUND');
    expect(await codeOf(CKGDatabase.open({ codebasePath: `${tree.root}/a.py`, fs: tree.fs }))).toBe('NOT_A_DIRECTORY');
    expect(await codeOf(CKGDatabase.open({ codebasePath: tree.root, fs: {} as FileSystem }))).toBe('INVALID_ARGUMENT');
    try {
      await CKGDatabase.open({ codebasePath: `${tree.root}/missing`, fs: tree.fs });
    } catch (error) {
      expect((error as CKGError).caller).toBe('CKGDatabase.open');
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ code: 'NOT_FOUND', data: { path: `${tree.root}/missing` } });
    }
  });

  it('skips hidden paths below the root, dependency folders and .gitignored files', async () => {
    tree = makeTree(backend, {
      'keep.py': 'def keep():\n    pass\n',
      '.hidden.py': 'def hidden_file():\n    pass\n',
      '.venv/lib/x.py': 'def hidden_dir():\n    pass\n',
      'node_modules/pkg/y.py': 'def dependency():\n    pass\n',
      'build/gen.py': 'def generated():\n    pass\n',
      'logs/debug.py': 'def ignored_by_nested_rule():\n    pass\n',
      'logs/keep_me.py': 'def negated():\n    pass\n',
      '.gitignore': 'build/\n',
      'logs/.gitignore': '*.py\n!keep_me.py\n',
    });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    for (const name of ['hidden_file', 'hidden_dir', 'dependency', 'generated', 'ignored_by_nested_rule']) {
      expect(await db.queryFunction(name), name).toEqual([]);
    }
    expect((await db.queryFunction('keep')).length).toBe(1);
    expect((await db.queryFunction('negated')).length).toBe(1);
  });

  it('indexes a codebase that itself lives under a hidden folder', async () => {
    tree = makeTree(backend, { '.cache/project/src/a.py': 'def under_hidden_root():\n    pass\n' });
    db = await CKGDatabase.open({ codebasePath: `${tree.root}/.cache/project`, fs: tree.fs });
    expect((await db.queryFunction('under_hidden_root')).map((f) => f.filePath)).toEqual([`${tree.root}/.cache/project/src/a.py`]);
  });

  it('decodes leniently: a bad byte never aborts the build', async () => {
    const bad = new Uint8Array([...new TextEncoder().encode('def before():\n    s = "'), 0xff, 0xfe, ...new TextEncoder().encode('"\n\ndef after():\n    pass\n')]);
    tree = makeTree(backend, { 'bad.py': bad, 'good.py': 'def good():\n    pass\n' });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    const [before] = await db.queryFunction('before');
    expect(before?.body).toBe('def before():\n    s = "\uFFFD\uFFFD"');
    expect((await db.queryFunction('after'))[0]?.startLine).toBe(4);
    expect((await db.queryFunction('good')).length).toBe(1);
  });

  it('reports skipped files and extensions it does not cover', async () => {
    tree = makeTree(backend, {
      'big.py': `x = 1\n${'# padding\n'.repeat(200)}`,
      'bin.py': new Uint8Array([100, 101, 102, 0, 1, 2]),
      'min.py': `x = [${'1,'.repeat(6000)}]\n`,
      'notes.txt': 'hello',
      'more.txt': 'hello',
      'Makefile': 'all:',
      'ok.py': 'def ok():\n    pass\n',
    });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, maxFileSize: 1000 });
    const reasons = Object.fromEntries(db.report!.skipped.map((s) => [s.path.slice(tree.root.length + 1), s.reason]));
    expect(reasons).toEqual({ 'big.py': 'too-large', 'bin.py': 'binary', 'min.py': 'too-large' });
    expect(db.report!.unknownExtensions).toEqual({ '(none)': 1, '.txt': 2 });
    expect(db.report!.filesIndexed).toBe(1);
    const db2 = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    try {
      expect(db2.report!.skipped.map((s) => s.reason)).toEqual(['binary', 'minified']);
    } finally {
      db2.close();
    }
  });

  it('orders results by file path, then start line', async () => {
    tree = makeTree(backend, {
      'b.py': 'def twin():\n    pass\n',
      'a/z.py': '\n\ndef twin():\n    pass\n\ndef twin():\n    pass\n',
      'a.py': 'def twin():\n    pass\n',
    });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    expect((await db.queryFunction('twin')).map((f) => `${f.filePath.slice(tree.root.length)}:${f.startLine}`)).toEqual([
      '/a.py:1',
      '/a/z.py:3',
      '/a/z.py:6',
      '/b.py:1',
    ]);
  });

  it("orders paths as SQLite's BINARY collation does (code points, not UTF-16 units)", async () => {
    // U+FF5E sorts after U+1F600 by UTF-16 unit (0xFF5E > 0xD83D) but before it by code point.
    tree = makeTree(backend, { '\u{1F600}.py': 'def same():\n    pass\n', '\uFF5E.py': 'def same():\n    pass\n', 'a.py': 'def same():\n    pass\n' });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    expect((await db.queryFunction('same')).map((f) => f.filePath.slice(tree.root.length + 1))).toEqual(['a.py', '\uFF5E.py', '\u{1F600}.py']);
  });

  it('round-trips through export() and fromBytes(), rejecting foreign bytes', async () => {
    tree = makeTree(backend, { 'a.py': 'class K:\n    def m(self):\n        pass\n' });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    const bytes = db.export();
    // The default (lazy) mode reads bodies back through the fs, so the copy gets it too.
    const copy = await CKGDatabase.fromBytes(bytes, { fs: tree.fs });
    try {
      expect(await copy.queryClass('K')).toEqual(await db.queryClass('K'));
      expect(await copy.queryFunction('m', 'class_method')).toEqual(await db.queryFunction('m', 'class_method'));
      expect(copy.codebasePath).toBe(tree.root);
    } finally {
      copy.close();
    }
    // A compressed index answers with bodies even without the codebase.
    const compressed = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'compressed' });
    const detached = await CKGDatabase.fromBytes(compressed.export());
    try {
      expect(await detached.queryClass('K')).toEqual(await db.queryClass('K'));
    } finally {
      detached.close();
      compressed.close();
    }
    expect(await codeOf(CKGDatabase.fromBytes(new TextEncoder().encode('not a database at all')))).toBe('CORRUPT_DATABASE');
    const truncated = bytes.slice(0, Math.floor(bytes.length / 2));
    expect(['CORRUPT_DATABASE', 'SCHEMA_MISMATCH']).toContain(await codeOf(CKGDatabase.fromBytes(truncated)));
  });

  it('close() is idempotent and later use fails with CLOSED', async () => {
    tree = makeTree(backend, { 'a.py': 'def a():\n    pass\n' });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    db.close();
    db.close();
    expect(db.closed).toBe(true);
    expect(await codeOf(db.queryFunction('a'))).toBe('CLOSED');
    expect(() => db!.export()).toThrow(CKGError);
  });

  it('update() re-parses only what changed', async () => {
    tree = makeTree(backend, { 'a.py': 'def a():\n    pass\n', 'b.py': 'def b():\n    pass\n' });
    db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    expect(db.report!.filesParsed).toBe(2);
    const none = await db.update();
    expect(none.filesParsed).toBe(0);
    expect(none.filesReused).toBe(2);
    tree.write('b.py', 'def b2():\n    pass\n');
    const one = await db.update();
    expect(one.filesParsed).toBe(1);
    expect(await db.queryFunction('b')).toEqual([]);
    expect((await db.queryFunction('b2')).length).toBe(1);
  });
});

describe.each(BACKENDS)('update({ paths }) on %s', (backend) => {
  it('examines only the given files, with the walk rules, and nothing else', async () => {
    const tree = makeTree(backend, { 'a.py': 'def a():\n    pass\n', 'b.py': 'def b():\n    pass\n', '.gitignore': 'gen/\n' });
    // Stored bodies: a lazy body read back from the edited b.py would re-index it on query.
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    try {
      tree.write('a.py', 'def a2():\n    pass\n');
      tree.write('b.py', 'def b2():\n    pass\n'); // changed too, but not named
      tree.write('new/c.py', 'def c():\n    pass\n');
      tree.write('gen/d.py', 'def d():\n    pass\n');
      const report = await db.update({ paths: [`${tree.root}/a.py`, 'new/c.py', 'gen/d.py'] });
      expect(report).toMatchObject({ filesParsed: 2, filesRemoved: 0, filesIndexed: 3 });
      expect((await db.queryFunction('a2')).length).toBe(1);
      expect((await db.queryFunction('c')).length).toBe(1);
      expect(await db.queryFunction('d')).toEqual([]); // .gitignored, even when named
      expect((await db.queryFunction('b')).length).toBe(1); // b.py was not named: not examined
      tree.remove('a.py');
      expect(await db.update({ paths: ['a.py'] })).toMatchObject({ filesParsed: 0, filesRemoved: 1 });
      expect(await db.queryFunction('a2')).toEqual([]);
      expect(await db.update()).toMatchObject({ filesParsed: 1 }); // the full update finds b.py
      expect((await db.queryFunction('b2')).length).toBe(1);
      expect(await codeOf(db.update({ paths: ['/elsewhere/x.py'] }))).toBe('INVALID_ARGUMENT');
    } finally {
      db.close();
      tree.cleanup();
    }
  });
});

describe('symlinks', () => {
  it('indexes a symlinked file once (node:fs)', async () => {
    const tree = makeTree('node', { 'real/a.py': 'def linked():\n    pass\n' });
    nodeFs.symlinkSync(`${tree.root}/real/a.py`, `${tree.root}/link.py`);
    nodeFs.symlinkSync(`${tree.root}/real`, `${tree.root}/linkdir`);
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    try {
      expect((await db.queryFunction('linked')).map((f) => f.filePath)).toEqual([`${tree.root}/real/a.py`]);
      expect(db.report!.skipped).toEqual([{ path: `${tree.root}/link.py`, reason: 'duplicate-symlink', detail: `${tree.root}/real/a.py` }]);
    } finally {
      db.close();
      tree.cleanup();
    }
  });

  it('indexes a symlinked file once (memfs)', async () => {
    const vol = Volume.fromJSON({ '/r/real/a.py': 'def linked():\n    pass\n', '/outside/b.py': 'def external():\n    pass\n' });
    vol.symlinkSync('/r/real/a.py', '/r/link.py');
    vol.symlinkSync('/outside/b.py', '/r/ext.py');
    const db = await CKGDatabase.open({ codebasePath: '/r', fs: vol as unknown as FileSystem });
    try {
      expect((await db.queryFunction('linked')).map((f) => f.filePath)).toEqual(['/r/real/a.py']);
      // A link to a file outside the codebase is never read (docs/security.md).
      expect(await db.queryFunction('external')).toEqual([]);
      expect(db.report!.skipped).toContainEqual({ path: '/r/ext.py', reason: 'outside-codebase', detail: '/outside/b.py' });
    } finally {
      db.close();
    }
  });
});

describe('compareCodePoints', () => {
  it("sorts like SQLite's ORDER BY on TEXT", async () => {
    const fc = (await import('fast-check')).default;
    const { default: initSqlJs } = await import('sql.js');
    const { compareCodePoints } = await import('../src/db/store.js');
    const SQL = await initSqlJs();
    const sqlite = new SQL.Database();
    try {
      const unit = fc.constantFrom('a', 'b', '/', '.', 'é', '\uE000', '\uFF5E', '\uFFFF', '\u{10000}', '\u{1F600}', '\u{1F601}', '日');
      fc.assert(
        fc.property(fc.array(fc.array(unit, { maxLength: 4 }).map((u) => u.join('')), { maxLength: 12 }), (strings) => {
          const ours = [...strings].sort(compareCodePoints);
          const values = strings.map(() => '(?)').join(',');
          const theirs = strings.length === 0 ? [] : sqlite.exec(`SELECT column1 FROM (VALUES ${values}) ORDER BY 1`, strings)[0]!.values.map(([v]) => String(v));
          expect(ours).toEqual(theirs);
        }),
        { numRuns: 500 },
      );
    } finally {
      sqlite.close();
    }
  });
});
