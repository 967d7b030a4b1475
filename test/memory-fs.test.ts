// memoryFileSystem: the FileSystem contract (error codes, listings, stats, mtimes) and a real
// index over it, built, edited and updated (with folder listings kept between walks).
import { describe, expect, it } from 'vitest';
import { CKGDatabase, MemoryStorage, memoryFileSystem } from '../src/index.js';

const codeOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'resolved',
    (error: { code?: unknown }) => error.code,
  );

describe('memoryFileSystem', () => {
  it('keeps the FileSystem contract: implied folders, sorted listings, Node error codes, stable mtimes', async () => {
    const fs = memoryFileSystem(
      new Map<string, string | Uint8Array | { content: string; mtimeMs: number }>([
        ['/repo/b.py', 'def b(): pass\n'],
        ['/repo/a/x.py', { content: 'def x(): pass\n', mtimeMs: 1234 }],
        ['/repo/logo.bin', new Uint8Array([0, 1, 2])],
      ]),
    );
    expect(await fs.promises.readdir('/repo')).toEqual(['a', 'b.py', 'logo.bin']);
    expect(await fs.promises.readdir('/')).toEqual(['repo']);
    const dirents = fs.readdirSync!('/repo', { withFileTypes: true } as never) as unknown as { name: string; isDirectory(): boolean }[];
    expect(dirents.map((d) => [d.name, d.isDirectory()])).toEqual([['a', true], ['b.py', false], ['logo.bin', false]]);
    const stat = await fs.promises.stat('/repo/a/x.py');
    expect([stat.isFile(), stat.isDirectory(), stat.isSymbolicLink(), stat.size, stat.mtimeMs]).toEqual([true, false, false, 14, 1234]);
    // Initial files without a time get 0: the same files give the same snapshot key on every load.
    expect((await fs.promises.stat('/repo/b.py')).mtimeMs).toBe(0);
    expect(new TextDecoder().decode((await fs.promises.readFile('/repo/b.py')) as Uint8Array)).toBe('def b(): pass\n');
    expect(await codeOf(fs.promises.readFile('/repo/none.py'))).toBe('ENOENT');
    expect(await codeOf(fs.promises.readFile('/repo/b.py/inner'))).toBe('ENOTDIR');
    expect(await codeOf(fs.promises.readdir('/repo/b.py'))).toBe('ENOTDIR');
    expect(await codeOf(fs.promises.readFile('/repo/a'))).toBe('EISDIR');
    expect(await codeOf(fs.promises.stat('/nowhere'))).toBe('ENOENT');
    expect(() => fs.writeFile('relative.py', '')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(fs.files()).toEqual(['/repo/a/x.py', '/repo/b.py', '/repo/logo.bin']);
  });

  it('moves file and folder mtimes forward on every change', async () => {
    let clock = 100;
    const fs = memoryFileSystem({ '/repo/a.py': 'x = 1\n' }, { now: () => clock });
    const folderBefore = Number((await fs.promises.stat('/repo')).mtimeMs);
    fs.writeFile('/repo/a.py', 'x = 2\n'); // same size: only the mtime tells an update
    expect((await fs.promises.stat('/repo/a.py')).mtimeMs).toBe(100);
    fs.writeFile('/repo/a.py', 'x = 3\n'); // the clock did not move: still later than before
    expect((await fs.promises.stat('/repo/a.py')).mtimeMs).toBe(101);
    expect(Number((await fs.promises.stat('/repo')).mtimeMs)).toBe(folderBefore); // no entry added
    clock = 500;
    fs.writeFile('/repo/new/b.py', '');
    expect(Number((await fs.promises.stat('/repo')).mtimeMs)).toBeGreaterThan(folderBefore);
    const before = Number((await fs.promises.stat('/repo/new')).mtimeMs);
    clock = 400; // a clock going back does not move a folder back
    fs.rm('/repo/new/b.py');
    expect(Number((await fs.promises.stat('/repo/new')).mtimeMs)).toBeGreaterThan(before);
    fs.rm('/repo/new');
    expect(await fs.promises.readdir('/repo')).toEqual(['a.py']);
    fs.rm('/repo/none'); // ignored
  });

  it('serves a real index: build, same-size edit, added and removed files, kept listings, storage reuse', async () => {
    const fs = memoryFileSystem({
      '/repo/app/config.py': 'def parse_config(path):\n    return {}\n',
      '/repo/app/widget.py': 'class Widget:\n    def render(self):\n        return 1\n',
    });
    const storage = new MemoryStorage();
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs, storage, trustFolderMtimes: true });
    try {
      expect(db.stats()).toMatchObject({ files: 2, functions: 2, classes: 1 });
      fs.writeFile('/repo/app/widget.py', 'class Widget:\n    def redraw(self):\n        return 2\n');
      fs.writeFile('/repo/app/extra/more.py', 'def more():\n    pass\n');
      fs.rm('/repo/app/config.py');
      const report = await db.update();
      expect(report).toMatchObject({ filesParsed: 2, filesRemoved: 1, filesIndexed: 2 });
      expect(await db.queryFunction('render', 'class_method')).toEqual([]);
      expect((await db.queryFunction('redraw', 'class_method'))[0]?.body).toBe('def redraw(self):\n        return 2');
      expect((await db.queryFunction('more'))[0]?.filePath).toBe('/repo/app/extra/more.py');
      expect(await db.refresh()).toBeUndefined();
    } finally {
      db.close();
    }
    // A second page load with the same files: the stored index is reused, nothing parsed.
    const again = await CKGDatabase.open({ codebasePath: '/repo', fs, storage, trustFolderMtimes: true });
    try {
      expect(again.origin).toBe('storage');
      expect(again.report?.filesParsed).toBe(0);
    } finally {
      again.close();
    }
  });
});
