// docs/schema.md is a public interface: its example queries run on a real index and answer what
// the page says they answer (and the tables and columns it names exist).
import nodeFs from 'node:fs';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { graphFixture, openGraph } from './helpers/graph.js';

const DOC = nodeFs.readFileSync(new URL('../docs/schema.md', import.meta.url), 'utf8');
const QUERIES = [...DOC.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('docs/schema.md', () => {
  it('gives example queries that run on a real index with the answers it describes', async () => {
    const graph = await openGraph(graphFixture('python'));
    const SQL = await initSqlJs();
    const raw = new SQL.Database(graph.db.export());
    try {
      const run = (sql: string): unknown[][] => raw.exec(sql.replaceAll('/abs/repo', graph.tree.root))[0]?.values ?? [];
      expect(QUERIES).toHaveLength(5);
      expect(run(QUERIES[0]!)).toEqual([
        ['app.main', `${graph.tree.root}/app.py`, 14],
        ['shop.catalog.Catalog.add_product', `${graph.tree.root}/shop/catalog.py`, 14],
      ]);
      expect(run(QUERIES[1]!)).toEqual([[`${graph.tree.root}/app.py`, 10, 'dynamic']]);
      expect(run(QUERIES[2]!).map((r) => r[0])).toEqual(['shop.models.Model', 'shop.models.Product']);
      expect(run(QUERIES[3]!).map((r) => [r[0], r[1]])).toEqual([
        ['os.path', null],
        ['thirdparty.strings', null],
        ['.models', 'shop.models'],
        ['.', 'shop'],
      ]);
      const causes = Object.fromEntries(run(QUERIES[4]!).map(([name, n]) => [String(name), Number(n)]));
      expect(causes).toMatchObject({ builtin: expect.any(Number), dynamic: expect.any(Number), parameter: 2, external: 2 });
      // Every table and view the page documents exists, with the columns it lists.
      const tables = raw.exec("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")[0]!.values.map((r) => String(r[0]));
      for (const t of ['meta', 'files', 'symbols', 'functions', 'classes', 'names', 'edges', 'edge_list', 'bindings', 'sources', 'edge_kinds', 'resolutions']) expect(tables).toContain(t);
      const columns = (t: string): string[] => raw.exec(`PRAGMA table_info(${t})`)[0]!.values.map((r) => String(r[1]));
      expect(columns('symbols')).toEqual(['id', 'kind', 'name', 'qualified_name', 'file_id', 'parent_id', 'start_line', 'end_line', 'parent_function', 'parent_class', 'fields', 'methods', 'body', 'body_start', 'body_end', 'body_hash', 'flags']);
      expect(columns('names')).toEqual(['id', 'name']);
      expect(columns('edges')).toEqual(['id', 'kind', 'from_id', 'to_id', 'name_id', 'line', 'resolution', 'site', 'deps']);
      expect(columns('edge_list')).toEqual(['id', 'kind', 'from_id', 'to_id', 'to_name', 'file_id', 'file_path', 'line', 'resolution', 'reason']);
      expect(columns('functions')).toEqual(['id', 'name', 'file_path', 'body', 'start_line', 'end_line', 'parent_function', 'parent_class', 'file_id', 'body_start', 'body_end', 'body_hash']);
    } finally {
      raw.close();
      graph.close();
    }
  });
});
