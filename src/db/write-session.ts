// The write path of an index: one transaction that writes files' rows and, at its end, resolves
// the code graph. Apart from the store (store.ts) so that opening a stored index to answer
// queries never loads the resolution (src/graph): it is imported by the indexer, with the parser.
import { deflateSync } from 'fflate';
import type { Database, SqlValue, Statement } from 'sql.js';
import { textHash } from '../indexer/decode.js';
import { allRows } from './rows.js';
import { CKGError } from '../errors.js';
import type { ExtractedFile } from '../parser/extract.js';
import { EDGE_KIND_CODES, INDEXES, INDEXES_SQL, LOOKUP_INDEXES, NAME_OF_EDGE } from './schema.js';
import type { FileGraphRows } from '../graph/describe.js';
import { collectPerLargeStep, resolveGraph, type ResolutionHooks, type ResolutionStats } from '../graph/run.js';
import { baseFact, bindingIdentity, GraphChangeLog, structureKey, symbolIdentity, type FileFacts, type StructureOutcome } from '../graph/changes.js';
import { PendingSites } from '../graph/pending.js';
import { graphSymbol, type GraphSymbol } from '../graph/reader.js';
import type { BodyMode } from './body-mode.js';
import type { DepsIndex } from '../graph/deps-index.js';
import { COUNTS_META, isCountedEdge, readCounts, UNCOUNTED_EDGES, type FileRecord, type IndexStore, type StoreCounts } from './store.js';

// Level 6 saves about 5 % of the bytes for 25 % more deflate time than level 1 (docs/bodies.md).
const DEFLATE_LEVEL = 1;

/**
 * Starts one transaction for many writes on `store`; `commit()` or `rollback()` ends it.
 *
 * @example
 * ```ts
 * const writer = beginWrite(store);
 * writer.putFile(record, extracted, graphRows);
 * await writer.resolveGraph();
 * writer.commit();
 * ```
 */
export function beginWrite(store: IndexStore): WriteSession {
  return store.openWriter((parts) => new WriteSession(parts.db, parts.bodies, parts.files, parts.graphCache, parts.counts, parts.onEnd));
}

/** A plain copy of a file record's fields (callers may pass objects with more). */
function recordOf(file: FileRecord): FileRecord {
  return {
    path: file.path,
    size: file.size,
    mtimeMs: file.mtimeMs,
    contentHash: file.contentHash,
    language: file.language,
    extractorVersion: file.extractorVersion,
  };
}

/**
 * The names a binding's change may change the answer for: its own (and the member it names);
 * for a build constraint (Go `//go:build`), every name the file defines, since the files built
 * with it are the ones that see them.
 */
function bindingNames(kind: string, name: string, member: string | null, symbols: readonly { readonly name: string }[]): string[] {
  if (kind === 'build') return symbols.map((s) => s.name);
  // A decorator is looked up by no site: a change of one makes no site look again.
  if (kind === 'decorator') return [];
  return member === null ? [name] : [name, member];
}

/**
 * A class's member summaries as its identity holds them: class attributes hide inherited methods
 * (Python) and parameter types tell overloads from overrides, so a change of either is a change
 * of the class for the sites that looked through it.
 */
function classMembers(fields: unknown, methods: unknown): string {
  return `${fields == null ? '' : String(fields)}\u0002${methods == null ? '' : String(methods)}`;
}

/** What a file's freshly described rows hold, for {@link GraphChangeLog} (ids from `base`). */
function writtenFacts(graph: FileGraphRows, extracted: ExtractedFile, base: number): FileFacts {
  const bases = new Map<number, string[]>();
  const imports: string[] = [];
  for (const e of graph.edges) {
    if (e.kind === EDGE_KIND_CODES.imports && e.from === 0) imports.push(e.toName);
    if (e.kind !== EDGE_KIND_CODES.inherits && e.kind !== EDGE_KIND_CODES.implements) continue;
    let list = bases.get(e.from);
    if (!list) bases.set(e.from, (list = []));
    list.push(baseFact(e.kind, e.toName, e.site));
  }
  const symbols = graph.symbols.map((s, k) => ({
    id: base + k,
    identity: symbolIdentity(s.kind, s.qualifiedName, s.flags, bases.get(k) ?? [], s.kind === 'class' ? classMembers(extracted.classes[s.row]?.fields, extracted.classes[s.row]?.methods) : ''),
    name: s.name,
  }));
  const bindings = graph.bindings.map((b) => ({
    identity: bindingIdentity(b.scope >= 0 ? graph.symbols[b.scope]!.qualifiedName : '', b.kind, b.name, b.module, b.member),
    names: bindingNames(b.kind, b.name, b.member, symbols),
  }));
  return { symbols, bindings, moduleName: graph.symbols[0]?.name ?? '', moduleId: base, stars: graph.bindings.some((b) => b.kind === 'star'), imports: imports.sort().join('\n') };
}

