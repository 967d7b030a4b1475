import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, GO } from './builtin.js';
import { goReferences } from './references/go.js';

/** Type kinds whose members a class summary lists (fields, embedded types, method specs). */
const CLASS_TYPES = typeSet('struct_type', 'interface_type');

/** Wrappers around a receiver's type name: `*T`, `(T)`, `T[K, V]`, `*pkg.T`. */
const RECEIVER_WRAPPERS = typeSet('pointer_type', 'parenthesized_type', 'generic_type', 'qualified_type');

/**
 * The bare type name of a method receiver: `(s *Stack[T])` → `Stack`. The receiver list holds
 * one parameter; its type is unwrapped through pointers, parentheses and type arguments.
 */
function receiverTypeName(method: Node): string | undefined {
  const param = namedChildren(method.childForFieldName('receiver')).find((c) => c.type === 'parameter_declaration');
  let type = param?.childForFieldName('type') ?? null;
  for (let depth = 0; type && depth < 8; depth++) {
    if (type.type === 'type_identifier') return type.text;
    if (!RECEIVER_WRAPPERS.has(type.type)) return undefined;
    // qualified_type keeps the name in `name`, generic_type in `type`, the others in their only child.
    type = type.childForFieldName('name') ?? type.childForFieldName('type') ?? type.namedChildren[0] ?? null;
  }
  return undefined;
}

/** `Name(params) results`: the summary line of a method or an interface method spec. */
function signature(node: Node): string | undefined {
  const name = fieldText(node, 'name');
  if (!name) return undefined;
  const params = fieldText(node, 'parameters') ?? '()';
  const result = fieldText(node, 'result');
  return collapseSpaces(result ? `${name}${params} ${result}` : `${name}${params}`);
}

/** The node whose range a class gets: a lone `type X …` spans its declaration, a grouped one its spec. */
function classRangeNode(spec: Node): Node {
  const decl = spec.parent;
  if (decl?.type !== 'type_declaration') return spec;
  // Grouped declarations are `type ( … )`; the parenthesis is an anonymous child of the declaration.
  const grouped = decl.children.some((c) => c?.type === '(');
  return grouped ? spec : decl;
}

/** Field lines of a struct (with tags and embedded types) or embedded types of an interface. */
function typeMembers(typeNode: Node): { fields: string[]; elems: string[] } {
  const fields: string[] = [];
  const elems: string[] = [];
  if (typeNode.type === 'struct_type') {
    const list = namedChildren(typeNode).find((c) => c.type === 'field_declaration_list');
    for (const field of namedChildren(list)) {
      if (field.type === 'field_declaration') fields.push(collapseSpaces(field.text));
    }
  } else {
    for (const child of namedChildren(typeNode)) {
      if (child.type === 'method_elem') {
        const line = signature(child);
        if (line) elems.push(line);
      } else if (child.type === 'type_elem') {
        // Embedded interfaces and type-set terms (`io.Reader`, `~int | ~string`).
        fields.push(collapseSpaces(child.text));
      }
    }
  }
  return { fields, elems };
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = ['type_spec', 'type_alias', 'function_declaration', 'method_declaration'];

function visit(root: Node, sink: VisitorSink): void {
  const nodes = definitionDescendants(root, DEFINITION_TYPES).nodes;
  // Methods are declared outside their type: group them by receiver name first, so a struct's
  // summary lists the methods declared in the same file.
  const methodsByType = new Map<string, string[]>();
  for (const node of nodes) {
    if (node?.type !== 'method_declaration') continue;
    const owner = receiverTypeName(node);
    const line = signature(node);
    if (!owner || !line) continue;
    let list = methodsByType.get(owner);
    if (!list) methodsByType.set(owner, (list = []));
    list.push(line);
  }
  for (const node of nodes) {
    if (!node) continue;
    const name = fieldText(node, 'name');
    if (!name) continue;
    if (node.type === 'function_declaration') {
      sink.addFunction(node, { name });
    } else if (node.type === 'method_declaration') {
      const owner = receiverTypeName(node);
      sink.addFunction(node, owner ? { name, parentClass: owner } : { name });
    } else if (node.type === 'type_spec') {
      const typeNode = node.childForFieldName('type');
      if (!typeNode) continue;
      if (!CLASS_TYPES.has(typeNode.type)) {
        // A defined type of another kind (`type Level int`, `type HandlerFunc func(…)`,
        // `type byName []os.FileInfo`) has methods as a struct does: it is a class too.
        sink.addClass(classRangeNode(node), { name, fields: [], methods: methodsByType.get(name) ?? [] });
        continue;
      }
      const { fields, elems } = typeMembers(typeNode);
      if (typeNode.type === 'interface_type') {
        // Interface method specs are the interface's methods: `search_class_method Read` finds
        // the contract beside its implementations.
        for (const elem of namedChildren(typeNode)) {
          const elemName = elem.type === 'method_elem' ? fieldText(elem, 'name') : undefined;
          if (elemName) sink.addFunction(elem, { name: elemName, parentClass: name });
        }
      }
      const methods = typeNode.type === 'interface_type' ? elems : (methodsByType.get(name) ?? []);
      sink.addClass(classRangeNode(node), { name, fields, methods });
    }
  }
}

/**
 * Go: functions; methods with `parentClass` = the receiver's bare type name (`func (s *Stack[T])
 * Push()` → `Stack`); every defined type as a class (structs, interfaces, and `type Level int`,
 * which may have methods too; an alias `type A = B` is not one).
 * A lone `type X struct {…}` spans the whole declaration, each spec of a grouped `type ( … )`
 * spans itself. Interface method specs are methods of the interface. Struct summaries list the
 * fields (tags and embedded types included) and the methods declared in the same file;
 * interface summaries list embedded types as fields and the method specs as methods.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([go]);
 * registry.forPath('/repo/server.go')?.id; // 'go'
 * ```
 * @public
 */
export const go: LanguageDefinition = implement(GO, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => goReferences(root, sink, DEFINITION_TYPES),
});
