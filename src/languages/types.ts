import type { Node } from 'web-tree-sitter';
import type { ReferenceVisitor } from '../graph/facts.js';

/**
 * Where a grammar's wasm comes from.
 *
 * - a `string` is a wasm file name (`'tree-sitter-python.wasm'`) that the runtime's wasm loader
 *   resolves through the `wasm` options (`load`, `files`, `baseUrl`), else in Node from
 *   ckg-wasm's own `wasm/` folder (docs/browser.md);
 * - a `URL` is fetched (or read from disk for `file:` URLs in Node);
 * - bytes are used as they are;
 * - a function is called once, lazily, the first time a file of the language is parsed.
 *
 * @example
 * ```ts
 * const grammar: GrammarSource = async () => new Uint8Array(await (await fetch('/wasm/tree-sitter-lua.wasm')).arrayBuffer());
 * const lua: LanguageDefinition = { id: 'lua', extensions: ['.lua'], grammar, version: '1', visitor };
 * ```
 * @public
 */
export type GrammarSource = string | URL | Uint8Array | (() => Promise<Uint8Array>);

/**
 * Options a visitor passes with a function it found.
 *
 * @example
 * ```ts
 * sink.addFunction(node, { name: 'render', parentClass: 'Widget' });
 * ```
 * @public
 */
export interface FunctionInfo {
  /** The plain name, as a user would search for it. */
  readonly name: string;
  /** The bare name of the class the function is a method of. */
  readonly parentClass?: string | undefined;
  /** The name of the function this one is nested in. */
  readonly parentFunction?: string | undefined;
  /**
   * Where the definition ends when tree-sitter splits it in two siblings: the row then spans
   * from the reported node's start to this node's end (C: `SYSCALL_DEFINE1(close, int, fd)`
   * parses as a call, then a block).
   */
  readonly endNode?: Node | undefined;
}

/**
 * Options a visitor passes with a class-like definition it found.
 *
 * @example
 * ```ts
 * sink.addClass(node, { name: 'Widget', fields: ['kind = "widget"'], methods: ['render(self) -> str'] });
 * ```
 * @public
 */
export interface ClassInfo {
  /** The plain name of the class, struct, interface, trait... */
  readonly name: string;
  /** Summary lines of its fields (no `- ` prefix), or undefined/empty when there are none. */
  readonly fields?: readonly string[] | undefined;
  /** Summary lines of its methods (no `- ` prefix), or undefined/empty when there are none. */
  readonly methods?: readonly string[] | undefined;
}

/**
 * What a visitor reports to; it turns syntax nodes into plain rows (lines, body text).
 *
 * @example
 * ```ts
 * const names: string[] = [];
 * const sink: VisitorSink = {
 *   addFunction: (_node, info) => void names.push(info.name),
 *   addClass: (_node, info) => void names.push(info.name),
 * };
 * python.visitor(tree.rootNode, sink);
 * ```
 * @public
 */
export interface VisitorSink {
  /**
   * Records a function or method. `node` gives the range and the body (for example the whole
   * `const f = () => …` statement for an arrow function bound to a name).
   */
  addFunction(node: Node, info: FunctionInfo): void;
  /** Records a class-like definition whose range and body are `node`'s. */
  addClass(node: Node, info: ClassInfo): void;
}

/**
 * Per-index settings of the extraction, handed to every visitor: plain data (it crosses to
 * parse workers), part of every file's extractor version (changing it re-parses the index).
 *
 * @example
 * ```ts
 * const options: ExtractionOptions = { functionMacros: ['DEFINE_HANDLER', 'TEST_CASE_METHOD:2'] };
 * ```
 * @public
 */
export interface ExtractionOptions {
  /**
   * C and C++ macros that define a function (`DEFINE_HANDLER(timer) { … }`), beyond the shapes
   * found without help (see `IndexOptions.functionMacros`): a macro name, a prefix ending in
   * `*` (`SYSCALL_DEFINE*`), optionally `:N` to name the function after the macro's N-th
   * argument (1-based) instead of its first identifier argument.
   */
  readonly functionMacros?: readonly string[] | undefined;
}

