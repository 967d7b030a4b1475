// Windows paths, as a Node app on Windows passes them (path.win32 output: `C:\Users\dev\repo`),
// over a file system that behaves like node:fs on Windows: it takes drive paths with either
// separator and answers realpath with backslashes. It knows no POSIX paths at all, so a path
// ckg-wasm failed to keep as a drive path cannot be read.
import { win32 } from 'node:path';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool, MemoryStorage, type FileSystem, type StatsLike } from '../src/index.js';

/** A drive path (`C:\a` or `C:/a`) → the memfs path that holds it (`/C/a`). */
function onVolume(path: string): string {
  const match = /^([A-Za-z]):([\\/].*)?$/.exec(path);
  if (!match) throw Object.assign(new Error(`ENOENT: not a Windows path, '${path}'`), { code: 'ENOENT' });
  return `/${match[1]!.toUpperCase()}${(match[2] ?? '/').replace(/\\/g, '/')}`;
}

/** memfs behind Windows-style paths; records every path it was given. */
function windowsFs(files: Record<string, string>): { fs: FileSystem; vol: Volume; seen: string[] } {
  const vol = Volume.fromJSON(Object.fromEntries(Object.entries(files).map(([p, c]) => [onVolume(p), c])));
  const seen: string[] = [];
  const at = (path: string): string => {
    seen.push(path);
    return onVolume(path);
  };
  const p = vol.promises;
  const fs: FileSystem = {
    promises: {
      readFile: async (path) => (await p.readFile(at(path))) as Uint8Array,
      readdir: async (path) => (await p.readdir(at(path))) as string[],
      stat: async (path) => (await p.stat(at(path))) as unknown as StatsLike,
      lstat: async (path) => (await p.lstat(at(path))) as unknown as StatsLike,
      // node:fs on Windows answers with backslashes.
      realpath: async (path) => {
        const real = String(await p.realpath(at(path)));
        return `${real[1]}:${real.slice(2).replace(/\//g, '\\') || '\\'}`;
      },
    },
  };
  return { fs, vol, seen };
}

const ROOT = win32.join('C:\\', 'Users', 'dev', 'repo');
const FILES = {
  [win32.join(ROOT, 'app', 'main.py')]: 'def main():\n    return 1\n',
  [win32.join(ROOT, 'app', 'shop.py')]: 'class Cart:\n    def total(self):\n        return 0\n',
  [win32.join(ROOT, '.gitignore')]: 'build/\n',
  [win32.join(ROOT, 'build', 'gen.py')]: 'def main():\n    return 2\n',
};

describe('Windows paths (path.win32 inputs)', () => {
  it('indexes a drive-letter codebase and answers with C:/ paths node:fs on Windows accepts', async () => {
    expect(ROOT).toBe('C:\\Users\\dev\\repo');
    const { fs, seen } = windowsFs(FILES);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs });
    try {
      expect(db.codebasePath).toBe('C:/Users/dev/repo');
      // build/ is .gitignored: the rules apply below a drive root as below a POSIX one.
      expect(await db.queryFunction('main')).toEqual([{ name: 'main', filePath: 'C:/Users/dev/repo/app/main.py', body: 'def main():\n    return 1', startLine: 1, endLine: 2 }]);
      expect((await db.queryFunction('total', 'class_method'))[0]).toMatchObject({ filePath: 'C:/Users/dev/repo/app/shop.py', parentClass: 'Cart' });
      // Every path ckg-wasm gave the file system was a drive path (the search for .git ended at C:/).
      expect(seen.filter((p) => !/^C:\//.test(p))).toEqual([]);
      expect(seen).toContain('C:/.git');
    } finally {
      db.close();
    }
  });

  it('takes a lower-case drive and forward slashes as the same codebase, and keeps its storage key', async () => {
    const { fs } = windowsFs(FILES);
    const storage = new MemoryStorage();
    const first = await CKGDatabase.open({ codebasePath: ROOT, fs, storage });
    first.close();
    const second = await CKGDatabase.open({ codebasePath: 'c:/Users/dev/repo/', fs, storage });
    try {
      expect(second.codebasePath).toBe('C:/Users/dev/repo');
      expect(second.origin).toBe('storage');
      expect(second.storageKey).toBe(first.storageKey);
    } finally {
      second.close();
    }
  });

  it('updates the files named with backslashes, absolute or relative to the codebase', async () => {
    const { fs, vol } = windowsFs(FILES);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs });
    try {
      vol.writeFileSync(onVolume(win32.join(ROOT, 'app', 'util.py')), 'def helper():\n    pass\n');
      vol.writeFileSync(onVolume(win32.join(ROOT, 'app', 'more.py')), 'def extra():\n    pass\n');
      const report = await db.update({ paths: [win32.join(ROOT, 'app', 'util.py'), 'app\\more.py'] });
      expect(report.filesParsed).toBe(2);
      expect((await db.queryFunction('helper'))[0]?.filePath).toBe('C:/Users/dev/repo/app/util.py');
      expect((await db.queryFunction('extra'))[0]?.filePath).toBe('C:/Users/dev/repo/app/more.py');
      await expect(db.update({ paths: ['D:\\elsewhere\\x.py'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      db.close();
    }
  });

  it('serves the ckg tool for a Windows path, a file in it included', async () => {
    const { fs } = windowsFs(FILES);
    const tool = new CKGTool({ fs });
    try {
      const result = await tool.execute({ command: 'search_function', path: ROOT, identifier: 'main', print_body: false });
      expect(result).toEqual({ output: 'Found 1 function named main:\n1. C:/Users/dev/repo/app/main.py:1-2\n' });
      const viaFile = await tool.execute({ command: 'search_class', path: win32.join(ROOT, 'app', 'shop.py'), identifier: 'Cart', print_body: false });
      expect(viaFile.output).toContain('C:/Users/dev/repo/app/shop.py:1-3');
    } finally {
      await tool.close();
    }
  });

  it('refuses UNC paths with a message that says what to do', async () => {
    const { fs } = windowsFs(FILES);
    await expect(CKGDatabase.open({ codebasePath: '\\\\server\\share\\repo', fs })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('map the share to a drive letter'),
    });
    await expect(CKGDatabase.open({ codebasePath: 'repo\\app', fs })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('Windows C:\\repo'),
    });
  });
});
