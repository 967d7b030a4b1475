// A language's rules for the code graph that are not syntax: how a file's module is named,
// which modules an import names, which names are builtins, what a constructor is called. The
// resolver (resolver.ts) is the same for every language and asks these.

/**
 * Facts about the codebase that module names depend on, fixed for one sync (computed before
 * any file is written). Changing them re-parses the files of the languages concerned.
 */
export interface NamingContext {
  /** The codebase root's folder name. */
  readonly rootName: string;
  /** The root holds an `__init__.py`: it is itself a Python package, named {@link rootName}. */
  readonly rootIsPythonPackage: boolean;
  /**
   * The project files module names depend on ({@link LanguageGraph.manifests}: Go's `go.mod`,
   * Rust's `Cargo.toml`) found in the folders of the files being described and above them up to
   * the root, by path relative to the root (`go.mod`, `svc/go.mod`), with their text. A folder's
   * manifests are read before any of its files is described, so a missing path means there is none.
   */
  readonly manifests: ReadonlyMap<string, string>;
}

/**
 * The nearest manifest named `name` at or above the folder of `relativePath` (a file's path from
 * the root): its folder (`''` for the root) and text, or undefined.
 */
export function nearestManifest(context: NamingContext, relativePath: string, name: string): { readonly dir: string; readonly text: string } | undefined {
  let dir = relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
  for (;;) {
    const text = context.manifests.get(dir === '' ? name : `${dir}/${name}`);
    if (text !== undefined) return { dir, text };
    if (dir === '') return undefined;
    dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
  }
}

