import type { Database, SqlValue, Statement } from 'sql.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import { graphStrategyFor } from './languages/index.js';
import { GraphReader, toSymbol } from './reader.js';
import { Resolver, type Outcome } from './resolver.js';
import { decodeSite, FIXED_SITE } from './site.js';
import type { LanguageGraph } from './strategy.js';

/**
 * What a write session changed, for the resolution pass that ends it: the files it wrote (their
 * edges are pending), the ids of the symbols it removed (edges that pointed at them dangle),
 * and every name those files bound before or after (definitions, imports, module names): a
 * site whose answer looked up one of these names may now resolve differently.
 *
 * For languages whose imports are textual inclusion ({@link LanguageGraph.includeCandidates}),
 * what a file sees also depends on what the files it includes include: `importsBefore` (the
 * import specifiers of each rewritten or removed file, by path, as they were), the names of
 * modules that appeared or disappeared and of removed module symbols let the pass find every
 * file whose includes may have changed, and re-resolve the files that include those.
 */
export interface GraphChanges {
  readonly writtenFiles: Set<number>;
  readonly removedSymbols: Set<number>;
  readonly names: Set<string>;
  /** Import specifiers (sorted, `\n`-joined) of each file the session rewrote or removed, by path, before. */
  readonly importsBefore: Map<string, string>;
  /** Names of the module symbols the session removed, by id (a rewritten file's old module too). */
  readonly removedModules: Map<number, string>;
  /** Names of the module symbols the session wrote. */
  readonly writtenModules: Set<string>;
}

/** A new, empty change set. */
export function newGraphChanges(): GraphChanges {
  return { writtenFiles: new Set(), removedSymbols: new Set(), names: new Set(), importsBefore: new Map(), removedModules: new Map(), writtenModules: new Set() };
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

// Each site row comes with its caller's symbol: a pass then never looks a caller up alone.
const SITE_COLUMNS = 'e.id, e.kind, e.from_id, n.name, e.site, e.to_id, e.resolution, e.deps, s.id, s.kind, s.name, s.qualified_name, s.file_id, s.parent_id, s.flags';
const SITE_FROM = 'edges e JOIN names n ON n.id = e.name_id JOIN symbols s ON s.id = e.from_id';
const STRUCTURE_KINDS: ReadonlySet<number> = new Set([EDGE_KIND_CODES.imports, EDGE_KIND_CODES.inherits, EDGE_KIND_CODES.implements, EDGE_KIND_CODES.member_of]);
const STRUCTURE_LIST = [...STRUCTURE_KINDS].join(', ');
/** Ids written by one batched update. */
const BATCH = 128;
/** Rows read and resolved at a time by a pass over every pending site. */
const CHUNK = 4096;
/** Names the reader may memoise before it starts over (see GraphReader.trim). */
const MEMO_LIMIT = 60_000;

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

/** Every `/`-separated tail of a path (`a/b/c.h` → `a/b/c.h`, `b/c.h`, `c.h`): what an include may name it by. */
export function pathTails(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) if (i + 1 < path.length) out.push(path.slice(i + 1));
  return out;
}

/**
 * Resolves the sites a write session may have changed, inside its transaction: every pending
 * site (of files it wrote), every site that pointed at a removed symbol, and every site whose
 * last answer depended on a name in `changes.names`. With `changes` = 'all' (a build from
 * nothing) every pending site, streamed in id order a chunk at a time. Structure edges
 * (imports, bases, members) first, then calls and value uses, which read them.
 */
