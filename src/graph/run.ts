import type { Database, SqlValue, Statement } from 'sql.js';
import { platform } from '#platform';
import { EDGE_KIND_CODES, NAME_OF_EDGE, RESOLUTION_CODES } from '../db/schema.js';
import { SYMBOL_FLAGS } from './describe.js';
import { graphStrategyFor } from './languages/index.js';
import { GraphReader, OUTSIDE_CAUSES, PRELOAD_SYMBOLS } from './reader.js';
import { Resolver, type Outcome } from './resolver.js';
import { decodeSite, FIXED_SITE, writtenKindOf } from './site.js';
import type { LanguageGraph } from './strategy.js';
import type { PendingSites } from './pending.js';
import { DepsIndex } from './deps-index.js';
import { structureKey, type ResolvedAs } from './changes.js';

/**
 * What a write session changed, for the resolution pass that ends it (GraphChangeLog): the files
 * it wrote (their edges are pending), definitions that stayed the same under a new id (edges that
 * pointed at them move), removed definitions (edges that pointed at them dangle), and the names
 * whose definitions or bindings changed: a site whose answer looked one up may now resolve
 * differently.
 *
 * For languages whose imports are textual inclusion ({@link LanguageGraph.includeCandidates}),
 * what a file sees also depends on what the files it includes include: `importsBefore` (the
 * import specifiers of each rewritten or removed file, by path, as they were), the names of
 * module symbols removed and written let the pass find every file whose includes may have
 * changed, and re-resolve the files that include those.
 */
export interface GraphChanges {
  readonly writtenFiles: ReadonlySet<number>;
  readonly removedSymbols: ReadonlySet<number>;
  readonly names: ReadonlySet<string>;
  readonly remap: ReadonlyMap<number, number>;
  readonly importsBefore: ReadonlyMap<string, string>;
  readonly removedModules: ReadonlyMap<number, string>;
  readonly writtenModules: ReadonlySet<string>;
  /** How the structure edges of rewritten and removed files were resolved before (GraphChangeLog.structureBefore). */
  readonly structureBefore: ReadonlyMap<string, ResolvedAs>;
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

/** Entries the reader may memoise before it starts over, when it did not read every symbol (see GraphReader.trim). */
const MEMO_LIMIT = 60_000;
/** Sites a build resolves between two looks at the reader's memo. */
const TRIM_EVERY = 4096;

// An edge's name is a row of `names`, read by a subquery (NAME_OF_EDGE).
const SITE_COLUMNS = `e.id, e.kind, e.from_id, ${NAME_OF_EDGE}, e.site, e.to_id, e.resolution, e.deps`;
const SITE_FROM = 'edges e';
/**
 * Sites from which a build counts as large (the kernel has 5.8 million, Django 55,000): its
 * parse workers are released before its resolution pass (FileProcessor.releaseIdle), and the
 * pass collects garbage every this many sites. The pass makes garbage fast (decoded sites, memo
 * entries, names read back) and V8 lets the heap grow to several times what is live before it
 * collects: on the kernel, 330 of the 400 MB held when the edges are written. Each collection
 * there takes about 50 ms.
 */
export const LARGE_BUILD_SITES = 1 << 20;

/**
 * A full garbage collection when a count of sites (added or resolved so far) went from
 * `previous` to `count` across a multiple of {@link LARGE_BUILD_SITES}: only large builds get
 * there, and only where the platform can collect.
 */
export function collectPerLargeStep(previous: number, count: number): void {
  if (Math.floor(previous / LARGE_BUILD_SITES) !== Math.floor(count / LARGE_BUILD_SITES)) platform.collectGarbage?.();
}

/** Rows per INSERT of a build (at most 8 parameters each: far below sqlite's limit of 32,766). */
const ROWS_PER_INSERT = 128;
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

/** Every `/`-separated tail of a path (`a/b/c.h` → `a/b/c.h`, `b/c.h`, `c.h`): what an include may name it by. */
function pathTails(path: string): string[] {
  const out = [path];
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) if (i + 1 < path.length) out.push(path.slice(i + 1));
  return out;
}

