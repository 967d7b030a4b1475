import { writtenKindOf } from './site.js';

// What a write session changed in the graph, file by file, as the resolution pass that ends it
// needs to know: a re-parsed file is compared with what it held before, so that only what really
// changed (a definition added, removed or renamed, an import changed, a class's bases changed)
// makes other files' sites look again. Definitions that are the same before and after (same kind,
// qualified name, flags, and for a class the same bases) keep every edge that pointed at them:
// those edges are only moved to the definition's new id.

/** A definition as the comparison sees it. */
export interface SymbolFact {
  readonly id: number;
  /** Everything lookups can see of it: kind, qualified name, flags, a class's bases as written and member signatures. */
  readonly identity: string;
  readonly name: string;
}

/** What one file held, or holds, for the comparison. */
export interface FileFacts {
  readonly symbols: readonly SymbolFact[];
  /** Each binding's identity (scope, kind, name, module, member) with the names it binds. */
  readonly bindings: readonly { readonly identity: string; readonly names: readonly string[] }[];
  /** The file's module name (the star-import key of its module). */
  readonly moduleName: string;
  /** Its module symbol's id. */
  readonly moduleId: number;
  /** Whether it has star imports. */
  readonly stars: boolean;
  /** The import specifiers of its module (its top-level `imports` sites as written), sorted and `\n`-joined. */
  readonly imports: string;
  /**
   * Stored files only: how each of its structure edges (imports, bases, memberships) was
   * resolved, by {@link structureKey}: a rewritten file's structure edges resolved as before
   * change nothing another file sees through them.
   */
  readonly structure?: readonly StructureOutcome[];
}

/** How an edge was resolved: its target (null: none) and resolution code. */
export interface ResolvedAs {
  readonly toId: number | null;
  readonly code: number;
}

/** How a stored structure edge was resolved (`key`: {@link structureKey}). */
export interface StructureOutcome extends ResolvedAs {
  readonly key: string;
}

/** A structure edge's identity across rewrites of its file: its kind, its source's qualified name, the name and shape as written. */
export function structureKey(kind: number, fromQualifiedName: string, name: string, site: string | null): string {
  // A base whose kind its target decides is keyed by the kind it was written with: the stored row's may differ.
  return `${writtenKindOf(kind, site)}\u0000${fromQualifiedName}\u0000${name}\u0000${site ?? ''}`;
}

/**
 * The key a lookup through `moduleName`'s star imports depends on: a change to what a module
 * star-imports may change the answer for any name not bound otherwise.
 */
export function starKey(moduleName: string): string {
  return `${moduleName}\u0000*`;
}

/** Multiset difference by identity: pairs of equal entries (in order of appearance), and the rest. */
function match<T extends { readonly identity: string }>(before: readonly T[], after: readonly T[]): { pairs: [T, T][]; gone: T[]; added: T[] } {
  const byIdentity = new Map<string, T[]>();
  for (const b of before) {
    let list = byIdentity.get(b.identity);
    if (!list) byIdentity.set(b.identity, (list = []));
    list.push(b);
  }
  const pairs: [T, T][] = [];
  const added: T[] = [];
  for (const a of after) {
    const list = byIdentity.get(a.identity);
    const b = list?.shift();
    if (b === undefined) added.push(a);
    else pairs.push([b, a]);
  }
  const gone = [...byIdentity.values()].flat();
  return { pairs, gone, added };
}

/**
 * The changes of one write session. `before()` records what a file held as it is removed (or
 * replaced), `after()` what it holds once written; {@link GraphChangeLog.finish} closes the files
 * that were removed and not written again.
 */
