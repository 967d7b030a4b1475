import { AWAIT_PART, CONTAINER_TYPE, ELEMENT_PART, RESULT_PART, indexedElement } from './container-types.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import { admitsArity, onlyVariadicTakes, SYMBOL_FLAGS } from './describe.js';
import type { ReceiverFact } from './facts.js';
import type { GraphBinding, GraphFile, GraphReader, GraphSymbol } from './reader.js';
import type { SiteShape } from './site.js';
import type { CompiledFile, FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from './strategy.js';
import { starKey } from './changes.js';
import { c3Merge } from './c3.js';

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
/** Re-exports followed for a module-level value's class (`from .sites import site`, LanguageGraph.valuesReexported). */
const MAX_REEXPORTS = 4;

/** A name written as a class's (CapWords in its last part: `Path`, `pathlib.Path`), not a function's (`import_module`, `re.compile`). */
const CLASS_NAMED = /(?:^|[.:])_*[A-Z][^.:]*$/;

/** Whether a type path reads a call's result on the way (`make.().Store`, `find.(await)`). */
function hasCallPart(type: string): boolean {
  return type.includes(`.${RESULT_PART}`) || type.includes(`.${AWAIT_PART}`);
}

/** Unresolved outcomes, most telling cause first when several candidates fail. */
const CAUSE_ORDER: readonly Code[] = [
  RESOLUTION_CODES.ambiguous,
  RESOLUTION_CODES.external,
  RESOLUTION_CODES.dynamic,
  RESOLUTION_CODES.builtin,
  RESOLUTION_CODES['not-found'],
];

const unresolved = (code: Code): Outcome => ({ toId: null, code });
const NOT_FOUND = unresolved(RESOLUTION_CODES['not-found']);

/**
 * Whether a class member lookup that found nothing says the class may have the member all the
 * same: through a base outside the codebase (`external`) or one of unknown members, computed or
 * unresolved (`dynamic`). A name further out (an outer class's, a module's) must not be taken then.
 */
function mayInherit(code: number): boolean {
  return code === RESOLUTION_CODES.external || code === RESOLUTION_CODES.dynamic;
}

/** Types every class is below (Kotlin's `Any`, C#'s `object`): an extension of one applies to every receiver. */
const ROOT_TYPES: ReadonlySet<string> = new Set(['Any', 'kotlin.Any', 'object', 'Object', 'System.Object']);

/** What an extension of a root type extends, among class ids (no symbol has it). */
const ROOT = -1;

/** The namespace part of a top-level type's qualified name (`N.Ext` → `N`; '' for the global namespace). */
function namespaceOf(qualifiedName: string): string {
  const dot = qualifiedName.lastIndexOf('.');
  return dot < 0 ? '' : qualifiedName.slice(0, dot);
}

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
/**
 * Site contexts kept at most (one per caller: the kernel has 850,000). Sites come caller by
 * caller, so a few thousand are plenty; each holds its caller's chain of symbols (about 450
 * bytes: 65,536 of them were 29 MB of the kernel pass's live heap, which V8 sizes at up to four
 * times what is live).
 */
const MAX_CONTEXTS = 8192;
/**
 * Include picks kept at most (see Resolver.#includeTargets). A pick is asked again only by the
 * files of one folder, which come together: the kernel's 116,000 picks held 41 MB of the pass's
 * live heap when all were kept.
 */
const MAX_PICKS = 16_384;

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

/**
 * A module's own names among the symbols stored under it: not the methods declared at its top
 * level outside their class (Go methods, Rust `impl` items, C++ `Shape::rename`), which belong
 * to their class (member_of) and are never reached by a plain or module-qualified name.
 */
function moduleLevel(symbols: readonly GraphSymbol[]): readonly GraphSymbol[] {
  return symbols.some((s) => s.kind === 'method') ? symbols.filter((s) => s.kind !== 'method') : symbols;
}

/** A definition bound inside a function or block it is not nested in (DefinitionFlag `enclosed`): no module name outside that scope. */
function enclosed(s: GraphSymbol): boolean {
  return (s.flags & SYMBOL_FLAGS.enclosed) !== 0;
}

/** `symbols` without the `enclosed` ones (the same array when there are none). */
function withoutEnclosed(symbols: readonly GraphSymbol[]): readonly GraphSymbol[] {
  return symbols.some(enclosed) ? symbols.filter((s) => !enclosed(s)) : symbols;
}

/** A function stored in an object literal or a property (DefinitionFlag `member-value`): reached through the object, it binds no name. */
function storedInObject(s: GraphSymbol): boolean {
  return (s.flags & SYMBOL_FLAGS['member-value']) !== 0;
}

/**
 * The parameter types of the methods named `name` taking `arity` arguments, read from a class's
 * method summaries (`- public void write(byte[] b)`, `- fun write(b: Int)`), one text per
 * method with names, modifiers and spaces left out (`byte[]`, `Map<K,V>,int`).
 */
function parameterTypes(summary: string | null, name: string, arity: number): string[] {
  if (summary === null) return [];
  const out: string[] = [];
  const head = new RegExp(`(?:^|[\\s.])${name.replace(/[$]/g, '\\$')}\\s*(?:<[^()]*>\\s*)?\\(`, 'g');
  for (const line of summary.split('\n')) {
    head.lastIndex = 0;
    const m = head.exec(line);
    if (!m) continue;
    const open = m.index + m[0].length;
    let depth = 0;
    let close = -1;
    for (let i = open; i < line.length; i++) {
      const c = line[i];
      if (c === '(' || c === '<' || c === '[') depth++;
      else if (c === ']' || c === '>') depth--;
      else if (c === ')') {
        if (depth === 0) {
          close = i;
          break;
        }
        depth--;
      }
    }
    if (close < 0) continue;
    const params = splitTopLevel(line.slice(open, close));
    if (params.length !== arity) continue;
    out.push(params.map(parameterType).join(','));
  }
  return out;
}

/** `a, Map<K, V> b, int c` → its parts at depth 0 ('' → none). */
function splitTopLevel(text: string): string[] {
  if (text.trim() === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<' || c === '(' || c === '[') depth++;
    else if (c === '>' || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** One parameter's type: `final byte[] b` → `byte[]`, `b: Int = 0` → `Int`, `@NonNull String s` → `String`. */
function parameterType(param: string): string {
  let p = param.replace(/@[\w.]+(\([^)]*\))?/g, ' ').replace(/=.*$/s, '').trim();
  const colon = p.indexOf(':');
  if (colon >= 0 && !p.slice(0, colon).includes('<')) return p.slice(colon + 1).replace(/\s+/g, '');
  p = p.replace(/^(final|in|out|ref|params|this|readonly|scoped)\s+/g, '');
  // `byte b[]` is `byte[] b`.
  const dims = /(\s*\[\s*\])+$/.exec(p);
  const brackets = dims ? dims[0].replace(/\s+/g, '') : '';
  if (dims) p = p.slice(0, dims.index);
  const name = /\s+[\w$]+$/.exec(p);
  // Overriding goes by erasure: `Map<?, ?>` and `Map<? extends K, ? extends V>` are one type.
  return eraseTypeArguments((name ? p.slice(0, name.index) : p).replace(/\s+/g, '')) + brackets;
}

/** `Map<K,List<V>>[]` → `Map[]`. */
function eraseTypeArguments(type: string): string {
  let out = '';
  let depth = 0;
  for (const c of type) {
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (depth === 0) out += c;
  }
  return out;
}

/**
 * Whether a class may be one of several definitions of one class: any class of a language whose
 * classes are open (Ruby), a class declared `partial` of one whose partial classes are (C#).
 */
function isOpen(cls: GraphSymbol, strategy: LanguageGraph | undefined): strategy is LanguageGraph {
  return strategy?.openClasses === true || (strategy?.partialClasses === true && (cls.flags & SYMBOL_FLAGS.partial) !== 0);
}

/** Whether a language's classes may have several definitions (see {@link isOpen}): an outcome names their first. */
function classesReopen(strategy: LanguageGraph): boolean {
  return strategy.openClasses === true || strategy.partialClasses === true;
}

/** Whether a class's field summaries assign `name` (`- m = None`, `- m: Callable = f`). */
function assignsAttribute(fields: string | null, name: string): boolean {
  if (fields === null) return false;
  for (const line of fields.split('\n')) {
    const text = line.startsWith('- ') ? line.slice(2) : line;
    if (text.startsWith(name) && ASSIGNED_AFTER_NAME.test(text.slice(name.length))) return true;
  }
  return false;
}

/** What follows an attribute's name in a field summary line that assigns it: `= 1`, `: int = 1` (not `== 1`). */
const ASSIGNED_AFTER_NAME = /^\s*(:[^=]*)?=(?!=)/;

/** Characters no name of a site holds where {@link assignedAttributes} answers for it. */
const NOT_IN_PLAIN_NAMES = /[\s:=]/;

/**
 * The names {@link assignsAttribute} is true for, of a field summary: each line's head up to
 * its first space, `:` or `=`, when what follows assigns. Exact for names without those
 * characters (every Python name).
 */
function assignedAttributes(fields: string | null): ReadonlySet<string> {
  const out = new Set<string>();
  if (fields === null) return out;
  for (const line of fields.split('\n')) {
    const text = line.startsWith('- ') ? line.slice(2) : line;
    const end = text.search(NOT_IN_PLAIN_NAMES);
    if (end > 0 && ASSIGNED_AFTER_NAME.test(text.slice(end))) out.add(text.slice(0, end));
  }
  return out;
}

/** A JS/TS member summary line's head: `- public static async *name<T>(`, `- static get x(`; 1: static, 2: the name. */
const MEMBER_HEAD = /^-\s+(?:(?:public|private|protected|readonly|abstract|override|declare|accessor)\s+)*(static\s+)?(?:(?:async|readonly|abstract|override|accessor)\s+)*(?:(?:get|set)\s+)?\*?\s*([#\w$]+)\s*[<(?!:=]/;

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
  /**
   * What the name being looked up must be, where a class and an object share it (Scala
   * companions): a `type` (`new Foo`, a declared type, a base) or a `term` (`Foo.m()`, `Foo()`).
   */
  #use: 'type' | 'term' = 'term';
  /** A receiver is being named (a qualified name's head or middle part): a field may stand for its declared class (LanguageGraph.fieldTypes). */
  #naming = false;
  /** A plain name's lookup passed a class that may inherit fields nobody sees: no field further out is sure. */
  #fieldsHidden = false;
  /** The argument count of the call being resolved, when known: definitions that cannot take it are no candidates (overloads). */
  #arity: number | undefined;
  /** The file of the site being resolved (for {@link LanguageGraph.compiledTogether}). */
  #siteFileId = -1;
  /**
   * The name being looked up is bound by no scope around the site (SiteFact.moduleScope): the
   * module's `enclosed` definitions (bound inside some other function or block) are no candidates.
   */
  #moduleScopeOnly = false;
  /**
   * The name an import in the body of the site's class binds (SiteFact.classBody): the site's
   * own name or its receiver path's head, looked up among that class body's bindings first.
   */
  #classBodyName: string | undefined;
  /** Whether the last qualified path's last name was a member of a value's class (see #qualifiedParts). */
  #memberOfValue = false;
  /** Module-level values whose class is being read (see {@link Resolver.#valueClass}). */
  readonly #valuesInProgress = new Set<string>();
  /** `module:name` lookups in progress (see {@link Resolver.#moduleMember}). */
  readonly #asking = new Set<string>();
  /** Modules by family and name, for one pass (modules do not change during it). */
  readonly #modules = new Map<string, { readonly list: readonly GraphSymbol[]; readonly ids: ReadonlySet<number> }>();
  /** The definitions of each open class, by family and qualified name, for one pass. */
  readonly #openParts = new Map<string, readonly GraphSymbol[]>();
  /** Per shared module (family and name): the names its files' module levels assign (Go `var`, `const`), with those files. */
  readonly #packageValues = new Map<string, ReadonlyMap<string, readonly number[]>>();
  /** Whether some build compiles two files, by site file id then target file id (one pass). */
  readonly #builtTogether = new Map<number, Map<number, boolean>>();
  /** Files as compiledTogether sees them, by id (a pass sees each file as it is throughout). */
  readonly #compiledFiles = new Map<number, CompiledFile | undefined>();
  /** Site contexts by caller: a caller's sites share its chain, file and rules. */
  readonly #contexts = new Map<number, SiteContext | null>();
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
  /** Module-level answers for the module of the last sites (see #moduleLevel). */
  readonly #memo = new Map<string, { readonly outcome: Outcome; readonly deps: readonly string[] }>();
  #memoModule = -1;
  /** Modules by family and file name (include lookups), and the picks of includeCandidates, for this pass. */
  readonly #familyModules = new Map<string, readonly GraphSymbol[]>();
  readonly #picked = new Map<string, readonly GraphSymbol[]>();
  /** Linearisations of classes (#orderOf) and the attributes their bodies assign (#assignedIn), for this pass. */
  readonly #orders = new Map<number, { readonly order: readonly number[] | undefined; readonly deps: readonly string[] }>();
  readonly #assigned = new Map<number, ReadonlySet<string>>();
  readonly #instanceAttributes = new Map<number, ReadonlySet<string>>();
  /** What the classes above each class store on instances (#storedOnInstances), for this pass, with the names that depended on. */
  readonly #storedAbove = new Map<number, { readonly names: ReadonlySet<string>; readonly deps: readonly string[] }>();
  /** Answers of #alongOrder, for this pass. */
  readonly #alongOrders = new Map<string, { readonly outcome: Outcome; readonly deps: readonly string[] }>();

  constructor(reader: GraphReader, strategyOf: (language: string) => LanguageGraph) {
    this.#reader = reader;
    this.#strategyOf = strategyOf;
  }

  /**
   * Forgets answers that may have read bases or memberships (module-level answers can pass
   * through classes): after a pass re-resolved structure edges, with the reader's.
   */
  forgetStructure(): void {
    this.#memo.clear();
    this.#orders.clear();
    this.#alongOrders.clear();
    this.#storedAbove.clear();
  }

  /**
   * Drops everything kept between sites (contexts, include lists and closures, module and pick
   * lookups, memoised answers): after a build's last site, before its rows are written, these
   * are garbage the pass would otherwise hold while the database grows (the kernel: 4,096
   * header closures, 54,000 include lists, 116,000 picks). Only caches: a later resolve works
   * the same, reading again what it needs.
   */
  forgetCaches(): void {
    this.#memo.clear();
    this.#orders.clear();
    this.#alongOrders.clear();
    this.#assigned.clear();
    this.#instanceAttributes.clear();
    this.#storedAbove.clear();
    this.#memoModule = -1;
    this.#compiledFiles.clear();
    this.#builtTogether.clear();
    this.#modules.clear();
    this.#openParts.clear();
    this.#packageValues.clear();
    this.#contexts.clear();
    this.#includes.length = 0;
    this.#includesExternal = new Uint8Array(1024);
    this.#hubs.clear();
    this.#reached = new Uint16Array(1024);
    this.#visibleCache.clear();
    this.#lastFallback = undefined;
    this.#familyModules.clear();
    this.#picked.clear();
  }

  /** Where a stored site leads. */
  resolve(site: StoredSite): Outcome {
    let ctx = this.#contexts.get(site.fromId);
    if (ctx === undefined) {
      const from = this.#reader.symbol(site.fromId);
      const file = from ? this.#reader.file(from.fileId) : undefined;
      ctx = from && file ? { file, strategy: this.#strategyOf(file.language), chain: this.#chain(from) } : null;
      // Bounded: sites come caller by caller, so recent callers are the ones asked again.
      if (this.#contexts.size >= MAX_CONTEXTS) this.#contexts.clear();
      this.#contexts.set(site.fromId, ctx);
    }
    if (ctx === null) return NOT_FOUND;
    this.#siteFileId = ctx.file.id;
    const outcome = this.#resolveIn(site, ctx);
    if (outcome.toId !== null && ctx.strategy.compiledTogether !== undefined && !this.#builtWithSite(outcome.toId, ctx)) return unresolved(RESOLUTION_CODES.ambiguous);
    // A reopened class (open classes) is one class: its first definition stands for it.
    return classesReopen(ctx.strategy) ? this.#canonical(outcome) : outcome;
  }

  #resolveIn(site: StoredSite, ctx: SiteContext): Outcome {
    this.#use = site.kind === EDGE_KIND_CODES.calls || site.kind === EDGE_KIND_CODES.references ? (site.shape.construct ? 'type' : 'term') : 'type';
    this.#arity = site.kind === EDGE_KIND_CODES.calls ? site.shape.arity : undefined;
    this.#moduleScopeOnly = false;
    this.#classBodyName = undefined;
    switch (site.kind) {
      case EDGE_KIND_CODES.imports:
        return this.#importedModule(site.name, ctx);
      case EDGE_KIND_CODES.inherits:
      case EDGE_KIND_CODES.implements:
        // A class's bases are named in the scope around it, not among its own (inherited) members
        // (the language's lookup scope of the class is that scope: C++'s `geo` for `geo::Circle`).
        return this.#classNamed(site.name, site.shape.receiver, ctx.chain[0]?.kind === 'class' ? { ...ctx, chain: ctx.chain.slice(1), scope: this.#scopeOf(ctx) } : ctx);
      case EDGE_KIND_CODES.member_of:
        return this.#classNamed(site.name, undefined, ctx);
      case EDGE_KIND_CODES.references:
        return site.shape.dotted === true ? this.#dottedPath(site.name, ctx) : this.#value(site, ctx, false);
      default:
        return this.#value(site, ctx, true);
    }
  }

  /**
   * A dotted path written in a string (SiteFact.dotted): the member of the module the path
   * before its last part names (`'shop.mail.send'`, as `from shop.mail import send`), else the
   * module the whole path names; anything else is outside the codebase.
   */
  #dottedPath(path: string, ctx: SiteContext): Outcome {
    const cut = path.lastIndexOf('.');
    const member = cut > 0 ? this.#memberOfSpecifier(path.slice(0, cut), path.slice(cut + 1), ctx.file, 0) : NOT_FOUND;
    if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return relabel(member, RESOLUTION_CODES.qualified);
    const module = this.#resolveContainer(path, ctx.file);
    if (module.toId !== null || module.code === RESOLUTION_CODES.ambiguous) return relabel(module, RESOLUTION_CODES.qualified);
    return unresolved(RESOLUTION_CODES.external);
  }

  /** A call (`call` true: a class target means its constructor) or a value use. */
  #value(site: StoredSite, ctx: SiteContext, call: boolean): Outcome {
    const { shape, name } = site;
    if (shape.superConstructor) return this.#superConstructor(ctx);
    const r = shape.receiver;
    // No enclosing function binds the name (the visitor knows its scopes): the module's names only.
    const moduleScopeOnly = shape.moduleScope === true && (r === undefined || r.kind === 'path');
    if (moduleScopeOnly) ctx = { ...ctx, chain: ctx.chain.slice(-1) };
    this.#moduleScopeOnly = moduleScopeOnly;
    this.#classBodyName = shape.classBody === true ? (r === undefined ? name : r.kind === 'path' ? r.path[0] : undefined) : undefined;
    let outcome: Outcome;
    if (r === undefined) outcome = this.#plain(name, ctx, call && !shape.construct, shape.construct ? 'type' : 'value');
    else if (r.kind === 'self' && r.attribute !== undefined) {
      // `this.client.get()`, the attribute declared `client: Client` by a base.
      const cls = this.#enclosingClass(ctx);
      const attribute = cls ? this.#inheritedAttributeClass(cls, r.attribute) : undefined;
      const holder = attribute === undefined ? undefined : this.#reader.symbol(attribute);
      outcome = holder?.kind === 'class' ? this.#onInstances(holder, name, relabel(this.#classMember(holder, name, new Set()), RESOLUTION_CODES.typed), ctx) : unresolved(RESOLUTION_CODES.dynamic);
    } else if (r.kind === 'self') {
      const cls = this.#enclosingClass(ctx);
      // null: an extension function's receiver type outside the codebase, whose members are unknown.
      outcome = cls ? relabel(this.#classMember(cls, name, new Set()), RESOLUTION_CODES.self) : cls === null ? unresolved(RESOLUTION_CODES.external) : NOT_FOUND;
      if (cls && outcome.code === RESOLUTION_CODES['not-found'] && ctx.strategy.extensionReceivers !== undefined) outcome = relabel(this.#extensionFor(cls, name, ctx), RESOLUTION_CODES.self);
      if (cls) outcome = this.#onInstances(cls, name, outcome, ctx);
      // Ruby's `puts` in a method is `self.puts`: what the class and its bases do not define may be the language's (Kernel's).
      if (ctx.strategy.implicitSelf === true && outcome.code === RESOLUTION_CODES['not-found'] && ctx.strategy.builtins.has(name)) outcome = unresolved(RESOLUTION_CODES.builtin);
    } else if (r.kind === 'super' && r.type === undefined) {
      const cls = this.#enclosingClass(ctx);
      outcome = cls ? relabel(this.#superMember(cls, name, ctx), RESOLUTION_CODES.super) : NOT_FOUND;
    } else if (r.kind === 'type' || r.kind === 'super') {
      const use = this.#use;
      const arity = this.#arity;
      this.#use = 'type';
      this.#arity = undefined;
      const constructed = r.kind === 'type' && r.constructed === true;
      const cls = this.#typeNamed(r.type!, ctx, constructed);
      this.#use = use;
      this.#arity = arity;
      const label = r.kind === 'super' ? RESOLUTION_CODES.super : RESOLUTION_CODES.typed;
      outcome = cls.toId === null ? cls : relabel(this.#classMember(this.#reader.symbol(cls.toId)!, name, new Set()), label);
      // `module = import_module(name)`: what an outside function returns is of no known type, nor
      // is anything read from it (`import_module(name).SessionStore()`: maybe the codebase's).
      const throughCall = r.kind === 'type' && hasCallPart(r.type);
      if ((constructed || throughCall) && cls.code === RESOLUTION_CODES.external && ctx.strategy.constructsByCall === true && (throughCall || !CLASS_NAMED.test(r.type!))) {
        outcome = unresolved(RESOLUTION_CODES.dynamic);
      }
      // `x = getattr(o, name)`, `d.get(k)` on a dict: what the builtin returns may be the codebase's.
      const untypedBuiltins = ctx.strategy.untypedBuiltinResults;
      if ((constructed || throughCall) && cls.code === RESOLUTION_CODES.builtin && untypedBuiltins !== undefined && (throughCall || untypedBuiltins.has(r.type!))) {
        outcome = unresolved(RESOLUTION_CODES.dynamic);
      }
      // `self.serializer().dumps()`: a member the class does not define may be an attribute its
      // instances or subclasses set, holding anything.
      if (constructed && cls.code === RESOLUTION_CODES['not-found'] && r.type!.includes('.')) outcome = unresolved(RESOLUTION_CODES.dynamic);
      if (r.kind === 'type' && cls.toId !== null && outcome.code === RESOLUTION_CODES['not-found'] && ctx.strategy.extensionReceivers !== undefined) {
        outcome = relabel(this.#extensionFor(this.#reader.symbol(cls.toId)!, name, ctx), label);
      }
      if (r.kind === 'type' && cls.toId !== null) outcome = this.#onInstances(this.#reader.symbol(cls.toId)!, name, outcome, ctx);
    } else {
      outcome = this.#qualified(r.path, name, ctx);
    }
    if (outcome.toId === null) return outcome;
    let target = this.#reader.symbol(outcome.toId);
    if (target?.kind === 'method' && r !== undefined && ctx.strategy.staticMembersApart === true) {
      // `this.create()` in a static method is a static create, `d.run()` an instance run.
      // A path's last name is an instance member where the path reaches a value (`store.get()`).
      const want = (r.kind === 'self' && r.attribute === undefined) || r.kind === 'super' ? this.#inStaticMethod(ctx) : r.kind === 'type' || r.kind === 'self' || this.#memberOfValue ? false : true;
      const is = this.#isStatic(target);
      if (want !== undefined && want !== 'both' && is !== undefined && is !== want) return unresolved(RESOLUTION_CODES.ambiguous);
    }
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
   * A plain name: enclosing functions, the module (definitions, imports), then builtins.
   * `memberCall`: the name is called (not constructed with `new`, not a type): in a language with
   * implicit members, a class with a base outside the codebase may inherit a method of that name,
   * which would hide every name further out, so the call stays unresolved.
   */
  #plain(name: string, ctx: SiteContext, memberCall = false, want: 'type' | 'value' = 'value'): Outcome {
    const hidden = this.#fieldsHidden;
    try {
      return this.#plainIn(name, ctx, memberCall, want);
    } finally {
      this.#fieldsHidden = hidden;
    }
  }

  #plainIn(name: string, ctx: SiteContext, memberCall: boolean, want: 'type' | 'value'): Outcome {
    const reader = this.#reader;
    // Where types and values are named apart (C, C++), a type is a class, a C call never one.
    const accept = want === 'type' ? (ctx.strategy.typesApart === true ? isClass : undefined) : ctx.strategy.callableClasses === false ? notClass : undefined;
    for (const scope of ctx.chain) {
      if (scope.kind === 'module') break;
      if (scope.kind === 'class') {
        // Java-like languages: `m()` in a class means this class's (or a base's) member.
        // (A class's members named like it are its constructors, never called by a plain name.)
        if (ctx.strategy.implicitMembers === true && scope.name !== name) {
          const member = this.#classMember(scope, name, new Set());
          // A field's class (`typed`) keeps its label: the receiver is a value of that class.
          if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return member.code === RESOLUTION_CODES.typed ? member : relabel(member, RESOLUTION_CODES.self);
          if (memberCall && mayInherit(member.code)) return member;
          // A class with a base outside the codebase (or computed) may inherit a field of the name,
          // which would hide one further out (an outer class's, a static import's).
          if (mayInherit(member.code)) this.#fieldsHidden = true;
          // Kotlin: the companion objects' members come next (the class's own, then its bases').
          const companion = ctx.strategy.companionObjects === true ? this.#companionMember(scope, name) : undefined;
          if (companion !== undefined) return companion;
        }
        // Python: a name an import in the class body binds, at a site in that body itself.
        if (this.#classBodyName === name && scope === ctx.chain[0]) {
          const imported = reader.bindingsNamed(ctx.file.id, scope.id, name);
          // The visitor saw the import: never the module's name of the same spelling.
          return imported.length > 0 ? relabel(combine(imported.map((b) => this.#followBinding(b, ctx.file, 0)))!, RESOLUTION_CODES.import) : unresolved(RESOLUTION_CODES.dynamic);
        }
        // Python: a class body's names are not visible from inside its methods.
        continue;
      }
      // A method declared in a function's body (a Rust `impl` there) is no plain name of it.
      // A function stored in an object (`{ name: () => … }`, `o.name = function …`) binds no name.
      const nested = accepted(reader.children(scope.id, name), accept).filter((s) => s.kind !== 'method' && !storedInObject(s) && this.#fits(s));
      if (nested.length > 0) return combine(nested.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.local })))!;
      const imported = reader.bindingsNamed(ctx.file.id, scope.id, name);
      if (imported.length > 0) return relabel(combine(imported.map((b) => this.#followBinding(b, ctx.file, 0)))!, RESOLUTION_CODES.import);
      // A method defined outside its class (C++ `void Shape::draw() { fill(); }`) sees its class's members too.
      if (scope.kind === 'method' && ctx.strategy.implicitMembers === true) {
        const owner = reader.memberOf(scope.id);
        const cls = owner === null ? undefined : reader.symbol(owner);
        if (cls && cls.name !== name) {
          const member = this.#classMember(cls, name, new Set());
          if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return relabel(member, RESOLUTION_CODES.self);
          if (memberCall && mayInherit(member.code)) return member;
        }
      }
      // An extension function's body: its receiver's methods come before any name further out.
      if (ctx.strategy.extensionReceivers === 'top-level' && want === 'value') {
        const receiver = this.#implicitReceiver(scope, name);
        if (receiver !== undefined) return receiver;
      }
    }
    return this.#moduleLevel(name, ctx, want, accept);
  }

  /**
   * A plain name no enclosing function binds: the module's names, the language's fallback,
   * then builtins. The answer depends on the file, the name and what is asked (a type or a
   * value, the lookup scope, the call's argument count) only, so it is kept for the file's
   * other sites of the name, with the names it depended on (replayed for each site).
   */
  #moduleLevel(name: string, ctx: SiteContext, want: 'type' | 'value', accept: ((s: GraphSymbol) => boolean) | undefined): Outcome {
    const scope = this.#scopeOf(ctx);
    // Where fields type receivers, a name naming one may answer otherwise (LanguageGraph.fieldTypes).
    const fields = ctx.strategy.fieldTypes === true && this.#naming ? (this.#fieldsHidden ? 2 : 1) : 0;
    // Where inline modules share the file's module, the mod a function sits in (see #ownItems).
    const mod = ctx.strategy.inlineModules === true ? this.#modOf(ctx) : undefined;
    const key = `${scope}\u0000${want}\u0000${this.#use}\u0000${this.#arity ?? ''}\u0000${this.#moduleScopeOnly ? 1 : 0}\u0000${fields}\u0000${mod ?? ''}\u0000${name}`;
    if (this.#memoModule !== ctx.file.moduleId) {
      this.#memo.clear();
      this.#memoModule = ctx.file.moduleId;
    }
    const hit = this.#memo.get(key);
    if (hit) {
      for (const d of hit.deps) this.#reader.depend(d);
      return hit.outcome;
    }
    const { value, names } = this.#reader.capture((): Outcome => {
      const own = mod === undefined ? undefined : this.#ownItems(ctx.file.moduleId, mod, name, accept);
      if (own) return own;
      const inModule = ctx.strategy.fallbackFirst === true ? undefined : this.#moduleMember(ctx.file.moduleId, name, 0, true, accept);
      if (inModule) return inModule;
      const fallback = this.#askFallback(name, ctx, want === 'type' ? { want, scope } : { scope });
      if (fallback) return fallback;
      if (ctx.strategy.builtins.has(name)) return unresolved(RESOLUTION_CODES.builtin);
      return NOT_FOUND;
    });
    this.#memo.set(key, { outcome: value, deps: names });
    return value;
  }

  /**
   * The inline mod a site's function sits in, as its qualified path (`shop::inner` for a call in
   * `shop::inner::go`), where the language's file modules hold inline mods
   * (LanguageGraph.inlineModules); undefined for a site outside functions (its caller is the
   * file's module, whichever mod holds it) or in a method (its qualified name leads with the
   * type the method belongs to).
   */
  #modOf(ctx: SiteContext): string | undefined {
    const chain = ctx.chain;
    const outermost = chain.length >= 2 && chain[chain.length - 1]!.kind === 'module' ? chain[chain.length - 2]! : undefined;
    if (outermost?.kind !== 'function') return undefined;
    const q = outermost.qualifiedName;
    return q.endsWith(`::${outermost.name}`) ? q.slice(0, q.length - outermost.name.length - 2) : undefined;
  }

  /** The file module's items `name` that inline mod `mod` itself defines, as an answer; undefined without one. */
  #ownItems(moduleId: number, mod: string, name: string, accept: ((s: GraphSymbol) => boolean) | undefined): Outcome | undefined {
    const qualified = `${mod}::${name}`;
    const own = accepted(moduleLevel(this.#reader.children(moduleId, name)), accept).filter((s) => s.qualifiedName === qualified && this.#fits(s));
    return combine(own.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.local })));
  }

  /**
   * `name` in module `moduleId`: its top-level definitions, the names its imports and
   * assignments bind (followed to their definitions), then its star imports and submodules.
   * `own` is true for the site's own module (every definition counts; an exporting language
   * lets other modules see only what is exported). Undefined when nothing binds the name.
   */
  #moduleMember(moduleId: number, name: string, depth: number, own: boolean, accept?: (s: GraphSymbol) => boolean): Outcome | undefined {
    if (depth > MAX_DEPTH) return unresolved(RESOLUTION_CODES.ambiguous);
    // A module asked again for the same name while it is being asked (star imports in a cycle:
    // Rust's `use super::*` under a `pub use self::child::*`) adds nothing it did not have;
    // without this cut, every path around the cycle would be walked to MAX_DEPTH.
    const key = `${moduleId}:${name}`;
    if (this.#asking.has(key)) return undefined;
    this.#asking.add(key);
    try {
      return this.#moduleMemberOnce(moduleId, name, depth, own, accept);
    } finally {
      this.#asking.delete(key);
    }
  }

  #moduleMemberOnce(moduleId: number, name: string, depth: number, own: boolean, accept: ((s: GraphSymbol) => boolean) | undefined): Outcome | undefined {
    const reader = this.#reader;
    const module = reader.symbol(moduleId);
    if (!module) return undefined;
    const file = reader.file(module.fileId);
    if (!file) return undefined;
    const strategy = this.#strategyOf(file.language);
    const localLabel = own ? RESOLUTION_CODES.local : RESOLUTION_CODES.import;
    // A shared module's imports belong to each of its files: another module never sees them.
    const fileScoped = strategy.sharedModules === true && !own;
    const candidates: Outcome[] = [];
    if (strategy.sharedModules === true) {
      // The package's other files: their top-level definitions (their imports are their own).
      // One pass over the symbols of that name, not one per file: Go packages have hundreds.
      const parts = this.#moduleIds(module.name, strategy);
      if (parts.size > 1) {
        // Of the site's own package, only files built with the site's (Go `_linux.go`, `_windows.go`).
        const together = own ? strategy.compiledTogether : undefined;
        const siteFile = together ? this.#compiledFile(module.fileId) : undefined;
        const apart = (fileId: number): boolean => {
          if (!together || siteFile === undefined) return false;
          const other = this.#compiledFile(fileId);
          return other !== undefined && !together(siteFile, other);
        };
        // A package-level `var` or `const` of the name in another file is a value, which a
        // function of the name in a file for other build tags must not outrank; a type alias
        // there (`type Union = types.Union` in Go 1.18's build) no class of the name either.
        for (const fileId of this.#valuesOfPackage(module.name, strategy).get(name) ?? []) {
          if (fileId === module.fileId || apart(fileId)) continue;
          candidates.push(unresolved(RESOLUTION_CODES.dynamic));
          break;
        }
        for (const s of reader.named(name)) {
          if (s.parentId !== null && s.parentId !== moduleId && parts.has(s.parentId) && s.kind !== 'method' && this.#fits(s)) {
            if (apart(s.fileId)) continue;
            candidates.push({ toId: s.id, code: own ? RESOLUTION_CODES.package : RESOLUTION_CODES.import });
          }
        }
      }
    }
    if (!strategy.exportsOnly || own) {
      for (const s of accepted(moduleLevel(reader.children(moduleId, name)), accept)) {
        if (!this.#fits(s) || (own && storedInObject(s)) || (enclosed(s) && (!own || this.#moduleScopeOnly || strategy.siteScopes !== true))) continue;
        candidates.push({ toId: s.id, code: localLabel });
      }
      for (const b of fileScoped ? [] : reader.bindingsNamed(file.id, null, name)) {
        if (b.kind === 'star' || b.kind === 'export') continue;
        if (b.kind === 'member' && b.module !== null) {
          const member = b.member ?? name;
          const container = this.#resolveContainer(b.module, file);
          // `from django.db.models import signals` in django/db/models/__init__.py imports the
          // package's own submodule: what the submodules below find, not a name bound here.
          if (container.toId === moduleId && member === name) continue;
          candidates.push(relabel(this.#memberOfContainer(container, member, depth + 1), RESOLUTION_CODES.import));
          continue;
        }
        candidates.push(b.kind === 'assign' ? unresolved(RESOLUTION_CODES.dynamic) : relabel(this.#followBinding(b, file, depth + 1), RESOLUTION_CODES.import));
      }
    } else {
      // Another module asks: only exported names. `export function f` / `export class C` are
      // flagged exported; `export { a as b }` and re-exports are export bindings.
      for (const s of moduleLevel(reader.children(moduleId, name))) if ((s.flags & 1) !== 0) candidates.push({ toId: s.id, code: RESOLUTION_CODES.import });
      for (const b of reader.bindingsNamed(file.id, null, name)) {
        if (b.kind !== 'export') continue;
        if (b.module !== null) candidates.push(this.#memberOfSpecifier(b.module, b.member ?? name, file, depth + 1));
        // `export const store = …` exports the module's own name (asked as the module asks it,
        // not again through this lookup, which is in progress).
        else if ((b.member ?? name) === name) candidates.push(this.#moduleMemberOnce(moduleId, name, depth + 1, true, undefined) ?? NOT_FOUND);
        else candidates.push(this.#moduleMember(moduleId, b.member ?? name, depth + 1, true) ?? NOT_FOUND);
      }
    }
    // Two definitions of an open class in one module (reopened in its file) are one class.
    const direct = combine(this.#companion(classesReopen(strategy) ? candidates.map((c) => this.#canonical(c)) : candidates));
    if (direct) return direct;
    // Star imports: each module's public names; one outside the codebase may bind anything. The
    // answer now depends on what this module star-imports (GraphChangeLog's star key), unless
    // the module is the site's own file's (a lookup at depth 0 from the site): a change to its
    // star imports rewrites that file, whose every site is resolved again anyway. (The kernel's
    // C calls all fall through here: 4.4 million rows would store their file's key.)
    if (!fileScoped && !(own && depth === 0)) reader.depend(starKey(module.name));
    const stars: Outcome[] = [];
    for (const b of fileScoped ? [] : reader.bindingsOfKind(file.id, 'star')) {
      if (b.module === null) continue;
      if (strategy.isPrivateName?.(name) === true) continue;
      const target = this.#resolveContainer(b.module, file);
      if (target.toId === null) {
        stars.push(target);
        continue;
      }
      const container = this.#reader.symbol(target.toId);
      if (container?.kind === 'class') {
        // `import static a.Util.*`: the class's members.
        const member = this.#classMember(container, name, new Set());
        if (member.toId !== null || member.code !== RESOLUTION_CODES['not-found']) stars.push(relabel(member, RESOLUTION_CODES.import));
        continue;
      }
      if (!this.#starExports(target.toId, name)) continue;
      const found = this.#moduleMember(target.toId, name, depth + 1, false);
      if (found) stars.push(relabel(found, RESOLUTION_CODES.import));
    }
    // The language's implicit on-demand imports (Java's `java.lang.*`), when the codebase holds
    // them: `extends ClassLoader` in the JDK's java.security is java.lang's ClassLoader.
    for (const implicit of fileScoped ? [] : (strategy.implicitStarImports ?? [])) {
      if (implicit === module.name) continue;
      const target = this.#resolveContainer(implicit, file);
      if (target.toId === null) continue;
      const found = this.#moduleMember(target.toId, name, depth + 1, false);
      if (found) stars.push(relabel(found, RESOLUTION_CODES.import));
    }
    if (stars.length > 0) {
      const resolvedStars = stars.filter((s) => s.toId !== null);
      // A codebase module that binds the name, next to one we cannot see into: either may win,
      // unless binding it twice would not compile (then the one we see is the one).
      if (resolvedStars.length > 0 && strategy.starConflictsAreErrors === true) return combine(stars.filter((s) => s.code !== RESOLUTION_CODES.external));
      if (resolvedStars.length > 0 && resolvedStars.length < stars.length) return unresolved(RESOLUTION_CODES.ambiguous);
      return combine(stars);
    }
    if (strategy.submodulesAreMembers) {
      const sub = this.#modulesNamed(strategy.qualify(module.name, [name]), strategy, file);
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
    const exports = this.#reader.bindingsOfKind(module.fileId, 'export').filter((b) => b.module === null);
    const file = this.#reader.file(module.fileId);
    if (exports.length === 0 || (file && this.#strategyOf(file.language).exportsOnly)) return true;
    return exports.some((b) => b.name === name);
  }

  /** Where an import binding leads. */
  #followBinding(b: GraphBinding, file: GraphFile, depth: number): Outcome {
    if (b.module === null) return NOT_FOUND;
    if (b.kind === 'module') return this.#resolveContainer(b.module, file);
    if (b.kind === 'member') return this.#memberOfSpecifier(b.module, b.member ?? b.name, file, depth);
    return NOT_FOUND;
  }

  /** `member` of the module (or, with member imports, the class) an import specifier names. */
  #memberOfSpecifier(specifier: string, member: string, file: GraphFile, depth: number): Outcome {
    return this.#memberOfContainer(this.#resolveContainer(specifier, file), member, depth);
  }

  /** `member` of a resolved import specifier's module or class (see #memberOfSpecifier). */
  #memberOfContainer(target: Outcome, member: string, depth: number): Outcome {
    if (target.toId === null) return target;
    const container = this.#reader.symbol(target.toId);
    if (container?.kind === 'class') return this.#classMember(container, member, new Set());
    return this.#moduleMember(target.toId, member, depth, false) ?? NOT_FOUND;
  }

  /**
   * The module an import specifier names or, in a language with member imports, the class it
   * names inside a module (`a.b.Outer.Inner`: module `a.b`, class `Outer`, its class `Inner`).
   */
  #resolveContainer(specifier: string, file: GraphFile): Outcome {
    const direct = this.#resolveModule(specifier, file);
    const strategy = this.#strategyOf(file.language);
    if (direct.toId !== null || direct.code !== RESOLUTION_CODES.external || strategy.memberImports !== true) return direct;
    const sep = strategy.pathSeparator ?? '.';
    const parts = specifier.split(sep);
    for (let cut = parts.length - 1; cut >= 1; cut--) {
      const module = this.#resolveModule(parts.slice(0, cut).join(sep), file);
      if (module.toId === null) {
        if (module.code === RESOLUTION_CODES.external) continue;
        return module;
      }
      let current: Outcome = module;
      for (const part of parts.slice(cut)) {
        const container = this.#reader.symbol(current.toId!);
        if (container?.kind === 'module') current = this.#moduleMember(container.id, part, 0, false) ?? NOT_FOUND;
        else if (container?.kind === 'class') current = this.#classMember(container, part, new Set());
        else current = NOT_FOUND;
        if (current.toId === null) break;
      }
      if (current.toId !== null && this.#reader.symbol(current.toId)?.kind === 'class') return relabel(current, RESOLUTION_CODES.import);
      // A package of the codebase without that class (Java's `com.acme` beside `com.acme.util`):
      // a shorter prefix may still name the module, else the specifier is outside the codebase.
      if (current.code === RESOLUTION_CODES.ambiguous) return current;
    }
    return direct;
  }

  /** The module an import specifier names from `file`, or why not (outside the codebase: external). */
  #resolveModule(specifier: string, file: GraphFile): Outcome {
    const strategy = this.#strategyOf(file.language);
    const fromModule = this.#reader.symbol(file.moduleId);
    const targets = strategy.importTargets(specifier, fromModule?.name ?? '', file.path);
    for (const name of targets) {
      const module = this.#modulesNamed(name, strategy, file);
      if (module === 'ambiguous') return unresolved(RESOLUTION_CODES.ambiguous);
      if (module) return { toId: module.id, code: RESOLUTION_CODES.import };
    }
    const sep = strategy.pathSeparator;
    if (sep !== undefined) {
      for (const name of targets) {
        const walked = this.#walkModulePath(name.split(sep), sep, strategy, file);
        if (walked) return walked;
      }
    }
    return unresolved(RESOLUTION_CODES.external);
  }

  /**
   * A module path no module is named by, read as a path through members: its longest prefix
   * that names a module, then each further part a member of the one before that is a module
   * (Rust's `use crate::mem::swap` where the crate root says `use core::mem`). Undefined when no
   * prefix is a module or a part is not one.
   */
  #walkModulePath(parts: readonly string[], sep: string, strategy: LanguageGraph, file: GraphFile): Outcome | undefined {
    for (let n = parts.length - 1; n >= 1; n--) {
      const prefix = this.#modulesNamed(parts.slice(0, n).join(sep), strategy, file);
      if (prefix === undefined) continue;
      if (prefix === 'ambiguous') return unresolved(RESOLUTION_CODES.ambiguous);
      let current: GraphSymbol | undefined = prefix;
      for (const part of parts.slice(n)) {
        const next = this.#moduleMember(current.id, part, 1, false);
        current = next?.toId != null ? this.#reader.symbol(next.toId) : undefined;
        if (current?.kind !== 'module') return undefined;
      }
      return { toId: current.id, code: RESOLUTION_CODES.import };
    }
    return undefined;
  }

  /**
   * The class of a module-level value `name` of module `moduleId` that declares its type (a
   * typed `assign` binding: Go's `var userMap sync.Map`, `var std = &Logger{}`), as a `typed`
   * outcome: a receiver of that class, never a call of it. In a shared module (a Go package),
   * every file that some build compiles with `siteFileId` (undefined: any file) and declares the
   * name must declare it of the same class; undefined otherwise, or when one does not say.
   */
  #valueClass(moduleId: number, name: string, siteFileId: number | undefined, depth = 0): Outcome | undefined {
    // `a = b.Make()` with `b = a.Other()`: a value whose class depends on itself has none.
    const key = `${moduleId}\0${name}`;
    if (this.#valuesInProgress.has(key)) return undefined;
    this.#valuesInProgress.add(key);
    try {
      return this.#valueClassOnce(moduleId, name, siteFileId, depth);
    } finally {
      this.#valuesInProgress.delete(key);
    }
  }

  #valueClassOnce(moduleId: number, name: string, siteFileId: number | undefined, depth: number): Outcome | undefined {
    const reader = this.#reader;
    const module = reader.symbol(moduleId);
    const file = module ? reader.file(module.fileId) : undefined;
    if (!module || !file) return undefined;
    const strategy = this.#strategyOf(file.language);
    const files = strategy.sharedModules === true ? (this.#valuesOfPackage(module.name, strategy).get(name) ?? []) : [file.id];
    const site = siteFileId !== undefined && strategy.compiledTogether ? this.#compiledFile(siteFileId) : undefined;
    // Every declaration is read, whatever the first ones say: what the answer depends on (the
    // names looked up) must not depend on the order of the files (an update renumbers them).
    const classes = new Set<number | null>();
    for (const fileId of files) {
      if (site !== undefined) {
        const other = this.#compiledFile(fileId);
        if (other !== undefined && !strategy.compiledTogether!(site, other)) continue;
      }
      const declaring = reader.file(fileId);
      const holder = declaring ? reader.symbol(declaring.moduleId) : undefined;
      for (const b of declaring && holder ? reader.bindingsNamed(fileId, null, name) : []) {
        if (b.kind === 'assign') classes.add(b.module === null ? null : this.#classDeclaredIn(holder!, declaring!, strategy, b.module).toId);
        else if (b.kind === 'member' && b.module !== null && strategy.valuesReexported === true) {
          // `from .sites import site` in a package's __init__: the value the other module made.
          const from = depth < MAX_REEXPORTS ? this.#resolveContainer(b.module, declaring!) : NOT_FOUND;
          const container = from.toId === null ? undefined : reader.symbol(from.toId);
          classes.add(container?.kind === 'module' ? (this.#valueClass(container.id, b.member ?? name, undefined, depth + 1)?.toId ?? null) : null);
        }
      }
    }
    const [only] = classes;
    return classes.size === 1 && only !== null && only !== undefined ? { toId: only, code: RESOLUTION_CODES.typed } : undefined;
  }

  /** Every module symbol named `name` in the strategy's family (the files of a shared module), in id order. */
  #modulesAllNamed(name: string, strategy: LanguageGraph): readonly GraphSymbol[] {
    return this.#modulesOf(name, strategy).list;
  }

  /** The ids of {@link Resolver.#modulesAllNamed}. */
  /** The module-level `assign` and `alias` bindings of a shared module's files, by name (see #packageValues). */
  #valuesOfPackage(name: string, strategy: LanguageGraph): ReadonlyMap<string, readonly number[]> {
    const key = `${strategy.family}\0${name}`;
    let found = this.#packageValues.get(key);
    if (found === undefined) {
      const byName = new Map<string, number[]>();
      for (const m of this.#modulesOf(name, strategy).list) {
        for (const b of this.#reader.bindings(m.fileId)) {
          if (b.scopeId !== null || (b.kind !== 'assign' && b.kind !== 'alias')) continue;
          let files = byName.get(b.name);
          if (!files) byName.set(b.name, (files = []));
          if (!files.includes(m.fileId)) files.push(m.fileId);
        }
      }
      this.#packageValues.set(key, (found = byName));
    }
    return found;
  }

  #moduleIds(name: string, strategy: LanguageGraph): ReadonlySet<number> {
    return this.#modulesOf(name, strategy).ids;
  }

  #modulesOf(name: string, strategy: LanguageGraph): { readonly list: readonly GraphSymbol[]; readonly ids: ReadonlySet<number> } {
    const reader = this.#reader;
    const key = `${strategy.family}\0${name}`;
    let found = this.#modules.get(key);
    if (found === undefined) {
      const list = reader.named(name).filter((s) => {
        if (s.kind !== 'module') return false;
        const f = reader.file(s.fileId);
        return f !== undefined && this.#strategyOf(f.language).family === strategy.family;
      });
      this.#modules.set(key, (found = { list, ids: new Set(list.map((s) => s.id)) }));
    } else {
      // Memoised for the pass, but the answer still depends on the name (incremental updates).
      reader.depend(name);
    }
    return found;
  }

  /**
   * The one module named `name` in the strategy's family; 'ambiguous' when several tie. For a
   * shared module (a package of several files) its first file's module stands for it.
   */
  #modulesNamed(name: string, strategy: LanguageGraph, _from: GraphFile): GraphSymbol | 'ambiguous' | undefined {
    const reader = this.#reader;
    const modules = this.#modulesAllNamed(name, strategy);
    if (modules.length <= 1) return modules[0];
    if (strategy.sharedModules === true) {
      // The file that sorts first stands for the package: ids depend on the order files were
      // written, which an update does not repeat, and the answer must not.
      let first = modules[0]!;
      let firstPath = reader.file(first.fileId)?.path ?? '';
      for (const m of modules) {
        const path = reader.file(m.fileId)?.path ?? '';
        if (path < firstPath) [first, firstPath] = [m, path];
      }
      return first;
    }
    const picked = strategy.pickModule?.(modules.map((m) => ({ path: reader.file(m.fileId)!.path })));
    return picked === undefined ? 'ambiguous' : modules[picked];
  }

  /** The import site's module (or, with member imports, the class or member it names). */
  #importedModule(specifier: string, ctx: SiteContext): Outcome {
    if (ctx.strategy.includeCandidates) {
      // A plain path is a tail of every module it can mean: adding or removing one of those
      // re-resolves the site by its name (see run.ts). `./a.h` or `../a.h` is not.
      if (!isPlainPath(specifier)) this.#reader.depend(specifier.slice(specifier.lastIndexOf('/') + 1));
      const targets = this.#includeTargets(specifier, ctx.file);
      if (targets.length === 1) return { toId: targets[0]!.id, code: RESOLUTION_CODES.import };
      return unresolved(targets.length === 0 ? RESOLUTION_CODES.external : RESOLUTION_CODES.ambiguous);
    }
    const container = this.#resolveContainer(specifier, ctx.file);
    const sep = ctx.strategy.pathSeparator ?? '.';
    const cut = specifier.lastIndexOf(sep);
    if (container.toId !== null || ctx.strategy.memberImports !== true || cut <= 0) return container;
    // `import com.acme.util.slug` (a Kotlin top-level function), `import a.Strings.slug as s`.
    const member = this.#memberOfSpecifier(specifier.slice(0, cut), specifier.slice(cut + sep.length), ctx.file, 0);
    return member.toId !== null || member.code === RESOLUTION_CODES.ambiguous ? relabel(member, RESOLUTION_CODES.import) : container;
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
    // A file never includes itself (`#include <irq.h>` in asm/irq.h means another irq.h).
    const self = modules.some((m) => m.id === file.moduleId);
    const candidates = self ? modules.filter((m) => m.id !== file.moduleId) : modules;
    // The answer depends on the including file's folder only (files of one folder share it),
    // unless the file is one of the candidates.
    const fromModule = reader.symbol(file.moduleId)?.name ?? '';
    const pickKey = `${key}\u0000${specifier}\u0000${self ? fromModule : fromModule.slice(0, fromModule.lastIndexOf('/') + 1)}`;
    let targets = this.#picked.get(pickKey);
    if (targets === undefined) {
      const picked = strategy.includeCandidates!(specifier, fromModule, candidates);
      targets = picked.map((i) => candidates[i]).filter((m): m is GraphSymbol => m !== undefined);
      if (this.#picked.size >= MAX_PICKS) this.#picked.clear();
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
    const outcome = receiver?.kind === 'path' ? this.#qualified(receiver.path, name, ctx, 'type') : this.#plain(name, ctx, false, 'type');
    if (outcome.toId === null) return outcome;
    return this.#reader.symbol(outcome.toId)?.kind === 'class' ? outcome : NOT_FOUND;
  }

  /** A type as written (`Foo`, `models.Foo`); with `constructed`, a name that is called and must be a class. */
  #typeNamed(type: string, ctx: SiteContext, constructed: boolean): Outcome {
    const parts = type.split('.');
    const last = parts.pop()!;
    const outcome = parts.length > 0 ? this.#qualified(parts, last, ctx, 'type') : this.#plain(last, ctx, false, 'type');
    if (outcome.toId === null) return outcome;
    const symbol = this.#reader.symbol(outcome.toId);
    if (symbol?.kind === 'class') return outcome;
    // `x = Foo::new()` where new is declared to return its own class (Rust `-> Self`).
    if (constructed && symbol !== undefined && (symbol.flags & SYMBOL_FLAGS['returns-self']) !== 0) {
      const owner = this.#ownerClass(symbol);
      if (owner) return { toId: owner.id, code: outcome.code };
    }
    // `f := os.Open(…)`, `x := s.Get()`: what the function or method declares it returns first,
    // read in its file (Go).
    if (constructed && (symbol?.kind === 'function' || symbol?.kind === 'method')) {
      const returned = this.#returnedClass(symbol);
      if (returned !== undefined) return returned.toId === null ? returned : { toId: returned.toId, code: outcome.code };
    }
    // `x = make()` where make is a function: x is whatever make returns.
    return unresolved(constructed ? RESOLUTION_CODES.dynamic : RESOLUTION_CODES['not-found']);
  }

  /** `a.b.name`: the head as a plain name, then each part as a member of a module or class (`want`: a type, or any value). */
  #qualified(path: readonly string[], name: string, ctx: SiteContext, want: 'type' | 'value' = 'value'): Outcome {
    const naming = this.#naming;
    this.#naming = true;
    try {
      return this.#qualifiedParts(path, name, ctx, want);
    } finally {
      this.#naming = naming;
    }
  }

  /** The last name of a qualified site is what the site asks for (`use`, `arity`), and it names no qualifier. */
  #askingLast(use: 'type' | 'term', arity: number | undefined): void {
    this.#use = use;
    this.#arity = arity;
    this.#naming = false;
  }

  #qualifiedParts(path: readonly string[], name: string, ctx: SiteContext, want: 'type' | 'value'): Outcome {
    const use = this.#use;
    const arity = this.#arity;
    // The qualifier is a value (`Foo.create()`: the object Foo), the last name what the site asks.
    this.#use = 'term';
    this.#arity = undefined;
    this.#memberOfValue = false;
    let current = this.#plain(path[0]!, ctx);
    /** Whether `current` was found by its name (the head, a module's member), not as a value's class. */
    let byName = true;
    /** Whether the last part is a member of a value's class (`store.get()`), not of a class named (`Store.create()`). */
    let ofValue = false;
    // A package-level value of declared type (Go's `var userMap sync.Map`): its class's members.
    if (current.toId === null && current.code === RESOLUTION_CODES.dynamic) {
      current = this.#valueClass(ctx.file.moduleId, path[0]!, ctx.file.id) ?? current;
      byName = false;
    }
    const label = current.code;
    // A head that binds nothing (or only a builtin) may be what the language's own rules know (Lua's tables).
    const asked = ctx.strategy.qualifiedNames === true;
    // With fallbackFirst, `external` is the fallback's own answer for a head it does not know
    // while the file includes headers outside the codebase: no binding, so still maybe a namespace.
    const headUnknown =
      current.code === RESOLUTION_CODES['not-found'] || current.code === RESOLUTION_CODES.builtin || (current.code === RESOLUTION_CODES.external && ctx.strategy.fallbackFirst === true);
    if (asked && current.toId === null && headUnknown) {
      this.#askingLast(use, arity);
      const scope = this.#scopeOf(ctx);
      // The qualifier may end in a class inside namespaces (C++ `geo::Circle::area`): its members, bases included.
      if (path.length > 1) {
        const container = this.#askFallback(path[path.length - 1]!, ctx, { qualifier: path.slice(0, -1), want: 'type', scope });
        const cls = container?.toId == null ? undefined : this.#reader.symbol(container.toId);
        if (cls?.kind === 'class') return relabel(this.#classMember(cls, name, new Set()), RESOLUTION_CODES.qualified);
      }
      return this.#askFallback(name, ctx, want === 'type' ? { qualifier: path, want, scope } : { qualifier: path, scope }) ?? current;
    }
    // Java-like languages: a head that names nothing in scope is a package (`java.io.Serializable`,
    // `com.acme.Util.slug()`), read like an import specifier.
    if (current.toId === null && current.code === RESOLUTION_CODES['not-found'] && ctx.strategy.absolutePackagePaths === true) {
      const container = this.#resolveContainer(path.join(ctx.strategy.pathSeparator ?? '.'), ctx.file);
      this.#askingLast(use, arity);
      if (container.toId === null) return current;
      const symbol = this.#reader.symbol(container.toId);
      if (!symbol) return NOT_FOUND;
      const member = symbol.kind === 'class' ? this.#classMember(symbol, name, new Set()) : (this.#moduleMember(symbol.id, name, 0, false) ?? NOT_FOUND);
      return relabel(member, RESOLUTION_CODES.qualified);
    }
    /** The class and the field the part before names (for an element part after it). */
    let field: { readonly cls: GraphSymbol; readonly name: string } | undefined;
    const parts = [...path.slice(1), name];
    for (const [i, part] of parts.entries()) {
      if (i === path.length - 1) {
        this.#askingLast(use, arity);
      }
      if (part === ELEMENT_PART) {
        // `s.items[i]`: what the field's container declares it holds; `hs[i]` where hs is of a
        // named container type (`type Holes []Hole`): what the type declares it holds.
        if (field !== undefined) current = this.#fieldElementClass(field.cls, field.name);
        else {
          const cls = current.toId === null ? undefined : this.#reader.symbol(current.toId);
          current = cls?.kind === 'class' ? this.#elementClass(cls) : unresolved(RESOLUTION_CODES.dynamic);
        }
        field = undefined;
        byName = false;
        continue;
      }
      field = undefined;
      if (current.toId === null) {
        // A call of something outside the codebase returns what it likes (LanguageGraph.outsideResultsUnknown).
        const called = parts.indexOf(RESULT_PART, i) >= 0 || parts.indexOf(AWAIT_PART, i) >= 0;
        return ctx.strategy.outsideResultsUnknown === true && called ? unresolved(RESOLUTION_CODES.dynamic) : current;
      }
      const container = this.#reader.symbol(current.toId);
      if (!container) return NOT_FOUND;
      if (part === AWAIT_PART) {
        // `(await repo.find()).save()`: what the function or method declares awaiting its result
        // gives; a class awaited, or a function declaring nothing of it, gives what it likes.
        byName = false;
        const awaited = container.kind === 'method' || container.kind === 'function' ? this.#returnedClass(container, 'awaits') : undefined;
        const unknownType = awaited?.code === RESOLUTION_CODES['not-found'] && ctx.strategy.outsideResultsUnknown === true;
        current = awaited !== undefined && !unknownType ? awaited : unresolved(RESOLUTION_CODES.dynamic);
        continue;
      }
      if (part === RESULT_PART) {
        // `x.f().g`: what the method or function declares it returns first; a call of a class
        // that names it (Go: a conversion, `T(v)`, `pkg.T(v)`) makes a value of it, while a
        // call of a field's value (of a function type) returns what that type's declaration says.
        const conversion = container.kind === 'class' && byName;
        byName = false;
        if (conversion) continue;
        const returned = container.kind === 'method' || container.kind === 'function' ? this.#returnedClass(container) : undefined;
        // A declared type that names no class (a type alias, `ReturnType<typeof f>`) says nothing of the value.
        const unknownType = returned?.code === RESOLUTION_CODES['not-found'] && ctx.strategy.outsideResultsUnknown === true;
        current = returned !== undefined && !unknownType ? returned : unresolved(RESOLUTION_CODES.dynamic);
        continue;
      }
      if (container.kind === 'class' && parts[i + 1] === ELEMENT_PART) field = { cls: container, name: part };
      if (container.kind === 'module') {
        let member = this.#moduleMember(container.id, part, 0, false);
        byName = true;
        // `pkg.Var.M()`: a value of declared type that another package declares.
        if (member?.toId === null && member.code === RESOLUTION_CODES.dynamic && i < path.length - 1) {
          member = this.#valueClass(container.id, part, undefined) ?? member;
          byName = false;
        }
        // A module without the member may hold it in what it returns (a Lua module's table).
        if (member === undefined && asked && i === 0) {
          const found = this.#askFallback(name, ctx, { qualifier: path, module: { id: container.id, name: container.name, fileId: container.fileId } });
          return found ? relabel(found, label) : NOT_FOUND;
        }
        current = member ?? NOT_FOUND;
      } else if (container.kind === 'class') {
        if (i === parts.length - 1) ofValue = !byName;
        current = this.#classMember(container, part, new Set());
        // Kotlin's `Foo.create()`: a member of Foo's companion object (never of a base's).
        if (byName && current.code === RESOLUTION_CODES['not-found'] && ctx.strategy.companionObjects === true) {
          const companion = this.#reader.companionOf(container.id);
          if (companion !== undefined) current = this.#classMember(companion, part, new Set());
        }
        byName = false;
      }
      else return unresolved(RESOLUTION_CODES.dynamic); // an attribute of a function's value
    }
    this.#memberOfValue = ofValue;
    return relabel(current, label);
  }

  /** Whether a candidate can take the current call's arguments (classes and unknown counts always can). */
  #fits(s: GraphSymbol): boolean {
    return s.kind === 'class' || s.kind === 'module' || admitsArity(s.flags, this.#arity);
  }

  /** Of a class and an object of one name (companions), the one the current use means. */
  #companion<T extends Outcome | GraphSymbol>(candidates: T[]): T[] {
    if (candidates.length < 2) return candidates;
    const symbols = candidates.map((c): GraphSymbol | undefined => ('toId' in c ? (c.toId === null ? undefined : this.#reader.symbol(c.toId)) : (c as GraphSymbol)));
    if (symbols.some((s) => s?.kind !== 'class')) return candidates;
    const singleton = (s: GraphSymbol | undefined): boolean => ((s?.flags ?? 0) & SYMBOL_FLAGS.singleton) !== 0;
    const objects = candidates.filter((_, i) => singleton(symbols[i]));
    if (objects.length === 0 || objects.length === candidates.length) return candidates;
    const wanted = this.#use === 'term' ? objects : candidates.filter((_, i) => !singleton(symbols[i]));
    return wanted;
  }

  /**
   * `name` in the companion objects a class's body sees (LanguageGraph.companionObjects): its
   * own, then its bases' in the class's order; undefined when none of those has a member of the
   * name. The answer depends on the class's bases and on the companions' members (their names).
   */
  #companionMember(cls: GraphSymbol, name: string): Outcome | undefined {
    for (const c of [cls, ...this.#ancestry(cls).bases]) {
      const companion = this.#reader.companionOf(c.id);
      if (companion === undefined) continue;
      const member = this.#classMember(companion, name, new Set());
      // An interface's companion: whether its implementors see its members unqualified is not a
      // rule this pass relies on (a function further out may be the one called).
      if (member.toId !== null && c !== cls && (c.flags & SYMBOL_FLAGS.interface) !== 0) return unresolved(RESOLUTION_CODES.ambiguous);
      if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return relabel(member, RESOLUTION_CODES.self);
      // A companion with a base outside the codebase (or computed) may inherit a member of the name.
      if (mayInherit(member.code)) return member;
    }
    return undefined;
  }

  /** `name` in a class or, depth-first in declaration order, its bases. */
  #classMember(cls: GraphSymbol, name: string, seen: Set<number>): Outcome {
    if (this.#strategyOfSymbol(cls)?.linearisedBases === true) return this.#alongOrder(cls, name, false);
    // Its methods and nested classes: a plain function in a class's range is no member of it
    // (a Java anonymous class's method in a field initializer).
    const own = this.#openMembers(cls, name) ?? this.#companion(this.#children(cls, name).filter((s) => s.kind !== 'function' && this.#fits(s)));
    if (own.length === 0) {
      // A field naming a receiver (`UNSAFE.get()`): the class its declaration names. A base's
      // (`seen` holds the classes below) only when not private.
      if (this.#naming) {
        const field = this.#fieldClass(cls, name, seen.size > 0);
        if (field !== undefined) return field;
      }
      return this.#baseMember(cls, name, seen);
    }
    const found = combine(own.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.self })))!;
    if (found.toId !== null && own[0]!.kind === 'method' && this.#definedOtherwise(cls, name)) return unresolved(RESOLUTION_CODES.ambiguous);
    if (found.toId === null || this.#arity === undefined || own[0]!.kind === 'class') return found;
    // A fixed-arity overload a base outside the codebase may declare would be chosen first.
    const arity = this.#arity;
    if (this.#strategyOfSymbol(cls)?.variadicLast === true && own.every((s) => onlyVariadicTakes(s.flags, arity)) && this.#hasBaseOutside(cls)) {
      return unresolved(RESOLUTION_CODES.external);
    }
    // Overloads by argument count (Java, Kotlin, C#, Scala): a base's method of this name that
    // takes as many arguments is another candidate unless this one overrides it (the same
    // parameter types): `write(int)` here, `write(byte[])` inherited, and the argument's type decides.
    const ancestors = this.#ancestorsDefining(cls, name);
    if (ancestors.length === 0) return found;
    const mine = parameterTypes(this.#reader.summary(cls.id), name, this.#arity);
    if (mine.length !== 1) return unresolved(RESOLUTION_CODES.ambiguous);
    for (const ancestor of ancestors) {
      for (const theirs of parameterTypes(this.#reader.summary(ancestor.id), name, this.#arity)) if (theirs !== mine[0]) return unresolved(RESOLUTION_CODES.ambiguous);
    }
    return found;
  }

  /**
   * Every base above `cls` in the codebase, transitively, breadth first, and whether some base
   * on the way is outside it (or unresolved).
   */
  #ancestry(cls: GraphSymbol): { readonly bases: GraphSymbol[]; readonly outside: boolean } {
    const bases: GraphSymbol[] = [];
    let outside = false;
    const seen = new Set<number>([cls.id]);
    const queue = [cls];
    while (queue.length > 0 && seen.size < 256) {
      const c = queue.shift()!;
      // The answer depends on each class's bases: a change to its file must re-resolve the site.
      this.#reader.depend(c.name);
      for (const id of this.#reader.bases(c.id)) {
        if (id === null) outside = true;
        if (id === null || seen.has(id)) continue;
        seen.add(id);
        const base = this.#reader.symbol(id);
        if (!base) continue;
        bases.push(base);
        queue.push(base);
      }
    }
    return { bases, outside };
  }

  /**
   * `cls`'s file and its language's rules, where the language records the types a class's
   * declaration writes (LanguageGraph.fieldTypes); the answer being built then depends on `cls`
   * (a change to its file must re-resolve the site).
   */
  #declarationOf(cls: GraphSymbol): { readonly file: GraphFile; readonly strategy: LanguageGraph } | undefined {
    const file = this.#reader.file(cls.fileId);
    const strategy = file ? this.#strategyOf(file.language) : undefined;
    if (!file || strategy?.fieldTypes !== true) return undefined;
    this.#reader.depend(cls.name);
    return { file, strategy };
  }

  /** The class `type`, as written in `cls`'s declaration, names: a `typed` outcome. */
  #typedIn(cls: GraphSymbol, declaration: { readonly file: GraphFile; readonly strategy: LanguageGraph }, type: string): Outcome {
    const found = this.#classDeclaredIn(cls, declaration.file, declaration.strategy, type);
    return found.toId === null ? found : { toId: found.toId, code: RESOLUTION_CODES.typed };
  }

  /**
   * The class a field of `cls` named `name` is declared with, read in the declaring class's
   * file (LanguageGraph.fieldTypes); undefined without such a field (or an inherited private one).
   */
  #fieldClass(cls: GraphSymbol, name: string, inherited: boolean): Outcome | undefined {
    const declaration = this.#declarationOf(cls);
    if (!declaration) return undefined;
    const field = this.#reader.bindingOf(cls, 'field', name);
    if (!field || (inherited && field.member === 'private')) return undefined;
    // A field of no class of the codebase's naming (`int`, `func()`, an anonymous interface, a
    // container: see #fieldElementClass) is still this class's field: it hides the bases' fields
    // of the name.
    if (!field.module || field.module.startsWith(CONTAINER_TYPE)) return unresolved(RESOLUTION_CODES.dynamic);
    // A class on the way here may inherit a field of the name from outside the codebase.
    if (this.#fieldsHidden) return unresolved(RESOLUTION_CODES.external);
    return this.#typedIn(cls, declaration, field.module);
  }

  /**
   * The class of the elements of a container a field of `cls` itself is declared as (`items
   * []*Item` → Item: what `s.items[i]` holds; `sp Holes` → what the type Holes holds), read in
   * the class's file; unknown for any other field, and for one that `cls` does not declare (a
   * promoted field is not followed).
   */
  #fieldElementClass(cls: GraphSymbol, name: string): Outcome {
    const declaration = this.#declarationOf(cls);
    const module = declaration && this.#reader.bindingOf(cls, 'field', name)?.module;
    if (!declaration || !module) return unresolved(RESOLUTION_CODES.dynamic);
    const element = indexedElement(module);
    if (element !== undefined) return this.#typedIn(cls, declaration, element);
    // A channel has no index; a field of a named type holds what that type declares.
    const named = module.startsWith(CONTAINER_TYPE) ? null : this.#classDeclaredIn(cls, declaration.file, declaration.strategy, module).toId;
    const type = named === null ? undefined : this.#reader.symbol(named);
    return type?.kind === 'class' ? this.#elementClass(type) : unresolved(RESOLUTION_CODES.dynamic);
  }

  /** The class of what indexing a value of `cls` gives, when its declaration is a container (`type Holes []Hole` → Hole); else unknown. */
  #elementClass(cls: GraphSymbol): Outcome {
    const declaration = this.#declarationOf(cls);
    if (!declaration) return unresolved(RESOLUTION_CODES.dynamic);
    // A type that becomes a container (or stops being one) keeps its identity as a class: what
    // changes is its binding named `[]`, which a change marks by that name.
    this.#reader.depend(ELEMENT_PART);
    const element = indexedElement(this.#reader.bindingOf(cls, 'field', ELEMENT_PART)?.module ?? undefined);
    return element === undefined ? unresolved(RESOLUTION_CODES.dynamic) : this.#typedIn(cls, declaration, element);
  }

  /**
   * The class a function declares it returns first (LanguageGraph.returnTypes), or with
   * `awaits` what awaiting its result gives, read in its file; undefined when it declares none.
   * Of unknown class (`dynamic`) for a method its class's instances store over (`self.filter =
   * …`, LanguageGraph.instanceAttributes): `q.filter()` calls what they store.
   */
  #returnedClass(fn: GraphSymbol, kind: 'returns' | 'awaits' = 'returns'): Outcome | undefined {
    const file = this.#reader.file(fn.fileId);
    const strategy = file ? this.#strategyOf(file.language) : undefined;
    if (!file || strategy?.returnTypes !== true) return undefined;
    // The answer depends on what the function returns: a change to its file must re-resolve the site.
    this.#reader.depend(fn.name);
    const returned = this.#reader.bindingOf(fn, kind);
    if (!returned?.module) return undefined;
    const owner = fn.kind === 'method' && strategy.instanceAttributes === true ? this.#ownerClass(fn) : undefined;
    if (owner !== undefined && this.#storedOnInstances(owner, fn.name)) return unresolved(RESOLUTION_CODES.dynamic);
    return this.#classDeclaredIn(fn, file, strategy, returned.module);
  }

  /**
   * The class a type written in a definition's declaration names (a field's, a function's
   * result), looked up from that definition in its own file: the site's imports play no part.
   */
  #classDeclaredIn(holder: GraphSymbol, file: GraphFile, strategy: LanguageGraph, type: string): Outcome {
    const naming = this.#naming;
    this.#naming = false;
    try {
      return this.#typeNamed(type, { file, strategy, chain: this.#chain(holder) }, false);
    } finally {
      this.#naming = naming;
    }
  }

  /**
   * The class that the bases of `cls` declare their instances' attribute `name` of (`field`
   * bindings with a type: TypeScript's `protected client: Client`, Python's `store: Store`),
   * read in each declaring class's file; undefined when no base declares one, a base that
   * declares it keeps it private, or two declarations name different classes.
   */
  #inheritedAttributeClass(cls: GraphSymbol, name: string): number | undefined {
    // The answer depends on the declarations of the name: a change of one re-resolves the site.
    this.#reader.depend(name);
    let found: number | undefined;
    for (const base of this.#ancestry(cls).bases) {
      const declared = this.#reader.bindings(base.fileId).find((b) => b.kind === 'field' && b.scopeId === base.id && b.name === name && b.module !== null);
      if (declared === undefined) continue;
      const file = this.#reader.file(base.fileId);
      const strategy = file ? this.#strategyOf(file.language) : undefined;
      if (!file || !strategy || declared.member === 'private') return undefined;
      const type = this.#classDeclaredIn(base, file, strategy, declared.module!).toId;
      if (type === null || (found !== undefined && found !== type)) return undefined;
      found = type;
    }
    return found;
  }

  /** Whether some base of `cls`, transitively, is outside the codebase (or unresolved). */
  #hasBaseOutside(cls: GraphSymbol): boolean {
    return this.#ancestry(cls).outside;
  }

  /**
   * The classes above `cls` (every base in the codebase, transitively) that define a method
   * `name` taking the current call's arguments. Bases outside the codebase are not seen.
   */
  #ancestorsDefining(cls: GraphSymbol, name: string): GraphSymbol[] {
    return this.#ancestry(cls).bases.filter((base) => this.#reader.children(base.id, name).some((s) => s.kind === 'method' && this.#fits(s)));
  }

  /**
   * `name` along a class's method resolution order (LanguageGraph.linearisedBases), from the
   * class itself or, for `super`, after it: the first class that defines it as a method or
   * nested class; a class attribute of the name hides what comes after (unresolved); a base
   * outside the codebase before it may define it (ambiguous), as may any class when the bases
   * admit no order.
   */
  #alongOrder(cls: GraphSymbol, name: string, afterSelf: boolean): Outcome {
    // Every `self.assertEqual(…)` of a test class walks the same classes: the answer depends on
    // the class, the name, where the walk starts and what the site asks (#fits reads the arity,
    // #companion the use) only, so it is kept for the pass with the names it depended on.
    const key = `${cls.id}\u0000${afterSelf ? 1 : 0}\u0000${this.#use}\u0000${this.#arity ?? ''}\u0000${name}`;
    const kept = this.#alongOrders.get(key);
    if (kept !== undefined) {
      for (const d of kept.deps) this.#reader.depend(d);
      return kept.outcome;
    }
    const { value, names } = this.#reader.capture(() => this.#alongOrderOnce(cls, name, afterSelf));
    this.#alongOrders.set(key, { outcome: value, deps: names });
    return value;
  }

  #alongOrderOnce(cls: GraphSymbol, name: string, afterSelf: boolean): Outcome {
    const order = this.#orderOf(cls);
    if (order === undefined) return unresolved(RESOLUTION_CODES.ambiguous);
    const plainName = !NOT_IN_PLAIN_NAMES.test(name);
    let external = false;
    for (let i = afterSelf ? 1 : 0; i < order.length; i++) {
      const id = order[i]!;
      if (id < 0) {
        external = true;
        continue;
      }
      const c = this.#reader.symbol(id);
      if (!c) continue;
      if (plainName ? this.#assignedIn(id).has(name) : assignsAttribute(this.#reader.fieldSummary(id), name)) return unresolved(RESOLUTION_CODES.dynamic);
      const own = this.#companion(this.#reader.children(id, name).filter((s) => s.kind !== 'function' && this.#fits(s)));
      if (own.length === 0) continue;
      if (external) return unresolved(RESOLUTION_CODES.ambiguous);
      return combine(own.map((s) => ({ toId: s.id, code: RESOLUTION_CODES.self })))!;
    }
    // A base unresolved for another cause than being outside (a computed base) may define it.
    if (external && order.some((id) => id >= 0 && this.#reader.unknownBase(id))) return unresolved(RESOLUTION_CODES.dynamic);
    // No class defines it, but one answers for names it lacks (Python's `__getattr__`: a proxy
    // such as Django's LazyObject): whatever that returns is called, which no rule can tell.
    // `super()` looks along the classes only.
    const hook = afterSelf ? undefined : this.#strategyOfSymbol(cls)?.missingMemberHook;
    if (hook !== undefined && name !== hook) {
      for (let i = 0; i < order.length; i++) {
        const id = order[i]!;
        if (id >= 0 && this.#reader.children(id, hook).some((s) => s.kind === 'method')) return unresolved(RESOLUTION_CODES.dynamic);
      }
    }
    return unresolved(external ? RESOLUTION_CODES.external : RESOLUTION_CODES['not-found']);
  }

  /**
   * {@link Resolver.#linearisation} of a class, kept for the pass with the names it depended on
   * (replayed for each site): every `self.m()` of a Python class asks for it, and computing it
   * reads every class above.
   */
  #orderOf(cls: GraphSymbol): readonly number[] | undefined {
    const kept = this.#orders.get(cls.id);
    if (kept !== undefined) {
      for (const d of kept.deps) this.#reader.depend(d);
      return kept.order;
    }
    const { value, names } = this.#reader.capture(() => this.#linearisation(cls, 0));
    this.#orders.set(cls.id, { order: value, deps: names });
    return value;
  }

  /**
   * `outcome`, the member `name` found (or not) for a call through an instance of `cls`, where
   * its instances may store an attribute of the name (LanguageGraph.instanceAttributes): a method
   * found is ambiguous (the stored value may be called instead), a member found nowhere is the
   * stored value's call (`self.callback = cb` then `self.callback(1)`: dynamic, not not-found).
   */
  #onInstances(cls: GraphSymbol, name: string, outcome: Outcome, ctx: SiteContext): Outcome {
    if (ctx.strategy.instanceAttributes !== true || (outcome.toId === null && outcome.code !== RESOLUTION_CODES['not-found'])) return outcome;
    if (!this.#storedOnInstances(cls, name)) return outcome;
    return unresolved(outcome.toId !== null ? RESOLUTION_CODES.ambiguous : RESOLUTION_CODES.dynamic);
  }

  /**
   * Whether `cls` or a class above it stores an attribute `name` on its instances
   * (LanguageGraph.instanceAttributes): then `self.name()` / `x.name()` may call the stored value,
   * which hides the class's member wherever it is set. (A subclass that stores one is no more
   * seen here than a subclass's override.)
   */
  #storedOnInstances(cls: GraphSymbol, name: string): boolean {
    if (this.#instanceAttributesOf(cls.id).has(name)) return true;
    // What the classes above store, kept for the pass with the names it depended on (replayed
    // for each site): every resolved `self.m()` of a class asks, and the walk reads every base.
    let kept = this.#storedAbove.get(cls.id);
    if (kept === undefined) {
      const { value, names } = this.#reader.capture(() => {
        const above = new Set<string>();
        for (const b of this.#ancestry(cls).bases) for (const n of this.#instanceAttributesOf(b.id)) above.add(n);
        return above;
      });
      this.#storedAbove.set(cls.id, (kept = { names: value, deps: names }));
    } else for (const d of kept.deps) this.#reader.depend(d);
    return kept.names.has(name);
  }

  /** The attributes a class's methods store on its instances (`field` bindings of the class), kept for the pass. */
  #instanceAttributesOf(classId: number): ReadonlySet<string> {
    let names = this.#instanceAttributes.get(classId);
    if (names === undefined) {
      const cls = this.#reader.symbol(classId);
      const found = new Set<string>();
      if (cls) for (const b of this.#reader.bindings(cls.fileId)) if (b.kind === 'field' && b.scopeId === classId) found.add(b.name);
      this.#instanceAttributes.set(classId, (names = found));
    }
    return names;
  }

  /** The attributes a class's field summary assigns ({@link assignedAttributes}), kept for the pass. */
  #assignedIn(classId: number): ReadonlySet<string> {
    let names = this.#assigned.get(classId);
    if (names === undefined) this.#assigned.set(classId, (names = assignedAttributes(this.#reader.fieldSummary(classId))));
    return names;
  }

  /**
   * A class's C3 linearisation, itself first: class ids, and a negative number for each base
   * outside the codebase (its own bases are unknown). Undefined when Python would refuse the
   * bases (no consistent order) or they nest too deep.
   */
  #linearisation(cls: GraphSymbol, depth: number): number[] | undefined {
    if (depth > 32) return undefined;
    // The answer depends on this class's bases: a change to its file must re-resolve the site.
    this.#reader.depend(cls.name);
    const bases = this.#reader.bases(cls.id);
    const heads: number[] = [];
    const lists: number[][] = [];
    let unknown = 0;
    for (const b of bases) {
      if (b === null) {
        const token = -(++unknown) - 1000 * (depth + 1);
        heads.push(token);
        lists.push([token]);
        continue;
      }
      const base = this.#reader.symbol(b);
      if (!base) return undefined;
      const order = this.#linearisation(base, depth + 1);
      if (!order) return undefined;
      heads.push(b);
      lists.push(order);
    }
    lists.push(heads);
    return c3Merge(cls.id, lists);
  }

  /** The rules of the language a symbol is written in. */
  #strategyOfSymbol(s: GraphSymbol): LanguageGraph | undefined {
    const file = this.#reader.file(s.fileId);
    return file ? this.#strategyOf(file.language) : undefined;
  }

  /**
   * Every definition of an open class (LanguageGraph.openClasses), the first by file path then
   * position first; just the class elsewhere.
   */
  #parts(cls: GraphSymbol): readonly GraphSymbol[] {
    const strategy = this.#strategyOfSymbol(cls);
    if (!isOpen(cls, strategy)) return [cls];
    const key = `${strategy.family}\u0000${cls.qualifiedName}`;
    const known = this.#openParts.get(key);
    // Memoised for the pass, but the answer still depends on the name (incremental updates).
    if (known) {
      this.#reader.depend(cls.name);
      return known;
    }
    const reader = this.#reader;
    const pathOf = (s: GraphSymbol): string => reader.file(s.fileId)?.path ?? '';
    const parts = reader
      .named(cls.name)
      .filter((s) => s.kind === 'class' && s.qualifiedName === cls.qualifiedName && isOpen(s, this.#strategyOfSymbol(s)) && this.#strategyOfSymbol(s)?.family === strategy.family)
      .sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : a.id - b.id));
    const out = parts.length > 0 ? parts : [cls];
    this.#openParts.set(key, out);
    return out;
  }

  /** Whether a member's class is a part of a partial class (its parent flagged `partial`). */
  #inPart(member: GraphSymbol): boolean {
    const parent = member.parentId === null ? undefined : this.#reader.symbol(member.parentId);
    return parent !== undefined && (parent.flags & SYMBOL_FLAGS.partial) !== 0;
  }

  /** An outcome whose target is a definition of an open class, as the class's first definition. */
  #canonical(outcome: Outcome): Outcome {
    if (outcome.toId === null) return outcome;
    const target = this.#reader.symbol(outcome.toId);
    if (target?.kind !== 'class') return outcome;
    const first = this.#parts(target)[0]!;
    return first.id === target.id ? outcome : { toId: first.id, code: outcome.code };
  }

  /**
   * The members named `name` of an open class, found by qualified name in every file (the
   * methods of each reopening, a class nested by `class A::B`), nested classes as their first
   * definition; undefined for a class that is not open.
   */
  #openMembers(cls: GraphSymbol, name: string): GraphSymbol[] | undefined {
    const strategy = this.#strategyOfSymbol(cls);
    if (!isOpen(cls, strategy)) return undefined;
    // Which classes of the name are parts (open, or flagged `partial`) is read from their files:
    // a change to one must re-resolve the site.
    this.#reader.depend(cls.name);
    const qualified = strategy.qualify('', [cls.qualifiedName, name]);
    const out = new Map<number, GraphSymbol>();
    for (const s of this.#reader.named(name)) {
      if (s.kind === 'function' || s.kind === 'module' || s.qualifiedName !== qualified || !this.#fits(s)) continue;
      if (this.#strategyOfSymbol(s)?.family !== strategy.family) continue;
      // A member of a part: a member of a class of the name that is no part is not this class's.
      if (strategy.partialClasses === true && !this.#inPart(s)) continue;
      const first = s.kind === 'class' ? this.#parts(s)[0]! : s;
      out.set(first.id, first);
    }
    return [...out.values()];
  }

  /** The fallback's answer as an outcome (open classes: as the class's first definition), or undefined when it has none. */
  #askFallback(name: string, ctx: SiteContext, lookup: FallbackLookup): Outcome | undefined {
    const answer: FallbackOutcome | undefined = ctx.strategy.fallback?.(name, this.#fallbackSite(ctx.file), lookup);
    if (!answer) return undefined;
    const outcome: Outcome = answer.toId !== null ? { toId: answer.toId, code: RESOLUTION_CODES[answer.resolution] } : unresolved(RESOLUTION_CODES[answer.reason]);
    return classesReopen(ctx.strategy) ? this.#canonical(outcome) : outcome;
  }

  /** `name` in the bases of a class (not the class itself), depth-first in declaration order. */
  #baseMember(cls: GraphSymbol, name: string, seen: Set<number>): Outcome {
    if (this.#strategyOfSymbol(cls)?.linearisedBases === true) return this.#alongOrder(cls, name, true);
    const file = this.#reader.file(cls.fileId);
    const strategy = file ? this.#strategyOf(file.language) : undefined;
    if (strategy?.basesByDepth === true) return this.#baseMemberByDepth(cls, name);
    const parts = this.#parts(cls);
    // A class met again was searched already, with its bases (an interface two others extend),
    // or is its own base (code that does not compile): it adds nothing. A search cut short may
    // have missed a candidate.
    if (seen.has(parts[0]!.id)) return NOT_FOUND;
    if (seen.size > 64) return unresolved(RESOLUTION_CODES.ambiguous);
    seen.add(parts[0]!.id);
    // The answer depends on this class's bases: a change to its file must re-resolve the site.
    this.#reader.depend(cls.name);
    let unknownBase = false;
    /** A base's own lookup met a base unresolved for another cause than being outside. */
    let computedBase = false;
    // A base that has several candidates: the name is the codebase's (callers count the site),
    // whatever the other bases say.
    let ambiguousBase = false;
    // An open class's bases are those of all its definitions, in their order.
    const bases = parts.length === 1 ? this.#reader.bases(parts[0]!.id) : parts.flatMap((p) => this.#reader.bases(p.id));
    const mixinsOverride = strategy?.mixinsOverride === true;
    for (let i = 0; i < bases.length; i++) {
      const baseId = bases[i]!;
      if (baseId === null) {
        unknownBase = true;
        continue;
      }
      const base = this.#reader.symbol(baseId);
      if (!base) continue;
      // Constructors are not inherited: `Reader` in a subclass of Reader is the class, never its
      // constructors (methods named like it, in Java, C#, Kotlin, C++).
      if (base.name === name && this.#namedLikeConstructors(base)) continue;
      // Nor are private members: the base passes the name on to its own bases.
      const found = this.#inheritedThrough(base, name, seen);
      if (found.toId !== null) return unknownBase || ambiguousBase || (mixinsOverride && this.#overriddenByLaterBases(bases, i + 1, name, seen, found.toId)) ? unresolved(RESOLUTION_CODES.ambiguous) : found;
      if (found.code === RESOLUTION_CODES.ambiguous) ambiguousBase = true;
      else if (found.code === RESOLUTION_CODES.external) unknownBase = true;
      else if (found.code === RESOLUTION_CODES.dynamic) computedBase = true;
    }
    if (ambiguousBase) return unresolved(RESOLUTION_CODES.ambiguous);
    // A base unresolved for another cause than being outside (`extends mixin(Base)`), here or
    // above, may define it.
    if (computedBase || (unknownBase && parts.some((p) => this.#reader.unknownBase(p.id)))) return unresolved(RESOLUTION_CODES.dynamic);
    return unknownBase ? unresolved(RESOLUTION_CODES.external) : NOT_FOUND;
  }

  /**
   * `name` as a class inherits it through one of its bases: the base's own member, unless the
   * base's are all private (not inherited: the base passes the name on to its own bases).
   */
  #inheritedThrough(base: GraphSymbol, name: string, seen: Set<number>): Outcome {
    return this.#privateMembersOnly(base, name) ? this.#baseMember(base, name, seen) : this.#classMember(base, name, seen);
  }

  /**
   * Whether the bases from `from` on, after the one a member was found in, may override it
   * (LanguageGraph.mixinsOverride): one of them, or one of their bases not searched already
   * (`seen`), defines the name otherwise than `found` (a later trait extending the base that
   * defines it inherits the same member), or is outside the codebase (unresolved).
   */
  #overriddenByLaterBases(bases: readonly (number | null)[], from: number, name: string, seen: Set<number>, found: number): boolean {
    for (let i = from; i < bases.length; i++) {
      const baseId = bases[i]!;
      if (baseId === null) return true;
      const base = this.#reader.symbol(baseId);
      if (!base || (base.name === name && this.#namedLikeConstructors(base))) continue;
      const other = this.#inheritedThrough(base, name, seen);
      if ((other.toId !== null && other.toId !== found) || other.code === RESOLUTION_CODES.ambiguous || mayInherit(other.code)) return true;
    }
    return false;
  }

  /**
   * Whether some build compiles the target's file with the site's (LanguageGraph.compiledTogether):
   * another package's definition for other systems (`syscall.WaitStatus` of syscall_windows.go
   * from a Unix-only file of os) is never what the site calls, whichever rule found it.
   */
  #builtWithSite(targetId: number, ctx: SiteContext): boolean {
    const target = this.#reader.symbol(targetId);
    if (!target || target.fileId === ctx.file.id) return true;
    // Files of one package are asked many times over: each pair once per pass.
    let bySite = this.#builtTogether.get(ctx.file.id);
    if (bySite === undefined) this.#builtTogether.set(ctx.file.id, (bySite = new Map()));
    let together = bySite.get(target.fileId);
    if (together === undefined) {
      const site = this.#compiledFile(ctx.file.id);
      const other = this.#compiledFile(target.fileId);
      together = site === undefined || other === undefined || ctx.strategy.compiledTogether!(site, other);
      bySite.set(target.fileId, together);
    }
    return together;
  }

  /**
   * A file's path and build constraint, for {@link LanguageGraph.compiledTogether}. Not a
   * dependency of the answer: a file whose constraint changes changes every name it defines
   * (GraphChangeLog), which re-resolves the sites that looked them up.
   */
  #compiledFile(fileId: number): CompiledFile | undefined {
    if (this.#compiledFiles.has(fileId)) return this.#compiledFiles.get(fileId);
    const file = this.#reader.file(fileId);
    let out: CompiledFile | undefined;
    if (file) {
      const constraint = this.#reader.untracked(() => this.#reader.bindingsOfKind(fileId, 'build'))[0]?.member;
      out = constraint === undefined || constraint === null ? { path: file.path } : { path: file.path, buildConstraint: constraint };
    }
    this.#compiledFiles.set(fileId, out);
    return out;
  }

  /**
   * A class's members named `name`: those joined to it (its body's, `member_of` edges). Where the
   * files of a package are built apart (Go: a type defined once per system, `os.File` in
   * file_unix.go and file_windows.go), a method declared in a file every build takes (file.go's
   * `func (f *File) Read`) is joined to no single definition of the type: then the methods of the
   * type's qualified name in files built with the type's and the site's files, which Go allows
   * only once per build.
   */
  #children(cls: GraphSymbol, name: string): readonly GraphSymbol[] {
    // A definition local to a block or lambda in the class body is no member of the class.
    const joined = withoutEnclosed(this.#reader.children(cls.id, name));
    if (joined.length > 0 || cls.kind !== 'class') return joined;
    const strategy = this.#strategyOfSymbol(cls);
    const together = strategy?.compiledTogether;
    if (!together || strategy.sharedModules !== true) return joined;
    const own = this.#compiledFile(cls.fileId);
    const site = this.#compiledFile(this.#siteFileId);
    if (own === undefined) return joined;
    const qualified = strategy.qualify('', [cls.qualifiedName, name]);
    return this.#reader.named(name).filter((s) => {
      if (s.kind !== 'method' || s.qualifiedName !== qualified || this.#strategyOfSymbol(s)?.family !== strategy.family) return false;
      const file = this.#compiledFile(s.fileId);
      return file !== undefined && together(own, file) && (site === undefined || together(site, file));
    });
  }

  /**
   * Whether, in some build that compiles the site, the class is defined otherwise: methods of its
   * qualified name in files built with the site's but never with the class's (Go's
   * `syscall.WaitStatus`, a struct on Windows and a `uint32` on Linux, whose Linux methods no
   * class holds). The call then depends on the build.
   */
  #definedOtherwise(cls: GraphSymbol, name: string): boolean {
    const strategy = this.#strategyOfSymbol(cls);
    const together = strategy?.compiledTogether;
    if (!together || strategy.sharedModules !== true) return false;
    const own = this.#compiledFile(cls.fileId);
    const site = this.#compiledFile(this.#siteFileId);
    if (own === undefined || site === undefined) return false;
    const qualified = strategy.qualify('', [cls.qualifiedName, name]);
    return this.#reader.named(name).some((s) => {
      if (s.kind !== 'method' || s.qualifiedName !== qualified || s.fileId === cls.fileId) return false;
      const file = this.#compiledFile(s.fileId);
      return file !== undefined && together(site, file) && !together(own, file);
    });
  }

  /** Whether the methods of a class named like it are its constructors. */
  #namedLikeConstructors(cls: GraphSymbol): boolean {
    const strategy = this.#strategyOfSymbol(cls);
    return strategy !== undefined && (strategy.constructorsNamedLikeClass === true || strategy.constructorNames(cls.name).includes(cls.name));
  }

  /**
   * `name` in the bases of a class level by level (Go's promotion through embedded types): the
   * members of the shallowest level that has any win, two different ones there are ambiguous,
   * and a base outside the codebase at or above that level may hide one of the same name.
   */
  #baseMemberByDepth(cls: GraphSymbol, name: string): Outcome {
    const reader = this.#reader;
    const seen = new Set<number>([cls.id]);
    let level: GraphSymbol[] = [cls];
    let unknownBase = false;
    for (let depth = 0; level.length > 0 && depth < MAX_DEPTH && seen.size <= 64; depth++) {
      const next: GraphSymbol[] = [];
      for (const c of level) {
        // The answer depends on this class's bases: a change to its file must re-resolve the site.
        reader.depend(c.name);
        for (const baseId of reader.bases(c.id)) {
          if (baseId === null) unknownBase = true;
          else if (!seen.has(baseId)) {
            seen.add(baseId);
            const base = reader.symbol(baseId);
            if (base) next.push(base);
          }
        }
      }
      const found = next.flatMap((b) => this.#children(b, name).map((s): Outcome => ({ toId: s.id, code: RESOLUTION_CODES.self })));
      // Naming a receiver (`s.Model.Describe()`), a field an embedded struct declares competes at
      // its depth with the methods there (Go: the shallowest wins, two at one depth are ambiguous).
      if (this.#naming) {
        for (const b of next) {
          const field = this.#fieldClass(b, name, true);
          if (field !== undefined) found.push(field);
        }
      }
      if (found.length > 0) return unknownBase ? unresolved(RESOLUTION_CODES.ambiguous) : combine(found)!;
      level = next;
    }
    return unknownBase ? unresolved(RESOLUTION_CODES.external) : NOT_FOUND;
  }

  /** `super.name`: along the class's bases, or only its superclass where the language says so. */
  #superMember(cls: GraphSymbol, name: string, ctx: SiteContext): Outcome {
    if (ctx.strategy.superIsSuperclass !== true) return this.#baseMember(cls, name, new Set());
    // The answer depends on this class's bases: a change to its file must re-resolve the site.
    this.#reader.depend(cls.name);
    const first = this.#reader.superclass(cls.id);
    // No superclass: the root class's (Object), outside the codebase; an unresolved one: unknown.
    if (first === undefined || first === null) return unresolved(RESOLUTION_CODES.external);
    const base = this.#reader.symbol(first);
    if (!base || (base.name === name && this.#namedLikeConstructors(base))) return NOT_FOUND;
    const seen = new Set([cls.id]);
    return this.#inheritedThrough(base, name, seen);
  }

  /** `super(...)`: the constructor of the enclosing class's base (or that base itself). */
  #superConstructor(ctx: SiteContext): Outcome {
    const cls = this.#enclosingClass(ctx);
    if (!cls) return NOT_FOUND;
    // The superclass, never an interface (`class Plain implements Marker { Plain() { super(); } }`
    // constructs Object), and never a class above it: a superclass that declares constructors
    // is called through one of them, and one that declares none through its implicit one.
    // The answer depends on this class's bases (a base that becomes an interface is no superclass).
    this.#reader.depend(cls.name);
    const first = this.#reader.superclass(cls.id);
    // No superclass (no base, or interfaces only): the root class's constructor, outside the codebase.
    if (first === undefined || first === null) return unresolved(RESOLUTION_CODES.external);
    const base = this.#reader.symbol(first);
    if (!base) return NOT_FOUND;
    const ctor = this.#ownConstructor(base, ctx);
    if (ctor) return { toId: ctor.id, code: RESOLUTION_CODES.super };
    // Several constructors take this many arguments (or none does): which one is called depends on types.
    if (this.#declaresConstructor(base, ctx)) return unresolved(RESOLUTION_CODES.ambiguous);
    return { toId: base.id, code: RESOLUTION_CODES.super };
  }

  /** Whether a class declares a constructor of any arity. */
  #declaresConstructor(cls: GraphSymbol, ctx: SiteContext): boolean {
    const file = this.#reader.file(cls.fileId);
    const strategy = file ? this.#strategyOf(file.language) : ctx.strategy;
    for (const ctorName of strategy.constructorNames(cls.name)) {
      if ((this.#openMembers(cls, ctorName) ?? this.#reader.children(cls.id, ctorName)).some((s) => s.kind !== 'class')) return true;
    }
    return false;
  }

  #ownConstructor(cls: GraphSymbol, ctx: SiteContext): GraphSymbol | undefined {
    const file = this.#reader.file(cls.fileId);
    const strategy = file ? this.#strategyOf(file.language) : ctx.strategy;
    for (const ctorName of strategy.constructorNames(cls.name)) {
      const found = (this.#openMembers(cls, ctorName) ?? this.#reader.children(cls.id, ctorName)).filter((s) => s.kind !== 'class' && this.#fits(s));
      if (found.length === 1) return found[0];
    }
    return undefined;
  }

  /** Whether the site's innermost method is static (undefined: in no method). */
  #inStaticMethod(ctx: SiteContext): boolean | 'both' | undefined {
    const method = ctx.chain.find((s) => s.kind === 'method');
    return method === undefined ? undefined : this.#isStatic(method);
  }

  /**
   * Whether every method `name` of a class is declared `private`, where the language does not
   * let subclasses inherit those (its nested classes are members as ever).
   */
  #privateMembersOnly(cls: GraphSymbol, name: string): boolean {
    if (this.#strategyOfSymbol(cls)?.privateNotInherited !== true) return false;
    const members = this.#children(cls, name);
    return members.length > 0 && members.every((s) => s.kind === 'method' && (s.flags & SYMBOL_FLAGS.private) !== 0);
  }

  /**
   * Whether a method is static, read from its class's summaries (`- static run(): string`);
   * 'both' for a static and an instance member of one name, undefined when they do not say.
   */
  #isStatic(method: GraphSymbol): boolean | 'both' | undefined {
    const cls = this.#ownerClass(method);
    if (!cls) return undefined;
    let found: boolean | undefined;
    for (const line of (this.#reader.summary(cls.id) ?? '').split('\n')) {
      const m = MEMBER_HEAD.exec(line);
      if (!m || m[2] !== method.name) continue;
      const isStatic = m[1] !== undefined;
      if (found !== undefined && found !== isStatic) return 'both';
      found = isStatic;
    }
    return found;
  }

  /** The class a method belongs to: its lexical parent, or the class it was joined to. */
  #ownerClass(method: GraphSymbol): GraphSymbol | undefined {
    const parent = method.parentId === null ? undefined : this.#reader.symbol(method.parentId);
    if (parent?.kind === 'class') return parent;
    const owner = this.#reader.memberOf(method.id);
    return owner === null ? undefined : this.#reader.symbol(owner);
  }

  /**
   * The class a site's `self` means: the nearest enclosing class, the class a method was joined
   * to, or the class an extension function extends (null when that type is no class of the
   * codebase: its members are unknown).
   */
  #enclosingClass(ctx: SiteContext): GraphSymbol | null | undefined {
    const extensions = ctx.strategy.extensionReceivers === 'top-level';
    for (const s of ctx.chain) {
      if (s.kind === 'class') return s;
      if (s.kind === 'method') {
        const owner = this.#reader.memberOf(s.id);
        if (owner !== null) return this.#reader.symbol(owner);
      }
      const extended = extensions && s.kind !== 'module' ? this.#extension(s) : undefined;
      if (extended !== undefined) return extended.cls.toId === null ? null : this.#reader.symbol(extended.cls.toId);
    }
    return undefined;
  }

  /**
   * What an extension function extends (LanguageGraph.extensionReceivers): the type as written
   * (null when it names no class: a type parameter, a function type) and the class it names,
   * looked up from the function in its own file; undefined for a function that extends nothing.
   */
  #extension(fn: GraphSymbol): { readonly written: string | null; readonly cls: Outcome } | undefined {
    const receiver = this.#reader.bindingOf(fn, 'receiver');
    if (receiver === undefined) return undefined;
    const file = this.#reader.file(fn.fileId);
    if (!file || !receiver.module) return { written: null, cls: unresolved(RESOLUTION_CODES.dynamic) };
    return { written: receiver.module, cls: this.#classDeclaredIn(fn, file, this.#strategyOf(file.language), receiver.module) };
  }

  /**
   * A plain call `name()` in an extension function `scope`'s body, where the extended class is
   * the implicit receiver: its method (or an inherited one); unresolved when the class may have
   * one the codebase does not show (a base outside it, a receiver type outside it); undefined
   * when `scope` extends nothing or the class has no such method (names further out are next).
   * Its nested classes and its companion's members are no names of the body.
   */
  #implicitReceiver(scope: GraphSymbol, name: string): Outcome | undefined {
    const extended = this.#extension(scope);
    if (extended === undefined) return undefined;
    const { toId, code } = extended.cls;
    if (toId === null) return unresolved(code === RESOLUTION_CODES.external || code === RESOLUTION_CODES.builtin ? RESOLUTION_CODES.external : RESOLUTION_CODES.dynamic);
    const cls = this.#reader.symbol(toId);
    if (cls?.kind !== 'class' || cls.name === name) return undefined;
    const member = this.#classMember(cls, name, new Set());
    if (member.code === RESOLUTION_CODES.ambiguous || mayInherit(member.code)) return member;
    if (member.toId === null) return undefined;
    return this.#reader.symbol(member.toId)?.kind === 'method' ? relabel(member, RESOLUTION_CODES.self) : undefined;
  }

  /**
   * `recv.name()` where `recv` is a value of `cls`, which has no member `name`: an extension
   * (LanguageGraph.extensionReceivers), looked for in levels as the language does, the first
   * level holding one that applies deciding. Kotlin: declarations nearer the site (a local
   * function, a member extension of an enclosing class: any of the name leaves the call
   * unresolved), then the top-level extensions the file imports by name, those of its package,
   * those it imports with `.*`. C#: the static classes' extension methods of the file's namespace,
   * then of the namespaces around it and those its `using` directives name (several of those
   * levels as one: candidates that apply from two namespaces leave the call unresolved). An
   * extension applies when it extends `cls` or a class above it; of several, the one whose class
   * is below all the others' (the root type, `Any` or `object`, is above every class). One whose
   * type is unknown (a type parameter, a type outside the codebase while `cls` has a base outside
   * it) may apply: its level stays unresolved.
   */
  #extensionFor(cls: GraphSymbol, name: string, ctx: SiteContext): Outcome {
    const reader = this.#reader;
    const kotlin = ctx.strategy.extensionReceivers === 'top-level';
    if (kotlin) {
      for (const scope of ctx.chain) {
        if (scope.kind === 'module') break;
        if (scope.kind === 'class') {
          const member = this.#classMember(scope, name, new Set());
          if (member.toId !== null || member.code === RESOLUTION_CODES.ambiguous) return unresolved(RESOLUTION_CODES.ambiguous);
          if (mayInherit(member.code)) return member;
        } else if (reader.children(scope.id, name).length > 0) return unresolved(RESOLUTION_CODES.ambiguous);
      }
    }
    // Read once, and only when some extension of the name is there to compare with.
    let known: { readonly bases: GraphSymbol[]; readonly outside: boolean; readonly order: ReadonlySet<number> } | undefined;
    const ancestry = () => {
      if (known === undefined) {
        const { bases, outside } = this.#ancestry(cls);
        known = { bases, outside, order: new Set<number>([cls.id, ...bases.map((b) => b.id)]) };
      }
      return known;
    };
    const file = ctx.file;
    const here = reader.symbol(file.moduleId)?.name ?? null;
    const stars = reader.bindingsOfKind(file.id, 'star').flatMap((b) => (b.module === null ? [] : [b.module]));
    // A C# method's first parameter is the receiver: the call passes one argument fewer.
    const arity = this.#arity;
    const fits = (s: GraphSymbol): boolean => admitsArity(s.flags, arity === undefined || kotlin ? arity : arity + 1);
    /** Kotlin: the top-level functions `member` of package `pkg`. */
    const topLevel = (pkg: string | null, member: string): GraphSymbol[] =>
      pkg === null
        ? []
        : reader.named(member).filter((s) => {
            if (s.kind !== 'function' || s.parentId === null || !fits(s)) return false;
            const module = reader.symbol(s.parentId);
            return module?.kind === 'module' && module.name === pkg;
          });
    /** C#: the methods `name` of top-level classes in one of `spaces` (namespaces, or a class a `using static` names). */
    const staticIn = (spaces: readonly string[]): GraphSymbol[] => {
      const wanted = new Set(spaces);
      return reader.named(name).filter((s) => {
        const holder = s.kind === 'method' && s.parentId !== null && fits(s) ? reader.symbol(s.parentId) : undefined;
        if (holder?.kind !== 'class' || holder.parentId === null || reader.symbol(holder.parentId)?.kind !== 'module') return false;
        return wanted.has(namespaceOf(holder.qualifiedName)) || wanted.has(holder.qualifiedName);
      });
    };
    const levels = kotlin
      ? [
          () => reader.bindingsNamed(file.id, null, name).flatMap((b) => (b.kind === 'member' ? topLevel(b.module, b.member ?? name) : [])),
          () => topLevel(here, name),
          () => stars.flatMap((m) => topLevel(m, name)),
        ]
      : // A file of several namespaces is a module of its own ('/'): which namespace a site is in is not kept.
        here === null || here === '/'
        ? []
        : [() => staticIn([here]), () => staticIn([...stars, ''])];
    for (const level of levels) {
      const applicable: { readonly fn: GraphSymbol; readonly cls: number }[] = [];
      let unknown = false;
      for (const fn of level()) {
        const extended = this.#extension(fn);
        // A function that extends nothing takes no receiver.
        if (extended === undefined) continue;
        const { toId, code } = extended.cls;
        if (toId !== null) {
          if (ancestry().order.has(toId)) applicable.push({ fn, cls: toId });
        } else if (ROOT_TYPES.has(extended.written ?? '')) {
          // The root type is above every class (and below none).
          applicable.push({ fn, cls: ROOT });
        } else if ((code !== RESOLUTION_CODES.external && code !== RESOLUTION_CODES.builtin) || ancestry().outside) {
          // A type outside the codebase is above `cls` only through a base outside it.
          unknown = true;
        }
      }
      // Every candidate of the level is read before deciding, whatever order they come in: the
      // names an answer depends on must not hang on symbol ids (an update renumbers a file's).
      if (unknown) return unresolved(RESOLUTION_CODES.ambiguous);
      if (applicable.length === 0) continue;
      if (!kotlin && new Set(applicable.map((a) => namespaceOf(reader.symbol(a.fn.parentId!)!.qualifiedName))).size > 1) return unresolved(RESOLUTION_CODES.ambiguous);
      const above = new Map<number, ReadonlySet<number>>();
      for (const a of applicable) if (!above.has(a.cls)) above.set(a.cls, a.cls === ROOT ? new Set() : new Set([ROOT, ...this.#ancestry(reader.symbol(a.cls)!).bases.map((x) => x.id)]));
      const best = applicable.filter((a) => applicable.every((b) => b === a || (b.cls !== a.cls && above.get(a.cls)!.has(b.cls))));
      return best.length === 1 ? { toId: best[0]!.fn.id, code: RESOLUTION_CODES.typed } : unresolved(RESOLUTION_CODES.ambiguous);
    }
    return NOT_FOUND;
  }

  /** The lookup scope of a site's caller (C++: the namespaces and classes around it), '' without one. */
  #scopeOf(ctx: SiteContext): string {
    if (ctx.scope === undefined) ctx.scope = ctx.strategy.lookupScope?.(ctx.chain[0]!) ?? '';
    return ctx.scope;
  }

  /** What a language's fallback may read (see FallbackSite), one object per file. */
  #fallbackSite(file: GraphFile): FallbackSite {
    if (this.#lastFallback?.file.id === file.id) return this.#lastFallback;
    const reader = this.#reader;
    const strategy = this.#strategyOf(file.language);
    const site: FallbackSite = {
      file: { ...file, moduleName: reader.symbol(file.moduleId)?.name ?? '' },
      named: (name) =>
        reader.named(name).map((s) => {
          const f = reader.file(s.fileId);
          return { id: s.id, kind: s.kind, qualifiedName: s.qualifiedName, fileId: s.fileId, parentId: s.parentId, flags: s.flags, path: f?.path ?? '', language: f?.language ?? '' };
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
