import type { Database, SqlValue, Statement } from 'sql.js';
import { EDGE_KIND_CODES, MODULE_FILE_NAME_SQL } from '../db/schema.js';
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

/** A declaration of some file: a prototype, function-like macro, type alias or `using` (see GraphReader.declarations). */
export interface GraphDeclaration {
  readonly fileId: number;
  readonly kind: string;
  readonly module: string | null;
  readonly member: string | null;
}

/** Binding kinds an import or assignment makes (what name lookups in a module follow). */
const IMPORT_KINDS = "'module', 'member', 'star', 'export', 'assign'";
/** Binding kinds that declare without defining (see GraphReader.declarations). */
const DECLARATION_KINDS = "'declare', 'macro', 'alias', 'using'";

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
  readonly #callers = new Map<number, GraphSymbol>();
  readonly #files = new Map<number, GraphFile | undefined>();
  readonly #bindings = new Map<number, readonly GraphBinding[]>();
  readonly #bases = new Map<number, readonly (number | null)[]>();
  readonly #memberOf = new Map<number, number | null>();
  readonly #bindingsByName = new Map<number, ReadonlyMap<string, readonly GraphBinding[]>>();
  readonly #declarations = new Map<string, readonly GraphDeclaration[]>();
  readonly #modulesByFileName = new Map<string, readonly GraphSymbol[]>();
  readonly #imports = new Map<number, readonly string[]>();

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
      const rows = this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ?', [name]);
      out = rows.length === 0 ? NO_SYMBOLS : this.#byIdOrder(rows).map(toSymbol);
      for (const s of out) this.#byId.set(s.id, s);
      this.#byName.set(name, out);
    }
    return out;
  }

  symbol(id: number): GraphSymbol | undefined {
    const caller = this.#callers.get(id);
    if (caller !== undefined) return caller;
    if (!this.#byId.has(id)) {
      const row = this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE id = ?', [id])[0];
      this.#byId.set(id, row ? toSymbol(row) : undefined);
    }
    return this.#byId.get(id);
  }

  file(id: number): GraphFile | undefined {
    if (!this.#files.has(id)) {
      // A file's module symbol is its first (describeFile puts it first; ids grow).
      const row = this.#all('SELECT f.id, f.path, f.language, (SELECT min(s.id) FROM symbols s WHERE s.file_id = f.id) FROM files f WHERE f.id = ?', [id])[0];
      this.#files.set(id, row ? { id: Number(row[0]), path: String(row[1]), language: String(row[2]), moduleId: Number(row[3]) } : undefined);
    }
    return this.#files.get(id);
  }

  /** A file's bindings in source order. */
  bindings(fileId: number): readonly GraphBinding[] {
    let out = this.#bindings.get(fileId);
    if (out === undefined) {
      out = this.#byIdOrder(this.#all('SELECT id, scope_id, kind, name, module, member FROM bindings WHERE file_id = ?', [fileId])).map(toBinding);
      this.#bindings.set(fileId, out);
    }
    return out;
  }

  /**
   * A file's bindings named `name` that an import or assignment made (`module`, `member`,
   * `star`, `export`, `assign`), in source order: what a name lookup in the file reads, without
   * scanning every binding of the file for each site.
   */
  bindingsNamed(fileId: number, name: string): readonly GraphBinding[] {
    let byName = this.#bindingsByName.get(fileId);
    if (byName === undefined) {
      const map = new Map<string, GraphBinding[]>();
      // Not through bindings(): a C header's hundreds of prototypes are no import.
      const rows = this.#byIdOrder(this.#all(`SELECT id, scope_id, kind, name, module, member FROM bindings WHERE file_id = ? AND kind IN (${IMPORT_KINDS})`, [fileId]));
      for (const b of rows.map(toBinding)) {
        const list = map.get(b.name);
        if (list) list.push(b);
        else map.set(b.name, [b]);
      }
      this.#bindingsByName.set(fileId, (byName = map.size === 0 ? NO_BINDINGS_BY_NAME : map));
    }
    return byName.get(name) ?? NO_BINDINGS;
  }

  /**
   * Declarations named `name` in every file: `declare` (prototypes), `macro`, `alias` and
   * `using` bindings (C, C++), which say what a file makes visible to those that include it.
   */
  declarations(name: string): readonly GraphDeclaration[] {
    this.#tracked?.add(name);
    let out = this.#declarations.get(name);
    if (out === undefined) {
      const rows = this.#all(`SELECT file_id, kind, module, member FROM bindings WHERE name = ? AND kind IN (${DECLARATION_KINDS})`, [name]);
      out =
        rows.length === 0
          ? NO_DECLARATIONS
          : rows.map((r) => ({
              fileId: Number(r[0]),
              kind: String(r[1]),
              module: r[2] === null ? null : String(r[2]),
              member: r[3] === null ? null : String(r[3]),
            }));
      this.#declarations.set(name, out);
    }
    return out;
  }

  /** Module symbols whose name's last `/` part is `fileName` (`fs.h`: `include/linux/fs.h`, `tools/include/linux/fs.h`…), in id order. Not tracked. */
  modulesWithFileName(fileName: string): readonly GraphSymbol[] {
    let out = this.#modulesByFileName.get(fileName);
    if (out === undefined) {
      out = this.#byIdOrder(this.#all(`SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE kind = 'module' AND ${MODULE_FILE_NAME_SQL} = ?`, [fileName])).map(toSymbol);
      for (const s of out) this.#byId.set(s.id, s);
      this.#modulesByFileName.set(fileName, out);
    }
    return out;
  }

  /** The specifiers a module imports (its `imports` sites as written), in source order. Not tracked. */
  imports(moduleId: number): readonly string[] {
    let out = this.#imports.get(moduleId);
    if (out === undefined) {
      out = this.#byIdOrder(this.#all(`SELECT e.id, n.name FROM edges e JOIN names n ON n.id = e.name_id WHERE e.from_id = ? AND e.kind = ${EDGE_KIND_CODES.imports}`, [moduleId])).map((r) => String(r[1]));
      this.#imports.set(moduleId, out);
    }
    return out;
  }

  /** Runs `fn` recording the names it looks up apart (they count for the current answer too): what `fn`'s answer depends on. */
  capture<T>(fn: () => T): { readonly value: T; readonly names: readonly string[] } {
    const outer = this.#tracked;
    const inner = new Set<string>();
    this.#tracked = inner;
    let value: T;
    try {
      value = fn();
    } finally {
      this.#tracked = outer;
    }
    if (outer) for (const n of inner) outer.add(n);
    return { value, names: [...inner] };
  }

  /** Runs `fn` without recording looked-up names (for answers whose dependencies are tracked otherwise). */
  untracked<T>(fn: () => T): T {
    const tracked = this.#tracked;
    this.#tracked = undefined;
    try {
      return fn();
    } finally {
      this.#tracked = tracked;
    }
  }

  /** A class's resolved bases in declaration order (null: a base outside the codebase or not resolved). */
  bases(classId: number): readonly (number | null)[] {
    let out = this.#bases.get(classId);
    if (out === undefined) {
      out = this.#byIdOrder(this.#all(`SELECT id, to_id FROM edges WHERE from_id = ? AND kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements})`, [classId])).map((r) =>
        r[1] === null ? null : Number(r[1]),
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
    const named = this.named(name);
    if (named.length === 0) return NO_SYMBOLS;
    return named.filter((s) => s.parentId === containerId || (s.kind === 'method' && this.#isModuleLevel(s) && this.memberOf(s.id) === containerId));
  }

  /**
   * Reads the symbols and declarations of many names at once (those of a chunk of sites): one
   * query per batch of names rather than one per name. Not tracked (looking a name up is).
   */
  prefetch(names: Iterable<string>): void {
    const missing = [...new Set(names)].filter((n) => !this.#byName.has(n));
    for (let i = 0; i < missing.length; i += BATCH) {
      const batch = padded(missing.slice(i, i + BATCH));
      const symbols = new Map<string, GraphSymbol[]>();
      for (const r of this.#all(`SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name IN (${PLACEHOLDERS})`, batch)) {
        const symbol = toSymbol(r);
        const list = symbols.get(symbol.name);
        if (list) list.push(symbol);
        else symbols.set(symbol.name, [symbol]);
      }
      const declarations = new Map<string, GraphDeclaration[]>();
      for (const r of this.#all(`SELECT name, file_id, kind, module, member FROM bindings WHERE name IN (${PLACEHOLDERS}) AND kind IN (${DECLARATION_KINDS})`, batch)) {
        const name = String(r[0]);
        const d = { fileId: Number(r[1]), kind: String(r[2]), module: r[3] === null ? null : String(r[3]), member: r[4] === null ? null : String(r[4]) };
        const list = declarations.get(name);
        if (list) list.push(d);
        else declarations.set(name, [d]);
      }
      for (const name of new Set(batch)) {
        const list = symbols.get(name);
        const sorted = list === undefined ? NO_SYMBOLS : list.sort((a, b) => a.id - b.id);
        for (const sym of sorted) if (!this.#byId.has(sym.id)) this.#byId.set(sym.id, sym);
        this.#byName.set(name, sorted);
        if (!this.#declarations.has(name)) this.#declarations.set(name, declarations.get(name) ?? NO_DECLARATIONS);
      }
    }
  }

  /** Reads the symbols with these ids at once (the callers of a chunk of sites) until {@link GraphReader.nextChunk}. */
  prefetchCallers(ids: Iterable<number>): void {
    const missing: number[] = [];
    for (const id of ids) if (!this.#callers.has(id) && !this.#byId.has(id)) missing.push(id);
    for (let i = 0; i < missing.length; i += BATCH) {
      for (const r of this.#all(`SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE id IN (${PLACEHOLDERS})`, padded(missing.slice(i, i + BATCH)))) {
        const symbol = toSymbol(r);
        this.#callers.set(symbol.id, symbol);
      }
    }
  }

  /** Whether the symbol with this id is memoised. */
  knows(id: number): boolean {
    return this.#callers.has(id) || this.#byId.has(id);
  }

  /**
   * Makes a symbol read along with a site (its caller) known without a lookup of its own, until
   * {@link GraphReader.nextChunk}: the callers of one chunk of sites.
   */
  prime(symbol: GraphSymbol): void {
    this.#callers.set(symbol.id, symbol);
  }

  /** Forgets the callers primed for the last chunk of sites. */
  nextChunk(): void {
    this.#callers.clear();
  }

  /**
   * Drops the memo when it holds more than `limit` entries (a pass over millions of sites would
   * otherwise end up holding every symbol of the codebase as JavaScript objects). Only a cache:
   * answers are the same either way.
   */
  trim(limit: number): void {
    const size =
      this.#byName.size + this.#byId.size + this.#files.size + this.#bindings.size + this.#bindingsByName.size + this.#declarations.size +
      this.#modulesByFileName.size + this.#imports.size + this.#bases.size + this.#memberOf.size;
    if (size < limit) return;
    this.#byName.clear();
    this.#byId.clear();
    this.#files.clear();
    this.#bindings.clear();
    this.#bindingsByName.clear();
    this.#declarations.clear();
    this.#modulesByFileName.clear();
    this.#imports.clear();
    this.#bases.clear();
    this.#memberOf.clear();
  }

  /** Drops memoised bases and memberships (after a pass re-resolved structure edges). */
  forgetStructure(): void {
    this.#bases.clear();
    this.#memberOf.clear();
  }

  /** Frees the prepared statements. */
  close(): void {
    for (const s of this.#statements.values()) s.free();
    this.#statements.clear();
  }

  #isModuleLevel(s: GraphSymbol): boolean {
    return s.parentId !== null && this.symbol(s.parentId)?.kind === 'module';
  }

  /**
   * Rows whose first column is an id, in id order. The index a lookup uses yields them so
   * already; an `ORDER BY` would cost sql.js a sorter per lookup (several times the lookup).
   */
  #byIdOrder(rows: SqlValue[][]): SqlValue[][] {
    for (let i = 1; i < rows.length; i++) if (Number(rows[i - 1]![0]) > Number(rows[i]![0])) return rows.sort((a, b) => Number(a[0]) - Number(b[0]));
    return rows;
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

/** Names or ids read by one batched query (a longer batch is padded by repeating its last value: one statement serves every batch). */
const BATCH = 128;
const PLACEHOLDERS = new Array(BATCH).fill('?').join(', ');

function padded<T extends string | number>(values: T[]): T[] {
  const out = values.slice(0, BATCH);
  while (out.length < BATCH) out.push(out[out.length - 1]!);
  return out;
}

const NO_BINDINGS: readonly GraphBinding[] = [];
const NO_BINDINGS_BY_NAME: ReadonlyMap<string, readonly GraphBinding[]> = new Map();
const NO_SYMBOLS: readonly GraphSymbol[] = [];
const NO_DECLARATIONS: readonly GraphDeclaration[] = [];

/** A binding from its columns `id, scope_id, kind, name, module, member`. */
function toBinding(r: SqlValue[]): GraphBinding {
  return {
    scopeId: r[1] === null ? null : Number(r[1]),
    kind: String(r[2]),
    name: String(r[3]),
    module: r[4] === null ? null : String(r[4]),
    member: r[5] === null ? null : String(r[5]),
  };
}



/** A symbol from its columns `id, kind, name, qualified_name, file_id, parent_id, flags`. */
export function toSymbol(r: SqlValue[]): GraphSymbol {
  const name = String(r[2]);
  const qualifiedName = String(r[3]);
  return {
    id: Number(r[0]),
    kind: String(r[1]) as StoredSymbolKind,
    name,
    // One string when they are equal (C functions): half the memory of a pass's symbols.
    qualifiedName: qualifiedName === name ? name : qualifiedName,
    fileId: Number(r[4]),
    parentId: r[5] === null ? null : Number(r[5]),
    flags: Number(r[6]),
  };
}