/** Sites a build resolves (then writes) between two turns of its caller (ResolutionHooks.turn). */
const CHUNK_SITES = 4096;

/** What a resolution pass lets its caller do while it runs. */
export interface ResolutionHooks {
  /** A build's share of the pass done, from 0 to 1 (its sites resolved, then written), after each chunk of sites (an update's pass, whose sites are found as it goes, reports none). */
  readonly onProgress?: (done: number) => void;
  /** Called after each chunk of sites (builds and updates): gives the event loop a turn now and then; throws to stop the pass (an abort). */
  readonly turn?: () => Promise<void>;
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
export async function resolveGraph(
  db: Database,
  changes: GraphChanges | { readonly build: PendingSites },
  cache: { deps?: DepsIndex | undefined } = {},
  hooks: ResolutionHooks = {},
): Promise<ResolutionStats> {
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
  /**
   * Inserts rows ROWS_PER_INSERT at a time, in the order added (rows without an id get
   * consecutive ids in that order): one statement per row spent more in sql.js's bind/step/reset
   * and sqlite's statement start than in the rows themselves. `flush` writes what is left.
   */
  const batchedInsert = (head: string, rowSql: string, columns: number): { add(...values: SqlValue[]): void; flush(): void } => {
    const values: SqlValue[] = [];
    let many: Statement | undefined;
    let one: Statement | undefined;
    return {
      add(...row: SqlValue[]): void {
        for (const v of row) values.push(v);
        if (values.length < ROWS_PER_INSERT * columns) return;
        (many ??= prepare(head + Array<string>(ROWS_PER_INSERT).fill(rowSql).join(', '))).run(values);
        values.length = 0;
      },
      flush(): void {
        one ??= prepare(head + rowSql);
        for (let at = 0; at < values.length; at += columns) one.run(values.slice(at, at + columns));
        values.length = 0;
      },
    };
  };
  const update = prepare('UPDATE edges SET kind = ?, to_id = ?, resolution = ?, deps = ? WHERE id = ?');
  /**
   * The kind of an edge once resolved: a base whose declaration decides it (`~k` site, see
   * SiteShape.writtenKind) is `implements` when it resolves to an interface and `inherits` when to
   * a class; unresolved, as written. Every other edge keeps its kind. The answer depends on the
   * target's flags, which are part of its identity: a target that changes them is a removed
   * definition, whose edges are resolved again.
   */
  const decidedKind = (kind: number, site: string | null, toId: number | null): number => {
    if (site === null || site[0] !== '~') return kind;
    const target = toId === null ? undefined : reader.symbol(toId);
    if (target === undefined) return writtenKindOf(kind, site);
    return (target.flags & SYMBOL_FLAGS.interface) !== 0 ? EDGE_KIND_CODES.implements : EDGE_KIND_CODES.inherits;
  };
  let deps_: DepsIndex | undefined;
  let sites = 0;
  let updated = 0;
  /** Resolves rows, writing back what changed; returns the rows whose outcome changed. */
  const resolveRows = async (rows: Iterable<SiteRow>, outcomes?: Map<number, Outcome>): Promise<SiteRow[]> => {
    const changed: SiteRow[] = [];
    for (const row of rows) {
      // An update that rewrote thousands of files resolves as many sites: its caller gets turns too.
      if (++sites % CHUNK_SITES === 0) await hooks.turn?.();
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
      const kind = decidedKind(row.kind, row.site, outcome.toId);
      if (outcome.toId !== row.toId || outcome.code !== row.resolution || depsText !== row.deps || kind !== row.kind) {
        update.run([kind, outcome.toId, outcome.code, depsText, row.id]);
        deps_?.set(row.id, row.deps, depsText);
        updated++;
        // A base that became an interface (or a class) changes the class's superclass.
        if (outcome.toId !== row.toId || outcome.code !== row.resolution || kind !== row.kind) changed.push(row);
      }
    }
    return changed;
  };

  try {
    if ('build' in changes) return await resolveBuild(changes.build);
    // An update resolves a few hundred sites: a class's members are read by class, not with
    // every symbol of the name (Python's thousand `__init__`s for one constructor call).
    reader.narrowLookups = true;
    // Loaded before this pass writes anything: it must describe the rows as they are now.
    cache.deps ??= DepsIndex.load(db);
    deps_ = cache.deps;
    const todo = new Map<number, SiteRow>();
    const ofFile = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.from_id IN (SELECT id FROM symbols WHERE file_id = ?)`);
    // A module that appeared or disappeared changes what an include of any tail of its path means.
    const modulesChanged = new Set<string>();
    {
      // Edges that pointed at a definition that is the same after the write follow it to its new id.
      const move = prepare('UPDATE edges SET to_id = ? WHERE to_id = ?');
      for (const [from, to] of changes.remap) move.run([to, from]);
      for (const fileId of changes.writtenFiles) select(ofFile, [fileId], todo);
      const pointingAt = prepare(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.to_id = ?`);
      for (const id of changes.removedSymbols) select(pointingAt, [id], todo);
      const removedNames = new Set(changes.removedModules.values());
      for (const name of changes.writtenModules) if (!removedNames.has(name)) for (const tail of pathTails(name)) modulesChanged.add(tail);
      for (const name of removedNames) if (!changes.writtenModules.has(name)) for (const tail of pathTails(name)) modulesChanged.add(tail);
      collectByNames(modulesChanged.size === 0 ? changes.names : new Set([...changes.names, ...modulesChanged]));
    }

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
    /** Whether a new structure row of a rewritten file resolves as the same edge did before (a target rewritten with it counts by its new id). */
    const resolvesAsBefore = (row: SiteRow, outcome: Outcome): boolean => {
      const from = reader.symbol(row.fromId);
      const before = from && changes.structureBefore.get(structureKey(row.kind, from.qualifiedName, row.name, row.site));
      if (!before || before.code !== outcome.code) return false;
      return (before.toId === null ? null : (changes.remap.get(before.toId) ?? before.toId)) === outcome.toId;
    };
    // Ids change when a file is rewritten: includes are compared by the names of their modules.
    const moduleName = (id: number | null): string | null => (id === null ? null : (changes.removedModules.get(id) ?? reader.symbol(id)?.name ?? null));