export class GraphChangeLog {
  /** Files written in this session: their sites are new and all resolved. */
  readonly writtenFiles = new Set<number>();
  /** Removed definitions no new one stands for: edges that pointed at them dangle. */
  readonly removedSymbols = new Set<number>();
  /** Names (and star keys) whose definitions or bindings changed: sites that looked them up look again. */
  readonly names = new Set<string>();
  /** Definitions that are the same after the write: old id → new id, for the edges that pointed at them. */
  readonly remap = new Map<number, number>();
  /**
   * For languages whose imports are textual inclusion (C, C++: LanguageGraph.includeCandidates),
   * what a file sees depends on what the files it includes include. The import specifiers of
   * each file removed or rewritten, by path, as they were before the session; the names of the
   * module symbols it removed, by id; the names of those it wrote. With them the resolution pass
   * finds every file whose includes changed and re-resolves the files that see through them.
   */
  readonly importsBefore = new Map<string, string>();
  readonly removedModules = new Map<number, string>();
  readonly writtenModules = new Set<string>();
  /**
   * How the structure edges of the files removed or rewritten were resolved before the session
   * (the first record of a key wins: the state before the session), by {@link structureKey}.
   */
  readonly structureBefore = new Map<string, ResolvedAs>();
  readonly #before = new Map<string, FileFacts>();

  /** A file's facts as it is removed (kept until it is written again, or the session ends). */
  before(path: string, fileId: number, facts: FileFacts): void {
    this.writtenFiles.delete(fileId);
    for (const o of facts.structure ?? []) if (!this.structureBefore.has(o.key)) this.structureBefore.set(o.key, { toId: o.toId, code: o.code });
    this.#before.set(path, facts);
    if (!this.importsBefore.has(path)) this.importsBefore.set(path, facts.imports);
    this.removedModules.set(facts.moduleId, facts.moduleName);
  }

  /** A file's facts once written; compared with what it held before, if it was there. */
  after(path: string, fileId: number, facts: FileFacts): void {
    this.writtenFiles.add(fileId);
    this.writtenModules.add(facts.moduleName);
    const old = this.#before.get(path);
    this.#before.delete(path);
    if (old === undefined) {
      this.#all(facts);
      return;
    }
    const symbols = match(old.symbols, facts.symbols);
    for (const [b, a] of symbols.pairs) this.remap.set(b.id, a.id);
    for (const s of symbols.gone) {
      this.removedSymbols.add(s.id);
      this.names.add(s.name);
    }
    for (const s of symbols.added) this.names.add(s.name);
    const bindings = match(old.bindings, facts.bindings);
    for (const b of [...bindings.gone, ...bindings.added]) for (const n of b.names) this.names.add(n);
    if (old.moduleName !== facts.moduleName || old.stars || facts.stars) {
      // A star import added, removed or changed may change any name looked up in the module.
      if (bindings.gone.length > 0 || bindings.added.length > 0 || old.moduleName !== facts.moduleName) {
        this.names.add(starKey(old.moduleName));
        this.names.add(starKey(facts.moduleName));
      }
    }
  }

  /** Closes the session's bookkeeping: files removed and not written again changed everything they held. */
  finish(): void {
    for (const facts of this.#before.values()) {
      for (const s of facts.symbols) {
        this.removedSymbols.add(s.id);
        this.names.add(s.name);
      }
      for (const b of facts.bindings) for (const n of b.names) this.names.add(n);
      this.names.add(starKey(facts.moduleName));
    }
    this.#before.clear();
  }

  #all(facts: FileFacts): void {
    for (const s of facts.symbols) this.names.add(s.name);
    for (const b of facts.bindings) for (const n of b.names) this.names.add(n);
    this.names.add(starKey(facts.moduleName));
  }
}

/**
 * A definition's identity (see SymbolFact.identity); `bases` are a class's base sites, in order,
 * as `kind:name:site`; `members` a class's member summaries (its `fields` and `methods` columns:
 * class attributes hide inherited methods, parameter types tell overloads from overrides).
 */
export function symbolIdentity(kind: string, qualifiedName: string, flags: number, bases: readonly string[], members = ''): string {
  return `${kind}\u0000${qualifiedName}\u0000${flags}\u0000${bases.join('\u0001')}\u0000${members}`;
}

/** A binding's identity (`scope`: the qualified name of its function, '' at module level). */
export function bindingIdentity(scope: string, kind: string, name: string, module: string | null, member: string | null): string {
  return `${scope}\u0000${kind}\u0000${name}\u0000${module ?? ''}\u0000${member ?? ''}`;
}

/** A base site as identities list it (by the kind it was written with: see SiteShape.writtenKind). */
export function baseFact(kind: number, toName: string, site: string | null): string {
  return `${writtenKindOf(kind, site)}:${toName}:${site ?? ''}`;
}
