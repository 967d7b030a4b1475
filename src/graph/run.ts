import type { Database, SqlValue, Statement } from 'sql.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import { graphStrategyFor } from './languages/index.js';
import { GraphReader } from './reader.js';
import { Resolver, type Outcome } from './resolver.js';
import { decodeSite, FIXED_SITE } from './site.js';
import type { LanguageGraph } from './strategy.js';
import type { PendingSites } from './pending.js';
import { DepsIndex } from './deps-index.js';

/**
 * What a write session changed, for the resolution pass that ends it (GraphChangeLog): the files
 * it wrote (their edges are pending), definitions that stayed the same under a new id (edges that
 * pointed at them move), removed definitions (edges that pointed at them dangle), and the names
 * whose definitions or bindings changed: a site whose answer looked one up may now resolve
 * differently.
 */
export interface GraphChanges {
  readonly writtenFiles: ReadonlySet<number>;
  readonly removedSymbols: ReadonlySet<number>;
  readonly names: ReadonlySet<string>;
  readonly remap: ReadonlyMap<number, number>;
}

interface SiteRow {
  readonly id: number;
  readonly kind: number;
  readonly fromId: number;
  readonly name: string;
  readonly site: string | null;
  readonly toId: number | null;
  readonly resolution: number;
  readonly deps: string | null;
}

/** A build reads every symbol at once up to this many (about 150 bytes each in memory). */
const PRELOAD_SYMBOLS = 300_000;

const SITE_COLUMNS = 'id, kind, from_id, to_name, site, to_id, resolution, deps';
const STRUCTURE_KINDS: ReadonlySet<number> = new Set([EDGE_KIND_CODES.imports, EDGE_KIND_CODES.inherits, EDGE_KIND_CODES.implements, EDGE_KIND_CODES.member_of]);

function toRow(r: SqlValue[]): SiteRow {
  return {
    id: Number(r[0]),
    kind: Number(r[1]),
    fromId: Number(r[2]),
    name: String(r[3]),
    site: r[4] === null ? null : String(r[4]),
    toId: r[5] === null ? null : Number(r[5]),
    resolution: Number(r[6]),
    deps: r[7] === null ? null : String(r[7]),
  };
}

/** Counts of one resolution pass. */
export interface ResolutionStats {
  /** Sites looked at. */
  readonly sites: number;
  /** Rows whose target, resolution or dependencies changed. */
  readonly updated: number;
}

/**
 * Resolves the sites a write session may have changed, inside its transaction: every pending
 * site (of files it wrote), every site that pointed at a removed symbol, and every site whose
 * last answer depended on a name in `changes.names`. With `changes` = 'all' (a build from
 * nothing) every pending site. Structure edges (imports, bases, members) first, then calls and
 * value uses, which read them.
 */
