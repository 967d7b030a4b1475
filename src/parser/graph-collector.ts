import type { Node } from 'web-tree-sitter';
import type { BindingFact, DefinitionFlag, ExtractedGraph, ReferenceSink, SiteFact } from '../graph/facts.js';
import { packedGraph, SiteColumns } from '../graph/packed-sites.js';
import type { ExtractedClass, ExtractedFunction } from './extract.js';

interface Pending<T> {
  readonly offset: number;
  readonly fact: T;
}

/** Flags said of a definition by where it starts: never of one around it. */
const SAID_WHERE_IT_STARTS: ReadonlySet<DefinitionFlag> = new Set<DefinitionFlag>(['enclosed', 'private', 'interface', 'partial', 'companion']);

/**
 * Collects a reference visitor's reports, then places them: each site and binding gets its
 * innermost enclosing definition (by offset, so anonymous functions are transparent: their
 * calls belong to the named definition around them), each definition its enclosing one.
 */
export class GraphCollector implements ReferenceSink {
  /** Sites as columns (see PackedSites), and where each sits, for its caller. */
  readonly #sites = new SiteColumns();
  readonly #siteOffsets: number[] = [];
  readonly #bindings: Pending<Omit<BindingFact, 'scope'>>[] = [];
  readonly #flags: Pending<DefinitionFlag>[] = [];
  readonly #signatures: Pending<readonly [number, number | null]>[] = [];
  readonly #namespaces: { readonly start: number; readonly end: number; readonly name: string }[] = [];
  #package: string | undefined;
  /** Offsets where lines start, for a site's line from its offset (cheaper than a node's position). */
  readonly #lineStarts: Int32Array;

