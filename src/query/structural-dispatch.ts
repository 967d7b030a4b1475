import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES } from '../db/schema.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
import { BaseIndex } from './class-graph.js';
import { perStore } from './per-store.js';

// TypeScript's types are structural: a value of a class may stand wherever an interface is
// expected when the class has what the interface names, whether or not it says `implements`;
// so are Python's protocols (a class deriving from `typing.Protocol`) for Python's classes.
// `function run(h: Handler) { h.handle(1) }` then `run(new Loud())` runs `Loud.handle`, and the
// edge of `h.handle(1)` names `Handler.handle`. A class may be held by an interface when its
// methods (its own and its bases', an unknown set when a base is outside the codebase) include
// every method the interface and the interfaces it extends in the codebase name (one outside it
// may name more, which cannot be checked: the class may fit). Names only: signatures and
// properties are not compared, so these are calls that *may* run a method, never edges. Classes that declare the interface are the
// class graph's (see dispatch.ts): they are left out here.

/** The languages whose classes may stand for a structural interface, by family (a TypeScript interface holds JavaScript classes too). */
const FAMILY: Readonly<Record<string, string>> = { typescript: 'ecmascript', tsx: 'ecmascript', javascript: 'ecmascript', python: 'python' };
const CLASS_LANGUAGES = Object.keys(FAMILY)
  .map((l) => `'${l}'`)
  .join(', ');

/** Whether a language is JavaScript or TypeScript (TSX too). */
export function isEcmascript(language: string): boolean {
  return FAMILY[language] === 'ecmascript';
}

/** Whether a symbol's language types structurally (its interfaces or protocols are matched by names). */
export function typesStructurally(language: string): boolean {
  return FAMILY[language] !== undefined;
}

/** Methods by name, then by the id of their class or interface: method ids. */
type ByName = Map<string, Map<number, number>>;

const NONE: ReadonlyMap<number, number> = new Map();

function add(index: ByName, name: string, owner: number, method: number): void {
  let owners = index.get(name);
  if (!owners) index.set(name, (owners = new Map()));
  if (!owners.has(owner)) owners.set(owner, method);
}

/**
 * The TypeScript interfaces of an index and the method names of its TypeScript and JavaScript
 * classes, read in two statements on first use and kept while the store is unchanged.
 */
export class StructuralInterfaces {
  readonly #bases: BaseIndex;
  /** Interface methods by name. */
  readonly #declared: ByName = new Map();
  /** Methods of classes (not interfaces) by name. */
  readonly #own: ByName = new Map();
  /** Method names by class or interface. */
  readonly #names = new Map<number, Set<string>>();
  readonly #interfaces = new Set<number>();
  /** The family of each class or interface read (see FAMILY): an interface holds classes of its own family only. */
  readonly #family = new Map<number, string>();
  readonly #required = new Map<number, ReadonlySet<string>>();
  readonly #methodSets = new Map<number, ReadonlySet<string> | undefined>();

