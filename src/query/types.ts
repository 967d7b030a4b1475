// The answers of the graph queries (callers, callees, paths, hierarchies, dead code, symbol
// search, outlines): plain readonly data, the same for the API, the tool and MCP.
import type { SymbolKind, SymbolRef } from '../db/entries.js';

/**
 * What a graph query is asked about: a name (`add_product`), a qualified name
 * (`shop.catalog.Catalog.add_product`), or a symbol from an earlier answer.
 *
 * @example
 * ```ts
 * const target: SymbolTarget = 'shop.catalog.Catalog.add_product';
 * ```
 * @public
 */
export type SymbolTarget = string | SymbolRef;

/**
 * A place in the codebase: a file and a 1-based line.
 *
 * @example
 * ```ts
 * const at: SourceLocation = { filePath: '/abs/repo/app.py', line: 12 };
 * ```
 * @public
 */
export interface SourceLocation {
  /** The file's absolute path. */
  readonly filePath: string;
  /** 1-based line. */
  readonly line: number;
}

/**
 * Calls that the graph could not resolve but that may be calls of the asked definition: they
 * have its name and their cause leaves room for it (an untyped receiver, a call of a value, an
 * ambiguous or unknown name; never a builtin or a module outside the codebase).
 *
 * @example
 * ```ts
 * if (answer.unresolved.count > 0) console.log(`lower bound: ${answer.unresolved.count} more calls named add may be calls of it`);
 * ```
 * @public
 */
export interface UnresolvedCalls {
  /** How many there are. */
  readonly count: number;
  /** The first few of them, in file and line order. */
  readonly sample: readonly SourceLocation[];
  /**
   * Callers: how many of `count` are unresolved uses as a value rather than calls
   * (`callback=other.handle` on a value of unknown type: whatever receives it may call it).
   * Absent when there are none.
   */
  readonly uses?: number;
}

/**
 * One call whose edge names another method than the one it may run: a call on `self`/`this`
 * or on a typed value, which on an instance of a subclass runs that class's override.
 *
 * @example
 * ```ts
 * for (const d of group.dispatch.sample) console.log(`${d.filePath}:${d.line} ${d.symbol.qualifiedName} (its edge: ${d.via.qualifiedName})`);
 * ```
 * @public
 */
export interface DispatchCall extends SourceLocation {
  /** Callers: the function making the call. Callees: the override the call may run. */
  readonly symbol: SymbolRef;
  /** The method the call's edge names (the one overridden, or taken the place of in a subclass). */
  readonly via: SymbolRef;
}

/**
 * Calls that may run a method by dispatch although their edges name another one. Callers: calls
 * of the methods the asked method overrides (`self.process(x)` in `Handler.handle` may run
 * `Upper.process` on an `Upper`), or of a method of another base it takes the place of in a
 * subclass (a mixin's). Callees: the asked function's calls that may run an override instead.
 * Counted, with the first few; while there are any, the answer is a lower bound.
 *
 * @example
 * ```ts
 * const [group] = (await db.callers('Upper.process')).groups;
 * if (group.dispatch.count > 0) console.log(`${group.dispatch.count} calls of the method it overrides may run it`);
 * ```
 * @public
 */
export interface DispatchCalls {
  /** How many there are. */
  readonly count: number;
  /** The first few of them, in file and line order. */
  readonly sample: readonly DispatchCall[];
}

/**
 * One use of a definition as a value (passed as an argument, returned, stored, assigned): what
 * receives it may call it where no edge shows the call (`register(on_save)`, then
 * `callback(1)`).
 *
 * @example
 * ```ts
 * for (const u of group.valueUses.sample) console.log(`${u.filePath}:${u.line} used by ${u.symbol.qualifiedName}`);
 * ```
 * @public
 */
export interface ValueUse extends SourceLocation {
  /** The function (or module) that uses it. */
  readonly symbol: SymbolRef;
}

/**
 * A definition's uses as a value, counted, with the first few in file and line order.
 *
 * @example
 * ```ts
 * if (group.valueUses.count > 0) console.log('also passed around as a value: a lower bound');
 * ```
 * @public
 */
