import { LanguageRegistry } from './registry.js';
import type { LanguageDefinition } from './types.js';
import { python } from './python.js';
import { java } from './java.js';
import { c } from './c.js';
import { cpp } from './cpp.js';
import { typescript, tsx } from './typescript.js';
import { javascript } from './javascript.js';
import { go } from './go.js';
import { rust } from './rust.js';
import { php } from './php.js';
import { ruby } from './ruby.js';
import { csharp } from './csharp.js';
import { kotlin } from './kotlin.js';
import { scala } from './scala.js';
import { lua } from './lua.js';
import { bash } from './bash.js';

/**
 * The built-in languages, in registry order. Adding a language = one module + one line here.
 *
 * @example
 * ```ts
 * console.log(builtinLanguages.map((l) => `${l.id}: ${l.extensions.join(' ')}`).join('\n'));
 * ```
 * @public
 */
export const builtinLanguages: readonly LanguageDefinition[] = Object.freeze([
  python,
  java,
  c,
  cpp,
  typescript,
  tsx,
  javascript,
  go,
  rust,
  php,
  ruby,
  csharp,
  kotlin,
  scala,
  lua,
  bash,
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
export { java };
export { c };
export { cpp };
export { typescript, tsx };
export { javascript };
export { go };
export { rust };
export { php };
export { ruby };
export { csharp };
export { kotlin };
export { scala };
export { lua };
export { bash };
