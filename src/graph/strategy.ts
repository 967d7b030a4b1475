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
  /**
   * The module name of a file (`relativePath`: POSIX, from the codebase root). `declaredPackage`
   * is the package or namespace the file declares (the reference visitor's `setPackage`), for
   * languages whose module is that declaration rather than the path (Java, Kotlin, Scala, C#).
   */
  moduleName(relativePath: string, context: NamingContext, declaredPackage?: string): string;
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
   * An import specifier may name a class inside a module, not only a module: Java
   * `import a.b.Outer.Inner;` and `import static a.b.Util.slug;`, Kotlin and Scala imports of an
   * object's members, C# `using static`. A specifier no module has is then looked up as a
   * module (its longest prefix that names one) followed by classes nested in it.
   */
  readonly memberImports?: boolean;
  /**
   * A name that two star imports both bind is a compile error when used (Java and Kotlin
   * on-demand imports, C# `using` namespaces, Scala wildcards): so when a star import of a
   * codebase module binds the name, star imports of modules outside the codebase cannot, and
   * the codebase's wins (otherwise a star import we cannot see into makes the name ambiguous).
   */
  readonly starConflictsAreErrors?: boolean;
  /**
   * The last resort for a plain name nothing in its scopes or module binds, before builtins:
   * C's global functions (declared in an included header, defined in one `.c` file). Return
   * undefined to go on.
   */
  fallback?(name: string, site: FallbackSite): FallbackOutcome | undefined;
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
}

/** A fallback's answer: a symbol id with how it was found, or the cause it failed. */
export type FallbackOutcome =
  | { readonly toId: number; readonly resolution: 'include' | 'global' | 'package' | 'import' }
  | { readonly toId: null; readonly reason: 'ambiguous' | 'not-found' | 'external' };