export interface ValueUses {
  /** How many there are. */
  readonly count: number;
  /** The first few of them, in file and line order. */
  readonly sample: readonly ValueUse[];
}

/**
 * A decorator applied to a definition (Python, JavaScript, TypeScript): it receives the
 * definition as a value and may have it called where no edge shows (`@property`: every read of
 * the attribute runs the getter; `@app.route('/')`: the framework calls the handler). Decorators
 * that leave the calls as they are (`staticmethod`, `functools.wraps`…) are not listed.
 *
 * @example
 * ```ts
 * for (const d of group.decorators.sample) console.log(`${d.filePath}:${d.line} @${d.name} on ${d.symbol.qualifiedName}`);
 * ```
 * @public
 */
export interface Decorator extends SourceLocation {
  /** The decorator as written, without its arguments: `property`, `app.route`, `Component`. */
  readonly name: string;
  /** The definition it decorates. */
  readonly symbol: SymbolRef;
}

/**
 * Decorators of the definitions an answer is about, counted, with the first few in file and
 * line order.
 *
 * @example
 * ```ts
 * if (group.decorators.count > 0) console.log('decorated: callers may be missing');
 * ```
 * @public
 */
export interface Decorators {
  /** How many there are. */
  readonly count: number;
  /** The first few of them, in file and line order. */
  readonly sample: readonly Decorator[];
}

/**
 * One call in a callers or callees answer.
 *
 * @example
 * ```ts
 * for (const c of group.calls) console.log(`${c.filePath}:${c.line} ${c.symbol?.qualifiedName ?? c.name}`);
 * ```
 * @public
 */
export interface CallEntry {
  /** The file of the call site. */
  readonly filePath: string;
  /** Line of the call site (of the called name). */
  readonly line: number;
  /** The caller (callers) or the callee (callees); a callee is null when the call is unresolved. */
  readonly symbol: SymbolRef | null;
  /**
   * The symbol's name within its file: its qualified name without its module's
   * (`Catalog.add_product` for `shop.catalog.Catalog.add_product`), or the module's own name.
   */
  readonly local?: string;
  /** The name as written at the site. */
  readonly name: string;
  /** How the call was resolved (`local`, `import`, `self`, …), or `unresolved`. */
  readonly resolution: string;
  /** Why an unresolved callee is unresolved. */
  readonly reason?: string;
  /** 1 for a direct call; 2 for a call of a direct caller (or of a direct callee), and so on. */
  readonly depth: number;
}

/**
 * The calls of (or by) one definition.
 *
 * @example
 * ```ts
 * const [group] = (await db.callers('add_product')).groups;
 * console.log(group.symbol.qualifiedName, group.total, group.calls.length);
 * ```
 * @public
 */
