// The syntactic facts a language's reference visitor extracts from one file, as plain data
// (they cross worker threads). Resolution (src/graph/resolver.ts) turns them into edges; a
// fact says only what the file's own text shows, so a file's facts change only when it does.
import type { Node } from 'web-tree-sitter';

/**
 * Why a site cannot be resolved whatever the rest of the codebase holds, decided from the
 * file alone (the resolver never looks at such a site again):
 * `parameter` / `local-variable`: the called name is bound in an enclosing function;
 * `dynamic`: the receiver is an expression whose type the file does not declare (an untyped
 * parameter, a field, a call result, a subscript…).
 * `builtin`: the receiver is a value of a builtin type (a literal, `', '.join(names)`, or a
 * local only ever assigned literals), whose methods no codebase defines.
 *
 * @example
 * ```ts
 * sink.call(nameNode, { name: 'task', fixed: 'parameter' }); // def with_retry(task): task()
 * ```
 * @public
 */
export type FixedReason = 'parameter' | 'local-variable' | 'dynamic' | 'builtin';

/**
 * What a member call or reference is made on.
 *
 * - `self`: `self.m()` / `this.m()` (Go: the receiver): the enclosing class, then its bases;
 *   with `attribute`, the value of the instance's attribute of that name that the class's bases
 *   declare (`this.client.get()` with `protected client: Client` in a base, Python's
 *   `self.store.get()` with `store: Store` annotated in a base: `field` bindings with a type);
 * - `super`: `super().m()` / `super.m()`: the enclosing class's bases; with `type`, the one base
 *   the language means, as written (PHP's `parent::m()`: the class `extends` names, never a trait
 *   the class uses);
 * - `type`: a receiver whose class the file declares (an annotated parameter or local, a
 *   Java/C#/Go typed variable): `type` is the type's name as written (`Foo`, `models.Foo`);
 *   with `constructed`, the receiver is the value of a call of that name (`x = Foo()`,
 *   `Foo().m()`), which is an instance of it only if the name is a class;
 * - `path`: a chain of free names (`m.f()` → `['m']`, `pkg.sub.f()` → `['pkg', 'sub']`,
 *   `Store.open()` → `['Store']`): a module, package or class found through the same rules
 *   as a plain name; a part `'[]'` after a field's name reads an element of that field's
 *   container (Go's `s.items[0].m()` in a method of Store → `['Store', 'items', '[]']`), after
 *   a type's name an element of a value of that type (`type Holes []Hole`: a `field` binding
 *   named `[]` of the type), a
 *   part `'()'` what the function or method before it declares it returns (`c.first().m()`
 *   → `['Catalog', 'first', '()']`; after a type's name, Go's conversion: a value of it).
 *
 * @example
 * ```ts
 * const receiver: ReceiverFact = { kind: 'type', type: 'Catalog' }; // def f(c: Catalog): c.add()
 * ```
 * @public
 */
export type ReceiverFact =
  | { readonly kind: 'self'; readonly attribute?: string }
  | { readonly kind: 'super'; readonly type?: string }
  | { readonly kind: 'type'; readonly type: string; readonly constructed?: boolean }
  | { readonly kind: 'path'; readonly path: readonly string[] };

/**
 * One call, value use, base class or import found in a file.
 *
 * `kind`: `call` (a call site), `reference` (a function used as a value: passed as a
 * callback, returned, stored), `inherits` / `implements` (a base of the class at `caller`),
 * `import` (an import of `name`, a module as written). `caller` is the index of the innermost
 * enclosing definition (see {@link ExtractedGraph}) or -1 for the file's module; the visitor
 * never sets it: it is computed from the site's offset.
 *
 * @example
 * ```ts
 * const site: SiteFact = { kind: 'call', name: 'add', line: 12, caller: 3, receiver: { kind: 'self' } };
 * ```
 * @public
 */
