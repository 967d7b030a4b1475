import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';
import { ClassSpans, declaredPrivate, ROOT_MEMBERS, type ClassSpan } from './typed-scopes.js';
import { JAVA_KEPT, reportAnnotations } from './annotations.js';

// Java: method calls (plain, `this.`, `super.`, typed, static `Foo.bar()`, qualified
// `a.b.Foo.bar()`), `new Foo()`, `super(…)` / `this(…)`, method references, bases, imports
// (single-type, on-demand, static), the package.
//
// A plain call `m()` is always a method: of the enclosing classes and their bases (the graph's
// implicit members), else a static import. A receiver's type is known when the file declares
// it: a parameter, local (`var x = new Foo()` too), enhanced-for or catch variable, pattern
// variable, or a field the innermost class declares. Locals are merged into their method
// (flow-insensitive, which only leaves calls unresolved). Inside an anonymous class body the
// body's base (maybe outside the codebase) may define any member, so a plain or `this.` call of
// a name the body does not declare stays unresolved.

/** What every enum has without declaring it: `values()`, `valueOf(String)` and the members of `java.lang.Enum`. */
const ENUM_MEMBERS: ReadonlySet<string> = new Set(['values', 'valueOf', 'name', 'ordinal', 'compareTo', 'getDeclaringClass', 'describeConstable']);

const CLASSES = typeSet('class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration');
const METHODS = typeSet('method_declaration', 'constructor_declaration', 'compact_constructor_declaration');
const FUNCTIONS = typeSet(...METHODS, 'lambda_expression', 'static_initializer');
const SEARCHED = [
  ...CLASSES,
  ...FUNCTIONS,
  'type_parameter',
  'formal_parameter',
  'spread_parameter',
  'catch_formal_parameter',
  'local_variable_declaration',
  'enhanced_for_statement',
  'resource',
  'instanceof_expression',
  'field_declaration',
  'constant_declaration',
  'method_invocation',
  'object_creation_expression',
  'explicit_constructor_invocation',
  'method_reference',
  'import_declaration',
  'package_declaration',
];

/** `a.b.C` of a scoped identifier or a chain of field accesses on identifiers; undefined otherwise. */
function dotted(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier' || node.type === 'type_identifier') return [node.text];
  if (node.type === 'scoped_identifier') {
    const scope = dotted(node.childForFieldName('scope'));
    const name = node.childForFieldName('name');
    return scope && name ? [...scope, name.text] : undefined;
  }
  if (node.type === 'field_access') {
    const object = dotted(node.childForFieldName('object'));
    const field = node.childForFieldName('field');
    return object && field?.type === 'identifier' ? [...object, field.text] : undefined;
  }
  if (node.type === 'scoped_type_identifier') {
    const parts: string[] = [];
    for (const c of node.namedChildren) {
      if (c?.type === 'type_identifier') parts.push(c.text);
      else if (c?.type === 'scoped_type_identifier') parts.push(...(dotted(c) ?? []));
      else if (c?.type !== 'annotation' && c?.type !== 'marker_annotation') return undefined;
    }
    return parts.length > 0 ? parts : undefined;
  }
  return undefined;
}

/** The class a declared type names, as written without type arguments (`Foo`, `a.Foo`); undefined for primitives, arrays, `var`. */
function className(type: Node | null | undefined): string[] | undefined {
  if (!type) return undefined;
  if (type.type === 'generic_type') return className(type.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'scoped_type_identifier'));
  if (type.type === 'type_identifier') return type.text === 'var' ? undefined : [type.text];
  if (type.type === 'scoped_type_identifier') return dotted(type);
  return undefined;
}

const COMMENTS = typeSet('line_comment', 'block_comment');

/** The number of arguments of an `argument_list`. */
function argumentCount(args: Node | null | undefined): number | undefined {
  if (!args) return undefined;
  let n = 0;
  for (const c of args.namedChildren) if (c && !COMMENTS.has(c.type)) n++;
  return n;
}

/** Reports how many arguments a method or constructor takes (`Item... xs`: any number from there). */
function reportSignature(node: Node, sink: ReferenceSink): void {
  const params = node.childForFieldName('parameters');
  if (!params || !sink.signature) return;
  let n = 0;
  let varargs = false;
  for (const p of params.namedChildren) {
    if (p?.type === 'formal_parameter') n++;
    else if (p?.type === 'spread_parameter') varargs = true;
  }
  sink.signature(node, n, varargs ? null : n);
}

