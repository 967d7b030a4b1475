import type { Node } from 'web-tree-sitter';
import { collapseSpaces, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';

const SCOPES = typeSet('function_definition', 'class_definition');

/** `name(params) -> ret` for a method summary; multi-line parameter lists are folded. */
function methodSummary(def: Node): string | undefined {
  const name = fieldText(def, 'name');
  if (!name) return undefined;
  const params = fieldText(def, 'parameters') ?? '';
  const ret = fieldText(def, 'return_type');
  return collapseSpaces(ret ? `${name}${params} -> ${ret}` : `${name}${params}`);
}

function classSummaries(cls: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  for (const child of namedChildren(cls.childForFieldName('body'))) {
    // A decorated method keeps its return type: the summary reads the inner definition.
    const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
    if (def?.type === 'function_definition') {
      const line = methodSummary(def);
      if (line) methods.push(line);
    } else if (child.type === 'expression_statement') {
      const inner = child.namedChildren[0];
      if (inner && inner.type === 'assignment') fields.push(collapseSpaces(inner.text));
    }
  }
  return { fields, methods };
}

function visit(root: Node, sink: VisitorSink): void {
  for (const node of root.descendantsOfType(['function_definition', 'class_definition'])) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    const scope = nearestAncestor(node, SCOPES);
    const scopeName = scope ? fieldText(scope, 'name') : undefined;
    if (node.type === 'class_definition') {
      sink.addClass(node, { name, ...classSummaries(node) });
    } else if (scope?.type === 'class_definition') {
      sink.addFunction(node, { name, parentClass: scopeName });
    } else {
      sink.addFunction(node, { name, parentFunction: scopeName });
    }
  }
}

/**
 * Python: functions (nested ones carry `parentFunction`), methods (`parentClass` = the nearest
 * enclosing class), classes with field (class-level assignments) and method summaries.
 * Ranges follow the definition node, so decorators are outside.
 *
 * @public
 */
export const python: LanguageDefinition = {
  id: 'python',
  extensions: ['.py', '.pyi'],
  grammar: 'tree-sitter-python.wasm',
  grammarPackage: { name: 'tree-sitter-python', version: '0.25.0' },
  version: '1',
  visitor: visit,
};