/** One open transaction with its prepared insert statements. */
export class WriteSession {
  readonly #db: Database;
  readonly #bodies: BodyMode;
  readonly #onEnd: (committed: boolean) => void;
  /** The store's in-memory mirror of `files`, kept in step with every write (when loaded). */
  readonly #files: Map<string, FileRecord> | undefined;
  readonly #insertFile: Statement;
  readonly #insertSymbol: Statement;
  readonly #insertEdge: Statement;
  readonly #insertBinding: Statement;
  readonly #insertSource: Statement;
  readonly #fileId: Statement;
  readonly #oldSymbols: Statement;
  readonly #oldBindings: Statement;
  readonly #oldStructure: Statement;
  readonly #nameId: Statement;
  readonly #insertName: Statement;
  /** Ids of names written lately (most sites name what other sites nearby name too). */
  readonly #nameIds = new Map<string, number>();
  /** The session began on an empty index: its resolution pass resolves everything. */
  readonly #fromNothing: boolean;
  /** What this session changed, for its resolution pass. */
  readonly #changes = new GraphChangeLog();
  /**
   * A build's sites, inserted by its resolution pass (see PendingSites); dropped once that pass
   * has written them, so that the commit's index builds do not run beside them (the kernel's
   * 5.8 million sites: about 180 MB).
   */
  #pending: PendingSites | undefined;
  /** {@link WriteSession.resolveGraph} ran: a build's sites are written and may not grow. */
  #resolved = false;
  #nextSymbolId: number;
  #ended = false;

  readonly #graphCache: { deps?: DepsIndex | undefined };

  /**
   * The index's counts as this session changes them (from those before it, row by row), or
   * undefined when they were not known at its start: then the commit counts (a scan of symbols
   * and edges, 0.7 s on the kernel's 5.8 million edges).
   */
  readonly #counts: StoreCounts | undefined;
  readonly #fileCounts: Statement;
  readonly #fileEdgeCount: Statement;

