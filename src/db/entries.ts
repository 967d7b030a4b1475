/**
 * A function or method in the index. Plain readonly data.
 *
 * @example
 * ```ts
 * const [f] = await db.queryFunction('parse_config');
 * console.log(`${f.filePath}:${f.startLine}-${f.endLine}`);
 * ```
 * @public
 */
export interface FunctionEntry {
  /** The plain name (`render`, not `Widget.render` or `Widget::render`). */
  readonly name: string;
  /** Absolute path of the file, as the FileSystem sees it (`/repo/app.py`, or `C:/repo/app.py` on Windows). */
  readonly filePath: string;
  /** The definition's source text (first line from the definition's start, no dedent). */
  readonly body: string;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
  /** The enclosing function's name, for nested functions. */
  readonly parentFunction?: string;
  /** The class's bare name, for methods. */
  readonly parentClass?: string;
}

/**
 * A class-like definition (class, struct, interface, trait, enum...) in the index.
 *
 * @example
 * ```ts
 * const [c] = await db.queryClass('Widget');
 * console.log(c.methods); // "- render(self) -> str\n- close(self)"
 * ```
 * @public
 */
export interface ClassEntry {
  /** The plain name (`Widget`; a C++ `ns::Widget` is `Widget`). */
  readonly name: string;
  /** Absolute path of the file, as the FileSystem sees it. */
  readonly filePath: string;
  /** The definition's source text, as {@link FunctionEntry.body}. */
  readonly body: string;
  /** Field summary lines, each `- …`, joined by newlines; absent when there are none. */
  readonly fields?: string;
  /** Method summary lines, each `- …`, joined by newlines; absent when there are none. */
  readonly methods?: string;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
}

/**
 * Which functions `queryFunction` returns: `'function'` = rows without a parent class
 * (top-level and nested functions), `'class_method'` = rows with one.
 *
 * @example
 * ```ts
 * const kind: FunctionKind = 'class_method';
 * const methods = await db.queryFunction('render', kind);
 * ```
 * @public
 */
export type FunctionKind = 'function' | 'class_method';

/**
 * What a symbol of the code graph is: a `function` (no class), a `method` (of a class), a
 * `class` (any class-like definition), or a file's `module` (the code that runs when it loads).
 *
 * @example
 * ```ts
 * const kind: SymbolKind = 'method';
 * ```
 * @public
 */
export type SymbolKind = 'function' | 'method' | 'class' | 'module';

/**
 * A symbol of the code graph: a definition, or a file's module. Plain readonly data.
 *
 * @example
 * ```ts
 * const ref: SymbolRef = {
 *   kind: 'method', name: 'add_product', qualifiedName: 'shop.catalog.Catalog.add_product', language: 'python',
 *   filePath: '/abs/repo/shop/catalog.py', startLine: 12, endLine: 20,
 * };
 * ```
 * @public
 */
export interface SymbolRef {
  /** What the symbol is (a function, a method, a class, a module…). */
  readonly kind: SymbolKind;
  /** The plain name (a module's is its full name). */
  readonly name: string;
  /**
   * The language's own full name: Python `pkg.mod.Class.method`, Java `com.acme.Shop.add`, Go
   * `example.com/store.Store.Open`, JS/TS `src/util/strings.slugify` (the file's path from the
   * codebase root, without extension, then the chain of enclosing definitions).
   */
  readonly qualifiedName: string;
  /** The id of its file's language (`python`, `typescript`, …). */
  readonly language: string;
  /** Absolute path of its file, as in {@link FunctionEntry}. */
  readonly filePath: string;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
}

/**
 * The kinds of edges: `calls` (a call site), `imports` (a file's module imports a module),
 * `inherits` / `implements` (a class and a base), `contains` (a class and its methods, a
 * function and its nested functions).
 *
 * @example
 * ```ts
 * const kinds: EdgeKind[] = ['inherits', 'implements'];
 * ```
 * @public
 */
export type EdgeKind = 'calls' | 'imports' | 'inherits' | 'implements' | 'contains';

/**
 * One edge of the code graph. `to` is null when no declaration-based rule found the target:
 * then `toName` and `reason` say what was called and why it is unresolved. Plain readonly data.
 *
 * @example
 * ```ts
 * const [call] = await db.edges({ kind: 'calls', toName: 'add_product' });
 * console.log(`${call.filePath}:${call.line} ${call.from.qualifiedName} -> ${call.to?.qualifiedName ?? `${call.toName} (unresolved: ${call.reason})`}`);
 * ```
 * @public
 */
export interface Edge {
  /** What the edge is: a call, a value use, an import, a base class… */
  readonly kind: EdgeKind;
  /** The caller (the innermost enclosing named definition, or the file's module), the importing module, the class. */
  readonly from: SymbolRef;
  /** The target, or null when it could not be resolved soundly. */
  readonly to: SymbolRef | null;
  /** The name as written at the site (the alias, not the original). */
  readonly toName: string;
  /** The file of the site. */
  readonly filePath: string;
  /** 1-based line of the site (of the called name's token). */
  readonly line: number;
  /**
   * How the target was found: `local` (same function or file), `import`, `self`, `super`,
   * `typed` (a declared type), `package` (same package or namespace), `include` (C headers),
   * `global`; or `unresolved`.
   */
  readonly resolution: string;
  /**
   * Why an unresolved edge is unresolved: `parameter` / `local-variable` (a call of a value),
   * `dynamic` (an untyped receiver), `builtin`, `external` (a module outside the codebase),
   * `not-found`, `ambiguous` (several candidates).
   */
  readonly reason?: string;
}

/**
 * Which edges {@link CKGDatabase.edges} returns; every field narrows the answer.
 *
 * @example
 * ```ts
 * const callersOfSave = await db.edges({ kind: 'calls', to: 'shop.models.Order.save' });
 * ```
 * @public
 */
export interface EdgeFilter {
  /** Only edges of this kind, or of these kinds. */
  readonly kind?: EdgeKind | readonly EdgeKind[];
  /** The source symbol: a name or a qualified name. */
  readonly from?: string;
  /** The target symbol: a name or a qualified name (resolved edges only). */
  readonly to?: string;
  /** The name as written at the site. */
  readonly toName?: string;
  /** The site's file: absolute, or relative to the codebase root. */
  readonly filePath?: string;
}
