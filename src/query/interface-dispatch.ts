import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE } from '../db/schema.js';
import { BaseIndex } from './class-graph.js';
import { perStore } from './per-store.js';

// Go's interfaces are satisfied implicitly: no edge joins `Circle` to `Shape`, yet `s.Area()` on
// a `Shape` runs `Circle.Area` when s holds a Circle. A type may be held by an interface value
// when its method set has every method the interface names: its own methods (joined to it by
// member_of edges), those its embedded types promote, and an embedded type the graph could not
// resolve (outside the codebase, or ambiguous: `*file` in package os has a struct per system)
// may promote any (but the predeclared `error`, whose one method is Error). Names only: signatures and pointer receivers are not compared, so these are
// calls that *may* run a method, never edges.

/** An interface's method names, or undefined when an embedded interface outside the codebase adds unknown ones. */
export type MethodNames = ReadonlySet<string> | undefined;

/** Go's predeclared interface, embedded in structs and interfaces by its name (no edge reaches it). */
const PREDECLARED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['error', new Set(['Error'])],
  ['any', new Set<string>()],
]);

/** The Go interfaces of an index and the method sets of its types, read as asked. */
export class GoInterfaces {
  readonly #store: IndexStore;
  readonly #bases: BaseIndex;
  readonly #required = new Map<number, MethodNames>();
  readonly #methodSets = new Map<number, { readonly names: ReadonlySet<string>; readonly open: boolean }>();

  private constructor(store: IndexStore) {
    this.#store = store;
    this.#bases = BaseIndex.of(store);
  }

  /** What a store's Go interfaces and types are (kept while the store is unchanged: method sets are read once). */
  static readonly of: (store: IndexStore) => GoInterfaces = perStore((store) => new GoInterfaces(store));

  /**
   * The interfaces declaring a method named `name` (Go's interface methods are the only methods
   * nested in their type: a struct's are joined by member_of), as interface id → method id.
   */
  declaring(name: string): Map<number, number> {
    const out = new Map<number, number>();
    const rows = this.#store.rows(
      `SELECT s.id, s.parent_id FROM symbols s JOIN symbols p ON p.id = s.parent_id JOIN files f ON f.id = s.file_id
       WHERE s.name = ? AND s.kind = 'method' AND p.kind = 'class' AND f.language = 'go' ORDER BY s.id`,
      [name],
    );
    for (const [method, iface] of rows) if (!out.has(Number(iface))) out.set(Number(iface), Number(method));
    return out;
  }

  /** Whether `classId` is a Go interface: it has methods nested in it. */
  isInterface(classId: number): boolean {
    return this.#store.rows("SELECT 1 FROM symbols WHERE parent_id = ? AND kind = 'method' LIMIT 1", [classId]).length > 0;
  }

  /** The types with a method named `name` of their own (member_of), as type id → method id. */
  implementing(name: string): Map<number, number> {
    const out = new Map<number, number>();
    const rows = this.#store.rows(
      `SELECT s.id, e.to_id FROM symbols s JOIN edges e ON e.from_id = s.id AND e.kind = ${EDGE_KIND_CODES.member_of} JOIN files f ON f.id = s.file_id
       WHERE s.name = ? AND s.kind = 'method' AND e.to_id IS NOT NULL AND f.language = 'go' ORDER BY s.id`,
      [name],
    );
    for (const [method, type] of rows) if (!out.has(Number(type))) out.set(Number(type), Number(method));
    return out;
  }

  /**
   * The interfaces declaring method `name` that may hold a value of type `typeId`, or of a type
   * embedding it that gets its method by promotion (does not define its own): interface id →
   * the interface's method.
   */
  holding(typeId: number, name: string): Map<number, number> {
    const out = new Map<number, number>();
    const declaring = this.declaring(name);
    if (declaring.size === 0) return out;
    const own = this.implementing(name);
    const holders = [typeId, ...[...this.embedders(typeId)].filter((t) => !own.has(t))];
    for (const [iface, method] of declaring) if (iface !== typeId && holders.some((t) => this.satisfies(t, iface))) out.set(iface, method);
    return out;
  }

  /** Whether a value of type `typeId` may be held by interface `interfaceId`. */
  satisfies(typeId: number, interfaceId: number): boolean {
    const required = this.#requiredOf(interfaceId, 0);
    const set = this.#methodSetOf(typeId, 0);
    if (set.open || required === undefined) return true;
    for (const name of required) if (!set.names.has(name)) return false;
    return true;
  }

  /** The types that embed `typeId`, directly or further, and so get its methods unless they define their own. */
  embedders(typeId: number): Set<number> {
    return this.#bases.below(typeId);
  }

  #requiredOf(interfaceId: number, depth: number): MethodNames {
    if (this.#required.has(interfaceId)) return this.#required.get(interfaceId);
    const names = new Set<string>();
    let known = depth <= 16;
    for (const [name] of this.#store.rows("SELECT name FROM symbols WHERE parent_id = ? AND kind = 'method'", [interfaceId])) names.add(String(name));
    for (const embedded of this.#basesOf(interfaceId)) {
      const more = typeof embedded === 'string' ? PREDECLARED.get(embedded) : !known ? undefined : this.#requiredOf(embedded, depth + 1);
      if (more === undefined) known = false;
      else for (const n of more) names.add(n);
    }
    const out = known ? names : undefined;
    this.#required.set(interfaceId, out);
    return out;
  }

  #methodSetOf(typeId: number, depth: number): { readonly names: ReadonlySet<string>; readonly open: boolean } {
    const kept = this.#methodSets.get(typeId);
    if (kept) return kept;
    const names = new Set<string>();
    let open = depth > 16;
    const rows = this.#store.rows(
      `SELECT s.name FROM edges e JOIN symbols s ON s.id = e.from_id WHERE e.to_id = ? AND e.kind = ${EDGE_KIND_CODES.member_of} AND s.kind = 'method'`,
      [typeId],
    );
    for (const [name] of rows) names.add(String(name));
    for (const embedded of this.#basesOf(typeId)) {
      if (typeof embedded === 'string') {
        const predeclared = PREDECLARED.get(embedded);
        if (predeclared === undefined) open = true;
        else for (const n of predeclared) names.add(n);
        continue;
      }
      if (open) continue;
      const inner = this.#methodSetOf(embedded, depth + 1);
      if (inner.open) open = true;
      for (const n of inner.names) names.add(n);
      // An embedded interface contributes the methods it names.
      for (const n of this.#requiredOf(embedded, depth + 1) ?? []) names.add(n);
    }
    const out = { names, open };
    this.#methodSets.set(typeId, out);
    return out;
  }

  /** A type's embedded types: ids, or the name written for one outside the codebase. */
  #basesOf(classId: number): (number | string)[] {
    return this.#store
      .rows(`SELECT e.to_id, ${NAME_OF_EDGE} FROM edges e WHERE e.from_id = ? AND e.kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY e.id`, [classId])
      .map(([to, name]) => (to === null ? String(name) : Number(to)));
  }
}
