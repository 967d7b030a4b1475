import { Edit, Language, Parser, type Tree } from 'web-tree-sitter';
import { platform } from '#platform';
import { CKGError } from '../errors.js';
import type { GrammarSource, LanguageDefinition } from '../languages/types.js';
import { checkWasm, readConfiguredWasm, readWasm, RUNTIME_WASM } from '../wasm/locate.js';
import type { WasmOptions } from '../wasm/options.js';

export type { WasmOptions } from '../wasm/options.js';

let treeSitterReady: Promise<void> | undefined;

async function readGrammar(source: GrammarSource, options: WasmOptions, packageName?: string): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return checkWasm(source, 'the grammar', 'its LanguageDefinition');
  if (typeof source === 'function') return checkWasm(await source(), 'the grammar', 'its LanguageDefinition.grammar()');
  if (source instanceof URL) return checkWasm(await platform.readUrl(source), source.pathname.split('/').pop() ?? 'the grammar', source.href);
  return await readWasm(options, source, packageName === undefined ? undefined : { packageName });
}

const RUNTIME_HELP =
  "web-tree-sitter reads web-tree-sitter.wasm next to its own module (in Node from its package folder; bundlers such as Vite and webpack emit it as an asset): " +
  "serve it there, or give its URL or bytes as wasm.files['web-tree-sitter.wasm'] or through wasm.load";

/**
 * Initialises the web-tree-sitter runtime once per process. web-tree-sitter keeps one module
 * instance per process (a later `Parser.init()` reuses it), so a host app that uses the same
 * deduplicated web-tree-sitter shares it safely (test/shared-runtime.test.ts).
 */
export function initTreeSitter(options: WasmOptions): Promise<void> {
  treeSitterReady ??= (async () => {
    const wasmBinary = await readConfiguredWasm(options, RUNTIME_WASM);
    try {
      await Parser.init(wasmBinary === undefined ? undefined : { wasmBinary: wasmBinary as unknown as ArrayBuffer });
    } catch (error) {
      const where = wasmBinary === undefined ? RUNTIME_HELP : 'the bytes given through wasm.files or wasm.load must be the web-tree-sitter.wasm of the installed web-tree-sitter version';
      throw new CKGError('WASM_LOAD_FAILED', `Cannot load the tree-sitter runtime (${RUNTIME_WASM}): ${error instanceof Error ? error.message : String(error)}. ${where}.`, { file: RUNTIME_WASM }, { cause: error });
    }
  })().catch((error: unknown) => {
    treeSitterReady = undefined;
    throw error instanceof CKGError ? error : new CKGError('WASM_LOAD_FAILED', `Cannot load the tree-sitter runtime: ${String(error)}`, {}, { cause: error });
  });
  return treeSitterReady;
}

/** How many syntax trees a {@link ParserPool} keeps for incremental re-parses. */
export const KEPT_TREES_LIMIT = 8;
/** How much source (UTF-16 code units, all kept trees together) a {@link ParserPool} keeps trees for. */
export const KEPT_TREES_CHARS = 4 * 1024 * 1024;

/** A position in `text` as tree-sitter counts it for a string input: row, and UTF-16 column. */
function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < index; nl = text.indexOf('\n', nl + 1)) {
    row++;
    lineStart = nl + 1;
  }
  return { row, column: index - lineStart };
}

/**
 * The edit that turns `before` into `after`, as one replaced span: the longest common prefix
 * and suffix are kept. Offsets are UTF-16 code units (web-tree-sitter's unit for string input),
 * never splitting a surrogate pair.
 *
 * @example
 * ```ts
 * oldTree.edit(textEdit(oldSource, newSource));
 * const tree = parser.parse(newSource, oldTree);
 * ```
 */
export function textEdit(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // A common prefix ending on a high surrogate would cut a character in two.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let tail = 0;
  while (tail < shorter - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  // Likewise a common suffix starting on a low surrogate.
  if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return new Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  });
}

/**
 * The text a language's grammar is given for `source`: its {@link LanguageDefinition.rewriteSource}
 * result, checked to keep every offset (same length, line breaks in place), or `source` itself.
 * Throws `INVALID_ARGUMENT` for a rewrite that moved anything.
 *
 * @example
 * ```ts
 * const text = textToParse(typescript, 'interface S<out A> {}'); // 'interface S<    A> {}'
 * ```
 */
