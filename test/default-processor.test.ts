// The default processor in Node: a build that parses more than POOL_AFTER_FILES files moves to a
// worker_threads pool for the rest of the run (where more than one core and the built worker
// script exist), smaller runs and 'this-thread' parse in the calling thread; either way the
// index is the same, and no worker outlives the run.
import { availableParallelism } from 'node:os';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, type FileSystem } from '../src/index.js';
import { POOL_AFTER_FILES } from '../src/parser/adaptive-processor.js';

function codebase(count: number): { fs: FileSystem; vol: Volume } {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`/repo/pkg${i % 7}/m${i}.py`] = `class C${i}:\n    def run(self):\n        return ${i}\n\ndef f${i}():\n    return C${i}()\n`;
  const vol = Volume.fromJSON(files);
  return { fs: vol as unknown as FileSystem, vol };
}

/** Worker threads of this process now (Node has no API to list them; their handles show). */
const workerHandles = (): number => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort' || r === 'Worker').length;

describe('the default processor (Node)', () => {
  const expectedWorkers = availableParallelism() < 2 ? 0 : Math.min(availableParallelism(), 4);

  it('moves a large build to worker threads and stops them when the build ends', async () => {
    const { fs } = codebase(POOL_AFTER_FILES * 3);
    const before = workerHandles();
    let during = 0;
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs, onProgress: () => (during = Math.max(during, workerHandles())) });
    try {
      expect(db.report).toMatchObject({ filesParsed: POOL_AFTER_FILES * 3, skipped: [], workers: expectedWorkers });
      // Worker handles were there while it parsed, and are gone now.
      if (expectedWorkers > 0) expect(during).toBeGreaterThan(before);
      expect(workerHandles()).toBe(before);
      const inThread = await CKGDatabase.open({ codebasePath: '/repo', fs, processor: 'this-thread' });
      try {
        expect(inThread.report?.workers).toBe(0);
        for (const name of ['f0', `f${POOL_AFTER_FILES * 3 - 1}`]) expect(await db.queryFunction(name)).toEqual(await inThread.queryFunction(name));
        expect(db.stats()).toEqual(inThread.stats());
      } finally {
        inThread.close();
      }
    } finally {
      db.close();
    }
  });

  it('parses small builds and small updates in the calling thread', async () => {
    const { fs, vol } = codebase(POOL_AFTER_FILES);
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs });
    try {
      expect(db.report).toMatchObject({ filesParsed: POOL_AFTER_FILES, workers: 0 });
      vol.writeFileSync('/repo/pkg0/m0.py', 'def changed():\n    pass\n');
      expect(await db.update()).toMatchObject({ filesParsed: 1, workers: 0 });
      expect((await db.queryFunction('changed'))[0]?.filePath).toBe('/repo/pkg0/m0.py');
    } finally {
      db.close();
    }
  });
});