export function resolveGraph(db: Database, changes: GraphChanges | 'all'): ResolutionStats {
  const strategies = new Map<string, LanguageGraph>();
  const strategyOf = (language: string): LanguageGraph => {
    let s = strategies.get(language);
    if (!s) strategies.set(language, (s = graphStrategyFor(language)));
    return s;
  };
  const reader = new GraphReader(db);
  const resolver = new Resolver(reader, strategyOf);
  const statements: Statement[] = [];
  const prepared = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let s = prepared.get(sql);
    if (!s) {
      s = db.prepare(sql);
      prepared.set(sql, s);
      statements.push(s);
    }
    return s;
  };
  /** Reads site rows (skipping fixed ones) into `out`, making their callers known to the reader. */
  const select = (stmt: Statement, params: SqlValue[], out: Map<number, SiteRow>): void => {
    try {
      stmt.bind(params);
      while (stmt.step()) {
        const r = stmt.get();
        const row = toRow(r);
        if (row.site === FIXED_SITE) continue;
        if (!reader.knows(row.fromId)) reader.prime(toSymbol(r.slice(8)));
        out.set(row.id, row);
      }
    } finally {
      stmt.reset();
    }
  };
  const update = prepare('UPDATE edges SET to_id = ?, resolution = ?, deps = ? WHERE id = ?');
  let sites = 0;
  let updated = 0;
  const deps = new Set<string>();
  /**
   * Unresolved rows without dependencies, by code, written a batch at a time (most rows of a
   * pass over every site: one statement per batch is a fraction of one per row).
   */
  let unresolved: Map<number, number[]> | undefined;
  const flushUnresolved = (): void => {
    if (!unresolved) return;
    for (const [code, ids] of unresolved) {
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        while (batch.length < BATCH) batch.push(batch[batch.length - 1]!);
        updateMany.run([code, ...batch]);
      }
    }
    unresolved.clear();
  };
  const updateMany = prepare(`UPDATE edges SET to_id = NULL, resolution = ?, deps = NULL WHERE id IN (${new Array(BATCH).fill('?').join(', ')})`);
  /** Resolves one row, writing back what changed; returns its outcome. */
  const resolveRow = (row: SiteRow): Outcome => {
    sites++;
    deps.clear();
    reader.track(deps);
    let outcome: Outcome;
    try {
      outcome = resolver.resolve({ kind: row.kind, fromId: row.fromId, name: row.name, shape: decodeSite(row.site) });
    } finally {
      reader.track(undefined);
    }
    deps.delete(row.name);
    const depsText = deps.size > 0 ? [...deps].sort().join(' ') : null;
    if (outcome.toId !== row.toId || outcome.code !== row.resolution || depsText !== row.deps) {
      if (unresolved && outcome.toId === null && depsText === null) {
        const ids = unresolved.get(outcome.code);
        if (ids) ids.push(row.id);
        else unresolved.set(outcome.code, [row.id]);
      } else update.run([outcome.toId, outcome.code, depsText, row.id]);
      updated++;
    }
    return outcome;
  };
  /** Resolves rows; returns the rows whose outcome changed, with the new outcome. */
  const resolveRows = (rows: Iterable<SiteRow>): { row: SiteRow; outcome: Outcome }[] => {
    const changed: { row: SiteRow; outcome: Outcome }[] = [];
    for (const row of rows) {
      const outcome = resolveRow(row);
      if (outcome.toId !== row.toId || outcome.code !== row.resolution) changed.push({ row, outcome });
    }
    return changed;
  };
  /**
   * Every pending row of the structure kinds (or of the others), a chunk at a time in id order:
   * the chunk's callers and the symbols of the names it writes are read in batches first.
   */
  const streamPending = (structure: boolean): void => {
    const stmt = prepare(
      `SELECT e.id, e.kind, e.from_id, n.name, e.site, e.to_id, e.resolution, e.deps FROM edges e JOIN names n ON n.id = e.name_id
       WHERE e.id > ? AND e.resolution = ${RESOLUTION_CODES.pending} AND e.kind ${structure ? 'IN' : 'NOT IN'} (${STRUCTURE_LIST}) ORDER BY e.id LIMIT ${CHUNK}`,
    );
    unresolved = new Map();
    const chunk: SiteRow[] = [];
    try {
      for (let after = 0; ; ) {
        chunk.length = 0;
        reader.nextChunk();
        try {
          stmt.bind([after]);
          while (stmt.step()) chunk.push(toRow(stmt.get()));
        } finally {
          stmt.reset();
        }
        if (chunk.length === 0) break;
        reader.prefetchCallers(chunk.map((r) => r.fromId));
        reader.prefetch(chunk.map((r) => r.name));
        for (const row of chunk) resolveRow(row);
        after = chunk[chunk.length - 1]!.id;
        flushUnresolved();
        reader.trim(MEMO_LIMIT);
      }
    } finally {
      unresolved = undefined;
    }
  };

  // A bigger page cache while the pass runs: its lookups jump around the symbol and name
  // indexes, and sql.js reads every missed page through its file system layer.
  const cacheSize = db.exec('PRAGMA cache_size')[0]?.values[0]?.[0];
  db.run('PRAGMA cache_size = -16384');
  try {
    if (changes === 'all') {
      streamPending(true);
      reader.forgetStructure();
      streamPending(false);
      return { sites, updated };
    }

    const todo = new Map<number, SiteRow>();
    const ofFile = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE s.file_id = ?`);
    for (const fileId of changes.writtenFiles) select(ofFile, [fileId], todo);
    const pointingAt = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.to_id = ?`);
    for (const id of changes.removedSymbols) select(pointingAt, [id], todo);
    // A module that appeared or disappeared changes what an include of any tail of its path means.
    const modulesChanged = new Set<string>();
    const removedNames = new Set(changes.removedModules.values());
    for (const name of changes.writtenModules) if (!removedNames.has(name)) for (const tail of pathTails(name)) modulesChanged.add(tail);
    for (const name of removedNames) if (!changes.writtenModules.has(name)) for (const tail of pathTails(name)) modulesChanged.add(tail);
    collectByNames(new Set([...changes.names, ...modulesChanged]));

    // Files whose includes may now mean other files (textual-inclusion languages).
    const includesChanged = new Set<number>();
    const inclusive = (fileId: number): boolean => {
      const file = reader.file(fileId);
      return file !== undefined && strategyOf(file.language).includeCandidates !== undefined;
    };
    for (const fileId of changes.writtenFiles) {
      if (!inclusive(fileId)) continue;
      const file = reader.file(fileId)!;
      const specs = reader.imports(file.moduleId);
      const before = changes.importsBefore.get(file.path);
      if ((before ?? '') !== [...specs].sort().join('\n') || specs.some((s) => modulesChanged.has(s))) includesChanged.add(fileId);
    }
    const moduleName = (id: number | null): string | null => (id === null ? null : (changes.removedModules.get(id) ?? reader.symbol(id)?.name ?? null));

    // Structure first, until stable (a base named through a nested class reads other bases).
    // Files that see through their includes a file whose includes changed are re-resolved
    // whole: their structure rows join the rounds here, the others are streamed at the end.
    const seeded = new Set<number>();
    const expanded = new Set<number>();
    const expand = (): void => {
      const fresh = [...includesChanged].filter((f) => !seeded.has(f));
      if (fresh.length === 0) return;
      for (const f of fresh) seeded.add(f);
      for (const fileId of includers(new Set(fresh))) {
        if (expanded.has(fileId) || changes.writtenFiles.has(fileId)) continue;
        expanded.add(fileId);
        const rows = new Map<number, SiteRow>();
        select(ofFile, [fileId], rows);
        for (const row of rows.values()) if (STRUCTURE_KINDS.has(row.kind) && row.kind !== EDGE_KIND_CODES.imports) todo.set(row.id, row);
      }
    };
    expand();
    for (let round = 0; round < 8; round++) {
      const structure = [...todo.values()].filter((r) => STRUCTURE_KINDS.has(r.kind));
      for (const r of structure) todo.delete(r.id);
      if (structure.length === 0) break;
      reader.forgetStructure();
      const changed = resolveRows(structure);
      for (const r of structure) {
        if (r.kind !== EDGE_KIND_CODES.imports || r.resolution === RESOLUTION_CODES.pending) continue;
        const from = reader.symbol(r.fromId);
        if (!from || !inclusive(from.fileId)) continue;
        // An ambiguous include sees every candidate: a new or gone one changes what it sees.
        if (modulesChanged.has(r.name) && r.resolution === RESOLUTION_CODES.ambiguous) includesChanged.add(from.fileId);
      }
      const names = new Set<string>();
      for (const { row: r, outcome } of changed) {
        // A class whose bases or members changed: sites that walked through it look again.
        names.add(r.name);
        const from = reader.symbol(r.fromId);
        if (from) names.add(from.name);
        // An include that now means another file (ids change when a file is rewritten: compare names).
        if (r.kind === EDGE_KIND_CODES.imports && from && inclusive(from.fileId) && r.resolution !== RESOLUTION_CODES.pending) {
          if (outcome.code !== r.resolution || moduleName(outcome.toId) !== moduleName(r.toId)) includesChanged.add(from.fileId);
        }
      }
      collectByNames(names, true);
      expand();
    }
    reader.forgetStructure();
    const inExpanded = (row: SiteRow): boolean => {
      const from = reader.symbol(row.fromId);
      return from !== undefined && expanded.has(from.fileId);
    };
    resolveRows([...todo.values()].filter((r) => !STRUCTURE_KINDS.has(r.kind) && !inExpanded(r)));
    // Then every other row of the files whose view changed, a file at a time.
    const rows = new Map<number, SiteRow>();
    for (const fileId of expanded) {
      rows.clear();
      reader.nextChunk();
      select(ofFile, [fileId], rows);
      resolveRows([...rows.values()].filter((r) => !STRUCTURE_KINDS.has(r.kind)));
      reader.trim(MEMO_LIMIT);
    }
    return { sites, updated };

    function collectByNames(names: ReadonlySet<string>, structureAgain = false): void {
      if (names.size === 0) return;
      const byName = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE n.name = ?`);
      const found = new Map<number, SiteRow>();
      for (const name of names) select(byName, [name], found);
      const withDeps = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.deps IS NOT NULL`);
      const all = new Map<number, SiteRow>();
      select(withDeps, [], all);
      for (const row of all.values()) if (row.deps!.split(' ').some((d) => names.has(d))) found.set(row.id, row);
      for (const [id, row] of found) if (structureAgain || !todo.has(id)) todo.set(id, row);
    }

    /** The files that include one of `files`, directly or through others, and those files themselves. */
    function includers(files: ReadonlySet<number>): Set<number> {
      const out = new Set(files);
      const queue = [...files];
      const byName = prepare(`SELECT s.file_id FROM ${SITE_FROM} WHERE n.name = ? AND e.kind = ${EDGE_KIND_CODES.imports}`);
      // Includes written with `./` or `../` name their file by its file name in `deps`.
      const withDeps = new Map<string, number[]>();
      const rows = db.exec(`SELECT s.file_id, e.deps FROM ${SITE_FROM} WHERE e.kind = ${EDGE_KIND_CODES.imports} AND e.deps IS NOT NULL`)[0]?.values ?? [];
      for (const [fileId, text] of rows) for (const d of String(text).split(' ')) withDeps.set(d, [...(withDeps.get(d) ?? []), Number(fileId)]);
      while (queue.length > 0) {
        const file = reader.file(queue.pop()!);
        const module = file ? reader.symbol(file.moduleId) : undefined;
        if (!module) continue;
        const found: number[] = [];
        for (const tail of pathTails(module.name)) {
          try {
            byName.bind([tail]);
            while (byName.step()) found.push(Number(byName.get()[0]));
          } finally {
            byName.reset();
          }
        }
        found.push(...(withDeps.get(module.name.slice(module.name.lastIndexOf('/') + 1)) ?? []));
        for (const f of found) {
          if (out.has(f) || !inclusive(f)) continue;
          out.add(f);
          queue.push(f);
        }
      }
      return out;
    }
  } finally {
    reader.close();
    for (const s of statements) s.free();
    db.run(`PRAGMA cache_size = ${Number(cacheSize ?? -2000)}`);
  }
}
