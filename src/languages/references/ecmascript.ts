import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';

// JavaScript, TypeScript and TSX (one grammar family): calls, `new`, `this`/`super`, typed
// receivers, ES imports/exports, CommonJS `require`/`module.exports`, bases, value uses.
//
// Names are bound per function (parameters, `const`/`let`/`var`, `for` and `catch` variables,
// nested functions and classes), flow-insensitively: a name declared anywhere in a function is
// that function's local for all of it (block scopes are merged into their function, which can
// only leave a call unresolved). `this` is the class only directly in a class's methods and
// field initialisers, and in arrow functions there (not in `function` expressions, which have
// their own `this`).

const FUNCTIONS = typeSet('function_declaration', 'generator_function_declaration', 'function_expression', 'function', 'generator_function', 'arrow_function', 'method_definition');
const CLASSES = typeSet('class_declaration', 'abstract_class_declaration', 'class');
const NAMESPACES = typeSet('internal_module', 'module');
const BINDERS = typeSet('variable_declarator', 'for_in_statement', 'catch_clause', 'import_statement', 'export_statement', 'assignment_expression');
const VALUE_PARENTS = typeSet('arguments', 'return_statement', 'array', 'pair', 'jsx_expression', 'spread_element');
const SEARCHED = [...FUNCTIONS, ...CLASSES, ...NAMESPACES, ...BINDERS, ...VALUE_PARENTS, 'call_expression', 'new_expression', 'field_definition', 'public_field_definition', 'interface_declaration', 'object', 'shorthand_property_identifier', 'decorator'];
/** Methods every JavaScript function has that call or bind it. */
const BOUND_CALLS: ReadonlySet<string> = new Set(['bind', 'call', 'apply']);
const FUNCTION_VALUES = typeSet('arrow_function', 'function_expression', 'function', 'generator_function', 'class');

/** Identifiers a declaration pattern binds: `a`, `{ a, b: c, ...d }`, `[a, [b]]`, `a = 1`. */
function patternNames(node: Node | null | undefined, out: Node[] = []): Node[] {
  if (!node) return out;
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      out.push(node);
      break;
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      for (const c of node.namedChildren) patternNames(c, out);
      break;
    case 'pair_pattern':
      patternNames(node.childForFieldName('value'), out);
      break;
    case 'assignment_pattern':
    case 'object_assignment_pattern':
      patternNames(node.childForFieldName('left'), out);
      break;
  }
  return out;
}

/** `a.b.c` of plain identifiers → [a, b, c]; undefined for anything else. */
function memberPath(node: Node | null | undefined): string[] | undefined {
  const parts: string[] = [];
  let n = node;
  while (n && n.type === 'member_expression') {
    const prop = n.childForFieldName('property');
    if (!prop || (prop.type !== 'property_identifier' && prop.type !== 'private_property_identifier')) return undefined;
    parts.push(prop.text);
    n = n.childForFieldName('object');
  }
  if (n?.type !== 'identifier') return undefined;
  parts.push(n.text);
  return parts.reverse();
}

/** The class a type annotation names (`Foo`, `ns.Foo`, `Foo<T>`, `Foo | null`), else undefined. */
function annotatedClass(annotation: Node | null | undefined): string | undefined {
  let n = annotation?.type === 'type_annotation' ? annotation.namedChildren[0] : annotation;
  if (!n) return undefined;
  if (n.type === 'generic_type') n = n.childForFieldName('name') ?? n.namedChildren[0] ?? null;
  if (!n) return undefined;
  if (n.type === 'type_identifier' || n.type === 'identifier') return n.text;
  if (n.type === 'nested_type_identifier') return n.text.replace(/\s+/g, '');
  if (n.type === 'union_type') {
    const parts = n.namedChildren.filter((c): c is Node => c !== null && !(c.type === 'literal_type' && /^(null|undefined)$/.test(c.text)) && c.text !== 'undefined' && c.text !== 'null');
    return parts.length === 1 ? annotatedClass(parts[0]) : undefined;
  }
  return undefined;
}

/** The specifier of `require('x')`, or undefined. */
function requireSpecifier(node: Node | null | undefined): string | undefined {
  if (node?.type !== 'call_expression') return undefined;
  if (node.childForFieldName('function')?.text !== 'require') return undefined;
  const arg = node.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'string' ? stringValue(arg) : undefined;
}

function stringValue(node: Node): string {
  return node.namedChildren.find((c) => c?.type === 'string_fragment')?.text ?? '';
}