export function textToParse(language: LanguageDefinition, source: string): string {
  const rewritten: unknown = language.rewriteSource?.(source) ?? source;
  if (rewritten === source) return source;
  if (typeof rewritten !== 'string' || rewritten.length !== source.length || !sameLineBreaks(source, rewritten)) {
    throw new CKGError('INVALID_ARGUMENT', `The ${language.id} source rewrite moved text (it must keep the length and every line break)`, { language: language.id });
  }
  return rewritten;
}

/** True when both texts (of one length) have their `\n` at the same offsets. */
function sameLineBreaks(a: string, b: string): boolean {
  let i = a.indexOf('\n');
  let j = b.indexOf('\n');
  while (i === j && i !== -1) {
    i = a.indexOf('\n', i + 1);
    j = b.indexOf('\n', j + 1);
  }
  return i === j;
}

/**
 * Makes a tree parsed from a rewritten text read its node texts from the original (offsets are
 * the same). web-tree-sitter reads `node.text` through the tree's text callback, the input it
 * parsed; false when this web-tree-sitter has no such callback (the caller parses the original
 * then).
 */
function readTextsFrom(tree: Tree, source: string): boolean {
  const internals = tree as unknown as { textCallback?: unknown };
  if (typeof internals.textCallback !== 'function') return false;
  internals.textCallback = (index: number): string => source.slice(index);
  return true;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Loads grammars lazily (only languages whose files are met) and keeps one parser per language.
 * Grammar loads are shared process-wide by source identity; parsers belong to this object and
 * are freed by {@link ParserPool.delete}.
 */
export class ParserPool {
  readonly #options: WasmOptions;
  readonly #parsers = new Map<string, Promise<Parser>>();
  /** Trees kept for incremental re-parses, by key (a path); Map order = least recently parsed first. */
  readonly #kept = new Map<string, { readonly languageId: string; readonly text: string; readonly tree: Tree }>();
  #keptChars = 0;
  readonly #keptLimit: number;
  readonly #keptCharsLimit: number;
  #deleted = false;

  /** `limits` bound the trees kept for incremental re-parses (defaults: the exported constants). */
  constructor(options: WasmOptions = {}, limits: { readonly keptTrees?: number; readonly keptChars?: number } = {}) {
    this.#options = options;
    this.#keptLimit = limits.keptTrees ?? KEPT_TREES_LIMIT;
    this.#keptCharsLimit = limits.keptChars ?? KEPT_TREES_CHARS;
  }

  /** The parser for a language, loading its grammar on first use. */
  parserFor(language: LanguageDefinition): Promise<Parser> {
    if (this.#deleted) throw new CKGError('CLOSED', 'The parser pool was deleted');
    let parser = this.#parsers.get(language.id);
    if (!parser) {
      parser = this.#createParser(language);
      this.#parsers.set(language.id, parser);
      parser.catch(() => this.#parsers.delete(language.id));
    }
    return parser;
  }

  async #createParser(language: LanguageDefinition): Promise<Parser> {
    await initTreeSitter(this.#options);
    const grammar = await loadLanguage(language, this.#options);
    const parser = new Parser();
    try {
      parser.setLanguage(grammar);
    } catch (error) {
      parser.delete();
      throw new CKGError('WASM_LOAD_FAILED', `Grammar of ${language.id} is incompatible with web-tree-sitter: ${String(error)}`, { language: language.id }, { cause: error });
    }
    return parser;
  }

  /** Parses source text with the language's parser; the caller must `delete()` the tree. */
  async parse(language: LanguageDefinition, source: string): Promise<Tree> {
    return (await this.parseReusing(language, source, undefined)).tree;
  }

  /**
   * Like {@link ParserPool.parse}, keyed by `reuse.key` (a file path): a tree kept from an
   * earlier parse of the same key is edited to the new text and handed to tree-sitter, which
   * then re-parses only around the change (a function appended to a 16 kB Python file: 0.5 ms
   * instead of 6 ms); `incremental` says whether that happened (not when the new text has
   * syntax errors: those are parsed afresh, see below). `reuse.keep` keeps the new tree
   * for the next parse of that key: set it when the file is likely to change again soon (a
   * small update after an edit), not in a full build, where every kept tree is memory spent
   * for nothing. At most {@link KEPT_TREES_LIMIT} trees, for {@link KEPT_TREES_CHARS}
   * characters of source in all, are kept; the least recently parsed go first.
   */
  async parseReusing(
    language: LanguageDefinition,
    source: string,
    reuse: { readonly key: string; readonly keep?: boolean } | undefined,
  ): Promise<{ tree: Tree; incremental: boolean }> {
    const parser = await this.parserFor(language);
    // The kept tree and its text are those of the text parsed, which differs from `source`
    // where the language rewrites it (both have the same offsets).
    let text = textToParse(language, source);
    const key = reuse?.key;
    const kept = key === undefined ? undefined : this.#kept.get(key);
    if (kept !== undefined) this.#forget(key!);
    let incremental = kept !== undefined && kept.languageId === language.id;
    let tree: Tree | null;
    try {
      if (incremental) {
        kept!.tree.edit(textEdit(kept!.text, text));
        tree = parser.parse(text, kept!.tree);
        if (tree?.rootNode.hasError) {
          // Error recovery may go another way from an old tree than from scratch (a definition
          // found by one parse is lost in the other), and an index must not depend on the
          // order edits came in: text with errors is parsed afresh.
          tree.delete();
          tree = parser.parse(text);
          incremental = false;
        }
      } else {
        tree = parser.parse(text);
      }
      if (tree && text !== source && !readTextsFrom(tree, source)) {
        // Node texts could not be pointed at the original: parse the original itself.
        tree.delete();
        text = source;
        incremental = false;
        tree = parser.parse(source);
      }
    } finally {
      kept?.tree.delete();
    }
    if (!tree) throw new CKGError('INVALID_ARGUMENT', `tree-sitter returned no tree for a ${language.id} file`);
    if (key !== undefined && reuse?.keep === true && source.length <= this.#keptCharsLimit) {
      this.#kept.set(key, { languageId: language.id, text, tree: tree.copy() });
      this.#keptChars += text.length;
      for (const oldest of this.#kept.keys()) {
        if (this.#kept.size <= this.#keptLimit && this.#keptChars <= this.#keptCharsLimit) break;
        this.#forget(oldest, true);
      }
    }
    return { tree, incremental };
  }

  /** Number of syntax trees kept for incremental re-parses. */
  get keptTrees(): number {
    return this.#kept.size;
  }

  /** Drops a kept tree (freeing it when `free`). */
  #forget(key: string, free = false): void {
    const kept = this.#kept.get(key);
    if (kept === undefined) return;
    this.#kept.delete(key);
    this.#keptChars -= kept.text.length;
    if (free) kept.tree.delete();
  }

  /** Frees every parser and kept tree. Idempotent. */
  async delete(): Promise<void> {
    if (this.#deleted) return;
    this.#deleted = true;
    for (const key of [...this.#kept.keys()]) this.#forget(key, true);
    const parsers = [...this.#parsers.values()];
    this.#parsers.clear();
    for (const p of parsers) {
      try {
        (await p).delete();
      } catch {
        // a parser that failed to load has nothing to free
      }
    }
  }
}

const languageCache = new WeakMap<LanguageDefinition, Promise<Language>>();

/** Loads (once per definition object) the tree-sitter Language of a registry entry. */
export function loadLanguage(language: LanguageDefinition, options: WasmOptions): Promise<Language> {
  let loaded = languageCache.get(language);
  if (!loaded) {
    loaded = (async () => {
      let bytes: Uint8Array;
      try {
        bytes = await readGrammar(language.grammar, options, language.grammarPackage?.name);
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        const data = error instanceof CKGError ? { ...error.data, language: language.id } : { language: language.id };
        throw new CKGError('WASM_LOAD_FAILED', `Cannot load the ${language.id} grammar: ${detail}`, data, { cause: error });
      }
      try {
        return await Language.load(bytes);
      } catch (error) {
        throw new CKGError('WASM_LOAD_FAILED', `The ${language.id} grammar is not a tree-sitter wasm this runtime loads: ${String(error)}`, { language: language.id }, { cause: error });
      }
    })();
    loaded.catch(() => languageCache.delete(language));
    languageCache.set(language, loaded);
  }
  return loaded;
}
