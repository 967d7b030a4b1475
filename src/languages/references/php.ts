import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink, SiteFact } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';
import { PHP_KEPT, reportAnnotations } from './annotations.js';

// PHP: function, method, static and constructor calls, bases (extends, implements, traits),
// `use` imports and the namespace.
//
// PHP resolves names by syntax: a qualified name `A\B` is relative to the namespace unless its
// first part is an imported alias, `\A\B` is absolute, `namespace\f` is the namespace's own.
// The visitor does that itself and writes every name that is not a plain one as its namespace
// and last part: `\App\Models\User` becomes `User` with a qualifier `\App\Models`, a binding of
// that (backslash-led, so never a PHP identifier) name to the namespace `App\Models`. A plain
// name is left to the graph: the file's `use` bindings, then the namespace (its files share one
// module), then, for a function, the global namespace (PHP's fallback). A file with several
// namespace blocks is a module of its own and every name in it is written out in full.
//
// Receivers: `$this` (not in an anonymous class or a static closure), `self::`, `static::`,
// `parent::`; a parameter, promoted constructor parameter, property or catch variable with a
// declared class type; a local assigned `new Foo` (or `Foo::make()` where make is declared to
// return `self`/`static`) everywhere it is assigned in its function. Anything else — untyped
// variables, call results, `$obj->$name()`, `$f()`, `new $cls` — stays unresolved.

const CLASS_TYPES = typeSet('class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration');
const FUNCTION_TYPES = typeSet('function_definition', 'method_declaration', 'anonymous_function', 'arrow_function');
const CALL_TYPES = typeSet('function_call_expression', 'member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression', 'object_creation_expression');
const NAME_TYPES = typeSet('name', 'qualified_name', 'relative_name');
const SEARCHED = [
  'namespace_definition',
  'namespace_use_declaration',
  ...CLASS_TYPES,
  'anonymous_class',
  ...FUNCTION_TYPES,
  'simple_parameter',
  'property_promotion_parameter',
  'variadic_parameter',
  'property_declaration',
  'assignment_expression',
  'reference_assignment_expression',
  'augmented_assignment_expression',
  'foreach_statement',
  'catch_clause',
  'global_declaration',
  'static_variable_declaration',
  'anonymous_function_use_clause',
  'dynamic_variable_name',
  ...CALL_TYPES,
];

/** A namespace region of a file: its name ('' for the global one) and its `use` imports. */
interface Region {
  readonly start: number;
  readonly end: number;
  readonly namespace: string;
  /** Imported classes and namespaces by alias (`use A\B as C` → C → A\B). */
  readonly classes: Map<string, string>;
  /** Imported functions by alias (`use function A\f as g` → g → A\f). */
  readonly functions: Map<string, string>;
}

interface ClassSpan {
  readonly start: number;
  readonly end: number;
  /** Null for an anonymous class. */
  readonly name: string | null;
  /** Declared property types (`private Catalog $catalog`, promoted constructor parameters); null for a property without a class type. */
  readonly properties: Map<string, string | null>;
  /** The class `extends` names, as a type (what `parent::` means: never a trait the class uses). */
  readonly parent?: string;
}

/** A name as written, without white space or a leading backslash, and whether it had one. */
function written(node: Node): { readonly text: string; readonly absolute: boolean; readonly relative: boolean } {
  const raw = node.text.replace(/\s+/g, '');
  if (node.type === 'relative_name') return { text: raw.replace(/^namespace\\/i, ''), absolute: false, relative: true };
  return raw.startsWith('\\') ? { text: raw.slice(1), absolute: true, relative: false } : { text: raw, absolute: false, relative: false };
}

/** The last part of a name node (the token a site's line and caller come from). */
/**
 * Functions that take a callable, with the argument that holds it (PHP's own, and WordPress's
 * hooks, the most common place of callables written as strings).
 */
