import type { IndexStore, StaleBodyPolicy } from '../db/store.js';
import { compareCodePoints } from '../db/store.js';
import { EDGE_KIND_CODES } from '../db/schema.js';
import type { SymbolKind } from '../db/entries.js';
import { CKGError } from '../errors.js';
import { pathMatcher } from '../search/glob.js';
import { perStore } from './per-store.js';
import { signaturesOf } from './signature.js';
import type { SearchSymbolsOptions, SymbolMatch, SymbolSearchAnswer } from './types.js';

// Ranked symbol search for agents that do not know the exact name. Tiers, best first: the exact
// name, the same name in another case, a prefix, a whole word of the split name (camelCase,
// snake_case, kebab-case, digits), a substring, then a near miss (one or two typos, by
// optimal-string-alignment distance, so a swapped pair of letters is one typo). A query with a
// separator (`django.db.models.`, `Catalog.add`) matches qualified names instead. `+term` must
// appear and `-term` must not (in the name or the qualified name, any case); `/regex/` matches
// names (linear-time engine: patterns come from agents). Ties break by how often the symbol is
// called, then by path and line.

const TIER_NAMES = ['exact', 'nocase', 'prefix', 'word', 'substring', 'fuzzy'] as const;
const KINDS: readonly SymbolKind[] = ['function', 'method', 'class', 'module'];
const SEPARATOR = /[.:/\\#]/;

/** The words of a name: `parseHTTPConfig2` → parse, http, config, 2; `load_json-v2` → load, json, v, 2. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .replace(/(\d)([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z\d]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** Rows of the distance table, reused between calls: a search compares thousands of names. */
let distanceRows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)] as const;

/** Optimal-string-alignment distance, or `max + 1` as soon as it must exceed `max`. */
export function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (distanceRows[0].length < n + 1) distanceRows = [new Int32Array(2 * n + 2), new Int32Array(2 * n + 2), new Int32Array(2 * n + 2)];
  let [prev2, prev, cur] = distanceRows;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/**
 * Names within a few typos of one term. Before the distance table, a bound that costs one pass:
 * each typo leaves at most two characters without a partner in the other string (a substitution
 * two, an insertion or deletion one, a swap none), so more than `2 × max` unpartnered
 * characters rule a name out. Characters are counted in 128 buckets (code & 127): merging can
 * only partner more, so the bound stays a lower bound.
 */
export class NearMiss {
  readonly #term: string;
  readonly #max: number;
  readonly #counts = new Int32Array(128);

  constructor(term: string, max: number) {
    this.#term = term;
    this.#max = max;
    for (let i = 0; i < term.length; i++) this.#counts[term.charCodeAt(i) & 127]!++;
  }

  /** Whether `candidate` is within `max` typos of the term. */
  matches(candidate: string): boolean {
    const term = this.#term;
    const max = this.#max;
    if (Math.abs(candidate.length - term.length) > max) return false;
    const counts = this.#counts;
    let unpartnered = 0;
    for (let i = 0; i < candidate.length; i++) if (counts[candidate.charCodeAt(i) & 127]!-- <= 0) unpartnered++;
    for (let i = 0; i < candidate.length; i++) counts[candidate.charCodeAt(i) & 127]!++;
    // Term characters left without a partner: its length less the candidate's partnered ones.
    unpartnered += term.length - (candidate.length - unpartnered);
    return unpartnered <= 2 * max && typoDistance(candidate, term, max) <= max;
  }
}

interface IndexedName {
  readonly name: string;
  readonly lower: string;
  readonly words: readonly string[];
  readonly ids: number[];
}

interface IndexedSymbol {
  readonly id: number;
  readonly kind: SymbolKind;
  readonly name: string;
  readonly qualifiedName: string;
  readonly qualifiedLower: string;
  readonly fileId: number;
  readonly startLine: number;
  readonly endLine: number;
}

/** Every symbol with its name's words and its call count, read once per index generation. */
class SearchIndex {
  readonly names: IndexedName[] = [];
  readonly symbols = new Map<number, IndexedSymbol>();
  readonly files = new Map<number, { readonly path: string; readonly language: string }>();
  readonly calls = new Map<number, number>();

