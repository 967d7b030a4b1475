import type { Database } from 'sql.js';

/**
 * Which edges' resolution depended on which names (`edges.deps`, inverted), kept in memory
 * between updates: an update asks for the edges that looked up the few names it changed, which
 * would otherwise be a scan of every row with dependencies (Django: 28,000 rows, 30 ms). Built
 * from the table on first use (or by the build that wrote the rows) and kept in step with every
 * resolution pass; entries of deleted rows may linger, so callers read rows back by id and skip
 * those that are gone.
 */
export class DepsIndex {
  readonly #byName = new Map<string, Set<number>>();

  /** The index of a database's `edges.deps`. */
  static load(db: Database): DepsIndex {
    const index = new DepsIndex();
    const stmt = db.prepare('SELECT id, deps FROM edges WHERE deps IS NOT NULL');
    try {
      while (stmt.step()) {
        const [id, deps] = stmt.get();
        index.set(Number(id), null, String(deps));
      }
    } finally {
      stmt.free();
    }
    return index;
  }

  /** Records that edge `id`'s dependencies went from `before` to `after` (space-separated names, or null). */
  set(id: number, before: string | null, after: string | null): void {
    if (before === after) return;
    if (before !== null) for (const name of before.split(' ')) this.#byName.get(name)?.delete(id);
    if (after !== null) {
      for (const name of after.split(' ')) {
        let ids = this.#byName.get(name);
        if (!ids) this.#byName.set(name, (ids = new Set()));
        ids.add(id);
      }
    }
  }

  /** Edges whose dependencies held any of `names` (some may have been deleted since). */
  edgesDependingOn(names: Iterable<string>): Set<number> {
    const out = new Set<number>();
    for (const name of names) for (const id of this.#byName.get(name) ?? []) out.add(id);
    return out;
  }
}