export interface CallGroup {
  /** The definition asked about. */
  readonly symbol: SymbolRef;
  /** Its calls on this page, in depth, file and line order. */
  readonly calls: readonly CallEntry[];
  /** Every call of this group over all pages. */
  readonly total: number;
  /** Callers: unresolved calls elsewhere that may be calls of it. Callees: its own calls whose callee is unresolved (they are in `calls` too). */
  readonly unresolved: UnresolvedCalls;
  /**
   * Callers: calls of methods it overrides that may run it by dispatch (not in `calls`: their
   * edges name the overridden method). Callees: its own calls (in `calls`, at depth 1) that may
   * run an override of the method their edge names.
   */
  readonly dispatch: DispatchCalls;
  /**
   * Callers: its uses as a value elsewhere (`register(on_save)`), whose receivers may call it
   * where no edge shows it. Callees: none (count 0).
   */
  readonly valueUses: ValueUses;
  /**
   * Callers: its decorators, which may have it called where no edge shows (a property read, a
   * registered handler). Callees: none (count 0).
   */
  readonly decorators: Decorators;
  /**
   * Callers: the language or its runtime calls this definition where no call is written
   * (Python's `__iter__` for `for`, `__add__` for `+`; PHP's `__toString`; C++ operators and
   * destructors; `toString()` in string concatenation; an entry point such as `main` or Go's
   * `init`; a test), so the calls listed are a lower bound. Callees: false.
   */
  readonly implicit: boolean;
  /**
   * Callers, of a method: the bases outside the codebase of its class and of the classes above
   * it, as written (`ListView`, `Runnable`). If it overrides one of their methods, their code
   * calls it where no edge shows (Django calls a `ListView`'s `get_queryset`), so a non-empty
   * list makes the answer a lower bound. Callees: empty.
   */
  readonly outsideBases: readonly string[];
  /**
   * Callers, of a class: how many classes of the codebase derive from it, directly or not (a
   * class only ever subclassed has no constructions, yet is used: `class_hierarchy` lists
   * them). 0 otherwise.
   */
  readonly subclasses: number;
  /**
   * Callers: the codebase offers the definition to code outside it: its language marks it
   * exported (JavaScript/TypeScript `export`, Go capitalised, Rust `pub`, C `EXPORT_SYMBOL`), its
   * module's export list names it (Python `__all__`), a Python package's `__init__.py`
   * re-exports it, or it is a public method of such a class (or one such a class inherits).
   * Calls from outside the codebase are never in an answer, so "0 callers" of an exported
   * definition says nothing of its users (`complete` speaks of the codebase). Callees: false.
   */
  readonly exported: boolean;
}

/**
 * The answer of {@link CKGDatabase.callers} and {@link CKGDatabase.callees}.
 *
 * @example
 * ```ts
 * const answer = await db.callers('shop.catalog.Catalog.add_product', { depth: 2 });
 * console.log(answer.complete ? 'every caller' : 'a lower bound');
 * ```
 * @public
 */
export interface CallsAnswer {
  /** One group per definition the target names (several for an ambiguous name), in file order. */
  readonly groups: readonly CallGroup[];
  /**
   * True when the answer is all there is: no unresolved call may be one of these calls, no call
   * may run another method by dispatch (see {@link CallGroup.dispatch}), no use as a value may
   * lead to a call (see {@link CallGroup.valueUses}), no decorator may have it called (see
   * {@link CallGroup.decorators}), the language calls none of them where no call is written (see
   * {@link CallGroup.implicit}), no base outside the codebase may call them (see
   * {@link CallGroup.outsideBases}), and paging shows everything. False means a lower bound.
   */
  readonly complete: boolean;
  /** Calls over all groups and pages. */
  readonly total: number;
  /** Where this page starts among all calls. */
  readonly offset: number;
}

/**
 * Paging and depth of {@link CKGDatabase.callers} / {@link CKGDatabase.callees}.
 *
 * @example
 * ```ts
 * const page2 = await db.callers('save', { limit: 50, offset: 50 });
 * ```
 * @public
 */
export interface CallsOptions {
  /** Levels of callers (or callees) to follow, 1-10. Default 1. */
  readonly depth?: number;
  /** Calls per answer, over all groups. Default: all. */
  readonly limit?: number;
  /** Calls to skip, over all groups. Default 0. */
  readonly offset?: number;
}

/**
 * One hop of a call path: `from` calls `to` at the site.
 *
 * @example
 * ```ts
 * for (const h of path.hops) console.log(`${'  '.repeat(h.depth - 1)}${h.from.name} -> ${h.to?.name ?? h.name}`);
 * ```
 * @public
 */
export interface PathHop {
  /** The calling definition. */
  readonly from: SymbolRef;
  /** Null for an unresolved callee (outbound paths list them; they end there). */
  readonly to: SymbolRef | null;
  /** The called name as written at the site. */
  readonly name: string;
  /** The file of the call site. */
  readonly filePath: string;
  /** 1-based line of the call site. */
  readonly line: number;
  /** The hop's distance from the traced definition (1 = its own callers or callees). */
  readonly depth: number;
}

/**
 * The answer of {@link CKGDatabase.tracePath}: breadth first from the target, each symbol
 * visited once (cycles end there).
 *
 * @example
 * ```ts
 * const path = await db.tracePath('main', { direction: 'outbound', depth: 3 });
 * ```
 * @public
 */
