import type { Node } from 'web-tree-sitter';
import type { ClassInfo, ExtractionOptions, FunctionInfo, LanguageDefinition, VisitorSink } from '../languages/types.js';
import type { ParserPool } from './runtime.js';
import { textHash } from '../indexer/decode.js';
import type { ExtractedGraph } from '../graph/facts.js';
import { GraphCollector } from './graph-collector.js';

/**
 * A function row as extracted from one file (plain data, safe to post between workers).
 *
 * @example
 * ```ts
 * for (const f of file.functions) console.log(`${f.name} ${f.startLine}-${f.endLine}`, f.parentClass ?? f.parentFunction ?? '');
 * ```
 */
export interface ExtractedFunction {
  /** The plain name. */
  readonly name: string;
  /** The definition's source text. */
  readonly body: string;
  /** Where `body` starts in the decoded source text (UTF-16 code units, like `String.slice`). */
  readonly bodyStart: number;
  /** Where `body` ends (exclusive): `body === source.slice(bodyStart, bodyEnd)`. */
  readonly bodyEnd: number;
  /**
   * `textHash(body)`, computed where the row is extracted (a parse worker) so the thread that
   * writes the database does not hash every body; recomputed there when absent.
   */
  readonly bodyHash?: number;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
  /** The enclosing function's name, or null. */
  readonly parentFunction: string | null;
  /** The class's bare name for a method, or null. */
  readonly parentClass: string | null;
}

/**
 * A class row as extracted from one file.
 *
 * @example
 * ```ts
 * for (const c of file.classes) console.log(c.name, c.startLine, c.methods ?? '(no methods)');
 * ```
 */
export interface ExtractedClass {
  /** The plain name. */
  readonly name: string;
  /** The definition's source text. */
  readonly body: string;
  /** Where `body` starts in the decoded source text (UTF-16 code units). */
  readonly bodyStart: number;
  /** Where `body` ends (exclusive). */
  readonly bodyEnd: number;
  /** `textHash(body)`, as for {@link ExtractedFunction.bodyHash}. */
  readonly bodyHash?: number;
  /** 1-based first line. */
  readonly startLine: number;
  /** 1-based last line, inclusive. */
  readonly endLine: number;
  /** Field summary lines (`- …`, joined by newlines), or null. */
  readonly fields: string | null;
  /** Method summary lines (`- …`, joined by newlines), or null. */
  readonly methods: string | null;
}

/**
 * Everything one file yields.
 *
 * @example
 * ```ts
 * const file: ExtractedFile = await pool.process(python, 'class A:\n    def m(self): pass\n', '/src/a.py');
 * console.log(file.functions.length, file.classes.length, file.hasSyntaxErrors);
 * ```
 */
export interface ExtractedFile {
  /** Functions and methods, in source order. */
  readonly functions: ExtractedFunction[];
  /** Class-like definitions, in source order. */
  readonly classes: ExtractedClass[];
  /** The tree had ERROR or MISSING nodes: some definitions may be absent. */
  readonly hasSyntaxErrors: boolean;
  /** The parse started from a tree kept from the file's previous parse (see `ProcessOptions.keepTree`). */
  readonly incremental?: boolean;
  /** Calls, imports and bases, for languages with a reference visitor. */
  readonly graph?: ExtractedGraph;
}

/**
 * 1-based inclusive lines from `node`'s start to `last`'s end; a range that ends at column 0
 * ends on the line before.
 */
function lineRange(node: Node, last: Node): { startLine: number; endLine: number } {
  const start = node.startPosition.row + 1;
  const end = last.endPosition.column === 0 && last.endPosition.row > node.startPosition.row
    ? last.endPosition.row
    : last.endPosition.row + 1;
  return { startLine: start, endLine: end };
}

function summary(lines: readonly string[] | undefined): string | null {
  if (!lines || lines.length === 0) return null;
  return lines.map((l) => `- ${l}`).join('\n');
}

/**
 * Collects a visitor's reports as rows, dropping exact duplicates (same kind, name, start).
 * Bodies are cut from `source`, the file's original text (the grammar may have been given a
 * rewritten one, with the same offsets).
 */
export class RowCollector implements VisitorSink {
  readonly functions: ExtractedFunction[] = [];
  readonly classes: ExtractedClass[] = [];
  readonly #seen = new Set<string>();
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  addFunction(node: Node, info: FunctionInfo): void {
    if (!info.name) return;
    const key = `f\u0000${info.name}\u0000${node.startIndex}\u0000${info.parentClass ?? ''}`;
    if (this.#seen.has(key)) return;
    // A split definition (see FunctionInfo.endNode) ends where its last part does.
    const last = info.endNode !== undefined && info.endNode.endIndex > node.endIndex ? info.endNode : node;
    this.#seen.add(key);
    // For a string input web-tree-sitter indexes UTF-16 code units, so this is exactly what
    // the lazy and compressed body modes slice again: source.slice(bodyStart, bodyEnd).
    const body = this.#source.slice(node.startIndex, last.endIndex);
    this.functions.push({
      name: info.name,
      body,
      bodyHash: textHash(body),
      bodyStart: node.startIndex,
      bodyEnd: last.endIndex,
      ...lineRange(node, last),
      parentFunction: info.parentFunction ?? null,
      parentClass: info.parentClass ?? null,
    });
  }

  addClass(node: Node, info: ClassInfo): void {
    if (!info.name) return;
    const key = `c\u0000${info.name}\u0000${node.startIndex}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    const body = this.#source.slice(node.startIndex, node.endIndex);
    this.classes.push({
      name: info.name,
      body,
      bodyHash: textHash(body),
      bodyStart: node.startIndex,
      bodyEnd: node.endIndex,
      ...lineRange(node, node),
      fields: summary(info.fields),
      methods: summary(info.methods),
    });
  }
}

/** Lines of a text as editors count them (a final newline does not start a line). */
function lineCount(source: string): number {
  if (source.length === 0) return 1;
  let n = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) n++;
  return source.endsWith('\n') ? n - 1 : n;
}

/**
 * Parses one file's text and runs its language's visitor with the index's extraction options
 * (and its reference visitor unless `withGraph` is false). Frees the tree before returning. `reuse` lets the pool re-parse incrementally from a tree
 * kept for the same path (see {@link ParserPool.parseReusing}); the rows are the same either way.
 */
export async function extractSource(
  pool: ParserPool,
  language: LanguageDefinition,
  source: string,
  reuse?: { readonly key: string; readonly keep?: boolean },
  withGraph = true,
  options: ExtractionOptions = {},
): Promise<ExtractedFile> {
  const { tree, incremental } = await pool.parseReusing(language, source, reuse);
  try {
    const collector = new RowCollector(source);
    // The reference visitor runs first: it may leave the definitions visitor the nodes it found
    // on its walk (Python does: one walk of the tree instead of two). Neither depends on the other.
    const references = withGraph && language.references ? new GraphCollector(source) : undefined;
    if (references) language.references!(tree.rootNode, references);
    language.visitor(tree.rootNode, collector, options);
    const graph: ExtractedGraph | undefined = references?.finish(collector.functions, collector.classes, lineCount(source));
    const file: ExtractedFile = { functions: collector.functions, classes: collector.classes, hasSyntaxErrors: tree.rootNode.hasError, ...(graph ? { graph } : {}) };
    return incremental ? { ...file, incremental } : file;
  } finally {
    tree.delete();
  }
}
