import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { c3Merge } from '../graph/c3.js';
import { perStore } from './per-store.js';
import { SymbolCache } from './symbols.js';
import { mayCall } from './calling-languages.js';

// The class graph as queries need it (bases, subclasses, what dispatch may reach) and the
// attribute lookups by computed name that may reach a method: read from the store on first use.

/** One attribute lookup by computed name: the literal start of the names it may produce. */
interface Lookup {
  readonly start: string;
  /** The language of the code looking up: only definitions it may call (see mayCall). */
  readonly language: string;
  readonly filePath: string;
  readonly line: number;
  /** For a lookup on `self`: the class whose method (or a function nested in one) made it. */
  readonly classId?: number;
}

/**
 * Attribute lookups by computed name (`getattr(node, 'as_' + vendor)`, `getattr(self, piece)`),
 * stored by the visitors as unresolved value uses named by a pattern: a literal start and `*`,
 * `self.` before it for a lookup on `self` (see the Python visitor). Any definition the pattern
 * can name may be the one looked up. Read once per committed state of a store (they are few,
 * and found through the index of edge names).
 */
export class AttributeLookups {
  /** Lookups on any object. */
  readonly #anywhere: Lookup[] = [];
  /** Lookups on `self`, by the id of the class that made them. */
  readonly #onSelf = new Map<number, Lookup[]>();

  private constructor(store: IndexStore) {
    const rows = store.rows(
      // The patterns' names first (a scan of the names), then their rows through the name index.
      `SELECT e.from_id, ${NAME_OF_EDGE}, f.path, e.line, f.language FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
       WHERE e.name_id IN (SELECT id FROM names WHERE name LIKE '%*') AND e.kind = ${EDGE_KIND_CODES.references} AND e.to_id IS NULL AND e.resolution = ${RESOLUTION_CODES.dynamic}`,
    );
    const symbols = new SymbolCache(store);
    for (const [from, pattern, path, line, language] of rows) {
      const text = String(pattern).slice(0, -1);
      if (!text.startsWith('self.')) {
        this.#anywhere.push({ start: text, language: String(language), filePath: String(path), line: Number(line) });
        continue;
      }
      let owner = symbols.get(Number(from));
      while (owner && owner.kind !== 'class') owner = owner.parentId === null ? undefined : symbols.get(owner.parentId);
      if (!owner) continue;
      const lookup = { start: text.slice(5), language: String(language), filePath: String(path), line: Number(line), classId: owner.id };
      const list = this.#onSelf.get(owner.id);
      if (list) list.push(lookup);
      else this.#onSelf.set(owner.id, [lookup]);
    }
  }

  /** The lookups of a store as it is now (read again after a write session commits). */
  static readonly of: (store: IndexStore) => AttributeLookups = perStore((store) => new AttributeLookups(store));

  /** Whether a lookup on any object may name `name`. */
  anyMayName(name: string, language: string): boolean {
    return this.#anywhere.some((l) => name.startsWith(l.start) && mayCall(l.language, language));
  }

  /** Whether a lookup on `self` in the class, a base or a subclass may name method `name` of class `classId`. */
  onSelfMayName(classId: number, name: string, bases: BaseIndex): boolean {
    return this.#onSelf.size > 0 && this.#onSelfNaming(classId, name, bases).length > 0;
  }

  /** Where a lookup may name `name`, a definition in `language`, a method of class `classId` (null: not a method). */
  locationsNaming(name: string, language: string, classId: number | null, bases: () => BaseIndex): { filePath: string; line: number }[] {
    const found = this.#anywhere.filter((l) => name.startsWith(l.start) && mayCall(l.language, language));
    if (classId !== null && this.#onSelf.size > 0) found.push(...this.#onSelfNaming(classId, name, bases()));
    return found.map((l) => ({ filePath: l.filePath, line: l.line }));
  }

  #onSelfNaming(classId: number, name: string, bases: BaseIndex): Lookup[] {
    const out: Lookup[] = [];
    for (const id of bases.lineOf(classId)) for (const l of this.#onSelf.get(id) ?? []) if (name.startsWith(l.start)) out.push(l);
    return out;
  }
}

/**
 * The class graph of an index (inherits and implements edges; a null base: one outside the
 * codebase or not resolved), read in one statement on first use.
 */
export class BaseIndex {
  readonly #store: IndexStore;
  #bases: Map<number, (number | null)[]> | undefined;
  #subclasses: Map<number, number[]> | undefined;
  readonly #methods = new Map<string, boolean>();
  readonly #orders = new Map<number, readonly number[]>();
  readonly #below = new Map<number, ReadonlySet<number>>();
  #nextExternal = 0;

