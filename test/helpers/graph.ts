// Fixture codebases for the code graph and a compact, exact text form of its edges.
import nodeFs from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { CKGDatabase, type Edge, type EdgeFilter, type OpenOptions } from '../../src/index.js';
import { makeTree, type Backend, type FixtureTree } from './fixtures.js';

const GRAPH_FIXTURES = fileURLToPath(new URL('../fixtures/graph/', import.meta.url));

/** Every file of test/fixtures/graph/<name>, by path relative to that folder. */
export function graphFixture(name: string): Record<string, string> {
  const root = join(GRAPH_FIXTURES, name);
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of nodeFs.readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(root, path).split('\\').join('/')] = nodeFs.readFileSync(path, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** `file:line kind from -> to [name as written] resolution`, paths relative to `root`, `∅` for no target. */
export function edgeLine(e: Edge, root: string): string {
  const rel = (p: string): string => (p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p);
  const to = e.to ? e.to.qualifiedName : '∅';
  return `${rel(e.filePath)}:${e.line} ${e.kind} ${e.from.qualifiedName} -> ${to} [${e.toName}] ${e.resolution}${e.reason ? `:${e.reason}` : ''}`;
}

/** A fixture codebase opened as an index, with its edges as lines. */
export interface GraphUnderTest {
  readonly db: CKGDatabase;
  readonly tree: FixtureTree;
  lines(filter?: EdgeFilter): Promise<string[]>;
  close(): void;
}

export async function openGraph(files: Record<string, string>, backend: Backend = 'memfs', options: Partial<OpenOptions> = {}): Promise<GraphUnderTest> {
  const tree = makeTree(backend, files);
  const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, ...options });
  return {
    db,
    tree,
    lines: async (filter) => (await db.edges(filter)).map((e) => edgeLine(e, tree.root)),
    close: () => {
      db.close();
      tree.cleanup();
    },
  };
}

/**
 * Applies each edit, updates, and checks the edges equal a fresh build's of the same files;
 * with `also`, what it reads of an index too (rows db.edges() does not list), which it returns
 * for each edit.
 */
export async function expectExactThrough(
  files: Record<string, string>,
  backend: Backend,
  edits: readonly ((files: Record<string, string | null>) => void)[],
  also?: (db: CKGDatabase, root: string) => Promise<string[]>,
): Promise<string[][]> {
  const graph = await openGraph(files, backend);
  const seen: string[][] = [];
  try {
    const current: Record<string, string | null> = { ...files };
    for (const edit of edits) {
      const before = { ...current };
      edit(current);
      for (const [path, text] of Object.entries(current)) {
        if (text === before[path]) continue;
        if (text === null) graph.tree.remove(path);
        else graph.tree.write(path, text);
      }
      await graph.db.update();
      const fresh = await CKGDatabase.open({ codebasePath: graph.tree.root, fs: graph.tree.fs });
      try {
        expect(await graph.lines()).toEqual((await fresh.edges()).map((e) => edgeLine(e, graph.tree.root)));
        if (also) {
          const updated = await also(graph.db, graph.tree.root);
          expect(updated).toEqual(await also(fresh, graph.tree.root));
          seen.push(updated);
        }
      } finally {
        fresh.close();
      }
    }
  } finally {
    graph.close();
  }
  return seen;
}