  constructor(
    db: Database,
    bodies: BodyMode,
    files: Map<string, FileRecord> | undefined,
    graphCache: { deps?: DepsIndex | undefined },
    counts: StoreCounts | undefined,
    onEnd: (committed: boolean) => void,
  ) {
    this.#db = db;
    this.#graphCache = graphCache;
    this.#bodies = bodies;
    this.#files = files;
    this.#onEnd = onEnd;
    db.run('BEGIN');
    this.#insertFile = db.prepare(
      'INSERT INTO files (path, size, mtime_ms, content_hash, language, extractor_version) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#insertSymbol = db.prepare(
      `INSERT INTO symbols (id, kind, name, qualified_name, file_id, parent_id, start_line, end_line, parent_function, parent_class,
         fields, methods, body, body_start, body_end, body_hash, flags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#insertEdge = db.prepare('INSERT INTO edges (kind, from_id, to_id, name_id, line, resolution, site) VALUES (?, ?, NULL, ?, ?, ?, ?)');
    this.#nameId = db.prepare('SELECT id FROM names WHERE name = ?');
    this.#insertName = db.prepare('INSERT INTO names (name) VALUES (?) RETURNING id');
    this.#insertBinding = db.prepare('INSERT INTO bindings (file_id, scope_id, kind, name, module, member, line) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.#insertSource = db.prepare('INSERT INTO sources (file_id, data) VALUES (?, ?)');
    this.#fileId = db.prepare('SELECT id FROM files WHERE path = ?');
    this.#oldSymbols = db.prepare('SELECT id, kind, name, qualified_name, flags, fields, methods FROM symbols WHERE file_id = ? ORDER BY id');
    this.#oldBindings = db.prepare('SELECT (SELECT qualified_name FROM symbols WHERE id = b.scope_id), b.kind, b.name, b.module, b.member FROM bindings b WHERE b.file_id = ? ORDER BY b.id');
    // A stored file's structure edges (imports, bases, memberships) with how they were resolved:
    // its classes' bases and its module's imports for the comparison, the outcomes for the pass.
    this.#oldStructure = db.prepare(
      `SELECT e.from_id, s.kind, s.qualified_name, e.kind, ${NAME_OF_EDGE}, e.site, e.to_id, e.resolution FROM edges e JOIN symbols s ON s.id = e.from_id
       WHERE s.file_id = ? AND e.kind IN (${EDGE_KIND_CODES.imports}, ${EDGE_KIND_CODES.inherits}, ${EDGE_KIND_CODES.implements}, ${EDGE_KIND_CODES.member_of}) ORDER BY e.id`,
    );
    const max = db.exec('SELECT max(id), (SELECT count(*) FROM files) FROM symbols')[0]?.values[0];
    this.#nextSymbolId = Number(max?.[0] ?? 0) + 1;
    this.#fromNothing = Number(max?.[1] ?? 0) === 0;
    this.#pending = this.#fromNothing ? new PendingSites() : undefined;
    // An index without files holds no symbol and no edge (edges come from symbols).
    this.#counts = this.#fromNothing ? { files: 0, functions: 0, classes: 0, symbols: 0, edges: 0 } : counts && { ...counts };
    this.#fileCounts = db.prepare("SELECT count(*), count(CASE WHEN kind IN ('function', 'method') THEN 1 END), count(CASE WHEN kind = 'class' THEN 1 END) FROM symbols WHERE file_id = ?");
    this.#fileEdgeCount = db.prepare(`SELECT count(*) FROM edges WHERE from_id IN (SELECT id FROM symbols WHERE file_id = ?) AND kind NOT IN (${UNCOUNTED_EDGES})`);
  }

  /** Removes a file and its rows (no-op when absent). */
  removeFile(path: string): void {
    if (this.#files !== undefined && !this.#files.has(path)) return; // the mirror knows it is absent
    const id = this.#lookup(path);
    if (id === undefined) return;
    // What the file held, to compare with what it holds once written again (or to count as gone).
    if (!this.#fromNothing) this.#changes.before(path, id, this.#storedFacts(id));
    const counts = this.#counts;
    if (counts) {
      const [symbols = 0, functions = 0, classes = 0] = (allRows(this.#fileCounts, [id])[0] ?? []).map(Number);
      counts.files--;
      counts.symbols -= symbols;
      counts.functions -= functions;
      counts.classes -= classes;
      counts.edges -= Number(allRows(this.#fileEdgeCount, [id])[0]?.[0] ?? 0);
    }
    this.#db.run('DELETE FROM edges WHERE from_id IN (SELECT id FROM symbols WHERE file_id = ?)', [id]);
    this.#db.run('DELETE FROM bindings WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM symbols WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM sources WHERE file_id = ?', [id]);
    this.#db.run('DELETE FROM files WHERE id = ?', [id]);
    this.#files?.delete(path);
    this.#pending?.removeFile(id);
  }

  /**
   * Replaces a file's record and rows with freshly extracted ones. `graph` is the file's graph
   * rows (describeFile). `bytes` (the file's content, which `file.contentHash` hashes) is
   * required by the `'compressed'` body mode.
   */
  putFile(file: FileRecord, extracted: ExtractedFile, graph: FileGraphRows, bytes?: Uint8Array): void {
    // A build's sites were resolved and written in one go: a file written after that would have
    // its edges neither resolved nor kept.
    if (this.#fromNothing && this.#resolved) throw new CKGError('INVALID_ARGUMENT', `putFile(${file.path}) after resolveGraph() in a build: write every file first`);
    this.removeFile(file.path);
    this.#insertFile.run([file.path, file.size, file.mtimeMs, file.contentHash, file.language, file.extractorVersion]);
    this.#files?.set(file.path, recordOf(file));
    const id = this.#lookup(file.path)!;
    // Only 'stored' pays for body text in SQLite: it dominates insert time and database size.
    const keepText = this.#bodies === 'stored';
    const lazy = this.#bodies === 'lazy';
    const base = this.#nextSymbolId;
    this.#nextSymbolId += graph.symbols.length;
    let lines = extracted.graph?.lineCount ?? 1;
    if (extracted.graph === undefined) for (const r of [...extracted.functions, ...extracted.classes]) lines = Math.max(lines, r.endLine);
    // A build keeps the symbols for its resolution pass, as the rows hold them.
    const kept: GraphSymbol[] | undefined = this.#pending?.keepsSymbols ? [] : undefined;
    graph.symbols.forEach((sym, k) => {
      const parentId = sym.parent >= 0 ? base + sym.parent : null;
      if (sym.kind === 'module') {
        this.#insertSymbol.run([base + k, 'module', sym.name, sym.qualifiedName, id, null, 1, lines, null, null, null, null, '', 0, 0, null, sym.flags]);
        kept?.push(graphSymbol(base + k, 'module', sym.name, sym.qualifiedName, id, null, sym.flags));
      } else if (sym.kind === 'class') {
        const c = extracted.classes[sym.row]!;
        this.#insertSymbol.run([
          base + k, 'class', c.name, sym.qualifiedName, id, parentId, c.startLine, c.endLine, null, null, c.fields, c.methods,
          keepText ? c.body : '', c.bodyStart, c.bodyEnd, lazy ? (c.bodyHash ?? textHash(c.body)) : null, sym.flags,
        ]);
        kept?.push(graphSymbol(base + k, 'class', c.name, sym.qualifiedName, id, parentId, sym.flags));
      } else {
        const f = extracted.functions[sym.row]!;
        this.#insertSymbol.run([
          base + k, sym.kind, f.name, sym.qualifiedName, id, parentId, f.startLine, f.endLine, f.parentFunction, f.parentClass, null, null,
          keepText ? f.body : '', f.bodyStart, f.bodyEnd, lazy ? (f.bodyHash ?? textHash(f.body)) : null, sym.flags,
        ]);
        kept?.push(graphSymbol(base + k, sym.kind, f.name, sym.qualifiedName, id, parentId, sym.flags));
      }
    });
    if (kept) this.#pending!.addSymbols(id, kept);
    const counts = this.#counts;
    if (counts) {
      counts.files++;
      counts.symbols += graph.symbols.length;
      for (const sym of graph.symbols) {
        if (sym.kind === 'class') counts.classes++;
        else if (sym.kind !== 'module') counts.functions++;
      }
      // A build's edges are counted as its resolution pass writes them.
      if (!this.#pending) for (const e of graph.edges) if (isCountedEdge(e.kind)) counts.edges++;
    }
    if (this.#pending) {
      const before = this.#pending.length;
      this.#pending.add(graph.edges, base);
      // What a large build keeps of each file is small; the garbage of reading, describing and
      // interning it is not, and V8 would keep it committed up to twice what is live.
      collectPerLargeStep(before, this.#pending.length);
      this.#pending.addFile(id, file.path, file.language, graph.symbols.length, base, graph.bindings);
    } else for (const e of graph.edges) this.#insertEdge.run([e.kind, base + e.from, this.#nameIdOf(e.toName), e.line, e.resolution, e.site]);
    for (const b of graph.bindings) this.#insertBinding.run([id, b.scope >= 0 ? base + b.scope : null, b.kind, b.name, b.module, b.member, b.line]);
    if (!this.#fromNothing) this.#changes.after(file.path, id, writtenFacts(graph, extracted, base));
    if (this.#bodies === 'compressed' && (extracted.functions.length > 0 || extracted.classes.length > 0)) {
      if (!bytes) throw new CKGError('INVALID_ARGUMENT', `putFile(${file.path}) needs the file bytes in 'compressed' body mode`);
      this.#insertSource.run([id, deflateSync(bytes, { level: DEFLATE_LEVEL })]);
    }
  }

  /** Refreshes a file's record (new mtime, same content) without touching its rows. */
  touchFile(file: FileRecord): void {
    this.#db.run('UPDATE files SET size = ?, mtime_ms = ? WHERE path = ?', [file.size, file.mtimeMs, file.path]);
    const known = this.#files?.get(file.path);
    if (known !== undefined) this.#files!.set(file.path, { ...known, size: file.size, mtimeMs: file.mtimeMs });
  }

  /** Sites a build from nothing holds for its resolution pass (0 for an update, or without the graph). */
  get pendingSites(): number {
    return this.#pending?.length ?? 0;
  }

  /**
   * Resolves the edges this session's writes may have changed (all of them after a build from
   * nothing). Call once, after the last write and before {@link WriteSession.commit}.
   */
  async resolveGraph(hooks: ResolutionHooks = {}): Promise<ResolutionStats> {
    // Lookups by name need these; the edge indexes wait for the end of a build (cheaper than
    // maintaining them through every edge's update). No-ops once they exist.
    await this.createIndexes(this.#fromNothing ? LOOKUP_INDEXES : INDEXES, hooks.turn);
    this.#changes.finish();
    let pending = this.#pending;
    const built = pending?.length ?? 0;
    // Counted before the pass: it frees the sites as it writes them.
    let edges = 0;
    if (pending) for (let i = 0; i < pending.length; i++) if (isCountedEdge(pending.kind(i))) edges++;
    const stats = await resolveGraph(this.#db, pending ? { build: pending } : this.#changes, this.#graphCache, hooks);
    if (this.#counts) this.#counts.edges += edges;
    this.#pending = pending = undefined;
    this.#resolved = true;
    // The sites' last slab and what the pass kept per site (100 MB on the kernel) are garbage:
    // collected before the edge indexes grow the database.
    collectPerLargeStep(0, built);
    return stats;
  }

  /**
   * Creates the indexes of `statements` that do not exist yet (all of them by default), one at a
   * time with `turn` between two: a build creates them once its rows are written, and {@link
   * WriteSession.commit} would otherwise create them in one run of seconds on the kernel.
   */
  async createIndexes(statements: readonly string[] = INDEXES, turn?: () => Promise<void>): Promise<void> {
    for (const sql of statements) {
      this.#db.run(sql);
      await turn?.();
    }
  }

  commit(): void {
    if (this.#ended) return;
    this.#freeStatements();
    try {
      this.#db.exec(INDEXES_SQL); // no-op once they exist
      // What the index now holds, kept with it: opening it again need not count.
      this.#db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [COUNTS_META, JSON.stringify(this.#counts ?? readCounts(this.#db))]);
      this.#db.run('COMMIT');
    } catch (error) {
      // Nothing of this session may stay half-applied: undo it, then report the failure.
      try {
        this.#db.run('ROLLBACK');
      } catch {
        // no transaction left to undo
      }
      this.#end(false);
      throw error;
    }
    this.#end(true);
  }

  rollback(): void {
    if (this.#ended) return;
    this.#freeStatements();
    try {
      this.#db.run('ROLLBACK');
    } finally {
      this.#end(false);
    }
  }

  #lookup(path: string): number | undefined {
    try {
      this.#fileId.bind([path]);
      return this.#fileId.step() ? Number(this.#fileId.get()[0]) : undefined;
    } finally {
      this.#fileId.reset();
    }
  }

  /** What a stored file holds, for {@link GraphChangeLog}. */
  #storedFacts(fileId: number): FileFacts {
    const bases = new Map<number, string[]>();
    const importSpecs: string[] = [];
    const structure: StructureOutcome[] = [];
    for (const [from, fromKind, fromName, kindValue, nameValue, siteValue, toId, code] of allRows(this.#oldStructure, [fileId])) {
      const kind = Number(kindValue);
      const name = String(nameValue);
      const site = siteValue === null ? null : String(siteValue);
      structure.push({ key: structureKey(kind, String(fromName), name, site), toId: toId === null ? null : Number(toId), code: Number(code) });
      if (kind === EDGE_KIND_CODES.imports) {
        // What a file included, for the files that see what it includes (C, C++).
        if (fromKind === 'module') importSpecs.push(name);
      } else if (kind === EDGE_KIND_CODES.inherits || kind === EDGE_KIND_CODES.implements) {
        let list = bases.get(Number(from));
        if (!list) bases.set(Number(from), (list = []));
        list.push(baseFact(kind, name, site));
      }
    }
    let moduleName = '';
    let moduleId = 0;
    const symbols = allRows(this.#oldSymbols, [fileId]).map(([id, kind, name, qname, flags, fields, methods]) => {
      if (kind === 'module') {
        moduleName = String(name);
        moduleId = Number(id);
      }
      const members = kind === 'class' ? classMembers(fields, methods) : '';
      return { id: Number(id), identity: symbolIdentity(String(kind), String(qname), Number(flags), bases.get(Number(id)) ?? [], members), name: String(name) };
    });
    let stars = false;
    const bindings = allRows(this.#oldBindings, [fileId]).map(([scope, kind, name, module, member]) => {
      if (kind === 'star') stars = true;
      return {
        identity: bindingIdentity(scope === null ? '' : String(scope), String(kind), String(name), module === null ? null : String(module), member === null ? null : String(member)),
        names: bindingNames(String(kind), String(name), member === null ? null : String(member), symbols),
      };
    });
    return { symbols, bindings, moduleName, moduleId, stars, imports: importSpecs.sort().join('\n'), structure };
  }

  /** The `names` row of an edge's name, added when new. */
  #nameIdOf(name: string): number {
    let id = this.#nameIds.get(name);
    if (id !== undefined) return id;
    id = Number(allRows(this.#nameId, [name])[0]?.[0] ?? allRows(this.#insertName, [name])[0]![0]);
    // Bounded: an update of many files writes many names.
    if (this.#nameIds.size >= 50_000) this.#nameIds.clear();
    this.#nameIds.set(name, id);
    return id;
  }

  #freeStatements(): void {
    for (const s of [this.#insertFile, this.#insertSymbol, this.#insertEdge, this.#insertBinding, this.#insertSource, this.#fileId, this.#oldSymbols, this.#oldBindings, this.#oldStructure, this.#nameId, this.#insertName, this.#fileCounts, this.#fileEdgeCount]) s.free();
  }

  #end(committed: boolean): void {
    this.#ended = true;
    this.#onEnd(committed);
  }
}
