import { CKGError } from '../errors.js';
import { textHash } from '../indexer/decode.js';
import type { ExtractionOptions, LanguageDefinition } from './types.js';

/**
 * The visitor registry: the single place that knows languages. Maps ids and file extensions to
 * {@link LanguageDefinition}s.
 *
 * @example
 * ```ts
 * const registry = createDefaultRegistry();          // the built-in languages
 * registry.register(myToyLanguage);                  // add your own
 * const only = registry.subset(['python', 'go']);    // index just these
 * registry.forPath('/repo/app/main.py')?.id;          // 'python'
 * ```
 * @public
 */
export class LanguageRegistry {
  readonly #byId = new Map<string, LanguageDefinition>();
  readonly #byExtension = new Map<string, LanguageDefinition>();
  readonly #byInterpreter = new Map<string, LanguageDefinition>();

  constructor(languages: Iterable<LanguageDefinition> = []) {
    for (const language of languages) this.register(language);
  }

  /** Adds a language. Throws `DUPLICATE_LANGUAGE` when its id or an extension is taken. */
  register(language: LanguageDefinition): this {
    validate(language);
    if (this.#byId.has(language.id)) {
      throw new CKGError('DUPLICATE_LANGUAGE', `Language ${language.id} is already registered`, { language: language.id });
    }
    for (const ext of language.extensions) {
      const owner = this.#byExtension.get(ext);
      if (owner) {
        throw new CKGError('DUPLICATE_LANGUAGE', `Extension ${ext} already belongs to ${owner.id}`, { language: language.id, extension: ext });
      }
    }
    for (const name of language.interpreters ?? []) {
      const owner = this.#byInterpreter.get(name);
      if (owner) {
        throw new CKGError('DUPLICATE_LANGUAGE', `Interpreter ${name} already belongs to ${owner.id}`, { language: language.id, interpreter: name });
      }
    }
    this.#byId.set(language.id, language);
    for (const ext of language.extensions) this.#byExtension.set(ext, language);
    for (const name of language.interpreters ?? []) this.#byInterpreter.set(name, language);
    return this;
  }

  /** Removes a language by id (for example to replace a built-in one). */
  unregister(id: string): boolean {
    const language = this.#byId.get(id);
    if (!language) return false;
    this.#byId.delete(id);
    for (const ext of language.extensions) this.#byExtension.delete(ext);
    for (const name of language.interpreters ?? []) this.#byInterpreter.delete(name);
    return true;
  }

  /** The language with this id, or undefined. */
  get(id: string): LanguageDefinition | undefined {
    return this.#byId.get(id);
  }

  /** The language that owns this extension (with its dot), or undefined. */
  forExtension(extension: string): LanguageDefinition | undefined {
    return this.#byExtension.get(extension);
  }

  /** The language of a file path, by its last extension (case-sensitive), or undefined. */
  forPath(path: string): LanguageDefinition | undefined {
    const slash = path.lastIndexOf('/');
    const dot = path.lastIndexOf('.');
    if (dot <= slash + 1) return undefined;
    return this.#byExtension.get(path.slice(dot));
  }

  /** The language whose `interpreters` hold this name (from a `#!` line: `python3`, `bash`), or undefined. */
  forInterpreter(name: string): LanguageDefinition | undefined {
    return this.#byInterpreter.get(name);
  }

  /** True when some language can be recognised by a `#!` line. */
  get hasInterpreters(): boolean {
    return this.#byInterpreter.size > 0;
  }

  /** A new registry holding only the given ids. Throws `UNKNOWN_LANGUAGE` for an unknown id. */
  subset(ids: Iterable<string>): LanguageRegistry {
    const picked: LanguageDefinition[] = [];
    for (const id of ids) {
      const language = this.#byId.get(id);
      if (!language) {
        throw new CKGError('UNKNOWN_LANGUAGE', `Unknown language ${id}; known: ${[...this.#byId.keys()].join(', ')}`, { language: id });
      }
      picked.push(language);
    }
    return new LanguageRegistry(picked);
  }

