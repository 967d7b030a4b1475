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
}

/** How a language's graph works. Every member is a pure function of its arguments. */
export interface LanguageGraph {
  /** Languages whose files import one another (TypeScript imports JavaScript). */
  readonly family: string;
  /** The module name of a file (`relativePath`: POSIX, from the codebase root). */
  moduleName(relativePath: string, context: NamingContext): string;
  /**
   * What module names depend on besides a file's path, as a short key ('' when nothing): stored
   * with each file's extractor version, so a change re-parses the language's files.
   */
  namingKey?(context: NamingContext): string;
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
  /** An unresolved absolute import may be a submodule attribute (`import pkg` then `pkg.sub.f()`). */
  readonly submodulesAreMembers: boolean;
  /**
   * One module name spans several files: a Go package, a Java/Kotlin/Scala package, a C#
   * namespace. A plain name then also finds the top-level definitions of the package's other
   * files (resolution `package`), and a member of the package is looked up in all its files.
   */
  readonly sharedModules?: boolean;
  /**
   * A plain name inside a class body means a member of the class or its bases (Java, C#,
   * Kotlin, Scala, C++ `m()` for `this.m()`), before the module's names.
   */
  readonly implicitMembers?: boolean;
  /**
   * The last resort for a plain name nothing in its scopes or module binds, before builtins:
   * C's global functions (declared in an included header, defined in one `.c` file). Return
   * undefined to go on.
   */
  fallback?(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined;
  /**
   * Where a plain name is looked up from besides the file, as a key: C++'s enclosing
   * namespaces and classes (`geo::Circle` for a call in `geo::Circle::area`). Sites of one file
   * with the same scope share an answer; the fallback gets it in {@link FallbackLookup.scope}.
   */
  lookupScope?(caller: { readonly kind: string; readonly name: string; readonly qualifiedName: string }): string;
  /**
   * A qualified name's head may be a namespace, which is no definition (C++ `ns::f()`,
   * `ns::Class::m()`): when the head is not found, the resolver asks the fallback for the
   * qualifier as a class, then for the name as a member of the namespace path
   * ({@link FallbackLookup.qualifier}).
   */
  readonly qualifiedNames?: boolean;
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

/** How a name is looked up, for {@link LanguageGraph.fallback}. */
export interface FallbackLookup {
  /** The caller's {@link LanguageGraph.lookupScope} ('' without one). */
  readonly scope: string;
  /** For a qualified name (`geo::util::log` → `['geo', 'util']`): the qualifier; absent for a plain name. */
  readonly qualifier?: readonly string[];
  /** `type`: the name must be a class (a base, a declared type); `value` (the default): anything a call or value use may mean. */
  readonly want?: 'type' | 'value';
}

/** What {@link LanguageGraph.fallback} may read about the site and the codebase. */
export interface FallbackSite {
  /** The site's file. */
  readonly file: { readonly id: number; readonly path: string; readonly language: string; readonly moduleId: number };
  /** Symbols named exactly `name` (every file), with their file's path and language. */
  named(name: string): readonly { readonly id: number; readonly kind: string; readonly fileId: number; readonly parentId: number | null; readonly flags: number; readonly path: string; readonly language: string }[];
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
  | { readonly toId: number; readonly resolution: 'local' | 'include' | 'global' | 'package' | 'import' | 'qualified' }
  | { readonly toId: null; readonly reason: 'ambiguous' | 'not-found' | 'external' | 'builtin' | 'macro' };