/** `module.exports` / `exports` / `module.exports.x` / `exports.x`: the exported name ('default' for the whole object), else undefined. */
function exportTarget(left: Node | null | undefined): string | undefined {
  const path = memberPath(left);
  if (!path) return undefined;
  if (path.length === 2 && path[0] === 'module' && path[1] === 'exports') return 'default';
  if (path.length === 3 && path[0] === 'module' && path[1] === 'exports') return path[2];
  if (path.length === 2 && path[0] === 'exports') return path[1];
  return undefined;
}

/**
 * A `const` initialised by a call that takes a function literal, or by a function literal under
 * `as`/`satisfies`: the definitions visitor may index it as a function (`dual(2, (self) => …)`,
 * `React.forwardRef(…)`), so it is not a plain value binding.
 */
function madeFunction(value: Node | null | undefined): boolean {
  let v = value;
  while (v && (v.type === 'as_expression' || v.type === 'satisfies_expression' || v.type === 'parenthesized_expression')) v = v.namedChildren[0] ?? null;
  if (!v) return false;
  if (FUNCTION_VALUES.has(v.type)) return true;
  if (v.type === 'call_expression') return (v.childForFieldName('arguments')?.namedChildren ?? []).some((a) => a !== null && FUNCTION_VALUES.has(a.type));
  return false;
}

/**
 * The names and member accesses an expression may evaluate to, through parentheses, `a || b`,
 * `a ?? b`, `a && b` and `c ? a : b` (`handler || defaultHandler` uses both functions).
 */
function valueOperands(value: Node | null | undefined, out: Node[] = []): Node[] {
  if (!value) return out;
  if (value.type === 'identifier' || value.type === 'member_expression') out.push(value);
  else if (value.type === 'parenthesized_expression') valueOperands(value.namedChildren[0], out);
  else if (value.type === 'binary_expression') {
    const op = value.childForFieldName('operator')?.type;
    if (op === '||' || op === '??' || op === '&&') {
      valueOperands(value.childForFieldName('left'), out);
      valueOperands(value.childForFieldName('right'), out);
    }
  } else if (value.type === 'ternary_expression') {
    valueOperands(value.childForFieldName('consequence'), out);
    valueOperands(value.childForFieldName('alternative'), out);
  }
  return out;
}