export interface PathAnswer {
  /** The definitions the target names (the starting points). */
  readonly roots: readonly SymbolRef[];
  /** `inbound`: who calls the target (callers of callers); `outbound`: what it calls. */
  readonly direction: 'inbound' | 'outbound';
  /** The most hops followed from the target. */
  readonly depth: number;
  /** The calls found, breadth first. */
  readonly hops: readonly PathHop[];
  /** Inbound: unresolved calls that may reach a symbol of the path, so callers may be missing. */
  readonly unresolved: UnresolvedCalls;
  /**
   * Calls that may run a method of the path by dispatch (inbound: calls of the methods they
   * override) or that the path's calls may run instead (outbound: overrides), not followed as
   * hops.
   */
  readonly dispatch: DispatchCalls;
  /** Inbound: uses of the path's symbols as values, which may lead to calls no hop shows. */
  readonly valueUses: ValueUses;
  /** Inbound: decorators of the path's symbols, which may have them called where no hop shows. */
  readonly decorators: Decorators;
  /** Inbound: the path's definitions that the language or its runtime calls where no call is written (see {@link CallGroup.implicit}), in file and line order. */
  readonly implicit: readonly SymbolRef[];
  /** Inbound: the path's methods whose class has bases outside the codebase, whose code may call them (see {@link CallGroup.outsideBases}), in file and line order. */
  readonly overridable: readonly SymbolRef[];
  /** True when no unresolved call may be a missing hop, no call may dispatch elsewhere, no value use or decorator may lead to a call, and no method of the path is called implicitly or may be called by a base outside the codebase. */
  readonly complete: boolean;
}

/**
 * Options of {@link CKGDatabase.tracePath}.
 *
 * @example
 * ```ts
 * const options: TraceOptions = { direction: 'inbound', depth: 5 };
 * ```
 * @public
 */
export interface TraceOptions {
  /** `inbound`: who reaches the target; `outbound`: what the target reaches. Default outbound. */
  readonly direction?: 'inbound' | 'outbound';
  /** Hops to follow, 1-10. Default 3. */
  readonly depth?: number;
}

/**
 * A class in a hierarchy answer, with its relation to the class it was reached from.
 *
 * @example
 * ```ts
 * for (const b of h.bases) console.log(`${'  '.repeat(b.depth)}${b.relation} ${b.symbol?.qualifiedName ?? b.name}`);
 * ```
 * @public
 */
export interface HierarchyEntry {
  /** The class, or null for a base outside the codebase. */
  readonly symbol: SymbolRef | null;
  /** Its name as written in the base clause. */
  readonly name: string;
  /** `inherits` or `implements`. */
  readonly relation: 'inherits' | 'implements';
  /** 1 for a direct base or subclass. */
  readonly depth: number;
  /** The class it is a base (or a subclass) of. */
  readonly of: SymbolRef;
}

/**
 * One class's hierarchy: its bases and subclasses, transitive.
 *
 * @example
 * ```ts
 * const [h] = await db.classHierarchy('Model');
 * console.log(h.subclasses.length);
 * ```
 * @public
 */
export interface ClassHierarchy {
  /** The class asked about. */
  readonly symbol: SymbolRef;
  /** Its bases, transitively (depth 1 = its direct bases). */
  readonly bases: readonly HierarchyEntry[];
  /** Classes that inherit from it or implement it, transitively. */
  readonly subclasses: readonly HierarchyEntry[];
}

/**
 * A function or method no resolved call or use reaches.
 *
 * @example
 * ```ts
 * for (const d of await db.deadCode({ path: 'src/' })) console.log(d.symbol.qualifiedName);
 * ```
 * @public
 */
export interface DeadCodeEntry {
  /** A function or method no resolved call or value use reaches (see `CKGDatabase.deadCode` for what is left out). */
  readonly symbol: SymbolRef;
  /** Its first line, e.g. `def old_helper(x):`. */
  readonly signature: string;
}