    // Files that see, through their includes, a file whose includes changed are re-resolved
    // whole: their structure rows join the rounds below, the others are resolved at the end.
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

    // Structure first, until stable (a base named through a nested class reads other bases).
    for (let round = 0; round < 8; round++) {
      const structure = [...todo.values()].filter((r) => STRUCTURE_KINDS.has(r.kind));
      for (const r of structure) todo.delete(r.id);
      if (structure.length === 0) break;
      reader.forgetStructure();
      resolver.forgetStructure();
      const outcomes = new Map<number, Outcome>();
      // A rewritten file's structure rows are new (pending): they count as changed only when
      // they resolve otherwise than the same edge did before the rewrite. (Counting them all
      // made a one-line edit of Django's utils/text.py re-resolve the 2,300 sites that depend
      // on its module's name.)
      const changed = (await resolveRows(structure, outcomes)).filter((r) => r.resolution !== RESOLUTION_CODES.pending || !resolvesAsBefore(r, outcomes.get(r.id)!));
      for (const r of structure) {
        if (r.kind !== EDGE_KIND_CODES.imports || r.resolution === RESOLUTION_CODES.pending) continue;
        const from = reader.symbol(r.fromId);
        if (!from || !inclusive(from.fileId)) continue;
        // An ambiguous include sees every candidate: a new or gone one changes what it sees.
        if (modulesChanged.has(r.name) && r.resolution === RESOLUTION_CODES.ambiguous) includesChanged.add(from.fileId);
      }
      if (changed.length > 0) {
        const names = new Set<string>();
        const membershipChanged = new Set<number>();
        for (const r of changed) {
          // A class whose bases or members changed: sites that walked through it look again.
          names.add(r.name);
          const from = reader.symbol(r.fromId);
          if (from) names.add(from.name);
          // A definition now of another class (or of none): the sites inside it see another
          // `this`, whatever names they depended on before.
          if (r.kind === EDGE_KIND_CODES.member_of && from) membershipChanged.add(from.fileId);
          // An include that now means another file.
          if (r.kind === EDGE_KIND_CODES.imports && from && inclusive(from.fileId) && r.resolution !== RESOLUTION_CODES.pending) {
            const outcome = outcomes.get(r.id)!;
            if (outcome.code !== r.resolution || moduleName(outcome.toId) !== moduleName(r.toId)) includesChanged.add(from.fileId);
          }
        }
        collectByNames(names, true);
        if (membershipChanged.size > 0) {
          const inside = new Map<number, SiteRow>();
          for (const fileId of membershipChanged) select(ofFile, [fileId], inside);
          for (const row of inside.values()) if (!STRUCTURE_KINDS.has(row.kind)) todo.set(row.id, row);
        }
      }
      expand();
    }
    reader.forgetStructure();
    resolver.forgetStructure();
    const inExpanded = (row: SiteRow): boolean => {
      const from = reader.symbol(row.fromId);
      return from !== undefined && expanded.has(from.fileId);
    };
    await resolveRows([...todo.values()].filter((r) => !STRUCTURE_KINDS.has(r.kind) && (expanded.size === 0 || !inExpanded(r))));
    // Then every other row of the files whose view changed, a file at a time.
    const rows = new Map<number, SiteRow>();
    for (const fileId of expanded) {
      rows.clear();
      select(ofFile, [fileId], rows);
      await resolveRows([...rows.values()].filter((r) => !STRUCTURE_KINDS.has(r.kind)));
    }
    return { sites, updated };

