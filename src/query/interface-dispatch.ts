import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE } from '../db/schema.js';
import { BaseIndex } from './class-graph.js';
import { perStore } from './per-store.js';

// Go's interfaces are satisfied implicitly: no edge joins `Circle` to `Shape`, yet `s.Area()` on
// a `Shape` runs `Circle.Area` when s holds a Circle. A type may be held by an interface value
// when its method set has every method the interface names: its own methods (joined to it by
// member_of edges), those its embedded types promote, and an embedded type the graph could not
// resolve (outside the codebase, or ambiguous: `*file` in package os has a struct per system)
// may promote any (but the predeclared `error`, whose one method is Error). Names only:
// signatures and pointer receivers are not compared, so these are calls that *may* run a
// method, never edges.

/** An interface's method names, or undefined when an embedded interface outside the codebase adds unknown ones. */
type MethodNames = ReadonlySet<string> | undefined;

/** Go's predeclared interfaces, embedded by their names (no edge reaches them). */
const PREDECLARED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['error', new Set(['Error'])],
  ['any', new Set<string>()],
]);

/** Methods by name, then by the id of their type or interface: method ids. */
type ByName = Map<string, Map<number, number>>;

function add(index: ByName, name: string, owner: number, method: number): void {
  let owners = index.get(name);
  if (!owners) index.set(name, (owners = new Map()));
  if (!owners.has(owner)) owners.set(owner, method);
}

const NONE: ReadonlyMap<number, number> = new Map();

/**
 * The Go interfaces of an index and the method sets of its types, read in three statements on
 * first use and kept while the store is unchanged (a trace asks for hundreds of names).
 */
export class GoInterfaces {
  readonly #bases: BaseIndex;
  /** Interface methods (nested in their interface: a Go struct's methods are joined by member_of). */
  readonly #declared: ByName = new Map();
  /** Methods of types, joined to them by member_of. */
  readonly #own: ByName = new Map();
  readonly #nestedNames = new Map<number, Set<string>>();
  readonly #ownNames = new Map<number, Set<string>>();
  /** Embedded types by type: ids, or the name written for one the graph did not resolve. */
  readonly #embedded = new Map<number, (number | string)[]>();
  readonly #required = new Map<number, MethodNames>();
  readonly #methodSets = new Map<number, { readonly names: ReadonlySet<string>; readonly open: boolean }>();

  private constructor(store: IndexStore) {
    this.#bases = BaseIndex.of(store);
    const go = `JOIN files f ON f.id = s.file_id AND f.language = 'go'`;
    for (const [method, iface, name] of store.rows(`SELECT s.id, s.parent_id, s.name FROM symbols s JOIN symbols p ON p.id = s.parent_id AND p.kind = 'class' ${go} WHERE s.kind = 'method' ORDER BY s.id`)) {
      add(this.#declared, String(name), Number(iface), Number(method));
      this.#namesOf(this.#nestedNames, Number(iface)).add(String(name));
    }
    for (const [method, type, name] of store.rows(
      `SELECT s.id, e.to_id, s.name FROM edges e JOIN symbols s ON s.id = e.from_id ${go} WHERE e.kind = ${EDGE_KIND_CODES.member_of} AND e.to_id IS NOT NULL AND s.kind = 'method' ORDER BY s.id`,
    )) {
      add(this.#own, String(name), Number(type), Number(method));
      this.#namesOf(this.#ownNames, Number(type)).add(String(name));
    }
    for (const [from, to, name] of store.rows(
      `SELECT e.from_id, e.to_id, ${NAME_OF_EDGE} FROM edges e JOIN symbols s ON s.id = e.from_id ${go} WHERE e.kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) ORDER BY e.id`,
    )) {
      let list = this.#embedded.get(Number(from));
      if (!list) this.#embedded.set(Number(from), (list = []));
      list.push(to === null ? String(name) : Number(to));
    }
  }

  /** What a store's Go interfaces and types are. */
  static readonly of: (store: IndexStore) => GoInterfaces = perStore((store) => new GoInterfaces(store));

  #namesOf(index: Map<number, Set<string>>, id: number): Set<string> {
    let names = index.get(id);
    if (!names) index.set(id, (names = new Set()));
    return names;
  }

  /** The interfaces declaring a method named `name`: interface id → the method's id. */
  declaring(name: string): ReadonlyMap<number, number> {
    return this.#declared.get(name) ?? NONE;
  }

  /** The types with a method named `name` of their own: type id → the method's id. */
  implementing(name: string): ReadonlyMap<number, number> {
    return this.#own.get(name) ?? NONE;
  }

  /** Whether `classId` is a Go interface (it has methods nested in it). */
  isInterface(classId: number): boolean {
    return this.#nestedNames.has(classId);
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
    const holders = [typeId, ...[...this.#bases.below(typeId)].filter((t) => !own.has(t))];
    for (const [iface, method] of declaring) if (iface !== typeId && holders.some((t) => this.satisfies(t, iface))) out.set(iface, method);
    return out;
  }

  /** Whether interface `interfaceId` may hold a value of another type `typeId`, or of a type embedding it. */
  fits(interfaceId: number, typeId: number): boolean {
    return typeId !== interfaceId && this.heldBy(typeId, interfaceId);
  }

  /** Whether a value of type `typeId`, or of a type embedding it, may be held by interface `interfaceId`. */
  heldBy(typeId: number, interfaceId: number): boolean {
    return this.satisfies(typeId, interfaceId) || [...this.#bases.below(typeId)].some((t) => this.satisfies(t, interfaceId));
  }

  /** Whether a value of type `typeId` may be held by interface `interfaceId`. */
  satisfies(typeId: number, interfaceId: number): boolean {
    const required = this.#requiredOf(interfaceId, 0);
    const set = this.#methodSetOf(typeId, 0);
    if (set.open || required === undefined) return true;
    for (const name of required) if (!set.names.has(name)) return false;
    return true;
  }

  #requiredOf(interfaceId: number, depth: number): MethodNames {
    if (this.#required.has(interfaceId)) return this.#required.get(interfaceId);
    const names = new Set<string>(this.#nestedNames.get(interfaceId));
    let known = depth <= 16;
    for (const embedded of this.#embedded.get(interfaceId) ?? []) {
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
    const names = new Set<string>(this.#ownNames.get(typeId));
    let open = depth > 16;
    for (const embedded of this.#embedded.get(typeId) ?? []) {
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
}
