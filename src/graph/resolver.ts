import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import type { ReceiverFact } from './facts.js';
import type { GraphBinding, GraphFile, GraphReader, GraphSymbol } from './reader.js';
import type { SiteShape } from './site.js';
import type { FallbackOutcome, FallbackSite, LanguageGraph } from './strategy.js';

// Declaration-based resolution, the same for every language; languages differ only in their
// LanguageGraph rules (module names, builtins, constructor names). A site gets a target only
// when a rule finds exactly one; anything else — no candidate, a candidate outside the
// codebase, two different candidates — leaves it unresolved with its cause. Never a guess by
// name alone.

type Code = (typeof RESOLUTION_CODES)[keyof typeof RESOLUTION_CODES];

/** What resolution found for a site: a symbol with how it was found, or the cause of failure. */
export type Outcome = { readonly toId: number; readonly code: Code } | { readonly toId: null; readonly code: Code };

/** A site to resolve, as stored. */
export interface StoredSite {
  readonly kind: number;
  readonly fromId: number;
  readonly name: string;
  readonly shape: SiteShape;
}

const MAX_DEPTH = 12;

/** Unresolved outcomes, most telling cause first when several candidates fail. */
const CAUSE_ORDER: readonly Code[] = [
  RESOLUTION_CODES.ambiguous,
  RESOLUTION_CODES.external,
  RESOLUTION_CODES.dynamic,
  RESOLUTION_CODES.builtin,
  RESOLUTION_CODES['not-found'],
];

const unresolved = (code: Code): Outcome => ({ toId: null, code });
const notClass = (s: GraphSymbol): boolean => s.kind !== 'class';
const isClass = (s: GraphSymbol): boolean => s.kind === 'class';

/** Symbols `accept` takes (all without it). */
function accepted(symbols: readonly GraphSymbol[], accept: ((s: GraphSymbol) => boolean) | undefined): readonly GraphSymbol[] {
  return accept === undefined || symbols.length === 0 ? symbols : symbols.filter(accept);
}

/** Walks that reach a header before its closure is kept (see Resolver.#closure). */
const HUB_THRESHOLD = 16;
/** Files a header's closure must hold to be kept. */
const MIN_HUB_SIZE = 64;
/** Closures kept at most (a Linux closure is 7 kB of bits). */
const MAX_HUBS = 4096;

/** What a file sees (see Resolver.#visible). */
interface Visible {
  readonly files: FileSet;
  readonly external: boolean;
  /** The set's non-zero words, once it is merged into others (see FileSet.sparse). */
  words?: SparseWords;
}

/** A set's non-zero 32-bit words: where (`at`) and what (`bits`). */
interface SparseWords {
  readonly at: Int32Array;
  readonly bits: Uint32Array;
}

/** A set of file ids as bits (file ids are small, dense integers). */
class FileSet {
  #words = new Uint32Array(64);

  /** Empties the set (keeping its memory) and returns it. */
  cleared(): this {
    this.#words.fill(0);
    return this;
  }

  /** How many files the set holds. */
  get size(): number {
    let n = 0;
    for (let i = 0; i < this.#words.length; i++) {
      let w = this.#words[i]!;
      while (w !== 0) {
        w &= w - 1;
        n++;
      }
    }
    return n;
  }

  /** Adds `id` and returns the set. */
  with(id: number): this {
    this.add(id);
    return this;
  }