function visit(root: Node, sink: ReferenceSink): void {
  const nodes = root.descendantsOfType(SEARCHED).filter((n): n is Node => n !== null);
  const scopes = new LexicalScopes();
  /** Scope id → whether `this` there is the class (a method or field of a class, or an arrow inside one). */
  const classThis = new Map<number, boolean>();

  const bindParams = (scope: number, fn: Node): void => {
    const params = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
    if (!params) return;
    const list = params.type === 'formal_parameters' ? params.namedChildren : [params];
    for (const p of list) {
      if (!p) continue;
      let pattern: Node | null | undefined = p;
      let type: string | undefined;
      if (p.type === 'required_parameter' || p.type === 'optional_parameter') {
        pattern = p.childForFieldName('pattern');
        type = annotatedClass(p.childForFieldName('type'));
      }
      for (const name of patternNames(pattern)) scopes.bind(scope, name.text, { kind: 'parameter', ...(type && pattern?.type === 'identifier' ? { type: { name: type } } : {}) });
    }
  };

  // Pass 1: scopes and what each binds.
  for (const node of nodes) {
    const type = node.type;
    if (FUNCTIONS.has(type)) {
      const enclosing = scopes.innermostAt(node.startIndex);
      const scope = scopes.open(node, 'function');
      const name = node.childForFieldName('name');
      if (name && enclosing >= 0 && type !== 'method_definition' && type !== 'function_expression') scopes.bind(enclosing, name.text, { kind: 'definition' });
      bindParams(scope, node);
      const inClassBody = node.parent?.type === 'class_body' || node.parent?.parent?.type === 'class_body';
      classThis.set(scope, type === 'method_definition' ? inClassBody : type === 'arrow_function' ? enclosing >= 0 && classThis.get(enclosing) === true : false);
      continue;
    }
    if (CLASSES.has(type)) {
      const enclosing = scopes.innermostAt(node.startIndex);
      const scope = scopes.open(node, 'class');
      classThis.set(scope, true);
      const name = node.childForFieldName('name');
      if (name && enclosing >= 0) scopes.bind(enclosing, name.text, { kind: 'definition' });
      continue;
    }
    if (NAMESPACES.has(type)) {
      const name = node.childForFieldName('name');
      if (name && name.type !== 'string') sink.namespace(node, name.text);
      continue;
    }
    const scope = scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
    switch (type) {
      case 'variable_declarator': {
        const nameNode = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        const spec = requireSpecifier(value);
        if (spec !== undefined && nameNode) {
          if (nameNode.type === 'identifier') {
            sink.binding(nameNode, { kind: 'module', name: nameNode.text, module: spec });
            if (scope >= 0) scopes.bind(scope, nameNode.text, { kind: 'import' });
          } else if (nameNode.type === 'object_pattern') {
            for (const prop of nameNode.namedChildren) {
              if (!prop) continue;
              const local = prop.type === 'pair_pattern' ? prop.childForFieldName('value') : prop;
              const member = prop.type === 'pair_pattern' ? prop.childForFieldName('key')?.text : prop.text;
              if (local?.type !== 'identifier' && local?.type !== 'shorthand_property_identifier_pattern') continue;
              sink.binding(local, { kind: 'member', name: local.text, module: spec, member: member ?? local.text });
              if (scope >= 0) scopes.bind(scope, local.text, { kind: 'import' });
            }
          }
          break;
        }
        const newClass = value?.type === 'new_expression' ? memberPath(value.childForFieldName('constructor'))?.join('.') : undefined;
        const declared = annotatedClass(node.childForFieldName('type'));
        const valueType = declared ? { name: declared } : newClass ? { name: newClass, constructed: true } : undefined;
        for (const name of patternNames(nameNode)) {
          if (scope >= 0 && nameNode?.type === 'identifier' && madeFunction(value)) {
            // `const cb = function () {}` in a function: a nested definition (extracted as one),
            // so `cb()` and `on('click', cb)` lead to it, as a nested function declaration's do.
            scopes.bind(scope, name.text, { kind: 'definition' });
          } else if (scope >= 0) {
            scopes.bind(scope, name.text, { kind: 'local', ...(valueType && nameNode?.type === 'identifier' ? { type: valueType } : {}) });
          } else if (!(nameNode?.type === 'identifier' && madeFunction(value))) {
            // A top-level value (a function or class bound to the name is a definition instead).
            sink.binding(name, { kind: 'assign', name: name.text });
          }
        }
        break;
      }
      case 'for_in_statement':
        for (const name of patternNames(node.childForFieldName('left'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      case 'catch_clause':
        for (const name of patternNames(node.childForFieldName('parameter'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      case 'import_statement': {
        const source = node.childForFieldName('source');
        if (!source) break;
        const spec = stringValue(source);
        sink.site(source, { kind: 'import', name: spec });
        const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
        for (const part of clause?.namedChildren ?? []) {
          if (!part) continue;
          if (part.type === 'identifier') {
            sink.binding(part, { kind: 'member', name: part.text, module: spec, member: 'default' });
          } else if (part.type === 'namespace_import') {
            const alias = part.namedChildren.find((c) => c?.type === 'identifier');
            if (alias) sink.binding(alias, { kind: 'module', name: alias.text, module: spec });
          } else if (part.type === 'named_imports') {
            for (const spec_ of part.namedChildren) {
              if (spec_?.type !== 'import_specifier') continue;
              const member = spec_.childForFieldName('name');
              const alias = spec_.childForFieldName('alias') ?? member;
              if (member && alias) sink.binding(alias, { kind: 'member', name: alias.text, module: spec, member: member.text });
            }
          }
        }
        break;
      }
      case 'export_statement': {
        const source = node.childForFieldName('source');
        const spec = source ? stringValue(source) : undefined;
        if (source && spec !== undefined) sink.site(source, { kind: 'import', name: spec });
        const declaration = node.childForFieldName('declaration');
        const isDefault = node.children.some((c) => c?.type === 'default');
        if (declaration) {
          sink.flag(declaration, 'exported');
          const name = declaration.childForFieldName('name');
          // Placed at `export` (outside the declaration's own range): a module-level binding.
          if (isDefault && name) sink.binding(node, { kind: 'export', name: 'default', member: name.text });
          break;
        }
        const value = node.childForFieldName('value');
        if (isDefault && value?.type === 'identifier') {
          sink.binding(value, { kind: 'export', name: 'default', member: value.text });
          break;
        }
        const clause = node.namedChildren.find((c) => c?.type === 'export_clause');
        if (clause) {
          for (const s of clause.namedChildren) {
            if (s?.type !== 'export_specifier') continue;
            const local = s.childForFieldName('name');
            const alias = s.childForFieldName('alias');
            if (!local) continue;
            const exported = alias?.text ?? local.text;
            sink.binding(alias ?? local, { kind: 'export', name: exported, member: local.text, ...(spec !== undefined ? { module: spec } : {}) });
          }
        } else if (spec !== undefined && node.children.some((c) => c?.type === '*')) {
          const ns = node.namedChildren.find((c) => c?.type === 'namespace_export');
          const alias = ns?.namedChildren.find((c) => c?.type === 'identifier' || c?.type === 'string');
          if (alias) sink.binding(alias, { kind: 'export', name: alias.type === 'string' ? stringValue(alias) : alias.text, module: spec, member: '*' });
          else sink.binding(node, { kind: 'star', name: '*', module: spec });
        }
        break;
      }
      case 'assignment_expression': {
        const exported = exportTarget(node.childForFieldName('left'));
        if (exported === undefined || scope >= 0) break;
        const right = node.childForFieldName('right');
        if (exported === 'default' && right?.type === 'object') {
          // module.exports = { a, b: c }
          for (const p of right.namedChildren) {
            if (p?.type === 'shorthand_property_identifier') sink.binding(p, { kind: 'export', name: p.text, member: p.text });
            else if (p?.type === 'pair') {
              const key = p.childForFieldName('key');
              const v = p.childForFieldName('value');
              if (key && v?.type === 'identifier') sink.binding(key, { kind: 'export', name: key.text, member: v.text });
            }
          }
        } else if (right?.type === 'identifier') {
          sink.binding(right, { kind: 'export', name: exported, member: right.text });
        }
        break;
      }
    }
  }

  // Pass 2: sites.
  /** A name that, at `at`, can only mean a module-level or imported thing (not a local value). */
  const free = (at: number, name: string): boolean => {
    const b = scopes.lookup(at, name)?.binding.kind;
    return b === undefined || b === 'import' || b === 'definition';
  };
  const receiverOf = (object: Node, at: number): ReceiverFact | 'dynamic' => {
    if (object.type === 'this') {
      const fn = scopes.enclosingFunction(at, (k) => k === 'function' || k === 'class');
      return fn >= 0 && classThis.get(fn) === true ? { kind: 'self' } : 'dynamic';
    }
    if (object.type === 'super') return { kind: 'super' };
    if (object.type === 'identifier') {
      const found = scopes.lookup(at, object.text);
      if (found === undefined) return { kind: 'path', path: [object.text] };
      const b = found.binding;
      if (b.type) return free(at, b.type.name.split('.')[0]!) ? { kind: 'type', type: b.type.name, ...(b.type.constructed ? { constructed: true } : {}) } : 'dynamic';
      if (b.kind === 'import' || b.kind === 'definition') return { kind: 'path', path: [object.text] };
      return 'dynamic';
    }
    if (object.type === 'member_expression') {
      const path = memberPath(object);
      if (!path) return 'dynamic';
      return free(at, path[0]!) ? { kind: 'path', path } : 'dynamic';
    }
    if (object.type === 'new_expression') {
      const path = memberPath(object.childForFieldName('constructor'));
      if (path && free(at, path[0]!)) return { kind: 'type', type: path.join('.'), constructed: true };
    }
    return 'dynamic';
  };

  // Variables a function is assigned to (`adapter = function (c) {…}`): that function is a
  // definition of the name, reached through the variable when it is passed on.
  const assignedFunctions = new Set<string>();
  for (const node of nodes) {
    if (node.type !== 'assignment_expression') continue;
    const left = node.childForFieldName('left');
    if (left?.type === 'identifier' && madeFunction(node.childForFieldName('right'))) assignedFunctions.add(left.text);
  }

  const use = (kind: 'call' | 'reference', target: Node, construct = false): void => {
    const at = target.startIndex;
    if (target.type === 'identifier') {
      const b = scopes.lookup(at, target.text)?.binding.kind;
      if (b === 'parameter' || b === 'local') {
        if (kind === 'call' || assignedFunctions.has(target.text)) sink.site(target, { kind, name: target.text, fixed: b === 'parameter' ? 'parameter' : 'local-variable' });
        return;
      }
      sink.site(target, { kind, name: target.text, ...(construct ? { construct } : {}) });
      return;
    }
    if (target.type !== 'member_expression') return;
    const prop = target.childForFieldName('property');
    const object = target.childForFieldName('object');
    if (!prop || !object || (prop.type !== 'property_identifier' && prop.type !== 'private_property_identifier')) return;
    const receiver = receiverOf(object, at);
    if (receiver === 'dynamic') {
      // A value use too (`el.on('click', obj.handler)`): nothing resolves it, but dead code must
      // know some method of that name may be used.
      sink.site(prop, { kind, name: prop.text, fixed: 'dynamic' });
      return;
    }
    sink.site(prop, { kind, name: prop.text, receiver, ...(construct ? { construct } : {}) });
  };

  for (const node of nodes) {
    const type = node.type;
    if (type === 'call_expression') {
      const fn = node.childForFieldName('function');
      if (!fn) continue;
      if (fn.type === 'super') sink.site(fn, { kind: 'call', name: 'super', superConstructor: true });
      else if (fn.type === 'identifier' && fn.text === 'require') continue;
      else use('call', fn);
      // `handler.bind(this)`, `fn.call(ctx, x)`, `fn.apply(ctx, args)`: a use of the function itself.
      if (fn.type === 'member_expression' && BOUND_CALLS.has(fn.childForFieldName('property')?.text ?? '')) {
        for (const operand of valueOperands(fn.childForFieldName('object'))) use('reference', operand);
      }
    } else if (type === 'new_expression') {
      const ctor = node.childForFieldName('constructor');
      if (ctor) use('call', ctor, true);
    } else if (CLASSES.has(type) || type === 'interface_declaration') {
      const heritage = node.namedChildren.find((c) => c?.type === 'class_heritage');
      const clauses = heritage ? heritage.namedChildren : node.namedChildren.filter((c) => c?.type === 'extends_type_clause');
      // JavaScript's grammar puts the base expression directly under class_heritage.
      const parts = heritage && !clauses.some((c) => c?.type === 'extends_clause' || c?.type === 'implements_clause') ? [heritage] : clauses;
      for (const clause of parts) {
        if (!clause) continue;
        const kind = clause.type === 'implements_clause' ? 'implements' : 'inherits';
        const values = clause.type === 'extends_clause' ? [clause.childForFieldName('value') ?? clause.namedChildren[0]] : clause.namedChildren;
        for (const v of values) {
          const base = v?.type === 'generic_type' ? (v.childForFieldName('name') ?? v.namedChildren[0]) : v;
          if (!base) continue;
          const path = base.type === 'nested_type_identifier' ? base.text.replace(/\s+/g, '').split('.') : base.type === 'type_identifier' ? [base.text] : memberPath(base);
          if (!path) continue;
          const name = path[path.length - 1]!;
          sink.site(base, { kind, name, ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
        }
      }
    } else if (VALUE_PARENTS.has(type)) {
      const values = type === 'pair' ? [node.childForFieldName('value')] : node.namedChildren;
      for (const v of values) for (const operand of valueOperands(v)) use('reference', operand);
      // `{ onClick: function () {} }`: the function is reached through the object.
      const value = type === 'pair' ? node.childForFieldName('value') : null;
      if (value && madeFunction(value)) sink.flag(value, 'member-value');
    } else if (type === 'method_definition' && node.parent?.type === 'object') {
      sink.flag(node, 'member-value');
    } else if (type === 'decorator') {
      // A decorated class or member is registered or wrapped by its decorator: never dead.
      const parent = node.parent;
      let decorated: Node | null | undefined = parent && parent.type !== 'class_body' && parent.type !== 'export_statement' ? parent : node.nextNamedSibling;
      while (decorated?.type === 'decorator') decorated = decorated.nextNamedSibling;
      if (parent?.type === 'export_statement') decorated = parent.childForFieldName('declaration');
      if (decorated) sink.flag(decorated, 'decorated');
      // `@Injectable` calls Injectable with the class; `@Component({...})` is a call_expression of its own.
      const expr = node.namedChildren[0];
      if (expr && (expr.type === 'identifier' || expr.type === 'member_expression')) use('call', expr);
    } else if (type === 'shorthand_property_identifier') {
      use('reference', node);
    } else if (type === 'variable_declarator') {
      for (const operand of valueOperands(node.childForFieldName('value'))) use('reference', operand);
    } else if (type === 'assignment_expression') {
      for (const operand of valueOperands(node.childForFieldName('right'))) use('reference', operand);
    }
  }
}

/**
 * The reference visitor shared by JavaScript, TypeScript and TSX.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...javascript, references: ecmascriptReferences };
 * ```
 */
export const ecmascriptReferences = visit;
