import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { decodeSite } from '../graph/site.js';
import { BaseIndex } from './class-graph.js';
import { GoInterfaces } from './interface-dispatch.js';
import { perStore } from './per-store.js';
import { StructuralInterfaces, typesStructurally } from './structural-dispatch.js';
import { refOf, type SymbolCache, type SymbolRow } from './symbols.js';
import { byLocation, UNRESOLVED_SAMPLE } from './targets.js';
import type { DispatchCall, DispatchCalls } from './types.js';

// Dispatch to overrides. The graph stores a call where the declaration-based rules put it:
// `self.process(x)` in `Handler.handle` is an edge to `Handler.process`. On an instance of a
// subclass that overrides `process`, the same call runs the override, and no edge says so.
// Callers and callees answers must not call themselves complete while such calls exist: these
// functions find them from the class graph, without guessing (a call counts only when its
// receiver may be an instance of a class whose lookup of the name reaches the other method).

/** Resolutions of a call on a receiver whose class may be a subclass: `self`/`this` and typed values. */
const DISPATCHED: readonly number[] = [RESOLUTION_CODES.self, RESOLUTION_CODES.typed];

/**
 * Languages without methods. (Go has its own rule: its embedding never dispatches, its
 * interfaces do; see GoInterfaces.)
 */
const STATIC_LANGUAGES: ReadonlySet<string> = new Set(['c', 'bash']);

/**
 * The class a typed call's receiver is known to be, from its site: `constructed` when the value
 * was made by a call of the class (`rpad = RPad(…)`: exactly that class, so the call runs the
 * method its edge names), the name written for a declared type (`h: Handler`), or undefined.
 */
function typedReceiver(site: unknown): { readonly constructed: boolean; readonly name: string } | undefined {
  const receiver = decodeSite(typeof site === 'string' ? site : null).receiver;
  if (receiver?.kind !== 'type') return undefined;
  const name = /([^.:\\/]+)$/.exec(receiver.type)?.[1] ?? receiver.type;
  return { constructed: receiver.constructed === true, name };
}

/**
 * The class a declared type names among `candidates` (the classes a call's edge allows: its
 * target's class and the classes below it), by the last part of the name as written; undefined
 * when none or several have it (an alias: the receiver is then taken to be the target's class).
 */
function declaredClass(symbols: SymbolCache, name: string, candidates: Iterable<number>): number | undefined {
  let found: number | undefined;
  for (const id of candidates) {
    if (symbols.get(id)?.name !== name) continue;
    if (found !== undefined) return undefined;
    found = id;
  }
  return found;
}

/** No dispatch call: an empty answer. */
export const NO_DISPATCH: DispatchCalls = Object.freeze({ count: 0, sample: Object.freeze([]) });

/**
 * The class a method belongs to: its parent, or the class a `member_of` edge joins it to (Go,
 * Rust `impl` blocks, C++ `Shape::rename` defined outside the class).
 */
export function classOfMethod(store: IndexStore, symbols: SymbolCache, method: SymbolRow): SymbolRow | undefined {
  const parent = method.parentId === null ? undefined : symbols.get(method.parentId);
  if (parent?.kind === 'class') return parent;
  if (method.kind !== 'method') return undefined;
  const row = store.rows(`SELECT to_id FROM edges WHERE from_id = ? AND kind = ${EDGE_KIND_CODES.member_of} AND to_id IS NOT NULL LIMIT 1`, [method.id])[0];
  const cls = row ? symbols.get(Number(row[0])) : undefined;
  return cls?.kind === 'class' ? cls : undefined;
}

/** The class of the method a function is (or is nested in), if any: what `self`/`this` is an instance of. */
function enclosingClass(store: IndexStore, symbols: SymbolCache, symbol: SymbolRow): SymbolRow | undefined {
  let at: SymbolRow | undefined = symbol;
  for (let guard = 0; at && guard < 64; guard++) {
    if (at.kind === 'method') return classOfMethod(store, symbols, at);
    if (at.kind !== 'function') return undefined;
    at = at.parentId === null ? undefined : symbols.get(at.parentId);
  }
  return undefined;
}

/** The methods of each name asked, kept while the store is unchanged (a trace asks again and again). */
const methodsByName = perStore(() => new Map<string, ReadonlyMap<number, readonly number[]>>());

