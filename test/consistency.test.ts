// A query during update() sees the index before or after it, never half of it; close() during
// an update rejects it with CLOSED.
import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGError, type FunctionEntry } from '../src/index.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';

const FILES = 200;
const files = (version: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`pkg${i % 10}/m${i}.py`, `def shared():\n    return ${version}\n\ndef only_v${version}_${i}():\n    pass\n`]));
const versions = (rows: readonly FunctionEntry[]): number[] => [...new Set(rows.map((r) => Number(/return (\d+)/.exec(r.body)![1])))].sort();

function rewrite(tree: FixtureTree, version: number): void {
  for (const [rel, text] of Object.entries(files(version))) tree.write(rel, text);
}

describe('queries during an update', () => {
  it.each(['stored', 'lazy'] as const)('see the whole index before or after it (%s bodies)', async (bodies) => {
    const tree = makeTree('memfs', files(1));
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies });
    try {
      rewrite(tree, 2);
      const answers: Promise<FunctionEntry[]>[] = [];
      const counts: ReturnType<CKGDatabase['stats']>[] = [];
      let exportError: unknown;
      const report = await db.update({
        onProgress: (event) => {
          if (event.phase !== 'parse' || event.filesDone % 20 !== 10) return;
          // Asked in the middle of the update, with half of the files rewritten.
          answers.push(db.queryFunction('shared'));
          answers.push(db.queryFunction('only_v1_150').then((rows) => rows.map((r) => ({ ...r, body: 'return 1' }))));
          counts.push(db.stats());
          try {
            db.export();
          } catch (error) {
            exportError = error;
          }
        },
      });
      expect(report.filesParsed).toBe(FILES);
      expect(answers.length).toBeGreaterThanOrEqual(18);
      for (const answer of await Promise.all(answers.filter((_, i) => i % 2 === 0))) {
        expect(answer).toHaveLength(FILES);
        expect(versions(answer)).toEqual([2]); // they waited for the update
      }
      // `only_v1_150` is gone after the update: no query saw it half-removed.
      for (const answer of await Promise.all(answers.filter((_, i) => i % 2 === 1))) expect(answer).toEqual([]);
      expect(counts.every((c) => c.functions === 2 * FILES && c.files === FILES)).toBe(true);
      expect(exportError).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/await the update/) });
      expect(versions(await db.queryFunction('shared'))).toEqual([2]);
    } finally {
      db.close();
    }
  });

  it('queries asked before an update answer from the index before it', async () => {
    const tree = makeTree('memfs', files(1));
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies: 'stored' });
    try {
      rewrite(tree, 2);
      const before = db.queryFunction('shared');
      const update = db.update();
      const after = db.queryFunction('shared');
      expect(versions(await before)).toEqual([1]);
      expect(versions(await after)).toEqual([2]);
      await update;
    } finally {
      db.close();
    }
  });
});

describe('close() during an update', () => {
  it('rejects the update with CLOSED wherever it is, and queries waiting for it too', async () => {
    const tree = makeTree('memfs', files(1));
    let version = 1;
    const next = async (): Promise<CKGDatabase> => {
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
      rewrite(tree, ++version); // every file changed: the update re-parses all of them
      return db;
    };
    // How many progress events an update gives, to close at points spread over all of them.
    let total = 0;
    const probe = await next();
    await probe.update({ onProgress: () => void total++ });
    probe.close();
    expect(total).toBeGreaterThanOrEqual(FILES);
    for (let k = 1; k <= 15; k++) {
      const closeAt = Math.max(1, Math.floor((k * total) / 16));
      const live = await next();
      let events = 0;
      let waiting: Promise<unknown> | undefined;
      const update = live.update({
        onProgress: () => {
          if (++events === closeAt) {
            waiting = live.queryClass('Nothing').then(() => 'answered', (e: unknown) => e); // handled now: it rejects at close
            live.close();
          }
        },
      });
      const error = await update.then(() => undefined, (e: unknown) => e);
      expect(events).toBeGreaterThanOrEqual(closeAt);
      expect(error).toBeInstanceOf(CKGError);
      expect((error as CKGError).code).toBe('CLOSED');
      expect(await waiting).toMatchObject({ code: 'CLOSED' });
      await expect(live.update()).rejects.toMatchObject({ code: 'CLOSED' });
    }
    // 16 builds and 16 updates: 15 s on a quiet 2-core machine, 45 s or more when it is loaded.
  }, 180_000);
});