/** The type of `new Foo<…>(…)` without a class body, as a path. */
function constructedClass(value: Node | null | undefined): string[] | undefined {
  if (value?.type !== 'object_creation_expression') return undefined;
  if (value.lastNamedChild?.type === 'class_body') return undefined;
  return className(value.childForFieldName('type'));
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  const classes = new ClassSpans();
  const methodSpans: { start: number; end: number }[] = [];

  /** The declared class of a type at `at`, unless it is a type parameter there. */
  const declared = (type: Node | null | undefined, at: number): string | undefined => {
    const path = className(type);
    if (!path || (path.length === 1 && classes.isTypeParameter(at, path[0]!))) return undefined;
    return path.join('.');
  };
  const bindLocal = (name: Node | null | undefined, type: string | undefined, kind: 'parameter' | 'local', constructed = false): void => {
    if (name?.type !== 'identifier') return;
    const scope = scopes.enclosingFunction(name.startIndex, (k) => k === 'function');
    if (scope < 0) return;
    scopes.bind(scope, name.text, { kind, ...(type ? { type: { name: type, ...(constructed ? { constructed } : {}) } } : {}) });
  };

  // Pass 1: classes with their fields, scopes with their parameters and locals, imports.
  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (CLASSES.has(type)) {
      // A local class (in a method, a lambda, an initialiser) is no member of the class around:
      // in a lambda of a field's initialiser its symbol sits in that class.
      if (scopes.innermostAt(node.startIndex) >= 0 && node.parent?.type === 'block') sink.flag(node, 'enclosed');
      const span = classes.add(node, node.childForFieldName('name')?.text ?? null);
      reportAnnotations(node, sink, JAVA_KEPT);
      span.based = node.childForFieldName('superclass') !== null || node.childForFieldName('interfaces') !== null || node.namedChildren.some((c) => c?.type === 'extends_interfaces');
      if (type === 'enum_declaration') span.implicit = { names: ENUM_MEMBERS, replaceable: false };
      else if (type === 'record_declaration') {
        const accessors = new Set<string>();
        for (const p of node.childForFieldName('parameters')?.namedChildren ?? []) {
          const name = p?.childForFieldName('name');
          if (p?.type !== 'formal_parameter' || !name) continue;
          span.fields.set(name.text, declared(p.childForFieldName('type'), p.startIndex) ?? null);
          accessors.add(name.text);
        }
        span.implicit = { names: accessors, replaceable: true };
      }
      continue;
    }
    if (type === 'object_creation_expression') {
      // An anonymous class body (`new T() { … }`); an enum constant's body is the enum's own.
      const body = node.lastNamedChild;
      if (body?.type === 'class_body') classes.add(body, null).based = true;
      continue;
    }
    if (FUNCTIONS.has(type)) {
      scopes.open(node, 'function');
      if (type === 'lambda_expression') {
        const params = node.childForFieldName('parameters');
        if (params?.type === 'identifier') bindLocal(params, undefined, 'parameter');
        else if (params?.type === 'inferred_parameters') for (const p of params.namedChildren) bindLocal(p, undefined, 'parameter');
      }
      if (METHODS.has(type)) {
        methodSpans.push({ start: node.startIndex, end: node.endIndex });
        if (type !== 'compact_constructor_declaration') reportSignature(node, sink);
        const owner = classes.innermost(node.startIndex);
        const name = node.childForFieldName('name')?.text;
        if (owner && name) owner.methods.add(name);
        if (type === 'method_declaration' && declaredPrivate(node)) sink.flag(node, 'private');
        reportAnnotations(node, sink, JAVA_KEPT);
      }
      continue;
    }
    switch (type) {
      case 'type_parameter': {
        const name = node.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'identifier');
        const owner = node.parent?.parent;
        if (name && owner) classes.addTypeParameter(owner, name.text);
        break;
      }
      case 'formal_parameter': {
        // (A record's components are its fields, above; outside a method they bind nothing here.)
        bindLocal(node.childForFieldName('name'), declared(node.childForFieldName('type'), node.startIndex), 'parameter');
        break;
      }
      case 'spread_parameter': {
        // `Item... items` is an array.
        const declarator = node.namedChildren.find((c) => c?.type === 'variable_declarator');
        bindLocal(declarator?.childForFieldName('name'), undefined, 'parameter');
        break;
      }
      case 'catch_formal_parameter': {
        const types = node.namedChildren.find((c) => c?.type === 'catch_type')?.namedChildren ?? [];
        bindLocal(node.childForFieldName('name'), types.length === 1 ? declared(types[0], node.startIndex) : undefined, 'local');
        break;
      }
      case 'local_variable_declaration':
      case 'field_declaration':
      case 'constant_declaration': {
        const typeNode = node.childForFieldName('type');
        const written = declared(typeNode, node.startIndex);
        const privateField = type === 'field_declaration' && declaredPrivate(node);
        for (const d of node.childrenForFieldName('declarator')) {
          if (d?.type !== 'variable_declarator') continue;
          const name = d.childForFieldName('name');
          // `int[] a[]`-style dimensions on the name make it an array.
          const array = d.childForFieldName('dimensions') !== null;
          const value = d.childForFieldName('value');
          const inferred = typeNode?.text === 'var' ? constructedClass(value)?.join('.') : undefined;
          if (type === 'local_variable_declaration') {
            bindLocal(name, array ? undefined : (written ?? inferred), 'local', inferred !== undefined);
          } else if (name) {
            const owner = classes.innermost(node.startIndex);
            owner?.fields.set(name.text, array ? null : (written ?? null));
            // What other files' receivers need (a static import of it, `System.err`, a subclass):
            // the fields of named classes that have a class type.
            if (owner?.name != null && !array && written !== undefined) {
              sink.binding(name, { kind: 'field', name: name.text, module: written, ...(privateField ? { member: 'private' } : {}) });
            }
          }
        }
        break;
      }
      case 'enhanced_for_statement':
      case 'resource': {
        const typeNode = node.childForFieldName('type');
        if (!typeNode) break;
        const name = node.childForFieldName('name');
        const inferred = type === 'resource' && typeNode.text === 'var' ? constructedClass(node.childForFieldName('value'))?.join('.') : undefined;
        bindLocal(name, node.childForFieldName('dimensions') ? undefined : (declared(typeNode, node.startIndex) ?? inferred), 'local', inferred !== undefined);
        break;
      }
      case 'instanceof_expression': {
        const name = node.childForFieldName('name');
        if (name) bindLocal(name, declared(node.childForFieldName('right'), node.startIndex), 'local');
        break;
      }
      case 'package_declaration': {
        const path = dotted(node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier'));
        if (path) sink.setPackage(path.join('.'));
        break;
      }
      case 'import_declaration': {
        const pathNode = node.namedChildren.find((c) => c?.type === 'scoped_identifier' || c?.type === 'identifier');
        const path = dotted(pathNode);
        if (!path || !pathNode) break;
        const star = node.namedChildren.some((c) => c?.type === 'asterisk');
        const spec = path.join('.');
        const isStatic = node.children.some((c) => c?.type === 'static');
        // A static import names members of a class: the import edge points at the class.
        sink.site(pathNode, { kind: 'import', name: isStatic && !star ? path.slice(0, -1).join('.') : spec });
        if (star) sink.binding(pathNode, { kind: 'star', name: '*', module: spec });
        else if (path.length > 1) {
          const member = path[path.length - 1]!;
          sink.binding(pathNode, { kind: 'member', name: member, module: path.slice(0, -1).join('.'), member });
        }
        break;
      }
    }
  }

  // Pass 2: sites.
  const local = (at: number, name: string) => scopes.lookup(at, name)?.binding;
  /** The innermost class at `at` when it is a named one (undefined inside an anonymous body). */
  const namedClass = (at: number): ClassSpan | undefined => {
    const c = classes.innermost(at);
    return c?.name !== null ? c : undefined;
  };
  /**
   * A field the class at `at` declares, or a class around it when the classes between name no
   * base (a base's field of the name would hide the outer one: `UNSAFE` in a nested class of the
   * class declaring it); null: declared with no class type; undefined: no such field seen.
   */
  const fieldType = (at: number, name: string): string | null | undefined => {
    for (const c of classes.enclosing(at)) {
      const t = c.fields.get(name);
      if (t !== undefined || c.based === true) return t;
    }
    return undefined;
  };
  const typed = (type: string): ReceiverFact => ({ kind: 'type', type });

  const receiverOf = (object: Node, at: number): ReceiverFact | 'dynamic' | 'anonymous' => {
    switch (object.type) {
      case 'this':
        return namedClass(at) ? { kind: 'self' } : 'anonymous';
      case 'super':
        return namedClass(at) ? { kind: 'super' } : 'dynamic';
      case 'identifier': {
        const b = local(at, object.text);
        if (b) return b.type ? { kind: 'type', type: b.type.name, ...(b.type.constructed ? { constructed: true } : {}) } : 'dynamic';
        const field = fieldType(at, object.text);
        if (field !== undefined) return field === null ? 'dynamic' : typed(field);
        return { kind: 'path', path: [object.text] };
      }
      case 'field_access': {
        const inner = object.childForFieldName('object');
        const field = object.childForFieldName('field');
        if (!inner || !field) return 'dynamic';
        if (field.type === 'this') {
          // `Outer.this.m()`: the enclosing instance of class Outer.
          const path = dotted(inner);
          return path ? typed(path.join('.')) : 'dynamic';
        }
        if (inner.type === 'this' && field.type === 'identifier') {
          // `this.x`: the innermost class's own field, never one of a class around it; in a
          // class with bases, a field a base declares (`protected Store store;`).
          const cls = namedClass(at);
          const t = cls?.fields.get(field.text);
          if (t === undefined && cls?.based === true) return { kind: 'self', attribute: field.text };
          return t ? typed(t) : 'dynamic';
        }
        const path = dotted(object);
        if (!path) return 'dynamic';
        const head = path[0]!;
        return local(at, head) || fieldType(at, head) !== undefined ? 'dynamic' : { kind: 'path', path };
      }
      case 'object_creation_expression': {
        const cls = constructedClass(object);
        return cls ? { kind: 'type', type: cls.join('.'), constructed: true } : 'dynamic';
      }
      case 'parenthesized_expression': {
        const inner = object.namedChildren[0];
        return inner ? receiverOf(inner, at) : 'dynamic';
      }
      default:
        return 'dynamic';
    }
  };

  /**
   * Whether an anonymous class body inside the named method around `at` declares `name`: that
   * method is then a nested definition of the method, which a plain call outside the body
   * does not mean (Java has no nested functions).
   */
  const shadowedByAnonymous = (at: number, name: string): boolean => {
    let method: { start: number; end: number } | undefined;
    for (const m of methodSpans) if (m.start <= at && at < m.end && (!method || m.start >= method.start)) method = m;
    return method !== undefined && classes.anonymousWithin(method.start, method.end).some((c) => c.methods.has(name) && !(c.start <= at && at < c.end));
  };

  /**
   * A plain call of a member the language declares implicitly in a class around the site (an
   * enum's `valueOf`, a record's accessor) before any class declares the name: `'self'` when
   * that class is the innermost one (its own member, never a method of the class around it),
   * `'dynamic'` when it is further out or stands beside declared overloads; undefined otherwise.
   */
  const implicitMember = (at: number, name: string): 'self' | 'dynamic' | undefined => {
    for (const [depth, c] of classes.enclosing(at).entries()) {
      const implicit = c.implicit?.names.has(name) === true;
      if (c.methods.has(name)) return implicit && !c.implicit!.replaceable ? 'dynamic' : undefined;
      if (implicit) return depth === 0 ? 'self' : 'dynamic';
      if (c.name === null) return undefined; // an anonymous body's base may declare it
    }
    return undefined;
  };

  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (type === 'method_invocation') {
      const name = node.childForFieldName('name');
      if (!name) continue;
      const at = name.startIndex;
      const object = node.childForFieldName('object');
      const arity = argumentCount(node.childForFieldName('arguments'));
      const counted = arity !== undefined ? { arity } : {};
      if (!object) {
        const cls = classes.innermost(at);
        const implicit = implicitMember(at, name.text);
        if (implicit === 'dynamic') sink.site(name, { kind: 'call', name: name.text, fixed: 'dynamic' });
        else if (implicit === 'self') sink.site(name, { kind: 'call', name: name.text, receiver: { kind: 'self' }, ...counted });
        else if (cls && cls.name === null && !cls.methods.has(name.text)) sink.site(name, { kind: 'call', name: name.text, fixed: 'dynamic' });
        else if (cls && cls.name !== null && (ROOT_MEMBERS.java.has(name.text) || shadowedByAnonymous(at, name.text))) sink.site(name, { kind: 'call', name: name.text, receiver: { kind: 'self' }, ...counted });
        else sink.site(name, { kind: 'call', name: name.text, ...counted });
        continue;
      }
      const receiver = receiverOf(object, at);
      if (receiver === 'anonymous') {
        // `this.m()` in an anonymous body: the body's own method, found like a plain call.
        if (classes.innermost(at)!.methods.has(name.text)) sink.site(name, { kind: 'call', name: name.text, ...counted });
        else sink.site(name, { kind: 'call', name: name.text, fixed: 'dynamic' });
      } else if (receiver === 'dynamic') sink.site(name, { kind: 'call', name: name.text, fixed: 'dynamic' });
      else sink.site(name, { kind: 'call', name: name.text, receiver, ...counted });
    } else if (type === 'object_creation_expression') {
      const typeNode = node.childForFieldName('type');
      const generic = typeNode?.type === 'generic_type' ? typeNode.namedChildren.find((c) => c?.type === 'type_identifier' || c?.type === 'scoped_type_identifier') : typeNode;
      if (!generic) continue;
      // `outer.new Inner()`: a member class of outer's class, which the file does not declare.
      const first = node.firstNamedChild;
      if (first && first.endIndex <= generic.startIndex && first.type !== 'type_arguments' && !first.type.endsWith('annotation')) {
        sink.site(generic, { kind: 'call', name: generic.text.split('.').pop()!, construct: true, fixed: 'dynamic' });
        continue;
      }
      const path = className(generic);
      if (!path) continue;
      const at = generic.type === 'scoped_type_identifier' ? (generic.namedChildren[generic.namedChildren.length - 1] ?? generic) : generic;
      const name = path[path.length - 1]!;
      const arity = argumentCount(node.childForFieldName('arguments'));
      sink.site(at, { kind: 'call', name, construct: true, ...(arity !== undefined ? { arity } : {}), ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
    } else if (type === 'explicit_constructor_invocation') {
      const ctor = node.childForFieldName('constructor');
      if (!ctor) continue;
      const cls = namedClass(ctor.startIndex);
      const arity = argumentCount(node.childForFieldName('arguments'));
      const counted = arity !== undefined ? { arity } : {};
      if (ctor.type === 'super') sink.site(ctor, { kind: 'call', name: 'super', superConstructor: true, ...counted });
      else if (ctor.type === 'this' && cls?.name) sink.site(ctor, { kind: 'call', name: cls.name, receiver: { kind: 'self' }, ...counted });
    } else if (type === 'method_reference') {
      const parts = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'type_arguments');
      const target = parts[0];
      const member = parts.length > 1 ? parts[parts.length - 1] : undefined;
      if (!target) continue;
      if (!member) {
        // `Foo::new`: a use of Foo's constructor.
        const path = className(target) ?? dotted(target);
        if (path) sink.site(target, { kind: 'reference', name: path[path.length - 1]!, construct: true, ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
        continue;
      }
      if (member.type !== 'identifier') continue;
      const receiver = receiverOf(target, member.startIndex);
      if (typeof receiver !== 'string') sink.site(member, { kind: 'reference', name: member.text, receiver });
    } else if (CLASSES.has(type)) {
      const bases: { clause: Node | null | undefined; kind: 'inherits' | 'implements' }[] = [
        { clause: node.childForFieldName('superclass'), kind: 'inherits' },
        { clause: node.childForFieldName('interfaces'), kind: 'implements' },
        { clause: node.namedChildren.find((c) => c?.type === 'extends_interfaces'), kind: 'inherits' },
      ];
      for (const { clause, kind } of bases) {
        if (!clause) continue;
        const list = clause.namedChildren.find((c) => c?.type === 'type_list');
        for (const t of list ? list.namedChildren : clause.namedChildren) {
          const path = className(t);
          if (!path || !t) continue;
          const base = t.type === 'generic_type' ? (t.namedChildren[0] ?? t) : t;
          const at = base.type === 'scoped_type_identifier' ? (base.namedChildren[base.namedChildren.length - 1] ?? base) : base;
          sink.site(at, { kind, name: path[path.length - 1]!, ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
        }
      }
    }
  }
}

/**
 * The Java reference visitor.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...java, references: javaReferences };
 * ```
 */
export const javaReferences = visit;
