import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';
import { ClassSpans, declaredPartial, declaredPrivate, ROOT_MEMBERS } from './typed-scopes.js';
import { CSHARP_KEPT, reportAnnotations } from './annotations.js';

// C#: method calls (plain, `this.`, `base.`, typed receivers, `Type.Static()`, qualified paths,
// `x?.M()`), `new Foo(…)`, `: base(…)` / `: this(…)`, bases (the first entry of a class's base
// list is its base class or an interface, which C# syntax does not tell apart: the declaration it
// resolves to decides, SiteFact.kindFromTarget; the others → implements), `using` directives (namespaces as star imports, `using static`, aliases), the
// namespace.
//
// A file's module is its namespace when all its types are in one (file-scoped or block, nested
// blocks joined: `A.B`); a type in `A.B` also sees the types of `A` (star bindings for the
// enclosing namespaces). A file with types in several namespaces is a module of its own (its types
// still get their namespaces in their qualified names), so other files never find them through
// a namespace they do not share. Types come from parameters, locals (`var x = new Foo()` too),
// `foreach`, `catch`, `using` and `is Foo f` variables, and the fields and properties the innermost
// type declares.

const CLASSES = typeSet('class_declaration', 'struct_declaration', 'interface_declaration', 'record_declaration', 'enum_declaration');
const FUNCTIONS = typeSet(
  'method_declaration',
  'constructor_declaration',
  'destructor_declaration',
  'operator_declaration',
  'conversion_operator_declaration',
  'local_function_statement',
  'lambda_expression',
  'anonymous_method_expression',
  'accessor_declaration',
  'arrow_expression_clause',
);
const NAMESPACES = typeSet('namespace_declaration', 'file_scoped_namespace_declaration');
const SEARCHED = [
  ...CLASSES,
  ...FUNCTIONS,
  ...NAMESPACES,
  'type_parameter',
  'parameter',
  'implicit_parameter',
  'variable_declaration',
  'property_declaration',
  'foreach_statement',
  'catch_declaration',
  'declaration_pattern',
  'invocation_expression',
  'object_creation_expression',
  'constructor_initializer',
  'base_list',
  'using_directive',
  'argument',
  'assignment_expression',
];

/** `A.B.C` of a name (identifier, qualified name, generic name: type arguments dropped), else undefined. */
function namePath(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'identifier':
      return [node.text];
    case 'generic_name':
      return node.namedChildren[0]?.type === 'identifier' ? [node.namedChildren[0].text] : undefined;
    case 'qualified_name': {
      const q = namePath(node.childForFieldName('qualifier'));
      const n = namePath(node.childForFieldName('name'));
      return q && n ? [...q, ...n] : undefined;
    }
    case 'alias_qualified_name':
      return undefined; // `global::X`
    case 'nullable_type':
      return namePath(node.childForFieldName('type') ?? node.namedChildren[0]);
    default:
      return undefined;
  }
}

/** `a.b.c` of member accesses over identifiers, else undefined. */
function accessPath(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return [node.text];
  if (node.type !== 'member_access_expression') return undefined;
  const head = accessPath(node.childForFieldName('expression'));
  const name = namePath(node.childForFieldName('name'));
  return head && name?.length === 1 ? [...head, name[0]!] : undefined;
}

/** Reports how many arguments a member takes: defaulted parameters are optional, `params` takes any number. */
function reportSignature(node: Node, sink: ReferenceSink): void {
  const list = node.childForFieldName('parameters');
  if (!list || !sink.signature) return;
  let min = 0;
  let max = 0;
  let varargs = false;
  for (const c of list.children) {
    if (c?.type === 'params') varargs = true; // `params T[] xs` is not a parameter node of its own
    else if (c?.type === 'parameter') {
      if (c.children.some((t) => t?.type === '=')) max++;
      else {
        min++;
        max++;
      }
    }
  }
  sink.signature(node, min, varargs ? null : max);
}