/**
 * A language's visitor: given the root of a parsed file, it reports every definition to the
 * sink. Visitors must be stateless (the same visitor serves every file and worker), must not
 * keep nodes after returning, and should traverse inside wasm (`descendantsOfType`, a
 * `Query`) rather than with a JavaScript cursor loop, which is several times slower.
 *
 * @example
 * ```ts
 * const visitor: Visitor = (root, sink) => {
 *   for (const node of root.descendantsOfType('function_definition')) {
 *     const name = node?.childForFieldName('name')?.text;
 *     if (node && name) sink.addFunction(node, { name });
 *   }
 * };
 * ```
 * @public
 */
export type Visitor = (root: Node, sink: VisitorSink, options?: ExtractionOptions) => void;

/**
 * One language in the visitor registry: plain data plus its visitor.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = {
 *   id: 'toy',
 *   extensions: ['.toy'],
 *   grammar: () => fetchBytes('/grammars/tree-sitter-toy.wasm'),
 *   version: '1',
 *   visitor: (root, sink) => {
 *     for (const node of root.descendantsOfType('function_definition')) {
 *       const name = node.childForFieldName('name')?.text;
 *       if (name) sink.addFunction(node, { name });
 *     }
 *   },
 * };
 * ```
 * @public
 */
export interface LanguageDefinition {
  /** Stable id, following tree-sitter's names (`python`, `tsx`, `c_sharp`). */
  readonly id: string;
  /** File extensions with their dot, matched case-sensitively on the last extension. */
  readonly extensions: readonly string[];
  /** The grammar wasm. */
  readonly grammar: GrammarSource;
  /**
   * The version of the extraction (visitor + grammar). Changing it makes stored indexes of
   * files in this language stale, so they are rebuilt.
   */
  readonly version: string;
  /** Extracts the definitions of one parsed file. */
  readonly visitor: Visitor;
  /**
   * Extracts the file's calls, value uses, bases and imports for the code graph (run on the same
   * tree, after `visitor`). Without it the language's files have definitions but no edges.
   */
  readonly references?: ReferenceVisitor | undefined;
  /** Where the grammar comes from, for the manifest and the docs (npm package and version). */
  readonly grammarPackage?: { readonly name: string; readonly version: string } | undefined;
  /**
   * A cheap test of a file's text: `false` only when the file provably holds no definition the
   * visitor reports and no site or binding the reference visitor reports, whatever the parse.
   * Such a file is indexed with no rows but its module symbol, and not parsed. Only rules that
   * hold for every input belong here (C: a function definition and a struct or union body need
   * a brace, an include, macro or prototype needs `#include`, `#define f(` or `f(...);`; the
   * Linux tree has 8,234 brace-free generated headers, 87 MB, 5,400 of them with such lines).
   * Files skipped this way do not count in `filesWithSyntaxErrors`.
   *
   * @example
   * ```ts
   * const mayDefine = (source: string): boolean => source.includes('{') || source.includes('}');
   * ```
   */
  readonly mayDefine?: ((source: string) => boolean) | undefined;
  /**
   * Rewrites a file's text before it is parsed, to step around known gaps of the grammar (a
   * construct it cannot parse makes it lose much more than that construct). The rewrite must
   * keep every offset: the same length, with line breaks (`\n`) exactly where they were, so
   * lines and columns stay right; a result that does not is rejected (the file is skipped as
   * `parse-failed`). Rows, names and summaries are still read from the original text, which
   * the nodes' offsets slice exactly. Return the argument itself when nothing needs rewriting.
   *
   * @example
   * ```ts
   * // TypeScript: `interface Stream<out A>` parses once the variance keyword is blanked.
   * const rewriteSource = (source: string): string => source.replace(/<out (?=\w)/g, '<    ');
   * ```
   */
  readonly rewriteSource?: ((source: string) => string) | undefined;
  /**
   * Interpreter names (`python`, `bash`, `node`) whose `#!` line makes an extensionless file
   * one of this language's: `#!/usr/bin/env python3` and `#!/usr/bin/python3.11` name
   * `python3.11`, `python3` and `python` (version digits dropped).
   */
  readonly interpreters?: readonly string[] | undefined;
}
