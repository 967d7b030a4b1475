import type { SqlJsStatic } from 'sql.js';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { platform } from '#platform';
import { CKGError } from '../errors.js';
import type { GrammarSource, LanguageDefinition } from '../languages/types.js';

/**
 * Where ckg-wasm finds its wasm files (grammars, the tree-sitter runtime, sql.js).
 * In Node nothing is needed: the package's own `wasm/` folder is used. In a browser, give
 * `baseUrl` (the folder the files are served from) or `load`.
 *
 * @example
 * ```ts
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, wasm: { baseUrl: '/ckg-wasm/' } });
 * ```
 * @public
 */
export interface WasmOptions {
  /** Base URL the wasm files are served from (`new URL(fileName, baseUrl)`). */
  readonly baseUrl?: string | URL;
  /** Returns the bytes of a wasm file by name; wins over `baseUrl`. */
  readonly load?: (fileName: string) => Promise<Uint8Array>;
  /** An already-initialised sql.js (`initSqlJs` keeps the first caller's config process-wide). */
  readonly sqlJs?: SqlJsStatic;
}

let treeSitterReady: Promise<void> | undefined;
let sqlJsReady: Promise<SqlJsStatic> | undefined;

async function readNamedWasm(options: WasmOptions, fileName: string, packageName?: string): Promise<Uint8Array> {
  if (options.load) return await options.load(fileName);
  if (options.baseUrl !== undefined) return await platform.readUrl(new URL(fileName, options.baseUrl));
  return await platform.loadBundledWasm(fileName, packageName);
}

async function readGrammar(source: GrammarSource, options: WasmOptions, packageName?: string): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (typeof source === 'function') return await source();
  if (source instanceof URL) return await platform.readUrl(source);
  return await readNamedWasm(options, source, packageName);
}

/** Initialises the web-tree-sitter runtime once per process (it is a module-level singleton). */
export function initTreeSitter(options: WasmOptions): Promise<void> {
  treeSitterReady ??= (async () => {
    if (options.load || options.baseUrl !== undefined) {
      const wasmBinary = await readNamedWasm(options, 'web-tree-sitter.wasm', 'web-tree-sitter');
      await Parser.init({ wasmBinary: wasmBinary as unknown as ArrayBuffer });
    } else {
      await Parser.init();
    }
  })().catch((error: unknown) => {
    treeSitterReady = undefined;
    throw new CKGError('WASM_LOAD_FAILED', `Cannot load the tree-sitter runtime: ${String(error)}`, {}, { cause: error });
  });
  return treeSitterReady;
}

/** Initialises sql.js once per process, or adopts the caller's instance. */
export function initSql(options: WasmOptions): Promise<SqlJsStatic> {
  if (options.sqlJs) {
    sqlJsReady ??= Promise.resolve(options.sqlJs);
    return Promise.resolve(options.sqlJs);
  }
  sqlJsReady ??= (async () => {
    // Loaded on first use: parse workers share this module and never open a database.
    const sqlJsModule = (await import('sql.js')) as unknown as { default?: typeof import('sql.js').default };
    const initSqlJs = sqlJsModule.default ?? (sqlJsModule as unknown as typeof import('sql.js').default);
    if (options.load || options.baseUrl !== undefined) {
      const wasmBinary = await readNamedWasm(options, platform.sqlWasmFileName, 'sql.js');
      return await initSqlJs({ wasmBinary: wasmBinary as unknown as ArrayBuffer });
    }
    return await initSqlJs();
  })().catch((error: unknown) => {
    sqlJsReady = undefined;
    throw new CKGError('WASM_LOAD_FAILED', `Cannot load sql.js: ${String(error)}`, {}, { cause: error });
  });
  return sqlJsReady;
}

/**
 * Loads grammars lazily (only languages whose files are met) and keeps one parser per language.
 * Grammar loads are shared process-wide by source identity; parsers belong to this object and
 * are freed by {@link ParserPool.delete}.
 */
export class ParserPool {
  readonly #options: WasmOptions;
  readonly #parsers = new Map<string, Promise<Parser>>();
  #deleted = false;

  constructor(options: WasmOptions = {}) {
    this.#options = options;
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
    const parser = await this.parserFor(language);
    const tree = parser.parse(source);
    if (!tree) throw new CKGError('INVALID_ARGUMENT', `tree-sitter returned no tree for a ${language.id} file`);
    return tree;
  }

  /** Frees every parser. Idempotent. */
  async delete(): Promise<void> {
    if (this.#deleted) return;
    this.#deleted = true;
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
        throw new CKGError('WASM_LOAD_FAILED', `Cannot load the ${language.id} grammar: ${String(error)}`, { language: language.id }, { cause: error });
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