export interface SiteFact {
  /** What the site is (see above). */
  readonly kind: 'call' | 'reference' | 'inherits' | 'implements' | 'import';
  /** The name as written at the site (the alias, not the original). */
  readonly name: string;
  /** 1-based line of the name's token. */
  readonly line: number;
  /** The innermost enclosing definition's index, or -1 for the file's module (computed, not set by visitors). */
  readonly caller: number;
  /** What the call is made on (`self.add()`, `c.add()` with a known type, `a.b.c()`), when it has a receiver. */
  readonly receiver?: ReceiverFact;
  /** `new Foo()`: the call constructs `name` (a call of a class name constructs it too). */
  readonly construct?: boolean;
  /** `super(...)`: a call of the enclosing class's base constructor. */
  readonly superConstructor?: boolean;
  /** Set when the file alone shows the site cannot be resolved. */
  readonly fixed?: FixedReason;
  /**
   * The visitor follows the language's scopes exactly and no enclosing function or block binds
   * the name (or the receiver path's head): only the module's names, its imports and the
   * language's globals are candidates, never a definition nested in an enclosing function (a
   * function stored in an object literal, or declared in a block that has ended, is no name in
   * scope). JavaScript and TypeScript set it.
   */
  readonly moduleScope?: boolean;
  /**
   * The name (or the receiver path's head) is bound by an import in the body of the class the
   * site is directly in (Python `class C: from m import f` then `x = f()` in the body): that
   * binding, not the module's name, is what the site means. A class body's names are not visible
   * from its methods or from a comprehension or lambda in it; the visitor, which knows its
   * scopes, sets this only where they are. Python sets it.
   */
  readonly classBody?: boolean;
  /**
   * The number of arguments of a call, where the language overloads by arity (Java, Kotlin,
   * Scala, C#): of several definitions of the name, only those whose {@link ReferenceSink.signature}
   * admits it are candidates. Undefined when not counted (a spread argument).
   */
  readonly arity?: number;
  /**
   * An `inherits` or `implements` site whose kind the syntax only guesses (the first entry of a
   * C# base list, a Kotlin supertype written without a constructor call): the declaration the
   * base resolves to decides, an interface (flagged `interface`) giving `implements` and a class
   * `inherits`. A base that stays unresolved keeps the kind as written.
   */
  readonly kindFromTarget?: boolean;
  /**
   * A `reference` whose name is a dotted path written in a string literal
   * (`'django.contrib.auth.backends.ModelBackend'` in a settings list, `patch('shop.mail.send')`,
   * `import_string('a.b.C')`): code that imports by name may load it. It names the module or the
   * member of a module the path spells out from the codebase's module names, as an absolute import
   * would (never a name in scope); a path that names nothing in the codebase stays unresolved
   * (`external`). Python sets it.
   */
  readonly dotted?: boolean;
  /**
   * An `import` done at run time (JavaScript's and TypeScript's `import('./page')`): the module
   * object it gives may be used in ways no edge shows (`React.lazy` rendering its default
   * export), so callers of what the module exports are a lower bound.
   */
  readonly dynamicImport?: boolean;
}

