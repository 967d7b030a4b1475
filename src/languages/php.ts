import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, PHP } from './builtin.js';
import { phpReferences } from './references/php.js';

const CLASS_TYPES = typeSet('class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration');
/** What decides a method's owner: the nearest class-like node, anonymous classes included. */
const METHOD_OWNERS = typeSet(...CLASS_TYPES, 'anonymous_class');
/** Named function scopes; closures and arrow functions are transparent. */
const FUNCTION_SCOPES = typeSet('function_definition', 'method_declaration');
const FIELD_TYPES = typeSet('property_declaration', 'const_declaration', 'enum_case');

/** A declaration header without attributes or body: `public static function make(array $o): self`. */
function header(node: Node): string {
  const attributes = node.childForFieldName('attributes');
  const body = node.childForFieldName('body');
  const start = attributes ? attributes.endIndex : node.startIndex;
  const end = body ? body.startIndex : node.endIndex;
  return collapseSpaces(node.text.slice(start - node.startIndex, end - node.startIndex)).replace(/;$/, '').trim();
}

function classSummaries(cls: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  for (const member of namedChildren(cls.childForFieldName('body'))) {
    if (FIELD_TYPES.has(member.type)) {
      fields.push(header(member));
    } else if (member.type === 'method_declaration') {
      methods.push(header(member));
      if (fieldText(member, 'name')?.toLowerCase() === '__construct') {
        // Promoted constructor parameters (`private string $s`) declare properties too.
        for (const param of namedChildren(member.childForFieldName('parameters'))) {
          if (param.type === 'property_promotion_parameter') fields.push(header(param));
        }
      }
    }
  }
  return { fields, methods };
}

/** The name of the nearest named function or method around `node`, if any. */
function enclosingFunctionName(node: Node): string | undefined {
  const scope = nearestAncestor(node, FUNCTION_SCOPES);
  return scope ? fieldText(scope, 'name') : undefined;
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = [...CLASS_TYPES, 'function_definition', 'method_declaration'];

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, DEFINITION_TYPES).nodes) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    if (CLASS_TYPES.has(node.type)) {
      sink.addClass(node, { name, ...classSummaries(node) });
    } else if (node.type === 'function_definition') {
      sink.addFunction(node, { name, parentFunction: enclosingFunctionName(node) });
    } else {
      const owner = nearestAncestor(node, METHOD_OWNERS);
      const ownerName = owner && owner.type !== 'anonymous_class' ? fieldText(owner, 'name') : undefined;
      // A method of an anonymous class has no class to name; recording it under the class
      // around the `new class {…}` would be wrong, so it becomes a function of the scope it is
      // written in.
      if (ownerName) sink.addFunction(node, { name, parentClass: ownerName });
      else sink.addFunction(node, { name, parentFunction: owner ? enclosingFunctionName(owner) : undefined });
    }
  }
}

/**
 * PHP (the full grammar: HTML around `<?php … ?>` is text): functions (nested ones carry
 * `parentFunction`), methods of classes, interfaces, traits and enums, which are the classes.
 * Methods of anonymous classes are functions of the scope the `new class` is written in.
 * Ranges follow the declaration node: `#[…]` attributes and modifiers are inside, doc comments
 * outside. Summaries: properties, constants, enum cases and promoted constructor parameters as
 * fields; method headers (`public function name(int $x): string`) as methods.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([php]);
 * registry.forPath('/repo/src/App.php')?.id; // 'php'
 * ```
 * @public
 */
export const php: LanguageDefinition = implement(PHP, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => phpReferences(root, sink, DEFINITION_TYPES),
});
