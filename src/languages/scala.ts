import type { Node } from 'web-tree-sitter';
import { allChildren, collapseSpaces, definitionDescendants, fieldLine, fieldText, namedChildren, typeSet } from './common.js';
import { scalaReferences } from './references/scala.js';
import type { FunctionInfo, LanguageDefinition, VisitorSink } from './types.js';
import { implement, SCALA } from './builtin.js';

// Node types of tree-sitter-scala 0.24 (Scala 2 and 3 syntax, braces or indentation).
const CLASS_TYPES = typeSet('class_definition', 'object_definition', 'trait_definition', 'enum_definition', 'package_object');
/** `def` (with a body) and abstract `def` declarations. */
const FUNCTION_TYPES = typeSet('function_definition', 'function_declaration');
/**
 * Code that is not a named function: a `def` inside an anonymous class (`new T { … }`), a
 * lambda or a `given … with` instance is local, never a method of the class around it.
 */
const LOCAL_BLOCKS = typeSet('instance_expression', 'lambda_expression', 'given_definition');
const FIELD_TYPES = typeSet('val_definition', 'var_definition', 'val_declaration', 'var_declaration');

function placement(node: Node): Omit<FunctionInfo, 'name'> {
  let local = false;
  for (let p = node.parent; p; p = p.parent) {
    if (FUNCTION_TYPES.has(p.type)) return { parentFunction: fieldText(p, 'name') };
    if (LOCAL_BLOCKS.has(p.type)) local = true;
    else if (CLASS_TYPES.has(p.type)) return local ? {} : { parentClass: fieldText(p, 'name') };
  }
  return {};
}

/** A definition's head without annotations, up to (not including) its `=` and body, on one line. */
function head(node: Node): string {
  const children = allChildren(node);
  const first = children.find((c) => c.type !== 'annotation');
  if (!first) return '';
  const stop = children.find((c) => c.startIndex > first.startIndex && c.type === '=');
  const end = stop ? stop.startIndex : node.endIndex;
  return collapseSpaces(node.text.slice(first.startIndex - node.startIndex, end - node.startIndex));
}

function classSummaries(cls: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  // Case-class parameters are always fields; other classes' only with `val`/`var`.
  const isCase = allChildren(cls).some((c) => c.type === 'case');
  for (const params of cls.childrenForFieldName('class_parameters')) {
    for (const p of namedChildren(params)) {
      if (p.type !== 'class_parameter') continue;
      if (isCase || allChildren(p).some((c) => c.type === 'val' || c.type === 'var')) fields.push(collapseSpaces(p.text));
    }
  }
  for (const child of namedChildren(cls.childForFieldName('body'))) {
    if (FUNCTION_TYPES.has(child.type)) methods.push(head(child));
    else if (FIELD_TYPES.has(child.type)) fields.push(fieldLine(child.text));
    else if (child.type === 'enum_case_definitions') fields.push(collapseSpaces(child.text));
  }
  return { fields, methods };
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = [...CLASS_TYPES, ...FUNCTION_TYPES];

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, DEFINITION_TYPES).nodes) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    if (CLASS_TYPES.has(node.type)) sink.addClass(node, { name, ...classSummaries(node) });
    else sink.addFunction(node, { name, ...placement(node) });
  }
}

/**
 * Scala: classes (case classes too), objects, traits, Scala 3 enums and package objects are
 * classes, so a case class and its companion object are two class rows. `def`s directly in one
 * (abstract ones too) are its methods; a `def` in a `def` is a function with that
 * `parentFunction`; `def`s of anonymous classes (`new T { … }`), lambdas and `given … with`
 * instances are local functions, never methods of the class around them; Scala 3 extension
 * methods are functions. Annotations are inside the definition node, so ranges include them;
 * with indentation syntax a definition's range runs to where tree-sitter ends it, which may
 * include trailing blank lines.
 *
 * Summaries: fields are `val`/`var` members (a multi-line initializer left out), `val`/`var`
 * (or case-class) parameters and enum cases; methods are `def` heads without annotations, `=` and body.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([scala]);
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: registry });
 * await db.queryClass('Point'); // the case class and its companion object
 * ```
 * @public
 */
export const scala: LanguageDefinition = implement(SCALA, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => scalaReferences(root, sink, DEFINITION_TYPES),
});