/** The methods named `name` (several for overloads), by the id of their class. */
function methodsNamed(store: IndexStore, name: string): ReadonlyMap<number, readonly number[]> {
  const known = methodsByName(store);
  const kept = known.get(name);
  if (kept) return kept;
  const out = new Map<number, number[]>();
  known.set(name, out);
  // A method's class: its parent, or the class its member_of edge names (see classOfMethod).
  const rows = store.rows(
    `SELECT s.id, CASE WHEN p.kind = 'class' THEN p.id ELSE (SELECT e.to_id FROM edges e WHERE e.from_id = s.id AND e.kind = ${EDGE_KIND_CODES.member_of} LIMIT 1) END
     FROM symbols s LEFT JOIN symbols p ON p.id = s.parent_id WHERE s.name = ? AND s.kind = 'method' ORDER BY s.id`,
    [name],
  );
  for (const [id, parent] of rows) {
    if (parent === null) continue;
    const cls = Number(parent);
    const list = out.get(cls);
    if (list) list.push(Number(id));
    else out.set(cls, [Number(id)]);
  }
  return out;
}

/**
 * The class whose method a lookup of a name reaches on an instance of a class: the first class
 * in its lookup order that defines the name (`definers`), or `external` when a base outside the
 * codebase comes first (it may define the name), or undefined.
 */
function reachedClass(order: readonly number[], definers: ReadonlyMap<number, readonly number[]>): number | 'external' | undefined {
  for (const id of order) {
    if (id < 0) return 'external';
    if (definers.has(id)) return id;
  }
  return undefined;
}

/** A dispatch call as found: where, the symbol (caller, or override) and the method its edge names, by id. */
export interface FoundDispatch {
  readonly filePath: string;
  readonly line: number;
  readonly symbolId: number;
  readonly viaId: number;
}

/**
 * Dispatch calls counted, the first few kept: by location, then by the symbol's qualified name.
 * Only the symbols of the sample are read (an interface's method may have thousands of callers).
 */
export function sampled(symbols: SymbolCache, found: readonly FoundDispatch[]): DispatchCalls {
  if (found.length === 0) return NO_DISPATCH;
  const sorted = [...found].sort(byLocation);
  const sample: DispatchCall[] = [];
  for (let i = 0; i < sorted.length && sample.length < UNRESOLVED_SAMPLE; ) {
    let j = i + 1;
    while (j < sorted.length && byLocation(sorted[j]!, sorted[i]!) === 0) j++;
    const group = sorted.slice(i, j);
    symbols.load(group.flatMap((f) => [f.symbolId, f.viaId]));
    const calls: DispatchCall[] = [];
    for (const f of group) {
      const symbol = symbols.get(f.symbolId);
      const via = symbols.get(f.viaId);
      if (symbol && via) calls.push({ filePath: f.filePath, line: f.line, symbol: refOf(symbol), via: refOf(via) });
    }
    calls.sort((a, b) => a.symbol.qualifiedName.localeCompare(b.symbol.qualifiedName));
    sample.push(...calls.slice(0, UNRESOLVED_SAMPLE - sample.length));
    i = j;
  }
  return { count: found.length, sample };
}

/**
 * Calls that may reach `method` by dispatch although their edges name another method: calls on
 * `self`/`this` or on a typed value resolved to a method it overrides (`self.process(x)` in
 * `Handler.handle`, for `Upper.process` where `class Upper(Handler)`), or to a method of
 * another base it takes the place of in a subclass (a mixin's method: `class
 * StaticFilesHandler(StaticFilesHandlerMixin, WSGIHandler)`). A call on `self` counts only when
 * its class is above a class whose lookup reaches `method`; a call `super()` names stays out.
 */
