import type { IndexStore, StaleBodyPolicy } from '../db/store.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import { CKGError } from '../errors.js';
import { isAbsolute, join, normalize } from '../fs/path.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
import { signaturesOf } from './signature.js';
import { refOf, SYMBOL_SELECT, SymbolCache, toSymbol, type SymbolRow } from './symbols.js';
import { bySymbolLocation, POSSIBLE_CAUSES } from './targets.js';
import type { DeadCodeAnswer, DeadCodeOptions } from './types.js';

// Dead code: functions and methods that no resolved call or value use reaches, less everything
// the tools that report dead code are known to get wrong. A definition stays out of the answer
// when it is an entry point, a constructor or a language hook, an override or interface
// implementation (or may be one: its class has a base outside the codebase), a test, exported
// API or imported by name elsewhere, registered by a decorator or attribute, stored in an object literal (reached through the
// object), or when any unresolved call or value use in the codebase has its name — the graph
// cannot rule out that it is that callee.

/** Names a language or its runtime calls by itself. */
const ENTRY_NAMES = new Set(['main', 'init', '__main__', 'String', 'Error', 'ServeHTTP', 'setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule']);
/** Constructor and lifecycle names (the class's own name is one too: Java, C#, Kotlin, C++). */
const CONSTRUCTOR_NAMES = new Set(['__init__', '__new__', '__post_init__', '__init_subclass__', 'constructor', '__construct', '__destruct', 'initialize', 'new', 'finalize', 'dispose', 'Dispose']);
/** Python dunders, PHP magic methods, Kotlin/C# operator-like hooks. */
const MAGIC = /^(__\w+__|__(get|set|call|callStatic|isset|unset|sleep|wakeup|toString|invoke|set_state|clone|debugInfo|serialize|unserialize))$|^operator/;
/** Test files by path: `test_x.py`, `x_test.go`, `x.test.ts`, `x.spec.js`, `XTest.java`, folders named test(s). */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|testing)\/|(^|\/)test_[^/]*$|_test\.[^/.]+$|\.(test|spec)\.[^/]+$|Tests?\.[^/.]+$/;
const TEST_NAME = /^(test|Test)/;

const FLAGGED = SYMBOL_FLAGS.exported | SYMBOL_FLAGS.decorated | SYMBOL_FLAGS.entry | SYMBOL_FLAGS.test | SYMBOL_FLAGS['member-value'];
/** Edge kinds that use a definition: calls and value references. */
const USES = `${EDGE_KIND_CODES.calls}, ${EDGE_KIND_CODES.references}`;

/**
 * Functions and methods with no resolved caller or use other than themselves, after the
 * exclusions above, in file and line order, paged.
 */