/**
 * Which definitions {@link CKGDatabase.deadCode} looks at.
 *
 * @example
 * ```ts
 * const options: DeadCodeOptions = { path: 'shop/', language: 'python' };
 * ```
 * @public
 */
export interface DeadCodeOptions {
  /** A path prefix, relative to the codebase root or absolute. */
  readonly path?: string;
  /** A language id. */
  readonly language?: string;
  /** The most entries of one page. */
  readonly limit?: number;
  /** Entries to skip, for paging. */
  readonly offset?: number;
}

/**
 * The answer of {@link CKGDatabase.deadCode}.
 *
 * @example
 * ```ts
 * const { entries, total } = await db.deadCode();
 * ```
 * @public
 */
export interface DeadCodeAnswer {
  /** The entries of this page, in file and line order. */
  readonly entries: readonly DeadCodeEntry[];
  /** Entries over all pages. */
  readonly total: number;
  /** Where this page starts. */
  readonly offset: number;
}

/**
 * One result of {@link CKGDatabase.searchSymbols}.
 *
 * @example
 * ```ts
 * const [best] = (await db.searchSymbols('prase_config')).results; // a typo still finds parse_config
 * ```
 * @public
 */
export interface SymbolMatch {
  /** The matching definition. */
  readonly symbol: SymbolRef;
  /** Its first line (`def parse_config(path, strict=False):`). */
  readonly signature: string;
  /** How it matched: `exact`, `prefix`, `word`, `substring`, `fuzzy`, `regex`, `qualified`. */
  readonly match: string;
  /** Resolved calls of it (the tie-break after the match tier). */
  readonly calls: number;
}

/**
 * Options of {@link CKGDatabase.searchSymbols}.
 *
 * @example
 * ```ts
 * const options: SearchSymbolsOptions = { kind: 'class', path: 'src/**', limit: 10 };
 * ```
 * @public
 */
export interface SearchSymbolsOptions {
  /** Only definitions of this kind. */
  readonly kind?: SymbolKind;
  /** Only definitions in files of this language id. */
  readonly language?: string;
  /** A glob (picomatch) of paths relative to the codebase root. */
  readonly path?: string;
  /** Default 20. */
  readonly limit?: number;
  /** Matches to skip, for paging. */
  readonly offset?: number;
}

/**
 * The answer of {@link CKGDatabase.searchSymbols}.
 *
 * @example
 * ```ts
 * const { results, total } = await db.searchSymbols('+order -test save');
 * ```
 * @public
 */
export interface SymbolSearchAnswer {
  /** The matches of this page, best first (exact, prefix, whole word, substring, typos; ties by call count). */
  readonly results: readonly SymbolMatch[];
  /** Matches over all pages. */
  readonly total: number;
  /** Where this page starts. */
  readonly offset: number;
}

/**
 * One definition of a file outline, with the definitions nested in it.
 *
 * @example
 * ```ts
 * const print = (e: OutlineEntry, depth = 0): void => {
 *   console.log(`${'  '.repeat(depth)}${e.startLine}-${e.endLine} ${e.signature}`);
 *   e.children.forEach((c) => print(c, depth + 1));
 * };
 * ```
 * @public
 */
export interface OutlineEntry {
  /** What the definition is. */
  readonly kind: SymbolKind;
  /** Its plain name. */
  readonly name: string;
  /** Its full name (see `SymbolRef.qualifiedName`). */
  readonly qualifiedName: string;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
  /** Its head, on one line (`def add(self, item) -> None`). */
  readonly signature: string;
  /** The definitions inside it, in source order. */
  readonly children: readonly OutlineEntry[];
}

/**
 * The answer of {@link CKGDatabase.fileOutline}.
 *
 * @example
 * ```ts
 * const outline = await db.fileOutline('shop/catalog.py');
 * ```
 * @public
 */
export interface FileOutline {
  /** The file's absolute path. */
  readonly filePath: string;
  /** The id of its language. */
  readonly language: string;
  /** The file's module (its name is the module's). */
  readonly module: SymbolRef;
  /** Its top-level definitions, in source order. */
  readonly entries: readonly OutlineEntry[];
}
