import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';
import { LexicalScopes, type ScopeBinding } from './scopes.js';
import { CONTAINER_TYPE, ELEMENT_PART, RESULT_PART, containerOf, containerTypeName, indexedElement, type ContainerShape } from '../../graph/container-types.js';

// Go: calls (plain, `pkg.F()`, methods through the receiver and through typed values), imports
// (plain, aliased, dot and blank), embedded types as bases, functions used as values, flags.
//
// Names are bound per function, flow-insensitively (a block's `x :=` counts for the whole
// function, which can only leave a call unresolved): parameters, named results, `:=`, `var`,
// `const`, `range` and type-switch variables. The receiver of a method is its `self`. A value's
// type is known from a declared type (`var x Foo`, a parameter `c *Catalog`), from how it is
// made (`Foo{}`, `&Foo{}`, `new(Foo)`), or from what the function or method whose result it is
// declares it returns first (`NewFoo()`, `c.First()`, `new(big.Int).SetBytes(b)`). Package-
// level `var`/`const` names are values (`assign` bindings): a call of one stays unresolved.

const FUNCTIONS = typeSet('function_declaration', 'method_declaration', 'func_literal');
const BINDERS = typeSet('short_var_declaration', 'var_spec', 'const_spec', 'range_clause', 'type_switch_statement', 'receive_statement', 'import_spec');
// Functions used as values where Go code registers callbacks: arguments (`sort.Slice(x, less)`,
// `http.HandleFunc("/", serve)`) and keyed composite-literal values (`Handler: serve`, `"a":
// run`). Unkeyed elements are as often tables of numbers (unicode/tables.go alone has 100,000),
// and `return`/assignment right sides mostly values: leaving them out halves the nodes read.
const VALUE_PARENTS = typeSet('argument_list', 'keyed_element');
const SEARCHED = [...FUNCTIONS, ...BINDERS, ...VALUE_PARENTS, 'call_expression', 'type_conversion_expression', 'type_spec', 'type_alias', 'package_clause'];
const PARAMETERS = typeSet('parameter_declaration', 'variadic_parameter_declaration');
/**
 * The type a scope binding gives a type switch's alias (`switch v := x.(type)`): no type's name,
 * it says to read the type of the case around the use. Another binding of the name in the
 * function (of any type, or none) leaves the name untyped, as for every name.
 */
const SWITCH_ALIAS = '\u0000case';

/**
 * What a scope binding's type says of a value read from a path (`x := s.f`, `p := &s.f`,
 * `v := pkg.Var`): the path, as a receiver fact's (`Type.f` from a value of declared type, free
 * names otherwise), which resolution follows as it follows `s.f.M()`. `NUL path|a|b`.
 */
const PATH = '\u0000path|';

/** A container type's shape as a binding's type name (see CONTAINER_TYPE), or undefined when it names no type. */
function containerType(type: Node | null | undefined): string | undefined {
  let n = type;
  // A pointer to an array ranges and indexes as the array.
  if (n?.type === 'pointer_type' && n.namedChildren[0]?.type === 'array_type') n = n.namedChildren[0];
  let shape: ContainerShape | undefined;
  switch (n?.type) {
    case 'slice_type':
    case 'array_type':
    case 'implicit_length_array_type':
      shape = { kind: 'slice', value: namedType(n.childForFieldName('element')) };
      break;
    case 'map_type':
      shape = { kind: 'map', key: namedType(n.childForFieldName('key')), value: namedType(n.childForFieldName('value')) };
      break;
    case 'channel_type':
      shape = { kind: 'chan', value: namedType(n.childForFieldName('value')) };
      break;
  }
  return shape && containerTypeName(shape);
}

/**
 * A container type's shape as a binding's type name (see containerType), unless a type
 * parameter of `typeParameters` is its key or element (`[]T` in `type List[T any] []T`).
 */
function knownContainerType(type: Node | null | undefined, typeParameters: ReadonlySet<string>): string | undefined {
  const container = containerType(type);
  const shape = containerOf(container);
  return shape && !typeParameters.has(shape.key ?? '') && !typeParameters.has(shape.value ?? '') ? container : undefined;
}

/** The type of the values a container makes when ranged over, by position (`for k, v := range m`). */
function rangedTypes(shape: ContainerShape): readonly (string | undefined)[] {
  if (shape.kind === 'map') return [shape.key, shape.value];
  if (shape.kind === 'chan') return [shape.value];
  return [undefined, shape.value];
}
const TEST_PARAMETER = /^\*testing\.[TBFM]$/;

/** The names of an expression list or a single identifier on the left of `:=` / `range` / `var`. */
function identifiers(node: Node | null | undefined): Node[] {
  if (!node) return [];
  if (node.type === 'identifier') return [node];
  if (node.type === 'expression_list') return node.namedChildren.filter((c): c is Node => c?.type === 'identifier');
  return [];
}