  /** The non-zero words of the set: merging them costs what the set holds, not its span. */
  sparse(): SparseWords {
    let n = 0;
    for (let i = 0; i < this.#words.length; i++) if (this.#words[i] !== 0) n++;
    const at = new Int32Array(n);
    const bits = new Uint32Array(n);
    for (let i = 0, k = 0; i < this.#words.length; i++) {
      if (this.#words[i] === 0) continue;
      at[k] = i;
      bits[k++] = this.#words[i]!;
    }
    return { at, bits };
  }

  /** Adds every member of a sparse set. */
  addWords(other: SparseWords): void {
    const last = other.at.length > 0 ? other.at[other.at.length - 1]! : -1;
    if (last >= this.#words.length) {
      const grown = new Uint32Array(last + 1);
      grown.set(this.#words);
      this.#words = grown;
    }
    const ours = this.#words;
    for (let k = 0; k < other.at.length; k++) ours[other.at[k]!]! |= other.bits[k]!;
  }

  has(id: number): boolean {
    const w = id >>> 5;
    return w < this.#words.length && (this.#words[w]! & (1 << (id & 31))) !== 0;
  }

  /** Adds `id`; false when it was there already. */
  add(id: number): boolean {
    const w = id >>> 5;
    if (w >= this.#words.length) {
      const grown = new Uint32Array(Math.max(w + 1, this.#words.length * 2));
      grown.set(this.#words);
      this.#words = grown;
    }
    const bit = 1 << (id & 31);
    if ((this.#words[w]! & bit) !== 0) return false;
    this.#words[w]! |= bit;
    return true;
  }
}

/** A relative path without `.`, `..` or empty parts (`linux/fs.h`, not `./a.h`, `../a.h`, `/usr/a.h`). */
function isPlainPath(path: string): boolean {
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}
const NOT_FOUND = unresolved(RESOLUTION_CODES['not-found']);

/** One outcome from several candidates: agreement resolves, anything else does not. */
function combine(candidates: readonly Outcome[]): Outcome | undefined {
  if (candidates.length === 0) return undefined;
  const found = candidates.filter((c) => c.toId !== null);
  const ids = new Set(found.map((c) => c.toId));
  if (ids.size === 1 && found.length === candidates.length) return found[0];
  if (ids.size >= 1) return unresolved(RESOLUTION_CODES.ambiguous);
  for (const cause of CAUSE_ORDER) if (candidates.some((c) => c.code === cause)) return unresolved(cause);
  return candidates[0];
}

/** With another "how found" label. */
function relabel(outcome: Outcome, code: Code): Outcome {
  return outcome.toId === null ? outcome : { toId: outcome.toId, code };
}

interface SiteContext {
  readonly file: GraphFile;
  readonly strategy: LanguageGraph;
  /** The site's enclosing definitions, innermost first, ending with the module symbol. */
  readonly chain: readonly GraphSymbol[];
  /** What plain names are looked up from besides the file (LanguageGraph.lookupScope), once computed. */
  scope?: string;
}

/**
 * Resolves sites against a {@link GraphReader}. Stateless between sites apart from the reader's
 * memo; one instance serves one resolution pass.
 */
export class Resolver {
  readonly #reader: GraphReader;
  readonly #strategyOf: (language: string) => LanguageGraph;
  /** What each file includes (transitive-import languages), by file id, for this pass. */
  readonly #includes: (Int32Array | undefined)[] = [];
  #includesExternal = new Uint8Array(1024);
  /** Closures of headers many walks reach (see #closure), oldest first. */
  readonly #hubs = new Map<number, Visible>();
  /** How many walks reached each file. */
  #reached = new Uint16Array(1024);
  /** Files whose closure is being computed (a hub reached again through an include cycle is walked, not merged). */
  readonly #inProgress = new Set<number>();
  readonly #visibleCache = new Map<number, Visible>();
  #lastFallback: FallbackSite | undefined;
  #lastContext: { readonly fromId: number; readonly ctx: SiteContext } | undefined;
  /** Module-level answers for the module of the last sites (see #moduleLevel). */
  readonly #memo = new Map<string, { readonly outcome: Outcome; readonly deps: readonly string[] }>();
  #memoModule = -1;
  readonly #familyModules = new Map<string, readonly GraphSymbol[]>();
  readonly #picked = new Map<string, readonly GraphSymbol[]>();

  constructor(reader: GraphReader, strategyOf: (language: string) => LanguageGraph) {
    this.#reader = reader;
    this.#strategyOf = strategyOf;
  }

  /** Where a stored site leads. */
  resolve(site: StoredSite): Outcome {
    // Sites come caller by caller: the last caller's context serves the next site too.
    let ctx = this.#lastContext?.fromId === site.fromId ? this.#lastContext.ctx : undefined;
    if (ctx === undefined) {
      const from = this.#reader.symbol(site.fromId);
      if (!from) return NOT_FOUND;
      const file = this.#reader.file(from.fileId);
      if (!file) return NOT_FOUND;
      ctx = { file, strategy: this.#strategyOf(file.language), chain: this.#chain(from) };
      this.#lastContext = { fromId: site.fromId, ctx };
    }
    switch (site.kind) {
      case EDGE_KIND_CODES.imports:
        return this.#importedModule(site.name, ctx);
      case EDGE_KIND_CODES.inherits:
      case EDGE_KIND_CODES.implements:
        return this.#classNamed(site.name, site.shape.receiver, ctx);
      case EDGE_KIND_CODES.member_of:
        return this.#classNamed(site.name, undefined, ctx);
      case EDGE_KIND_CODES.references:
        return this.#value(site, ctx, false);
      default:
        return this.#value(site, ctx, true);
    }
  }

  /** A call (`call` true: a class target means its constructor) or a value use. */
  #value(site: StoredSite, ctx: SiteContext, call: boolean): Outcome {
    const { shape, name } = site;
    if (shape.superConstructor) return this.#superConstructor(ctx);
    const r = shape.receiver;
    let outcome: Outcome;
    // Where classes are only types (C struct tags), a call or value never names one.
    if (r === undefined) outcome = this.#plain(name, ctx, ctx.strategy.callableClasses === false ? notClass : undefined);
    else if (r.kind === 'self') {
      const cls = this.#enclosingClass(ctx);
      outcome = cls ? relabel(this.#classMember(cls, name, new Set()), RESOLUTION_CODES.self) : NOT_FOUND;
    } else if (r.kind === 'super') {
      const cls = this.#enclosingClass(ctx);
      outcome = cls ? relabel(this.#baseMember(cls, name, new Set()), RESOLUTION_CODES.super) : NOT_FOUND;
    } else if (r.kind === 'type') {
      const cls = this.#typeNamed(r.type, ctx, r.constructed === true);
      outcome = cls.toId === null ? cls : relabel(this.#classMember(this.#reader.symbol(cls.toId)!, name, new Set()), RESOLUTION_CODES.typed);
    } else {
      outcome = this.#qualified(r.path, name, ctx);
    }
    if (outcome.toId === null) return outcome;
    let target = this.#reader.symbol(outcome.toId);
    // Calling a module (CommonJS `const f = require('./f'); f()`) calls what it exports whole.
    if (call && target?.kind === 'module' && ctx.strategy.exportsOnly) {
      const whole = this.#moduleMember(target.id, 'default', 0, false);
      if (!whole || whole.toId === null) return whole ?? NOT_FOUND;
      outcome = relabel(whole, outcome.code);
      target = this.#reader.symbol(whole.toId!);
    }
    // A call of a class constructs it: its own constructor when it defines one, else the class.
    if (call && target?.kind === 'class' && r?.kind !== 'self' && r?.kind !== 'super') {
      const ctor = this.#ownConstructor(target, ctx);
      if (ctor) return { toId: ctor.id, code: outcome.code };
    }
    return outcome;
  }

  /**
   * A plain name: enclosing functions, the module (definitions, imports), the language's
   * fallback, then builtins. `accept` narrows which definitions the name may mean.
   */
  #plain(name: string, ctx: SiteContext, accept?: (s: GraphSymbol) => boolean): Outcome {
    const reader = this.#reader;
    for (const scope of ctx.chain) {
      if (scope.kind === 'module') break;
      if (scope.kind === 'class') {
        // Java-like languages: `m()` in a class means this class's (or a base's) member.
        if (ctx.strategy.implicitMembers === true) {
          const member = this.#classMember(scope, name, new Set());
          if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return relabel(member, RESOLUTION_CODES.self);
        }
        // Python: a class body's names are not visible from inside its methods.
        continue;
      }
      const nested = accepted(reader.children(scope.id, name), accept);
      if (nested.length > 0) return combine(nested.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.local })))!;
      const named = reader.bindingsNamed(ctx.file.id, name);
      const imported = named.length === 0 ? named : named.filter((b) => b.scopeId === scope.id);
      if (imported.length > 0) return relabel(combine(imported.map((b) => this.#followBinding(b, ctx.file, 0)))!, RESOLUTION_CODES.import);
      // A method defined outside its class (C++ `void Shape::draw() { fill(); }`) sees its class's members too.
      if (scope.kind === 'method' && ctx.strategy.implicitMembers === true) {
        const owner = reader.memberOf(scope.id);
        const cls = owner === null ? undefined : reader.symbol(owner);
        if (cls) {
          const member = this.#classMember(cls, name, new Set());
          if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return relabel(member, RESOLUTION_CODES.self);
        }
      }
    }
    return this.#moduleLevel(name, ctx, accept);
  }

  /**
   * A plain name no enclosing function binds: the module's names, the language's fallback,
   * then builtins. The answer depends on the file and the name only, so it is kept for the
   * file's other sites of the name (with the names it depended on, replayed for each site).
   */
  #moduleLevel(name: string, ctx: SiteContext, accept: ((s: GraphSymbol) => boolean) | undefined): Outcome {
    const scope = this.#scopeOf(ctx);
    const tag = accept === undefined ? '' : accept === notClass ? '\u0001' : accept === isClass ? '\u0002' : undefined;
    const key = tag === undefined ? undefined : scope === '' && tag === '' ? name : `${scope}\u0000${tag}${name}`;
    if (this.#memoModule !== ctx.file.moduleId) {
      this.#memo.clear();
      this.#memoModule = ctx.file.moduleId;
    }
    const hit = key === undefined ? undefined : this.#memo.get(key);
    if (hit) {
      for (const d of hit.deps) this.#reader.depend(d);
      return hit.outcome;
    }
    const { value, names } = this.#reader.capture(() => {
      const inModule = ctx.strategy.fallbackFirst === true ? undefined : this.#moduleMember(ctx.file.moduleId, name, 0, true, accept);
      if (inModule) return inModule;
      const fallback = ctx.strategy.fallback?.(name, this.#fallbackSite(ctx.file), { scope, want: accept === isClass ? 'type' : 'value' });
      if (fallback) return fallback.toId !== null ? { toId: fallback.toId, code: RESOLUTION_CODES[fallback.resolution] } : unresolved(RESOLUTION_CODES[fallback.reason]);
      if (ctx.strategy.builtins.has(name)) return unresolved(RESOLUTION_CODES.builtin);
      return NOT_FOUND;
    });
    if (key !== undefined) this.#memo.set(key, { outcome: value, deps: names });
    return value;
  }

  /**
   * `name` in module `moduleId`: its top-level definitions, the names its imports and
   * assignments bind (followed to their definitions), then its star imports and submodules.
   * `own` is true for the site's own module (every definition counts; an exporting language
   * lets other modules see only what is exported). Undefined when nothing binds the name.
   * `accept` narrows which of the module's own definitions count.
   */
  #moduleMember(moduleId: number, name: string, depth: number, own: boolean, accept?: (s: GraphSymbol) => boolean): Outcome | undefined {
    if (depth > MAX_DEPTH) return unresolved(RESOLUTION_CODES.ambiguous);
    const reader = this.#reader;
    const module = reader.symbol(moduleId);
    if (!module) return undefined;
    const file = reader.file(module.fileId);
    if (!file) return undefined;
    const strategy = this.#strategyOf(file.language);
    const localLabel = own ? RESOLUTION_CODES.local : RESOLUTION_CODES.import;
    const named = reader.bindingsNamed(file.id, name);
    const bindings = named.length === 0 ? named : named.filter((b) => b.scopeId === null);
    const candidates: Outcome[] = [];
    if (strategy.sharedModules === true) {
      // The package's other files: their top-level definitions (their imports are their own).
      for (const part of this.#modulesAllNamed(module.name, strategy)) {
        if (part.id === moduleId) continue;
        for (const s of reader.children(part.id, name)) candidates.push({ toId: s.id, code: own ? RESOLUTION_CODES.package : RESOLUTION_CODES.import });
      }
    }
    if (!strategy.exportsOnly || own) {
      for (const s of accepted(reader.children(moduleId, name), accept)) candidates.push({ toId: s.id, code: localLabel });
      for (const b of bindings) {
        if (b.kind === 'star' || b.kind === 'export') continue;
        candidates.push(b.kind === 'assign' ? unresolved(RESOLUTION_CODES.dynamic) : relabel(this.#followBinding(b, file, depth + 1), RESOLUTION_CODES.import));
      }
    } else {
      // Another module asks: only exported names. `export function f` / `export class C` are
      // flagged exported; `export { a as b }` and re-exports are export bindings.
      for (const s of reader.children(moduleId, name)) if ((s.flags & 1) !== 0) candidates.push({ toId: s.id, code: RESOLUTION_CODES.import });
      for (const b of bindings) {
        if (b.kind !== 'export') continue;
        if (b.module !== null) candidates.push(this.#memberOfSpecifier(b.module, b.member ?? name, file, depth + 1));
        else candidates.push(this.#moduleMember(moduleId, b.member ?? name, depth + 1, true) ?? NOT_FOUND);
      }
    }
    const direct = combine(candidates);
    if (direct) return direct;
    // Star imports: each module's public names; one outside the codebase may bind anything.
    const stars: Outcome[] = [];
    for (const b of reader.bindingsNamed(file.id, '*')) {
      if (b.scopeId !== null || b.kind !== 'star' || b.module === null) continue;
      if (strategy.isPrivateName?.(name) === true) continue;
      const target = this.#resolveModule(b.module, file);
      if (target.toId === null) {
        stars.push(target);
        continue;
      }
      if (!this.#starExports(target.toId, name)) continue;
      const found = this.#moduleMember(target.toId, name, depth + 1, false);
      if (found) stars.push(relabel(found, RESOLUTION_CODES.import));
    }
    if (stars.length > 0) {
      const resolvedStars = stars.filter((s) => s.toId !== null);
      // A codebase module that binds the name, next to one we cannot see into: either may win.
      if (resolvedStars.length > 0 && resolvedStars.length < stars.length) return unresolved(RESOLUTION_CODES.ambiguous);
      return combine(stars);
    }
    if (strategy.submodulesAreMembers) {
      const sub = this.#modulesNamed(`${module.name}.${name}`, strategy, file);
      if (sub === 'ambiguous') return unresolved(RESOLUTION_CODES.ambiguous);
      if (sub) return { toId: sub.id, code: RESOLUTION_CODES.import };
    }
    return undefined;
  }

  /**
   * Whether a star import of `moduleId` binds `name`: a module that lists its exports (Python
   * `__all__`) binds only those; otherwise every name it binds (privacy is checked by the caller).
   */
  #starExports(moduleId: number, name: string): boolean {
    const module = this.#reader.symbol(moduleId);
    if (!module) return false;
    const exports = this.#reader.bindings(module.fileId).filter((b) => b.scopeId === null && b.kind === 'export' && b.module === null);
    const file = this.#reader.file(module.fileId);
    if (exports.length === 0 || (file && this.#strategyOf(file.language).exportsOnly)) return true;
    return exports.some((b) => b.name === name);
  }

  /** Where an import binding leads. */
  #followBinding(b: GraphBinding, file: GraphFile, depth: number): Outcome {
    if (b.module === null) return NOT_FOUND;
    if (b.kind === 'module') return this.#resolveModule(b.module, file);
    if (b.kind === 'member') return this.#memberOfSpecifier(b.module, b.member ?? b.name, file, depth);
    return NOT_FOUND;
  }

  /** `member` of the module an import specifier names. */
  #memberOfSpecifier(specifier: string, member: string, file: GraphFile, depth: number): Outcome {
    const target = this.#resolveModule(specifier, file);
    if (target.toId === null) return target;
    return this.#moduleMember(target.toId, member, depth, false) ?? NOT_FOUND;
  }

  /** The module an import specifier names from `file`, or why not (outside the codebase: external). */
  #resolveModule(specifier: string, file: GraphFile): Outcome {
    const strategy = this.#strategyOf(file.language);
    const fromModule = this.#reader.symbol(file.moduleId);
    for (const name of strategy.importTargets(specifier, fromModule?.name ?? '', file.path)) {
      const module = this.#modulesNamed(name, strategy, file);
      if (module === 'ambiguous') return unresolved(RESOLUTION_CODES.ambiguous);
      if (module) return { toId: module.id, code: RESOLUTION_CODES.import };
    }
    return unresolved(RESOLUTION_CODES.external);
  }

  /** Every module symbol named `name` in the strategy's family (the files of a shared module), in id order. */
  #modulesAllNamed(name: string, strategy: LanguageGraph): readonly GraphSymbol[] {
    const reader = this.#reader;
    return reader.named(name).filter((s) => {
      if (s.kind !== 'module') return false;
      const f = reader.file(s.fileId);
      return f !== undefined && this.#strategyOf(f.language).family === strategy.family;
    });
  }

  /**
   * The one module named `name` in the strategy's family; 'ambiguous' when several tie. For a
   * shared module (a package of several files) its first file's module stands for it.
   */
  #modulesNamed(name: string, strategy: LanguageGraph, _from: GraphFile): GraphSymbol | 'ambiguous' | undefined {
    const reader = this.#reader;
    const modules = this.#modulesAllNamed(name, strategy);
    if (modules.length <= 1 || strategy.sharedModules === true) return modules[0];
    const picked = strategy.pickModule?.(modules.map((m) => ({ path: reader.file(m.fileId)!.path })));
    return picked === undefined ? 'ambiguous' : modules[picked];
  }

  /** The import site's module. */
  #importedModule(specifier: string, ctx: SiteContext): Outcome {
    if (ctx.strategy.includeCandidates) {
      // A plain path is a tail of every module it can mean: adding or removing one of those
      // re-resolves the site by its name (see run.ts). `./a.h` or `../a.h` is not.
      if (!isPlainPath(specifier)) this.#reader.depend(specifier.slice(specifier.lastIndexOf('/') + 1));
      const targets = this.#includeTargets(specifier, ctx.file);
      if (targets.length === 1) return { toId: targets[0]!.id, code: RESOLUTION_CODES.import };
      return unresolved(targets.length === 0 ? RESOLUTION_CODES.external : RESOLUTION_CODES.ambiguous);
    }
    return this.#resolveModule(specifier, ctx.file);
  }

  /**
   * The modules an include of `specifier` in `file` means (several when they tie), found by
   * the end of their path among the modules of the file's family.
   */
  #includeTargets(specifier: string, file: GraphFile): readonly GraphSymbol[] {
    const reader = this.#reader;
    const strategy = this.#strategyOf(file.language);
    const fileName = specifier.slice(specifier.lastIndexOf('/') + 1);
    const key = `${strategy.family}\u0000${fileName}`;
    let modules = this.#familyModules.get(key);
    if (modules === undefined) {
      modules = reader.modulesWithFileName(fileName).filter((m) => this.#inFamily(m.fileId, strategy.family));
      this.#familyModules.set(key, modules);
    }
    if (modules.length === 0) return [];
    // The answer depends on the including file's folder only: files of one folder share it.
    const fromModule = reader.symbol(file.moduleId)?.name ?? '';
    const pickKey = `${key}\u0000${specifier}\u0000${fromModule.slice(0, fromModule.lastIndexOf('/') + 1)}`;
    let targets = this.#picked.get(pickKey);
    if (targets === undefined) {
      const picked = strategy.includeCandidates!(specifier, fromModule, modules);
      targets = picked.map((i) => modules[i]).filter((m): m is GraphSymbol => m !== undefined);
      if (this.#picked.size >= 200_000) this.#picked.clear();
      this.#picked.set(pickKey, targets);
    }
    return targets;
  }

  /** Whether a file's language is of `family`. */
  #inFamily(fileId: number, family: string): boolean {
    const f = this.#reader.file(fileId);
    return f !== undefined && this.#strategyOf(f.language).family === family;
  }

  /**
   * The files one file includes (every module that ties), by file id; `#includesExternal`
   * marks a file some include of which is outside the codebase. Kept for the pass, as typed
   * arrays: a closure walks them millions of times over the Linux tree.
   */
  #includesOf(fileId: number): Int32Array {
    let out = this.#includes[fileId];
    if (out === undefined) {
      const file = this.#reader.file(fileId);
      const files: number[] = [];
      let external = false;
      if (file) {
        for (const specifier of this.#reader.imports(file.moduleId)) {
          const targets = this.#includeTargets(specifier, file);
          if (targets.length === 0) external = true;
          for (const t of targets) if (!files.includes(t.fileId)) files.push(t.fileId);
        }
      }
      out = Int32Array.from(files);
      this.#includes[fileId] = out;
      if (external) {
        if (fileId >= this.#includesExternal.length) {
          const grown = new Uint8Array(Math.max(fileId + 1, this.#includesExternal.length * 2));
          grown.set(this.#includesExternal);
          this.#includesExternal = grown;
        }
        this.#includesExternal[fileId] = 1;
      }
    }
    return out;
  }

  /**
   * The files a file sees through its includes, transitively, itself included. Its
   * dependencies are not tracked per site: run.ts re-resolves every file whose includes may
   * have changed. A Linux `.c` file sees a thousand headers or more (an architecture's
   * `<asm/io.h>` means one per architecture): a bit set, built by a walk that stops at headers
   * many files reach, whose own closure it keeps and merges whole.
   */
  #visible(file: GraphFile): Visible {
    let out = this.#visibleCache.get(file.id);
    if (out === undefined) {
      const strategy = this.#strategyOf(file.language);
      // Sites come file by file: a few closures are enough to keep (their bit sets are reused).
      let files: FileSet | undefined;
      if (this.#visibleCache.size >= 4) {
        files = this.#visibleCache.values().next().value?.files;
        this.#visibleCache.clear();
      }
      files = files === undefined ? new FileSet() : files.cleared();
      out = strategy.includeCandidates ? this.#reader.untracked(() => this.#closure(file.id, files)) : { files: files.with(file.id), external: false };
      this.#visibleCache.set(file.id, out);
    }
    return out;
  }

  /** The closure of `root` into `files` (empty): a depth-first walk that merges kept closures of hub headers. */
  #closure(root: number, files: FileSet): Visible {
    files.add(root);
    let external = false;
    // What merged closures brought in: a file among them needs no walk (its closure is there too).
    const covered = new FileSet();
    const includes = this.#includes;
    this.#inProgress.add(root);
    // The walk's own stack: a hub's closure is computed in the middle of another walk.
    let stack = new Int32Array(64);
    let top = 0;
    stack[top++] = root;
    while (top > 0) {
      const f = stack[--top]!;
      if (f !== root) {
        if (covered.has(f)) continue;
        let hub = this.#hubs.get(f);
        if (hub) {
          // Most recently used last: the oldest is dropped when there are too many.
          this.#hubs.delete(f);
          this.#hubs.set(f, hub);
        } else hub = this.#hubCandidate(f);
        if (hub) {
          const words = hub.words ?? (hub.words = hub.files.sparse());
          files.addWords(words);
          covered.addWords(words);
          if (hub.external) external = true;
          continue;
        }
      }
      const included = includes[f] ?? this.#includesOf(f);
      if (this.#includesExternal[f] === 1) external = true;
      for (let i = 0; i < included.length; i++) {
        const g = included[i]!;
        if (!files.add(g)) continue;
        if (top >= stack.length) {
          const grown = new Int32Array(stack.length * 2);
          grown.set(stack);
          stack = grown;
        }
        stack[top++] = g;
      }
    }
    this.#inProgress.delete(root);
    return { files, external };
  }

  /**
   * A header's closure, computed and kept once walks have reached it often enough, if it is
   * big enough to be worth merging (a small one is walked: `#reached` then stays at its cap).
   */
  #hubCandidate(fileId: number): Visible | undefined {
    if (fileId >= this.#reached.length) {
      const grown = new Uint16Array(Math.max(fileId + 1, this.#reached.length * 2));
      grown.set(this.#reached);
      this.#reached = grown;
    }
    const reached = this.#reached[fileId]!;
    if (reached !== HUB_THRESHOLD) {
      if (reached < HUB_THRESHOLD) this.#reached[fileId] = reached + 1;
      return undefined;
    }
    if (this.#inProgress.has(fileId)) return undefined; // an include cycle back to a walk under way
    const hub = this.#closure(fileId, new FileSet());
    if (hub.files.size < MIN_HUB_SIZE) {
      this.#reached[fileId] = HUB_THRESHOLD + 1; // small: walk it from now on
      return hub;
    }
    if (this.#hubs.size >= MAX_HUBS) this.#hubs.delete(this.#hubs.keys().next().value!);
    this.#hubs.set(fileId, hub);
    return hub;
  }


  /** A class named by a base clause or a member_of edge: a plain or qualified name that must be a class. */
  #classNamed(name: string, receiver: ReceiverFact | undefined, ctx: SiteContext): Outcome {
    const outcome = receiver?.kind === 'path' ? this.#qualified(receiver.path, name, ctx, 'type') : this.#plain(name, ctx, isClass);
    if (outcome.toId === null) return outcome;
    return this.#reader.symbol(outcome.toId)?.kind === 'class' ? outcome : NOT_FOUND;
  }

  /** A type as written (`Foo`, `models.Foo`); with `constructed`, a name that is called and must be a class. */
  #typeNamed(type: string, ctx: SiteContext, constructed: boolean): Outcome {
    const parts = type.split('.');
    const last = parts.pop()!;
    const outcome = parts.length > 0 ? this.#qualified(parts, last, ctx, 'type') : this.#plain(last, ctx, isClass);
    if (outcome.toId === null) return outcome;
    const symbol = this.#reader.symbol(outcome.toId);
    if (symbol?.kind === 'class') return outcome;
    // `x = make()` where make is a function: x is whatever make returns.
    return unresolved(constructed ? RESOLUTION_CODES.dynamic : RESOLUTION_CODES['not-found']);
  }

  /** `a.b.name`: the head as a plain name, then each part as a member of a module or class (`want`: a type, or any value). */
  #qualified(path: readonly string[], name: string, ctx: SiteContext, want: 'type' | 'value' = 'value'): Outcome {
    let current = this.#plain(path[0]!, ctx);
    if (current.toId === null && ctx.strategy.qualifiedNames === true && ctx.strategy.fallback) {
      // A head that is no definition may be a namespace (C++ `geo::util::log`, `geo::Circle::area`):
      // the qualifier as a class inside namespaces, else the name as a namespace member.
      const fallback = ctx.strategy.fallback;
      const site = this.#fallbackSite(ctx.file);
      const scope = this.#scopeOf(ctx);
      const asOutcome = (o: FallbackOutcome | undefined): Outcome =>
        o === undefined ? NOT_FOUND : o.toId !== null ? { toId: o.toId, code: RESOLUTION_CODES.qualified } : unresolved(RESOLUTION_CODES[o.reason]);
      if (path.length > 1) {
        const container = asOutcome(fallback(path[path.length - 1]!, site, { scope, qualifier: path.slice(0, -1), want: 'type' }));
        const cls = container.toId === null ? undefined : this.#reader.symbol(container.toId);
        if (cls?.kind === 'class') return relabel(this.#classMember(cls, name, new Set()), RESOLUTION_CODES.qualified);
      }
      return asOutcome(fallback(name, site, { scope, qualifier: path, want }));
    }
    const label = current.code;
    for (const part of [...path.slice(1), name]) {
      if (current.toId === null) return current;
      const container = this.#reader.symbol(current.toId);
      if (!container) return NOT_FOUND;
      if (container.kind === 'module') current = this.#moduleMember(container.id, part, 0, false) ?? NOT_FOUND;
      else if (container.kind === 'class') current = this.#classMember(container, part, new Set());
      else return unresolved(RESOLUTION_CODES.dynamic); // an attribute of a function's value
    }
    return relabel(current, label);
  }

  /** `name` in a class or, depth-first in declaration order, its bases. */
  #classMember(cls: GraphSymbol, name: string, seen: Set<number>): Outcome {
    const own = this.#reader.children(cls.id, name);
    if (own.length > 0) return combine(own.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.self })))!;
    return this.#baseMember(cls, name, seen);
  }

  /** `name` in the bases of a class (not the class itself), depth-first in declaration order. */
  #baseMember(cls: GraphSymbol, name: string, seen: Set<number>): Outcome {
    if (seen.has(cls.id) || seen.size > 64) return unresolved(RESOLUTION_CODES.ambiguous);
    seen.add(cls.id);
    // The answer depends on this class's bases: a change to its file must re-resolve the site.
    this.#reader.depend(cls.name);
    let unknownBase = false;
    for (const baseId of this.#reader.bases(cls.id)) {
      if (baseId === null) {
        unknownBase = true;
        continue;
      }
      const base = this.#reader.symbol(baseId);
      if (!base) continue;
      const found = this.#classMember(base, name, seen);
      if (found.toId !== null) return unknownBase ? unresolved(RESOLUTION_CODES.ambiguous) : found;
      if (found.code === RESOLUTION_CODES.external || found.code === RESOLUTION_CODES.ambiguous) unknownBase = true;
    }
    return unknownBase ? unresolved(RESOLUTION_CODES.external) : NOT_FOUND;
  }

  /** `super(...)`: the constructor of the enclosing class's base (or that base itself). */
  #superConstructor(ctx: SiteContext): Outcome {
    const cls = this.#enclosingClass(ctx);
    if (!cls) return NOT_FOUND;
    const bases = this.#reader.bases(cls.id);
    const first = bases[0];
    if (first === undefined) return NOT_FOUND;
    if (first === null) return unresolved(RESOLUTION_CODES.external);
    for (let base = this.#reader.symbol(first), guard = 0; base && guard < MAX_DEPTH; guard++) {
      const ctor = this.#ownConstructor(base, ctx);
      if (ctor) return { toId: ctor.id, code: RESOLUTION_CODES.super };
      const next = this.#reader.bases(base.id)[0];
      if (next === undefined) return { toId: base.id, code: RESOLUTION_CODES.super };
      if (next === null) return unresolved(RESOLUTION_CODES.external);
      base = this.#reader.symbol(next);
    }
    return NOT_FOUND;
  }

  #ownConstructor(cls: GraphSymbol, ctx: SiteContext): GraphSymbol | undefined {
    const file = this.#reader.file(cls.fileId);
    const strategy = file ? this.#strategyOf(file.language) : ctx.strategy;
    for (const ctorName of strategy.constructorNames(cls.name)) {
      const found = this.#reader.children(cls.id, ctorName).filter((s) => s.kind !== 'class');
      if (found.length === 1) return found[0];
    }
    return undefined;
  }

  /** The class a site's `self` means: the nearest enclosing class, or the class a method was joined to. */
  #enclosingClass(ctx: SiteContext): GraphSymbol | undefined {
    for (const s of ctx.chain) {
      if (s.kind === 'class') return s;
      if (s.kind === 'method') {
        const owner = this.#reader.memberOf(s.id);
        if (owner !== null) return this.#reader.symbol(owner);
      }
    }
    return undefined;
  }

  /** The lookup scope of a site's caller (C++: the namespaces and classes around it), '' without one. */
  #scopeOf(ctx: SiteContext): string {
    if (ctx.scope === undefined) ctx.scope = ctx.strategy.lookupScope?.(ctx.chain[0]!) ?? '';
    return ctx.scope;
  }

  /** What a language's fallback may read (see FallbackSite), one object per file. */
  #fallbackSite(file: GraphFile): FallbackSite {
    if (this.#lastFallback?.file === file) return this.#lastFallback;
    const reader = this.#reader;
    const strategy = this.#strategyOf(file.language);
    const site: FallbackSite = {
      file,
      named: (name) =>
        reader.named(name).map((s) => {
          const f = reader.file(s.fileId);
          return { id: s.id, kind: s.kind, fileId: s.fileId, parentId: s.parentId, flags: s.flags, path: f?.path ?? '', language: f?.language ?? '' };
        }),
      bindings: (fileId) => reader.bindings(fileId),
      modulesNamed: (name) =>
        this.#modulesAllNamed(name, strategy).map((m) => ({ fileId: m.fileId, moduleId: m.id, path: reader.file(m.fileId)?.path ?? '' })),
      depend: (name) => reader.depend(name),
      symbolsNamed: (name) => reader.named(name),
      declarations: (name) => reader.declarations(name),
      visible: () => this.#visible(file),
      inFamily: (fileId) => this.#inFamily(fileId, strategy.family),
    };
    this.#lastFallback = site;
    return site;
  }

  #chain(from: GraphSymbol): GraphSymbol[] {
    const chain: GraphSymbol[] = [];
    for (let s: GraphSymbol | undefined = from, guard = 0; s && guard < 64; guard++) {
      chain.push(s);
      s = s.parentId === null ? undefined : this.#reader.symbol(s.parentId);
    }
    return chain;
  }
}
