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
}