  constructor(store: IndexStore) {
    for (const [id, path, language] of store.rows('SELECT id, path, language FROM files')) this.files.set(Number(id), { path: String(path), language: String(language) });
    const byName = new Map<string, IndexedName>();
    for (const [id, kind, name, qname, fileId, start, end] of store.rows('SELECT id, kind, name, qualified_name, file_id, start_line, end_line FROM symbols ORDER BY id')) {
      const n = String(name);
      const q = String(qname);
      this.symbols.set(Number(id), {
        id: Number(id),
        kind: String(kind) as SymbolKind,
        name: n,
        qualifiedName: q,
        qualifiedLower: q.toLowerCase(),
        fileId: Number(fileId),
        startLine: Number(start),
        endLine: Number(end),
      });
      let entry = byName.get(n);
      if (!entry) {
        entry = { name: n, lower: n.toLowerCase(), words: nameWords(n), ids: [] };
        byName.set(n, entry);
        this.names.push(entry);
      }
      entry.ids.push(Number(id));
    }
    for (const [id, count] of store.rows(`SELECT to_id, count(*) FROM edges WHERE kind = ${EDGE_KIND_CODES.calls} AND to_id IS NOT NULL GROUP BY to_id`)) {
      this.calls.set(Number(id), Number(count));
    }
  }
}

const indexOf = perStore((store) => new SearchIndex(store));

interface ParsedQuery {
  readonly main: string | undefined;
  readonly required: readonly string[];
  readonly excluded: readonly string[];
  readonly regex: { test(name: string): boolean } | undefined;
}

async function parseQuery(query: string): Promise<ParsedQuery> {
  const required: string[] = [];
  const excluded: string[] = [];
  const plain: string[] = [];
  let regex: ParsedQuery['regex'];
  for (const token of query.trim().split(/\s+/).filter(Boolean)) {
    const re = /^\/(.+)\/([i]*)$/.exec(token);
    if (re) {
      const { RE2JS } = await import('re2js');
      try {
        const compiled = RE2JS.compile(re[1]!, re[2] === 'i' ? RE2JS.CASE_INSENSITIVE : 0);
        regex = { test: (name) => compiled.matcher(name).find() };
      } catch (error) {
        throw new CKGError('INVALID_ARGUMENT', `Bad regular expression ${token}: ${error instanceof Error ? error.message : String(error)}`);
      }
    } else if (token.startsWith('+') && token.length > 1) required.push(token.slice(1).toLowerCase());
    else if (token.startsWith('-') && token.length > 1) excluded.push(token.slice(1).toLowerCase());
    else plain.push(token);
  }
  // Extra plain words must appear too; the first one ranks.
  for (const p of plain.slice(1)) required.push(p.toLowerCase());
  return { main: plain[0] ?? (required.length > 0 && regex === undefined ? required[0] : undefined), required, excluded, regex };
}

/**
 * The near misses a term allows: one typo in a term of 4-7 letters, two from 8; none for
 * shorter terms, which have too many neighbours.
 */
function nearMissOf(lower: string): NearMiss | undefined {
  return lower.length >= 4 ? new NearMiss(lower, lower.length >= 8 ? 2 : 1) : undefined;
}

/** The tier of a name for a plain (unqualified) term, or -1. */
function nameTier(entry: IndexedName, term: string, lower: string, termWords: readonly string[], nearMiss: NearMiss | undefined): number {
  if (entry.name === term) return 0;
  if (entry.lower === lower) return 1;
  if (entry.lower.startsWith(lower)) return 2;
  if (termWords.length > 0 && containsRun(entry.words, termWords)) return 3;
  if (entry.lower.includes(lower)) return 4;
  if (nearMiss) {
    if (nearMiss.matches(entry.lower)) return 5;
    for (const w of entry.words) if (w.length >= 4 && nearMiss.matches(w)) return 5;
  }
  return -1;
}

/** Whether `words` holds `run` as consecutive words (`parse config` in parse_json_config: no; in load_parse_config: yes). */
function containsRun(words: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= words.length; i++) {
    let k = 0;
    while (k < run.length && words[i + k] === run[k]) k++;
    if (k === run.length) return true;
  }
  return false;
}

/** The tier of a qualified name for a term holding a separator, or -1. */
function qualifiedTier(s: IndexedSymbol, lower: string): number {
  const q = s.qualifiedLower;
  if (q === lower) return 0;
  if (q.endsWith(lower) && SEPARATOR.test(q.charAt(q.length - lower.length - 1))) return 1;
  if (q.startsWith(lower)) return 2;
  if (q.includes(lower)) return 4;
  return -1;
}