/** The named type a type expression stands for (`Foo`, `*Foo`, `pkg.Foo`, `Foo[T]`), as `Foo` / `pkg.Foo`. */
function namedType(type: Node | null | undefined): string | undefined {
  let n = type;
  for (let depth = 0; n && depth < 4; depth++) {
    switch (n.type) {
      case 'type_identifier':
        return n.text;
      case 'qualified_type': {
        const pkg = n.childForFieldName('package')?.text;
        const name = n.childForFieldName('name')?.text;
        return pkg && name ? `${pkg}.${name}` : undefined;
      }
      case 'pointer_type':
      case 'parenthesized_type':
        n = n.namedChildren[0] ?? null;
        break;
      case 'generic_type':
        n = n.childForFieldName('type');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The value inside parentheses and `&`, in either order (`(&Foo{})`, `&(Foo{})`): `&x` holds what x is. */
function addressed(value: Node | null | undefined): Node | null {
  let v = value ?? null;
  for (let depth = 0; depth < 4 && v; depth++) {
    if (v.type === 'parenthesized_expression') v = v.namedChildren[0] ?? null;
    else if (v.type === 'unary_expression' && v.children[0]?.type === '&') v = v.childForFieldName('operand');
    else break;
  }
  return v;
}

/**
 * The type a value is made as: `Foo{…}`, `&Foo{…}`, `new(Foo)` (when `new` is the builtin), or
 * asserted or converted to: `v.(Foo)`, `v.(*Foo)`, `(*Foo)(p)`; else undefined.
 */
function madeType(value: Node | null | undefined, isFree: (name: string) => boolean): string | undefined {
  const v = addressed(value);
  const type = v?.type;
  if (type === 'composite_literal' || type === 'type_assertion_expression' || type === 'type_conversion_expression') return namedType(v!.childForFieldName('type'));
  if (v?.type === 'call_expression' && v.childForFieldName('function')?.text === 'new' && isFree('new')) {
    const arg = v.childForFieldName('arguments')?.namedChildren[0];
    return namedType(arg);
  }
  return undefined;
}

/** A container a value is made as: `[]Foo{…}`, `map[K]V{…}`, `make([]Foo, n)` (when `make` is the builtin); else undefined. */
function containerMade(value: Node, isFree: (name: string) => boolean): string | undefined {
  if (value.type === 'composite_literal') return containerType(value.childForFieldName('type'));
  if (value.type === 'call_expression' && value.childForFieldName('function')?.text === 'make' && isFree('make')) {
    return containerType(value.childForFieldName('arguments')?.namedChildren[0]);
  }
  return undefined;
}

/**
 * A function's first result, when it is a named type (`func Open() (*File, error)` → `File`) and
 * not one of the function's type parameters: a `returns` binding, read where `f := Open()` types
 * f.
 */
function declareResult(fn: Node, result: Node | null, sink: ReferenceSink, receiverTypeParameters: ReadonlySet<string> = new Set()): void {
  const name = fn.childForFieldName('name');
  if (!name || !result) return;
  const first = result.type === 'parameter_list' ? result.namedChildren.find((c) => c?.type === 'parameter_declaration')?.childForFieldName('type') : result;
  const type = namedType(first);
  if (type === undefined || typeParameterNames(fn).has(type) || receiverTypeParameters.has(type)) return;
  sink.binding(name, { kind: 'returns', name: name.text, module: type });
}

/** The type arguments a generic receiver names (`*List[T]`, `Pair[K, V]`): the method's own type parameters. */
function receiverTypeArguments(type: Node | null | undefined): Set<string> {
  const out = new Set<string>();
  let n = type;
  while (n && (n.type === 'pointer_type' || n.type === 'parenthesized_type')) n = n.namedChildren[0] ?? null;
  if (n?.type !== 'generic_type') return out;
  for (const arg of n.childForFieldName('type_arguments')?.namedChildren ?? []) {
    const name = namedType(arg?.type === 'type_elem' ? arg.namedChildren[0] : arg);
    if (name !== undefined && !name.includes('.')) out.add(name);
  }
  return out;
}

/** The type parameters a generic function or type declares (`[T any, K comparable]`). */
function typeParameterNames(declaration: Node): Set<string> {
  const out = new Set<string>();
  for (const p of declaration.childForFieldName('type_parameters')?.namedChildren ?? []) for (const n of p?.childrenForFieldName('name') ?? []) if (n) out.add(n.text);
  return out;
}

/** The function a call names, when it is a plain or package-qualified name (`Open(…)`, `os.Open(…)`), as written. */
function calledFunction(value: Node | null | undefined, isFree: (name: string) => boolean): string | undefined {
  if (value?.type !== 'call_expression') return undefined;
  const fn = value.childForFieldName('function');
  if (fn?.type === 'identifier') return isFree(fn.text) ? fn.text : undefined;
  if (fn?.type !== 'selector_expression') return undefined;
  const pkg = fn.childForFieldName('operand');
  const member = fn.childForFieldName('field');
  return pkg?.type === 'identifier' && member && isFree(pkg.text) ? `${pkg.text}.${member.text}` : undefined;
}

/** The name a plain import binds: the path's last element without a major-version suffix (`…/yaml.v3`, `…/mod/v2`). */
export function importedPackageName(path: string): string | undefined {
  const parts = path.split('/');
  let last = parts.pop() ?? '';
  if (/^v[0-9]+$/.test(last) && parts.length > 0) last = parts.pop()!;
  last = last.replace(/\.v[0-9]+$/, '').replace(/^go-/, '').replace(/-go$/, '');
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(last) ? last : undefined;
}

function stringContent(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'interpreted_string_literal') return node.namedChildren.find((c) => c?.type === 'interpreted_string_literal_content')?.text ?? '';
  if (node.type === 'raw_string_literal') return node.text.slice(1, -1);
  return undefined;
}

/**
 * What a struct declared in the file holds: named fields with the named type each declares
 * (undefined for others: `int`, `[]T`, `func()`, a type parameter), and embedded fields by name
 * with their type.
 */
interface StructShape {
  readonly fields: Map<string, string | undefined>;
  readonly embedded: Map<string, string>;
}

/**
 * A struct's fields, for this file's receivers, and as `field` bindings of the struct (every
 * named field, with its named type or none; every embedded one, named by its type), for the
 * files whose methods and values reach the struct from elsewhere in the package (`s.db.Query()`
 * in a method whose struct is declared in another file): a field without a named type hides the
 * fields of that name its embedded structs promote.
 */
function structShape(struct: Node, typeParameters: ReadonlySet<string>, sink: ReferenceSink): StructShape {
  const shape: StructShape = { fields: new Map(), embedded: new Map() };
  const list = struct.namedChildren.find((c) => c?.type === 'field_declaration_list');
  for (const field of list?.namedChildren ?? []) {
    if (field?.type !== 'field_declaration') continue;
    const names = field.childrenForFieldName('name');
    const typeNode = field.childForFieldName('type');
    if (names.length > 0) {
      const declared = namedType(typeNode);
      const type = declared !== undefined && !typeParameters.has(declared) ? declared : undefined;
      // A container of declared element types (`items []*Item`), for `s.items[i]` and ranges
      // over `s.items` (never a type parameter's container).
      const held = type ?? (declared === undefined ? knownContainerType(typeNode, typeParameters) : undefined);
      for (const n of names) {
        if (!n) continue;
        shape.fields.set(n.text, type);
        sink.binding(n, { kind: 'field', name: n.text, ...(held !== undefined ? { module: held } : {}) });
      }
      continue;
    }
    const type = namedType(typeNode);
    if (!type || !typeNode) continue;
    const name = type.slice(type.lastIndexOf('.') + 1);
    shape.embedded.set(name, type);
    if (!typeParameters.has(type)) sink.binding(typeNode, { kind: 'field', name, module: type });
  }
  return shape;
}

/** A `// +build` line's expression in `//go:build` syntax: spaces are `||`, commas `&&`. */
function plusBuildExpression(line: string): string {
  const options = line.trim().split(/\s+/).map((option) => option.split(',').join(' && '));
  return options.length === 1 ? options[0]! : options.map((o) => `(${o})`).join(' || ');
}

/**
 * The file's build constraint (comments before the package clause) as a `build` binding: which
 * files of the package a build compiles with this one (src/graph/languages/go-build.ts). A
 * `//go:build` line, else the `// +build` lines of code older than Go 1.17 (each must hold).
 */
function buildConstraint(root: Node, sink: ReferenceSink): void {
  const plus: string[] = [];
  let first: Node | undefined;
  for (let n = root.firstNamedChild; n && n.type === 'comment'; n = n.nextNamedSibling) {
    const text = n.text;
    const goBuild = /^\/\/go:build\s+(\S.*)$/.exec(text);
    if (goBuild) {
      sink.binding(n, { kind: 'build', name: 'go:build', member: goBuild[1]!.trim() });
      return;
    }
    const plusBuild = /^\/\/\s*\+build\s+(\S.*)$/.exec(text);
    if (plusBuild) {
      first ??= n;
      plus.push(plusBuildExpression(plusBuild[1]!));
    }
  }
  if (first) sink.binding(first, { kind: 'build', name: 'go:build', member: plus.length === 1 ? plus[0]! : plus.map((p) => `(${p})`).join(' && ') });
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  buildConstraint(root, sink);
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  let packageName: string | undefined;
  /** Structs declared in this file, by name (a name declared twice, in two functions, is left out). */
  const structs = new Map<string, StructShape | null>();
  /** A method's scope → its receiver's type name. */
  const receiverTypes = new Map<number, string>();
  /** The type parameters of generic functions and of generic receivers (`func (l *List[T]) …`), with the function's range. */
  const typeParameterRanges: { readonly start: number; readonly end: number; readonly names: ReadonlySet<string> }[] = [];
  const isTypeParameter = (name: string, at: number): boolean => typeParameterRanges.some((r) => r.start <= at && at < r.end && r.names.has(name));
  /** The cases of type switches that name one type (`case *Foo:`), with their alias (`switch v := x.(type)`). */
  const switchCases: { readonly start: number; readonly end: number; readonly alias: string; readonly type: string }[] = [];
  /** The type a type switch's alias holds at `at`: its innermost case's, where that case names one type. */
  const caseType = (alias: string, at: number): string | undefined => {
    let found: (typeof switchCases)[number] | undefined;
    for (const c of switchCases) if (c.alias === alias && c.start <= at && at < c.end && (found === undefined || c.start > found.start)) found = c;
    return found?.type;
  };
  /** A name that, at `at`, can only mean a package-level or imported thing (not a local value). */
  const free = (at: number, name: string): boolean => scopes.lookup(at, name) === undefined;
  /** `xs[i]`, `m[k]` where xs, m are containers of declared element type: that type. */
  const indexedType = (value: Node, at: number): string | undefined => {
    if (value.type !== 'index_expression') return undefined;
    const base = value.childForFieldName('operand');
    return base?.type === 'identifier' ? indexedElement(scopes.lookup(at, base.text)?.binding.type?.name) : undefined;
  };
  /**
   * `s.items[i]`, `s.byName[k]` (an index of a field path from a value of declared type): the
   * path with an element part (`Type.items.[]`, see ELEMENT_PART); undefined for anything else.
   */
  const elementPath = (value: Node, at: number): string[] | undefined => {
    if (value.type !== 'index_expression') return undefined;
    const base = value.childForFieldName('operand');
    const path = base?.type === 'selector_expression' ? typedPath(base, at, 4) : base?.type === 'identifier' ? typedValue(base, at) : undefined;
    return path && [...path, ELEMENT_PART];
  };
  /** `hs` of a declared named type (`var hs Holes`, not a container written out): the type's path. */
  const typedValue = (name: Node, at: number): string[] | undefined => {
    const owner = valueType(name, at);
    if (owner === undefined || isTypeParameter(owner, at) || !free(at, owner.split('.')[0]!)) return undefined;
    return owner.split('.');
  };
  /** The named type a receiver or a value of declared type has (`s` in a method of S, `var x pkg.T`, a parameter `c *Catalog`). */
  const valueType = (operand: Node, at: number): string | undefined => {
    const found = scopes.lookup(at, operand.text);
    if (!found) return undefined;
    const type = found.binding.type;
    if (found.binding.kind === 'self') return receiverTypes.get(found.scope);
    if (type?.name === SWITCH_ALIAS) return caseType(operand.text, at);
    // A value read from a path: chains on it continue the path (`Type.f` then `.g`).
    if (type?.name.startsWith(PATH) === true) return type.name.slice(PATH.length).split('|').join('.');
    // `x := s.Get()`, `v := reflect.ValueOf(i)`: chains on x read what Get declares it returns.
    if (type?.constructed === true) return `${type.name}.${RESULT_PART}`;
    return type?.name.startsWith('\u0000') === true ? undefined : type?.name;
  };
  /**
   * `x.f.g` (a selector chain of at most `max` names after a name `x` of declared type): the
   * chain read as a path from x's type (`Type.f.g`), each field in its struct's declaration;
   * a call on the way reads what the method or function declares it returns (`x.f().g` →
   * `Type.f.().g`, `F().g` → `F.().g`, see RESULT_PART); a value made in place heads it with its
   * type (`new(T).f` → `T.f`). Undefined for anything else (an index, a call of a local's value,
   * a type parameter, a package name at its head).
   */
  const typedPath = (selector: Node, at: number, max: number): string[] | undefined => {
    const names: string[] = [];
    // Names read (calls on the way are not counted: each follows a name).
    let read = 0;
    let n: Node | null = selector;
    let made: string | undefined;
    while (read <= max && n) {
      // `new(T).f`, `(&T{}).f`, `v.(*T).f`: the type the value is made as heads the path.
      made = n.type === 'identifier' || n.type === 'selector_expression' ? undefined : madeType(n, (name) => free(at, name));
      if (made !== undefined) break;
      if (n.type === 'call_expression') {
        const fn = n.childForFieldName('function');
        if (fn?.type !== 'selector_expression' && fn?.type !== 'identifier') return undefined;
        names.unshift(RESULT_PART);
        n = fn;
        continue;
      }
      if (n.type !== 'selector_expression') break;
      const name = n.childForFieldName('field');
      if (!name) return undefined;
      names.unshift(name.text);
      read++;
      n = n.childForFieldName('operand');
    }
    if (read > max) return undefined;
    if (made !== undefined) return isTypeParameter(made, at) || !free(at, made.split('.')[0]!) ? undefined : [...made.split('.'), ...names];
    if (n?.type !== 'identifier') return undefined;
    // `F().g`, `pkg.F().g`: a function of the package or of an imported one, what it returns (a
    // call of a local's value is not followed).
    if (names[0] === RESULT_PART || (names[1] === RESULT_PART && free(at, n.text))) {
      return free(at, n.text) && !isTypeParameter(n.text, at) ? [n.text, ...names] : undefined;
    }
    const owner = valueType(n, at);
    if (owner === undefined || isTypeParameter(owner, at) || !free(at, owner.split('.')[0]!)) return undefined;
    return [...owner.split('.'), ...names];
  };

  /** The type a local or parameter holds at `at` (a receiver's: its struct), or undefined. */
  const copiedType = (value: Node, at: number): ScopeBinding['type'] => {
    const found = scopes.lookup(at, value.text);
    if (found?.binding.kind === 'self') {
      const type = receiverTypes.get(found.scope);
      return type === undefined ? undefined : { name: type };
    }
    return found?.binding.type?.name === SWITCH_ALIAS ? undefined : found?.binding.type;
  };

  /**
   * The path a value is read from, as a receiver's: `s.f`, `&s.f`, `s.f.g` where s is of declared
   * type (`Type.f`), and free names (`Var`, `pkg.Var`, `pkg.Var.f`); undefined for anything else.
   */
  const valuePath = (value: Node, at: number): string[] | undefined => {
    const v = addressed(value);
    if (v?.type === 'identifier') return free(at, v.text) && !isTypeParameter(v.text, at) ? [v.text] : undefined;
    if (v?.type !== 'selector_expression') return undefined;
    const names: string[] = [];
    let n: Node | null = v;
    while (n?.type === 'selector_expression' && names.length <= 4) {
      const name = n.childForFieldName('field');
      if (!name) return undefined;
      names.unshift(name.text);
      n = n.childForFieldName('operand');
    }
    if (n?.type !== 'identifier' || names.length > 4) return undefined;
    return free(at, n.text) ? [n.text, ...names] : typedPath(v, at, 4);
  };

  /**
   * The method a call names on a receiver or a value of declared type, or on fields of it
   * (`s.Get()` → `Store.Get`, `s.db.Get()` → `Store.db.Get`, read as a path from the type where
   * the result is used): what it declares it returns first types the value it makes.
   */
  const calledMethod = (value: Node | null | undefined, at: number): string | undefined => {
    if (value?.type !== 'call_expression') return undefined;
    const fn = value.childForFieldName('function');
    if (fn?.type !== 'selector_expression') return undefined;
    // Also `new(big.Int).SetBytes(b)`, `(&Point{}).Add(p, q)`: a method of the type the value is made as.
    return typedPath(fn, at, 4)?.join('.');
  };

  const bindParameters = (scope: number, list: Node | null | undefined): void => {
    for (const p of list?.namedChildren ?? []) {
      if (!p || !PARAMETERS.has(p.type)) continue;
      const declared = p.childForFieldName('type');
      // A variadic parameter (`xs ...T`) is a slice of its type.
      const element = p.type === 'parameter_declaration' ? undefined : namedType(declared);
      const type = p.type === 'parameter_declaration' ? (namedType(declared) ?? containerType(declared)) : element && `${CONTAINER_TYPE}slice||${element}`;
      for (const c of p.namedChildren) {
        if (c?.type === 'identifier') scopes.bind(scope, c.text, { kind: 'parameter', ...(type ? { type: { name: type } } : {}) });
      }
    }
  };

  // Pass 1: scopes and what each binds.
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k]!;
    const type = types[k]!;
    if (FUNCTIONS.has(type)) {
      const scope = scopes.open(node, 'function');
      bindParameters(scope, node.childForFieldName('parameters'));
      const result = node.childForFieldName('result');
      if (result?.type === 'parameter_list') bindParameters(scope, result);
      if (type === 'method_declaration') {
        const receiver = node.childForFieldName('receiver')?.namedChildren.find((c) => c?.type === 'parameter_declaration');
        const name = receiver?.childForFieldName('name');
        if (name?.type === 'identifier' && name.text !== '_') scopes.setSelf(scope, name.text);
        const receiverType = namedType(receiver?.childForFieldName('type'));
        if (receiverType !== undefined && !receiverType.includes('.')) receiverTypes.set(scope, receiverType);
        const generic = receiverTypeArguments(receiver?.childForFieldName('type'));
        if (generic.size > 0) typeParameterRanges.push({ start: node.startIndex, end: node.endIndex, names: generic });
        // A method's first result too (`x := s.Get()` then `x.M()`), unless the receiver's type parameter.
        declareResult(node, result, sink, generic);
      }
      if (type === 'function_declaration') {
        const names = typeParameterNames(node);
        if (names.size > 0) typeParameterRanges.push({ start: node.startIndex, end: node.endIndex, names });
      }
      if (type !== 'func_literal') flagFunction(node, sink, packageName);
      if (type === 'function_declaration') declareResult(node, result, sink);
      continue;
    }
    if (type === 'package_clause') {
      packageName = node.namedChildren[0]?.text;
      if (packageName) sink.setPackage(packageName);
      continue;
    }
    if (type === 'type_spec') {
      const name = node.childForFieldName('name')?.text;
      const body = node.childForFieldName('type');
      // A package-level type is exported as a function is: by a capital letter (not one declared in a function).
      if (name !== undefined && /^\p{Lu}/u.test(name) && node.parent?.parent?.type === 'source_file') sink.flag(node, 'exported');
      if (name && body?.type === 'struct_type') {
        // `type List[T any] struct { head *T }`: T is no type of the package.
        structs.set(name, structs.has(name) ? null : structShape(body, typeParameterNames(node), sink));
      } else if (body?.type === 'interface_type') {
        // An interface's methods declare what they return first too (`Mode() FileMode`): `m :=
        // fi.Mode()` on an `fs.FileInfo` types m (never the interface's type parameter).
        const typeParameters = typeParameterNames(node);
        for (const elem of body.namedChildren) if (elem?.type === 'method_elem') declareResult(elem, elem.childForFieldName('result'), sink, typeParameters);
      } else if (body) {
        // `type Holes []Hole`: what indexing and ranging over a value of the type give, as a
        // field named `[]` of the type (never a type parameter's container).
        const container = knownContainerType(body, typeParameterNames(node));
        if (container !== undefined) sink.binding(body, { kind: 'field', name: ELEMENT_PART, module: container });
      }
      continue;
    }
    if (type === 'type_alias') {
      // A package-level `type A = B` names A in the package as a class does: where some build
      // declares A as a type of its own and another as an alias, neither is the only answer.
      const name = node.childForFieldName('name');
      if (name && scopes.enclosingFunction(node.startIndex, (k) => k === 'function') < 0) {
        const target = node.childForFieldName('type');
        sink.binding(name, { kind: 'alias', name: name.text, ...(target ? { module: namedType(target) ?? target.text } : {}) });
      }
      continue;
    }
    if (!BINDERS.has(type)) continue;
    const scope = scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
    const free = (name: string): boolean => scopes.lookup(node.startIndex, name) === undefined;
    switch (type) {
      case 'short_var_declaration':
      case 'var_spec':
      case 'const_spec': {
        const names = type === 'short_var_declaration' ? identifiers(node.childForFieldName('left')) : node.childrenForFieldName('name').filter((c): c is Node => c?.type === 'identifier');
        const valueNode = node.childForFieldName(type === 'short_var_declaration' ? 'right' : 'value');
        const values = valueNode?.type === 'expression_list' ? valueNode.namedChildren : valueNode ? [valueNode] : [];
        const declaredNode = type === 'short_var_declaration' ? undefined : node.childForFieldName('type');
        const declared = declaredNode ? (namedType(declaredNode) ?? containerType(declaredNode)) : undefined;
        names.forEach((name, i) => {
          if (name.text === '_') return;
          // `x, y := a, b` pairs values with names; `x := f()` and `x, err := f()` give x what f
          // returns first (read from f's declaration when the site is resolved).
          // `x, ok := v.(Foo)` and `x, ok := m[k]`: the first name holds the asserted type, the map's value.
          const single = i === 0 && names.length === 2 && values.length === 1 && (values[0]?.type === 'type_assertion_expression' || values[0]?.type === 'index_expression');
          const value = values.length === names.length || single ? values[i] : undefined;
          const made = declared ?? (value ? (madeType(value, free) ?? containerMade(value, free) ?? indexedType(value, node.startIndex)) : undefined);
          const called = made === undefined && i === 0 && values.length === 1 ? (calledFunction(values[0], free) ?? calledMethod(values[0], node.startIndex)) : undefined;
          // `x := s.f`, `p := &s.f`, `v := Var`, `v := pkg.Var`: what the path there holds.
          const read = made === undefined && called === undefined && value && scope >= 0 ? (valuePath(value, node.startIndex) ?? elementPath(value, node.startIndex)) : undefined;
          const typeName = made ?? (read !== undefined ? `${PATH}${read.join('|')}` : undefined);
          // `x := y` where y holds a known type: x holds it too (y as bound where it is read).
          const copied = typeName === undefined && called === undefined && value?.type === 'identifier' && scope >= 0 ? copiedType(value, node.startIndex) : undefined;
          const binding: ScopeBinding = { kind: 'local', ...(typeName ? { type: { name: typeName } } : called ? { type: { name: called, constructed: true } } : copied ? { type: copied } : {}) };
          if (scope >= 0) scopes.bind(scope, name.text, binding);
          // A package-level value of a named type (`var userMap sync.Map`, `var std = New()` is not
          // one) says it: `userMap.Store()` is a call of that type's method.
          else sink.binding(name, { kind: 'assign', name: name.text, ...(made !== undefined && !made.startsWith('\u0000') ? { module: made } : {}) });
        });
        break;
      }
      case 'range_clause': {
        // `for i, v := range xs` over a container of declared element type: v is of that type.
        const right = node.childForFieldName('right');
        const shape = right?.type === 'identifier' ? containerOf(scopes.lookup(node.startIndex, right.text)?.binding.type?.name) : undefined;
        const ranged: (string | undefined)[] = shape ? [...rangedTypes(shape)] : [];
        const left = identifiers(node.childForFieldName('left'));
        // `for _, it := range s.items`: a field's container, declared where its struct is; the
        // second name is an element of a slice, an array or a map (a channel gives one name).
        if (!shape && left.length === 2 && (right?.type === 'selector_expression' || right?.type === 'identifier')) {
          const path = right.type === 'identifier' ? typedValue(right, node.startIndex) : typedPath(right, node.startIndex, 4);
          if (path) ranged[1] = `${PATH}${[...path, ELEMENT_PART].join('|')}`;
        }
        left.forEach((name, i) => {
          const t = ranged[i];
          if (scope >= 0) scopes.bind(scope, name.text, t ? { kind: 'local', type: { name: t } } : { kind: 'local' });
        });
        break;
      }
      case 'type_switch_statement': {
        const aliases = identifiers(node.childForFieldName('alias'));
        if (aliases.length !== 1 || scope < 0) break;
        const alias = aliases[0]!.text;
        // In a case of one type, the alias holds that type (`case *Foo:`); elsewhere (several
        // types, `nil`, `default`) the switched value's, which the file does not declare.
        scopes.bind(scope, alias, { kind: 'local', type: { name: SWITCH_ALIAS } });
        for (const clause of node.namedChildren) {
          if (clause?.type !== 'type_case') continue;
          const listed = clause.childrenForFieldName('type');
          const type = listed.length === 1 ? namedType(listed[0]) : undefined;
          if (type !== undefined) switchCases.push({ start: clause.startIndex, end: clause.endIndex, alias, type });
        }
        break;
      }
      case 'receive_statement':
        for (const name of identifiers(node.childForFieldName('left'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      case 'import_spec': {
        const pathNode = node.childForFieldName('path');
        const path = stringContent(pathNode);
        if (!pathNode || !path) break;
        sink.site(pathNode, { kind: 'import', name: path });
        const alias = node.childForFieldName('name');
        if (alias?.type === 'dot') sink.binding(alias, { kind: 'star', name: '*', module: path });
        else if (alias?.type === 'package_identifier') sink.binding(alias, { kind: 'module', name: alias.text, module: path });
        else if (!alias) {
          const name = importedPackageName(path);
          if (name) sink.binding(pathNode, { kind: 'module', name, module: path });
        }
        break;
      }
    }
  }

  // Pass 2: sites.
  /** A type's name, unless a scope binds its head or it is a type parameter of the functions around `at` (`func f[T any](x T)`: T is no type of the package). */
  const namesType = (type: string, at: number): boolean => {
    const head = type.split('.')[0]!;
    return free(at, head) && !isTypeParameter(head, at);
  };
  const typeReceiver = (type: string, at: number): ReceiverFact | 'dynamic' => (namesType(type, at) ? { kind: 'type', type } : 'dynamic');
  /** The struct of this file a receiver or typed value names (`s` in a method of S, `var x S`). */
  const structOf = (operand: Node, at: number): StructShape | undefined => {
    if (operand.type !== 'identifier') return undefined;
    const name = valueType(operand, at);
    return name === undefined || name.includes('.') ? undefined : (structs.get(name) ?? undefined);
  };
  /** `x.f.M()`, `x.f.g.M()`: the fields' declared types (see typedPath). */
  const fieldChain = (operand: Node, at: number): ReceiverFact | 'dynamic' => {
    const path = typedPath(operand, at, 4);
    return path ? { kind: 'path', path } : 'dynamic';
  };
  const receiverOf = (operand: Node, at: number): ReceiverFact | 'dynamic' => {
    if (operand.type === 'identifier') {
      const found = scopes.lookup(at, operand.text);
      if (found === undefined) return { kind: 'path', path: [operand.text] };
      if (found.binding.kind === 'self') return { kind: 'self' };
      const t = found.binding.type;
      if (t?.name === SWITCH_ALIAS) {
        const type = caseType(operand.text, at);
        return type === undefined ? 'dynamic' : typeReceiver(type, at);
      }
      if (t?.name.startsWith(PATH) === true) return { kind: 'path', path: t.name.slice(PATH.length).split('|') };
      if (t?.name.startsWith('\u0000') === true) return 'dynamic';
      if (t?.constructed === true) return namesType(t.name, at) ? { kind: 'type', type: t.name, constructed: true } : 'dynamic';
      return t ? typeReceiver(t.name, at) : 'dynamic';
    }
    if (operand.type === 'selector_expression') {
      // `pkg.Var.M()` / `pkg.Type.M()`: a path of free names; `s.field.M()` is of unknown type
      // unless s is a struct of this file whose field declares a named type (`c.in.setKey()`)
      // or embeds one (`p.Model.Describe()`).
      const head = operand.childForFieldName('operand');
      const field = operand.childForFieldName('field');
      if (head?.type === 'identifier' && field && free(at, head.text)) return { kind: 'path', path: [head.text, field.text] };
      if (head?.type === 'selector_expression') return fieldChain(operand, at);
      const shape = head && field ? structOf(head, at) : undefined;
      const declared = shape?.embedded.get(field!.text) ?? shape?.fields.get(field!.text);
      if (declared !== undefined) return typeReceiver(declared, at);
      // A struct declared in another file of the package (or a field its embedded structs
      // promote): the field is looked up in the struct's declaration, `Type.field` read as a
      // path from the type (a field of this file's struct without a named type stays unknown).
      return field && shape?.fields.has(field.text) === true ? 'dynamic' : fieldChain(operand, at);
    }
    const made = madeType(operand, (name) => free(at, name)) ?? indexedType(operand, at);
    if (made) return typeReceiver(made, at);
    // `s.items[i].M()`: an element of a field of declared container type, read where the struct is declared.
    const element = elementPath(operand, at);
    if (element !== undefined) return { kind: 'path', path: element };
    // `c.First().Name()`, `store.Open(…).Close()`: what the method or function declares it returns first.
    const called = calledMethod(operand, at) ?? calledFunction(operand, (name) => free(at, name));
    if (called !== undefined) return namesType(called, at) ? { kind: 'type', type: called, constructed: true } : 'dynamic';
    return 'dynamic';
  };

  const use = (kind: 'call' | 'reference', target: Node): void => {
    const at = target.startIndex;
    if (target.type === 'identifier') {
      const b = scopes.lookup(at, target.text)?.binding.kind;
      if (b === 'parameter' || b === 'local' || b === 'self') {
        if (kind === 'call') sink.site(target, { kind, name: target.text, fixed: b === 'local' ? 'local-variable' : 'parameter' });
        return;
      }
      // `T(v)` in `func f[T any]`: a conversion to the type parameter, never to a type of the package.
      if (b === undefined && isTypeParameter(target.text, at)) {
        if (kind === 'call') sink.site(target, { kind, name: target.text, fixed: 'parameter' });
        return;
      }
      sink.site(target, { kind, name: target.text });
      return;
    }
    if (target.type === 'selector_expression') {
      const field = target.childForFieldName('field');
      const operand = target.childForFieldName('operand');
      if (!field || !operand) return;
      const receiver = receiverOf(operand, at);
      // `c.onAdd()` where onAdd is a field of c's struct: a call of a function value.
      if (structOf(operand, at)?.fields.has(field.text) === true) {
        if (kind === 'call') sink.site(field, { kind, name: field.text, fixed: 'dynamic' });
        return;
      }
      if (receiver === 'dynamic') {
        // A method value too (`sort.Slice(xs, h.less)`): nothing resolves it, but dead code must
        // know some method of that name may be used.
        sink.site(field, { kind, name: field.text, fixed: 'dynamic' });
        return;
      }
      sink.site(field, { kind, name: field.text, receiver });
      return;
    }
    if (target.type === 'qualified_type') {
      // `pkg.F[int](x)` parses as a conversion to a generic type.
      const pkg = target.childForFieldName('package');
      const name = target.childForFieldName('name');
      if (pkg && name && free(at, pkg.text)) sink.site(name, { kind, name: name.text, receiver: { kind: 'path', path: [pkg.text] } });
      else if (name && kind === 'call') sink.site(name, { kind, name: name.text, fixed: 'dynamic' });
      return;
    }
    if (target.type === 'type_identifier') {
      // `F[int](x)`: a generic function called with type arguments (or a generic type converted to).
      if (free(at, target.text)) sink.site(target, { kind, name: target.text });
    }
  };

  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k]!;
    const type = types[k]!;
    if (type === 'call_expression') {
      const fn = node.childForFieldName('function');
      if (fn) use('call', fn);
    } else if (type === 'type_conversion_expression') {
      const t = node.childForFieldName('type');
      if (t?.type === 'generic_type') {
        const head = t.childForFieldName('type');
        if (head) use('call', head);
      }
    } else if (type === 'type_spec') {
      const body = node.childForFieldName('type');
      if (body?.type === 'struct_type') {
        const list = body.namedChildren.find((c) => c?.type === 'field_declaration_list');
        for (const field of list?.namedChildren ?? []) {
          // An embedded field has a type and no name: its fields and methods are promoted.
          if (field?.type !== 'field_declaration' || field.childForFieldName('name')) continue;
          base(field.childForFieldName('type'));
        }
      } else if (body?.type === 'interface_type') {
        for (const elem of body.namedChildren) {
          // An embedded interface is one type; a union or `~T` term is a type set, no base.
          if (elem?.type === 'type_elem' && elem.namedChildren.length === 1) base(elem.namedChildren[0]);
        }
      }
    } else if (VALUE_PARENTS.has(type)) {
      let values: (Node | null)[] = [];
      if (type === 'argument_list') values = node.namedChildren;
      else values = [node.childForFieldName('value')?.namedChildren[0] ?? null];
      for (const v of values) if (v && (v.type === 'identifier' || v.type === 'selector_expression')) use('reference', v);
    }
  }

  function base(typeNode: Node | null | undefined): void {
    let t = typeNode;
    if (t?.type === 'pointer_type') t = t.namedChildren[0] ?? null;
    if (t?.type === 'generic_type') t = t.childForFieldName('type');
    if (t?.type === 'type_identifier') sink.site(t, { kind: 'inherits', name: t.text });
    else if (t?.type === 'qualified_type') {
      const pkg = t.childForFieldName('package');
      const name = t.childForFieldName('name');
      if (pkg && name) sink.site(name, { kind: 'inherits', name: name.text, receiver: { kind: 'path', path: [pkg.text] } });
    }
  }
}

/** Flags of a function or method: exported (capitalised), entry points (`main`, `init`), tests. */
function flagFunction(node: Node, sink: ReferenceSink, packageName: string | undefined): void {
  const name = node.childForFieldName('name')?.text;
  if (!name) return;
  if (/^\p{Lu}/u.test(name)) sink.flag(node, 'exported');
  if (node.type !== 'function_declaration') return;
  if (name === 'init' || (name === 'main' && packageName === 'main')) sink.flag(node, 'entry');
  if (/^(Test|Benchmark|Fuzz)([^\p{Ll}]|$)/u.test(name)) {
    const params = node.childForFieldName('parameters')?.namedChildren.filter((c) => c?.type === 'parameter_declaration') ?? [];
    const t = params[0]?.childForFieldName('type')?.text.replace(/\s+/g, '');
    if (params.length === 1 && t !== undefined && TEST_PARAMETER.test(t)) sink.flag(node, 'test');
  } else if (/^Example([^\p{Ll}]|$)/u.test(name) && (node.childForFieldName('parameters')?.namedChildren.length ?? 0) === 0) {
    sink.flag(node, 'test');
  }
}

/**
 * The Go reference visitor: calls (receiver, typed and package-qualified), imports, embedded
 * types as bases, functions used as values, package name and flags.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...go, references: goReferences };
 * ```
 */
export const goReferences = visit;
