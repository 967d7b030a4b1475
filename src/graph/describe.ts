import type { ExtractedFile } from '../parser/extract.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import type { DefinitionFlag } from './facts.js';
import { sitesAsColumns, type PackedSites } from './packed-sites.js';
import { FIXED_SITE } from './site.js';
import type { LanguageGraph, NamingContext } from './strategy.js';

/** Symbol kinds as stored in `symbols.kind`. */
export type StoredSymbolKind = 'module' | 'function' | 'method' | 'class';

/** `symbols.flags` bits (8-23 hold argument counts: see {@link encodeArity}). */
export const SYMBOL_FLAGS: Readonly<Record<DefinitionFlag, number>> = {
  exported: 1,
  decorated: 2,
  static: 4,
  entry: 8,
  test: 16,
  singleton: 32,
  'returns-self': 64,
  'member-value': 128,
  enclosed: 1 << 24,
  private: 1 << 25,
  interface: 1 << 26,
  partial: 1 << 27,
  companion: 1 << 28,
};

/**
 * `symbols.flags` bits 8-15 and 16-23: a function's argument count range (see
 * {@link encodeArity}); 0 in both when the language does not say.
 */
const ARITY_SHIFT = 8;
const ARITY_UNBOUNDED = 0xff;

/** Packs `[min, max]` (max null: varargs) into flag bits: each count + 1, so 0 means unknown. */
export function encodeArity(min: number, max: number | null): number {
  const lo = Math.min(min, ARITY_UNBOUNDED - 2) + 1;
  const hi = max === null || max >= ARITY_UNBOUNDED - 1 ? ARITY_UNBOUNDED : max + 1;
  return (lo << ARITY_SHIFT) | (hi << (ARITY_SHIFT + 8));
}

/** Whether a symbol with these flags can take `arity` arguments (true when either is unknown). */
export function admitsArity(flags: number, arity: number | undefined): boolean {
  if (arity === undefined) return true;
  const lo = (flags >> ARITY_SHIFT) & 0xff;
  const hi = (flags >> (ARITY_SHIFT + 8)) & 0xff;
  if (lo === 0) return true;
  return arity >= lo - 1 && (hi === ARITY_UNBOUNDED || arity <= hi - 1);
}

/**
 * Whether a symbol takes `arity` arguments only through its variadic parameter (`log(String,
 * Object...)` called with 3): false when it is not variadic, takes that many as declared, or
 * either count is unknown.
 */
export function onlyVariadicTakes(flags: number, arity: number | undefined): boolean {
  if (arity === undefined) return false;
  const lo = (flags >> ARITY_SHIFT) & 0xff;
  const hi = (flags >> (ARITY_SHIFT + 8)) & 0xff;
  // `lo - 1` fixed parameters and the variadic one: declared with `lo` parameters.
  return lo !== 0 && hi === ARITY_UNBOUNDED && arity !== lo;
}

/** One symbol row of a file, before ids are given (`parent` indexes this file's rows; 0 is the module). */
export interface SymbolRow {
  readonly kind: StoredSymbolKind;
  readonly name: string;
  readonly qualifiedName: string;
  readonly parent: number;
  readonly flags: number;
  /** Index in the extracted file's `functions` (kind function/method) or `classes` (class); -1 for the module. */
  readonly row: number;
}

/** One edge row of a file, before ids are given (`from` indexes the file's symbol rows). */
export interface EdgeRow {
  readonly kind: number;
  readonly from: number;
  readonly toName: string;
  readonly line: number;
  readonly resolution: number;
  readonly site: string | null;
}

/** One binding row (`scope`: a symbol row index, or -1 at module level). */
export interface BindingRow {
  readonly kind: string;
  readonly name: string;
  readonly module: string | null;
  readonly member: string | null;
  readonly line: number;
  readonly scope: number;
}

/** A file's graph rows: its symbols (module first, parents before children), edges, bindings. */
export interface FileGraphRows {
  readonly symbols: readonly SymbolRow[];
  readonly edges: readonly EdgeRow[];
  readonly bindings: readonly BindingRow[];
}

/**
 * The pending (or fixed unresolved) edges of a file's sites, `rowOf` giving each definition's
 * symbol row. A function of its own: the loop runs hot, and V8 compiles the function around a
 * hot loop whole.
 */
