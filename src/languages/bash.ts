import type { Node } from 'web-tree-sitter';
import { fieldText, nearestAncestor, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, BASH } from './builtin.js';
import { bashReferences } from './references/bash.js';

const FUNCTION = typeSet('function_definition');

function visit(root: Node, sink: VisitorSink): void {
  for (const node of root.descendantsOfType('function_definition')) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    const outer = nearestAncestor(node, FUNCTION);
    sink.addFunction(node, { name, parentFunction: outer ? fieldText(outer, 'name') : undefined });
  }
}

/**
 * Bash: every function definition — `f() { … }`, `function f { … }`, `function f() { … }` and
 * subshell bodies `f() ( … )` — is a function named as written (`log::info`, `my-func`); one
 * defined inside another function's body has it as `parentFunction`. There are no classes.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([bash]);
 * const db = await CKGDatabase.open({ codebasePath: '/scripts', fs, languages: registry });
 * await db.queryFunction('log::info');
 * ```
 * @public
 */
export const bash: LanguageDefinition = implement(BASH, {
  visitor: visit,
  references: bashReferences,
});
