import { DEFINITION_TYPES, ecmascriptVisitor, rewriteTypeScriptSource } from './ecmascript.js';
import type { LanguageDefinition } from './types.js';
import { implement, TSX, TYPESCRIPT } from './builtin.js';
import { ecmascriptReferences } from './references/ecmascript.js';

/**
 * TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts` included): functions (declarations, generators,
 * functions bound to names, `declare function` signatures), classes (classes, abstract classes,
 * interfaces, enums, bound class expressions) with their methods and field/method summaries.
 * The rules are shared with JavaScript; see `ecmascript.ts`. Three shapes the grammar cannot
 * parse (variance annotations `<in out A>`, a generic call signature on its own line after a
 * member, backslashes in template literal types) are rewritten before parsing, offsets kept.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([typescript, tsx]);
 * registry.forPath('/repo/src/app.mts')?.id; // 'typescript'
 * ```
 * @public
 */
export const typescript: LanguageDefinition = implement(TYPESCRIPT, {
  visitor: ecmascriptVisitor,
  references: (root, sink) => ecmascriptReferences(root, sink, DEFINITION_TYPES),
  rewriteSource: rewriteTypeScriptSource,
});

/**
 * TSX (`.tsx`): the TypeScript visitor with the TSX grammar, so JSX parses instead of turning
 * into ERROR nodes (which lost function components and cut class ranges short).
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([typescript, tsx]);
 * registry.forPath('/repo/src/App.tsx')?.id; // 'tsx'
 * ```
 * @public
 */
export const tsx: LanguageDefinition = implement(TSX, {
  visitor: ecmascriptVisitor,
  references: (root, sink) => ecmascriptReferences(root, sink, DEFINITION_TYPES),
  rewriteSource: rewriteTypeScriptSource,
});