  /** All registered languages, in registration order. */
  list(): LanguageDefinition[] {
    return [...this.#byId.values()];
  }

  /**
   * `id@extractorVersion` of every language, sorted: part of the index's rebuild key. With
   * `options`, the versions are those of an index extracting with them.
   */
  fingerprint(options?: ExtractionOptions): string {
    return this.list()
      .map((l) => `${l.id}@${extractorVersionOf(l, options)}`)
      .sort()
      .join(',');
  }
}

/**
 * What an index records per file as the version of its extraction: the language's own
 * `version` plus its grammar package and version, so upgrading either re-parses the language's
 * files on the next update (and nothing else); then, when the index has extraction options
 * (`functionMacros`), a digest of them, so changing those re-parses every file.
 *
 * @example
 * ```ts
 * extractorVersionOf(python); // '1+tree-sitter-python@0.25.0'
 * extractorVersionOf(c, { functionMacros: ['DEFINE_HANDLER'] }); // '3+tree-sitter-c@0.24.1+x0c9e6f2a'
 * ```
 * @public
 */
export function extractorVersionOf(language: LanguageDefinition, options?: ExtractionOptions): string {
  const grammar = language.grammarPackage;
  const version = grammar ? `${language.version}+${grammar.name}@${grammar.version}` : language.version;
  const extraction = extractionFingerprint(options);
  return extraction === '' ? version : `${version}+x${extraction}`;
}

/**
 * A short stable digest of extraction options; `''` for the defaults (no option set), so an
 * index without options keeps the plain versions.
 */
export function extractionFingerprint(options: ExtractionOptions | undefined): string {
  const macros = options?.functionMacros ?? [];
  if (macros.length === 0) return '';
  const canonical = `functionMacros=${[...new Set(macros)].sort().join(',')}`;
  return textHash(canonical).toString(36);
}

/** What a `functionMacros` entry must look like: a C identifier, an optional `*`, an optional `:N`. */
const FUNCTION_MACRO = /^[A-Za-z_]\w*\*?(?::[1-9]\d*)?$/;

/**
 * Checks extraction options given at run time (they come from callers' configuration) and
 * returns them as plain data. Throws `INVALID_ARGUMENT` naming the bad entry.
 */
export function validateExtractionOptions(options: { readonly functionMacros?: unknown }): ExtractionOptions {
  const macros = options.functionMacros;
  if (macros === undefined) return {};
  if (!Array.isArray(macros)) throw new CKGError('INVALID_ARGUMENT', 'functionMacros must be an array of macro names');
  for (const macro of macros) {
    if (typeof macro !== 'string' || !FUNCTION_MACRO.test(macro)) {
      throw new CKGError('INVALID_ARGUMENT', `functionMacros: ${JSON.stringify(macro)} is not a macro name (NAME, NAME* or NAME:N)`, { macro: String(macro) });
    }
  }
  return macros.length === 0 ? {} : { functionMacros: [...macros] as string[] };
}

function validate(language: LanguageDefinition): void {
  const problems: string[] = [];
  if (typeof language?.id !== 'string' || !/^[a-z][a-z0-9_]*$/.test(language.id)) problems.push('id must match /^[a-z][a-z0-9_]*$/');
  if (!Array.isArray(language?.extensions) || language.extensions.length === 0) problems.push('extensions must be a non-empty array');
  else if (language.extensions.some((e) => typeof e !== 'string' || !/^\.[^./]+$/.test(e))) problems.push('each extension must look like ".ext"');
  if (typeof language?.visitor !== 'function') problems.push('visitor must be a function');
  if (typeof language?.version !== 'string' || language.version === '') problems.push('version must be a non-empty string');
  if (language?.grammar === undefined || language.grammar === null) problems.push('grammar is required');
  if (language?.interpreters !== undefined && (!Array.isArray(language.interpreters) || language.interpreters.some((n) => typeof n !== 'string' || !/^[\w.+-]+$/.test(n)))) {
    problems.push('interpreters must be an array of program names');
  }
  if (problems.length > 0) {
    throw new CKGError('INVALID_ARGUMENT', `Invalid language definition ${String(language?.id)}: ${problems.join('; ')}`, { language: language?.id });
  }
}
