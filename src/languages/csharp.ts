import type { Node } from 'web-tree-sitter';
import { allChildren, collapseSpaces, definitionDescendants, fieldLine, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import { csharpReferences } from './references/csharp.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, CSHARP } from './builtin.js';

// Node types of tree-sitter-c-sharp 0.23.
const CLASS_TYPES = typeSet('class_declaration', 'struct_declaration', 'interface_declaration', 'record_declaration', 'enum_declaration');
/** Members that are recorded as methods of their type. */
const MEMBER_FUNCTIONS = typeSet('method_declaration', 'constructor_declaration', 'destructor_declaration', 'operator_declaration', 'conversion_operator_declaration');
/** Everything a local function can be nested in and named after (lambdas are transparent). */
const FUNCTION_SCOPES = typeSet(
  ...MEMBER_FUNCTIONS,
  'local_function_statement',
  'property_declaration',
  'indexer_declaration',
  'event_declaration',
);
const FIELD_TYPES = typeSet('field_declaration', 'event_field_declaration', 'property_declaration', 'indexer_declaration', 'event_declaration');
const BODY_TYPES = typeSet('block', 'arrow_expression_clause', 'accessor_list', ';', '{');

/**
 * The name a user searches for: the identifier for most members, `~Shape` for a destructor,
 * `operator+` for an operator (the C++ spelling) and `operator int` for a conversion.
 */
function memberName(node: Node): string | undefined {
  switch (node.type) {
    case 'destructor_declaration': {
      const name = fieldText(node, 'name');
      return name ? `~${name}` : undefined;
    }
    case 'operator_declaration': {
      const op = fieldText(node, 'operator');
      return op ? `operator${op}` : undefined;
    }
    case 'conversion_operator_declaration': {
      const type = fieldText(node, 'type');
      return type ? `operator ${collapseSpaces(type)}` : undefined;
    }
    case 'indexer_declaration':
      return 'this';
    default:
      return fieldText(node, 'name');
  }
}

/**
 * The declaration's head: from its first child that is not an attribute list (attributes stay
 * in the row's range but would clutter a summary line) up to its body or initializer.
 */
function rawHead(node: Node): string {
  const children = allChildren(node);
  const first = children.find((c) => c.type !== 'attribute_list');
  if (!first) return '';
  const stop = children.find((c) => c.startIndex > first.startIndex && (BODY_TYPES.has(c.type) || c.type === '=')) ?? null;
  const end = stop ? stop.startIndex : node.endIndex;
  return node.text.slice(first.startIndex - node.startIndex, end - node.startIndex).trim().replace(/;$/, '');
}

/** {@link rawHead} folded onto one line. */
function head(node: Node): string {
  return collapseSpaces(rawHead(node));
}

function classSummaries(cls: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  // Positional record parameters are properties of the record.
  if (cls.type === 'record_declaration') {
    for (const child of namedChildren(cls)) {
      if (child.type === 'parameter_list') for (const p of namedChildren(child)) fields.push(collapseSpaces(p.text));
    }
  }
  const body = cls.childForFieldName('body');
  for (const child of namedChildren(body)) {
    if (MEMBER_FUNCTIONS.has(child.type)) methods.push(head(child));
    else if (FIELD_TYPES.has(child.type)) fields.push(fieldLine(rawHead(child)));
    else if (child.type === 'enum_member_declaration') fields.push(collapseSpaces(child.text));
  }
  return { fields, methods };
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = [...CLASS_TYPES, ...MEMBER_FUNCTIONS, 'local_function_statement'];

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, DEFINITION_TYPES).nodes) {
    if (!node) continue;
    if (CLASS_TYPES.has(node.type)) {
      const name = fieldText(node, 'name');
      if (name) sink.addClass(node, { name, ...classSummaries(node) });
      continue;
    }
    const name = memberName(node);
    if (!name) continue;
    if (node.type === 'local_function_statement') {
      // Top-level statements (C# 9) may hold local functions: those have no parent.
      const scope = nearestAncestor(node, FUNCTION_SCOPES);
      sink.addFunction(node, { name, parentFunction: scope ? memberName(scope) : undefined });
    } else {
      const owner = nearestAncestor(node, CLASS_TYPES);
      sink.addFunction(node, { name, parentClass: owner ? fieldText(owner, 'name') : undefined });
    }
  }
}

/**
 * C#: classes, structs, interfaces, records (`record struct` too) and enums are classes;
 * methods, constructors (named like their type, one row per overload), destructors (`~Shape`),
 * operators (`operator+`) and conversions (`operator int`) are methods of the nearest enclosing
 * type; local functions are functions whose `parentFunction` is the enclosing member (or local
 * function; a property or indexer accessor counts as its property, `this` for an indexer).
 * Attributes are inside the declaration node, so ranges start at the first attribute.
 *
 * Summaries: fields are field, property, event and indexer heads (a multi-line initializer left
 * out), positional record parameters and enum members; methods are member heads without
 * attributes and body.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([csharp]);
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: registry });
 * await db.queryFunction('Shape', 'class_method'); // every constructor overload of Shape
 * ```
 * @public
 */
export const csharp: LanguageDefinition = implement(CSHARP, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => csharpReferences(root, sink, DEFINITION_TYPES),
});