/**
 * A name an import (or a module-level assignment) binds in a file.
 *
 * - `module`: the name is the module `module` (`import a.b as m` → name `m`, module `a.b`;
 *   `import a.b` → name `a`, module `a`);
 * - `member`: the name is `member` of module `module` (`from a import f as g` → name `g`,
 *   member `f`); JS/TS named and default imports (`member: 'default'`);
 * - `star`: every public name of `module` (`from a import *`, `export * from './a'`);
 * - `export`: (JS/TS) the module exports local `member` as `name`; with `module`, it
 *   re-exports `member` of that module (`export { a as b } from './m'`);
 * - `assign`: a module-level assignment binds `name` to a value the file does not declare;
 *   with `module`, a value of the class `module` as written (Go's `var userMap sync.Map`;
 *   Python's `site = AdminSite()` where nothing else in the file binds `site`; a JS/TS
 *   `const store = new Store()` or `const api: Api = …`):
 *   `userMap.Store()` is a call of that class's method, `userMap()` no call of the class;
 * - `declare`: (C, C++) a prototype declares function `name` without defining it (`member`
 *   `'static'` for a `static` one); a file that includes this one sees the declaration;
 * - `macro`: (C, C++) a function-like macro `name` is defined here (`#define name(...)`);
 * - `alias`: (C++) `name` is another name for the type `module` (`using A = ns::B;`,
 *   `typedef ns::B A;`);
 * - `using`: (C++) `using ns::f;` makes `module` `ns`'s `name` visible unqualified;
 *   `using namespace ns;` is named `*` with `module` `ns`.
 *
 * `declare`, `macro`, `alias` and `using` bind nothing an import follows: they say what an
 * included file makes visible to the files that include it (C and C++ graph rules). `build`
 * (Go): the file's `//go:build` expression in `member`, named `go:build`; it binds no name
 * either, and says which files of the package a build compiles with it.
 *
 * `field` (Java, Go, Python, JavaScript, TypeScript): the class (the binding's scope) has a field `name` whose declared type is
 * the class `module` as written (Java: fields of class types only; Go: every field, without
 * `module` when its type is no named type, each embedded struct under its type's name, and a
 * container of named element types (`items []*Item`) as its shape: NUL, then
 * `of|slice||Item`, `of|map|K|V` or `of|chan||T`; a type declared as such a container
 * (`type Holes []Hole`) has one named `[]` with its shape);
 * `member` `'private'` for a private one. It binds no name either: a member lookup that finds no
 * method or class of the name reads it to type a receiver (`UNSAFE.get()` through a static
 * import, `System.err.println()`, a base's `stringBuilder.append()`, Go's `s.db.Query()` in a
 * method whose struct is declared in another file). Python, JavaScript, TypeScript: an attribute a
 * method stores on the instance (`self.name = …`, `this.name = …`, without `module`), which may
 * hide a method `name` for calls through an instance.
 *
 * `returns` (Go, Python, JavaScript, TypeScript): the function or method `name` (the binding's
 * scope) returns first a value of the type `module` as written (`func Open() (*File, error)` →
 * `File`, `def make() -> Store`, `make(): Store`); it binds no name either: `f := os.Open(…)`
 * then `f.Read()`, `x := s.Get()` then `x.M()`, read it to type f and x.
 *
 * `awaits` (Python, TypeScript): awaiting what the function or method `name` (the binding's
 * scope) returns gives a value of the type `module` as written (`async def find() -> Store`,
 * `find(): Promise<Store>` → `Store`); it binds no name either: `s = await find()` then
 * `s.get()` reads it.
 *
 * `receiver` (Kotlin, C#): the function `name` (the binding's scope) is an extension of the type
 * `module` as written (`fun Foo.ext()`, `static int Ext(this Foo f)` → `Foo`; C#'s `this object`
 * → `object`); without `module` when the type names no class (a type parameter, a function
 * type). It binds no name either: `f.ext()` on a value of a class without a member `ext` may be
 * this function, and in a Kotlin extension's body the type is the implicit receiver.
 *
 * `decorator`: the definition (the binding's scope) is decorated (Python, JavaScript,
 * TypeScript), annotated (Java, Kotlin, Scala) or has an attribute (C#, PHP, Rust) `name` as
 * written, without its arguments (`property`, `app.route`, `register.filter`, `Component`,
 * `GetMapping`, `tokio::main`), at the decorator's line; those that leave how the definition is
 * called as it is (Python's `staticmethod`, `functools.wraps`…, Java's `@Override`, C#'s
 * `[Obsolete]`, Rust's `#[inline]`…) are not reported. It binds no name either: the decorator
 * receives the definition as a value, or code reading the annotation may call it by reflection,
 * where no edge shows (a property's getter runs when the attribute is read, a route handler when
 * a request comes, a test when the runner runs), so a callers answer of the definition is a
 * lower bound.
 *
 * `module` is written as in the source (`.models`, `./util`, `java.util`); the language's
 * module rules resolve it. `scope` is the enclosing definition for an import inside a
 * function (-1 at module level).
 *
 * @example
 * ```ts
 * const binding: BindingFact = { kind: 'member', name: 'title_case', module: 'thirdparty.strings', member: 'title_case', line: 1, scope: -1 };
 * ```
 * @public
 */
export interface BindingFact {
  /** How the name is bound (see above). */
  readonly kind: 'module' | 'member' | 'star' | 'export' | 'assign' | 'declare' | 'macro' | 'alias' | 'using' | 'build' | 'field' | 'returns' | 'awaits' | 'receiver' | 'decorator';
  /** The name the file uses. */
  readonly name: string;
  /** The module as written in the source, for imports and re-exports. */
  readonly module?: string;
  /** The imported or exported member's own name. */
  readonly member?: string;
  /** 1-based line of the import or assignment. */
  readonly line: number;
  /** The enclosing definition's index for an import inside a function, -1 at module level. */
  readonly scope: number;
}

/**
 * What a definition's own syntax says about it, for dead-code answers: `exported` (JS/TS
 * `export`, `module.exports`, Python `__all__`), `decorated` (registered by a decorator or an
 * attribute/annotation), `static` (C `static`: visible in its own file only; a JS/TS class's static member), `entry` (an entry
 * point the language runs itself); and for resolution: `singleton` (a Scala or Kotlin `object`,
 * which may share its name with a class, its companion: a type names the class, a value the
 * object), and for typed receivers, `returns-self`: a method declared to return an instance of its
 * own class (Rust `fn new() -> Self`), so `x = Foo::new()` types x. `member-value`: a function
 * stored in an object literal (`{ onClick() {} }`), reached through the object, so never dead.
 * `enclosed`: a definition whose name is bound inside a function or block its symbol is not
 * nested in (JS/TS: `function helper() {}` inside an IIFE or a bundler's module wrapper, which
 * anonymous functions leave at module level; a Kotlin local function in a lambda; a Scala `def`
 * in a block; a Java local class): no name of the module, nor member of the class, outside that scope.
 * `private`: a method declared `private` (Java, C#, Kotlin, Scala), which subclasses do not inherit.
 * `interface`: a C# or Kotlin interface, which a class's base list may name where a superclass
 * could stand (C# `class C : I`, Kotlin `class C : I`): a base site marked
 * {@link SiteFact.kindFromTarget} that resolves to it is an `implements` edge, never the class's
 * superclass, so `base.M()` and `: base(…)` there reach `object`, outside the codebase.
 * `partial`: a C# type declared `partial` (its parts, in any file, are one class).
 * `companion`: a Kotlin `companion object` (named or not), whose members the class's body and
 * its subclasses' call without a qualifier, and others through the class's name (`Foo.create()`).
 *
 * @example
 * ```ts
 * const flags: DefinitionFlag[] = ['exported', 'decorated'];
 * ```
 * @public
 */