    /** A build: every site is in memory; resolve them all, then insert each edge once. */
    async function resolveBuild(build: PendingSites): Promise<ResolutionStats> {
      // Every site is added: the interning map is only garbage held through the pass from here.
      build.doneAdding();
      const symbols = build.symbols;
      if (symbols) reader.knowSymbols(symbols);
      else reader.preload(PRELOAD_SYMBOLS);
      // Include closures read every module's includes before any edge is written.
      reader.knowImports(build.moduleImports);
      const known = build.files;
      if (known) reader.knowFiles(known.files, known.bindings);
      const n = build.length;
      // At the pass's phase boundaries too, in a large build.
      const collect = (): void => {
        if (n >= LARGE_BUILD_SITES) platform.collectGarbage?.();
      };
      const toIds = new Int32Array(n).fill(-1);
      const codes = new Uint8Array(n);
      // Bases whose resolved kind differs from the kind written (see decidedKind), by site.
      const decidedKinds = new Map<number, number>();
      const deps = new Map<number, string>();
      const collected = new Set<string>();
      const countSite = (): void => {
        sites++;
        // A pass over millions of sites would otherwise end up holding every symbol as objects.
        if (sites % TRIM_EVERY === 0) reader.trim(MEMO_LIMIT);
      };
      const resolveAt = (i: number): void => {
        countSite();
        collected.clear();
        reader.track(collected);
        // One string per site (a packed name is a new string each time it is read).
        const name = build.name(i);
        let outcome: Outcome;
        try {
          outcome = resolver.resolve({ kind: build.kind(i), fromId: build.from(i), name, shape: decodeSite(build.site(i)) });
        } finally {
          reader.track(undefined);
        }
        collected.delete(name);
        if (collected.size > 0) deps.set(i, [...collected].sort().join(' '));
        toIds[i] = outcome.toId ?? -1;
        codes[i] = outcome.code;
      };
      // Structure first; calls then read every class's bases from memory. Each phase is a
      // function of its own: V8 optimises a hot loop by compiling the function around it, and
      // one function holding every loop was compiled once per loop, whole. Each runs over
      // chunks of sites, and the caller gets a turn between two (see ResolutionHooks): the
      // kernel's pass takes tens of seconds, which would otherwise hold the thread whole.
      /** Runs `pass` over every site a chunk at a time; `before` sites of the three passes (3n in all) are done. */
      const inChunks = async (pass: (start: number, end: number) => void, before: number): Promise<void> => {
        for (let start = 0; start < n; start += CHUNK_SITES) {
          const end = Math.min(n, start + CHUNK_SITES);
          pass(start, end);
          hooks.onProgress?.((before + end) / (3 * n));
          await hooks.turn?.();
        }
      };
      const bases = new Map<number, (number | null)[]>();
      const memberOf = new Map<number, number | null>();
      const superclasses = new Map<number, number | null>();
      const unknownBases = new Set<number>();
      await inChunks(resolveStructure, 0);
      reader.knowStructure(bases, memberOf, true, superclasses, unknownBases);
      resolver.forgetStructure();
      collect();
      // A caller's sites of one name and shape (`self.assertEqual(…)` twenty times in a test)
      // have one answer, a function of the site and the codebase, which this pass does not
      // change: the first is resolved, the others copy its target and dependencies. A caller's
      // sites come together; the key is a number (the kernel has 4.6 million sites: a string
      // key per site cost more than the repeats saved), exact while it stays below 2^53.
      const strings = build.stringCount;
      const exactKeys = strings < 2 ** 24;
      const firstOf = new Map<number, number>();
      let caller = -1;
      await inChunks(resolveCalls, n);
      // Every site is resolved: what the resolver and reader kept for them is garbage from here
      // on, and the rows written next grow the database by hundreds of MB on the kernel.
      resolver.forgetCaches();
      reader.trim(0);
      collect();
      // Names get ids as first written (an empty index has no edge, so no name either).
      db.run('DELETE FROM names');
      const insertName = batchedInsert('INSERT INTO names (id, name) VALUES ', '(?, ?)', 2);
      const nameIds = new Int32Array(build.stringCount);
      let nextName = 1;
      const insertEdge = batchedInsert('INSERT INTO edges (kind, from_id, to_id, name_id, line, resolution, site, deps) VALUES ', '(?, ?, ?, ?, ?, ?, ?, ?)', 8);
      // Rows get consecutive ids after the last one: the build knows each row's dependencies.
      const firstId = Number(db.exec('SELECT coalesce(max(id), 0) + 1 FROM edges')[0]?.values[0]?.[0] ?? 1);
      cache.deps = DepsIndex.ofBuild(firstId, deps);
      await inChunks(writeEdges, 2 * n);
      insertName.flush();
      insertEdge.flush();
      return { sites, updated: n };

      function resolveStructure(start: number, end: number): void {
        for (let i = start; i < end; i++) {
          let kind = build.kind(i);
          if (!STRUCTURE_KINDS.has(kind)) continue;
          const fixed = build.isFixed(i);
          // A base the visitor could not name (a parameter, a computed class) is a base all the
          // same, of unknown members, in its place among the others: what reader.bases reads
          // back from the written edges, so an update sees the class as this build does.
          if (fixed && kind !== EDGE_KIND_CODES.inherits && kind !== EDGE_KIND_CODES.implements) continue;
          if (!fixed) resolveAt(i);
          const toId = fixed || toIds[i]! < 0 ? null : toIds[i]!;
          if (kind === EDGE_KIND_CODES.inherits || kind === EDGE_KIND_CODES.implements) {
            const decided = decidedKind(kind, build.site(i), toId);
            if (decided !== kind) decidedKinds.set(i, (kind = decided));
            let list = bases.get(build.from(i));
            if (!list) bases.set(build.from(i), (list = []));
            list.push(toId);
            if (toId === null && !OUTSIDE_CAUSES.has(fixed ? build.resolution(i) : codes[i]!)) unknownBases.add(build.from(i));
            if (kind === EDGE_KIND_CODES.inherits && !superclasses.has(build.from(i))) superclasses.set(build.from(i), toId);
          } else if (kind === EDGE_KIND_CODES.member_of) memberOf.set(build.from(i), toId);
        }
      }

      function resolveCalls(start: number, end: number): void {
        for (let i = start; i < end; i++) {
          collectPerLargeStep(i, i + 1);
          const kind = build.kind(i);
          if (STRUCTURE_KINDS.has(kind)) continue;
          if (build.isFixed(i)) {
            codes[i] = build.resolution(i);
            continue;
          }
          if (!exactKeys) {
            resolveAt(i);
            continue;
          }
          const from = build.from(i);
          if (from !== caller) {
            caller = from;
            firstOf.clear();
          }
          const key = ((build.siteNumber(i) + 1) * strings + build.nameNumber(i)) * 16 + kind;
          const first = firstOf.get(key);
          if (first === undefined) {
            firstOf.set(key, i);
            resolveAt(i);
            continue;
          }
          countSite();
          toIds[i] = toIds[first]!;
          codes[i] = codes[first]!;
          const dependsOn = deps.get(first);
          if (dependsOn !== undefined) deps.set(i, dependsOn);
        }
      }

      function writeEdges(start: number, end: number): void {
        for (let i = start; i < end; i++) {
          if (STRUCTURE_KINDS.has(build.kind(i)) && build.isFixed(i)) codes[i] = build.resolution(i);
          const k = build.nameNumber(i);
          let nameId = nameIds[k]!;
          if (nameId === 0) {
            nameId = nameIds[k] = nextName++;
            insertName.add(nameId, build.name(i));
          }
          insertEdge.add(decidedKinds.size > 0 ? (decidedKinds.get(i) ?? build.kind(i)) : build.kind(i), build.from(i), toIds[i]! < 0 ? null : toIds[i]!, nameId, build.line(i), codes[i]!, build.site(i), deps.get(i) ?? null);
          // Sites written are read no more: their columns go while the database grows (a
          // slab of them once collected: see PendingSites).
          if ((i & 0xffff) === 0xffff) {
            build.releaseBefore(i + 1);
            collectPerLargeStep(i, i + 1);
          }
        }
      }
    }

