import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, PYTHON } from './builtin.js';
import { pythonReferences } from './references/python.js';

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

const DEFINITIONS = ['function_definition', 'class_definition'];

function visit(root: Node, sink: VisitorSink): void {
  // descendantsOfType lists nodes in document order, so the definitions enclosing a node are
  // the open ones on a stack (by end offset): its nearest ancestor among these types, found
  // without one `parent` call (a walk down from the root in tree-sitter) per level.
  const open: { readonly end: number; readonly type: string; readonly name: string | undefined }[] = [];
  // With the code graph, the reference visitor has walked the tree already and found these.
  const { nodes, types } = definitionDescendants(root, DEFINITIONS);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const start = node.startIndex;
    while (open.length > 0 && open[open.length - 1]!.end <= start) open.pop();
    const scope = open[open.length - 1];
    const type = types[i]!;
    const name = fieldText(node, 'name');
    open.push({ end: node.endIndex, type, name });
    if (!name) continue;
    const scopeName = scope?.name;
    if (type === 'class_definition') {
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
export const python: LanguageDefinition = implement(PYTHON, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => pythonReferences(root, sink, DEFINITIONS),
});