export type DefinitionFlag = 'exported' | 'decorated' | 'static' | 'entry' | 'test' | 'singleton' | 'returns-self' | 'member-value' | 'enclosed' | 'private' | 'interface' | 'partial' | 'companion';

/**
 * The graph part of an extracted file: where each definition sits, and the file's sites and
 * bindings. Definitions are numbered `functions` first, then `classes` (index
 * `functions.length + i` is `classes[i]`); -1 is the file's module.
 *
 * @example
 * ```ts
 * const calls = file.graph?.sites.filter((s) => s.kind === 'call').length ?? 0;
 * ```
 * @public
 */
export interface ExtractedGraph {
  /** The enclosing definition of each function row, by range (-1: at module level). */
  readonly functionParents: readonly number[];
  /** The enclosing definition of each class row, by range. */
  readonly classParents: readonly number[];
  /** Calls, value uses, bases and imports, in source order. */
  readonly sites: readonly SiteFact[];
  /** Names bound by imports and module-level assignments. */
  readonly bindings: readonly BindingFact[];
  /** Flags by definition index (definitions without flags are absent). */
  readonly flags: Readonly<Record<number, readonly DefinitionFlag[]>>;
  /** How many arguments each definition takes (`[min, max]`, max null: any number), by definition index, where the visitor says. */
  readonly arities?: Readonly<Record<number, readonly [number, number | null]>>;
  /** Names of namespace-like scopes enclosing each definition that are not definitions themselves (C++ namespaces, TS namespaces). */
  readonly namespaces?: Readonly<Record<number, readonly string[]>>;
  /** The file's declared package or namespace (Java `package a.b;`, Go `package x`, C# file-scoped namespace, PHP namespace). */
  readonly package?: string;
  /** Lines in the file (the module symbol's range). */
  readonly lineCount: number;
}

/**
 * Where a reference visitor reports what it finds. Positions come from nodes: a site's line
 * and its caller are those of `at` (the called name's token).
 *
 * @example
 * ```ts
 * const visitor: ReferenceVisitor = (root, sink) => {
 *   for (const call of root.descendantsOfType('call_expression')) {
 *     const fn = call?.childForFieldName('function');
 *     if (fn?.type === 'identifier') sink.site(fn, { kind: 'call', name: fn.text });
 *   }
 * };
 * ```
 * @public
 */
export interface ReferenceSink {
  /**
   * A call, value use, base or import at `at`'s position. `owner`, when given, is a node of the
   * definition the site belongs to instead of the one enclosing `at` (Rust's `impl Trait for X`
   * is a base of the struct `X` declared elsewhere in the file).
   */
  site(at: Node, fact: Omit<SiteFact, 'line' | 'caller'>, owner?: Node): void;
  /**
   * A name bound by an import or assignment; `at` gives the line and, inside a function, the
   * scope. `owner`, when given, is a node of the definition that is the binding's scope instead
   * of the one enclosing `at` (a `decorator` binding: the decorated definition).
   */
  binding(at: Node, fact: Omit<BindingFact, 'line' | 'scope'>, owner?: Node): void;
  /** Marks the definition whose range starts at or contains `definition`'s start (`enclosed`: only one that starts there). */
  flag(definition: Node, flag: DefinitionFlag): void;
  /**
   * How many arguments the function or method at `definition` takes: `min` without defaulted
   * parameters, `max` null for varargs. Calls with a known {@link SiteFact.arity} outside the
   * range never resolve to it (overloads by arity).
   */
  signature?(definition: Node, min: number, max: number | null): void;
  /** A namespace-like scope (not a definition) spanning `node`; definitions inside get `name` in their qualified names. */
  namespace(node: Node, name: string): void;
  /** The file's package or namespace declaration. */
  setPackage(name: string): void;
}

/**
 * A language's reference visitor: reports the calls, value uses, bases, imports and bindings
 * of one parsed file. Like a {@link Visitor} it must be stateless, keep no nodes, and traverse
 * inside wasm (`descendantsOfType`) where it can.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...toy, references: (root, sink) => { ... } };
 * ```
 * @public
 */
export type ReferenceVisitor = (root: Node, sink: ReferenceSink) => void;
