import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren, typeSet } from './common.js';
import { javaReferences } from './references/java.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, JAVA } from './builtin.js';

/** Declarations that become class rows and own the methods inside them. */
const CLASS_TYPES = typeSet(
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'annotation_type_declaration',
);

/** Declarations that become function rows. */
const METHOD_TYPES = typeSet(
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
  'annotation_type_element_declaration',
);

/** What a method's owner lookup stops at: a class-like declaration or an anonymous class. */
const OWNER_TYPES = typeSet(...CLASS_TYPES, 'object_creation_expression');

/** What an anonymous class's enclosing-method lookup stops at. */
const CALLABLE_OR_CLASS = typeSet(...CLASS_TYPES, 'method_declaration', 'constructor_declaration', 'compact_constructor_declaration');

const SEARCH_TYPES = [...CLASS_TYPES, ...METHOD_TYPES];

/** Signature of a method: its text before the body (annotations included), folded to one line. */
function methodSummary(method: Node): string {
  const body = method.childForFieldName('body');
  const text = body ? method.text.slice(0, body.startIndex - method.startIndex) : method.text;
  return collapseSpaces(text);
}

/** Bodies that a field summary shortens to `{...}`: anonymous classes and lambda blocks. */
const ELIDED_BODIES = ['class_body', 'block'];

/**
 * A field declaration folded to one line, with anonymous class and lambda bodies in its
 * initializer shortened to `{...}` so one field cannot flood the summary.
 */
function fieldSummary(field: Node): string {
  const text = field.text;
  // Most fields have no braces at all: skip the subtree search for them.
  if (!text.includes('{')) return collapseSpaces(text);
  let out = '';
  let from = 0;
  // descendantsOfType returns document order, so an inner body starts before the outer one ends.
  for (const body of field.descendantsOfType(ELIDED_BODIES)) {
    if (!body) continue;
    const start = body.startIndex - field.startIndex;
    if (start < from) continue;
    out += `${text.slice(from, start)}{...}`;
    from = body.endIndex - field.startIndex;
  }
  return collapseSpaces(out + text.slice(from));
}

/** The members of a class-like body, enum_body_declarations spliced in. */
function members(decl: Node): Node[] {
  const body = decl.childForFieldName('body');
  const out: Node[] = [];
  for (const child of namedChildren(body)) {
    if (child.type === 'enum_body_declarations') out.push(...namedChildren(child));
    else out.push(child);
  }
  return out;
}

function classSummaries(decl: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  if (decl.type === 'record_declaration') {
    // Record components are the record's fields.
    for (const component of namedChildren(decl.childForFieldName('parameters'))) {
      if (component.type === 'formal_parameter') fields.push(collapseSpaces(component.text));
    }
  }
  for (const member of members(decl)) {
    if (METHOD_TYPES.has(member.type)) {
      methods.push(methodSummary(member));
    } else if (member.type === 'field_declaration' || member.type === 'constant_declaration') {
      fields.push(fieldSummary(member));
    } else if (member.type === 'enum_constant') {
      // A constant with a body lists just its head (`ONE(1)`); the body's methods have rows.
      const body = member.childForFieldName('body');
      fields.push(collapseSpaces(body ? member.text.slice(0, body.startIndex - member.startIndex) : member.text));
    }
  }
  return { fields, methods };
}

/** The nearest proper ancestor of `node` whose type is in `types`. */
function nearest(node: Node, types: ReadonlySet<string>): Node | undefined {
  for (let p = node.parent; p; p = p.parent) if (types.has(p.type)) return p;
  return undefined;
}

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, SEARCH_TYPES).nodes) {
    if (!node) continue;
    if (CLASS_TYPES.has(node.type)) {
      const name = fieldText(node, 'name');
      if (name) sink.addClass(node, { name, ...classSummaries(node) });
      continue;
    }
    // A compact constructor (`record R(int a) { R { ... } }`) is named after its record.
    const name = fieldText(node, 'name');
    if (!name) continue;
    const owner = nearest(node, OWNER_TYPES);
    if (owner && owner.type !== 'object_creation_expression') {
      // Methods in an enum constant's body fall through to the enum: the constant is an
      // instance of it.
      sink.addFunction(node, { name, parentClass: fieldText(owner, 'name') });
    } else if (owner) {
      // Anonymous class: its methods belong to no named class. They are kept (an agent looking
      // for `run` wants the implementation) with the enclosing method as parentFunction.
      const around = nearest(owner, CALLABLE_OR_CLASS);
      const parentFunction = around && METHOD_TYPES.has(around.type) ? fieldText(around, 'name') : undefined;
      sink.addFunction(node, { name, parentFunction });
    } else {
      sink.addFunction(node, { name });
    }
  }
}

/**
 * Java: classes, interfaces, enums, records and annotation types are classes; methods,
 * constructors (named after their class), compact record constructors and annotation elements
 * are methods of the nearest enclosing one of those (nested ones included). Methods in an enum
 * constant's body belong to the enum. Methods of anonymous classes belong to no class: they are
 * reported as functions whose `parentFunction` is the method the anonymous class is created in
 * (none when it is created in a field initializer). Lambdas are not indexed. Ranges follow the
 * declaration node, which includes its annotations. Summaries: fields are field (and interface
 * constant) declarations, record components and enum constants; methods are each method's and
 * constructor's text before its body, folded to one line.
 *
 * @example
 * ```ts
 * import { createDefaultRegistry } from 'ckg-wasm';
 * createDefaultRegistry().forPath('/src/Shape.java')?.id; // 'java'
 * ```
 * @public
 */
export const java: LanguageDefinition = implement(JAVA, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => javaReferences(root, sink, SEARCH_TYPES),
});