export function dispatchInto(store: IndexStore, symbols: SymbolCache, method: SymbolRow): FoundDispatch[] {
  if (method.kind !== 'method') return [];
  const owner = classOfMethod(store, symbols, method);
  if (owner === undefined) return [];
  if (method.language === 'go') return goDispatchInto(store, method, owner);
  if (STATIC_LANGUAGES.has(method.language)) return [];
  const bases = BaseIndex.of(store);
  const definers = methodsNamed(store, method.name);
  // For each method this one may take the place of: the classes whose instances run this one
  // instead. A class's lookup reaches this one when no class before the owner in its order
  // defines the name (a base outside the codebase before it may, or may not: it counts).
  const instead = new Map<number, number[]>();
  for (const cls of [owner.id, ...bases.below(owner.id)]) {
    const order = bases.lookupOrder(cls);
    const at = order.indexOf(owner.id);
    if (at < 0 || order.slice(0, at).some((id) => definers.has(id))) continue;
    for (const id of order.slice(at + 1)) {
      for (const other of definers.get(id) ?? []) {
        const list = instead.get(other);
        if (list) list.push(cls);
        else instead.set(other, [cls]);
      }
    }
  }
  const found = typesStructurally(method.language) ? structuralDispatchInto(store, method, owner) : [];
  if (instead.size === 0) return found;
  const ids = [...instead.keys()];
  const rows = store.rows(
    `SELECT from_id, to_id, line, resolution, site FROM edges WHERE kind = ${EDGE_KIND_CODES.calls} AND to_id IN (${ids.map(() => '?').join(', ')}) AND resolution IN (${DISPATCHED.join(', ')})`,
    ids,
  );
  symbols.load(rows.map((r) => Number(r[0])));
  for (const [fromId, toId, line, resolution, site] of rows) {
    const caller = symbols.get(Number(fromId));
    const via = symbols.get(Number(toId));
    if (!caller || !via) continue;
    // The receiver is an instance of this class or of a class below it (undefined: unknown).
    let receiver: number | undefined;
    if (Number(resolution) === RESOLUTION_CODES.self) receiver = enclosingClass(store, symbols, caller)?.id;
    else {
      const typed = typedReceiver(site);
      if (typed?.constructed) continue;
      const viaClass = classOfMethod(store, symbols, via);
      if (typed && viaClass) receiver = declaredClass(symbols, typed.name, [viaClass.id, ...bases.below(viaClass.id)]);
    }
    if (receiver !== undefined && !instead.get(via.id)!.some((cls) => bases.lookupOrder(cls).includes(receiver))) continue;
    found.push({ filePath: caller.filePath, line: Number(line), symbolId: caller.id, viaId: via.id });
  }
  return found;
}

/** One resolved call of a callees answer, as dispatchFrom reads it. */
export interface ResolvedCall {
  readonly fromId: number;
  readonly toId: number;
  readonly line: number;
  readonly resolution: number;
  /** The site's shape as stored (edges.site). */
  readonly site: string | null;
}

/**
 * Of a function's resolved calls on `self`/`this` or on typed values, the overrides each may run
 * instead of the method its edge names: methods of classes below the receiver's class whose
 * lookup of the name reaches them (`self.process(x)` in `Handler.handle` may run
 * `Upper.process`).
 */
export function dispatchFrom(store: IndexStore, symbols: SymbolCache, caller: SymbolRow, calls: readonly ResolvedCall[]): FoundDispatch[] {
  if (caller.language === 'go') return goDispatchFrom(store, symbols, caller, calls);
  if (STATIC_LANGUAGES.has(caller.language)) return [];
  const bases = BaseIndex.of(store);
  const receiverOfSelf = enclosingClass(store, symbols, caller);
  const found: FoundDispatch[] = [];
  for (const call of calls) {
    if (!DISPATCHED.includes(call.resolution)) continue;
    const target = symbols.get(call.toId);
    if (target?.kind !== 'method') continue;
    const targetClass = classOfMethod(store, symbols, target);
    if (targetClass === undefined) continue;
    // The class the receiver is known to be: the caller's for `self`, a declared type's, else
    // the one the edge names; a value made by a call of its class is exactly that class.
    let receiver = targetClass.id;
    if (call.resolution === RESOLUTION_CODES.self) receiver = receiverOfSelf?.id ?? receiver;
    else {
      const typed = typedReceiver(call.site);
      if (typed?.constructed) continue;
      if (typed) receiver = declaredClass(symbols, typed.name, [targetClass.id, ...bases.below(targetClass.id)]) ?? receiver;
    }
    const definers = methodsNamed(store, target.name);
    const overrides = new Set<number>();
    for (const cls of bases.below(receiver)) {
      const reach = reachedClass(bases.lookupOrder(cls), definers);
      if (typeof reach === 'number' && reach !== targetClass.id) for (const id of definers.get(reach)!) overrides.add(id);
    }
    for (const id of overrides) found.push({ filePath: caller.filePath, line: call.line, symbolId: id, viaId: target.id });
  }
  if (typesStructurally(caller.language)) found.push(...structuralDispatchFrom(store, symbols, caller, calls));
  return found;
}

/** The calls resolved to an interface's method on a receiver that may be any class holding it. */
function interfaceCalls(store: IndexStore, methodIds: number[]): FoundDispatch[] {
  if (methodIds.length === 0) return [];
  const rows = store.rows(
    `SELECT e.from_id, e.to_id, e.line, f.path FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
     WHERE e.kind = ${EDGE_KIND_CODES.calls} AND e.to_id IN (${methodIds.map(() => '?').join(', ')}) AND e.resolution IN (${DISPATCHED.join(', ')})`,
    methodIds,
  );
  return rows.map(([fromId, toId, line, path]) => ({ filePath: String(path), line: Number(line), symbolId: Number(fromId), viaId: Number(toId) }));
}

