import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, RUST } from './builtin.js';
import { rustReferences } from './references/rust.js';

const CLASS_ITEMS = typeSet('struct_item', 'enum_item', 'trait_item', 'union_item');
/** What decides a function's parent: the nearest of these (a `mod` is transparent). */
const FUNCTION_SCOPES = typeSet('function_item', 'impl_item', 'trait_item');
const FUNCTIONS = typeSet('function_item', 'function_signature_item');

/**
 * The bare name of an `impl` target: `Stack<T>` → `Stack`, `crate::m::S<u8>` → `S`, `&E` → `E`.
 * `dyn Trait` and `dyn Error + Send` → the first trait. Types without a name of their own (tuples, arrays…) keep their folded text.
 */
function implTypeName(impl: Node): string | undefined {
  const target = impl.childForFieldName('type');
  let type = target;
  for (let depth = 0; type && depth < 8; depth++) {
    switch (type.type) {
      case 'type_identifier':
      case 'primitive_type':
        return type.text;
      case 'generic_type': // Stack<T>: the name is in `type`
      case 'reference_type': // &E, &mut E
      case 'pointer_type': // *const E
        type = type.childForFieldName('type');
        break;
      case 'scoped_type_identifier': // a::b::S
        type = type.childForFieldName('name');
        break;
      case 'dynamic_type': // impl dyn Trait { … }: inherent methods of the trait object
        type = type.childForFieldName('trait');
        break;
      case 'bounded_type': // dyn Error + Send: the first bound names the type
        type = type.firstNamedChild;
        break;
      default:
        return collapseSpaces(type.text);
    }
  }
  return target ? collapseSpaces(target.text) : undefined;
}

/** A function's header without attributes or body: `pub fn new<T>(x: T) -> Self`. */
function fnSignature(fn: Node): string {
  const body = fn.childForFieldName('body');
  const end = body ? body.startIndex : fn.endIndex;
  const text = fn.text.slice(0, end - fn.startIndex);
  return collapseSpaces(text).replace(/;$/, '').trim();
}

/** The summary line of a field, variant or associated item, without its closing `;` or `,`. */
function memberLine(node: Node): string {
  return collapseSpaces(node.text).replace(/[;,]$/, '').trim();
}

function fieldLines(body: Node | null): string[] {
  if (!body) return [];
  if (body.type === 'field_declaration_list') {
    return namedChildren(body).filter((c) => c.type === 'field_declaration').map(memberLine);
  }
  if (body.type === 'ordered_field_declaration_list') {
    // Tuple struct: `struct Tup(u32, pub String)` → `0: u32`, `1: pub String`.
    const lines: string[] = [];
    let visibility = '';
    for (const child of namedChildren(body)) {
      if (child.type === 'visibility_modifier') visibility = `${child.text} `;
      else if (child.type !== 'attribute_item') {
        lines.push(`${lines.length}: ${visibility}${collapseSpaces(child.text)}`);
        visibility = '';
      }
    }
    return lines;
  }
  return [];
}

/** Fields of a struct/union/enum (variants for an enum) or associated types and consts of a trait. */
function classFields(item: Node): string[] {
  const body = item.childForFieldName('body');
  switch (item.type) {
    case 'enum_item':
      return namedChildren(body).filter((c) => c.type === 'enum_variant').map(memberLine);
    case 'trait_item':
      return namedChildren(body).filter((c) => c.type === 'associated_type' || c.type === 'const_item').map(memberLine);
    default:
      return fieldLines(body);
  }
}

/** The function's parent, from the nearest enclosing fn, impl or trait. */
function parentOf(fn: Node): { parentClass?: string; parentFunction?: string } {
  const scope = nearestAncestor(fn, FUNCTION_SCOPES);
  if (!scope) return {};
  if (scope.type === 'function_item') {
    const parentFunction = fieldText(scope, 'name');
    return parentFunction ? { parentFunction } : {};
  }
  const parentClass = scope.type === 'impl_item' ? implTypeName(scope) : fieldText(scope, 'name');
  return parentClass ? { parentClass } : {};
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = [...CLASS_ITEMS, ...FUNCTIONS];

function visit(root: Node, sink: VisitorSink): void {
  const nodes = definitionDescendants(root, DEFINITION_TYPES).nodes;
  // Methods live in `impl` blocks apart from their type: collect them per owner name first, so
  // summaries list the methods of every impl of the type in this file.
  const parents = new Map<number, { parentClass?: string; parentFunction?: string }>();
  const methodsByOwner = new Map<string, string[]>();
  for (const node of nodes) {
    if (!node || !FUNCTIONS.has(node.type)) continue;
    // A body-less signature is a definition only as a trait's required method; in an
    // `extern { … }` block it declares a foreign function defined elsewhere.
    if (node.type === 'function_signature_item' && nearestAncestor(node, FUNCTION_SCOPES)?.type !== 'trait_item') continue;
    const parent = parentOf(node);
    parents.set(node.id, parent);
    if (!parent.parentClass) continue;
    let list = methodsByOwner.get(parent.parentClass);
    if (!list) methodsByOwner.set(parent.parentClass, (list = []));
    list.push(fnSignature(node));
  }
  for (const node of nodes) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    if (CLASS_ITEMS.has(node.type)) {
      sink.addClass(node, { name, fields: classFields(node), methods: methodsByOwner.get(name) ?? [] });
      continue;
    }
    const parent = parents.get(node.id);
    if (parent) sink.addFunction(node, { name, ...parent });
  }
}

/**
 * Rust: `fn` items; methods of `impl X` and `impl Trait for X` belong to `X` (generic arguments,
 * paths and references stripped: `impl<T> Stack<T>` → `Stack`); trait methods, with or without
 * a body, belong to the trait; a `fn` inside a `fn` is a function with `parentFunction`. Structs,
 * enums, traits and unions are classes; a `mod` is not. Ranges follow the item node: outer
 * `#[…]` attributes and doc comments are outside, `pub` is inside. Summaries: fields (tuple
 * fields numbered, enum variants, trait associated types and consts) and the signatures of the
 * methods found in this file.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([rust]);
 * registry.forPath('/repo/src/lib.rs')?.id; // 'rust'
 * ```
 * @public
 */
export const rust: LanguageDefinition = implement(RUST, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => rustReferences(root, sink, DEFINITION_TYPES),
});
