import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';
import { ClassSpans, declaredPrivate, ROOT_MEMBERS, type ClassSpan } from './typed-scopes.js';
import { reportAnnotations, SCALA_KEPT } from './annotations.js';

// Scala (2 and 3): calls with parentheses (plain, `this.`, `super.`, typed receivers, `Obj.m()`,
// qualified paths), `new Foo(…)`, a call of a class or object name (`Point(1, 2)`: a case class's
// or an object's `apply`, targeting the class or object), bases (`extends` → inherits, `with` →
// implements; a header's `Base(args)` is also a constructor call), imports (selectors, renames
// `{A => B}` / `{A as B}`, wildcards `_` / `*`), the package (chained clauses join).
//
// Types come from parameters, `val x: Foo`, `val x = new Foo(…)`, typed patterns and class
// parameters. `val x = Foo(…)` gives no type: an object's `apply` may return anything. A method
// called without parentheses (`list.size`, a parameterless `def`) is no call site here. Inside an
// anonymous class body (`new Runnable { … }`) plain and `this.` calls of names the body does not
// declare stay unresolved (the base may define them).

const CLASSES = typeSet('class_definition', 'object_definition', 'trait_definition', 'enum_definition', 'package_object');
const FUNCTIONS = typeSet('function_definition', 'lambda_expression');
/** Blocks whose definitions are local to them. */
const LOCAL_BLOCKS = typeSet('block', 'indented_block', 'case_block');
const SEARCHED = [
  ...CLASSES,
  ...FUNCTIONS,
  'function_declaration',
  'instance_expression',
  'type_parameters',
  'parameter',
  'class_parameter',
  'binding',
  'val_definition',
  'var_definition',
  'enumerator',
  'typed_pattern',
  'case_clause',
  'call_expression',
  'extends_clause',
  'import_declaration',
  'package_clause',
];

const unquote = (name: string): string => (name.length > 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1) : name);

/** The class a type names (`Foo`, `a.Foo`, `Foo[T]`), else undefined (function, tuple, repeated types). */
function typeName(type: Node | null | undefined): string[] | undefined {
  if (!type) return undefined;
  if (type.type === 'type_identifier') return [unquote(type.text)];
  if (type.type === 'generic_type') return typeName(type.childForFieldName('type'));
  if (type.type === 'stable_type_identifier') {
    const parts = type.descendantsOfType(['identifier', 'type_identifier']).filter((n): n is Node => n !== null).map((n) => unquote(n.text));
    return parts.length > 0 ? parts : undefined;
  }
  return undefined;
}

/** A chain of plain names `a.b.c` (field expressions over identifiers), else undefined. */
function fieldPath(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text === 'this' || node.text === 'super' ? undefined : [unquote(node.text)];
  if (node.type !== 'field_expression') return undefined;
  const head = fieldPath(node.childForFieldName('value'));
  const field = node.childForFieldName('field');
  return head && field ? [...head, unquote(field.text)] : undefined;
}

/** The identifiers a pattern binds as variables (lower-case names; `Foo` in a pattern is a constant). */
function patternVariables(pattern: Node | null | undefined): Node[] {
  if (!pattern) return [];
  if (pattern.type === 'identifier') return /^[a-z_]/.test(pattern.text) ? [pattern] : [];
  const out: Node[] = [];
  for (const id of pattern.descendantsOfType('identifier')) {
    if (!id || !/^[a-z_]/.test(id.text)) continue;
    // `Foo(n)`: n binds, Foo does not; `a.B` stable identifiers bind nothing.
    if (id.parent?.type === 'stable_identifier' || id.parent?.type === 'field_expression') continue;
    out.push(id);
  }
  return out;
}