/** Ranked search over every symbol's name (see the rules at the top of this file). */
export async function searchSymbols(store: IndexStore, root: string, query: string, options: SearchSymbolsOptions = {}, onStale: StaleBodyPolicy = 'marker'): Promise<SymbolSearchAnswer> {
  if (typeof query !== 'string' || query.trim() === '') throw new CKGError('INVALID_ARGUMENT', 'query must be a non-empty string');
  if (options === null || typeof options !== 'object') throw new CKGError('INVALID_ARGUMENT', 'options must be an object');
  const limit = options.limit ?? 20;
  const offset = options.offset ?? 0;
  for (const [name, v, min] of [['limit', limit, 1], ['offset', offset, 0]] as const) {
    if (!Number.isInteger(v) || v < min) throw new CKGError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  }
  if (options.kind !== undefined && !KINDS.includes(options.kind)) throw new CKGError('INVALID_ARGUMENT', `kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(options.kind)}`);
  const inPath = options.path === undefined ? undefined : pathMatcher(options.path, root, 'path');
  const parsed = await parseQuery(query);
  const index = indexOf(store);
  const prefix = root === '/' ? '/' : `${root}/`;
  const qualified = parsed.main !== undefined && SEPARATOR.test(parsed.main);
  const accept = (s: IndexedSymbol): boolean => {
    if (options.kind !== undefined && s.kind !== options.kind) return false;
    // Modules (named by their full dotted names) only when asked for, or for qualified queries.
    if (options.kind === undefined && s.kind === 'module' && !qualified) return false;
    const file = index.files.get(s.fileId);
    if (!file) return false;
    if (options.language !== undefined && file.language !== options.language) return false;
    if (inPath && !inPath(file.path.startsWith(prefix) ? file.path.slice(prefix.length) : file.path)) return false;
    for (const r of parsed.required) if (!s.name.toLowerCase().includes(r) && !s.qualifiedLower.includes(r)) return false;
    for (const x of parsed.excluded) if (s.name.toLowerCase().includes(x) || s.qualifiedLower.includes(x)) return false;
    return true;
  };
  const hits: { s: IndexedSymbol; tier: number; match: string }[] = [];
  const main = parsed.main;
  if (main !== undefined && SEPARATOR.test(main)) {
    const lower = main.toLowerCase();
    for (const s of index.symbols.values()) {
      const tier = qualifiedTier(s, lower);
      if (tier >= 0 && (!parsed.regex || parsed.regex.test(s.name)) && accept(s)) hits.push({ s, tier, match: tier === 2 ? 'qualified' : TIER_NAMES[tier]! });
    }
  } else {
    const lower = main?.toLowerCase();
    const termWords = main === undefined ? [] : nameWords(main);
    const nearMiss = lower === undefined ? undefined : nearMissOf(lower);
    for (const entry of index.names) {
      const tier = main === undefined ? 0 : nameTier(entry, main, lower!, termWords, nearMiss);
      if (tier < 0) continue;
      if (parsed.regex && !parsed.regex.test(entry.name)) continue;
      for (const id of entry.ids) {
        const s = index.symbols.get(id)!;
        if (accept(s)) hits.push({ s, tier, match: main === undefined ? 'regex' : TIER_NAMES[tier]! });
      }
    }
  }
  const pathOf = (s: IndexedSymbol): string => index.files.get(s.fileId)!.path;
  hits.sort(
    (a, b) =>
      a.tier - b.tier ||
      (index.calls.get(b.s.id) ?? 0) - (index.calls.get(a.s.id) ?? 0) ||
      compareCodePoints(pathOf(a.s), pathOf(b.s)) ||
      a.s.startLine - b.s.startLine ||
      a.s.id - b.s.id,
  );
  const page = hits.slice(offset, offset + limit);
  const signatures = await signaturesOf(store, page.map((h) => h.s.id), onStale);
  const results: SymbolMatch[] = page.map((h, i) => {
    const file = index.files.get(h.s.fileId)!;
    return {
      symbol: { kind: h.s.kind, name: h.s.name, qualifiedName: h.s.qualifiedName, language: file.language, filePath: file.path, startLine: h.s.startLine, endLine: h.s.endLine },
      signature: signatures[i]!,
      match: h.match,
      calls: index.calls.get(h.s.id) ?? 0,
    };
  });
  return { results, total: hits.length, offset };
}
