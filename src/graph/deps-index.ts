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
  /** The rows of the build that made this index, not yet added (see {@link DepsIndex.ofBuild}). */
  #unread: { readonly firstId: number; readonly deps: ReadonlyMap<number, string> } | undefined;

  /**
   * The index of the rows a build writes: row `firstId + i` depends on `deps.get(i)`. Filled on
   * first use, by the first update: a build that is exported and closed, or only queried (a CLI
   * run, a bundle built in CI), never spends the time (Django: 20 ms of its build).
   */
  static ofBuild(firstId: number, deps: ReadonlyMap<number, string>): DepsIndex {
    const index = new DepsIndex();
    index.#unread = { firstId, deps };
    return index;
  }

  #read(): void {
    const unread = this.#unread;
    if (unread === undefined) return;
    this.#unread = undefined;
    for (const [i, text] of unread.deps) this.#add(unread.firstId + i, text);
  }

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
    this.#read();
    if (before !== null) for (const name of before.split(' ')) this.#byName.get(name)?.delete(id);
    if (after !== null) this.#add(id, after);
  }

  #add(id: number, deps: string): void {
    for (const name of deps.split(' ')) {
      let ids = this.#byName.get(name);
      if (!ids) this.#byName.set(name, (ids = new Set()));
      ids.add(id);
    }
  }

  /** Edges whose dependencies held any of `names` (some may have been deleted since). */
  edgesDependingOn(names: Iterable<string>): Set<number> {
    this.#read();
    const out = new Set<number>();
    for (const name of names) for (const id of this.#byName.get(name) ?? []) out.add(id);
    return out;
  }
}
