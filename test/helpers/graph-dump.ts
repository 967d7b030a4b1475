// The code graph of an index as sorted, id-free text lines: two indexes of the same content
// (one updated step by step, one built fresh; one built in workers, one in this thread) must
// give the same lines. Symbols are named by file and qualified name (plus kind and start line,
// which tell same-named overloads apart); edges by their ends and site.
import type { Database } from 'sql.js';

/** Symbols, edges (every stored kind, with resolution and dependencies) and bindings, as lines. */
export function graphLines(raw: Database): string[] {
  const all = (sql: string): unknown[][] => raw.exec(sql)[0]?.values ?? [];
  const key = new Map<number, string>();
  for (const [id, path, kind, qname, start] of all('SELECT s.id, f.path, s.kind, s.qualified_name, s.start_line FROM symbols s JOIN files f ON f.id = s.file_id')) {
    key.set(Number(id), `${String(path)}#${String(kind)}:${String(qname)}@${String(start)}`);
  }
  const name = (id: unknown): string => (id === null ? '-' : (key.get(Number(id)) ?? `dangling:${String(id)}`));
  const lines: string[] = [];
  for (const [id, parent, name_, end, pf, pc, flags] of all('SELECT id, parent_id, name, end_line, parent_function, parent_class, flags FROM symbols')) {
    lines.push(`Y ${name(id)} ${JSON.stringify([name(parent), name_, end, pf, pc, flags])}`);
  }
  for (const [kind, from, to, toName, line, resolution, site, deps] of all('SELECT kind, from_id, to_id, to_name, line, resolution, site, deps FROM edges')) {
    lines.push(`E ${name(from)} ${JSON.stringify([kind, toName, line, name(to), resolution, site, deps])}`);
  }
  for (const [path, scope, kind, bname, module, member, line] of all('SELECT f.path, b.scope_id, b.kind, b.name, b.module, b.member, b.line FROM bindings b JOIN files f ON f.id = b.file_id')) {
    lines.push(`B ${String(path)} ${JSON.stringify([name(scope), kind, bname, module, member, line])}`);
  }
  return lines.sort();
}
