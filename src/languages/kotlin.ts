import type { Node } from 'web-tree-sitter';
import { allChildren, collapseSpaces, definitionDescendants, fieldLine, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import { kotlinReferences } from './references/kotlin.js';
import type { FunctionInfo, LanguageDefinition, VisitorSink } from './types.js';
import { implement, KOTLIN } from './builtin.js';

// Node types of @tree-sitter-grammars/tree-sitter-kotlin 1.1. `class_declaration` covers
// classes, interfaces, `fun interface`, data / enum / sealed / annotation classes.
const CLASS_TYPES = typeSet('class_declaration', 'object_declaration', 'companion_object');
/**
 * Code blocks that are not named functions: a `fun` inside one is local (never a method of the
 * class around it), and its parent is the nearest named function further out, if any.
 */
const LOCAL_BLOCKS = typeSet('anonymous_initializer', 'object_literal', 'lambda_literal', 'anonymous_function');
const ACCESSORS = typeSet('getter', 'setter');
const BODY_TYPES = typeSet('class_body', 'enum_class_body');

/** Backticks are quoting, not part of the name: ``fun `adds two`()`` is searched as `adds two`. */
function unquote(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  return name.length > 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1) : name;
}

/** A class-like's name; an unnamed companion object is `Companion`, as Kotlin itself calls it. */
function className(node: Node): string | undefined {
  const name = unquote(fieldText(node, 'name'));
  if (name === undefined && node.type === 'companion_object') return 'Companion';
  return name;
}

/** The function's name: a secondary constructor is named like its class. */
function functionName(node: Node): string | undefined {
  if (node.type === 'secondary_constructor') {
    const owner = nearestAncestor(node, CLASS_TYPES);
    return owner ? className(owner) : undefined;
  }
  return unquote(fieldText(node, 'name'));
}

/** The name of the property an accessor belongs to. */
function propertyName(accessor: Node): string | undefined {
  const property = accessor.parent?.type === 'property_declaration' ? accessor.parent : undefined;
  const variable = namedChildren(property).find((c) => c.type === 'variable_declaration');
  return unquote(namedChildren(variable).find((c) => c.type === 'identifier')?.text);
}

/**
 * Where a function belongs: its nearest named function (an accessor counts as its property),
 * else its class unless a local block (lambda, `init`, `object :` expression) intervenes.
 */
function placement(node: Node): Omit<FunctionInfo, 'name'> {
  let local = false;
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'function_declaration' || p.type === 'secondary_constructor') return { parentFunction: functionName(p) };
    if (ACCESSORS.has(p.type)) return { parentFunction: propertyName(p) };
    if (LOCAL_BLOCKS.has(p.type)) local = true;
    else if (CLASS_TYPES.has(p.type)) return local ? {} : { parentClass: className(p) };
  }
  return {};
}

/** Source text of `node` from its start up to the first child whose type is in `stop`, on one line. */
function head(node: Node, stop: ReadonlySet<string>): string {
  return collapseSpaces(rawHead(node, stop));
}

function rawHead(node: Node, stop: ReadonlySet<string>): string {
  const end = allChildren(node).find((c) => stop.has(c.type))?.startIndex ?? node.endIndex;
  return node.text.slice(0, end - node.startIndex);
}

const FUNCTION_STOP = typeSet('function_body', 'block');
const PROPERTY_STOP = typeSet('getter', 'setter');

function classSummaries(cls: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  // `val`/`var` primary-constructor parameters are properties.
  for (const ctor of namedChildren(cls).filter((c) => c.type === 'primary_constructor')) {
    for (const params of namedChildren(ctor).filter((c) => c.type === 'class_parameters')) {
      for (const p of namedChildren(params)) {
        if (allChildren(p).some((c) => c.type === 'val' || c.type === 'var')) fields.push(collapseSpaces(p.text));
      }
    }
  }
  for (const body of namedChildren(cls).filter((c) => BODY_TYPES.has(c.type))) {
    for (const child of namedChildren(body)) {
      if (child.type === 'function_declaration' || child.type === 'secondary_constructor') methods.push(head(child, FUNCTION_STOP));
      else if (child.type === 'property_declaration') fields.push(fieldLine(rawHead(child, PROPERTY_STOP)));
    }
  }
  return { fields, methods };
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = [...CLASS_TYPES, 'function_declaration', 'secondary_constructor'];

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, DEFINITION_TYPES).nodes) {
    if (!node) continue;
    if (CLASS_TYPES.has(node.type)) {
      const name = className(node);
      if (name) sink.addClass(node, { name, ...classSummaries(node) });
      continue;
    }
    const name = functionName(node);
    if (name) sink.addFunction(node, { name, ...placement(node) });
  }
}

/**
 * Kotlin: classes (interfaces, data / enum / sealed / annotation classes, `fun interface`),
 * objects and companion objects (named `Companion` when unnamed) are classes; `fun`s directly
 * in one are its methods; secondary constructors are methods named like the class. Extension
 * functions are named without their receiver (`fun String.slug()` → `slug`). A `fun` inside
 * another function (or a constructor) has that function as `parentFunction`; one inside an
 * anonymous `object :` expression, a lambda, an accessor or an `init` block is a local
 * function, attributed to the nearest named function around it (an accessor counts as its
 * property: `parentFunction` is the property's name), never to the class. Backticks
 * around names are removed. Annotations and modifiers are inside the declaration node, so
 * ranges include them.
 *
 * Summaries: fields are `val`/`var` constructor parameters and property heads (without
 * accessors or a multi-line initializer); methods are function heads without body.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([kotlin]);
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: registry });
 * await db.queryFunction('slug'); // finds `fun String.slug()`
 * ```
 * @public
 */
export const kotlin: LanguageDefinition = implement(KOTLIN, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => kotlinReferences(root, sink, DEFINITION_TYPES),
});
