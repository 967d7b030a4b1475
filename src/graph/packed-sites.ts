import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import type { ExtractedGraph, FixedReason, SiteFact } from './facts.js';
import { decodeSite, encodeSite } from './site.js';

// A file's sites as columns: what the indexer needs of them (an edge row each), made once by the
// thread that parses the file. Django's 50,000 sites were 50,000 objects copied by the
// collector, written out as 4.7 MB of JSON by the parse workers, read back into objects by the
// thread that writes the database and turned into edge rows there; as columns they cross
// threads as a few typed arrays and two lists of strings. `ExtractedGraph.sites` stays what it
// says: a graph made here reads its `SiteFact` objects back from the columns when asked.

/**
 * One file's sites, by column, in the order reported: `kinds` (EDGE_KIND_CODES), `callers` (the
 * enclosing definition's index, -1 for the module), `lines`, `resolutions` (RESOLUTION_CODES:
 * `pending`, or the cause of a site the file alone shows unresolvable), `names` (as written),
 * `shapes` (the site's receiver and flags, {@link encodeSite}; a fixed site's too, so that the
 * facts read back are the ones reported).
 */
export interface PackedSites {
  readonly kinds: Uint8Array;
  readonly callers: Int32Array;
  readonly lines: Int32Array;
  readonly resolutions: Uint8Array;
  readonly names: readonly string[];
  readonly shapes: readonly (string | null)[];
}

const KIND_CODES: Readonly<Record<SiteFact['kind'], number>> = {
  call: EDGE_KIND_CODES.calls,
  reference: EDGE_KIND_CODES.references,
  inherits: EDGE_KIND_CODES.inherits,
  implements: EDGE_KIND_CODES.implements,
  import: EDGE_KIND_CODES.imports,
};
const SITE_KINDS = new Map<number, SiteFact['kind']>(Object.entries(KIND_CODES).map(([k, code]) => [code, k as SiteFact['kind']]));
/** Every fixed reason (the compiler checks the list is whole). */
const FIXED_REASONS = { parameter: true, 'local-variable': true, dynamic: true, builtin: true } satisfies Record<FixedReason, true>;
const FIXED = new Map<number, FixedReason>((Object.keys(FIXED_REASONS) as FixedReason[]).map((f) => [RESOLUTION_CODES[f], f]));

/**
 * Sites added one at a time, then packed ({@link SiteColumns.pack}) once their callers are known.
 *
 * @example
 * ```ts
 * const columns = new SiteColumns();
 * columns.add({ kind: 'call', name: 'helper' }, 12);
 * const packed = columns.pack(new Int32Array([-1])); // called at module level
 * ```
 */
export class SiteColumns {
  readonly #kinds: number[] = [];
  readonly #lines: number[] = [];
  readonly #resolutions: number[] = [];
  readonly #names: string[] = [];
  readonly #shapes: (string | null)[] = [];

  get length(): number {
    return this.#names.length;
  }

  /** Adds a site as reported (its fact is read here, never kept). */
  add(fact: Omit<SiteFact, 'line' | 'caller'>, line: number): void {
    this.#kinds.push(KIND_CODES[fact.kind]);
    this.#lines.push(line);
    this.#resolutions.push(fact.fixed === undefined ? RESOLUTION_CODES.pending : RESOLUTION_CODES[fact.fixed]);
    this.#names.push(fact.name);
    this.#shapes.push(encodeSite(fact));
  }

  /** The columns, `callers` giving each site's enclosing definition in the order added. */
  pack(callers: Int32Array): PackedSites {
    return {
      kinds: Uint8Array.from(this.#kinds),
      callers,
      lines: Int32Array.from(this.#lines),
      resolutions: Uint8Array.from(this.#resolutions),
      names: this.#names,
      shapes: this.#shapes,
    };
  }
}

/** Packs sites given as facts (a graph made elsewhere: a custom processor's). */
export function packFacts(sites: readonly SiteFact[]): PackedSites {
  const columns = new SiteColumns();
  const callers = new Int32Array(sites.length);
  sites.forEach((site, i) => {
    columns.add(site, site.line);
    callers[i] = site.caller;
  });
  return columns.pack(callers);
}

/** The fact of site `i`, as reported (with the line and caller placed). */
export function unpackSite(packed: PackedSites, i: number): SiteFact {
  const shape = decodeSite(packed.shapes[i] ?? null);
  const fixed = FIXED.get(packed.resolutions[i]!);
  const kind = SITE_KINDS.get(packed.kinds[i]!)!;
  return {
    kind,
    name: packed.names[i]!,
    line: packed.lines[i]!,
    caller: packed.callers[i]!,
    ...(shape.receiver !== undefined ? { receiver: shape.receiver } : {}),
    ...(shape.construct ? { construct: true } : {}),
    ...(shape.superConstructor ? { superConstructor: true } : {}),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(shape.moduleScope === true ? { moduleScope: true } : {}),
    ...(shape.classBody === true ? { classBody: true } : {}),
    ...(shape.dotted === true ? { dotted: true } : {}),
    ...(shape.dynamicImport === true ? { dynamicImport: true } : {}),
    ...(shape.arity !== undefined ? { arity: shape.arity } : {}),
    ...(shape.writtenKind !== undefined ? { kindFromTarget: true } : {}),
  };
}

/** Where a graph made by {@link packedGraph} keeps its columns. */
const PACKED = Symbol('ckg.packedSites');

/**
 * A graph whose sites are `packed`: its `sites` are read back from the columns on first access
 * (the indexer never asks: {@link packedSitesOf} gives it the columns).
 */
export function packedGraph(rest: Omit<ExtractedGraph, 'sites'>, packed: PackedSites): ExtractedGraph {
  let sites: readonly SiteFact[] | undefined;
  const graph = { ...rest } as ExtractedGraph & { [PACKED]?: PackedSites };
  Object.defineProperty(graph, 'sites', {
    enumerable: true,
    get: (): readonly SiteFact[] => (sites ??= Array.from({ length: packed.names.length }, (_, i) => unpackSite(packed, i))),
  });
  Object.defineProperty(graph, PACKED, { value: packed });
  return graph;
}

/** The columns of a graph made by {@link packedGraph}, else undefined. */
export function packedSitesOf(graph: ExtractedGraph): PackedSites | undefined {
  return (graph as { [PACKED]?: PackedSites })[PACKED];
}

/** A graph's sites as columns: its own, or packed from its facts. */
export function sitesAsColumns(graph: ExtractedGraph): PackedSites {
  return packedSitesOf(graph) ?? packFacts(graph.sites);
}

/** The graph without its sites (what crosses threads as JSON beside the columns). */
export function withoutSites(graph: ExtractedGraph): Omit<ExtractedGraph, 'sites'> {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(graph)) if (key !== 'sites') rest[key] = (graph as unknown as Record<string, unknown>)[key];
  return rest as Omit<ExtractedGraph, 'sites'>;
}
