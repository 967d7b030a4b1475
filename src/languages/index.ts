import { LanguageRegistry } from './registry.js';
import type { LanguageDefinition } from './types.js';
import { python } from './python.js';

/**
 * The built-in languages, in registry order. Adding a language = one module + one line here.
 *
 * @public
 */
export const builtinLanguages: readonly LanguageDefinition[] = Object.freeze([
  python,
]);

/**
 * A new registry with every built-in language; callers may `register` more on it.
 *
 * @example
 * ```ts
 * const registry = createDefaultRegistry().register(myLanguage);
 * const db = await CKGDatabase.open({ codebasePath, fs, languages: registry });
 * ```
 * @public
 */
export function createDefaultRegistry(): LanguageRegistry {
  return new LanguageRegistry(builtinLanguages);
}

export { python };