/** The arguments of an `argument_list`. */
function argumentCount(args: Node | null | undefined): number | undefined {
  if (!args) return undefined;
  let n = 0;
  for (const a of args.namedChildren) if (a?.type === 'argument') n++;
  return n;
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  // Each node's type read once (a read crosses into wasm), for both loops.
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  const classes = new ClassSpans();

  const declared = (type: Node | null | undefined, at: number): string | undefined => {
    if (type?.type === 'implicit_type') return undefined;
    const path = namePath(type);
    if (!path || (path.length === 1 && classes.isTypeParameter(at, path[0]!))) return undefined;
    return path.join('.');
  };
  const created = (value: Node | null | undefined, at: number): string | undefined =>
    value?.type === 'object_creation_expression' ? declared(value.childForFieldName('type'), at) : undefined;
  const functionScope = (at: number): number => scopes.enclosingFunction(at, (k) => k === 'function');
  const bind = (name: Node | null | undefined, kind: 'parameter' | 'local', type?: string, constructed = false): void => {
    if (!name || (name.type !== 'identifier' && name.type !== 'implicit_parameter')) return;
    const scope = functionScope(name.startIndex);
    if (scope >= 0) scopes.bind(scope, name.text, { kind, ...(type ? { type: { name: type, ...(constructed ? { constructed } : {}) } } : {}) });
  };

  // Namespaces: each type's full namespace, to tell a one-namespace file from a mixed one.
  const namespaceOf = (node: Node): string[] => {
    const parts: string[] = [];
    for (let p = node.parent; p; p = p.parent) if (NAMESPACES.has(p.type)) parts.unshift(...(namePath(p.childForFieldName('name')) ?? []));
    // A file-scoped namespace is a sibling of the types it holds.
    const fileScoped = root.namedChildren.find((c) => c?.type === 'file_scoped_namespace_declaration');
    return fileScoped && fileScoped.startIndex < node.startIndex ? [...(namePath(fileScoped.childForFieldName('name')) ?? []), ...parts] : parts;
  };
  const topTypes = nodes.filter((n) => CLASSES.has(n.type) && !CLASSES.has(n.parent?.parent?.type ?? ''));
  // A file without types (only usings, or an empty namespace) is in the namespace it declares.
  const holders = topTypes.length > 0 ? topTypes : nodes.filter((n) => NAMESPACES.has(n.type) && !nodes.some((m) => NAMESPACES.has(m.type) && m.startIndex > n.startIndex && m.endIndex <= n.endIndex));
  const namespaces = new Set(holders.map((t) => [...namespaceOf(t), ...(CLASSES.has(t.type) ? [] : (namePath(t.childForFieldName('name')) ?? []))].join('.')));
  const single = namespaces.size <= 1 ? [...namespaces][0] : undefined;
  if (single !== undefined && single !== '') {
    sink.setPackage(single);
    const parts = single.split('.');
    for (let i = parts.length - 1; i >= 1; i--) sink.binding(root, { kind: 'star', name: '*', module: parts.slice(0, i).join('.') });
  } else if (single === undefined) {
    sink.setPackage('/'); // several namespaces: the file is a module of its own (see csharpGraph)
  }

  /**
   * A field or property of the class around `name`; one of a class type is a `field` binding too,
   * which a subclass's `this.store` reads (`private`, also by default: not seen there).
   */
  const declareField = (name: Node, type: string | undefined, declaration: Node): void => {
    const owner = classes.innermost(name.startIndex);
    owner?.fields.set(name.text, type ?? null);
    if (owner?.name == null || type === undefined) return;
    const hidden = declaredPrivate(declaration) || !declaration.namedChildren.some((c) => c?.type === 'modifier' && /^(public|protected|internal)$/.test(c.text));
    sink.binding(name, { kind: 'field', name: name.text, module: type, ...(hidden ? { member: 'private' } : {}) });
  };

  // Pass 1.
  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (CLASSES.has(type)) {
      const span = classes.add(node, node.childForFieldName('name')?.text ?? null);
      // The first entry of a base list may name an interface: it is no superclass (see LanguageGraph.superIsSuperclass).
      if (type === 'interface_declaration') sink.flag(node, 'interface');
      reportAnnotations(node, sink, CSHARP_KEPT);
      // `partial class P` in several places (files too) is one class (LanguageGraph.partialClasses).
      if (declaredPartial(node)) sink.flag(node, 'partial');
      // `this.x` may be a base's field; not read so in a partial class, whose other parts may declare it.
      else span.based = node.namedChildren.some((c) => c?.type === 'base_list');
      if (type === 'record_declaration') {
        for (const p of node.namedChildren.find((c) => c?.type === 'parameter_list')?.namedChildren ?? []) {
          const name = p?.childForFieldName('name');
          if (p && name) span.fields.set(name.text, declared(p.childForFieldName('type'), p.startIndex) ?? null);
        }
      }
      continue;
    }
    if (NAMESPACES.has(type)) {
      if (single === undefined && type === 'namespace_declaration') {
        const path = namePath(node.childForFieldName('name'));
        if (path) sink.namespace(node, path.join('.'));
      }
      continue;
    }
    if (FUNCTIONS.has(type)) {
      if (type === 'arrow_expression_clause' && node.parent && FUNCTIONS.has(node.parent.type)) continue;
      const enclosing = functionScope(node.startIndex);
      scopes.open(node, 'function');
      if (type !== 'lambda_expression' && type !== 'anonymous_method_expression' && type !== 'accessor_declaration' && type !== 'arrow_expression_clause') {
        reportSignature(node, sink);
        reportAnnotations(node, sink, CSHARP_KEPT);
      }
      const name = node.childForFieldName('name');
      if (type === 'local_function_statement' && name && enclosing >= 0) scopes.bind(enclosing, name.text, { kind: 'definition' });
      else if (type === 'method_declaration' && name) {
        classes.innermost(node.startIndex)?.methods.add(name.text);
        if (declaredPrivate(node)) sink.flag(node, 'private');
      }
      if (type === 'lambda_expression') {
        const params = node.childForFieldName('parameters');
        if (params?.type === 'implicit_parameter') bind(params, 'parameter');
      }
      continue;
    }
    switch (type) {
      case 'type_parameter': {
        const name = node.childForFieldName('name');
        const owner = node.parent?.parent;
        if (name && owner) classes.addTypeParameter(owner, name.text);
        break;
      }
      case 'parameter': {
        if (node.parent?.parent?.type === 'record_declaration') break;
        // `params Item[] xs` has an array type.
        const written = declared(node.childForFieldName('type'), node.startIndex);
        bind(node.childForFieldName('name'), 'parameter', written);
        // `static int Twice(this Foo x)`: an extension method of Foo (see LanguageGraph.extensionReceivers).
        const method = node.parent?.parent;
        const typeNode = node.childForFieldName('type');
        if (method?.type === 'method_declaration' && typeNode && node.namedChildren.some((c) => c?.type === 'modifier' && c.text === 'this')) {
          const name = method.childForFieldName('name');
          // `this object o` extends every class; `this int x`, `this string s` none of the codebase's.
          const builtIn = typeNode.type === 'predefined_type';
          if (name && (!builtIn || typeNode.text === 'object')) sink.binding(typeNode, { kind: 'receiver', name: name.text, ...(builtIn ? { module: 'object' } : written !== undefined ? { module: written } : {}) });
        }
        break;
      }
      case 'implicit_parameter':
        break;
      case 'variable_declaration': {
        const typeNode = node.childForFieldName('type');
        const written = declared(typeNode, node.startIndex);
        const isField = node.parent?.type === 'field_declaration' || node.parent?.type === 'event_field_declaration';
        for (const d of node.namedChildren) {
          if (d?.type !== 'variable_declarator') continue;
          const name = d.childForFieldName('name') ?? d.namedChildren.find((c) => c?.type === 'identifier');
          if (!name) continue;
          const value = d.namedChildren.find((c) => c !== null && c.startIndex > name.endIndex);
          const inferred = typeNode?.type === 'implicit_type' ? created(value, node.startIndex) : undefined;
          if (isField) declareField(name, written, node.parent!);
          else bind(name, 'local', written ?? inferred, inferred !== undefined);
        }
        break;
      }
      case 'property_declaration': {
        const name = node.childForFieldName('name');
        if (name) declareField(name, declared(node.childForFieldName('type'), node.startIndex), node);
        break;
      }
      case 'foreach_statement': {
        const left = node.childForFieldName('left');
        bind(left, 'local', declared(node.childForFieldName('type'), node.startIndex));
        if (left && left.type !== 'identifier') for (const id of left.descendantsOfType('identifier')) bind(id, 'local');
        break;
      }
      case 'catch_declaration':
      case 'declaration_pattern':
        bind(node.childForFieldName('name'), 'local', declared(node.childForFieldName('type'), node.startIndex));
        break;
      case 'using_directive': {
        const alias = node.childForFieldName('name');
        const target = [...node.namedChildren]
          .reverse()
          .find((c) => c !== null && (c.type === 'qualified_name' || c.type === 'identifier' || c.type === 'generic_name') && c.startIndex !== alias?.startIndex);
        const path = namePath(target);
        if (!path || !target) break;
        const spec = path.join('.');
        sink.site(target, { kind: 'import', name: spec });
        if (alias) sink.binding(alias, { kind: 'module', name: alias.text, module: spec });
        else sink.binding(target, { kind: 'star', name: '*', module: spec });
        break;
      }
    }
  }

  // Pass 2: sites.
  const local = (at: number, name: string) => scopes.lookup(at, name)?.binding;
  const fieldOf = (at: number, name: string): string | null | undefined => classes.innermost(at)?.fields.get(name);
  const isValue = (at: number, name: string): boolean => local(at, name) !== undefined || fieldOf(at, name) !== undefined;
  const typed = (type: string, constructed = false): ReceiverFact => ({ kind: 'type', type, ...(constructed ? { constructed } : {}) });

  const receiverOf = (object: Node, at: number): ReceiverFact | 'dynamic' => {
    switch (object.type) {
      case 'this':
        return classes.innermost(at) ? { kind: 'self' } : 'dynamic';
      case 'base':
        return classes.innermost(at) ? { kind: 'super' } : 'dynamic';
      case 'identifier': {
        const b = local(at, object.text);
        if (b) return b.type ? typed(b.type.name, b.type.constructed === true) : 'dynamic';
        const field = fieldOf(at, object.text);
        if (field !== undefined) return field === null ? 'dynamic' : typed(field);
        return { kind: 'path', path: [object.text] };
      }
      case 'member_access_expression': {
        const inner = object.childForFieldName('expression');
        const name = object.childForFieldName('name');
        if ((inner?.type === 'this' || inner?.text === 'this') && name?.type === 'identifier') {
          const t = fieldOf(at, name.text);
          // A field a base declares (`protected Store store;`).
          if (t === undefined && classes.innermost(at)?.based === true) return { kind: 'self', attribute: name.text };
          return t ? typed(t) : 'dynamic';
        }
        const path = accessPath(object);
        return path && !isValue(at, path[0]!) ? { kind: 'path', path } : 'dynamic';
      }
      case 'object_creation_expression': {
        const cls = created(object, at);
        return cls ? typed(cls, true) : 'dynamic';
      }
      case 'parenthesized_expression': {
        const inner = object.namedChildren[0];
        return inner ? receiverOf(inner, at) : 'dynamic';
      }
      default:
        return 'dynamic';
    }
  };

  const typeSite = (typeNode: Node, kind: 'call' | 'inherits' | 'implements', arity?: number, kindFromTarget = false): void => {
    const path = namePath(typeNode);
    if (!path) return;
    let at: Node = typeNode;
    while (at.type === 'qualified_name' || at.type === 'generic_name') at = (at.type === 'qualified_name' ? at.childForFieldName('name') : at.namedChildren[0]) ?? at;
    const name = path[path.length - 1]!;
    sink.site(at, {
      kind,
      name,
      ...(kind === 'call' ? { construct: true } : {}),
      ...(arity !== undefined ? { arity } : {}),
      ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}),
      ...(kindFromTarget ? { kindFromTarget } : {}),
    });
  };

  /** A method group used as a value (`items.ForEach(Show)`, `button.Click += OnClick`, `handler = this.Next`). */
  const methodGroup = (value: Node | null | undefined): void => {
    if (!value) return;
    if (value.type === 'identifier') {
      if (!isValue(value.startIndex, value.text)) sink.site(value, { kind: 'reference', name: value.text });
      return;
    }
    if (value.type !== 'member_access_expression') return;
    const object = value.childForFieldName('expression');
    const name = value.childForFieldName('name');
    if (!object || name?.type !== 'identifier') return;
    const receiver = receiverOf(object, name.startIndex);
    sink.site(name, receiver === 'dynamic' ? { kind: 'reference', name: name.text, fixed: 'dynamic' } : { kind: 'reference', name: name.text, receiver });
  };

  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (type === 'argument') {
      methodGroup(node.namedChildren[node.namedChildren.length - 1]);
      continue;
    }
    if (type === 'assignment_expression') {
      methodGroup(node.childForFieldName('right'));
    }
    if (type === 'invocation_expression') {
      const fn = node.childForFieldName('function');
      if (!fn) continue;
      const arity = argumentCount(node.childForFieldName('arguments'));
      const counted = arity !== undefined ? { arity } : {};
      if (fn.type === 'identifier' || fn.type === 'generic_name') {
        const nameNode = fn.type === 'identifier' ? fn : fn.namedChildren[0];
        if (nameNode?.type !== 'identifier') continue;
        const name = nameNode.text;
        const at = nameNode.startIndex;
        const b = local(at, name);
        if (b && b.kind !== 'definition') sink.site(nameNode, { kind: 'call', name, fixed: b.kind === 'parameter' ? 'parameter' : 'local-variable' });
        else if (!b && fieldOf(at, name) !== undefined) sink.site(nameNode, { kind: 'call', name, fixed: 'dynamic' }); // a delegate field or property
        else if (!b && classes.innermost(at) && ROOT_MEMBERS.csharp.has(name)) sink.site(nameNode, { kind: 'call', name, receiver: { kind: 'self' }, ...counted });
        else if (name !== 'nameof') sink.site(nameNode, { kind: 'call', name, ...counted });
        continue;
      }
      let object: Node | null = null;
      let nameNode: Node | null | undefined = null;
      if (fn.type === 'member_access_expression') {
        object = fn.childForFieldName('expression');
        const n = fn.childForFieldName('name');
        nameNode = n?.type === 'generic_name' ? n.namedChildren[0] : n;
      } else if (fn.type === 'conditional_access_expression') {
        object = fn.childForFieldName('condition');
        const binding = fn.namedChildren.find((c) => c?.type === 'member_binding_expression');
        const n = binding?.childForFieldName('name');
        nameNode = n?.type === 'generic_name' ? n.namedChildren[0] : n;
      }
      if (!object || nameNode?.type !== 'identifier') continue;
      const receiver = receiverOf(object, nameNode.startIndex);
      if (receiver === 'dynamic') sink.site(nameNode, { kind: 'call', name: nameNode.text, fixed: 'dynamic' });
      else sink.site(nameNode, { kind: 'call', name: nameNode.text, receiver, ...counted });
    } else if (type === 'object_creation_expression') {
      const t = node.childForFieldName('type');
      if (t && !(t.type === 'identifier' && classes.isTypeParameter(t.startIndex, t.text))) typeSite(t, 'call', argumentCount(node.childForFieldName('arguments')));
    } else if (type === 'constructor_initializer') {
      const keyword = node.children.find((c) => c?.type === 'base' || c?.type === 'this');
      const cls = classes.innermost(node.startIndex);
      const arity = argumentCount(node.namedChildren.find((c) => c?.type === 'argument_list'));
      const counted = arity !== undefined ? { arity } : {};
      if (keyword?.type === 'base') sink.site(keyword, { kind: 'call', name: 'base', superConstructor: true, ...counted });
      else if (keyword?.type === 'this' && cls?.name) sink.site(keyword, { kind: 'call', name: cls.name, receiver: { kind: 'self' }, ...counted });
    } else if (type === 'base_list') {
      const owner = node.parent;
      const interfaceOwner = owner?.type === 'interface_declaration';
      const structOwner = owner?.type === 'struct_declaration' || owner?.type === 'enum_declaration';
      node.namedChildren.forEach((entry, i) => {
        if (!entry) return;
        const withArgs = entry.type === 'primary_constructor_base_type';
        const t = withArgs ? entry.childForFieldName('type') : entry;
        if (!t) return;
        // A class's first entry is its base class or an interface: its declaration decides. With
        // arguments (a record's primary constructor), a class.
        const first = i === 0 && !structOwner && !interfaceOwner;
        typeSite(t, interfaceOwner || first ? 'inherits' : 'implements', undefined, first && !withArgs);
        if (withArgs) typeSite(t, 'call', argumentCount(entry.namedChildren.find((c) => c?.type === 'argument_list')));
      });
    }
  }
}

/**
 * The C# reference visitor.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...csharp, references: csharpReferences };
 * ```
 */
export const csharpReferences = visit;
