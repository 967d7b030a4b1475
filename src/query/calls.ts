import type { SqlValue } from 'sql.js';
import type { IndexStore } from '../db/store.js';
import type { SymbolRef } from '../db/entries.js';
import { EDGE_KIND_CODES, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { CKGError } from '../errors.js';
import { dispatchFrom, dispatchInto, outsideBasesOf, sampled, type FoundDispatch, type ResolvedCall } from './dispatch.js';
import { BaseIndex } from './class-graph.js';
import { resolutionOf } from './edges.js';
import { implicitlyCalled } from './implicit-calls.js';
import { isExported } from './exported.js';
import { SymbolCache, refOf, type SymbolRow } from './symbols.js';
import { byLocation, bySymbolLocation, constructorsOf, decoratorsOf, NO_DECORATORS, NO_VALUE_USES, symbolsOf, unresolvedCallsOf, UNRESOLVED_SAMPLE, valueUsesOf } from './targets.js';
import type { CallEntry, CallGroup, CallsAnswer, CallsOptions, Decorators, DispatchCalls, PathAnswer, PathHop, SymbolTarget, TraceOptions, ValueUses } from './types.js';

/** The deepest a callers/callees or trace answer goes. */
export const MAX_DEPTH = 10;

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new CKGError('INVALID_ARGUMENT', `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

interface RawCall {
  readonly fromId: number;
  readonly toId: number | null;
  readonly name: string;
  readonly line: number;
  readonly resolution: number;
  readonly site: string | null;
}

function toRawCall([f, t, n, l, r, site]: SqlValue[]): RawCall {
  return { fromId: Number(f), toId: t === null ? null : Number(t), name: String(n), line: Number(l), resolution: Number(r), site: typeof site === 'string' ? site : null };
}

function callsInto(store: IndexStore, id: number): RawCall[] {
  return store
    .rows(`SELECT e.from_id, e.to_id, ${NAME_OF_EDGE}, e.line, e.resolution, e.site FROM edges e WHERE e.to_id = ? AND e.kind = ${EDGE_KIND_CODES.calls}`, [id])
    .map(toRawCall);
}

function callsFrom(store: IndexStore, id: number): RawCall[] {
  return store
    .rows(`SELECT e.from_id, e.to_id, ${NAME_OF_EDGE}, e.line, e.resolution, e.site FROM edges e WHERE e.from_id = ? AND e.kind = ${EDGE_KIND_CODES.calls}`, [id])
    .map(toRawCall);
}

/** The ids whose incoming calls are calls of `symbol`: itself, and for a class its constructors. */
function calleeIds(store: IndexStore, symbols: SymbolCache, symbol: SymbolRow): number[] {
  return [symbol.id, ...constructorsOf(store, symbols, symbol).map((c) => c.id)];
}

/** A symbol's qualified name without its module's (the module's own name for a module). */
export function localName(symbols: SymbolCache, symbol: SymbolRow): string {
  let module: SymbolRow | undefined = symbol;
  for (let guard = 0; module && module.kind !== 'module' && guard < 64; guard++) module = module.parentId === null ? undefined : symbols.get(module.parentId);
  if (!module || module === symbol) return symbol.qualifiedName;
  const prefix = module.qualifiedName;
  const q = symbol.qualifiedName;
  return q.startsWith(prefix) && q.length > prefix.length ? q.slice(prefix.length).replace(/^(::|[./\\#])/, '') : q;
}

function compareCalls(a: CallEntry, b: CallEntry): number {
  return a.depth - b.depth || byLocation(a, b) || a.name.localeCompare(b.name);
}

/**
 * Callers (direction `in`) or callees (`out`) of every definition a target names, breadth first
 * to `depth`, paged over all groups.
 */
export function calls(store: IndexStore, target: SymbolTarget, direction: 'in' | 'out', options: CallsOptions = {}): CallsAnswer {
  if (options === null || typeof options !== 'object') throw new CKGError('INVALID_ARGUMENT', 'options must be an object');
  const depth = integer('depth', options.depth, 1, 1, MAX_DEPTH);
  const offset = integer('offset', options.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = integer('limit', options.limit, Number.MAX_SAFE_INTEGER, 1, Number.MAX_SAFE_INTEGER);
  const symbols = new SymbolCache(store);
  const roots = symbolsOf(store, target).filter((s) => direction === 'out' || s.kind !== 'module');
  const groups: { symbol: SymbolRow; calls: CallEntry[]; unresolved: CallGroup['unresolved']; dispatch: DispatchCalls; valueUses: ValueUses; decorators: Decorators }[] = [];
  for (const root of roots) {
    const entries: CallEntry[] = [];
    const seen = new Set<number>([root.id]);
    let frontier = direction === 'in' ? calleeIds(store, symbols, root) : [root.id];
    for (const id of frontier) seen.add(id);
    // Callees: the root's own resolved calls, for the overrides they may run.
    const ownCalls: ResolvedCall[] = [];
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: number[] = [];
      for (const id of frontier) {
        for (const c of direction === 'in' ? callsInto(store, id) : callsFrom(store, id)) {
          if (direction === 'out' && level === 1 && c.toId !== null) ownCalls.push({ ...c, toId: c.toId });
          const other = direction === 'in' ? c.fromId : c.toId;
          const symbol = other === null ? undefined : symbols.get(other);
          const site = symbols.get(c.fromId);
          if (!site) continue;
          entries.push({
            filePath: site.filePath,
            line: c.line,
            symbol: symbol ? refOf(symbol) : null,
            ...(symbol ? { local: localName(symbols, symbol) } : {}),
            name: c.name,
            ...resolutionOf(c.resolution),
            depth: level,
          });
          if (other !== null && !seen.has(other)) {
            seen.add(other);
            next.push(other);
          }
        }
      }
      frontier = next;
    }
    entries.sort(compareCalls);
    // Callers the graph may have missed: unresolved calls that carry the definition's name (for a
    // class, its own and its constructors' names).
    let unresolved: CallGroup['unresolved'];
    let dispatch: DispatchCalls;
    let valueUses = NO_VALUE_USES;
    let decorators = NO_DECORATORS;
    if (direction === 'in') {
      unresolved = unresolvedCallsOf(store, [root]);
      dispatch = sampled(symbols, dispatchInto(store, symbols, root));
      valueUses = valueUsesOf(store, symbols, [root]);
      decorators = decoratorsOf(store, symbols, [root]);
    } else {
      const open = entries.filter((c) => c.symbol === null);
      unresolved = { count: open.length, sample: open.slice(0, UNRESOLVED_SAMPLE).map((c) => ({ filePath: c.filePath, line: c.line })) };
      dispatch = sampled(symbols, dispatchFrom(store, symbols, root, ownCalls));
    }
    groups.push({ symbol: root, calls: entries, unresolved, dispatch, valueUses, decorators });
  }
  const total = groups.reduce((n, g) => n + g.calls.length, 0);
  // One page over all groups, in group order.
  let skip = offset;
  let room = limit;
  const paged: CallGroup[] = groups.map((g) => {
    const from = Math.min(skip, g.calls.length);
    skip -= from;
    const shown = g.calls.slice(from, from + room);
    room -= shown.length;
    const implicit = direction === 'in' && implicitlyCalled(g.symbol);
    const outsideBases = direction === 'in' ? outsideBasesOf(store, symbols, g.symbol) : [];
    const subclasses = direction === 'in' && g.symbol.kind === 'class' ? BaseIndex.of(store).below(g.symbol.id).size : 0;
    const exported = direction === 'in' && isExported(store, symbols, g.symbol);
    return { symbol: refOf(g.symbol), calls: shown, total: g.calls.length, unresolved: g.unresolved, dispatch: g.dispatch, valueUses: g.valueUses, decorators: g.decorators, implicit, outsideBases, subclasses, exported };
  });
  const shownAll = offset === 0 && limit >= total;
  const complete =
    shownAll && paged.every((g) => g.unresolved.count === 0 && g.dispatch.count === 0 && g.valueUses.count === 0 && g.decorators.count === 0 && !g.implicit && g.outsideBases.length === 0);
  return { groups: paged, complete, total, offset };
}

/** Breadth-first call paths from (outbound) or to (inbound) every definition a target names; each symbol expanded once. */
export function tracePath(store: IndexStore, target: SymbolTarget, options: TraceOptions = {}): PathAnswer {
  if (options === null || typeof options !== 'object') throw new CKGError('INVALID_ARGUMENT', 'options must be an object');
  const direction = options.direction ?? 'outbound';
  if (direction !== 'inbound' && direction !== 'outbound') throw new CKGError('INVALID_ARGUMENT', `direction must be 'inbound' or 'outbound', got ${JSON.stringify(direction)}`);
  const depth = integer('depth', options.depth, 3, 1, MAX_DEPTH);
  const symbols = new SymbolCache(store);
  const roots = symbolsOf(store, target);
  const hops: PathHop[] = [];
  const dispatched: FoundDispatch[] = [];
  const expanded = new Set<number>();
  const onPath = new Map<number, SymbolRow>();
  let frontier: SymbolRow[] = [];
  for (const r of roots) {
    onPath.set(r.id, r);
    frontier.push(r);
  }
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: SymbolRow[] = [];
    const levelHops: PathHop[] = [];
    for (const symbol of frontier) {
      if (expanded.has(symbol.id)) continue;
      expanded.add(symbol.id);
      const ids = direction === 'inbound' ? calleeIds(store, symbols, symbol) : [symbol.id];
      const ownCalls: ResolvedCall[] = [];
      for (const id of ids) {
        for (const c of direction === 'inbound' ? callsInto(store, id) : callsFrom(store, id)) {
          if (direction === 'outbound' && c.toId !== null) ownCalls.push({ ...c, toId: c.toId });
          const from = symbols.get(c.fromId);
          if (!from) continue;
          const to = c.toId === null ? undefined : symbols.get(c.toId);
          // A builtin is not part of the codebase's paths (callees lists it; a path would only grow).
          if (c.toId === null && c.resolution === RESOLUTION_CODES.builtin) continue;
          levelHops.push({ from: refOf(from), to: to ? refOf(to) : null, name: c.name, filePath: from.filePath, line: c.line, depth: level });
          const other = direction === 'inbound' ? from : to;
          if (other && !onPath.has(other.id)) {
            onPath.set(other.id, other);
            next.push(other);
          }
        }
      }
      dispatched.push(...(direction === 'inbound' ? dispatchInto(store, symbols, symbol) : dispatchFrom(store, symbols, symbol, ownCalls)));
    }
    levelHops.sort((a, b) => byLocation(a, b) || a.name.localeCompare(b.name));
    hops.push(...levelHops);
    frontier = next;
  }
  let unresolved: PathAnswer['unresolved'] = { count: 0, sample: [] };
  let valueUses = NO_VALUE_USES;
  let decorators = NO_DECORATORS;
  let implicit: SymbolRef[] = [];
  let overridable: SymbolRef[] = [];
  if (direction === 'inbound') {
    const definitions = [...onPath.values()].filter((s) => s.kind !== 'module');
    unresolved = unresolvedCallsOf(store, definitions);
    valueUses = valueUsesOf(store, symbols, definitions);
    decorators = decoratorsOf(store, symbols, definitions);
    implicit = definitions.filter(implicitlyCalled).sort(bySymbolLocation).map(refOf);
    overridable = definitions
      .filter((d) => outsideBasesOf(store, symbols, d).length > 0)
      .sort(bySymbolLocation)
      .map(refOf);
  }
  const unresolvedCallees = direction === 'outbound' && hops.some((h) => h.to === null);
  // A call whose caller (inbound) or override (outbound) is on the path already misses no symbol.
  // One call found for two methods of the path is one call.
  const distinct = new Map<string, FoundDispatch>();
  for (const d of dispatched) if (!onPath.has(d.symbolId)) distinct.set(`${d.symbolId} ${d.filePath}:${d.line} ${d.viaId}`, d);
  const dispatch = sampled(symbols, [...distinct.values()]);
  return {
    roots: roots.map(refOf),
    direction,
    depth,
    hops,
    unresolved,
    dispatch,
    valueUses,
    decorators,
    implicit,
    overridable,
    complete: unresolved.count === 0 && !unresolvedCallees && dispatch.count === 0 && valueUses.count === 0 && decorators.count === 0 && implicit.length === 0 && overridable.length === 0,
  };
}