/** How a language's graph works. Every member is a pure function of its arguments. */
export interface LanguageGraph {
  /** Languages whose files import one another (TypeScript imports JavaScript). */
  readonly family: string;
  /**
   * The module name of a file (`relativePath`: POSIX, from the codebase root). `declaredPackage`
   * is the package or namespace the file declares (the reference visitor's `setPackage`), for
   * languages whose module is that declaration rather than the path (Java, Kotlin, Scala, C#).
   */
  moduleName(relativePath: string, context: NamingContext, declaredPackage?: string): string;
  /**
   * What the module name of the file at `relativePath` depends on besides its path, as a short
   * key ('' when nothing): stored with the file's extractor version, so a change re-parses it.
   */
  namingKey?(context: NamingContext, relativePath: string): string;
  /**
   * File names whose content module names depend on (`go.mod`, `Cargo.toml`): they are read in
   * every indexed folder and its ancestors into {@link NamingContext.manifests}, and are part of
   * the snapshot key, so editing one re-indexes the files whose {@link LanguageGraph.namingKey} changes.
   */
  readonly manifests?: readonly string[];
  /** Joins a definition's module name and its chain of enclosing names (`pkg.mod` + `Catalog`, `add`). */
  qualify(moduleName: string, chain: readonly string[]): string;
  /**
   * The module names an import specifier may mean, best first (`./util` from module `src/a` →
   * `src/util`, `src/util/index`); empty for a module outside the codebase. `fromPath` is the
   * importing file's path (only its file name may matter: Python's `__init__.py`).
   */
  importTargets(specifier: string, fromModule: string, fromPath: string): readonly string[];
  /** Among modules of one name, the one an import means (`.ts` over `.d.ts`), or undefined when they tie. */
  pickModule?(candidates: readonly { readonly path: string }[]): number | undefined;
  /** Names that are the language's own when nothing in the codebase binds them. */
  readonly builtins: ReadonlySet<string>;
  /** Method names that construct an instance of their class (`__init__`, `constructor`). */
  constructorNames(className: string): readonly string[];
  /** A module's names are only what it exports (JS/TS), not everything it defines (Python). */
  readonly exportsOnly: boolean;
  /** A package's member names start with `_` when private (Python's `from m import *` skips them). */
  isPrivateName?(name: string): boolean;
  /**
   * How module names join their parts (Rust `::`). When set, an import path that names no
   * module is walked from its longest prefix that does through module members, so a module
   * re-exported under another path is found (Rust's `use crate::mem` at a crate root, then
   * `use crate::mem::swap` elsewhere). Member imports (`memberImports`) are split at it too
   * (PHP's `App\\Models\\User`); `.` without it.
   */
  readonly pathSeparator?: string;
  /** An unresolved absolute import may be a submodule attribute (`import pkg` then `pkg.sub.f()`). */
  readonly submodulesAreMembers: boolean;
  /**
   * One module name spans several files: a Go package, a Java/Kotlin/Scala package, a C#
   * namespace. A plain name then also finds the top-level definitions of the package's other
   * files (resolution `package`), and a member of the package is looked up in all its files.
   */
  readonly sharedModules?: boolean;
  /**
   * Whether two files of one shared module are ever compiled together (Go: `x_linux.go` and
   * `y_windows.go` never are, nor a `//go:build plan9` file and a `//go:build linux` one): a
   * plain name in one never means a definition of the other. Absent: always.
   */
  readonly compiledTogether?: (a: CompiledFile, b: CompiledFile) => boolean;
  /**
   * A plain name inside a class body means a member of the class or its bases (Java, C#,
   * Kotlin, Scala, C++ `m()` for `this.m()`), before the module's names.
   */
  readonly implicitMembers?: boolean;
  /**
   * The visitor marks every plain name no enclosing scope binds ({@link SiteFact.moduleScope}),
   * so a site that is not marked sits where some scope binds the name: an `enclosed` definition
   * (declared inside an anonymous function) may then be it. Without it, an `enclosed` definition
   * is never a module-level candidate (a call it may be stays unresolved, never wrong).
   */
  readonly siteScopes?: boolean;
  /**
   * An import specifier may name a class inside a module, not only a module: Java
   * `import a.b.Outer.Inner;` and `import static a.b.Util.slug;`, Kotlin and Scala imports of an
   * object's members, C# `using static`. A specifier no module has is then looked up as a
   * module (its longest prefix that names one) followed by classes nested in it.
   */
  readonly memberImports?: boolean;
  /**
   * A qualified name whose head names nothing in scope starts at a package, absolutely (Java's
   * `java.io.Serializable`, Kotlin's `com.acme.util.slug()`): read like an import specifier. Not
   * where package names are relative to the enclosing ones (C# namespaces, Scala packages).
   */
  readonly absolutePackagePaths?: boolean;
  /**
   * A name that two star imports both bind is a compile error when used (Java and Kotlin
   * on-demand imports, C# `using` namespaces, Scala wildcards): so when a star import of a
   * codebase module binds the name, star imports of modules outside the codebase cannot, and
   * the codebase's wins (otherwise a star import we cannot see into makes the name ambiguous).
   */
  readonly starConflictsAreErrors?: boolean;
  /**
   * `super.m()` (C# `base.M()`) looks in the superclass, the first `inherits` base, and what it
   * inherits: never in the interfaces the class implements itself (Java's `super.clone()` in
   * `class P implements Marker` is Object's, not Marker's). A class without one extends the
   * language's root class (Object), outside the codebase: the call stays unresolved.
   */
  readonly superIsSuperclass?: boolean;
  /**
   * Methods of one name are overloads told apart by their parameters, and a variadic one is
   * chosen only when no fixed-arity overload takes the arguments (Java, C#, Kotlin, Scala): a
   * class with a base outside the codebase may inherit such an overload, so a call that only a
   * variadic method of the codebase takes stays unresolved there.
   */
  readonly variadicLast?: boolean;
  /**
   * Functions declare what they return first (`returns` bindings, Go; TypeScript's return
   * types): `x := f()` then `x.m()`, `Store.create().get()` are calls on that type, read in the
   * function's file.
   */
  readonly returnTypes?: boolean;
  /**
   * What a call of a function outside the codebase (or of one not resolved) returns is a value of
   * unknown type: `_.find(users, pred).save()` may call the codebase's `save`, so such a chain is
   * `dynamic`, never `external` or `builtin`. JavaScript and TypeScript set it.
   */
  readonly outsideResultsUnknown?: boolean;
  /**
   * Functions may extend a class declared elsewhere (`receiver` bindings): `f.ext()` on a value of
   * a class that has no member `ext` is the one extension visible at the site that applies to the
   * class, found in the language's order. `top-level` (Kotlin's `fun Foo.ext()`): extensions are
   * top-level functions, imported by name or with `.*` or in the package, and in such a
   * function's body the extended class is the implicit receiver (`this.m()` and `m()` are its
   * members first). `static-classes` (C#'s `static int Twice(this Foo x)`): extensions are the
   * methods of top-level static classes in the file's namespace, the namespaces around it and
   * those it `using`s; their bodies name the receiver as a parameter.
   */
  readonly extensionReceivers?: 'top-level' | 'static-classes';
  /**
   * A file's module holds nested modules that the file's symbols share (Rust's inline
   * `mod inner { … }`: its items are the file module's, their qualified names say which mod
   * holds them). A plain name in a function of such a mod means that mod's own item of the name
   * when it has one (an item shadows glob imports, and importing a name the mod defines does not
   * compile); otherwise the file module's names as ever.
   */
  readonly inlineModules?: boolean;
  /**
   * Classes hold companion objects (Kotlin; DefinitionFlag `companion`): a plain name in a class's
   * body that the class and its bases do not define is a member of its companion or of a base's;
   * `Foo.create()` is a member of Foo's companion when Foo itself has none.
   */
  readonly companionObjects?: boolean;
  /**
   * Methods store attributes on their instance (`self.x = …`, `this.x = …`: `field` bindings of
   * the class, without a type), which hide a member of that name for calls through an instance:
   * `self.x()` / `c.x()` stay unresolved when the class or a class above it stores one.
   */
  readonly instanceAttributes?: boolean;
  /**
   * Classes declare their fields' types (`field` bindings): a member lookup that finds no method
   * or class where a receiver is being named (`UNSAFE.get()`, `System.err.println()`) takes the
   * field's declared class, read in the declaring class's file. A field declared without a
   * class (`int`, an array, a type parameter, Go's `func` and anonymous interface types) types
   * nothing, and hides the bases' fields of its name (Go's shallowest field wins).
   */
  readonly fieldTypes?: boolean;
  /**
   * A base's `private` members are not inherited (Java, C#, Kotlin, Scala): a plain name in a
   * subclass passes them by for the next candidates (the enclosing class's static method of the
   * name). Read from the base's member summaries.
   */
  readonly privateNotInherited?: boolean;
  /**
   * A member is looked up in the bases level by level, not depth-first: the shallowest one wins
   * and two different ones at the same depth leave the site ambiguous (Go's promoted methods of
   * embedded types, Rust's methods from the traits a type implements).
   */
  readonly basesByDepth?: boolean;
  /**
   * Python: members are looked up along the class's C3 linearisation (its method resolution
   * order), not depth-first, and a class attribute (`m = None` in a class body) hides a method
   * of the same name further along it.
   */
  readonly linearisedBases?: boolean;
  /**
   * Scala: the traits mixed in later (`class B extends A with T with U`) come first in the class's
   * linearisation and override what an earlier base defines (U's `m`, then T's, then A's). The
   * bases are still searched in declaration order, depth-first, with the language's overload and
   * privacy rules; a member found in one is then ambiguous when a later base (or a base of it
   * not searched already) defines the name too, or is outside the codebase and may.
   */
  readonly mixinsOverride?: boolean;
  /**
   * JavaScript/TypeScript: a class's static and instance members are apart (`static create()`
   * and `create()` may both exist along a hierarchy). `this.m()` in a static method, and
   * `Class.m()`, want a static member; `this.m()` in an instance method and `x.m()` on a typed
   * value an instance one; a target of the other kind leaves the call ambiguous.
   */
  readonly staticMembersApart?: boolean;
  /**
   * The last resort for a plain name nothing in its scopes or module binds, before builtins:
   * C's global functions (declared in an included header, defined in one `.c` file). Return
   * undefined to go on. `lookup` says what is asked: a name that must be a class (`want:
   * 'type'`), or, with {@link LanguageGraph.qualifiedNames}, the member of a qualifier the
   * resolver could not follow.
   */
  fallback?(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined;
  /**
   * A qualified name (`M.f()`) the resolver cannot follow member by member (its head binds
   * nothing or is a builtin, or a module along it has no such member) is asked of the
   * {@link LanguageGraph.fallback} with its qualifier: Lua's tables are no definitions, so
   * `function M.f()` is found by its qualified name, and a module's members are those of the
   * table it returns. C++'s namespaces are no definitions either (`ns::f()`, `ns::Class::m()`):
   * the resolver first asks for the qualifier's last part as a class inside the rest
   * (`want: 'type'`), whose members it then looks up itself, bases included; with
   * {@link LanguageGraph.fallbackFirst}, a head the fallback calls `external` (the file includes
   * headers outside the codebase) may still be a namespace, and is asked too.
   */
  readonly qualifiedNames?: boolean;
  /**
   * Classes are open (Ruby): every class definition of one qualified name in the family is the
   * same class. A lookup that finds several means the one whose file path sorts first (then
   * the first in its file); its members are the symbols whose qualified name is
   * `qualify('', [class's qualified name, member])` in any file (methods of every reopening,
   * classes nested by a compact `class A::B`), its bases those of every definition in that order.
   */
  readonly openClasses?: boolean;
  /**
   * C#: a class declared `partial` (DefinitionFlag `partial`) in several places, files included,
   * is one class, as an open class is ({@link LanguageGraph.openClasses}); one without the
   * modifier stays the class it declares.
   */
  readonly partialClasses?: boolean;
  /**
   * The method a class defines to answer for members it lacks (Python's `__getattr__`): a member
   * that the class's lookup order does not find, on a class that has it, is of unknown origin
   * (`dynamic`), not missing. Read along linearised bases.
   */
  readonly missingMemberHook?: string;
  /**
   * `self` is implicit (Ruby: `puts` in a method is `self.puts`): a `self` call that the
   * enclosing class and its bases do not answer (not found) is a builtin when the language has
   * one of that name (a method every object has), not a codebase definition found by name.
   */
  readonly implicitSelf?: boolean;
  /**
   * Modules every file imports on demand without saying so (Java's `java.lang.*`): looked up
   * like the file's own star imports, after its definitions, its package and its named imports,
   * and only when the codebase holds the module (the JDK's own sources). Outside the codebase
   * they add nothing: {@link LanguageGraph.builtins} speaks for their common names.
   */
  readonly implicitStarImports?: readonly string[];
  /**
   * Methods named like their class are constructors even though a call of the class does not
   * target them (Kotlin's secondary constructors: see {@link LanguageGraph.constructorNames}).
   * Like every constructor they are no members of a subclass.
   */
  readonly constructorsNamedLikeClass?: boolean;
  /**
   * Where a plain name is looked up from besides the file, as a key: C++'s enclosing
   * namespaces and classes (`geo::Circle` for a call in `geo::Circle::area`). Sites of one file
   * with the same scope share an answer; the fallback gets it in {@link FallbackLookup.scope}.
   */
  lookupScope?(caller: { readonly kind: string; readonly name: string; readonly qualifiedName: string }): string;
  /**
   * A plain name outside functions is looked up by the fallback alone, the file's own
   * definitions included (C++: a file's definitions sit in namespaces, which only the
   * language's rules know).
   */
  readonly fallbackFirst?: boolean;
  /**
   * A call or value use may mean a class (`Foo()` constructs it). False where classes are
   * only types (C: a `struct` tag never names a function). Default true.
   */
  readonly callableClasses?: boolean;
  /**
   * A class is constructed by calling it like a function (`Foo()`, Python, Kotlin, Scala), so a
   * value made by a call of a name outside the codebase is an instance of an outside class only
   * when the name reads as a class's (CapWords: `Path(…)`); a function's (`import_module(…)`,
   * `re.compile(…)`) returns a value of unknown type, whose calls may be the codebase's
   * (`module = import_module(name); module.Command()`): those are `dynamic`, not `external`.
   */
  readonly constructsByCall?: boolean;
  /**
   * Builtins whose call returns a value of any type (Python's `getattr(o, name)`, `next(it)`,
   * `max(xs)`, `type(o)`): a value one makes is of unknown type, as a builtin method's result is
   * (`d.get(k)`), so calls on it are `dynamic`, not `builtin` (which no callers answer counts).
   * A call of any other builtin makes a value of a builtin type (`set()`, `sorted(xs)`).
   */
  readonly untypedBuiltinResults?: ReadonlySet<string>;
  /**
   * A module-level value of a class (an `assign` binding with its class: Python's
   * `site = AdminSite()`) is that value where another module imports it by name too: a package's
   * `from .sites import site` gives `admin.site.register()` the class's method; JavaScript's
   * `import { store } from './store'` gives `store.get()` Store's. Python, JavaScript and
   * TypeScript set it.
   */
  readonly valuesReexported?: boolean;
  /**
   * Types and values are named apart (C, C++: `struct stat` beside the function `stat()`): a
   * lookup that wants a type (a base, a declared type) sees only classes, so a function of the
   * same name does not make it ambiguous.
   */
  readonly typesApart?: boolean;
  /**
   * Imports are textual inclusion (C and C++ `#include`): a file sees what the files it
   * includes declare, and what they include, transitively ({@link FallbackSite.visible}). An
   * import names a module by the end of its path: the resolver looks up the modules whose file
   * name is the specifier's last part (`linux/fs.h` → every `fs.h`) and this picks the ones it
   * means, best first; several that tie make the import ambiguous, and a file then sees all of
   * them. It must only pick modules whose name ends with the specifier (after a `/`) unless
   * the specifier has `.` or `..` parts: then the resolver records the file name as a
   * dependency of the answer. The answer may depend on `fromModule`'s folder, not on its file
   * name (files of one folder share it).
   */
  includeCandidates?(specifier: string, fromModule: string, modules: readonly { readonly name: string }[]): readonly number[];
}

/** A file as {@link LanguageGraph.compiledTogether} sees it. */
export interface CompiledFile {
  /** Its path from the codebase root. */
  readonly path: string;
  /** The build constraint it declares (a `build` binding: Go's `//go:build` expression), if any. */
  readonly buildConstraint?: string;
}

/** What a {@link LanguageGraph.fallback} is asked. */
export interface FallbackLookup {
  /** `type`: the name must be a class (`new Foo`, a declared type, a base); `value` (default): anything a call or value use may mean. */
  readonly want?: 'type' | 'value';
  /** For a qualified name (`M.f` → `['M']`, `a.b.f` → `['a', 'b']`, `geo::util::log` → `['geo', 'util']`): the qualifier as written. */
  readonly qualifier?: readonly string[];
  /** The module the qualifier led to when that module has no such member (Lua `m.f()` after `local m = require("a.b")`). */
  readonly module?: { readonly id: number; readonly name: string; readonly fileId: number };
  /** The caller's {@link LanguageGraph.lookupScope} ('' without one). */
  readonly scope?: string;
}

/** What {@link LanguageGraph.fallback} may read about the site and the codebase. */
export interface FallbackSite {
  /** The site's file (`moduleName`: its module symbol's name). */
  readonly file: { readonly id: number; readonly path: string; readonly language: string; readonly moduleId: number; readonly moduleName: string };
  /** Symbols named exactly `name` (every file), with their file's path and language. */
  named(name: string): readonly { readonly id: number; readonly kind: string; readonly qualifiedName: string; readonly fileId: number; readonly parentId: number | null; readonly flags: number; readonly path: string; readonly language: string }[];
  /** A file's bindings (imports, includes) in source order. */
  bindings(fileId: number): readonly { readonly scopeId: number | null; readonly kind: string; readonly name: string; readonly module: string | null; readonly member: string | null }[];
  /** The files whose module is named `name` in this language's family. */
  modulesNamed(name: string): readonly { readonly fileId: number; readonly moduleId: number; readonly path: string }[];
  /** Records a name the answer depends on beyond those looked up through {@link FallbackSite.named} (for incremental updates). */
  depend(name: string): void;
  /** Symbols named exactly `name`, as the resolver holds them (no copy: the cheap form of {@link FallbackSite.named}). */
  symbolsNamed(name: string): readonly FallbackSymbol[];
  /** `declare`, `macro`, `alias` and `using` bindings named `name` in every file (prototypes, function-like macros, C++ type aliases and `using`). */
  declarations(name: string): readonly { readonly fileId: number; readonly kind: string; readonly module: string | null; readonly member: string | null }[];
  /**
   * The files whose declarations the site's file sees: itself and, for a language with
   * {@link LanguageGraph.includeCandidates}, every file it includes, transitively. `external`
   * when some include in that closure names no file of the codebase (a system header).
   */
  visible(): { readonly files: { has(fileId: number): boolean }; readonly external: boolean };
  /** Whether a file's language is of the site's language family (C and C++ include one another). */
  inFamily(fileId: number): boolean;
}

/** A symbol as {@link FallbackSite.symbolsNamed} gives it. */
export interface FallbackSymbol {
  readonly id: number;
  readonly kind: string;
  readonly name: string;
  readonly qualifiedName: string;
  readonly fileId: number;
  readonly parentId: number | null;
  readonly flags: number;
}

/** A fallback's answer: a symbol id with how it was found, or the cause it failed. */
export type FallbackOutcome =
  | { readonly toId: number; readonly resolution: 'local' | 'self' | 'qualified' | 'include' | 'global' | 'package' | 'import' }
  | { readonly toId: null; readonly reason: 'ambiguous' | 'not-found' | 'external' | 'builtin' | 'macro' };