const CALLABLE_ARGUMENT: ReadonlyMap<string, number> = new Map([
  ...['array_map', 'call_user_func', 'call_user_func_array', 'is_callable', 'register_shutdown_function', 'spl_autoload_register', 'set_error_handler', 'set_exception_handler', 'forward_static_call', 'forward_static_call_array', 'ob_start'].map((f) => [f, 0] as const),
  ...['array_filter', 'array_walk', 'array_walk_recursive', 'array_reduce', 'usort', 'uasort', 'uksort', 'preg_replace_callback', 'iterator_apply'].map((f) => [f, 1] as const),
  ...['add_action', 'add_filter', 'remove_action', 'remove_filter', 'has_action', 'has_filter', 'add_shortcode', 'register_activation_hook', 'register_deactivation_hook', 'register_uninstall_hook'].map((f) => [f, 1] as const),
]);

/** A callable written as a string: a function's full name (`trim_all`, `\App\boot`) or `Class::method`; group 1 the function's or class's last name, group 2 the method. */
const CALLABLE_STRING = /^\\?(?:[A-Za-z_]\w*\\)*([A-Za-z_]\w*)(?:::([A-Za-z_]\w*))?$/;

/** The text of a string literal without interpolation or escapes (`'boot'`, `"boot"`), else undefined. */
function literalContent(node: Node): string | undefined {
  const parts = node.namedChildren;
  if (parts.length !== 1 || parts[0]?.type !== 'string_content') return parts.length === 0 ? '' : undefined;
  return parts[0].text;
}

function lastToken(node: Node): Node {
  if (node.type === 'qualified_name' || node.type === 'relative_name') return node.childForFieldName('name') ?? node.namedChildren[node.namedChildren.length - 1] ?? node;
  return node;
}