export function resolveGraph(
  db: Database,
  changes: GraphChanges | { readonly build: PendingSites },
  cache: { deps?: DepsIndex | undefined } = {},
): ResolutionStats {
  const strategies = new Map<string, LanguageGraph>();
  const strategyOf = (language: string): LanguageGraph => {
    let s = strategies.get(language);
    if (!s) strategies.set(language, (s = graphStrategyFor(language)));
    return s;
  };
  const reader = new GraphReader(db);
  const resolver = new Resolver(reader, strategyOf);
  const statements: Statement[] = [];
  const prepare = (sql: string): Statement => {
    const s = db.prepare(sql);
    statements.push(s);
    return s;
  };
  const select = (stmt: Statement, params: SqlValue[], out: Map<number, SiteRow>): void => {
    try {
      stmt.bind(params);
      while (stmt.step()) {
        const row = toRow(stmt.get());
        if (row.site !== FIXED_SITE) out.set(row.id, row);
      }
    } finally {
      stmt.reset();
    }
  };
  const prepared = new Map<string, Statement>();
  const prepareOnce = (sql: string): Statement => {
    let s = prepared.get(sql);
    if (!s) prepared.set(sql, (s = prepare(sql)));
    return s;
  };
  const update = prepare('UPDATE edges SET to_id = ?, resolution = ?, deps = ? WHERE id = ?');
  let deps_: DepsIndex | undefined;
  let sites = 0;
  let updated = 0;
  /** Resolves rows, writing back what changed; returns the rows whose outcome changed. */
  const resolveRows = (rows: Iterable<SiteRow>, outcomes?: Map<number, Outcome>): SiteRow[] => {
    const changed: SiteRow[] = [];
    for (const row of rows) {
      sites++;
      const deps = new Set<string>();
      reader.track(deps);
      let outcome: Outcome;
      try {
        outcome = resolver.resolve({ kind: row.kind, fromId: row.fromId, name: row.name, shape: decodeSite(row.site) });
      } finally {
        reader.track(undefined);
      }
      deps.delete(row.name);
      outcomes?.set(row.id, outcome);
      const depsText = deps.size > 0 ? [...deps].sort().join(' ') : null;
      if (outcome.toId !== row.toId || outcome.code !== row.resolution || depsText !== row.deps) {
        update.run([outcome.toId, outcome.code, depsText, row.id]);
        deps_?.set(row.id, row.deps, depsText);
        updated++;
        if (outcome.toId !== row.toId || outcome.code !== row.resolution) changed.push(row);
      }
    }
    return changed;
  };

  try {
    if ('build' in changes) return resolveBuild(changes.build);
    // Loaded before this pass writes anything: it must describe the rows as they are now.
    cache.deps ??= DepsIndex.load(db);
    deps_ = cache.deps;
    const todo = new Map<number, SiteRow>();
    {
      // Edges that pointed at a definition that is the same after the write follow it to its new id.
      const move = prepare('UPDATE edges SET to_id = ? WHERE to_id = ?');
      for (const [from, to] of changes.remap) move.run([to, from]);
      const ofFile = prepare(`SELECT ${SITE_COLUMNS} FROM edges WHERE from_id IN (SELECT id FROM symbols WHERE file_id = ?)`);
      for (const fileId of changes.writtenFiles) select(ofFile, [fileId], todo);
      const pointingAt = prepare(`SELECT ${SITE_COLUMNS} FROM edges WHERE to_id = ?`);
      for (const id of changes.removedSymbols) select(pointingAt, [id], todo);
      collectByNames(changes.names);
    }

    // Structure first, until stable (a base named through a nested class reads other bases).
    for (let round = 0; round < 4; round++) {
      const structure = [...todo.values()].filter((r) => STRUCTURE_KINDS.has(r.kind));
      for (const r of structure) todo.delete(r.id);
      if (structure.length === 0) break;
      reader.forgetStructure();
      const changed = resolveRows(structure);
      if (changed.length === 0) continue;
      // A class whose bases or members changed: sites that walked through it look again.
      const names = new Set<string>();
      for (const r of changed) {
        names.add(r.name);
        const from = reader.symbol(r.fromId);
        if (from) names.add(from.name);
      }
      collectByNames(names, true);
    }
    reader.forgetStructure();
    resolveRows([...todo.values()].filter((r) => !STRUCTURE_KINDS.has(r.kind)));
    return { sites, updated };

    /** A build: every site is in memory; resolve them all, then insert each edge once. */
    function resolveBuild(build: PendingSites): ResolutionStats {
      reader.preload(PRELOAD_SYMBOLS);
      const n = build.length;
      const toIds = new Int32Array(n).fill(-1);
      const codes = new Uint8Array(n);
      const deps = new Map<number, string>();
      const collected = new Set<string>();
      const resolveAt = (i: number): void => {
        sites++;
        collected.clear();
        reader.track(collected);
        let outcome: Outcome;
        try {
          outcome = resolver.resolve({ kind: build.kind(i), fromId: build.from(i), name: build.name(i), shape: decodeSite(build.site(i)) });
        } finally {
          reader.track(undefined);
        }
        collected.delete(build.name(i));
        if (collected.size > 0) deps.set(i, [...collected].sort().join(' '));
        toIds[i] = outcome.toId ?? -1;
        codes[i] = outcome.code;
      };
      // Structure first; calls then read every class's bases from memory.
      const bases = new Map<number, (number | null)[]>();
      const memberOf = new Map<number, number | null>();
      for (let i = 0; i < n; i++) {
        const kind = build.kind(i);
        if (!STRUCTURE_KINDS.has(kind) || build.site(i) === FIXED_SITE) continue;
        resolveAt(i);
        const toId = toIds[i]! < 0 ? null : toIds[i]!;
        if (kind === EDGE_KIND_CODES.inherits || kind === EDGE_KIND_CODES.implements) {
          let list = bases.get(build.from(i));
          if (!list) bases.set(build.from(i), (list = []));
          list.push(toId);
        } else if (kind === EDGE_KIND_CODES.member_of) memberOf.set(build.from(i), toId);
      }
      reader.knowStructure(bases, memberOf, true);
      for (let i = 0; i < n; i++) {
        if (STRUCTURE_KINDS.has(build.kind(i))) continue;
        if (build.site(i) === FIXED_SITE) codes[i] = build.resolution(i);
        else resolveAt(i);
      }
      const insert = prepare('INSERT INTO edges (kind, from_id, to_id, to_name, line, resolution, site, deps) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      // Rows get consecutive ids after the last one: the build knows each row's dependencies.
      const firstId = Number(db.exec('SELECT coalesce(max(id), 0) + 1 FROM edges')[0]?.values[0]?.[0] ?? 1);
      const index = new DepsIndex();
      for (const [i, text] of deps) index.set(firstId + i, null, text);
      cache.deps = index;
      for (let i = 0; i < n; i++) {
        if (STRUCTURE_KINDS.has(build.kind(i)) && build.site(i) === FIXED_SITE) codes[i] = build.resolution(i);
        insert.run([build.kind(i), build.from(i), toIds[i]! < 0 ? null : toIds[i]!, build.name(i), build.line(i), codes[i]!, build.site(i), deps.get(i) ?? null]);
      }
      return { sites, updated: n };
    }

    function collectByNames(names: ReadonlySet<string>, structureAgain = false): void {
      if (names.size === 0) return;
      const byName = prepareOnce(`SELECT ${SITE_COLUMNS} FROM edges WHERE to_name = ?`);
      const found = new Map<number, SiteRow>();
      for (const name of names) select(byName, [name], found);
      // Rows whose dependencies hold one of the names, from the in-memory index (read back by id:
      // the index may still list rows deleted since).
      const byId = prepareOnce(`SELECT ${SITE_COLUMNS} FROM edges WHERE id = ?`);
      const rows = new Map<number, SiteRow>();
      for (const id of deps_!.edgesDependingOn(names)) if (!found.has(id)) select(byId, [id], rows);
      // An id may now be another row's (ids of deleted rows are given again): check its dependencies.
      for (const [id, row] of rows) if (row.deps !== null && row.deps.split(' ').some((d) => names.has(d))) found.set(id, row);
      for (const [id, row] of found) if (structureAgain || !todo.has(id)) todo.set(id, row);
    }
  } finally {
    reader.close();
    for (const s of statements) s.free();
  }
}
