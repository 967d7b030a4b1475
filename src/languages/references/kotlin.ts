import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';
import { ClassSpans, declaredPrivate, ROOT_MEMBERS, type ClassSpan } from './typed-scopes.js';
import { KOTLIN_KEPT, reportAnnotations } from './annotations.js';

// Kotlin: calls (plain, `this.`, `super.`, typed receivers, `Foo.bar()`, qualified paths),
// constructor calls (`Foo()`, which resolve to the class: its primary constructor is no symbol
// of its own), bases (a constructor call in the header is a class base: `inherits`; a bare type
// is an interface, or the superclass of a class without a primary constructor: the declaration it
// resolves to decides, and unresolved it stays `implements`), imports (with `as` aliases and `.*`), the package.
//
// A plain call's implicit receiver is only known where the file shows it. Kotlin lambdas may
// have a receiver of their own (`apply { m() }`, `with(x) { m() }`, builder DSLs), which the file
// does not declare: a plain or `this.` call inside a lambda stays unresolved unless the lambda is
// passed to a standard function known to give it none (`forEach`, `map`, `let`, …), where it is
// transparent. The same holds for an anonymous `object :` body (its base's members come first)
// and a member extension's (`fun Foo.ext()` in a class body: two implicit receivers). A top-level
// or local extension function says what it extends (a `receiver` binding): in its body the
// extended class is the implicit receiver (`this.m()`, `m()`), which resolution reads. Types come from
// parameters, locals and properties with a declared type or a constructor-looking initializer
// (`val x = Foo()`: Foo when Foo is a class), `for (x: Foo in …)`, catch parameters.

const CLASSES = typeSet('class_declaration', 'object_declaration', 'companion_object');
const FUNCTIONS = typeSet('function_declaration', 'secondary_constructor', 'anonymous_function', 'lambda_literal', 'getter', 'setter', 'anonymous_initializer');
const SEARCHED = [
  ...CLASSES,
  ...FUNCTIONS,
  'object_literal',
  'type_parameter',
  'parameter',
  'class_parameter',
  'property_declaration',
  'for_statement',
  'catch_block',
  'call_expression',
  'callable_reference',
  'constructor_delegation_call',
  'delegation_specifier',
  'import',
  'package_header',
];

/** Standard functions whose lambda argument has no receiver: calls inside it mean what they mean outside. */
const PLAIN_LAMBDA_TAKERS = typeSet(
  'let', 'also', 'takeIf', 'takeUnless', 'repeat', 'forEach', 'forEachIndexed', 'onEach', 'map', 'mapNotNull', 'mapIndexed',
  'mapValues', 'mapKeys', 'flatMap', 'filter', 'filterNot', 'filterKeys', 'filterValues', 'filterIndexed', 'any', 'all',
  'none', 'count', 'first', 'firstOrNull', 'last', 'lastOrNull', 'find', 'findLast', 'single', 'singleOrNull', 'sortedBy',
  'sortedByDescending', 'sortBy', 'sortByDescending', 'groupBy', 'associate', 'associateBy', 'associateWith', 'partition',
  'fold', 'reduce', 'sumOf', 'maxByOrNull', 'minByOrNull', 'maxBy', 'minBy', 'maxOf', 'minOf', 'takeWhile', 'dropWhile',
  'distinctBy', 'indexOfFirst', 'indexOfLast', 'removeIf', 'removeAll', 'retainAll', 'getOrElse', 'getOrPut', 'lazy',
  'runCatching', 'use', 'compareBy', 'thenBy', 'zip', 'chunked', 'windowed', 'require', 'check', 'requireNotNull', 'checkNotNull',
);

const unquote = (name: string): string => (name.length > 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1) : name);

/** The identifiers of a qualified identifier or user type (`a.b.C`), type arguments left out. */
function identifiers(node: Node | null | undefined): string[] {
  return (node?.namedChildren ?? []).filter((c): c is Node => c?.type === 'identifier').map((c) => unquote(c.text));
}