export async function deadCode(store: IndexStore, root: string, options: DeadCodeOptions = {}, onStale: StaleBodyPolicy = 'marker'): Promise<DeadCodeAnswer> {
  if (options === null || typeof options !== 'object') throw new CKGError('INVALID_ARGUMENT', 'options must be an object');
  const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
  const offset = options.offset ?? 0;
  for (const [name, v] of [['limit', limit], ['offset', offset]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new CKGError('INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  }
  let prefix: string | undefined;
  if (options.path !== undefined && options.path !== '') {
    if (typeof options.path !== 'string') throw new CKGError('INVALID_ARGUMENT', 'path must be a string');
    prefix = isAbsolute(options.path) ? normalize(options.path) : join(root, options.path);
  }
  if (options.language !== undefined && typeof options.language !== 'string') throw new CKGError('INVALID_ARGUMENT', 'language must be a string');

  const conditions = ["s.kind IN ('function', 'method')", `(s.flags & ${FLAGGED}) = 0`];
  const params: (string | number)[] = [];
  if (options.language) {
    conditions.push('f.language = ?');
    params.push(options.language);
  }
  // In SQL, through the indexes: no resolved call or use from elsewhere; no unresolved call or
  // use anywhere with its name (any definition of such a name may be the one called); not
  // exported by its module's export list.
  const rows = store.rows(
    `${SYMBOL_SELECT} WHERE ${conditions.join(' AND ')}
       AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.to_id = s.id AND e.kind IN (${USES}) AND e.from_id <> s.id)
       AND NOT EXISTS (SELECT 1 FROM edges u WHERE u.to_name = s.name AND u.to_id IS NULL AND u.kind IN (${USES}) AND u.resolution IN (${POSSIBLE_CAUSES.join(', ')}))
       AND NOT EXISTS (SELECT 1 FROM bindings b JOIN symbols m ON m.id = s.parent_id AND m.kind = 'module'
                       WHERE b.file_id = s.file_id AND b.scope_id IS NULL AND b.kind = 'export' AND b.module IS NULL AND b.member = s.name)`,
    params,
  );
  // Functions another file imports by name (`from .libgdal import gdal_full_version`, re-exported
  // by a package's `__init__`): public API or used there, never dead. The module as written
  // need only end like the function's module (`.libgdal`, `./util/strings`), without resolving it.
  const importedFrom = new Map<string, string[]>();
  for (const [member, module] of store.rows("SELECT DISTINCT member, module FROM bindings WHERE kind = 'member' AND member IS NOT NULL AND module IS NOT NULL")) {
    const list = importedFrom.get(String(member));
    if (list) list.push(moduleKey(String(module)));
    else importedFrom.set(String(member), [moduleKey(String(module))]);
  }
  const isImported = (fn: SymbolRow, owner: SymbolRow | undefined): boolean => {
    const specs = owner?.kind === 'module' ? importedFrom.get(fn.name) : undefined;
    if (!specs) return false;
    const own = moduleKey(owner!.qualifiedName);
    return specs.some((spec) => spec !== '' && (own === spec || own.endsWith(`.${spec}`)));
  };
  const symbols = new SymbolCache(store);
  const bases = new BaseIndex(store);
  const lookups = new AttributeLookups(store, symbols);
  const dead: SymbolRow[] = [];
  for (const row of rows) {
    const s = toSymbol(row);
    if (prefix !== undefined && !s.filePath.startsWith(prefix)) continue;
    if (ENTRY_NAMES.has(s.name) || CONSTRUCTOR_NAMES.has(s.name) || MAGIC.test(s.name)) continue;
    const rel = s.filePath.startsWith(`${root}/`) ? s.filePath.slice(root.length + 1) : s.filePath;
    if (TEST_PATH.test(rel) || TEST_NAME.test(s.name)) continue;
    const owner = s.parentId === null ? undefined : symbols.get(s.parentId);
    if (isImported(s, owner)) continue;
    if (lookups.anyMayName(s.name)) continue;
    const cls = s.kind === 'method' ? (owner?.kind === 'class' ? owner : classOfDetached(store, symbols, s)) : undefined;
    if (cls) {
      if (cls.name === s.name || `~${cls.name}` === s.name) continue; // a constructor or destructor
      if (TEST_NAME.test(cls.name) || /Tests?$/.test(cls.name)) continue;
      if (bases.mayBeDispatched(cls.id, s.name)) continue;
      if (lookups.onSelfMayName(cls.id, s.name, bases)) continue;
    }
    dead.push(s);
  }
  dead.sort(bySymbolLocation);
  const page = dead.slice(offset, offset + limit);
  const signatures = await signaturesOf(store, page.map((s) => s.id), onStale);
  return { entries: page.map((s, i) => ({ symbol: refOf(s), signature: signatures[i]! })), total: dead.length, offset };
}

/**
 * A module name or specifier in one form for comparing ends: leading `./`, `../` and dots and a
 * file extension dropped, separators as dots (`./util/strings.js` → `util.strings`).
 */
function moduleKey(module: string): string {
  return module
    .replace(/^(\.{1,2}\/)+|^\.+/, '')
    .replace(/\.(m?[jt]sx?|c[jt]s|py)$/, '')
    .replace(/[/\\:]+/g, '.');
}

/** The class a method declared outside its class's body belongs to (member_of), if resolved. */
function classOfDetached(store: IndexStore, symbols: SymbolCache, method: SymbolRow): SymbolRow | undefined {
  const row = store.rows(`SELECT to_id FROM edges WHERE from_id = ? AND kind = ${EDGE_KIND_CODES.member_of} AND to_id IS NOT NULL`, [method.id])[0];
  return row ? symbols.get(Number(row[0])) : undefined;
}

/**
 * Attribute lookups by computed name (`getattr(node, 'as_' + vendor)`, `getattr(self, piece)`),
 * stored by the visitors as unresolved value uses named by a pattern: a literal start and `*`,
 * `self.` before it for a lookup on `self` (see the Python visitor). Any definition the pattern
 * can name may be the one looked up.
 */
class AttributeLookups {
  /** Literal starts of lookups on any object. */
  readonly #anywhere: string[] = [];
  /** Class id → literal starts of lookups on `self` in its methods. */
  readonly #onSelf = new Map<number, string[]>();

  constructor(store: IndexStore, symbols: SymbolCache) {
    const rows = store.rows(
      `SELECT from_id, to_name FROM edges WHERE kind = ${EDGE_KIND_CODES.references} AND to_id IS NULL AND resolution = ${RESOLUTION_CODES.dynamic} AND to_name LIKE '%*'`,
    );
    for (const [from, pattern] of rows) {
      const text = String(pattern).slice(0, -1);
      if (!text.startsWith('self.')) {
        this.#anywhere.push(text);
        continue;
      }
      // The class whose method (or a function nested in one) made the lookup.
      let owner = symbols.get(Number(from));
      while (owner && owner.kind !== 'class') owner = owner.parentId === null ? undefined : symbols.get(owner.parentId);
      if (!owner) continue;
      const list = this.#onSelf.get(owner.id);
      if (list) list.push(text.slice(5));
      else this.#onSelf.set(owner.id, [text.slice(5)]);
    }
  }

  /** Whether a lookup on any object may name `name`. */
  anyMayName(name: string): boolean {
    return this.#anywhere.some((start) => name.startsWith(start));
  }

  /** Whether a lookup on `self` in the class, a base or a subclass may name method `name` of class `classId`. */
  onSelfMayName(classId: number, name: string, bases: BaseIndex): boolean {
    if (this.#onSelf.size === 0) return false;
    for (const id of bases.lineOf(classId)) if (this.#onSelf.get(id)?.some((start) => name.startsWith(start))) return true;
    return false;
  }
}

/**
 * The class graph of an index (inherits and implements edges; a null base: one outside the
 * codebase or not resolved), read in one statement on first use.
 */
class BaseIndex {
  readonly #store: IndexStore;
  #bases: Map<number, (number | null)[]> | undefined;
  #subclasses: Map<number, number[]> | undefined;
  readonly #methods = new Map<string, boolean>();

  constructor(store: IndexStore) {
    this.#store = store;
  }

  #read(): void {
    this.#bases = new Map();
    this.#subclasses = new Map();
    for (const [from, to] of this.#store.rows(`SELECT from_id, to_id FROM edges WHERE kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY id`)) {
      const cls = Number(from);
      const base = to === null ? null : Number(to);
      let list = this.#bases.get(cls);
      if (!list) this.#bases.set(cls, (list = []));
      list.push(base);
      if (base !== null) {
        let subs = this.#subclasses.get(base);
        if (!subs) this.#subclasses.set(base, (subs = []));
        subs.push(cls);
      }
    }
  }

  #basesOf(id: number): readonly (number | null)[] {
    if (!this.#bases) this.#read();
    return this.#bases!.get(id) ?? [];
  }

  #subclassesOf(id: number): readonly number[] {
    if (!this.#subclasses) this.#read();
    return this.#subclasses!.get(id) ?? [];
  }

  #defines(classId: number, name: string): boolean {
    const key = `${classId}\u0000${name}`;
    let found = this.#methods.get(key);
    if (found === undefined) {
      found = this.#store.rows("SELECT 1 FROM symbols WHERE parent_id = ? AND name = ? AND kind = 'method' LIMIT 1", [classId, name]).length > 0;
      this.#methods.set(key, found);
    }
    return found;
  }

  /** `classId` and every class above it; null when one of them has a base outside the codebase. */
  #ancestors(classId: number): Set<number> | null {
    const seen = new Set<number>([classId]);
    const stack = [classId];
    while (stack.length > 0) {
      for (const base of this.#basesOf(stack.pop()!)) {
        if (base === null) return null;
        if (!seen.has(base)) {
          seen.add(base);
          stack.push(base);
        }
      }
    }
    return seen;
  }

  /** `classId`, the classes above it (those in the codebase) and the classes below it. */
  lineOf(classId: number): Set<number> {
    const line = new Set<number>([classId]);
    for (const walk of [(id: number) => this.#basesOf(id), (id: number) => this.#subclassesOf(id)]) {
      const stack = [classId];
      while (stack.length > 0) {
        for (const next of walk(stack.pop()!)) {
          if (next !== null && !line.has(next)) {
            line.add(next);
            stack.push(next);
          }
        }
      }
    }
    return line;
  }

  /**
   * Whether a call may reach method `name` of class `classId` by dispatch, with no edge to say
   * so: it overrides or implements a method of a base (or may: a base is outside the codebase),
   * or a subclass overrides it (a template method), or a subclass has another base that
   * defines the name (a mixin's method overriding a sibling's: `class
   * AutocompleteSelect(AutocompleteMixin, Select)`, where `Select` calls `self.optgroups()`), or
   * a subclass has a base outside the codebase, whose code may call it.
   */
  mayBeDispatched(classId: number, name: string): boolean {
    const above = this.#ancestors(classId);
    if (above === null) return true;
    for (const id of above) if (id !== classId && this.#defines(id, name)) return true;
    // The classes below, then the other classes above each of them.
    const below = new Set<number>();
    const stack = [classId];
    while (stack.length > 0) {
      for (const sub of this.#subclassesOf(stack.pop()!)) {
        if (!below.has(sub)) {
          below.add(sub);
          stack.push(sub);
        }
      }
    }
    for (const sub of below) {
      // Overridden below: the name is a point of dispatch (a template method), not dead code.
      if (this.#defines(sub, name)) return true;
      const line = this.#ancestors(sub);
      if (line === null) return true;
      for (const id of line) if (!above.has(id) && !below.has(id) && this.#defines(id, name)) return true;
    }
    return false;
  }
}