  private constructor(store: IndexStore) {
    this.#bases = BaseIndex.of(store);
    const rows = store.rows(
      `SELECT s.id, p.id, s.name, p.flags & ${SYMBOL_FLAGS.interface}, f.language FROM symbols s JOIN symbols p ON p.id = s.parent_id AND p.kind = 'class'
       JOIN files f ON f.id = p.file_id AND f.language IN (${CLASS_LANGUAGES}) WHERE s.kind = 'method'
       UNION ALL
       SELECT s.id, e.to_id, s.name, 0, f.language FROM edges e JOIN symbols s ON s.id = e.from_id AND s.kind = 'method'
       JOIN files f ON f.id = s.file_id AND f.language IN (${CLASS_LANGUAGES}) WHERE e.kind = ${EDGE_KIND_CODES.member_of} AND e.to_id IS NOT NULL`,
    );
    // Python's protocols: classes with a base `Protocol` (`typing.Protocol`, `Protocol[T]`) outside the codebase.
    const protocols = new Set(
      store
        .rows(
          `SELECT DISTINCT e.from_id FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id AND f.language = 'python'
           WHERE e.kind = ${EDGE_KIND_CODES.inherits} AND e.to_id IS NULL AND e.name_id = (SELECT id FROM names WHERE name = 'Protocol')`,
        )
        .map((r) => Number(r[0])),
    );
    for (const [method, owner, name, isInterface, language] of rows) {
      const id = Number(owner);
      this.#family.set(id, FAMILY[String(language)]!);
      if ((Number(isInterface) !== 0 && language !== 'javascript' && language !== 'python') || protocols.has(id)) {
        this.#interfaces.add(id);
        add(this.#declared, String(name), id, Number(method));
      } else add(this.#own, String(name), id, Number(method));
      let names = this.#names.get(id);
      if (!names) this.#names.set(id, (names = new Set()));
      names.add(String(name));
    }
  }

  /** What a store's TypeScript interfaces and classes are. */
  static readonly of: (store: IndexStore) => StructuralInterfaces = perStore((store) => new StructuralInterfaces(store));

  /** Whether `classId` is a TypeScript interface with methods. */
  isInterface(classId: number): boolean {
    return this.#interfaces.has(classId);
  }

  /** The classes (not interfaces) with a method named `name` of their own: class id → the method's id. */
  implementing(name: string): ReadonlyMap<number, number> {
    return this.#own.get(name) ?? NONE;
  }

  /**
   * The interfaces declaring method `name` that may hold a value of class `classId`, or of a
   * class below it that does not define its own `name`, without declaring them: interface id →
   * the interface's method.
   */
  holding(classId: number, name: string): Map<number, number> {
    const out = new Map<number, number>();
    const declaring = this.#declared.get(name);
    if (!declaring || this.#interfaces.has(classId)) return out;
    const own = this.implementing(name);
    const holders = [classId, ...[...this.#bases.below(classId)].filter((c) => !own.has(c) && !this.#interfaces.has(c))];
    for (const [iface, method] of declaring) if (holders.some((c) => this.fits(iface, c))) out.set(iface, method);
    return out;
  }

  /** Whether interface `interfaceId` may hold a value of class `classId` that does not declare it. */
  fits(interfaceId: number, classId: number): boolean {
    if (this.#interfaces.has(classId) || this.#family.get(classId) !== this.#family.get(interfaceId) || this.#bases.lookupOrder(classId).includes(interfaceId)) return false;
    const required = this.#requiredOf(interfaceId);
    const names = this.#methodSetOf(classId);
    if (names === undefined) return true;
    for (const name of required) if (!names.has(name)) return false;
    return true;
  }

  /** The method names an interface requires that the codebase shows: its own and its bases' in the codebase. */
  #requiredOf(interfaceId: number): ReadonlySet<string> {
    let out = this.#required.get(interfaceId);
    if (out === undefined) this.#required.set(interfaceId, (out = this.#collect(interfaceId, true)!));
    return out;
  }

  /** The method names of a class (its own and its bases'), undefined when a base is outside the codebase (any name). */
  #methodSetOf(classId: number): ReadonlySet<string> | undefined {
    if (this.#methodSets.has(classId)) return this.#methodSets.get(classId);
    const out = this.#collect(classId, false);
    this.#methodSets.set(classId, out);
    return out;
  }

  /** The method names of a class or interface and its bases; a base outside the codebase is skipped (`skipUnknown`), or makes the set unknown. */
  #collect(id: number, skipUnknown: boolean): ReadonlySet<string> | undefined {
    const names = new Set<string>();
    for (const c of this.#bases.lookupOrder(id)) {
      if (c < 0) {
        if (skipUnknown) continue;
        return undefined;
      }
      for (const n of this.#names.get(c) ?? []) names.add(n);
    }
    return names;
  }
}
