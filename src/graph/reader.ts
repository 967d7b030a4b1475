import type { Database, SqlValue, Statement } from 'sql.js';
import { EDGE_KIND_CODES } from '../db/schema.js';
import type { StoredSymbolKind } from './describe.js';

/** A symbol as resolution sees it. */
export interface GraphSymbol {
  readonly id: number;
  readonly kind: StoredSymbolKind;
  readonly name: string;
  readonly qualifiedName: string;
  readonly fileId: number;
  readonly parentId: number | null;
  readonly flags: number;
}

/** A file as resolution sees it. */
export interface GraphFile {
  readonly id: number;
  readonly path: string;
  readonly language: string;
  readonly moduleId: number;
}

/** A stored binding. */
export interface GraphBinding {
  readonly scopeId: number | null;
  readonly kind: string;
  readonly name: string;
  readonly module: string | null;
  readonly member: string | null;
}

/**
 * Read access to the stored graph for one resolution pass, each answer memoised: a pass asks
 * the same few names and files again and again (Django's 30,000 call sites ask for a few
 * thousand names). Everything is read from the database, so a pass sees exactly the index as
 * written so far in the open transaction. {@link GraphReader.forget} drops what a pass changed.
 */
export class GraphReader {
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  readonly #byName = new Map<string, readonly GraphSymbol[]>();
  readonly #byId = new Map<number, GraphSymbol | undefined>();
  readonly #files = new Map<number, GraphFile | undefined>();
  readonly #bindings = new Map<number, readonly GraphBinding[]>();
  readonly #bases = new Map<number, readonly (number | null)[]>();
  readonly #memberOf = new Map<number, number | null>();
  /** Per name: its symbols by lexical parent, and (after structure is resolved) module-level methods by the class they join. */
  readonly #children = new Map<string, { readonly lexical: Map<number, GraphSymbol[]>; joined?: Map<number, GraphSymbol[]> | undefined }>();

  constructor(db: Database) {
    this.#db = db;
  }

  /** Names looked up since {@link GraphReader.track} started (what a site's answer depends on). */
  #tracked: Set<string> | undefined;

  /** Starts recording looked-up names into `into` (undefined: stop). */
  track(into: Set<string> | undefined): void {
    this.#tracked = into;
  }

  /** Records a name an answer depends on without looking it up. */
  depend(name: string): void {
    this.#tracked?.add(name);
  }

  /** Symbols named exactly `name` (every kind, every file), in id order. */
  named(name: string): readonly GraphSymbol[] {
    this.#tracked?.add(name);
    let out = this.#byName.get(name);
    if (out === undefined) {
      out = this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ? ORDER BY id', [name]).map(toSymbol);
      for (const s of out) this.#byId.set(s.id, s);
      this.#byName.set(name, out);
    }
    return out;
  }

  symbol(id: number): GraphSymbol | undefined {
    if (!this.#byId.has(id)) {
      const row = this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE id = ?', [id])[0];
      this.#byId.set(id, row ? toSymbol(row) : undefined);
    }
    return this.#byId.get(id);
  }

  file(id: number): GraphFile | undefined {
    if (!this.#files.has(id)) {
      const row = this.#all("SELECT f.id, f.path, f.language, s.id FROM files f JOIN symbols s ON s.file_id = f.id AND s.kind = 'module' WHERE f.id = ?", [id])[0];
      this.#files.set(id, row ? { id: Number(row[0]), path: String(row[1]), language: String(row[2]), moduleId: Number(row[3]) } : undefined);
    }
    return this.#files.get(id);
  }