  private constructor(store: IndexStore) {
    this.#store = store;
  }

  /** The class graph of a store as it is now (read again after a write session commits). */
  static readonly of: (store: IndexStore) => BaseIndex = perStore((store) => new BaseIndex(store));

  #read(): void {
    this.#bases = new Map();
    this.#subclasses = new Map();
    for (const [from, to, name] of this.#store.rows(
      `SELECT e.from_id, e.to_id, ${NAME_OF_EDGE} FROM edges e WHERE e.kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY e.id`,
    )) {
      // Python's `object` (`class A(object)`) defines dunders only, which the language calls
      // anyway: it is no base that may define or call a method of the class.
      if (to === null && name === 'object') continue;
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

  /**
   * Every class below `classId` (its subclasses, theirs, …), nearest first; kept (dead code asks
   * for each method of a class, a callees answer for each call on `self`).
   */
  below(classId: number): ReadonlySet<number> {
    let below = this.#below.get(classId);
    if (below !== undefined) return below;
    const found = new Set<number>();
    const queue = [classId];
    for (let i = 0; i < queue.length; i++) {
      for (const sub of this.#subclassesOf(queue[i]!)) {
        if (sub !== classId && !found.has(sub)) {
          found.add(sub);
          queue.push(sub);
        }
      }
    }
    this.#below.set(classId, (below = found));
    return below;
  }

  /**
   * Whether instances of `sub` (a class below `classId`) reach method `name` of `classId`: its
   * lookup order meets no other class of the codebase defining `name` before `classId` (an
   * override, or a sibling base's method first in the order, hides it).
   */
  reaches(sub: number, classId: number, name: string): boolean {
    for (const id of this.lookupOrder(sub)) {
      if (id === classId) return true;
      if (id >= 0 && this.#defines(id, name)) return false;
    }
    return false;
  }

  /**
   * The order in which a method is looked up on an instance of `classId`: the class, then its
   * bases by C3 linearisation (Python's method resolution order; depth-first and left to right
   * where no class is reached twice, as in single inheritance with interfaces). A base outside
   * the codebase is a negative number, unique to its place (its own bases are unknown). Bases
   * with no consistent order fall back to the depth-first order.
   */
  lookupOrder(classId: number): readonly number[] {
    let order = this.#orders.get(classId);
    if (order === undefined) {
      this.#nextExternal = 0;
      order = this.#c3(classId, 0) ?? this.#depthFirst(classId);
      this.#orders.set(classId, order);
    }
    return order;
  }

  #c3(classId: number, depth: number): number[] | undefined {
    if (depth > 32) return undefined;
    const heads: number[] = [];
    const lists: number[][] = [];
    for (const base of this.#basesOf(classId)) {
      if (base === null) {
        const token = -++this.#nextExternal;
        heads.push(token);
        lists.push([token]);
        continue;
      }
      const order = this.#c3(base, depth + 1);
      if (order === undefined) return undefined;
      heads.push(base);
      lists.push(order);
    }
    lists.push(heads);
    return c3Merge(classId, lists);
  }

  #depthFirst(classId: number): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    const visit = (id: number, depth: number): void => {
      if (seen.has(id) || depth > 64) return;
      seen.add(id);
      out.push(id);
      for (const base of this.#basesOf(id)) {
        if (base === null) out.push(-++this.#nextExternal);
        else visit(base, depth + 1);
      }
    };
    visit(classId, 0);
    return out;
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
    const below = this.below(classId);
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