function siteEdges(sites: PackedSites, rowOf: readonly number[], edges: EdgeRow[]): void {
  const { kinds, callers, lines, resolutions, names, shapes } = sites;
  for (let i = 0; i < names.length; i++) {
    const resolution = resolutions[i]!;
    const caller = callers[i]!;
    edges.push({
      kind: kinds[i]!,
      from: caller >= 0 ? rowOf[caller]! : 0,
      toName: names[i]!,
      line: lines[i]!,
      resolution,
      site: resolution !== RESOLUTION_CODES.pending ? FIXED_SITE : (shapes[i] ?? null),
    });
  }
}

/**
 * Turns an extracted file into its rows: names every definition (the module's name from the
 * language's rules, then the chain of enclosing definitions and namespaces), numbers them so
 * parents come first, and turns sites into pending edges (or fixed unresolved ones).
 */
export function describeFile(
  relativePath: string,
  file: ExtractedFile,
  strategy: LanguageGraph,
  context: NamingContext,
): FileGraphRows {
  const graph = file.graph;
  const moduleName = strategy.moduleName(relativePath, context, graph?.package);
  const nf = file.functions.length;
  const total = nf + file.classes.length;
  const parents = graph ? [...graph.functionParents, ...graph.classParents] : new Array<number>(total).fill(-1);
  const nameOf = (i: number): string => (i < nf ? file.functions[i]!.name : file.classes[i - nf]!.name);
  const startOf = (i: number): number => (i < nf ? file.functions[i]!.bodyStart : file.classes[i - nf]!.bodyStart);
  const endOf = (i: number): number => (i < nf ? file.functions[i]!.bodyEnd : file.classes[i - nf]!.bodyEnd);
  const isClass = (i: number): boolean => i >= nf;
  // Parents before children: by start, the outer one first.
  const order = Array.from({ length: total }, (_, i) => i).sort((a, b) => startOf(a) - startOf(b) || endOf(b) - endOf(a) || a - b);
  const rowOf = new Array<number>(total).fill(0);
  const chains = new Array<string[]>(total);
  const symbols: SymbolRow[] = [{ kind: 'module', name: moduleName, qualifiedName: moduleName, parent: -1, flags: 0, row: -1 }];
  const edges: EdgeRow[] = [];
  for (const i of order) {
    const parent = parents[i]!;
    const fn = i < nf ? file.functions[i]! : undefined;
    const parentClass = fn?.parentClass ?? null;
    let chain: string[];
    // A method whose class is not its lexical parent (Go, C++ `Shape::rename`, Rust `impl`)
    // is named after its class and joined to it by a member_of edge.
    const lexicalClass = parent >= 0 && isClass(parent) && nameOf(parent) === parentClass;
    if (parentClass !== null && !lexicalClass) {
      chain = [...(graph?.namespaces?.[i] ?? []), parentClass];
    } else {
      chain = parent >= 0 ? [...chains[parent]!, nameOf(parent)] : [...(graph?.namespaces?.[i] ?? [])];
    }
    chains[i] = chain;
    let flags = 0;
    for (const f of graph?.flags[i] ?? []) flags |= SYMBOL_FLAGS[f];
    const arity = graph?.arities?.[i];
    if (arity && !isClass(i)) flags |= encodeArity(arity[0], arity[1]);
    const kind: StoredSymbolKind = isClass(i) ? 'class' : parentClass !== null ? 'method' : 'function';
    rowOf[i] = symbols.length;
    symbols.push({
      kind,
      name: nameOf(i),
      qualifiedName: strategy.qualify(moduleName, [...chain, nameOf(i)]),
      parent: parent >= 0 ? rowOf[parent]! : 0,
      flags,
      row: isClass(i) ? i - nf : i,
    });
    if (parentClass !== null && !lexicalClass && graph !== undefined) {
      edges.push({ kind: EDGE_KIND_CODES.member_of, from: rowOf[i]!, toName: parentClass, line: fn!.startLine, resolution: RESOLUTION_CODES.pending, site: null });
    }
  }
  if (graph) siteEdges(sitesAsColumns(graph), rowOf, edges);
  const bindings: BindingRow[] = (graph?.bindings ?? []).map((b) => ({
    kind: b.kind,
    name: b.name,
    module: b.module ?? null,
    member: b.member ?? null,
    line: b.line,
    scope: b.scope >= 0 ? rowOf[b.scope]! : -1,
  }));
  return { symbols, edges, bindings };
}