  constructor(source: string) {
    let n = 1;
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) n++;
    const starts = new Int32Array(n);
    let k = 1;
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts[k++] = i + 1;
    this.#lineStarts = starts;
  }

  /** The 1-based line of an offset (UTF-16 units, as node offsets are for string input). */
  #lineOf(offset: number): number {
    const starts = this.#lineStarts;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  site(at: Node, fact: Omit<SiteFact, 'line' | 'caller'>, owner?: Node): void {
    if (!fact.name) return;
    this.#siteOffsets.push((owner ?? at).startIndex);
    this.#sites.add(fact, this.#lineOf(at.startIndex));
  }

  binding(at: Node, fact: Omit<BindingFact, 'line' | 'scope'>, owner?: Node): void {
    if (!fact.name) return;
    const offset = at.startIndex;
    const copy = withKeys(fact) as Record<string, unknown>;
    copy.line = this.#lineOf(offset);
    this.#bindings.push({ offset: owner === undefined ? offset : owner.startIndex, fact: copy as Omit<BindingFact, 'scope'> });
  }

  flag(definition: Node, flag: DefinitionFlag): void {
    this.#flags.push({ offset: definition.startIndex, fact: flag });
  }

  signature(definition: Node, min: number, max: number | null): void {
    this.#signatures.push({ offset: definition.startIndex, fact: [min, max] });
  }

  namespace(node: Node, name: string): void {
    if (name) this.#namespaces.push({ start: node.startIndex, end: node.endIndex, name });
  }

  setPackage(name: string): void {
    if (name) this.#package = name;
  }

  /**
   * The graph of a file whose definitions are `functions` then `classes` (see ExtractedGraph).
   * Each step is a function of its own: V8 compiles a hot function with what it calls inlined,
   * and this one, called once per file, cost each parse worker 40 ms of compilation as one body.
   */
  finish(functions: readonly ExtractedFunction[], classes: readonly ExtractedClass[], lineCount: number): ExtractedGraph {
    const spans = definitionSpans(functions, classes);
    const parents = enclosingDefinitions(spans);
    const nSites = this.#siteOffsets.length;
    const nBindings = this.#bindings.length;
    const nFlags = this.#flags.length;
    const placed = placeAll(spans, this.#offsets());
    const arities = this.#signatures.length > 0 ? this.#arities(placed, nSites + nBindings + nFlags) : undefined;
    const namespaces = this.#namespaces.length > 0 ? this.#namespacesOf(spans) : undefined;
    const rest: Omit<ExtractedGraph, 'sites'> = {
      functionParents: parents.slice(0, functions.length),
      classParents: parents.slice(functions.length),
      bindings: this.#placedBindings(placed, nSites),
      flags: this.#placedFlags(placed, nSites + nBindings, spans.starts),
      lineCount,
    };
    if (namespaces !== undefined) (rest as { namespaces?: typeof namespaces }).namespaces = namespaces;
    if (arities !== undefined) (rest as { arities?: typeof arities }).arities = arities;
    if (this.#package !== undefined) (rest as { package?: string }).package = this.#package;
    return packedGraph(rest, this.#sites.pack(placed.slice(0, nSites)));
  }

  /** Every reported offset, in the order `finish` reads them back: sites, bindings, flags, signatures. */
  #offsets(): Int32Array {
    const offsets = new Int32Array(this.#siteOffsets.length + this.#bindings.length + this.#flags.length + this.#signatures.length);
    let k = 0;
    for (const offset of this.#siteOffsets) offsets[k++] = offset;
    for (const p of this.#bindings) offsets[k++] = p.offset;
    for (const p of this.#flags) offsets[k++] = p.offset;
    for (const p of this.#signatures) offsets[k++] = p.offset;
    return offsets;
  }

  #placedBindings(placed: Int32Array, from: number): BindingFact[] {
    const out: BindingFact[] = [];
    for (let i = 0; i < this.#bindings.length; i++) {
      const binding = withKeys(this.#bindings[i]!.fact) as Record<string, unknown>;
      binding.scope = placed[from + i]!;
      out.push(binding as unknown as BindingFact);
    }
    return out;
  }

  #placedFlags(placed: Int32Array, from: number, starts: Int32Array): Record<number, DefinitionFlag[]> {
    const flags: Record<number, DefinitionFlag[]> = {};
    for (let i = 0; i < this.#flags.length; i++) {
      const { offset, fact } = this.#flags[i]!;
      const def = placed[from + i]!;
      if (def < 0) continue;
      if (SAID_WHERE_IT_STARTS.has(fact) && starts[def] !== offset) continue;
      const list = (flags[def] ??= []);
      if (!list.includes(fact)) list.push(fact);
    }
    return flags;
  }

  #arities(placed: Int32Array, from: number): Record<number, readonly [number, number | null]> | undefined {
    let arities: Record<number, readonly [number, number | null]> | undefined;
    for (let i = 0; i < this.#signatures.length; i++) {
      const def = placed[from + i]!;
      if (def >= 0) (arities ??= {})[def] = this.#signatures[i]!.fact;
    }
    return arities;
  }

  #namespacesOf(spans: DefinitionSpans): Record<number, string[]> {
    const namespaces: Record<number, string[]> = {};
    for (let i = 0; i < spans.starts.length; i++) {
      const start = spans.starts[i]!;
      const end = spans.ends[i]!;
      const names = this.#namespaces
        .filter((n) => n.start <= start && end <= n.end)
        .sort((a, b) => a.start - b.start || b.end - a.end)
        .map((n) => n.name);
      if (names.length > 0) namespaces[i] = names;
    }
    return namespaces;
  }
}

/**
 * Where each definition's body starts and ends, and the definition indexes by start (outer
 * first when two start together). Typed arrays: one element kind whatever the file, so V8
 * compiles the sweeps over them once (arrays of objects and numbers made them deoptimise file
 * after file).
 */
interface DefinitionSpans {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly order: Int32Array;
}

function definitionSpans(functions: readonly ExtractedFunction[], classes: readonly ExtractedClass[]): DefinitionSpans {
  const nf = functions.length;
  const total = nf + classes.length;
  const starts = new Int32Array(total);
  const ends = new Int32Array(total);
  for (let i = 0; i < nf; i++) {
    starts[i] = functions[i]!.bodyStart;
    ends[i] = functions[i]!.bodyEnd;
  }
  for (let i = nf; i < total; i++) {
    starts[i] = classes[i - nf]!.bodyStart;
    ends[i] = classes[i - nf]!.bodyEnd;
  }
  const order = new Int32Array(total);
  for (let i = 0; i < total; i++) order[i] = i;
  order.sort((a, b) => starts[a]! - starts[b]! || ends[b]! - ends[a]! || a - b);
  return { starts, ends, order };
}

/** Each definition's enclosing definition (-1: at module level), by one sweep in start order. */
function enclosingDefinitions({ starts, ends, order }: DefinitionSpans): number[] {
  const parents = new Array<number>(starts.length).fill(-1);
  const open: number[] = [];
  for (const i of order) {
    while (open.length > 0 && ends[open[open.length - 1]!]! <= starts[i]!) open.pop();
    // A definition that does not fit inside the open one (overlapping ranges) is not nested in it.
    while (open.length > 0 && ends[open[open.length - 1]!]! < ends[i]!) open.pop();
    parents[i] = open.length > 0 ? open[open.length - 1]! : -1;
    open.push(i);
  }
  return parents;
}

/**
 * A copy of a visitor's fact, as `{ ...fact }` makes it (its own keys in order, then what the
 * caller adds). Object.assign, because facts come in many shapes (with or without receiver,
 * fixed, construct…), where V8's object spread takes a slow path: it was the largest cost of
 * placing Django's sites (several times this).
 */
function withKeys<T extends object>(fact: T): T {
  return Object.assign({}, fact);
}

/**
 * The innermost definition holding each offset (-1: none), by one sweep over definitions and
 * offsets in start order with a stack of the open definitions.
 */
function placeAll({ starts, ends, order }: DefinitionSpans, offsets: Int32Array): Int32Array {
  const byOffset = new Int32Array(offsets.length);
  for (let i = 0; i < byOffset.length; i++) byOffset[i] = i;
  byOffset.sort((a, b) => offsets[a]! - offsets[b]!);
  const out = new Int32Array(offsets.length).fill(-1);
  const open: number[] = [];
  let next = 0;
  for (const k of byOffset) {
    const offset = offsets[k]!;
    while (next < order.length && starts[order[next]!]! <= offset) {
      const i = order[next++]!;
      while (open.length > 0 && ends[open[open.length - 1]!]! <= starts[i]!) open.pop();
      open.push(i);
    }
    while (open.length > 0 && ends[open[open.length - 1]!]! <= offset) open.pop();
    // An open range that ends before this one started (overlap) may sit below the top: skip it.
    let top = open.length - 1;
    while (top >= 0 && ends[open[top]!]! <= offset) top--;
    out[k] = top >= 0 ? open[top]! : -1;
  }
  return out;
}
