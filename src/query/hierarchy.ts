import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE } from '../db/schema.js';
import { refOf, SymbolCache, type SymbolRow } from './symbols.js';
import { symbolsOf } from './targets.js';
import type { ClassHierarchy, HierarchyEntry, SymbolTarget } from './types.js';

const BASE_KINDS = `${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}`;
const relationOf = (kind: number): 'inherits' | 'implements' => (kind === EDGE_KIND_CODES.implements ? 'implements' : 'inherits');

/**
 * The bases (up) and subclasses (down) of every class a target names, transitive and breadth
 * first, each class once; a base outside the codebase appears by name with no symbol.
 */
export function classHierarchy(store: IndexStore, target: SymbolTarget): ClassHierarchy[] {
  const symbols = new SymbolCache(store);
  return symbolsOf(store, target)
    .filter((s) => s.kind === 'class')
    .map((cls) => ({ symbol: refOf(cls), bases: walk(store, symbols, cls, 'up'), subclasses: walk(store, symbols, cls, 'down') }));
}

function walk(store: IndexStore, symbols: SymbolCache, start: SymbolRow, way: 'up' | 'down'): HierarchyEntry[] {
  const out: HierarchyEntry[] = [];
  const seen = new Set<number>([start.id]);
  let frontier = [start];
  for (let depth = 1; frontier.length > 0 && depth <= 64; depth++) {
    const next: SymbolRow[] = [];
    for (const cls of frontier) {
      const rows =
        way === 'up'
          ? store.rows(`SELECT e.to_id, ${NAME_OF_EDGE}, e.kind FROM edges e WHERE e.from_id = ? AND e.kind IN (${BASE_KINDS}) ORDER BY e.id`, [cls.id])
          : store.rows(`SELECT e.from_id, ${NAME_OF_EDGE}, e.kind FROM edges e WHERE e.to_id = ? AND e.kind IN (${BASE_KINDS}) ORDER BY e.id`, [cls.id]);
      for (const [otherId, name, kind] of rows) {
        const other = otherId === null ? undefined : symbols.get(Number(otherId));
        out.push({ symbol: other ? refOf(other) : null, name: way === 'up' ? String(name) : (other?.name ?? String(name)), relation: relationOf(Number(kind)), depth, of: refOf(cls) });
        if (other && !seen.has(other.id)) {
          seen.add(other.id);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return out;
}
