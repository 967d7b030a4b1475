// A build with nothing to reuse parses files while the tree is still being walked: the first
// parse starts before the last folder is listed, the rows equal those of a build from a finished
// walk, and a walk that fails or a build that is aborted leaves nothing behind.
import nodeFs from 'node:fs';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, type FileProcessor, type FileSystem, type ProgressEvent } from '../src/index.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';

const ROOT = '/repo';

/** 24 packages of 3 modules each: enough folders for the walk to outlast the first parses. */
function tree(): Volume {
  const files: Record<string, string> = {};
  for (let p = 0; p < 24; p++) {
    for (let m = 0; m < 3; m++) files[`${ROOT}/pkg${String(p).padStart(2, '0')}/sub/mod${m}.py`] = `def f_${p}_${m}():\n    return ${m}\n\nclass C${p}${m}:\n    def m(self):\n        pass\n`;
  }
  return Volume.fromJSON(files);
}

/** memfs with counted (and optionally failing) folder listings, sync twins included. */
function listingFs(vol: Volume, failOn?: string): { fs: FileSystem; listed: string[] } {
  const listed: string[] = [];
  const v = vol as unknown as typeof nodeFs;
  const readdirSync = (path: string, options?: unknown): unknown => {
    listed.push(path);
    if (path === failOn) throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: 'EACCES' });
    return (v.readdirSync as (p: string, o?: unknown) => unknown)(path, options);
  };
  const fs = {
    promises: v.promises,
    lstatSync: v.lstatSync.bind(v),
    statSync: v.statSync.bind(v),
    readFileSync: v.readFileSync.bind(v),
    realpathSync: v.realpathSync.bind(v),
    readdirSync,
  };
  return { fs: fs as unknown as FileSystem, listed };
}

describe('a build parses while it walks', () => {
  it('starts parsing before the walk has listed every folder, with the rows of a build from a finished walk', async () => {
    const vol = tree();
    const { fs, listed } = listingFs(vol);
    const parser = new ParserPool();
    const listedAtProcess: number[] = [];
    const processor: FileProcessor = {
      process(language, source) {
        listedAtProcess.push(listed.length);
        return extractSource(parser, language, source);
      },
    };
    const events: ProgressEvent[] = [];
    const streamed = await CKGDatabase.open({ codebasePath: ROOT, fs, processor, languages: ['python'], onProgress: (e) => events.push(e) });
    // The same files indexed by an update (a finished walk): empty tree first, then everything.
    const empty = new Volume();
    empty.mkdirSync(ROOT, { recursive: true });
    const later = await CKGDatabase.open({ codebasePath: ROOT, fs: empty as unknown as FileSystem, languages: ['python'] });
    try {
      const folders = 1 + 24 * 2;
      expect(listed).toHaveLength(folders);
      expect(listedAtProcess).toHaveLength(72);
      expect(listedAtProcess[0]).toBeLessThan(folders / 2);
      // Progress stays consistent while totals grow: done never exceeds total, never decreases.
      const parse = events.filter((e) => e.phase === 'parse');
      for (let i = 1; i < parse.length; i++) {
        expect(parse[i]!.filesDone).toBeGreaterThanOrEqual(parse[i - 1]!.filesDone);
        expect(parse[i]!.filesDone).toBeLessThanOrEqual(parse[i]!.filesTotal);
      }
      expect(parse.at(-1)).toMatchObject({ filesDone: 72, filesTotal: 72 });
      // Totals are flagged as still growing while the walk runs, and final once it ended.
      expect(parse[0]!.walking).toBe(true);
      expect(parse[0]!.filesTotal).toBeLessThan(72);
      expect(events.filter((e) => e.walking !== true && e.phase !== 'scan').every((e) => e.filesTotal === 72)).toBe(true);
      expect(events.find((e) => e.phase === 'write')).toMatchObject({ filesDone: 72, filesTotal: 72 });
      expect(events.find((e) => e.phase === 'write')!.walking).toBeUndefined();

      for (const [path, text] of Object.entries(vol.toJSON())) {
        empty.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
        empty.writeFileSync(path, text as string);
      }
      expect(await later.update()).toMatchObject({ filesParsed: 72 });
      const rows = async (db: CKGDatabase) => {
        const out = [];
        for (let p = 0; p < 24; p++) for (let m = 0; m < 3; m++) out.push(await db.queryFunction(`f_${p}_${m}`), await db.queryClass(`C${p}${m}`));
        return out;
      };
      expect(await rows(streamed)).toEqual(await rows(later));
      expect(streamed.stats()).toEqual(later.stats());
      expect(streamed.report).toMatchObject({ filesParsed: 72, filesIndexed: 72, skipped: [] });
    } finally {
      streamed.close();
      later.close();
      await parser.delete();
    }
  });

  it('leaves out a folder it cannot list midway, reported, with no stray rejection', async () => {
    const vol = tree();
    const { fs } = listingFs(vol, `${ROOT}/pkg20/sub`);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const db = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python'] });
      const unlisted = db.report!.skipped.filter((s) => s.reason === 'unreadable');
      expect(unlisted).toEqual([{ path: `${ROOT}/pkg20/sub`, reason: 'unreadable', detail: expect.stringMatching(/EACCES/) }]);
      expect(db.report!.filesIndexed).toBeGreaterThan(0);
      db.close();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('stops the walk itself when aborted during it', async () => {
    const vol = tree();
    const controller = new AbortController();
    const { fs, listed } = listingFs(vol);
    const watched = new Proxy(fs, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop !== 'readdirSync') return value;
        return (path: string, options?: unknown) => {
          if (path === `${ROOT}/pkg10/sub`) controller.abort(new Error('user cancelled'));
          return (value as (p: string, o?: unknown) => unknown)(path, options);
        };
      },
    });
    const open = CKGDatabase.open({ codebasePath: ROOT, fs: watched, languages: ['python'], signal: controller.signal });
    await expect(open).rejects.toMatchObject({ code: 'ABORTED' });
    expect(listed).toContain(`${ROOT}/pkg10/sub`);
    expect(listed).not.toContain(`${ROOT}/pkg11`); // the walk ended at the next folder
  });
});

describe('the walk gives the event loop a turn', () => {
  it('through a MessageChannel where setImmediate is missing (browsers), and the build completes', async () => {
    const files: Record<string, string> = {};
    for (let p = 0; p < 400; p++) files[`${ROOT}/d${p}/e/f.py`] = `def g${p}():\n    pass\n`;
    const vol = Volume.fromJSON(files);
    const g = globalThis as { setImmediate?: unknown; MessageChannel: typeof MessageChannel };
    const { setImmediate } = g;
    const RealChannel = g.MessageChannel;
    let channels = 0;
    g.MessageChannel = class extends RealChannel {
      constructor() {
        super();
        channels++;
      }
    };
    delete g.setImmediate;
    let db: CKGDatabase | undefined;
    try {
      // A walk of 1,201 folders takes well over the 8 ms between turns.
      db = await CKGDatabase.open({ codebasePath: ROOT, fs: vol as unknown as FileSystem, languages: ['python'] });
    } finally {
      g.setImmediate = setImmediate;
      g.MessageChannel = RealChannel;
    }
    try {
      expect(db.stats()).toMatchObject({ files: 400, functions: 400 });
      expect(channels).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });
});