/** The class a declared type names (`Foo`, `?Foo`, `Foo|null`, `\A\Foo`), as its name node; undefined for primitives, unions, intersections. */
function typeNameNode(type: Node | null | undefined): Node | undefined {
  if (!type) return undefined;
  if (type.type === 'named_type') return type.namedChildren.find((c) => c !== null && NAME_TYPES.has(c.type)) ?? undefined;
  if (type.type === 'optional_type') return typeNameNode(type.namedChildren[0]);
  if (type.type === 'union_type') {
    const members = type.namedChildren.filter((c): c is Node => c !== null);
    const classes = members.filter((m) => m.type === 'named_type' || m.type === 'optional_type');
    const others = members.filter((m) => m.type !== 'named_type' && m.type !== 'optional_type');
    if (classes.length === 1 && others.every((m) => m.text.toLowerCase() === 'null')) return typeNameNode(classes[0]);
  }
  return undefined;
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  const classes: ClassSpan[] = [];
  /** Function scopes whose variables may be set by name (`$$x`, `extract()`): no local has a known type there. */
  const unknowable = new Set<number>();
  /** Function scopes in document order (their index is their LexicalScopes id): their range, parent, and whether `$this` is unbound there. */
  const functions: { readonly start: number; readonly end: number; readonly parent: number; readonly noThis: boolean }[] = [];
  /** The innermost function scope holding `offset` (-1: none), after pass 1. */
  const functionAt = (offset: number): number => {
    let lo = 0;
    let hi = functions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (functions[mid]!.start <= offset) lo = mid + 1;
      else hi = mid;
    }
    for (let f = lo - 1; f >= 0; f = functions[f]!.parent) if (offset < functions[f]!.end) return f;
    return -1;
  };

  // Namespaces: one region per namespace (a statement runs to the next one, a block is its body).
  const namespaceNodes = nodes.filter((_, i) => types[i] === 'namespace_definition');
  const regions: Region[] = [];
  const fullLength = root.endIndex;
  for (const [i, ns] of namespaceNodes.entries()) {
    const name = ns.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
    const body = ns.childForFieldName('body');
    const start = ns.startIndex;
    const end = body ? body.endIndex : (namespaceNodes[i + 1]?.startIndex ?? fullLength);
    regions.push({ start, end, namespace: name, classes: new Map(), functions: new Map() });
  }
  const several = regions.length > 1;
  if (regions.length === 0) regions.push({ start: 0, end: fullLength, namespace: '', classes: new Map(), functions: new Map() });
  if (!several) {
    const only = regions[0]!;
    regions[0] = { ...only, start: 0, end: fullLength };
    if (only.namespace !== '') sink.setPackage(only.namespace);
  } else {
    // Several namespaces: the file is a module of its own; each block names its definitions.
    sink.setPackage('/');
    for (const ns of namespaceNodes) {
      const body = ns.childForFieldName('body');
      const name = ns.childForFieldName('name')?.text.replace(/\s+/g, '') ?? '';
      if (body && name !== '') sink.namespace(body, `\\${name}`);
    }
  }
  const regionAt = (offset: number): Region => {
    for (const r of regions) if (r.start <= offset && offset < r.end) return r;
    return regions[regions.length - 1]!;
  };
  /**
   * In a file of several namespaces, the functions each block defines: a plain call of one of
   * them from the same block is that function (PHP looks in the namespace first), found in the
   * file itself (the file is their module).
   */
  const ownFunctions = new Map<Region, Set<string>>();
  if (several) {
    for (const [i, node] of nodes.entries()) {
      if (types[i] !== 'function_definition') continue;
      const name = node.childForFieldName('name')?.text;
      if (!name) continue;
      const region = regionAt(node.startIndex);
      let set = ownFunctions.get(region);
      if (!set) ownFunctions.set(region, (set = new Set()));
      set.add(name.toLowerCase());
    }
  }

  /** Backslash-led names bound to a namespace (or class) by full name, once per file. */
  const heads = new Set<string>();
  const head = (fullName: string): string => {
    const name = `\\${fullName}`;
    if (!heads.has(name)) {
      heads.add(name);
      // At offset 0, where no definition starts: a module-level binding.
      sink.binding(root, { kind: 'module', name, module: fullName });
    }
    return name;
  };
  const splitFull = (full: string): { namespace: string; last: string } => {
    const cut = full.lastIndexOf('\\');
    return cut < 0 ? { namespace: '', last: full } : { namespace: full.slice(0, cut), last: full.slice(cut + 1) };
  };

  /** The full name of a class (or namespace) name written at `at`, by PHP's rules. */
  const classFullName = (node: Node): string => {
    const w = written(node);
    const region = regionAt(node.startIndex);
    const prefix = region.namespace === '' ? '' : `${region.namespace}\\`;
    if (w.absolute) return w.text;
    if (w.relative) return prefix + w.text;
    const cut = w.text.indexOf('\\');
    const first = cut < 0 ? w.text : w.text.slice(0, cut);
    const alias = region.classes.get(first);
    if (alias !== undefined) return cut < 0 ? alias : alias + w.text.slice(cut);
    return prefix + w.text;
  };
  /** A plain name the graph may look up itself (its aliases and namespace are the file's module's). */
  const plainName = (node: Node): string | undefined => (!several && node.type === 'name' ? node.text : undefined);

  /** A class named at `node`: a plain name, or its last part with its namespace as qualifier. */
  const classSite = (node: Node): { name: string; receiver?: ReceiverFact } => {
    const plain = plainName(node);
    if (plain !== undefined) return { name: plain };
    const { namespace, last } = splitFull(classFullName(node));
    return { name: last, receiver: { kind: 'path', path: [head(namespace)] } };
  };
  /** A class named at `node` as a qualifier path (`Foo::m()`). */
  const classPath = (node: Node): string[] => {
    const site = classSite(node);
    return site.receiver?.kind === 'path' ? [...site.receiver.path, site.name] : [site.name];
  };
  /** A class named at `node` as a declared type (`Foo`, `\App\Models.Foo`). */
  const classType = (node: Node): string => classPath(node).join('.');

  /** The innermost class at `offset`. */
  const classAt = (offset: number): ClassSpan | undefined => {
    let best: ClassSpan | undefined;
    for (const c of classes) if (c.start <= offset && offset < c.end && (!best || c.start >= best.start)) best = c;
    return best;
  };
  /** What `parent::` means at `offset`: the class the innermost class `extends` (in a trait, the using class's: unknown here). */
  const parentOf = (offset: number): ReceiverFact => {
    const parent = classAt(offset)?.parent;
    return parent === undefined ? { kind: 'super' } : { kind: 'super', type: parent };
  };
  /** The name of the innermost named class at `offset` (undefined in an anonymous class or outside classes). */
  const namedClassAt = (offset: number): string | undefined => {
    const c = classAt(offset);
    return c?.name ?? undefined;
  };

  const bindVariable = (nameNode: Node | null | undefined, kind: 'parameter' | 'local', type?: { name: string; constructed?: boolean }): void => {
    if (nameNode?.type !== 'variable_name') return;
    const scope = scopes.innermostAt(nameNode.startIndex);
    if (scope < 0) return;
    const name = nameNode.text.slice(1);
    if (name === 'this') return;
    scopes.bind(scope, name, { kind, ...(type ? { type } : {}) });
  };
  /** The type a declared type gives a variable at `at` (`self` is the enclosing class). */
  const declaredType = (typeNode: Node | null | undefined, at: number): string | undefined => {
    const n = typeNameNode(typeNode);
    if (!n) return undefined;
    const lower = n.text.toLowerCase();
    if (lower === 'self' || lower === 'static') {
      const cls = namedClassAt(at);
      return cls === undefined ? undefined : several ? `${head(regionAt(at).namespace)}.${cls}` : cls;
    }
    return classType(n);
  };
  /** What `$x = <value>` tells about x: `new Foo` is a Foo, `Foo::make()` whatever make is declared to return. */
  const assignedType = (value: Node | null | undefined): { name: string; constructed: boolean } | undefined => {
    if (value?.type === 'object_creation_expression') {
      const cls = value.namedChildren[0];
      if (cls && NAME_TYPES.has(cls.type) && !['self', 'static', 'parent'].includes(cls.text.toLowerCase())) return { name: classType(cls), constructed: true };
      return undefined;
    }
    if (value?.type === 'scoped_call_expression') {
      const scope = value.childForFieldName('scope');
      const method = value.childForFieldName('name');
      if (scope && NAME_TYPES.has(scope.type) && method?.type === 'name') return { name: `${classType(scope)}.${method.text}`, constructed: true };
    }
    return undefined;
  };

  // Pass 1: namespaces' imports, classes with their properties, scopes with their variables.
  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    switch (type) {
      case 'namespace_use_declaration': {
        const region = regionAt(node.startIndex);
        const head = /^use\s+(function|const)\b/i.exec(node.text)?.[1]?.toLowerCase();
        if (head === 'const') break;
        const group = node.childForFieldName('body');
        const prefixNode = group ? node.namedChildren.find((c) => c?.type === 'namespace_name') : undefined;
        const prefix = prefixNode ? `${prefixNode.text.replace(/\s+/g, '').replace(/^\\/, '')}\\` : '';
        const clauses = (group ?? node).namedChildren.filter((c): c is Node => c?.type === 'namespace_use_clause');
        for (const clause of clauses) {
          const nameNode = clause.namedChildren.find((c) => c !== null && NAME_TYPES.has(c.type));
          if (!nameNode) continue;
          const kind = /^(function|const)\b/i.exec(clause.text)?.[1]?.toLowerCase() ?? head;
          if (kind === 'const') continue;
          const full = prefix + nameNode.text.replace(/\s+/g, '').replace(/^\\/, '');
          const alias = clause.childForFieldName('alias')?.text ?? splitFull(full).last;
          const at = lastToken(nameNode);
          sink.site(at, { kind: 'import', name: full });
          if (kind === 'function') {
            region.functions.set(alias, full);
            if (!several) {
              const { namespace, last } = splitFull(full);
              sink.binding(at, { kind: 'member', name: alias, module: namespace, member: last });
            }
          } else {
            region.classes.set(alias, full);
            if (!several) sink.binding(at, { kind: 'module', name: alias, module: full });
          }
        }
        break;
      }
      case 'class_declaration':
      case 'interface_declaration':
      case 'trait_declaration':
      case 'enum_declaration':
      case 'anonymous_class': {
        const extended = node.namedChildren.find((c) => c?.type === 'base_clause')?.namedChildren.find((c) => c !== null && NAME_TYPES.has(c.type));
        classes.push({
          start: node.startIndex,
          end: node.endIndex,
          name: type === 'anonymous_class' ? null : (node.childForFieldName('name')?.text ?? null),
          properties: new Map(),
          ...(extended ? { parent: classType(extended) } : {}),
        });
        if (type !== 'anonymous_class') reportAnnotations(node, sink, PHP_KEPT);
        break;
      }
      case 'function_definition':
      case 'method_declaration':
      case 'anonymous_function':
      case 'arrow_function': {
        const parent = scopes.innermostAt(node.startIndex);
        const scope = scopes.open(node, 'function');
        // A static closure has no `$this`; nor has a function outside classes.
        const isStatic = type !== 'method_declaration' && type !== 'function_definition' && node.namedChildren.some((c) => c?.type === 'static_modifier');
        functions[scope] = { start: node.startIndex, end: node.endIndex, parent, noThis: isStatic || type === 'function_definition' };
        if (type === 'method_declaration' || type === 'function_definition') reportAnnotations(node, sink, PHP_KEPT);
        if (type === 'method_declaration') {
          const ret = node.childForFieldName('return_type');
          const named = typeNameNode(ret);
          const cls = namedClassAt(node.startIndex);
          const lower = named?.text.toLowerCase();
          // Declared to return an instance of its own class: `x = Foo::make()` types x.
          if (lower === 'self' || lower === 'static' || (cls !== undefined && named?.type === 'name' && named.text === cls)) sink.flag(node, 'returns-self');
        }
        break;
      }
      case 'simple_parameter':
      case 'property_promotion_parameter': {
        const name = node.childForFieldName('name');
        const declared = declaredType(node.childForFieldName('type'), node.startIndex);
        bindVariable(name, 'parameter', declared ? { name: declared } : undefined);
        if (type === 'property_promotion_parameter' && name) classAt(node.startIndex)?.properties.set(name.text.slice(1), declared ?? null);
        break;
      }
      case 'variadic_parameter':
        bindVariable(node.childForFieldName('name'), 'parameter');
        break;
      case 'property_declaration': {
        const declared = declaredType(node.childForFieldName('type'), node.startIndex);
        const cls = classAt(node.startIndex);
        for (const element of node.namedChildren) {
          if (element?.type !== 'property_element') continue;
          const name = element.childForFieldName('name') ?? element.namedChildren[0];
          if (name?.type === 'variable_name') cls?.properties.set(name.text.slice(1), declared ?? null);
        }
        break;
      }
      case 'assignment_expression': {
        const left = node.childForFieldName('left');
        if (left?.type === 'variable_name') bindVariable(left, 'local', assignedType(node.childForFieldName('right')));
        else if (left?.type === 'list_literal') for (const v of left.descendantsOfType('variable_name')) bindVariable(v, 'local');
        break;
      }
      case 'reference_assignment_expression':
      case 'augmented_assignment_expression': {
        const left = node.childForFieldName('left');
        if (left?.type === 'variable_name') bindVariable(left, 'local');
        break;
      }
      case 'foreach_statement':
        // `foreach ($list as $k => $v)`: every variable after the list is a local of unknown type.
        for (const child of node.namedChildren.slice(1)) {
          if (!child || child.type === 'compound_statement' || child === node.childForFieldName('body')) continue;
          for (const v of child.type === 'variable_name' ? [child] : child.descendantsOfType('variable_name')) bindVariable(v, 'local');
        }
        break;
      case 'catch_clause': {
        const list = node.childForFieldName('type');
        const members = list?.namedChildren.filter((c): c is Node => c !== null) ?? [];
        const declared = members.length === 1 ? declaredType(members[0], node.startIndex) : undefined;
        bindVariable(node.childForFieldName('name'), 'local', declared ? { name: declared } : undefined);
        break;
      }
      case 'global_declaration':
      case 'static_variable_declaration':
        for (const v of type === 'global_declaration' ? node.namedChildren : [node.childForFieldName('name')]) bindVariable(v, 'local');
        break;
      case 'anonymous_function_use_clause': {
        // `use (&$x)`: the closure may assign the outer variable (its own assignments are in its scope).
        const closure = scopes.innermostAt(node.startIndex);
        const outer = closure >= 0 ? functions[closure]!.parent : -1;
        for (const child of node.namedChildren) {
          const v = child?.type === 'by_ref' ? child.namedChildren[0] : undefined;
          if (v?.type === 'variable_name' && outer >= 0) scopes.bind(outer, v.text.slice(1), { kind: 'local' });
        }
        break;
      }
      case 'dynamic_variable_name': {
        const scope = scopes.innermostAt(node.startIndex);
        if (scope >= 0) unknowable.add(scope);
        break;
      }
      case 'function_call_expression': {
        const fn = node.childForFieldName('function');
        if (fn?.type === 'name' && fn.text.toLowerCase() === 'extract') {
          const scope = scopes.innermostAt(node.startIndex);
          if (scope >= 0) unknowable.add(scope);
        }
        break;
      }
    }
  }

  // Pass 2: sites.
  /** What a variable is at `at`: the method's object, a typed value, another value, or nothing the scope binds. */
  const variable = (nameNode: Node, at: number): ReceiverFact | 'parameter' | 'local-variable' | 'dynamic' => {
    const name = nameNode.text.slice(1);
    if (name === 'this') return namedClassAt(at) !== undefined && thisBound(at) ? { kind: 'self' } : 'dynamic';
    const found = scopes.lookup(at, name);
    if (!found) return 'dynamic';
    if (found.binding.type && !unknowable.has(found.scope)) {
      const t = found.binding.type;
      return { kind: 'type', type: t.name, ...(t.constructed ? { constructed: true } : {}) };
    }
    return found.binding.kind === 'parameter' ? 'parameter' : 'local-variable';
  };
  /** Whether `$this` at `at` is the innermost class's object: no static closure or plain function between them. */
  const thisBound = (at: number): boolean => {
    const cls = classAt(at);
    for (let f = functionAt(at); f >= 0 && (!cls || functions[f]!.start > cls.start); f = functions[f]!.parent) if (functions[f]!.noThis) return false;
    return true;
  };

  /** The receiver an object expression gives a member call at `at`. */
  const receiverOf = (object: Node, at: number): ReceiverFact | 'parameter' | 'local-variable' | 'dynamic' => {
    switch (object.type) {
      case 'variable_name':
        return variable(object, at);
      case 'member_access_expression': {
        // `$this->catalog->get()`: a property the innermost class declares with a class type.
        const inner = object.childForFieldName('object');
        const prop = object.childForFieldName('name');
        if (inner?.type !== 'variable_name' || inner.text !== '$this' || prop?.type !== 'name') return 'dynamic';
        const self = variable(inner, at);
        if (typeof self === 'string' || self.kind !== 'self') return 'dynamic';
        const t = classAt(at)?.properties.get(prop.text);
        return t ? { kind: 'type', type: t } : 'dynamic';
      }
      case 'object_creation_expression': {
        const t = assignedType(object);
        return t ? { kind: 'type', type: t.name, constructed: true } : 'dynamic';
      }
      case 'parenthesized_expression': {
        const inner = object.namedChildren[0];
        return inner ? receiverOf(inner, at) : 'dynamic';
      }
      default:
        return 'dynamic';
    }
  };

  const call = (at: Node, fact: Omit<SiteFact, 'line' | 'caller' | 'kind'>): void => sink.site(at, { kind: 'call', ...fact });
  const unresolvedCall = (at: Node, name: string, reason: 'parameter' | 'local-variable' | 'dynamic'): void => call(at, { name, fixed: reason });

  /**
   * Callables written as data in a call's arguments: `[$this, 'boot']`, `[self::class, 'cmp']`,
   * `[Foo::class, 'make']` anywhere (references of the method on the class), and where a
   * function takes a callable (CALLABLE_ARGUMENT), `'trim_all'`, `'Foo::make'` and `['Foo',
   * 'make']`: a string names a function or class by its full name, which no `use` changes, so
   * these are uses the file cannot resolve (they make callers of the name a lower bound).
   */
  const callableArguments = (node: Node, type: string): void => {
    const fn = type === 'function_call_expression' ? node.childForFieldName('function') : null;
    const callableAt = fn && NAME_TYPES.has(fn.type) ? CALLABLE_ARGUMENT.get(lastToken(fn).text.toLowerCase()) : undefined;
    const args = node.childForFieldName('arguments')?.namedChildren ?? [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i];
      const expr = arg?.type === 'argument' ? arg.namedChildren[arg.namedChildren.length - 1] : arg;
      const exprType = expr?.type;
      if (exprType === 'array_creation_expression') arrayCallable(expr!, i === callableAt);
      else if (i === callableAt && (exprType === 'string' || exprType === 'encapsed_string')) {
        const text = literalContent(expr!);
        const match = text === undefined ? null : CALLABLE_STRING.exec(text);
        if (match) sink.site(expr!, { kind: 'reference', name: match[2] ?? match[1]!, fixed: 'dynamic' });
      }
    }
  };
  const arrayCallable = (array: Node, callable: boolean): void => {
    const elements = array.namedChildren.filter((c): c is Node => c?.type === 'array_element_initializer');
    if (elements.length !== 2 || elements[0]!.namedChildren.length !== 1 || elements[1]!.namedChildren.length !== 1) return;
    const [holder, method] = [elements[0]!.namedChildren[0]!, elements[1]!.namedChildren[0]!];
    const name = method.type === 'string' ? literalContent(method) : undefined;
    if (name === undefined || !/^[A-Za-z_]\w*$/.test(name)) return;
    const inClass = namedClassAt(holder.startIndex) !== undefined;
    if (holder.type === 'variable_name' && holder.text === '$this') {
      sink.site(method, inClass ? { kind: 'reference', name, receiver: { kind: 'self' } } : { kind: 'reference', name, fixed: 'dynamic' });
    } else if (holder.type === 'class_constant_access_expression' && holder.namedChildren[1]?.text.toLowerCase() === 'class') {
      const scope = holder.namedChildren[0]!;
      const lower = scope.text.toLowerCase();
      if (scope.type === 'relative_scope' || lower === 'self' || lower === 'static') {
        sink.site(method, inClass ? { kind: 'reference', name, receiver: { kind: 'self' } } : { kind: 'reference', name, fixed: 'dynamic' });
      } else if (NAME_TYPES.has(scope.type)) sink.site(method, { kind: 'reference', name, receiver: { kind: 'path', path: classPath(scope) } });
    } else if (callable && holder.type === 'string') sink.site(method, { kind: 'reference', name, fixed: 'dynamic' });
  };

  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (CLASS_TYPES.has(type)) {
      // Bases in lookup order: traits (their methods are the class's own), the parent class, interfaces.
      const body = node.childForFieldName('body');
      for (const use of body?.namedChildren ?? []) {
        if (use?.type !== 'use_declaration') continue;
        for (const t of use.namedChildren) if (t && NAME_TYPES.has(t.type)) sink.site(lastToken(t), { kind: 'inherits', ...classSite(t) });
      }
      for (const clause of node.namedChildren) {
        if (clause?.type !== 'base_clause') continue;
        for (const t of clause.namedChildren) if (t && NAME_TYPES.has(t.type)) sink.site(lastToken(t), { kind: 'inherits', ...classSite(t) });
      }
      for (const clause of node.namedChildren) {
        if (clause?.type !== 'class_interface_clause') continue;
        for (const t of clause.namedChildren) if (t && NAME_TYPES.has(t.type)) sink.site(lastToken(t), { kind: 'implements', ...classSite(t) });
      }
      continue;
    }
    if (!CALL_TYPES.has(type)) continue;
    callableArguments(node, type);
    switch (type) {
      case 'function_call_expression': {
        const fn = node.childForFieldName('function');
        if (!fn) break;
        if (fn.type === 'variable_name') {
          const v = variable(fn, fn.startIndex);
          unresolvedCall(fn, fn.text, v === 'parameter' ? 'parameter' : 'local-variable');
          break;
        }
        if (!NAME_TYPES.has(fn.type)) break;
        const at = lastToken(fn);
        const plain = plainName(fn);
        if (plain !== undefined) {
          call(at, { name: plain });
          break;
        }
        // A function's full name: `use function` aliases for a plain name, class and namespace aliases for a qualified one.
        const w = written(fn);
        const region = regionAt(fn.startIndex);
        if (fn.type === 'name' && !region.functions.has(w.text) && ownFunctions.get(region)?.has(w.text.toLowerCase())) {
          call(at, { name: w.text });
          break;
        }
        const full = fn.type === 'name' && region.functions.has(w.text) ? region.functions.get(w.text)! : classFullName(fn);
        const { namespace, last } = splitFull(full);
        call(at, { name: last, receiver: { kind: 'path', path: [head(namespace)] } });
        break;
      }
      case 'member_call_expression':
      case 'nullsafe_member_call_expression': {
        const name = node.childForFieldName('name');
        const object = node.childForFieldName('object');
        if (!name || !object) break;
        if (name.type !== 'name') {
          unresolvedCall(name, name.text, 'dynamic');
          break;
        }
        const receiver = receiverOf(object, name.startIndex);
        if (typeof receiver === 'string') unresolvedCall(name, name.text, 'dynamic');
        else call(name, { name: name.text, receiver });
        break;
      }
      case 'scoped_call_expression': {
        const name = node.childForFieldName('name');
        const scope = node.childForFieldName('scope');
        if (!name || !scope) break;
        if (name.type !== 'name') {
          unresolvedCall(name, name.text, 'dynamic');
          break;
        }
        if (scope.type === 'relative_scope') {
          const which = scope.text.toLowerCase();
          const inClass = namedClassAt(name.startIndex) !== undefined;
          if (!inClass) unresolvedCall(name, name.text, 'dynamic');
          else call(name, { name: name.text, receiver: which === 'parent' ? parentOf(name.startIndex) : { kind: 'self' } });
          break;
        }
        if (NAME_TYPES.has(scope.type)) {
          const lower = scope.text.toLowerCase();
          if (lower === 'self' || lower === 'static' || lower === 'parent') {
            const inClass = namedClassAt(name.startIndex) !== undefined;
            if (!inClass) unresolvedCall(name, name.text, 'dynamic');
            else call(name, { name: name.text, receiver: lower === 'parent' ? parentOf(name.startIndex) : { kind: 'self' } });
          } else call(name, { name: name.text, receiver: { kind: 'path', path: classPath(scope) } });
          break;
        }
        unresolvedCall(name, name.text, 'dynamic');
        break;
      }
      case 'object_creation_expression': {
        const cls = node.namedChildren[0];
        if (!cls || !NAME_TYPES.has(cls.type)) break;
        const lower = cls.text.toLowerCase();
        const at = lastToken(cls);
        if (lower === 'parent') {
          if (namedClassAt(at.startIndex) !== undefined) call(at, { name: cls.text, superConstructor: true });
          break;
        }
        if (lower === 'self' || lower === 'static') {
          // `new self` / `new static`: the enclosing class (a subclass for `static` is dispatch, as for `$this`).
          const own = namedClassAt(at.startIndex);
          if (own === undefined) break;
          call(at, several ? { name: own, construct: true, receiver: { kind: 'path', path: [head(regionAt(at.startIndex).namespace)] } } : { name: own, construct: true });
          break;
        }
        call(at, { ...classSite(cls), construct: true });
        break;
      }
    }
  }
}

/**
 * The PHP reference visitor: function calls (plain, qualified, `use function`), method calls on
 * `$this`, typed parameters, properties and locals, static calls (`Foo::m()`, `self::`,
 * `static::`, `parent::`), `new`, bases (extends, implements, traits) and `use` imports.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...php, references: phpReferences };
 * ```
 */
export const phpReferences = visit;
