import { DEFINITION_TYPES, ecmascriptVisitor } from './ecmascript.js';
import type { LanguageDefinition } from './types.js';
import { implement, JAVASCRIPT } from './builtin.js';
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
export const javascript: LanguageDefinition = implement(JAVASCRIPT, {
  visitor: ecmascriptVisitor,
  references: (root, sink) => ecmascriptReferences(root, sink, DEFINITION_TYPES),
});