/** The class a declared type names (`Foo`, `a.Foo`, `Foo<T>`, `Foo?`), else undefined (function types, …). */
function typeName(type: Node | null | undefined): string[] | undefined {
  if (!type) return undefined;
  if (type.type === 'nullable_type' || type.type === 'parenthesized_type') return typeName(type.namedChildren[0]);
  if (type.type !== 'user_type') return undefined;
  const parts = identifiers(type);
  return parts.length > 0 ? parts : undefined;
}

/** A chain of plain names `a.b.c` (navigation over identifiers), else undefined. */
function navigationPath(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return [unquote(node.text)];
  if (node.type !== 'navigation_expression') return undefined;
  const children = node.namedChildren.filter((c): c is Node => c !== null);
  if (children.length !== 2 || children[1]!.type !== 'identifier' || node.children.some((c) => c?.type === '::')) return undefined;
  const head = navigationPath(children[0]);
  return head ? [...head, unquote(children[1]!.text)] : undefined;
}

/** Reports how many arguments a function takes: defaulted parameters are optional, `vararg` takes any number. */
function reportSignature(node: Node, sink: ReferenceSink): void {
  const params = node.namedChildren.find((c) => c?.type === 'function_value_parameters');
  if (!params || !sink.signature) return;
  let min = 0;
  let max = 0;
  let varargs = false;
  let modifiers = '';
  for (const c of params.children) {
    if (!c) continue;
    if (c.type === 'parameter_modifiers') modifiers = c.text;
    else if (c.type === 'parameter') {
      if (modifiers.includes('vararg')) varargs = true;
      else if (c.nextSibling?.type === '=') max++;
      else {
        min++;
        max++;
      }
      modifiers = '';
    }
  }
  sink.signature(node, min, varargs ? null : max);
}

/** The arguments of a call: its value arguments and a trailing lambda (`f(1) { … }` nests the call in another); undefined with a spread `*xs`. */
function argumentCount(call: Node): number | undefined {
  let n = 0;
  for (const c of call.namedChildren) {
    if (c?.type === 'value_arguments') {
      for (const a of c.namedChildren) {
        if (a?.type !== 'value_argument') continue;
        if (a.namedChildren.some((x) => x?.type === 'spread_expression')) return undefined;
        n++;
      }
    } else if (c?.type === 'annotated_lambda') n++;
  }
  const outer = call.parent;
  if (outer?.type === 'call_expression' && outer.namedChildren[0]?.startIndex === call.startIndex && outer.namedChildren.some((c) => c?.type === 'annotated_lambda')) n++;
  return n;
}

/** What may stand before an extension function's name: the type it extends. */
const RECEIVER_TYPES = typeSet('user_type', 'nullable_type', 'function_type', 'parenthesized_type');

/** The names of a declaration's own type parameters (`fun <T> T.ext()`). */
function typeParameters(node: Node): Set<string> {
  const out = new Set<string>();
  for (const p of node.namedChildren.find((c) => c?.type === 'type_parameters')?.namedChildren ?? []) {
    const id = p?.type === 'type_parameter' ? p.namedChildren.find((c) => c?.type === 'identifier') : undefined;
    if (id) out.add(id.text);
  }
  return out;
}