  /** A file's bindings in source order. */
  bindings(fileId: number): readonly GraphBinding[] {
    let out = this.#bindings.get(fileId);
    if (out === undefined) {
      out = this.#all('SELECT scope_id, kind, name, module, member FROM bindings WHERE file_id = ? ORDER BY id', [fileId]).map((r) => ({
        scopeId: r[0] === null ? null : Number(r[0]),
        kind: String(r[1]),
        name: String(r[2]),
        module: r[3] === null ? null : String(r[3]),
        member: r[4] === null ? null : String(r[4]),
      }));
      this.#bindings.set(fileId, out);
    }
    return out;
  }

  /** A class's resolved bases in declaration order (null: a base outside the codebase or not resolved). */
  bases(classId: number): readonly (number | null)[] {
    let out = this.#bases.get(classId);
    if (out === undefined) {
      out = this.#all(`SELECT to_id FROM edges WHERE from_id = ? AND kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY id`, [classId]).map((r) =>
        r[0] === null ? null : Number(r[0]),
      );
      this.#bases.set(classId, out);
    }
    return out;
  }

  /** The class a method declared outside its class body belongs to (a member_of edge), if resolved. */
  memberOf(symbolId: number): number | null {
    let out = this.#memberOf.get(symbolId);
    if (out === undefined) {
      const row = this.#all(`SELECT to_id FROM edges WHERE from_id = ? AND kind = ${EDGE_KIND_CODES.member_of}`, [symbolId])[0];
      out = row && row[0] !== null ? Number(row[0]) : null;
      this.#memberOf.set(symbolId, out);
    }
    return out;
  }

  /** Members of `containerId` named `name`: lexical children, and methods joined to it by member_of. */
  children(containerId: number, name: string): readonly GraphSymbol[] {
    // Indexed per name on first use: common names (`String`, `new`) have thousands of symbols
    // and are asked for from every scope of every site.
    const all = this.named(name);
    let index = this.#children.get(name);
    if (index === undefined) {
      const lexical = new Map<number, GraphSymbol[]>();
      for (const s of all) if (s.parentId !== null) push(lexical, s.parentId, s);
      this.#children.set(name, (index = { lexical }));
    }
    const lexical = index.lexical.get(containerId) ?? NONE;
    // Only a class has methods joined to it (member_of edges resolve to classes).
    if (this.symbol(containerId)?.kind !== 'class') return lexical;
    if (index.joined === undefined) {
      index.joined = new Map();
      for (const s of all) {
        if (s.kind !== 'method' || !this.#isModuleLevel(s)) continue;
        const owner = this.memberOf(s.id);
        if (owner !== null) push(index.joined, owner, s);
      }
    }
    const joined = index.joined.get(containerId);
    if (joined === undefined) return lexical;
    return lexical.length === 0 ? joined : [...lexical, ...joined].sort((a, b) => a.id - b.id);
  }

  /** Drops memoised bases and memberships (after a pass re-resolved structure edges). */
  forgetStructure(): void {
    this.#bases.clear();
    this.#memberOf.clear();
    for (const index of this.#children.values()) index.joined = undefined;
  }

  /** Frees the prepared statements. */
  close(): void {
    for (const s of this.#statements.values()) s.free();
    this.#statements.clear();
  }

  #isModuleLevel(s: GraphSymbol): boolean {
    return s.parentId !== null && this.symbol(s.parentId)?.kind === 'module';
  }

  #all(sql: string, params: SqlValue[]): SqlValue[][] {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    const out: SqlValue[][] = [];
    try {
      stmt.bind(params);
      while (stmt.step()) out.push(stmt.get());
    } finally {
      stmt.reset();
    }
    return out;
  }
}

const NONE: readonly GraphSymbol[] = [];

function push(map: Map<number, GraphSymbol[]>, key: number, s: GraphSymbol): void {
  const list = map.get(key);
  if (list) list.push(s);
  else map.set(key, [s]);
}

function toSymbol(r: SqlValue[]): GraphSymbol {
  return {
    id: Number(r[0]),
    kind: String(r[1]) as StoredSymbolKind,
    name: String(r[2]),
    qualifiedName: String(r[3]),
    fileId: Number(r[4]),
    parentId: r[5] === null ? null : Number(r[5]),
    flags: Number(r[6]),
  };
}
