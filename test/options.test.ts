// Every option object of the public API is checked at run time: an unknown option (a typo) or
// an ill-typed one fails with INVALID_ARGUMENT naming it, before any work.
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, CKGTool, IndexedDBStorage, MemoryStorage, createWebWorkerPool, expireStorage, type FileSystem } from '../src/index.js';
import { DirectoryStorage, createWorkerPool } from '../src/node/index.js';
import { makeTree } from './helpers/fixtures.js';

/** What a call threw (synchronously or as a rejection). */
async function failure(call: () => unknown): Promise<CKGError> {
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(CKGError);
    return error as CKGError;
  }
  throw new Error('expected a failure');
}

describe('option validation', () => {
  const tree = makeTree('memfs', { 'a.py': 'def f():\n    pass\n' });
  const base = { codebasePath: tree.root, fs: tree.fs };

  it('names an unknown option of CKGDatabase.open and suggests the right one', async () => {
    const error = await failure(() => CKGDatabase.open({ ...base, langauges: ['python'] } as never));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toBe("CKGDatabase.open: unknown option 'langauges' (did you mean 'languages'?)");
    expect(error.data).toEqual({ caller: 'CKGDatabase.open', option: 'langauges' });
  });

  it.each([
    ['maxFileSize', '10', /option 'maxFileSize' must be a non-negative integer or Infinity, got "10" \(a string\)/],
    ['maxFileSize', Number.NaN, /'maxFileSize' must be .*got NaN/],
    ['maxFileSize', -1, /'maxFileSize' must be .*got -1/],
    ['maxFileSize', 1.5, /'maxFileSize' must be .*got 1.5/],
    ['bodies', 'zipped', /'bodies' must be one of "stored", "compressed", "lazy"/],
    ['languages', 'python', /'languages' must be a LanguageRegistry or an array of language ids/],
    ['exclude', 'docs', /'exclude' must be an array of strings/],
    ['respectGitignore', 'no', /'respectGitignore' must be a boolean/],
    ['signal', { aborted: false }, /'signal' must be an AbortSignal/],
    ['storage', {}, /'storage' must be a Storage/],
    ['processor', { concurrency: 2 }, /'processor' must be a FileProcessor/],
    ['wasm', { baseUrl: 3 }, /'wasm' must be an object whose option 'baseUrl' must be a string or a URL/],
    ['wasm', { baseurl: '/x/' }, /'wasm' must be an object whose unknown option 'baseurl' \(did you mean 'baseUrl'\?\)/],
  ])('rejects %s: %s', async (option, value, message) => {
    const error = await failure(() => CKGDatabase.open({ ...base, [option]: value }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(message);
    expect(error.data['option']).toBe(option);
  });

  it('accepts every documented option, and undefined values as defaults', async () => {
    const db = await CKGDatabase.open({
      ...base,
      languages: ['python'],
      maxFileSize: Infinity,
      skipDirectories: [],
      exclude: ['docs/**'],
      respectGitignore: false,
      trustFolderMtimes: true,
      onProgress: () => undefined,
      signal: new AbortController().signal,
      storage: new MemoryStorage(),
      bodies: 'stored',
      wasm: {},
      processor: undefined,
    });
    try {
      expect(db.stats().functions).toBe(1);
    } finally {
      db.close();
    }
  });

  it('requires codebasePath and fs, and an object', async () => {
    expect((await failure(() => CKGDatabase.open({ fs: tree.fs } as never))).message).toBe("CKGDatabase.open: option 'codebasePath' is required");
    expect((await failure(() => CKGDatabase.open({ ...base, codebasePath: 'relative/path' }))).message).toMatch(/'codebasePath' must be an absolute path \(POSIX \/home\/me\/repo, or Windows C:\\repo\)/);
    expect((await failure(() => CKGDatabase.open(null as never))).message).toBe('CKGDatabase.open: options must be an object, got null');
  });

  it('checks fromBytes, update and refresh options; update(null) is refused', async () => {
    const db = await CKGDatabase.open(base);
    try {
      const bytes = db.export();
      expect((await failure(() => CKGDatabase.fromBytes(bytes, { codebasepath: tree.root } as never))).data['option']).toBe('codebasepath');
      expect((await failure(() => db.update(null as never))).message).toBe('CKGDatabase.update: options must be an object, got null');
      expect((await failure(() => db.update({ path: ['a.py'] } as never))).message).toMatch(/unknown option 'path' \(did you mean 'paths'\?\)/);
      expect((await failure(() => db.update({ paths: 'a.py' } as never))).data['option']).toBe('paths');
      expect((await failure(() => db.refresh({ signal: 'stop' } as never))).data['option']).toBe('signal');
      // The database is untouched by refused calls.
      expect(db.stats().functions).toBe(1);
    } finally {
      db.close();
    }
  });

  it('checks CKGTool options, and passes only index options on to CKGDatabase.open', async () => {
    expect((await failure(() => new CKGTool({ fs: tree.fs, refersh: false } as never))).message).toMatch(/CKGTool: unknown option 'refersh' \(did you mean 'refresh'\?\)/);
    expect((await failure(() => new CKGTool({ fs: tree.fs, storageMaxAgeMs: -5 }))).data['option']).toBe('storageMaxAgeMs');
    expect((await failure(() => new CKGTool({ fs: tree.fs, maxOpenDatabases: 0 }))).data['option']).toBe('maxOpenDatabases');
    expect((await failure(() => new CKGTool({} as never))).message).toBe("CKGTool: option 'fs' is required");
    const tool = new CKGTool({ fs: tree.fs, cwd: '/', refresh: true, storageMaxAgeMs: Infinity, maxOpenDatabases: 2 });
    try {
      const result = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'f', print_body: false });
      expect(result).toEqual({ output: `Found 1 function named f:\n1. ${tree.root}/a.py:1-2\n` });
    } finally {
      await tool.close();
    }
  });

  it('checks the storages, expireStorage and the worker pools', async () => {
    expect((await failure(() => new MemoryStorage({ clock: Date.now } as never))).message).toBe("MemoryStorage: unknown option 'clock'");
    expect((await failure(() => new DirectoryStorage({ directroy: '/tmp/x' } as never))).message).toMatch(/unknown option 'directroy' \(did you mean 'directory'\?\)/);
    expect((await failure(() => new DirectoryStorage({ directory: 'relative' }))).data['option']).toBe('directory');
    expect((await failure(() => new IndexedDBStorage({ databaseName: '' }))).data['option']).toBe('databaseName');
    expect((await failure(() => expireStorage(new MemoryStorage(), { maxAgeMs: Number.NaN }))).data['option']).toBe('maxAgeMs');
    expect((await failure(() => createWorkerPool({ size: 0 }))).message).toBe("createWorkerPool: option 'size' must be a positive integer, got 0");
    expect((await failure(() => createWorkerPool({ pipline: 2 } as never))).message).toMatch(/unknown option 'pipline' \(did you mean 'pipeline'\?\)/);
    expect((await failure(() => createWebWorkerPool({ size: 2, createWorker: 'worker.js' } as never))).data['option']).toBe('createWorker');
  });

  it('reads only own keys: a prototype property is not an option', async () => {
    const vol = Volume.fromJSON({ '/r/a.py': 'def g(): pass\n' });
    const options = Object.assign(Object.create({ inherited: true }) as object, { codebasePath: '/r', fs: vol as unknown as FileSystem });
    const db = await CKGDatabase.open(options as never);
    expect(db.stats().functions).toBe(1);
    db.close();
  });
});