/**
 * Interfaces a type satisfies without declaring it (Go's, TypeScript's): which classes are
 * interfaces, the types with a method of a name, and whether an interface may hold a type.
 */
interface ImplicitInterfaces {
  isInterface(classId: number): boolean;
  implementing(name: string): ReadonlyMap<number, number>;
  fits(interfaceId: number, typeId: number): boolean;
}

/** The methods a call of an interface's method may run, of the types that fit the interface (an interface's method is nested in it). */
function implicitDispatchFrom(interfaces: ImplicitInterfaces, symbols: SymbolCache, caller: SymbolRow, calls: readonly ResolvedCall[]): FoundDispatch[] {
  const found: FoundDispatch[] = [];
  for (const call of calls) {
    if (!DISPATCHED.includes(call.resolution)) continue;
    const target = symbols.get(call.toId);
    if (target?.kind !== 'method' || target.parentId === null || !interfaces.isInterface(target.parentId)) continue;
    const iface = target.parentId;
    for (const [type, methodId] of interfaces.implementing(target.name)) {
      if (interfaces.fits(iface, type)) found.push({ filePath: caller.filePath, line: call.line, symbolId: methodId, viaId: target.id });
    }
  }
  return found;
}

/**
 * TypeScript: calls of an interface's method that may run `method` of class `owner`, which does
 * not declare the interface but has what it names (see StructuralInterfaces).
 */
function structuralDispatchInto(store: IndexStore, method: SymbolRow, owner: SymbolRow): FoundDispatch[] {
  return interfaceCalls(store, [...StructuralInterfaces.of(store).holding(owner.id, method.name).values()]);
}

/** TypeScript: the methods a call of an interface's method may run, of classes that fit it without declaring it. */
function structuralDispatchFrom(store: IndexStore, symbols: SymbolCache, caller: SymbolRow, calls: readonly ResolvedCall[]): FoundDispatch[] {
  return implicitDispatchFrom(StructuralInterfaces.of(store), symbols, caller, calls);
}

/**
 * Go: calls of an interface's method that may run `method` of type `owner`, because a value of
 * the type (or of a type embedding it that does not define the method) may be held by the
 * interface (see GoInterfaces).
 */
function goDispatchInto(store: IndexStore, method: SymbolRow, owner: SymbolRow): FoundDispatch[] {
  return interfaceCalls(store, [...GoInterfaces.of(store).holding(owner.id, method.name).values()]);
}

/** Go: the methods a call of an interface's method may run, of the types the interface may hold (a type's methods are joined to it by member_of). */
function goDispatchFrom(store: IndexStore, symbols: SymbolCache, caller: SymbolRow, calls: readonly ResolvedCall[]): FoundDispatch[] {
  return implicitDispatchFrom(GoInterfaces.of(store), symbols, caller, calls);
}

/**
 * The bases outside the codebase (names as written, in lookup order) of the class of `method`
 * and of the codebase classes above it: if the method overrides one of their methods, their code
 * calls it where no edge shows (`get_queryset` in a subclass of Django's `ListView`, `run` of a
 * `Runnable`). Python's `object` is left out: what it defines is called implicitly anyway.
 */
export function outsideBasesOf(store: IndexStore, symbols: SymbolCache, method: SymbolRow): readonly string[] {
  if (method.kind !== 'method') return NO_NAMES;
  const cls = classOfMethod(store, symbols, method);
  if (!cls) return NO_NAMES;
  const known = outsideBasesByClass(store);
  let names = known.get(cls.id);
  if (names === undefined) known.set(cls.id, (names = outsideBasesOfClass(store, cls.id)));
  return names;
}

/** Each class's bases outside the codebase, as found, kept while the store is unchanged (an inbound trace asks for every method of its path). */
const outsideBasesByClass = perStore(() => new Map<number, readonly string[]>());

function outsideBasesOfClass(store: IndexStore, classId: number): readonly string[] {
  const classes = BaseIndex.of(store)
    .lookupOrder(classId)
    .filter((id) => id >= 0);
  if (!classes.includes(classId)) classes.unshift(classId);
  const rows = store.rows(
    `SELECT e.from_id, ${NAME_OF_EDGE} FROM edges e WHERE e.from_id IN (${classes.map(() => '?').join(', ')}) AND e.kind IN (${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}) AND e.to_id IS NULL ORDER BY e.id`,
    classes,
  );
  const names: string[] = [];
  for (const id of classes) {
    for (const [from, name] of rows) if (Number(from) === id && String(name) !== 'object' && !names.includes(String(name))) names.push(String(name));
  }
  return names.length === 0 ? NO_NAMES : names;
}

const NO_NAMES: readonly string[] = Object.freeze([]);
