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
