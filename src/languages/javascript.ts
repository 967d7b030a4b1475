import { ecmascriptVisitor } from './ecmascript.js';
import type { LanguageDefinition } from './types.js';
import { ecmascriptReferences } from './references/ecmascript.js';

/**
 * JavaScript (`.js`, `.jsx`, `.mjs`, `.cjs`; the grammar parses JSX): the TypeScript rules
 * (see `ecmascript.ts`) with the JavaScript grammar, whose class fields (`field_definition`)
 * appear in class summaries too.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([javascript]);
 * registry.forPath('/repo/src/App.jsx')?.id; // 'javascript'
 * ```
 * @public
 */
export const javascript: LanguageDefinition = {
  id: 'javascript',
  extensions: ['.js', '.jsx', '.mjs', '.cjs'],
  interpreters: ['node', 'nodejs'],
  grammar: 'tree-sitter-javascript.wasm',
  grammarPackage: { name: 'tree-sitter-javascript', version: '0.25.0' },
  // 3: call-made functions (`const Button = memo(forwardRef((props, ref) => …))`).
  // 4: value uses (`a || b`, `fn.bind`), functions held by locals, object-literal members flagged.
  version: '4',
  visitor: ecmascriptVisitor,
  references: ecmascriptReferences,
};