function declaredType(node: Node): Node | undefined {
  return node.namedChildren.find((c): c is Node => c !== null && (c.type === 'user_type' || c.type === 'nullable_type' || c.type === 'function_type' || c.type === 'parenthesized_type'));
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  // Each node's type read once (a read crosses into wasm), for both loops.
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  const classes = new ClassSpans();
  /** Bodies where the implicit receiver is not the enclosing class: receiver lambdas, member extensions and extensions of no class, anonymous objects. */
  const opaque: { start: number; end: number; anonymous?: ClassSpan }[] = [];
  const namedFunctions: { start: number; end: number }[] = [];
  /** Bodies of top-level and local extension functions, whose `this` is the extended type. */
  const extensions: { start: number; end: number }[] = [];

  const declared = (type: Node | null | undefined, at: number): string | undefined => {
    const path = typeName(type);
    if (!path || (path.length === 1 && classes.isTypeParameter(at, path[0]!))) return undefined;
    return path.join('.');
  };
  /** `Foo()` / `a.Foo()` as an initializer: the callee path, a class only if resolution says so. */
  const constructedBy = (value: Node | null | undefined): string | undefined => {
    if (value?.type !== 'call_expression' || value.namedChildren.some((c) => c?.type === 'annotated_lambda')) return undefined;
    const path = navigationPath(value.namedChildren[0]);
    return path ? path.join('.') : undefined;
  };
  const functionScope = (at: number): number => scopes.enclosingFunction(at, (k) => k === 'function');
  const bind = (name: Node | null | undefined, kind: 'parameter' | 'local', type?: string, constructed = false): void => {
    if (name?.type !== 'identifier') return;
    const scope = functionScope(name.startIndex);
    if (scope >= 0) scopes.bind(scope, unquote(name.text), { kind, ...(type ? { type: { name: type, ...(constructed ? { constructed } : {}) } } : {}) });
  };

  /** A property of a named class with a declared class type: a `field` binding (`private` ones marked), which subclasses' receivers read. */
  const declareProperty = (owner: ClassSpan, id: Node, type: string | undefined, declaration: Node): void => {
    if (owner.name === null || type === undefined) return;
    sink.binding(id, { kind: 'field', name: unquote(id.text), module: type, ...(declaredPrivate(declaration) ? { member: 'private' } : {}) });
  };

  // Pass 1.
  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (CLASSES.has(type)) {
      const name = node.childForFieldName('name')?.text;
      const span = classes.add(node, name ? unquote(name) : type === 'companion_object' ? 'Companion' : null);
      if (type !== 'class_declaration') sink.flag(node, 'singleton');
      reportAnnotations(node, sink, KOTLIN_KEPT);
      if (type === 'companion_object') sink.flag(node, 'companion');
      // A supertype written without a constructor call may name an interface or a class (see the bases below).
      else if (node.children.some((c) => c?.type === 'interface')) sink.flag(node, 'interface');
      for (const ctor of node.namedChildren) {
        if (ctor?.type !== 'primary_constructor') continue;
        for (const p of ctor.namedChildren.find((c) => c?.type === 'class_parameters')?.namedChildren ?? []) {
          const id = p?.namedChildren.find((c) => c?.type === 'identifier');
          if (!p || !id) continue;
          const written = declared(declaredType(p), p.startIndex);
          span.fields.set(unquote(id.text), written ?? null);
          // `val`/`var` parameters are properties: a subclass's `this.store` may read them.
          if (p.children.some((c) => c?.type === 'val' || c?.type === 'var')) declareProperty(span, id, written, p);
        }
      }
      // A class with supertypes may inherit properties nobody here sees.
      span.based = node.namedChildren.some((c) => c?.type === 'delegation_specifiers');
      continue;
    }
    if (type === 'object_literal') {
      opaque.push({ start: node.startIndex, end: node.endIndex, anonymous: classes.add(node, null) });
      continue;
    }
    if (FUNCTIONS.has(type)) {
      const enclosing = functionScope(node.startIndex);
      const scope = scopes.open(node, 'function');
      if (type === 'function_declaration' || type === 'secondary_constructor') {
        reportSignature(node, sink);
        reportAnnotations(node, sink, KOTLIN_KEPT);
      }
      if (type === 'function_declaration') {
        const name = node.childForFieldName('name');
        const owner = classes.innermost(node.startIndex);
        const inBody = node.parent?.type === 'class_body' || node.parent?.type === 'enum_class_body';
        namedFunctions.push({ start: node.startIndex, end: node.endIndex });
        if (name && inBody && owner) {
          owner.methods.add(unquote(name.text));
          if (declaredPrivate(node)) sink.flag(node, 'private');
        } else if (name && enclosing >= 0) {
          scopes.bind(enclosing, unquote(name.text), { kind: 'definition' });
          // A local function: inside a lambda (which names nothing) its symbol sits at the level
          // around it, where it is no name.
          sink.flag(node, 'enclosed');
        }
        // `fun Foo.ext()`: the receiver type before the name makes this an extension function.
        const receiverType = name ? node.namedChildren.find((c) => c !== null && c.endIndex <= name.startIndex && RECEIVER_TYPES.has(c.type)) : undefined;
        if (receiverType && name) {
          const path = inBody && owner ? undefined : typeName(receiverType);
          // A type parameter of the function's or of a class around it names no class.
          const own = path?.length === 1 && (typeParameters(node).has(path[0]!) || classes.isTypeParameter(node.startIndex, path[0]!));
          const extended = path && !own ? path.join('.') : undefined;
          if (!(inBody && owner)) sink.binding(receiverType, { kind: 'receiver', name: unquote(name.text), ...(extended !== undefined ? { module: extended } : {}) });
          if (extended !== undefined) extensions.push({ start: node.startIndex, end: node.endIndex });
          else opaque.push({ start: node.startIndex, end: node.endIndex });
        }
      } else if (type === 'lambda_literal') {
        const params = node.namedChildren.find((c) => c?.type === 'lambda_parameters');
        if (params) {
          for (const v of params.descendantsOfType('variable_declaration')) {
            const id = v?.namedChildren.find((c) => c?.type === 'identifier');
            if (v && id) bind(id, 'parameter', declared(declaredType(v), v.startIndex));
          }
        } else scopes.bind(scope, 'it', { kind: 'parameter' });
        // A lambda passed to a function the file cannot see into may have a receiver.
        const call = node.parent?.type === 'annotated_lambda' ? node.parent.parent : node.parent?.parent?.parent;
        const callee = call?.type === 'call_expression' ? call.namedChildren[0] : undefined;
        const calleeName = callee?.type === 'identifier' ? callee.text : callee?.type === 'navigation_expression' ? callee.namedChildren[callee.namedChildren.length - 1]?.text : undefined;
        if (calleeName === undefined || !PLAIN_LAMBDA_TAKERS.has(calleeName)) opaque.push({ start: node.startIndex, end: node.endIndex });
      }
      continue;
    }
    switch (type) {
      case 'type_parameter': {
        const name = node.namedChildren.find((c) => c?.type === 'identifier');
        const owner = node.parent?.parent;
        if (name && owner) classes.addTypeParameter(owner, name.text);
        break;
      }
      case 'parameter': {
        const id = node.namedChildren.find((c) => c?.type === 'identifier');
        const vararg = node.previousNamedSibling?.type === 'parameter_modifiers' && node.previousNamedSibling.text.includes('vararg');
        bind(id, 'parameter', vararg ? undefined : declared(declaredType(node), node.startIndex));
        break;
      }
      case 'property_declaration': {
        const variable = node.namedChildren.find((c) => c?.type === 'variable_declaration');
        const id = variable?.namedChildren.find((c) => c?.type === 'identifier');
        const value = node.namedChildren.find((c) => c?.type === 'call_expression' && c.startIndex > (variable?.endIndex ?? 0));
        const written = variable ? declared(declaredType(variable), variable.startIndex) : undefined;
        const inferred = written === undefined && variable ? constructedBy(value) : undefined;
        if (node.namedChildren.some((c) => c?.type === 'multi_variable_declaration')) {
          for (const v of node.descendantsOfType('variable_declaration')) bind(v?.namedChildren.find((c) => c?.type === 'identifier'), 'local');
          break;
        }
        if (!id) break;
        if (functionScope(node.startIndex) >= 0) bind(id, 'local', written ?? inferred, inferred !== undefined);
        else {
          const owner = classes.innermost(node.startIndex);
          // A property initialised by a call is typed only if the callee is a class: leave such a field untyped.
          if (owner) {
            owner.fields.set(unquote(id.text), written ?? null);
            declareProperty(owner, id, written, node);
          } else sink.binding(id, { kind: 'assign', name: unquote(id.text) });
        }
        break;
      }
      case 'for_statement': {
        const v = node.namedChildren.find((c) => c?.type === 'variable_declaration');
        if (v) bind(v.namedChildren.find((c) => c?.type === 'identifier'), 'local', declared(declaredType(v), v.startIndex));
        else for (const m of node.namedChildren.find((c) => c?.type === 'multi_variable_declaration')?.descendantsOfType('variable_declaration') ?? []) bind(m?.namedChildren.find((c) => c?.type === 'identifier'), 'local');
        break;
      }
      case 'catch_block': {
        const id = node.namedChildren.find((c) => c?.type === 'identifier');
        bind(id, 'local', declared(declaredType(node), node.startIndex));
        break;
      }
      case 'package_header': {
        const path = identifiers(node.namedChildren.find((c) => c?.type === 'qualified_identifier'));
        if (path.length > 0) sink.setPackage(path.join('.'));
        break;
      }
      case 'import': {
        const qualified = node.namedChildren.find((c) => c?.type === 'qualified_identifier');
        const path = identifiers(qualified);
        if (!qualified || path.length === 0) break;
        const star = node.children.some((c) => c?.type === '*');
        const alias = node.namedChildren.find((c) => c?.type === 'identifier');
        sink.site(qualified, { kind: 'import', name: path.join('.') });
        if (star) sink.binding(qualified, { kind: 'star', name: '*', module: path.join('.') });
        else if (path.length > 1) {
          const member = path[path.length - 1]!;
          sink.binding(qualified, { kind: 'member', name: alias ? unquote(alias.text) : member, module: path.slice(0, -1).join('.'), member });
        }
        break;
      }
    }
  }

  // Pass 2: sites.
  const isOpaque = (at: number): boolean => opaque.some((o) => o.start <= at && at < o.end);
  const inExtension = (at: number): boolean => extensions.some((e) => e.start <= at && at < e.end);
  /** `this` is a class's or an extended type's, outside any body with a receiver of its own. */
  const hasThis = (at: number): boolean => (namedClass(at) !== undefined || inExtension(at)) && !isOpaque(at);
  /** Where the class's fields are not surely what a name means (an extended type's properties come first). */
  const fieldsUnsure = (at: number): boolean => isOpaque(at) || inExtension(at);
  /** The innermost opaque body holding `at`. */
  const opaqueAt = (at: number) => {
    let best: (typeof opaque)[number] | undefined;
    for (const o of opaque) if (o.start <= at && at < o.end && (!best || o.start >= best.start)) best = o;
    return best;
  };
  /** An anonymous object inside the named function around `at` (but not around `at`) declares `name`: its method is no plain name here. */
  const shadowedByAnonymous = (at: number, name: string): boolean => {
    let fn: { start: number; end: number } | undefined;
    for (const f of namedFunctions) if (f.start <= at && at < f.end && (!fn || f.start >= fn.start)) fn = f;
    return fn !== undefined && classes.anonymousWithin(fn.start, fn.end).some((c) => c.methods.has(name) && !(c.start <= at && at < c.end));
  };
  const namedClass = (at: number): ClassSpan | undefined => {
    const c = classes.innermost(at);
    return c && c.name !== null ? c : undefined;
  };
  const local = (at: number, name: string) => scopes.lookup(at, name)?.binding;
  /** A name that is a local, parameter or property of the class at `at` (a value, not a class or package). */
  const isValue = (at: number, name: string): boolean => local(at, name) !== undefined || classes.innermost(at)?.fields.has(name) === true;
  const typed = (type: string, constructed = false): ReceiverFact => ({ kind: 'type', type, ...(constructed ? { constructed } : {}) });

  const receiverOf = (object: Node, at: number): ReceiverFact | 'dynamic' => {
    switch (object.type) {
      case 'this_expression': {
        const label = object.namedChildren.find((c) => c?.type === 'identifier');
        if (label) return classes.enclosing(at).some((c) => c.name === label.text) ? typed(label.text) : 'dynamic';
        return hasThis(at) ? { kind: 'self' } : 'dynamic';
      }
      case 'super_expression': {
        if (!namedClass(at) || fieldsUnsure(at)) return 'dynamic';
        // `super<Named>.m()`: that supertype's m, whichever comes first among the bases.
        const named = typeName(object.namedChildren.find((c) => c?.type === 'user_type'));
        return named ? { kind: 'super', type: named.join('.') } : { kind: 'super' };
      }
      case 'identifier': {
        const name = unquote(object.text);
        const b = local(at, name);
        // `val x = catalog.find()` where catalog is a value: nothing declares what x is.
        if (b) return b.type && !(b.type.constructed === true && isValue(at, b.type.name.split('.')[0]!)) ? typed(b.type.name, b.type.constructed === true) : 'dynamic';
        const cls = classes.innermost(at);
        const field = cls?.fields.get(name);
        if (field !== undefined) return field === null || fieldsUnsure(at) ? 'dynamic' : typed(field);
        if (isOpaque(at) && cls?.name === null) return 'dynamic';
        return { kind: 'path', path: [name] };
      }
      case 'navigation_expression': {
        const parts = object.namedChildren.filter((c): c is Node => c !== null);
        if (parts.length === 2 && parts[0]!.type === 'this_expression' && parts[0]!.namedChildren.length === 0 && parts[1]!.type === 'identifier') {
          // `this.catalog`: a property the class declares, or one its supertypes may.
          if (fieldsUnsure(at)) return 'dynamic';
          const cls = namedClass(at);
          const name = unquote(parts[1]!.text);
          const field = cls?.fields.get(name);
          if (field === undefined && cls?.based === true) return { kind: 'self', attribute: name };
          return field ? typed(field) : 'dynamic';
        }
        const path = navigationPath(object);
        if (!path || isValue(at, path[0]!)) return 'dynamic';
        return { kind: 'path', path };
      }
      case 'call_expression': {
        const ctor = constructedBy(object);
        if (!ctor || isValue(at, ctor.split('.')[0]!)) return 'dynamic';
        return typed(ctor, true);
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
   * `this::show`, `catalog::add`, `Catalog::add` passed as arguments: the grammar reads them as
   * navigations written with `::` (a `callable_reference` is only `::top`). Each is a reference
   * of the member on its receiver.
   */
  const reportBoundReferences = (call: Node): void => {
    for (const argument of call.namedChildren.find((c) => c?.type === 'value_arguments')?.namedChildren ?? []) {
      const expr = argument?.namedChildren[0];
      if (expr?.type !== 'navigation_expression' || !expr.children.some((c) => c?.type === '::')) continue;
      const parts = expr.namedChildren.filter((c): c is Node => c !== null);
      const member = parts[parts.length - 1];
      if (parts.length !== 2 || member?.type !== 'identifier') continue;
      const name = unquote(member.text);
      const receiver = receiverOf(parts[0]!, member.startIndex);
      if (receiver === 'dynamic') sink.site(member, { kind: 'reference', name, fixed: 'dynamic' });
      else sink.site(member, { kind: 'reference', name, receiver });
    }
  };

  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (type === 'call_expression') {
      const callee = node.namedChildren[0];
      if (!callee) continue;
      reportBoundReferences(node);
      const arity = argumentCount(node);
      const counted = arity !== undefined ? { arity } : {};
      if (callee.type === 'identifier') {
        const name = unquote(callee.text);
        const at = callee.startIndex;
        const b = local(at, name);
        if (b && b.kind !== 'definition') {
          sink.site(callee, { kind: 'call', name, fixed: b.kind === 'parameter' ? 'parameter' : 'local-variable' });
        } else if (b) {
          sink.site(callee, { kind: 'call', name, ...counted });
        } else if (isOpaque(at)) {
          // An anonymous object's own method is a nested definition of the function around it.
          if (opaqueAt(at)?.anonymous?.methods.has(name) === true) sink.site(callee, { kind: 'call', name, ...counted });
          else sink.site(callee, { kind: 'call', name, fixed: 'dynamic' });
        } else if (hasThis(at) && (ROOT_MEMBERS.kotlin.has(name) || shadowedByAnonymous(at, name))) {
          sink.site(callee, { kind: 'call', name, receiver: { kind: 'self' }, ...counted });
        } else if (shadowedByAnonymous(at, name)) {
          sink.site(callee, { kind: 'call', name, fixed: 'dynamic' });
        } else {
          sink.site(callee, { kind: 'call', name, ...counted });
        }
        continue;
      }
      if (callee.type !== 'navigation_expression' || callee.children.some((c) => c?.type === '::')) continue;
      const parts = callee.namedChildren.filter((c): c is Node => c !== null);
      const member = parts[parts.length - 1];
      const object = parts[0];
      if (parts.length !== 2 || member?.type !== 'identifier' || !object) continue;
      const name = unquote(member.text);
      const receiver = receiverOf(object, member.startIndex);
      if (receiver === 'dynamic') sink.site(member, { kind: 'call', name, fixed: 'dynamic' });
      else sink.site(member, { kind: 'call', name, receiver, ...counted });
    } else if (type === 'constructor_delegation_call') {
      // `: super(…)` calls the base's constructor; `: this(…)` another constructor of the class,
      // maybe the primary one (no symbol), so it is left out.
      const keyword = node.children.find((c) => c?.type === 'super' || c?.type === 'this');
      const arity = argumentCount(node);
      if (keyword?.type === 'super') sink.site(keyword, { kind: 'call', name: 'super', superConstructor: true, ...(arity !== undefined ? { arity } : {}) });
    } else if (type === 'callable_reference') {
      const ids = node.namedChildren.filter((c): c is Node => c?.type === 'identifier');
      const member = ids[ids.length - 1];
      if (!member) continue;
      const receiverType = node.namedChildren.find((c) => c?.type === 'user_type');
      if (receiverType) {
        const path = typeName(receiverType);
        if (path) sink.site(member, { kind: 'reference', name: unquote(member.text), receiver: { kind: 'path', path } });
      } else if (!local(member.startIndex, unquote(member.text))) sink.site(member, { kind: 'reference', name: unquote(member.text) });
    } else if (type === 'delegation_specifier') {
      const list = node.parent;
      const owner = list?.parent;
      if (list?.type !== 'delegation_specifiers' || !owner) continue;
      const isInterface = owner.children.some((c) => c?.type === 'interface');
      const invocation = node.namedChildren.find((c) => c?.type === 'constructor_invocation');
      const written = invocation ? invocation.namedChildren.find((c) => c?.type === 'user_type') : node.namedChildren.find((c) => c?.type === 'user_type' || c?.type === 'explicit_delegation');
      const userType = written?.type === 'explicit_delegation' ? written.namedChildren.find((c) => c?.type === 'user_type') : written;
      const path = typeName(userType);
      if (!path || !userType) continue;
      const at = userType.namedChildren.filter((c) => c?.type === 'identifier').pop() ?? userType;
      const name = path[path.length - 1]!;
      const receiver = path.length > 1 ? { receiver: { kind: 'path' as const, path: path.slice(0, -1) } } : {};
      if (owner.type === 'object_literal') {
        // `object : Base()` constructs an anonymous subclass: a call of Base's constructor.
        if (invocation) sink.site(at, { kind: 'call', name, construct: true, ...receiver });
        continue;
      }
      // A constructor call makes a base class. A bare type is an interface, or the superclass of a
      // class whose secondary constructors call `super(…)`: its declaration decides.
      sink.site(at, { kind: invocation || isInterface ? 'inherits' : 'implements', name, ...receiver, ...(invocation || isInterface ? {} : { kindFromTarget: true }) });
      if (invocation) sink.site(at, { kind: 'call', name, construct: true, ...receiver });
    }
  }
}

/**
 * The Kotlin reference visitor.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...kotlin, references: kotlinReferences };
 * ```
 */
export const kotlinReferences = visit;
