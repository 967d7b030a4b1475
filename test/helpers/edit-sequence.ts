// Random edit sequences for the graph's property tests: files written, deleted and moved one step
// at a time, each step followed by `update()` and compared with a fresh build of the same files
// (every symbol, edge, resolution, dependency and binding, and the public edges).
import fc from 'fast-check';
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { expect } from 'vitest';
import { CKGDatabase, type BodyMode, type FileSystem } from '../../src/index.js';
import { compareEdges } from '../../src/query/edges.js';
import { graphLines } from './graph-dump.js';

const ROOT = '/repo';

export type Step =
  | { readonly type: 'write'; readonly file: number; readonly content: string }
  | { readonly type: 'delete'; readonly file: number }
  | { readonly type: 'move'; readonly from: number; readonly to: number };

/** Steps over `count` files: mostly writes of `content`, some deletes and moves. */
export function stepArb(content: fc.Arbitrary<string>, count: number): fc.Arbitrary<Step> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ type: fc.constant('write' as const), file: fc.nat(count - 1), content }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('delete' as const), file: fc.nat(count - 1) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('move' as const), from: fc.nat(count - 1), to: fc.nat(count - 1) }) },
  );
}

function volumeOf(files: ReadonlyMap<string, string>): Volume {
  const vol = new Volume();
  vol.mkdirSync(ROOT, { recursive: true });
  for (const [path, content] of files) {
    vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
    vol.writeFileSync(`${ROOT}/${path}`, content);
  }
  return vol;
}

let SQL: Awaited<ReturnType<typeof initSqlJs>> | undefined;

async function graphOf(db: CKGDatabase, checkOrder: boolean): Promise<{ lines: string[]; edges: string[]; stats: string }> {
  SQL ??= await initSqlJs();
  const raw = new SQL.Database(db.export());
  try {
    const edges = await db.edges();
    if (checkOrder) expect(edges).toEqual([...edges].sort(compareEdges));
    return { lines: graphLines(raw), edges: edges.map((e) => JSON.stringify(e)), stats: JSON.stringify(db.stats()) };
  } finally {
    raw.close();
  }
}

/**
 * Opens `paths` (relative) with `initial` contents (in `language`, or every language), applies the
 * steps, and checks each update against a fresh build; `checkOrder` also checks that `edges()`
 * returns its edges sorted.
 */
export async function checkEditSequence(
  language: string | undefined,
  paths: readonly string[],
  initial: readonly string[],
  steps: readonly Step[],
  bodies: BodyMode,
  options: { readonly checkOrder?: boolean } = {},
): Promise<void> {
  const files = new Map<string, string>(initial.map((content, i) => [paths[i]!, content]));
  const vol = volumeOf(files);
  const languages = language === undefined ? {} : { languages: [language] };
  const open = (fs: Volume): Promise<CKGDatabase> => CKGDatabase.open({ codebasePath: ROOT, fs: fs as unknown as FileSystem, ...languages, bodies });
  const db = await open(vol);
  try {
    for (const step of steps) {
      if (step.type === 'write') {
        const path = paths[step.file]!;
        vol.mkdirSync(`${ROOT}/${path}`.replace(/\/[^/]+$/, ''), { recursive: true });
        vol.writeFileSync(`${ROOT}/${path}`, step.content);
        files.set(path, step.content);
      } else if (step.type === 'delete') {
        const path = paths[step.file]!;
        if (!files.has(path)) continue;
        vol.rmSync(`${ROOT}/${path}`);
        files.delete(path);
      } else {
        const from = paths[step.from]!;
        const to = paths[step.to]!;
        const content = files.get(from);
        if (content === undefined || from === to) continue;
        vol.mkdirSync(`${ROOT}/${to}`.replace(/\/[^/]+$/, ''), { recursive: true });
        vol.renameSync(`${ROOT}/${from}`, `${ROOT}/${to}`);
        files.delete(from);
        files.set(to, content);
      }
      await db.update();
      const fresh = await open(volumeOf(files));
      try {
        const [got, want] = [await graphOf(db, options.checkOrder === true), await graphOf(fresh, options.checkOrder === true)];
        expect(got.lines, JSON.stringify({ step, files: Object.fromEntries(files) }, null, 1)).toEqual(want.lines);
        expect(got.edges).toEqual(want.edges);
        // The counts an update keeps row by row are those a fresh build counts.
        expect(got.stats).toEqual(want.stats);
      } finally {
        fresh.close();
      }
    }
  } finally {
    db.close();
  }
}

/** The body modes a property test draws from. */
export const bodyModes: fc.Arbitrary<BodyMode> = fc.constantFrom<BodyMode>('stored', 'compressed', 'lazy');

/**
 * The property of a language's graph under edits: for `numRuns` draws of a body mode, every
 * file's first content and up to four steps (writes of `content`, deletes, moves), each step's
 * update equals a fresh build ({@link checkEditSequence}).
 */
export async function checkRandomEdits(language: string, paths: readonly string[], content: fc.Arbitrary<string>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      bodyModes,
      fc.array(content, { minLength: paths.length, maxLength: paths.length }),
      fc.array(stepArb(content, paths.length), { minLength: 1, maxLength: 4 }),
      async (bodies, initial, steps) => {
        await checkEditSequence(language, paths, initial, steps, bodies);
      },
    ),
    { numRuns },
  );
}
