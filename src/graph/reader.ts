import type { Database, SqlValue, Statement } from 'sql.js';
import { allRows } from '../db/rows.js';
import { DECLARATION_KINDS_SQL, EDGE_KIND_CODES, MODULE_FILE_NAME_INDEX_SQL, MODULE_FILE_NAME_SQL, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { SYMBOL_FLAGS, type StoredSymbolKind } from './describe.js';

/** Causes of an unresolved base that say it is outside the codebase (its members are none of the codebase's). */
export const OUTSIDE_CAUSES: ReadonlySet<number> = new Set([RESOLUTION_CODES.external, RESOLUTION_CODES.builtin, RESOLUTION_CODES['not-found']]);

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

/** A declaration of some file: a prototype, function-like macro, type alias or `using` (see GraphReader.declarations). */
export interface GraphDeclaration {
  readonly fileId: number;
  readonly kind: string;
  readonly module: string | null;
  readonly member: string | null;
}

/**
 * A build reads (or is given) every symbol at once up to this many (about 150 bytes each in
 * memory); see {@link GraphReader.preload}.
 */
export const PRELOAD_SYMBOLS = 300_000;

/** Binding kinds that bind no name an import lookup follows (C, C++ declarations, see GraphReader.declarations; facts about a definition). */
const DECLARATION_KINDS: ReadonlySet<string> = new Set(['declare', 'macro', 'alias', 'using', 'field', 'returns', 'awaits', 'receiver', 'decorator']);

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
  /** Classes with a base unresolved for a cause other than being outside the codebase (see unknownBase). */
  readonly #unknownBases = new Set<number>();
  readonly #memberOf = new Map<number, number | null>();
  /** Each class's first `inherits` base (its superclass where the language tells it from interfaces); null: outside the codebase. */
  readonly #superclass = new Map<number, number | null | undefined>();
  /** Per name: its symbols by lexical parent (what `children` asks, many times per name), and its module-level methods. */
  readonly #byParent = new Map<string, { readonly lexical: Map<number | null, GraphSymbol[]>; readonly detached: readonly GraphSymbol[] }>();
  /** Per file: its bindings by scope and name. */
  readonly #bindingIndex = new Map<number, Map<string, GraphBinding[]>>();
  readonly #declarations = new Map<string, readonly GraphDeclaration[]>();
  readonly #modulesByFileName = new Map<string, readonly GraphSymbol[]>();
  /** Each module's import specifiers; during a build, given whole by {@link GraphReader.knowImports}. */
  readonly #imports = new Map<number, readonly string[]>();
  #importsKnown = false;
  /** The index of modules by file name exists (see MODULE_FILE_NAME_INDEX_SQL). */
  #fileNameIndexed = false;

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
  /** Module-like names looked up one at a time so far (see `named`). */
  #moduleProbes = 0;

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
    this.knowSymbols(this.#all('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols ORDER BY id', []).map(toSymbol));
  }

  /**
   * Every symbol of the index, in id order, as {@link GraphReader.preload} would read them: a
   * build holds them already (PendingSites.symbols), and reading them back from the database
   * cost Django's build 60-75 ms of its resolution pass.
   */
  knowSymbols(symbols: Iterable<GraphSymbol>): void {
    this.#byName.clear();
    this.#companions = undefined;
    for (const s of symbols) {
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
    // Modules are the symbols whose names hold a separator (`pkg.mod`, `src/util`): read together
    // once probes are many (a build of a large index), one name at a time before (an update
    // probes a few dozen names: reading Django's 941 modules cost it 3 ms, the kernel's 56,000
    // far more).
    if (out === undefined && (name.includes('.') || name.includes('/')) && (this.#modules !== undefined || ++this.#moduleProbes > MODULE_PROBES_BEFORE_MAP)) {
      const modules = this.#moduleMap().get(name) ?? NONE;
      // A definition may have such a name too (C++ `operator/`): ask for the others.
      const others = this.#all("SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ? AND kind <> 'module' ORDER BY id", [name]).map(toSymbol);
      out = others.length === 0 ? modules : [...modules, ...others].sort((a, b) => a.id - b.id);
      this.#byName.set(name, out);
    }
    if (out === undefined) {
      out = this.#readSymbols('SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE name = ? ORDER BY id', [name]);
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
      // A file's module symbol is its first (describeFile puts it first, and ids grow): the
      // index on file_id finds it at once, where a join would read every symbol of the file.
      const row = this.#all('SELECT f.id, f.path, f.language, (SELECT min(s.id) FROM symbols s WHERE s.file_id = f.id) FROM files f WHERE f.id = ?', [id])[0];
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
        // A C header's hundreds of prototypes and macros are no import: name lookups skip them.
        if (DECLARATION_KINDS.has(b.kind)) continue;
        const key = `${b.scopeId ?? ''}\u0000${b.name}`;
        let list = index.get(key);
        if (!list) index.set(key, (list = []));
        list.push(b);
      }
      this.#bindingIndex.set(fileId, index);
    }
    return index.get(`${scopeId ?? ''}\u0000${name}`) ?? NONE_BINDINGS;
  }

  /**
   * A binding a definition holds of one kind (`field`: a class's field with a class type, by
   * name; `returns`: what a function returns first; `awaits`: what awaiting its result gives; `receiver`: the class an extension function
   * extends), if any.
   */
  bindingOf(scope: GraphSymbol, kind: 'field' | 'returns' | 'awaits' | 'receiver', name?: string): GraphBinding | undefined {
    return this.bindings(scope.fileId).find((b) => b.scopeId === scope.id && b.kind === kind && (name === undefined || b.name === name));
  }

  /** A file's module-level bindings of one kind (`star`, `export`), in source order. */
  bindingsOfKind(fileId: number, kind: string): readonly GraphBinding[] {
    return this.bindings(fileId).filter((b) => b.scopeId === null && b.kind === kind);
  }

  /**
   * Declarations named `name` in every file: `declare` (prototypes), `macro`, `alias` and
   * `using` bindings (C, C++), which say what a file makes visible to those that include it.
   */
  declarations(name: string): readonly GraphDeclaration[] {
    this.#tracked?.add(name);
    let out = this.#declarations.get(name);
    if (out === undefined) {
      const rows = this.#all(`SELECT file_id, kind, module, member FROM bindings WHERE name = ? AND kind IN (${DECLARATION_KINDS_SQL})`, [name]);
      out =
        rows.length === 0
          ? NONE_DECLARATIONS
          : rows.map((r) => ({ fileId: Number(r[0]), kind: String(r[1]), module: r[2] === null ? null : String(r[2]), member: r[3] === null ? null : String(r[3]) }));
      this.#declarations.set(name, out);
    }
    return out;
  }

  /**
   * Module symbols whose name's last `/` part is `fileName` (`fs.h`: `include/linux/fs.h`,
   * `tools/include/linux/fs.h`…), in id order. Not tracked: an include's answer depends on
   * them through the name of the include (see run.ts).
   */
  modulesWithFileName(fileName: string): readonly GraphSymbol[] {
    let out = this.#modulesByFileName.get(fileName);
    if (out === undefined) {
      if (!this.#fileNameIndexed) {
        this.#db.exec(MODULE_FILE_NAME_INDEX_SQL);
        this.#fileNameIndexed = true;
      }
      out = this.#all(`SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE kind = 'module' AND ${MODULE_FILE_NAME_SQL} = ? ORDER BY id`, [fileName]).map(toSymbol);
      for (const s of out) if (!this.#byId.has(s.id)) this.#byId.set(s.id, s);
      this.#modulesByFileName.set(fileName, out);
    }
    return out;
  }

  /** The specifiers a module imports at its top level (its `imports` sites as written), in source order. Not tracked. */
  imports(moduleId: number): readonly string[] {
    let out = this.#imports.get(moduleId);
    if (out === undefined && this.#importsKnown) return NONE_NAMES;
    if (out === undefined) {
      out = this.#all(`SELECT ${NAME_OF_EDGE} FROM edges e WHERE e.from_id = ? AND e.kind = ${EDGE_KIND_CODES.imports} ORDER BY e.id`, [moduleId]).map((r) => String(r[0]));
      this.#imports.set(moduleId, out);
    }
    return out;
  }

  /**
   * Gives files and their bindings as a build wrote them (the rows `file` and `bindings` would
   * read back), so that its pass does not query them one file at a time.
   */
  knowFiles(files: ReadonlyMap<number, GraphFile>, bindings: ReadonlyMap<number, readonly GraphBinding[]>): void {
    for (const [id, file] of files) this.#files.set(id, file);
    for (const [id, list] of bindings) this.#bindings.set(id, list);
  }

  /** Gives every module's import specifiers at once (a build: its edges are not written yet). */
  knowImports(imports: ReadonlyMap<number, readonly string[]>): void {
    for (const [id, list] of imports) this.#imports.set(id, list);
    this.#importsKnown = true;
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
    if (out === undefined && this.#complete) return NONE_IDS;
    if (out === undefined) {
      const rows = this.#all(`SELECT to_id, resolution FROM edges WHERE from_id = ? AND kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY id`, [classId]);
      out = rows.map((r) => (r[0] === null ? null : Number(r[0])));
      if (rows.some((r) => r[0] === null && !OUTSIDE_CAUSES.has(Number(r[1])))) this.#unknownBases.add(classId);
      this.#bases.set(classId, out);
    }
    return out;
  }

  /**
   * Whether a base of the class is unresolved for a cause other than being outside the codebase
   * (OUTSIDE_CAUSES: an outside module's, a builtin, or a name found nowhere, as a qualified
   * `java.util.Observable` is): a computed base (`class Manager(BaseManager.from_queryset(QuerySet))`,
   * `extends mixin(Base)`), a parameter, several candidates. Its members may be the codebase's: a
   * member no class of the codebase above it defines is of unknown origin.
   */
  unknownBase(classId: number): boolean {
    this.bases(classId);
    return this.#unknownBases.has(classId);
  }

  /**
   * A class's first `inherits` base, the one `super(...)` constructs (an `implements` base never
   * is): its id, null when it is outside the codebase or unresolved, undefined without one.
   */
  superclass(classId: number): number | null | undefined {
    if (this.#superclass.has(classId)) return this.#superclass.get(classId);
    if (this.#complete) return undefined;
    const row = this.#all(`SELECT to_id FROM edges WHERE from_id = ? AND kind = ${EDGE_KIND_CODES.inherits} ORDER BY id LIMIT 1`, [classId])[0];
    const out = row === undefined ? undefined : row[0] === null ? null : Number(row[0]);
    this.#superclass.set(classId, out);
    return out;
  }

  /** A class's member summaries (the `methods` column: one `- signature` line per method), or null. */
  summary(classId: number): string | null {
    const row = this.#all('SELECT methods FROM symbols WHERE id = ?', [classId])[0];
    return row === undefined || row[0] === null ? null : String(row[0]);
  }

  /** A class's field summaries (the `fields` column: one `- name = value` line per class attribute), or null. */
  fieldSummary(classId: number): string | null {
    const row = this.#all('SELECT fields FROM symbols WHERE id = ?', [classId])[0];
    return row === undefined || row[0] === null ? null : String(row[0]);
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

  /** A class's companion object (DefinitionFlag `companion`), if it has one. */
  companionOf(classId: number): GraphSymbol | undefined {
    if (this.#companions === undefined) {
      if (this.#preloaded) {
        // Every symbol is in memory: one pass finds them all.
        this.#companions = new Map();
        for (const s of this.#byId.values()) if (s !== undefined && s.parentId !== null && (s.flags & COMPANION_FLAG) !== 0) this.#companions.set(s.parentId, s);
      } else this.#companions = new Map();
    }
    if (!this.#companions.has(classId) && !this.#preloaded) {
      this.#companions.set(classId, this.#readSymbols(`SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE parent_id = ? AND (flags & ${COMPANION_FLAG}) <> 0 ORDER BY id LIMIT 1`, [classId])[0]);
    }
    return this.#companions.get(classId);
  }

  /** Companion objects by class id (see companionOf); undefined: none for that class. */
  #companions: Map<number, GraphSymbol | undefined> | undefined;

  /** Members of `containerId` named `name`: lexical children, and methods joined to it by member_of. */
  children(containerId: number, name: string): readonly GraphSymbol[] {
    if (this.narrowLookups && !this.#preloaded && !this.#byName.has(name)) return this.#childrenOf(containerId, name);
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

  /**
   * {@link GraphReader.children} by two narrow queries: the container's symbols of the name, and
   * for a class the module-level methods of the name its `member_of` edges join to it. The same
   * answer as reading every symbol of the name, for a pass that asks few containers.
   */
  #childrenOf(containerId: number, name: string): readonly GraphSymbol[] {
    this.#tracked?.add(name);
    const key = `${containerId}\u0000${name}`;
    const known = this.#childrenCache.get(key);
    if (known !== undefined) return known;
    let out: readonly GraphSymbol[] = this.#readSymbols(LEXICAL_CHILDREN_SQL, [containerId, name]);
    if (this.symbol(containerId)?.kind === 'class') {
      const joined = this.#readSymbols(JOINED_METHODS_SQL, [containerId, name]);
      if (joined.length > 0) out = [...out, ...joined].sort((a, b) => a.id - b.id);
    }
    if (out.length === 0) out = NONE;
    this.#childrenCache.set(key, out);
    return out;
  }

  /** Narrow lookups' answers (see {@link GraphReader.narrowLookups}). */
  readonly #childrenCache = new Map<string, readonly GraphSymbol[]>();

  /**
   * Set for a pass that resolves few sites (an update): {@link GraphReader.children} then reads a
   * class's members by class instead of every symbol of the name. A build leaves it unset: it
   * asks most names of many containers, which one read per name serves better.
   */
  narrowLookups = false;

  /**
   * Drops what was read of symbols, files and bindings when it holds more than `limit` entries
   * and not every symbol was read at once (a pass over the kernel's millions of sites would
   * otherwise end up holding each of its 850,000 symbols as objects). Only a cache: answers
   * are the same either way. Bases, memberships and imports given by a build stay (they are not
   * in the database yet).
   */
  trim(limit: number): void {
    if (this.#preloaded) return;
    const size =
      this.#byName.size + this.#byId.size + this.#files.size + this.#bindings.size + this.#bindingIndex.size + this.#byParent.size + this.#declarations.size + this.#modulesByFileName.size;
    if (size < limit) return;
    this.#byName.clear();
    this.#byId.clear();
    this.#companions = undefined;
    this.#files.clear();
    this.#bindings.clear();
    this.#bindingIndex.clear();
    this.#byParent.clear();
    this.#childrenCache.clear();
    this.#declarations.clear();
    this.#modulesByFileName.clear();
  }

  /** Drops memoised bases and memberships (after a pass re-resolved structure edges). */
  forgetStructure(): void {
    this.#bases.clear();
    this.#unknownBases.clear();
    this.#memberOf.clear();
    this.#superclass.clear();
    // Narrow answers join module-level methods to classes by their memberships.
    this.#childrenCache.clear();
  }

  /**
   * Gives the bases and memberships a pass has just resolved, so later lookups need not read
   * them back (a build resolves every structure edge before any call). `bases` lists each
   * class's bases in declaration order; `unknownBases` the classes of {@link unknownBase}.
   */
  knowStructure(
    bases: ReadonlyMap<number, readonly (number | null)[]>,
    memberOf: ReadonlyMap<number, number | null>,
    complete: boolean,
    superclasses: ReadonlyMap<number, number | null> = new Map(),
    unknownBases: ReadonlySet<number> = new Set(),
  ): void {
    for (const [id, list] of bases) this.#bases.set(id, list);
    for (const id of unknownBases) this.#unknownBases.add(id);
    for (const [id, owner] of memberOf) this.#memberOf.set(id, owner);
    for (const [id, base] of superclasses) this.#superclass.set(id, base);
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

  /** Symbol rows of a query (toSymbol's columns), each remembered by id. */
  #readSymbols(sql: string, params: SqlValue[]): GraphSymbol[] {
    const out = this.#all(sql, params).map(toSymbol);
    for (const s of out) this.#byId.set(s.id, s);
    return out;
  }

  #all(sql: string, params: SqlValue[]): SqlValue[][] {
    let stmt = this.#statements.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      this.#statements.set(sql, stmt);
    }
    return allRows(stmt, params);
  }
}

const COMPANION_FLAG = SYMBOL_FLAGS.companion;

/** A container's symbols of a name, by id. */
const LEXICAL_CHILDREN_SQL = 'SELECT id, kind, name, qualified_name, file_id, parent_id, flags FROM symbols WHERE parent_id = ? AND name = ? ORDER BY id';

/** The module-level methods of a name that a `member_of` edge joins to a class (Go, C++ `Shape::draw`, Rust `impl`). */
const JOINED_METHODS_SQL = `SELECT s.id, s.kind, s.name, s.qualified_name, s.file_id, s.parent_id, s.flags FROM edges e JOIN symbols s ON s.id = e.from_id JOIN symbols p ON p.id = s.parent_id
  WHERE e.to_id = ? AND e.kind = ${EDGE_KIND_CODES.member_of} AND s.name = ? AND s.kind = 'method' AND p.kind = 'module'`;

/** Module-like names a reader looks up one query each before it reads every module at once. */
const MODULE_PROBES_BEFORE_MAP = 256;

const NONE: readonly GraphSymbol[] = Object.freeze([]);
const NONE_IDS: readonly (number | null)[] = Object.freeze([]);
const NONE_BINDINGS: readonly GraphBinding[] = Object.freeze([]);
const NONE_DECLARATIONS: readonly GraphDeclaration[] = Object.freeze([]);
const NONE_NAMES: readonly string[] = Object.freeze([]);

/** The kinds as constants: a kind read from a row is a new string each time. */
const KINDS: ReadonlyMap<string, StoredSymbolKind> = new Map((['function', 'method', 'class', 'module'] as const).map((k) => [k, k]));

function toSymbol(r: SqlValue[]): GraphSymbol {
  return graphSymbol(Number(r[0]), String(r[1]), String(r[2]), String(r[3]), Number(r[4]), r[5] === null ? null : Number(r[5]), Number(r[6]));
}

/** A symbol as a row of `symbols` holds it (kind as stored). */
export function graphSymbol(id: number, kind: string, name: string, qualifiedName: string, fileId: number, parentId: number | null, flags: number): GraphSymbol {
  return {
    id,
    kind: KINDS.get(kind) ?? (kind as StoredSymbolKind),
    name,
    // One string when they are equal (C functions, C modules): a pass keeps many symbols.
    qualifiedName: qualifiedName === name ? name : qualifiedName,
    fileId,
    parentId,
    flags,
  };
}
