// A write session that ends without commit leaves the index exactly as it was: an update aborted
// or failed after writing megabytes (more than SQLite's page cache holds, so pages of the
// transaction reached the database file before the end) is rolled back through the journal.
import { describe, expect, it } from 'vitest';
import { Volume } from 'memfs';
import { CKGDatabase, CKGError, type CKGDatabase as Database, type FileSystem } from '../src/index.js';

const FILES = 70;

/** A module whose definitions are named after `tag`, with long bodies (the 'stored' body mode keeps them in the database). */
function pythonModule(n: number, tag: string): string {
  const lines = [`"""module ${n}"""`, `from pkg${(n + 1) % 6}.m${(n + 1) % FILES} import f_${tag}_${(n + 1) % FILES}_0`];
  for (let k = 0; k < 30; k++) {
    lines.push(`def f_${tag}_${n}_${k}(a, b=${k}):`);
    for (let j = 0; j < 12; j++) lines.push(`    a = a + f_${tag}_${n}_${(k + 1) % 30}(b) * ${j}  # ${tag.repeat(20)}`);
    lines.push('    return a', '', `class C_${tag}_${n}_${k}:`, `    def m(self): return self.n(${k})`, '    def n(self, x): return x', '');
  }
  return lines.join('\n');
}

const pathOf = (i: number): string => `/r/pkg${i % 6}/m${i}.py`;
const treeOf = (tag: string): Record<string, string> => Object.fromEntries(Array.from({ length: FILES }, (_, i) => [pathOf(i), pythonModule(i, tag)]));

/** What the index holds, as plain text: every edge, a few definitions with their bodies, the counts. */
async function contents(db: Database): Promise<string> {
  const edges = (await db.edges()).map((e) => `${e.kind} ${e.from.qualifiedName} ${e.to?.qualifiedName ?? '-'} ${e.toName} ${e.filePath}:${e.line} ${e.resolution}`).sort();
  const functions = [];
  for (const tag of ['a', 'b']) for (const name of [`f_${tag}_0_0`, `f_${tag}_57_29`]) functions.push(...(await db.queryFunction(name)).map((f) => `${f.name} ${f.filePath}:${f.startLine}-${f.endLine} ${f.body.length}`));
  return JSON.stringify({ edges, functions, stats: await db.stats() });
}

describe('rollback of a write session', () => {
  it.each(['aborted', 'stopped by its own onProgress throwing'])('an update %s after writing megabytes leaves the index as it was, and the next update completes it', async (how) => {
    const vol = Volume.fromJSON(treeOf('a'));
    const fs = vol as unknown as FileSystem;
    const db = await CKGDatabase.open({ codebasePath: '/r', fs, bodies: 'stored' });
    try {
      const before = await contents(db);
      expect(before).toContain('f_a_57_29');
      for (let i = 0; i < FILES; i++) vol.writeFileSync(pathOf(i), pythonModule(i, 'b'));
      const controller = new AbortController();
      const stop = (): void => {
        if (how === 'aborted') controller.abort(new Error('stopped'));
        else throw new Error('a bug in the caller');
      };
      const error = await db
        .update({ signal: controller.signal, onProgress: (e) => void (e.phase === 'parse' && e.filesDone === FILES - 5 && stop()) })
        .then(() => undefined, (e: unknown) => e);
      if (how === 'aborted') {
        expect(error).toBeInstanceOf(CKGError);
        expect((error as CKGError).code).toBe('ABORTED');
      } else expect((error as Error).message).toBe('a bug in the caller');
      expect(await contents(db)).toBe(before);
      // Its bytes pass the integrity checks of a database opened from bytes (as they are: without a
      // file system to compare them with).
      const copy = await CKGDatabase.fromBytes(db.export());
      expect(await contents(copy)).toBe(before);
      await copy.close();
      // Nothing of the stopped session counts as done: the next update writes every file.
      const report = await db.update();
      expect(report.filesParsed).toBe(FILES);
      const fresh = await CKGDatabase.open({ codebasePath: '/r', fs, bodies: 'stored' });
      expect(await contents(db)).toBe(await contents(fresh));
      await fresh.close();
    } finally {
      await db.close();
    }
  }, 120_000);
});
