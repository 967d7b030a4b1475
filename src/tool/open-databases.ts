import type { CKGDatabase } from '../db/database.js';

interface Entry {
  readonly opening: Promise<CKGDatabase>;
  /** Calls using the database right now: it is never closed under them. */
  users: number;
}

/**
 * The databases a long-lived tool keeps open, one per codebase root, at most `limit` of them:
 * opening one more closes the least recently used one that no call is using. (Each open index
 * holds its sql.js database and parsers: 400 codebases kept open cost 153 MB.)
 *
 * @example
 * ```ts
 * const open = new OpenDatabases(16);
 * const rows = await open.use('/abs/repo', () => CKGDatabase.open({ codebasePath: '/abs/repo', fs }), (db) => db.queryClass('Widget'));
 * ```
 */
export class OpenDatabases {
  /** In use order: the first entry is the least recently used. */
  readonly #entries = new Map<string, Entry>();

  constructor(readonly limit: number) {}

  /** Number of databases open (or opening). */
  get size(): number {
    return this.#entries.size;
  }

  /** Runs `fn` on the database of `root`, opening it with `open` when it is not open. */
  async use<T>(root: string, open: () => Promise<CKGDatabase>, fn: (db: CKGDatabase, reused: boolean) => Promise<T>): Promise<T> {
    let entry = this.#entries.get(root);
    const reused = entry !== undefined;
    if (entry === undefined) {
      entry = { opening: open(), users: 0 };
      const opening = entry.opening;
      opening.catch(() => {
        if (this.#entries.get(root)?.opening === opening) this.#entries.delete(root);
      });
    }
    // Most recently used last.
    this.#entries.delete(root);
    this.#entries.set(root, entry);
    entry.users++;
    try {
      return await fn(await entry.opening, reused);
    } finally {
      entry.users--;
      this.#evict();
    }
  }

  /** Closes every database. */
  async closeAll(): Promise<void> {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of all) await close(entry);
  }

  #evict(): void {
    for (const [root, entry] of this.#entries) {
      if (this.#entries.size <= this.limit) return;
      if (entry.users > 0) continue;
      this.#entries.delete(root);
      void close(entry);
    }
  }
}

async function close(entry: Entry): Promise<void> {
  try {
    (await entry.opening).close();
  } catch {
    // a failed open has nothing to close
  }
}