    function collectByNames(names: ReadonlySet<string>, structureAgain = false): void {
      if (names.size === 0) return;
      const byName = prepareOnce(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.name_id = (SELECT id FROM names WHERE name = ?)`);
      const found = new Map<number, SiteRow>();
      for (const name of names) select(byName, [name], found);
      // Rows whose dependencies hold one of the names, from the in-memory index (read back by id:
      // the index may still list rows deleted since).
      const byId = prepareOnce(`SELECT ${SITE_COLUMNS} FROM ${SITE_FROM} WHERE e.id = ?`);
      const rows = new Map<number, SiteRow>();
      for (const id of deps_!.edgesDependingOn(names)) if (!found.has(id)) select(byId, [id], rows);
      // An id may now be another row's (ids of deleted rows are given again): check its dependencies.
      for (const [id, row] of rows) if (row.deps !== null && row.deps.split(' ').some((d) => names.has(d))) found.set(id, row);
      for (const [id, row] of found) if (structureAgain || !todo.has(id)) todo.set(id, row);
    }

    /** The files that include one of `files`, directly or through others, and those files themselves. */
    function includers(files: ReadonlySet<number>): Set<number> {
      const out = new Set(files);
      const queue = [...files];
      const byName = prepareOnce(`SELECT s.file_id FROM edges e JOIN symbols s ON s.id = e.from_id WHERE e.name_id = (SELECT id FROM names WHERE name = ?) AND e.kind = ${EDGE_KIND_CODES.imports}`);
      // Includes written with `./` or `../` name their file by its file name in `deps`.
      const withDeps = new Map<string, number[]>();
      const rows = db.exec(`SELECT s.file_id, e.deps FROM edges e JOIN symbols s ON s.id = e.from_id WHERE e.kind = ${EDGE_KIND_CODES.imports} AND e.deps IS NOT NULL`)[0]?.values ?? [];
      for (const [fileId, text] of rows) {
        for (const d of String(text).split(' ')) {
          let list = withDeps.get(d);
          if (!list) withDeps.set(d, (list = []));
          list.push(Number(fileId));
        }
      }
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
        for (const f of withDeps.get(module.name.slice(module.name.lastIndexOf('/') + 1)) ?? []) found.push(f);
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
  }
}
