import type { SqlValue } from 'sql.js';
import { compareCodePoints, type IndexStore } from '../db/store.js';
import type { Edge, EdgeFilter, EdgeKind } from '../db/entries.js';
import { EDGE_KIND_CODES, FIRST_UNRESOLVED_CODE, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { CKGError } from '../errors.js';
import { isAbsolute, join, normalize } from '../fs/path.js';
import { refOf, SymbolCache, symbolsMatching } from './symbols.js';

const EDGE_KINDS: readonly EdgeKind[] = ['calls', 'imports', 'inherits', 'implements', 'contains'];
const RESOLUTION_NAMES = new Map<number, string>(Object.entries(RESOLUTION_CODES).map(([name, code]) => [code, name]));

/** `edges.resolution` as the public pair: how it was found, or 'unresolved' and why. */
export function resolutionOf(code: number): { resolution: string; reason?: string } {
  const name = RESOLUTION_NAMES.get(code) ?? 'unresolved';
  return code >= FIRST_UNRESOLVED_CODE ? { resolution: 'unresolved', reason: name } : { resolution: name };
}

function kindsOf(filter: EdgeFilter['kind']): readonly EdgeKind[] {
  if (filter === undefined) return EDGE_KINDS;
  const kinds = typeof filter === 'string' ? [filter] : filter;
  if (!Array.isArray(kinds) || kinds.some((k) => !EDGE_KINDS.includes(k as EdgeKind))) {
    throw new CKGError('INVALID_ARGUMENT', `kind must be one or more of ${EDGE_KINDS.join(', ')}, got ${JSON.stringify(filter)}`);
  }
  return kinds;
}

/** Orders edges as every answer does: file (by code point), line, kind, target name, target. */
export function compareEdges(a: Edge, b: Edge): number {
  return (
    compareCodePoints(a.filePath, b.filePath) ||
    a.line - b.line ||
    compareCodePoints(a.kind, b.kind) ||
    compareCodePoints(a.toName, b.toName) ||
    compareCodePoints(a.from.qualifiedName, b.from.qualifiedName) ||
    compareCodePoints(a.to?.qualifiedName ?? '', b.to?.qualifiedName ?? '')
  );
}

/**
 * The edges matching `filter`, in {@link compareEdges} order. `contains` edges are a class's
 * methods and a function's nested definitions (from the symbols' nesting), plus methods declared
 * outside their class (Go, C++ out-of-class definitions, Rust `impl` items).
 */
export function queryEdges(store: IndexStore, root: string, filter: EdgeFilter = {}): Edge[] {
  if (filter === null || typeof filter !== 'object') throw new CKGError('INVALID_ARGUMENT', 'filter must be an object');
  for (const key of ['from', 'to', 'toName', 'filePath'] as const) {
    if (filter[key] !== undefined && typeof filter[key] !== 'string') throw new CKGError('INVALID_ARGUMENT', `filter.${key} must be a string`);
  }
  const kinds = kindsOf(filter.kind);
  const symbols = new SymbolCache(store);
  const fromIds = filter.from === undefined ? undefined : new Set(symbolsMatching(store, filter.from).map((s) => s.id));
  const toIds = filter.to === undefined ? undefined : new Set(symbolsMatching(store, filter.to).map((s) => s.id));
  const filePath = filter.filePath === undefined ? undefined : isAbsolute(filter.filePath) ? normalize(filter.filePath) : join(root, filter.filePath);
  if ((fromIds && fromIds.size === 0) || (toIds && toIds.size === 0)) return [];

  // The narrowest index first: the target, the source, the written name, else every row.
  const stored = kinds.filter((k) => k !== 'contains').map((k) => EDGE_KIND_CODES[k]);
  const rows: SqlValue[][] = [];
  if (stored.length > 0) {
    const kindList = stored.join(', ');
    const columns = `SELECT e.kind, e.from_id, e.to_id, ${NAME_OF_EDGE}, e.line, e.resolution FROM edges e`;
    // Appended row by row: a spread of a large answer (every edge of the kernel, the callers of
    // `printk`) passes each row as an argument and overflows the stack.
    const add = (found: readonly SqlValue[][]): void => {
      for (const row of found) rows.push(row);
    };
    if (toIds) for (const id of toIds) add(store.rows(`${columns} WHERE e.to_id = ? AND e.kind IN (${kindList})`, [id]));
    else if (fromIds) for (const id of fromIds) add(store.rows(`${columns} WHERE e.from_id = ? AND e.kind IN (${kindList})`, [id]));
    else if (filter.toName !== undefined) add(store.rows(`${columns} WHERE e.name_id = (SELECT id FROM names WHERE name = ?) AND e.kind IN (${kindList})`, [filter.toName]));
    else add(store.rows(`${columns} WHERE e.kind IN (${kindList})`));
  }
  const out: Edge[] = [];
  const keep = (edge: Edge, fromId: number, toId: number | null): void => {
    if (fromIds && !fromIds.has(fromId)) return;
    if (toIds && (toId === null || !toIds.has(toId))) return;
    if (filter.toName !== undefined && edge.toName !== filter.toName) return;
    if (filePath !== undefined && edge.filePath !== filePath) return;
    out.push(edge);
  };
  const kindName = new Map<number, EdgeKind>(EDGE_KINDS.filter((k) => k !== 'contains').map((k) => [EDGE_KIND_CODES[k], k]));
  for (const [kind, fromId, toId, toName, line, resolution] of rows) {
    const from = symbols.get(Number(fromId));
    if (!from) continue;
    const to = toId === null ? undefined : symbols.get(Number(toId));
    keep(
      {
        kind: kindName.get(Number(kind))!,
        from: refOf(from),
        to: to ? refOf(to) : null,
        toName: String(toName),
        filePath: from.filePath,
        line: Number(line),
        ...resolutionOf(Number(resolution)),
      },
      from.id,
      to?.id ?? null,
    );
  }
  if (kinds.includes('contains')) {
    const pairs: [number, number, number][] = []; // container, member, resolution
    const lexical = 'SELECT s.parent_id, s.id FROM symbols s JOIN symbols p ON p.id = s.parent_id WHERE p.kind <> \'module\'';
    const joined = `SELECT e.to_id, e.from_id, e.resolution FROM edges e WHERE e.kind = ${EDGE_KIND_CODES.member_of} AND e.to_id IS NOT NULL`;
    if (fromIds) {
      for (const id of fromIds) {
        for (const [p, c] of store.rows(`${lexical} AND s.parent_id = ?`, [id])) pairs.push([Number(p), Number(c), RESOLUTION_CODES.local]);
        for (const [p, c, r] of store.rows(`${joined} AND e.to_id = ?`, [id])) pairs.push([Number(p), Number(c), Number(r)]);
      }
    } else {
      for (const [p, c] of store.rows(lexical)) pairs.push([Number(p), Number(c), RESOLUTION_CODES.local]);
      for (const [p, c, r] of store.rows(joined)) pairs.push([Number(p), Number(c), Number(r)]);
    }
    for (const [containerId, memberId, resolution] of pairs) {
      const container = symbols.get(containerId);
      const member = symbols.get(memberId);
      if (!container || !member) continue;
      keep(
        { kind: 'contains', from: refOf(container), to: refOf(member), toName: member.name, filePath: member.filePath, line: member.startLine, ...resolutionOf(resolution) },
        container.id,
        member.id,
      );
    }
  }
  return out.sort(compareEdges);
}
