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
  /** Per name: its symbols by lexical parent (what `children` asks, many times per name), and its module-level methods. */
  readonly #byParent = new Map<string, { readonly lexical: Map<number | null, GraphSymbol[]>; readonly detached: readonly GraphSymbol[] }>();
  /** Per file: its bindings by scope and name. */
  readonly #bindingIndex = new Map<number, Map<string, GraphBinding[]>>();

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

  /**
   * Module symbols by name, read in one query: module names are what import resolution probes
   * most (every candidate of every specifier, every `pkg.sub` submodule), mostly in vain.
   */
  #modules: Map<string, GraphSymbol[]> | undefined;

  /** Every symbol was read into the name map (see preload): a name not in it has no symbol. */
  #preloaded = false;

  /**
   * Reads every symbol in one query when there are at most `limit`: a build asks for most names
   * anyway, and one scan costs far less than thousands of lookups (Django: 12,000 symbols, 8,000
   * names asked). Larger indexes (the kernel's 850,000) keep asking name by name, to bound memory.
   */
  preload(limit: number): void {
    const count = Number(this.#all('SELECT count(*) FROM symbols', [])[0]?.[0] ?? 0);
    if (count > limit) return;
    this.#byName.clear();
    for (const r of this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols ORDER BY id', [])) {
      const s = toSymbol(r);
      this.#byId.set(s.id, s);
      let list = this.#byName.get(s.name) as GraphSymbol[] | undefined;
      if (!list) this.#byName.set(s.name, (list = []));
      list.push(s);
    }
    this.#preloaded = true;
  }

  /** Symbols named exactly `name` (every kind, every file), in id order. */
  named(name: string): readonly GraphSymbol[] {
    this.#tracked?.add(name);
    let out = this.#byName.get(name);
    if (out === undefined && this.#preloaded) return NONE;
    // Modules are the symbols whose names hold a separator (`pkg.mod`, `src/util`): read together.
    if (out === undefined && (name.includes('.') || name.includes('/'))) {
      const modules = this.#moduleMap().get(name) ?? NONE;
      // A definition may have such a name too (C++ `operator/`): ask for the others.
      const others = this.#all("SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ? AND kind <> 'module' ORDER BY id", [name]).map(toSymbol);
      out = others.length === 0 ? modules : [...modules, ...others].sort((a, b) => a.id - b.id);
      this.#byName.set(name, out);
    }
    if (out === undefined) {
      out = this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ? ORDER BY id', [name]).map(toSymbol);
      for (const s of out) this.#byId.set(s.id, s);
      this.#byName.set(name, out);
    }
    return out;
  }

  #moduleMap(): Map<string, GraphSymbol[]> {
    if (this.#modules === undefined) {
      this.#modules = new Map();
      for (const r of this.#all("SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE kind = 'module' ORDER BY id", [])) {
        const s = toSymbol(r);
        this.#byId.set(s.id, s);
        let list = this.#modules.get(s.name);
        if (!list) this.#modules.set(s.name, (list = []));
        list.push(s);
      }
    }
    return this.#modules;
  }

  symbol(id: number): GraphSymbol | undefined {
    if (!this.#byId.has(id) && !this.#preloaded) {
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

  /** A file's bindings in scope `scopeId` (null: module level) named `name`, in source order. */
  bindingsNamed(fileId: number, scopeId: number | null, name: string): readonly GraphBinding[] {
    let index = this.#bindingIndex.get(fileId);
    if (index === undefined) {
      index = new Map();
      for (const b of this.bindings(fileId)) {
        const key = `${b.scopeId ?? ''}\u0000${b.name}`;
        let list = index.get(key);
        if (!list) index.set(key, (list = []));
        list.push(b);
      }
      this.#bindingIndex.set(fileId, index);
    }
    return index.get(`${scopeId ?? ''}\u0000${name}`) ?? NONE_BINDINGS;
  }

  /** A file's module-level bindings of one kind (`star`, `export`), in source order. */
  bindingsOfKind(fileId: number, kind: string): readonly GraphBinding[] {
    return this.bindings(fileId).filter((b) => b.scopeId === null && b.kind === kind);
  }

  /** A class's resolved bases in declaration order (null: a base outside the codebase or not resolved). */
  bases(classId: number): readonly (number | null)[] {
    let out = this.#bases.get(classId);
    if (out === undefined && this.#complete) return NONE_IDS;
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
    if (out === undefined && this.#complete) return null;
    if (out === undefined) {
      const row = this.#all(`SELECT to_id FROM edges WHERE from_id = ? AND kind = ${EDGE_KIND_CODES.member_of}`, [symbolId])[0];
      out = row && row[0] !== null ? Number(row[0]) : null;
      this.#memberOf.set(symbolId, out);
    }
    return out;
  }

  /** Members of `containerId` named `name`: lexical children, and methods joined to it by member_of. */
  children(containerId: number, name: string): readonly GraphSymbol[] {
    const all = this.named(name);
    let index = this.#byParent.get(name);
    if (index === undefined) {
      const lexical = new Map<number | null, GraphSymbol[]>();
      const detached: GraphSymbol[] = [];
      for (const s of all) {
        let list = lexical.get(s.parentId);
        if (!list) lexical.set(s.parentId, (list = []));
        list.push(s);
        if (s.kind === 'method' && this.#isModuleLevel(s)) detached.push(s);
      }
      this.#byParent.set(name, (index = { lexical, detached }));
    }
    const lexical = index.lexical.get(containerId) ?? NONE;
    // Methods declared outside their class (Go, C++, Rust) sit at module level, joined by member_of
    // to a class: a module or function has none (Go's thousands of `String` methods are not walked).
    if (index.detached.length === 0 || this.symbol(containerId)?.kind !== 'class') return lexical;
    let joined: GraphSymbol[] | undefined;
    for (const s of index.detached) if (s.parentId !== containerId && this.memberOf(s.id) === containerId) (joined ??= []).push(s);
    return joined === undefined ? lexical : [...lexical, ...joined].sort((a, b) => a.id - b.id);
  }

  /** Drops memoised bases and memberships (after a pass re-resolved structure edges). */
  forgetStructure(): void {
    this.#bases.clear();
    this.#memberOf.clear();
  }

  /**
   * Gives the bases and memberships a pass has just resolved, so later lookups need not read
   * them back (a build resolves every structure edge before any call). `bases` lists each
   * class's bases in declaration order.
   */
  knowStructure(bases: ReadonlyMap<number, readonly (number | null)[]>, memberOf: ReadonlyMap<number, number | null>, complete: boolean): void {
    for (const [id, list] of bases) this.#bases.set(id, list);
    for (const [id, owner] of memberOf) this.#memberOf.set(id, owner);
    this.#complete = complete;
  }

  /** After knowStructure(…, true): classes without a recorded base have none (no query needed). */
  #complete = false;

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

const NONE: readonly GraphSymbol[] = Object.freeze([]);
const NONE_IDS: readonly (number | null)[] = Object.freeze([]);
const NONE_BINDINGS: readonly GraphBinding[] = Object.freeze([]);

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