/** Reports the arguments of a `def`'s first explicit parameter list (defaults optional, `T*` any number); none without a list. */
function reportSignature(node: Node, sink: ReferenceSink): void {
  if (!sink.signature) return;
  const list = node.childrenForFieldName('parameters').find((c) => c?.type === 'parameters' && !c.children.some((t) => t?.type === 'implicit' || t?.type === 'using'));
  if (!list) return;
  let min = 0;
  let max = 0;
  let varargs = false;
  for (const p of list.namedChildren) {
    if (p?.type !== 'parameter') continue;
    if (p.childForFieldName('type')?.type === 'repeated_parameter_type') varargs = true;
    else if (p.childForFieldName('default_value')) max++;
    else {
      min++;
      max++;
    }
  }
  sink.signature(node, min, varargs ? null : max);
}

/** The arguments of a call (a block argument `f { … }` is one); undefined with a splice `xs: _*`. */
function argumentCount(call: Node): number | undefined {
  const args = call.childForFieldName('arguments');
  if (!args) return undefined;
  if (args.type !== 'arguments') return 1;
  let n = 0;
  for (const a of args.namedChildren) {
    if (!a || a.type === 'comment' || a.type === 'block_comment') continue;
    if (a.type === 'ascription_expression' && /:\s*_\s*\*\s*$/.test(a.text)) return undefined;
    n++;
  }
  return n;
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  // Each node's type read once (a read crosses into wasm), for both loops.
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  const classes = new ClassSpans();
  const namedFunctions: { start: number; end: number }[] = [];
  const packages: string[] = [];

  const declared = (type: Node | null | undefined, at: number): string | undefined => {
    const path = typeName(type);
    if (!path || (path.length === 1 && classes.isTypeParameter(at, path[0]!))) return undefined;
    return path.join('.');
  };
  /** `new Foo(…)` without a body: Foo. */
  const instanceOf = (value: Node | null | undefined, at: number): string | undefined => {
    if (value?.type !== 'instance_expression' || value.namedChildren.some((c) => c?.type === 'template_body')) return undefined;
    return declared(value.namedChildren.find((c) => c !== null && c.type !== 'arguments'), at);
  };
  const functionScope = (at: number): number => scopes.enclosingFunction(at, (k) => k === 'function');
  const bind = (name: Node | null | undefined, kind: 'parameter' | 'local', type?: string): void => {
    if (name?.type !== 'identifier') return;
    const scope = functionScope(name.startIndex);
    if (scope >= 0) scopes.bind(scope, unquote(name.text), { kind, ...(type ? { type: { name: type } } : {}) });
  };

  // Pass 1.
  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (CLASSES.has(type)) {
      const span = classes.add(node, node.childForFieldName('name')?.text ?? null);
      if (type === 'object_definition') sink.flag(node, 'singleton');
      reportAnnotations(node, sink, SCALA_KEPT);
      for (const p of node.childForFieldName('class_parameters')?.namedChildren ?? []) {
        const name = p?.childForFieldName('name');
        if (p?.type === 'class_parameter' && name) span.fields.set(unquote(name.text), declared(p.childForFieldName('type'), p.startIndex) ?? null);
      }
      continue;
    }
    if (type === 'instance_expression') {
      if (node.namedChildren.some((c) => c?.type === 'template_body')) classes.add(node, null);
      continue;
    }
    if (FUNCTIONS.has(type) || type === 'function_declaration') {
      const enclosing = functionScope(node.startIndex);
      const name = node.childForFieldName('name');
      const parentType = node.parent?.type;
      const inBody = parentType === 'template_body' || parentType === 'enum_body';
      if (name && inBody) {
        classes.innermost(node.startIndex)?.methods.add(unquote(name.text));
        if (declaredPrivate(node)) sink.flag(node, 'private');
      }
      // A def in a block (`val x = { def helper() = 1; helper() }`) is local to the block: where
      // its symbol sits at the class's or file's level, it is no member or name there.
      if (type === 'function_definition' && LOCAL_BLOCKS.has(parentType ?? '')) sink.flag(node, 'enclosed');
      if (type !== 'lambda_expression') {
        reportSignature(node, sink);
        reportAnnotations(node, sink, SCALA_KEPT);
      }
      else if (name && enclosing >= 0) scopes.bind(enclosing, unquote(name.text), { kind: 'definition' });
      if (type === 'function_declaration') continue;
      scopes.open(node, 'function');
      if (type === 'function_definition') namedFunctions.push({ start: node.startIndex, end: node.endIndex });
      else {
        const params = node.childForFieldName('parameters');
        if (params?.type === 'identifier') bind(params, 'parameter');
        else if (params?.type === 'wildcard') continue;
      }
      continue;
    }
    switch (type) {
      case 'type_parameters':
        for (const name of node.namedChildren) if (name?.type === 'identifier' && node.parent) classes.addTypeParameter(node.parent, name.text);
        break;
      case 'parameter':
      case 'binding': {
        const t = node.childForFieldName('type');
        bind(node.childForFieldName('name'), 'parameter', t?.type === 'repeated_parameter_type' ? undefined : declared(t, node.startIndex));
        break;
      }
      case 'val_definition':
      case 'var_definition': {
        const pattern = node.childForFieldName('pattern');
        const written = declared(node.childForFieldName('type'), node.startIndex);
        const value = node.childForFieldName('value');
        if (pattern?.type !== 'identifier') {
          for (const v of patternVariables(pattern)) bind(v, 'local');
          break;
        }
        const inferred = written === undefined ? instanceOf(value, node.startIndex) : undefined;
        if (functionScope(node.startIndex) >= 0) bind(pattern, 'local', written ?? inferred);
        else {
          const owner = classes.innermost(node.startIndex);
          if (owner) owner.fields.set(unquote(pattern.text), written ?? inferred ?? null);
          else sink.binding(pattern, { kind: 'assign', name: unquote(pattern.text) });
        }
        break;
      }
      case 'enumerator':
        for (const v of patternVariables(node.namedChildren[0])) bind(v, 'local');
        break;
      case 'typed_pattern': {
        const name = node.childForFieldName('pattern');
        if (name?.type === 'identifier') bind(name, 'local', declared(node.childForFieldName('type'), node.startIndex));
        break;
      }
      case 'case_clause':
        for (const v of patternVariables(node.childForFieldName('pattern'))) if (v.parent?.type !== 'typed_pattern') bind(v, 'local');
        break;
      case 'package_clause': {
        // Chained clauses (`package a` then `package b`) are one package `a.b`; a packaging block nests.
        const name = node.childForFieldName('name');
        const parts = name?.namedChildren.filter((c): c is Node => c?.type === 'identifier').map((c) => unquote(c.text)) ?? [];
        const body = node.childForFieldName('body');
        if (body) sink.namespace(node, parts.join('.'));
        else {
          // Members of the packages of the clauses before the last one are visible too.
          if (packages.length > 0) sink.binding(node, { kind: 'star', name: '*', module: packages.join('.') });
          packages.push(...parts);
        }
        break;
      }
      case 'import_declaration': {
        const path = node.childrenForFieldName('path').filter((c): c is Node => c?.type === 'identifier').map((c) => unquote(c.text));
        if (path.length === 0) break;
        const spec = path.join('.');
        const selectors = node.namedChildren.find((c) => c?.type === 'namespace_selectors');
        const wildcard = node.namedChildren.some((c) => c?.type === 'namespace_wildcard');
        const at = node.childrenForFieldName('path')[0] ?? node;
        if (!selectors && !wildcard) {
          // `import a.b.C`: C of a.b.
          sink.site(at, { kind: 'import', name: spec });
          if (path.length > 1) sink.binding(at, { kind: 'member', name: path[path.length - 1]!, module: path.slice(0, -1).join('.'), member: path[path.length - 1]! });
          break;
        }
        sink.site(at, { kind: 'import', name: spec });
        if (wildcard) sink.binding(at, { kind: 'star', name: '*', module: spec });
        for (const s of selectors?.namedChildren ?? []) {
          if (!s) continue;
          if (s.type === 'namespace_wildcard') sink.binding(s, { kind: 'star', name: '*', module: spec });
          else if (s.type === 'identifier') sink.binding(s, { kind: 'member', name: unquote(s.text), module: spec, member: unquote(s.text) });
          else if (s.type === 'arrow_renamed_identifier' || s.type === 'as_renamed_identifier') {
            const member = s.childForFieldName('name');
            const alias = s.childForFieldName('alias');
            // `{A => _}` hides A: it binds nothing.
            if (member && alias?.type === 'identifier') sink.binding(s, { kind: 'member', name: unquote(alias.text), module: spec, member: unquote(member.text) });
          }
        }
        break;
      }
    }
  }
  if (packages.length > 0) sink.setPackage(packages.join('.'));

  // Pass 2: sites.
  const local = (at: number, name: string) => scopes.lookup(at, name)?.binding;
  const namedClass = (at: number): ClassSpan | undefined => {
    const c = classes.innermost(at);
    return c && c.name !== null ? c : undefined;
  };
  const isValue = (at: number, name: string): boolean => local(at, name) !== undefined || classes.innermost(at)?.fields.has(name) === true;
  const typed = (type: string): ReceiverFact => ({ kind: 'type', type });
  /** An anonymous class inside the named `def` around `at` (but not around `at`) declares `name`. */
  const shadowedByAnonymous = (at: number, name: string): boolean => {
    let fn: { start: number; end: number } | undefined;
    for (const f of namedFunctions) if (f.start <= at && at < f.end && (!fn || f.start >= fn.start)) fn = f;
    return fn !== undefined && classes.anonymousWithin(fn.start, fn.end).some((c) => c.methods.has(name) && !(c.start <= at && at < c.end));
  };

  const receiverOf = (object: Node, at: number): ReceiverFact | 'dynamic' | 'anonymous' => {
    if (object.type === 'identifier' && object.text === 'this') return namedClass(at) ? { kind: 'self' } : 'anonymous';
    if (object.type === 'identifier' && object.text === 'super') return namedClass(at) ? { kind: 'super' } : 'dynamic';
    if (object.type === 'generic_function' && object.childForFieldName('function')?.text === 'super') {
      // `super[T].m()`: the named parent's m (its arguments are the parent's name, nothing else).
      const parents = object.childForFieldName('type_arguments')?.namedChildren ?? [];
      const parent = parents.length === 1 && parents[0]?.type === 'type_identifier' ? parents[0].text : undefined;
      return namedClass(at) && parent ? { kind: 'super', type: parent } : 'dynamic';
    }
    if (object.type === 'identifier') {
      const name = unquote(object.text);
      const b = local(at, name);
      if (b) return b.type ? typed(b.type.name) : 'dynamic';
      const field = classes.innermost(at)?.fields.get(name);
      if (field !== undefined) return field === null ? 'dynamic' : typed(field);
      return { kind: 'path', path: [name] };
    }
    if (object.type === 'field_expression') {
      const value = object.childForFieldName('value');
      const field = object.childForFieldName('field');
      if (value?.type === 'identifier' && value.text === 'this' && field) {
        const t = namedClass(at)?.fields.get(unquote(field.text));
        return t ? typed(t) : 'dynamic';
      }
      const path = fieldPath(object);
      return path && !isValue(at, path[0]!) ? { kind: 'path', path } : 'dynamic';
    }
    if (object.type === 'instance_expression') {
      const cls = instanceOf(object, at);
      return cls ? typed(cls) : 'dynamic';
    }
    if (object.type === 'parenthesized_expression') {
      const inner = object.namedChildren[0];
      return inner ? receiverOf(inner, at) : 'dynamic';
    }
    return 'dynamic';
  };

  const construct = (typeNode: Node, kind: 'call' | 'inherits' | 'implements'): void => {
    const path = typeName(typeNode);
    if (!path) return;
    const at = typeNode.type === 'generic_type' ? (typeNode.childForFieldName('type') ?? typeNode) : typeNode;
    const last = at.type === 'stable_type_identifier' ? (at.namedChildren[at.namedChildren.length - 1] ?? at) : at;
    const name = path[path.length - 1]!;
    sink.site(last, { kind, name, ...(kind === 'call' ? { construct: true } : {}), ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
  };

  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (type === 'call_expression') {
      // A method passed by name (`items.foreach(show)`: eta-expanded) is a value use of it.
      const args = node.childForFieldName('arguments');
      if (args?.type === 'arguments') {
        for (const arg of args.namedChildren) {
          if (arg?.type === 'identifier' && !isValue(arg.startIndex, unquote(arg.text))) sink.site(arg, { kind: 'reference', name: unquote(arg.text) });
        }
      }
      let fn = node.childForFieldName('function');
      if (fn?.type === 'generic_function') fn = fn.childForFieldName('function');
      if (!fn) continue;
      const arity = argumentCount(node);
      const counted = arity !== undefined ? { arity } : {};
      if (fn.type === 'identifier') {
        const name = unquote(fn.text);
        const at = fn.startIndex;
        const b = local(at, name);
        const cls = classes.innermost(at);
        if (b && b.kind !== 'definition') sink.site(fn, { kind: 'call', name, fixed: b.kind === 'parameter' ? 'parameter' : 'local-variable' });
        else if (b) sink.site(fn, { kind: 'call', name, ...counted });
        else if (cls?.fields.has(name)) sink.site(fn, { kind: 'call', name, fixed: 'dynamic' }); // a function-valued field
        else if (cls && cls.name === null && !cls.methods.has(name)) sink.site(fn, { kind: 'call', name, fixed: 'dynamic' });
        else if (cls?.name && (ROOT_MEMBERS.scala.has(name) || shadowedByAnonymous(at, name))) sink.site(fn, { kind: 'call', name, receiver: { kind: 'self' }, ...counted });
        else if (!cls && shadowedByAnonymous(at, name)) sink.site(fn, { kind: 'call', name, fixed: 'dynamic' });
        else sink.site(fn, { kind: 'call', name, ...counted });
        continue;
      }
      if (fn.type !== 'field_expression') continue;
      const field = fn.childForFieldName('field');
      const value = fn.childForFieldName('value');
      if (!field || !value) continue;
      const name = unquote(field.text);
      const receiver = receiverOf(value, field.startIndex);
      if (receiver === 'anonymous') {
        if (classes.innermost(field.startIndex)!.methods.has(name)) sink.site(field, { kind: 'call', name, ...counted });
        else sink.site(field, { kind: 'call', name, fixed: 'dynamic' });
      } else if (receiver === 'dynamic') sink.site(field, { kind: 'call', name, fixed: 'dynamic' });
      else sink.site(field, { kind: 'call', name, receiver, ...counted });
    } else if (type === 'instance_expression') {
      const t = node.namedChildren.find((c) => c !== null && c.type !== 'arguments' && c.type !== 'template_body');
      if (t && !(t.type === 'type_identifier' && classes.isTypeParameter(t.startIndex, t.text))) construct(t, 'call');
    } else if (type === 'extends_clause') {
      const types = node.childrenForFieldName('type').filter((c): c is Node => c !== null && c.isNamed);
      types.forEach((t, i) => {
        construct(t, i === 0 ? 'inherits' : 'implements');
        // `extends Base(args)`: the base's constructor runs.
        if (i === 0 && node.childForFieldName('arguments')) construct(t, 'call');
      });
    }
  }
}

/**
 * The Scala reference visitor.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...scala, references: scalaReferences };
 * ```
 */
export const scalaReferences = visit;
