import type { Node } from 'web-tree-sitter';
import { collapseSpaces, definitionDescendants, fieldText, namedChildren, nearestAncestor, typeSet } from './common.js';
import type { LanguageDefinition, VisitorSink } from './types.js';
import { implement, RUBY } from './builtin.js';
import { rubyReferences } from './references/ruby.js';

const CLASS_TYPES = typeSet('class', 'module');
const METHOD_TYPES = typeSet('method', 'singleton_method');
/** What decides a method's parent: the nearest of these. */
const SCOPES = typeSet('class', 'module', 'singleton_class', 'method', 'singleton_method');
const ATTRIBUTE_MACROS = typeSet('attr_reader', 'attr_writer', 'attr_accessor', 'attr');

/** The bare name of a class or module: `class Foo::Bar` → `Bar`. */
function bareName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'scope_resolution') return bareName(node.childForFieldName('name'));
  return node.type === 'constant' ? node.text : undefined;
}

function className(cls: Node): string | undefined {
  return bareName(cls.childForFieldName('name'));
}

type Owner = { kind: 'class'; node: Node; name: string } | { kind: 'function'; name: string } | { kind: 'none' };

/**
 * Who a `def` belongs to. Inside a class or module it is a method of it, also through
 * `class << self` and for `def self.x` / `def obj.x`; a `def` in a `def` is a nested function;
 * `def Foo.x` outside any class is a method of `Foo`; anything else is a plain function.
 */
function ownerOf(def: Node): Owner {
  let scope = nearestAncestor(def, SCOPES);
  if (scope?.type === 'singleton_class') scope = nearestAncestor(scope, SCOPES);
  if (scope && CLASS_TYPES.has(scope.type)) {
    const name = className(scope);
    if (name) return { kind: 'class', node: scope, name };
  } else if (scope && METHOD_TYPES.has(scope.type)) {
    const name = fieldText(scope, 'name');
    if (name) return { kind: 'function', name };
  }
  if (!scope && def.type === 'singleton_method') {
    const object = bareName(def.childForFieldName('object'));
    if (object) return { kind: 'class', node: def, name: object };
  }
  return { kind: 'none' };
}

/** `name(params)`, `self.name(params)` for singleton methods (also those in `class << self`). */
function methodSummary(def: Node): string | undefined {
  const name = fieldText(def, 'name');
  if (!name) return undefined;
  const params = fieldText(def, 'parameters') ?? '';
  let receiver = '';
  if (def.type === 'singleton_method') receiver = `${fieldText(def, 'object') ?? 'self'}.`;
  else if (nearestAncestor(def, SCOPES)?.type === 'singleton_class') receiver = 'self.';
  const spaced = params && !params.startsWith('(') ? ` ${params}` : params;
  return collapseSpaces(`${receiver}${name}${spaced}`);
}

/** `attr_reader :a, :b` lines and constant assignments written directly in a class body. */
function classFields(cls: Node): string[] {
  const fields: string[] = [];
  for (const statement of namedChildren(cls.childForFieldName('body'))) {
    if (statement.type === 'call' && !statement.childForFieldName('receiver')) {
      const method = fieldText(statement, 'method');
      if (method && ATTRIBUTE_MACROS.has(method)) fields.push(collapseSpaces(statement.text));
    } else if (statement.type === 'assignment' && statement.childForFieldName('left')?.type === 'constant') {
      fields.push(collapseSpaces(statement.text));
    }
  }
  return fields;
}

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = ['class', 'module', 'method', 'singleton_method'];

function visit(root: Node, sink: VisitorSink): void {
  const nodes = definitionDescendants(root, DEFINITION_TYPES).nodes;
  // Methods may sit under `private def …`, `class << self` or other wrappers: resolve each
  // method's owning class node first and group the summaries by it.
  const methodsByClass = new Map<number, string[]>();
  const owners = new Map<number, Owner>();
  for (const node of nodes) {
    if (!node || !METHOD_TYPES.has(node.type)) continue;
    const owner = ownerOf(node);
    owners.set(node.id, owner);
    const line = owner.kind === 'class' ? methodSummary(node) : undefined;
    if (owner.kind !== 'class' || !line) continue;
    let list = methodsByClass.get(owner.node.id);
    if (!list) methodsByClass.set(owner.node.id, (list = []));
    list.push(line);
  }
  for (const node of nodes) {
    if (!node) continue;
    if (CLASS_TYPES.has(node.type)) {
      const name = className(node);
      if (name) sink.addClass(node, { name, fields: classFields(node), methods: methodsByClass.get(node.id) ?? [] });
      continue;
    }
    const name = fieldText(node, 'name');
    const owner = owners.get(node.id);
    if (!name || !owner) continue;
    if (owner.kind === 'class') sink.addFunction(node, { name, parentClass: owner.name });
    else if (owner.kind === 'function') sink.addFunction(node, { name, parentFunction: owner.name });
    else sink.addFunction(node, { name });
  }
}

/**
 * Ruby: classes and modules (bare names: `class Foo::Bar` → `Bar`; a class reopened in several
 * places gives one entry per definition); `def` (endless and `private def` ones too) and
 * singleton methods (`def self.x`, `def obj.x`, methods in `class << self`) are methods of the
 * enclosing class or module; `def Foo.x` outside any class is a method of `Foo`; a `def` inside
 * a `def` is a function with `parentFunction`; `attr_*` define nothing. Summaries: `attr_*`
 * lines and constants as fields; `name(params)` / `self.name(params)` as methods.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([ruby]);
 * registry.forPath('/repo/lib/app.rb')?.id; // 'ruby'
 * ```
 * @public
 */
export const ruby: LanguageDefinition = implement(RUBY, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => rubyReferences(root, sink, DEFINITION_TYPES),
});
