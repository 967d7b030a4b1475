import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet, writtenBase, writtenDecorator } from '../common.js';
import { bindingRange, expressionDefinition } from '../ecmascript.js';
import { LexicalScopes } from './scopes.js';
import { AWAIT_PART, RESULT_PART } from '../../graph/container-types.js';
import { StoredMembers } from './stored-members.js';
import { declaredPrivate } from './typed-scopes.js';

// JavaScript, TypeScript and TSX (one grammar family): calls, `new`, `this`/`super`, typed
// receivers, ES imports/exports, CommonJS `require`/`module.exports`, bases, value uses.
//
// Names are bound as the language scopes them: `var` and parameters per function; `const`,
// `let`, classes and functions declared in a block per block (a function declared in a block is
// also an unknown value in its function, as sloppy-mode scripts hoist it); type parameters per
// generic. Flow-insensitively: a name declared anywhere in a scope is that scope's for all of it,
// and a name assigned anywhere (`x = …`) is a value nothing declares (a reassigned `let` that held
// a function, a local constructed as one class then assigned another). A plain name no enclosing
// function or block binds is a module name (SiteFact.moduleScope): a function stored in an
// object literal or a property is no name in scope. `this` is the class only directly in a
// class's methods and field initialisers, and in arrow functions there (not in `function`
// expressions, which have their own `this`). What a method stores on `this` (`this.x = …`, other
// than the method bound again) is reported as the class's `field` binding (it may hide a method
// x); a method stored over on a local's value (`h.x = stub`) makes `h.x()` in that scope a call of
// a value.

const FUNCTIONS = typeSet('function_declaration', 'generator_function_declaration', 'function_expression', 'function', 'generator_function', 'arrow_function', 'method_definition');
/** Functions written as expressions: a name they have is theirs alone (not their scope's). */
const FUNCTION_EXPRESSIONS = typeSet('function_expression', 'function', 'generator_function');
const CLASSES = typeSet('class_declaration', 'abstract_class_declaration', 'class');
const NAMESPACES = typeSet('internal_module', 'module');
const BINDERS = typeSet('variable_declarator', 'for_in_statement', 'catch_clause', 'import_statement', 'export_statement', 'assignment_expression');
const VALUE_PARENTS = typeSet('arguments', 'return_statement', 'array', 'pair', 'jsx_expression', 'spread_element');
const SEARCHED = [
  ...FUNCTIONS,
  ...CLASSES,
  ...NAMESPACES,
  ...BINDERS,
  ...VALUE_PARENTS,
  'statement_block',
  'variable_declaration',
  'call_expression',
  'new_expression',
  'field_definition',
  'public_field_definition',
  'interface_declaration',
  'object',
  'shorthand_property_identifier',
  'decorator',
];
/**
 * Whether a class member is declared `static`. The resolver reads staticness from the class's
 * summaries; the flag makes a change of it a change of the definition, which re-resolves the
 * calls other files make of it.
 */
/** Whether a declarator is a `const`'s (its value is bound once and for all). */
function declaredConst(declarator: Node): boolean {
  const declaration = declarator.parent;
  return declaration?.type === 'lexical_declaration' && declaration.children.some((c) => c?.type === 'const');
}

/** Whether a declarator's declaration is exported (`export const a = 1, b = 2`). */
function exportedDeclaration(declarator: Node): boolean {
  return declarator.parent?.parent?.type === 'export_statement';
}

/**
 * The classes a TypeScript class's own instance fields are declared of: `store: Store;`,
 * `private readonly api?: Api = …`, `#cache: Cache`, and the constructor's parameter properties
 * (`constructor(private db: Db)`). Not static fields, not a type parameter of the class, and a
 * name declared twice is no field here.
 */
function instanceFieldTypes(body: Node | null, typeParameters: readonly string[]): Map<string, FieldDeclaration> | undefined {
  let fields: Map<string, FieldDeclaration> | undefined;
  const twice = new Set<string>();
  const add = (name: Node, type: string | undefined, member: Node, getter = false): void => {
    if (type === undefined || typeParameters.includes(type.split('.')[0]!)) return;
    fields ??= new Map();
    const text = name.text;
    if (fields.has(text)) twice.add(text);
    const hidden = name.type === 'private_property_identifier' || member.children.some((c) => c?.type === 'accessibility_modifier' && c.text === 'private');
    fields.set(text, { type, private: hidden, getter });
  };
  for (const member of body?.namedChildren ?? []) {
    const type = member?.type;
    // A field's declared type; a getter's (`get store(): Store`) is its result's.
    const getter = type === 'method_definition' && isGetter(member!);
    if (type === 'public_field_definition' || getter) {
      const name = member!.childForFieldName('name');
      const nameType = name?.type;
      if ((nameType === 'property_identifier' || nameType === 'private_property_identifier') && !isStaticMember(member!)) add(name!, annotatedClass(member!.childForFieldName(getter ? 'return_type' : 'type')), member!, getter);
    } else if (type === 'method_definition' && member!.childForFieldName('name')?.text === 'constructor') {
      for (const p of member!.childForFieldName('parameters')?.namedChildren ?? []) {
        if (p?.type !== 'required_parameter' && p?.type !== 'optional_parameter') continue;
        if (!p.children.some((c) => c?.type === 'accessibility_modifier' || c?.type === 'readonly' || c?.type === 'override_modifier')) continue;
        const pattern = p.childForFieldName('pattern');
        if (pattern?.type === 'identifier') add(pattern, annotatedClass(p.childForFieldName('type')), p);
      }
    }
  }
  for (const name of twice) fields!.delete(name);
  return fields;
}

/** A TypeScript class's own instance field (or getter) of a declared class: see instanceFieldTypes. */
interface FieldDeclaration {
  readonly type: string;
  /** `private x`, `#x`: not seen in subclasses. */
  readonly private: boolean;
  /** A `get` accessor (a method), not a field. */
  readonly getter: boolean;
}

/** Whether a method definition is a `get` accessor. */
function isGetter(method: Node): boolean {
  // The modifiers come before the name: read children up to it only.
  for (let i = 0; i < method.childCount; i++) {
    const type = method.child(i)?.type;
    if (type === 'get') return true;
    if (type === 'property_identifier' || type === 'private_property_identifier' || type === 'computed_property_name') return false;
  }
  return false;
}

function isStaticMember(member: Node): boolean {
  for (const child of member.children) if (child?.type === 'static') return true;
  return false;
}

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

/**
 * A function or class literal itself (not a call that takes one): the value the definitions
 * visitor indexes as a definition when it is stored under a name or a property.
 */
function functionLiteral(value: Node | null | undefined): boolean {
  const type = value?.type;
  return type !== undefined && FUNCTION_VALUES.has(type);
}

/** The names a generic declares (`<T, K extends keyof T>`): types, not values of the codebase. */
function typeParameterNames(node: Node): string[] {
  const params = node.childForFieldName('type_parameters');
  if (!params) return [];
  const names: string[] = [];
  for (const p of params.namedChildren) {
    if (p?.type !== 'type_parameter') continue;
    const name = p.childForFieldName('name');
    if (name) names.push(name.text);
  }
  return names;
}

/** `a.b.c` of plain identifiers → [a, b, c]; undefined for anything else. */
function memberPath(node: Node | null | undefined): string[] | undefined {
  const parts: string[] = [];
  let n = node;
  // Each `type` read crosses into wasm: read it once.
  let type = n?.type;
  while (n && type === 'member_expression') {
    const prop = n.childForFieldName('property');
    const propType = prop?.type;
    if (!prop || (propType !== 'property_identifier' && propType !== 'private_property_identifier')) return undefined;
    parts.push(prop.text);
    n = n.childForFieldName('object');
    type = n?.type;
  }
  if (!n || type !== 'identifier') return undefined;
  parts.push(n.text);
  return parts.reverse();
}

/** The class a type annotation names (`Foo`, `ns.Foo`, `Foo<T>`, `Foo | null`), else undefined. */
function annotatedClass(annotation: Node | null | undefined): string | undefined {
  let n = annotation?.type === 'type_annotation' ? annotation.namedChildren[0] : annotation;
  if (!n) return undefined;
  if (n.type === 'generic_type') {
    const { head, args } = genericParts(n);
    // `Required<Pick<FileSystem, 'lstatSync'>>`: FileSystem's members, or some of them.
    if (head?.type === 'type_identifier' && MEMBERS_OF_FIRST.has(head.text)) return annotatedClass(args[0]);
    n = head;
  }
  if (!n) return undefined;
  if (n.type === 'type_identifier' || n.type === 'identifier') return n.text;
  if (n.type === 'nested_type_identifier') return n.text.replace(/\s+/g, '');
  if (n.type === 'union_type') {
    const parts = n.namedChildren.filter((c): c is Node => c !== null && !(c.type === 'literal_type' && /^(null|undefined)$/.test(c.text)) && c.text !== 'undefined' && c.text !== 'null');
    return parts.length === 1 ? annotatedClass(parts[0]) : undefined;
  }
  return undefined;
}

/** A generic type's name and type arguments (`Promise<Store>` → `Promise`, [`Store`]). */
function genericParts(generic: Node): { readonly head: Node | null; readonly args: Node[] } {
  const head = generic.childForFieldName('name') ?? generic.namedChildren[0] ?? null;
  const list = generic.childForFieldName('type_arguments') ?? generic.namedChildren.find((c) => c?.type === 'type_arguments');
  return { head, args: list?.namedChildren.filter((c): c is Node => c !== null) ?? [] };
}

/** What a `Promise<T>` (or `PromiseLike<T>`) type promises: `T`'s node, else undefined. */
function promisedType(written: Node | null | undefined): Node | undefined {
  if (written?.type !== 'generic_type') return undefined;
  const { head, args } = genericParts(written);
  if (head?.type !== 'type_identifier' || !PROMISES.has(head.text)) return undefined;
  return args.length === 1 ? args[0] : undefined;
}

const PROMISES: ReadonlySet<string> = new Set(['Promise', 'PromiseLike']);

/** TypeScript's utility types whose members are (some of) their first argument's. */
const MEMBERS_OF_FIRST: ReadonlySet<string> = new Set(['Partial', 'Required', 'Readonly', 'NonNullable', 'Pick', 'Omit']);

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
  let type = v?.type;
  while (v && (type === 'as_expression' || type === 'satisfies_expression' || type === 'parenthesized_expression')) {
    v = v.namedChildren[0] ?? null;
    type = v?.type;
  }
  if (!v || type === undefined) return false;
  if (FUNCTION_VALUES.has(type)) return true;
  if (type === 'call_expression') return (v.childForFieldName('arguments')?.namedChildren ?? []).some((a) => a !== null && FUNCTION_VALUES.has(a.type));
  return false;
}

/** `o.name` or `o.name.bind(…)` (`o` an identifier, or `this`): the method `name` of o itself, as a value. */
function rebinds(value: Node | null | undefined, object: string, name: string): boolean {
  let v = value;
  if (v?.type === 'call_expression') {
    const fn = v.childForFieldName('function');
    if (fn?.type !== 'member_expression' || fn.childForFieldName('property')?.text !== 'bind') return false;
    v = fn.childForFieldName('object');
  }
  if (v?.type !== 'member_expression' || v.childForFieldName('property')?.text !== name) return false;
  const o = v.childForFieldName('object');
  return o !== null && (object === 'this' ? o.type === 'this' : o.type === 'identifier' && o.text === object);
}

/**
 * The names and member accesses an expression may evaluate to, through parentheses, `a || b`,
 * `a ?? b`, `a && b` and `c ? a : b` (`handler || defaultHandler` uses both functions).
 */
function valueOperands(value: Node | null | undefined, out: Node[] = []): Node[] {
  if (!value) return out;
  const type = value.type;
  if (type === 'identifier' || type === 'member_expression') out.push(value);
  else if (type === 'parenthesized_expression') valueOperands(value.namedChildren[0], out);
  else if (type === 'binary_expression') {
    const op = value.childForFieldName('operator')?.type;
    if (op === '||' || op === '??' || op === '&&') {
      valueOperands(value.childForFieldName('left'), out);
      valueOperands(value.childForFieldName('right'), out);
    }
  } else if (type === 'ternary_expression') {
    valueOperands(value.childForFieldName('consequence'), out);
    valueOperands(value.childForFieldName('alternative'), out);
  }
  return out;
}

/**
 * The provisional type of a function's local holding a call's result or another value
 * (`const s = repo.find()`, `const s = await this.repo.find()`, `const repo = this.repo`,
 * `const self = this`), followed by the value's offset: the value is read as a
 * receiver once every binding of the file is known (EcmascriptReferencePass.#valueOfLocal), so
 * `repo`'s type, declared after or around, counts. Another value assigned to the name unties it.
 */
const VALUE_MARK = '\u0000value';
/** Values a function's local may hold whose type is read late (VALUE_MARK): what they are as receivers. */
const LATE_TYPED_VALUES = typeSet('call_expression', 'await_expression', 'parenthesized_expression', 'member_expression', 'identifier', 'this');

const isFunctionScope = (kind: string): boolean => kind === 'function';
const isFunctionOrClassScope = (kind: string): boolean => kind === 'function' || kind === 'class';

/**
 * One file's reference pass: pass 1 opens scopes and records bindings, pass 2 reports sites.
 * Each node kind has a method of its own, and each node's type is read once (a read crosses
 * into wasm): V8 optimises small methods cheaply, where one function holding every case cost
 * the parse workers more compilation than the pass itself.
 */
class EcmascriptReferencePass {
  readonly #sink: ReferenceSink;
  readonly #scopes = new LexicalScopes();
  /** Scope id → whether `this` there is the class (a method or field of a class, or an arrow inside one). */
  readonly #classThis = new Map<number, boolean>();
  /** Starts of the methods of object literals (`{ searching() {…} }`), noted in pass 1. */
  readonly #objectMethods = new Set<number>();
  /**
   * Variables a function is assigned to (`adapter = function (c) {…}`): that function is a
   * definition of the name, reached through the variable when it is passed on.
   */
  readonly #assignedFunctions = new Set<string>();
  /** Function scopes whose body block was met (the first block in a function is its body, no scope of its own). */
  readonly #bodies = new Set<number>();
  /** The `var` statement being read (its declarators bind in its function, not its block). */
  #varStatement: { readonly end: number; readonly fn: number } | undefined;
  /** Module-level names assigned somewhere (`hook = fn`) or hoisted out of a block: values nothing declares. */
  readonly #reassignedModuleNames = new Set<string>();
  /** Class scope → the classes its own instance fields are declared of (TypeScript; see instanceFieldTypes). */
  readonly #fieldTypes = new Map<number, Map<string, FieldDeclaration>>();
  /** Class scopes whose class has a base (`extends`): `this.x` there may be a base's field. */
  readonly #derivedClasses = new Set<number>();
  /** Scopes of static methods, whose `this` is the class, not an instance. */
  readonly #staticMethods = new Set<number>();
  /** Class scopes' name nodes (where a class's own bindings are placed). */
  readonly #classNameNodes = new Map<number, Node>();
  /** A function's locals' values whose type is read late, by offset (see VALUE_MARK). */
  readonly #lateValues = new Map<number, Node>();
  /** The offsets of the late values being read (a value naming itself, `let s = s.next()`, has none). */
  readonly #reading = new Set<number>();
  /** What each late value read as (pass 2 only: every binding is known by then). */
  readonly #lateFacts = new Map<number, ReceiverFact | 'dynamic'>();
  /** What the file's functions store over members (`this.x = …`, `h.x = stub`). */
  readonly #stored: StoredMembers;

  constructor(sink: ReferenceSink) {
    this.#sink = sink;
    this.#stored = new StoredMembers(this.#scopes, sink);
  }

  run(root: Node, share: readonly string[] | undefined): void {
    const { nodes, types } = typedDescendants(root, SEARCHED, share);
    for (let i = 0; i < nodes.length; i++) this.#declare(nodes[i]!, types[i]!);
    // Once every scope has its declarations: what each assignment rebinds.
    for (let i = 0; i < nodes.length; i++) if (types[i] === 'assignment_expression') this.#noteAssignment(nodes[i]!);
    for (let i = 0; i < nodes.length; i++) this.#report(nodes[i]!, types[i]!);
  }

  // Pass 1: scopes and what each binds.

  #declare(node: Node, type: string): void {
    if (FUNCTIONS.has(type)) this.#openFunction(node, type);
    else if (CLASSES.has(type)) this.#openClass(node, type);
    else if (type === 'statement_block') this.#openBlock(node);
    else if (type === 'variable_declaration') this.#varStatement = { end: node.endIndex, fn: this.#scopes.enclosingFunction(node.startIndex, isFunctionScope) };
    else if (NAMESPACES.has(type)) {
      const name = node.childForFieldName('name');
      if (name && name.type !== 'string') this.#sink.namespace(node, name.text);
    } else if (BINDERS.has(type)) this.#bind(node, type);
  }

  /** A block that is not a function's body: a scope for its `const`, `let`, classes and functions. */
  #openBlock(node: Node): void {
    const scopes = this.#scopes;
    const enclosing = scopes.innermostAt(node.startIndex);
    // Document order: a function's parameters hold no block outside a nested function, so the
    // first block met directly inside a function is its body.
    if (enclosing >= 0 && scopes.kindOf(enclosing) === 'function' && !this.#bodies.has(enclosing)) {
      this.#bodies.add(enclosing);
      return;
    }
    scopes.open(node, 'block');
  }

  /**
   * Binds a declared function's or class's name where it was declared. A function declared in
   * a block is, in a sloppy-mode script, also a variable of its function (or module) that the
   * block assigns when it runs: there it is a value the file cannot know.
   */
  #bindDeclared(enclosing: number, outerFunction: number, name: string, hoisted: boolean): void {
    const scopes = this.#scopes;
    if (enclosing < 0) return;
    scopes.bind(enclosing, name, { kind: 'definition' });
    if (!hoisted || scopes.kindOf(enclosing) !== 'block') return;
    if (outerFunction >= 0) scopes.bind(outerFunction, name, { kind: 'local' });
    else this.#reassignedModuleNames.add(name);
  }

  #openFunction(node: Node, type: string): void {
    const scopes = this.#scopes;
    const enclosing = scopes.innermostAt(node.startIndex);
    const outerFunction = scopes.enclosingFunction(node.startIndex, isFunctionScope);
    // An arrow's `this` is that of the function or class around it (blocks between do not count).
    const outerThis = type === 'arrow_function' ? scopes.enclosingFunction(node.startIndex, isFunctionOrClassScope) : -1;
    const typeParameters = typeParameterNames(node);
    if (type === 'function_declaration' || type === 'method_definition') this.#declareResult(node, node.childForFieldName('name'), typeParameters);
    const scope = scopes.open(node, 'function');
    const name = node.childForFieldName('name');
    if (name && FUNCTION_EXPRESSIONS.has(type)) {
      // A function expression's name is bound inside it only, to the function itself: the
      // definition it makes when that has its name (`arr.map(function walk(n) { walk(n.next); })`,
      // `var equal = function equal() {…}`), else a value (`const k = function h() { h(); }`
      // calls no outer `h`: the definition is `k`).
      const own = name.text;
      scopes.bind(scope, own, { kind: expressionDefinition(node)?.name === own ? 'definition' : 'local' });
    } else if (name && type !== 'method_definition') {
      this.#bindDeclared(enclosing, outerFunction, name.text, true);
      if (enclosing >= 0) this.#sink.flag(node, 'enclosed');
    }
    for (const t of typeParameters) scopes.bind(scope, t, { kind: 'local' });
    this.#bindParams(scope, node);
    let classThis = false;
    if (type === 'method_definition') {
      // A method of a class body (not of an object literal); `parent` walks down from the root:
      // only methods ask, once (pass 2 reads what this noted).
      const parent = node.parent;
      const parentType = parent?.type;
      if (parentType === 'object') this.#objectMethods.add(node.startIndex);
      classThis = parentType === 'class_body' || parent?.parent?.type === 'class_body';
      if (classThis && (this.#fieldTypes.size > 0 || this.#derivedClasses.size > 0) && isStaticMember(node)) this.#staticMethods.add(scope);
    } else if (type === 'arrow_function') classThis = outerThis >= 0 && this.#classThis.get(outerThis) === true;
    this.#classThis.set(scope, classThis);
  }

  #openClass(node: Node, type: string): void {
    const scopes = this.#scopes;
    const enclosing = scopes.innermostAt(node.startIndex);
    const name = node.childForFieldName('name');
    // A class expression's name, like a function expression's, is its own alone: inside it,
    // the definition it makes when that has its name (`var If = class If {…}`), else a value
    // (`const K = class Inner { m() { return new Inner(); } }` is no `Inner` of the module).
    const ownName = type === 'class' && name ? name.text : undefined;
    // A class's type parameters (and an expression's own name) are seen in its methods, which
    // a class scope's names are not: they get a block around the class.
    const typeParameters = typeParameterNames(node);
    if (typeParameters.length > 0 || ownName !== undefined) {
      const outer = scopes.open(node, 'block');
      for (const t of typeParameters) scopes.bind(outer, t, { kind: 'local' });
      if (ownName !== undefined) scopes.bind(outer, ownName, { kind: expressionDefinition(node)?.name === ownName ? 'definition' : 'local' });
    }
    const scope = scopes.open(node, 'class');
    this.#classThis.set(scope, true);
    const fields = instanceFieldTypes(node.childForFieldName('body'), typeParameters);
    if (fields !== undefined) {
      this.#fieldTypes.set(scope, fields);
      // What a subclass's `this.x` reads (a `field` binding with its type; `private`: its own).
      // At the class's name: a parameter property's own place is in the constructor's range.
      for (const [field, declared] of fields) {
        if (!declared.getter && name) this.#sink.binding(name, { kind: 'field', name: field, module: declared.type, ...(declared.private ? { member: 'private' } : {}) });
      }
    }
    if (node.namedChildren.some((c) => c?.type === 'class_heritage' && c.text.startsWith('extends'))) this.#derivedClasses.add(scope);
    if (name) this.#classNameNodes.set(scope, name);
    if (name && type !== 'class') {
      this.#bindDeclared(enclosing, -1, name.text, false);
      if (enclosing >= 0) this.#sink.flag(node, 'enclosed');
    }
  }

  #bindParams(scope: number, fn: Node): void {
    const params = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
    if (!params) return;
    const list = params.type === 'formal_parameters' ? params.namedChildren : [params];
    for (const p of list) {
      if (!p) continue;
      let pattern: Node | null | undefined = p;
      let type: string | undefined;
      const pType = p.type;
      if (pType === 'required_parameter' || pType === 'optional_parameter') {
        pattern = p.childForFieldName('pattern');
        type = annotatedClass(p.childForFieldName('type'));
      }
      const typed = type !== undefined && type !== '' && pattern?.type === 'identifier';
      for (const name of patternNames(pattern)) this.#scopes.bind(scope, name.text, typed ? { kind: 'parameter', type: { name: type! } } : { kind: 'parameter' });
    }
  }

  #bind(node: Node, type: string): void {
    const scopes = this.#scopes;
    const at = node.startIndex;
    switch (type) {
      case 'variable_declarator': {
        // `var` binds in its function; `const` and `let` in their block.
        const fn = scopes.enclosingFunction(at, isFunctionScope);
        const inVar = this.#varStatement !== undefined && at < this.#varStatement.end && this.#varStatement.fn === fn;
        this.#bindDeclarator(node, inVar ? fn : scopes.innermostAt(at));
        break;
      }
      case 'for_in_statement': {
        const scope = scopes.innermostAt(at);
        for (const name of patternNames(node.childForFieldName('left'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      }
      case 'catch_clause': {
        const scope = scopes.innermostAt(at);
        for (const name of patternNames(node.childForFieldName('parameter'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      }
      case 'import_statement':
        this.#bindImport(node);
        break;
      case 'export_statement':
        this.#bindExport(node);
        break;
      case 'assignment_expression':
        if (scopes.enclosingFunction(at, isFunctionScope) < 0) this.#bindModuleExports(node);
        break;
    }
  }

  #bindDeclarator(node: Node, scope: number): void {
    const scopes = this.#scopes;
    const sink = this.#sink;
    const nameNode = node.childForFieldName('name');
    const nameType = nameNode?.type;
    const value = node.childForFieldName('value');
    const spec = requireSpecifier(value);
    if (spec !== undefined && nameNode) {
      if (nameType === 'identifier') {
        sink.binding(nameNode, { kind: 'module', name: nameNode.text, module: spec });
        if (scope >= 0) scopes.bind(scope, nameNode.text, { kind: 'import' });
      } else if (nameType === 'object_pattern') {
        for (const prop of nameNode.namedChildren) {
          if (!prop) continue;
          const pair = prop.type === 'pair_pattern';
          const local = pair ? prop.childForFieldName('value') : prop;
          const member = pair ? prop.childForFieldName('key')?.text : prop.text;
          const localType = local?.type;
          if (!local || (localType !== 'identifier' && localType !== 'shorthand_property_identifier_pattern')) continue;
          sink.binding(local, { kind: 'member', name: local.text, module: spec, member: member ?? local.text });
          if (scope >= 0) scopes.bind(scope, local.text, { kind: 'import' });
        }
      }
      return;
    }
    const newClass = value?.type === 'new_expression' ? memberPath(value.childForFieldName('constructor'))?.join('.') : undefined;
    const declared = annotatedClass(node.childForFieldName('type'));
    // `const s = makeStore()`: what makeStore declares it returns (a path ending in a call, read
    // as `makeStore().get()` is). In a function made by the value, not declared, so another value
    // assigned later unties it as it does `new Foo()`'s; at the top level only a `const` is typed.
    // In a function, a call's result (awaited or not) is read once all bindings are known, as a receiver is.
    const late = scope >= 0 && declared === undefined && newClass === undefined && value !== null && LATE_TYPED_VALUES.has(value.type);
    const called = !late && value?.type === 'call_expression' ? memberPath(value.childForFieldName('function')) : undefined;
    if (late) this.#lateValues.set(value!.startIndex, value!);
    const valueType = declared
      ? { name: declared }
      : newClass
        ? { name: newClass, constructed: true }
        : late
          ? { name: `${VALUE_MARK}${value!.startIndex}`, constructed: true }
          : called
            ? { name: [...called, RESULT_PART].join('.'), constructed: true }
            : undefined;
    const names = patternNames(nameNode);
    if (names.length === 0) return;
    const identifier = nameType === 'identifier';
    // The definitions visitor names a literal bound to the name anywhere, and a call that wraps
    // one (`const h = memo(function () {…})`) only for a module-level `const`: inside a function
    // such a binding is a value (`const serializer = wrap(function (err) {…})` is no definition).
    const functionValue = identifier && (scope >= 0 ? value !== null && FUNCTION_VALUES.has(value.type) : madeFunction(value));
    // `const makeStore = (): Store => …`: the definition the name makes declares its result.
    if (identifier && value !== null && value.type !== 'class' && FUNCTION_VALUES.has(value.type)) this.#declareResult(value, nameNode, typeParameterNames(value));
    for (const name of names) {
      if (scope >= 0 && functionValue) {
        // `const cb = function () {}` in a function: a nested definition (extracted as one),
        // so `cb()` and `on('click', cb)` lead to it, as a nested function declaration's do.
        scopes.bind(scope, name.text, { kind: 'definition' });
        // The definition the visitor makes of a function or class literal spans the declaration.
        if (value !== null && FUNCTION_VALUES.has(value.type)) sink.flag(bindingRange(node), 'enclosed');
      } else if (scope >= 0) {
        scopes.bind(scope, name.text, valueType && identifier ? { kind: 'local', type: valueType } : { kind: 'local' });
      } else if (!functionValue) {
        // A top-level value (a function or class bound to the name is a definition instead):
        // of its class when a `const` holds what `new` made, what a call declares it returns or
        // a declared type says (`export const store = new Store()`, `const store = makeStore()`,
        // `const api: Api = make()`): `store.get()` here and in the modules importing it is Store's.
        const typed = valueType !== undefined && identifier && (declared !== undefined || declaredConst(node));
        sink.binding(name, typed ? { kind: 'assign', name: name.text, module: valueType.name } : { kind: 'assign', name: name.text });
        // `export const store = …`: other modules may import it (a definition is flagged exported instead).
        if (exportedDeclaration(node)) sink.binding(name, { kind: 'export', name: name.text, member: name.text });
      }
    }
  }

  #bindImport(node: Node): void {
    const sink = this.#sink;
    const source = node.childForFieldName('source');
    if (!source) return;
    const spec = stringValue(source);
    sink.site(source, { kind: 'import', name: spec });
    const clause = node.namedChildren.find((c) => c?.type === 'import_clause');
    for (const part of clause?.namedChildren ?? []) {
      if (!part) continue;
      const partType = part.type;
      if (partType === 'identifier') {
        sink.binding(part, { kind: 'member', name: part.text, module: spec, member: 'default' });
      } else if (partType === 'namespace_import') {
        const alias = part.namedChildren.find((c) => c?.type === 'identifier');
        if (alias) sink.binding(alias, { kind: 'module', name: alias.text, module: spec });
      } else if (partType === 'named_imports') {
        for (const spec_ of part.namedChildren) {
          if (spec_?.type !== 'import_specifier') continue;
          const member = spec_.childForFieldName('name');
          const alias = spec_.childForFieldName('alias') ?? member;
          if (member && alias) sink.binding(alias, { kind: 'member', name: alias.text, module: spec, member: member.text });
        }
      }
    }
  }

  #bindExport(node: Node): void {
    const sink = this.#sink;
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
      return;
    }
    const value = node.childForFieldName('value');
    if (isDefault && value?.type === 'identifier') {
      sink.binding(value, { kind: 'export', name: 'default', member: value.text });
      return;
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
  }

  /** `module.exports = …` / `exports.x = …` at module level. */
  #bindModuleExports(node: Node): void {
    const exported = exportTarget(node.childForFieldName('left'));
    if (exported === undefined) return;
    const sink = this.#sink;
    const right = node.childForFieldName('right');
    const rightType = right?.type;
    if (exported === 'default' && rightType === 'object') {
      // module.exports = { a, b: c }
      for (const p of right!.namedChildren) {
        const pType = p?.type;
        if (pType === 'shorthand_property_identifier') sink.binding(p!, { kind: 'export', name: p!.text, member: p!.text });
        else if (pType === 'pair') {
          const key = p!.childForFieldName('key');
          const v = p!.childForFieldName('value');
          if (key && v?.type === 'identifier') sink.binding(key, { kind: 'export', name: key.text, member: v.text });
        }
      }
    } else if (rightType === 'identifier') {
      sink.binding(right!, { kind: 'export', name: exported, member: right!.text });
    }
  }

  /**
   * `x = …`: x's declaration no longer says what x holds (a function declared or stored under
   * it, the class it was constructed as), unless this too constructs the same class; an
   * assigned module-level name is a value nothing declares.
   */
  #noteAssignment(node: Node): void {
    const left = node.childForFieldName('left');
    const leftType = left?.type;
    const right = node.childForFieldName('right');
    if (leftType === 'member_expression') this.#memberStore(left!, right);
    if (leftType !== 'identifier' && leftType !== 'object_pattern' && leftType !== 'array_pattern') return;
    if (leftType === 'identifier' && madeFunction(right)) this.#assignedFunctions.add(left!.text);
    const newClass = leftType === 'identifier' && right?.type === 'new_expression' ? memberPath(right.childForFieldName('constructor'))?.join('.') : undefined;
    for (const name of patternNames(left)) {
      const text = name.text;
      const found = this.#scopes.lookup(name.startIndex, text);
      if (found === undefined) this.#reassignedModuleNames.add(text);
      // A declared type (`let store: IndexStore | undefined`) holds for every value assigned:
      // TypeScript checks it.
      else if (found.binding.type !== undefined && found.binding.type.constructed !== true && (found.binding.kind === 'local' || found.binding.kind === 'parameter')) continue;
      else this.#scopes.bind(found.scope, text, newClass ? { kind: 'local', type: { name: newClass, constructed: true } } : { kind: 'local' });
    }
  }

  /**
   * `o.x = …` (see StoredMembers): `this.x = …` in a method (or an arrow function in one) stores
   * on the class's instances, `h.x = …` on a local's or parameter's value. Binding the method
   * itself again (`this.x = this.x.bind(this)`, `h.x = h.x.bind(h)`) stores nothing new.
   */
  #memberStore(left: Node, right: Node | null): void {
    const object = left.childForFieldName('object');
    const name = left.childForFieldName('property')?.text;
    if (!object || name === undefined) return;
    const objectType = object.type;
    if (objectType === 'this') {
      if (rebinds(right, 'this', name)) return;
      const scopes = this.#scopes;
      let scope = scopes.enclosingFunction(left.startIndex, isFunctionOrClassScope);
      if (scope < 0 || this.#classThis.get(scope) !== true) return;
      while (scope >= 0 && scopes.kindOf(scope) !== 'class') scope = scopes.parentOf(scope);
      const at = scope >= 0 ? this.#classNameNodes.get(scope) : undefined;
      if (at !== undefined) this.#stored.onInstance(scope, at, name);
      return;
    }
    if (objectType !== 'identifier') return;
    const found = this.#scopes.lookup(object.startIndex, object.text);
    if (found === undefined || (found.binding.kind !== 'local' && found.binding.kind !== 'parameter')) return;
    if (!rebinds(right, object.text, name)) this.#stored.onValue(found.scope, object.text, name);
  }

  // Pass 2: sites.

  #report(node: Node, type: string): void {
    if (type === 'call_expression') this.#call(node);
    else if (type === 'new_expression') {
      const ctor = node.childForFieldName('constructor');
      if (ctor) this.#use('call', ctor, true);
    } else if (CLASSES.has(type)) this.#bases(node);
    else if (type === 'interface_declaration') {
      // Structural: a class with its methods may stand for it without `implements` (see StructuralInterfaces).
      this.#sink.flag(node, 'interface');
      this.#bases(node);
    }
    else if (VALUE_PARENTS.has(type)) this.#values(node, type);
    else if (type === 'method_definition') {
      if (this.#objectMethods.has(node.startIndex)) this.#sink.flag(node, 'member-value');
      else if (isStaticMember(node)) this.#sink.flag(node, 'static');
      if (declaredPrivate(node)) this.#sink.flag(node, 'private');
    } else if (type === 'field_definition' || type === 'public_field_definition') {
      // A function-valued field is a method (the definitions visitor's): static or not, like one.
      if (isStaticMember(node)) this.#sink.flag(node, 'static');
      if (declaredPrivate(node)) this.#sink.flag(node, 'private');
    } else if (type === 'decorator') this.#decorator(node);
    else if (type === 'shorthand_property_identifier') this.#use('reference', node, false, type);
    else if (type === 'variable_declarator') {
      for (const operand of valueOperands(node.childForFieldName('value'))) this.#use('reference', operand);
    } else if (type === 'assignment_expression') {
      const right = node.childForFieldName('right');
      for (const operand of valueOperands(right)) this.#use('reference', operand);
      // `o.handler = function () {…}`: stored in an object, reached through it (not `X.prototype.m = …`, a method).
      if (functionLiteral(right)) {
        const left = node.childForFieldName('left');
        if (left?.type === 'member_expression' && left.childForFieldName('object')?.childForFieldName('property')?.text !== 'prototype') this.#sink.flag(right!, 'member-value');
      }
    }
  }

  #call(node: Node): void {
    const fn = node.childForFieldName('function');
    if (!fn) return;
    const fnType = fn.type;
    if (fnType === 'super') this.#sink.site(fn, { kind: 'call', name: 'super', superConstructor: true });
    else if (fnType === 'import') {
      // `import('./page')`: a module loaded at run time, its exports used through the module object.
      const source = node.childForFieldName('arguments')?.namedChildren[0];
      const sourceType = source?.type;
      if ((sourceType === 'string' || sourceType === 'template_string') && source!.namedChildren.every((c) => c?.type === 'string_fragment')) {
        const spec = stringValue(source!);
        if (spec !== '') this.#sink.site(source!, { kind: 'import', name: spec, dynamicImport: true });
      }
      return;
    } else if (fnType === 'identifier' && fn.text === 'require') return;
    else if (fnType === 'subscript_expression') {
      // `handlers['save']()`: a call of the member the string names, on a value of unknown type.
      const index = fn.childForFieldName('index');
      const name = index?.type === 'string' && index.namedChildren.length === 1 ? stringValue(index) : '';
      if (/^[A-Za-z_$][\w$]*$/.test(name)) this.#sink.site(index!, { kind: 'call', name, fixed: 'dynamic' });
      return;
    } else this.#use('call', fn, false, fnType);
    // `handler.bind(this)`, `fn.call(ctx, x)`, `fn.apply(ctx, args)`: a use of the function itself.
    if (fnType === 'member_expression' && BOUND_CALLS.has(fn.childForFieldName('property')?.text ?? '')) {
      for (const operand of valueOperands(fn.childForFieldName('object'))) this.#use('reference', operand);
    }
  }

  #bases(node: Node): void {
    const heritage = node.namedChildren.find((c) => c?.type === 'class_heritage');
    const clauses = heritage ? heritage.namedChildren : node.namedChildren.filter((c) => c?.type === 'extends_type_clause');
    // JavaScript's grammar puts the base expression directly under class_heritage.
    const parts = heritage && !clauses.some((c) => c?.type === 'extends_clause' || c?.type === 'implements_clause') ? [heritage] : clauses;
    for (const clause of parts) {
      if (!clause) continue;
      const clauseType = clause.type;
      const kind = clauseType === 'implements_clause' ? 'implements' : 'inherits';
      const values = clauseType === 'extends_clause' ? [clause.childForFieldName('value') ?? clause.namedChildren[0]] : clause.namedChildren;
      for (const v of values) {
        const base = v?.type === 'generic_type' ? (v.childForFieldName('name') ?? v.namedChildren[0]) : v;
        if (!base) continue;
        const baseType = base.type;
        const path = baseType === 'nested_type_identifier' ? base.text.replace(/\s+/g, '').split('.') : baseType === 'type_identifier' ? [base.text] : memberPath(base);
        if (!path) {
          // `class A extends mixin(B)`: a class computed there, whose members no declaration names.
          if (baseType !== 'comment') this.#sink.site(base, { kind, name: writtenBase(base), fixed: 'dynamic' });
          continue;
        }
        const name = path[path.length - 1]!;
        // `function mixin(Base) { return class extends Base {…} }`, `<T>(…) => class implements T`:
        // a parameter, local or type parameter, not the codebase's class of that name.
        const bound = this.#scopes.lookup(base.startIndex, path[0]!)?.binding.kind;
        if (bound === 'parameter' || bound === 'local') {
          this.#sink.site(base, { kind, name, fixed: bound === 'parameter' ? 'parameter' : 'local-variable' });
          continue;
        }
        this.#sink.site(base, { kind, name, ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
      }
    }
  }

  #values(node: Node, type: string): void {
    if (type === 'pair') {
      const value = node.childForFieldName('value');
      for (const operand of valueOperands(value)) this.#use('reference', operand);
      // `{ onClick: function () {} }`: the function is reached through the object. (A call that
      // takes a function, `{ x: debounce(() => …) }`, is no definition: the flag would fall on
      // the enclosing one.)
      if (value && functionLiteral(value)) this.#sink.flag(value, 'member-value');
      return;
    }
    for (const v of node.namedChildren) for (const operand of valueOperands(v)) this.#use('reference', operand);
  }

  #decorator(node: Node): void {
    // A decorated class or member is registered or wrapped by its decorator: never dead.
    const parent = node.parent;
    const parentType = parent?.type;
    let decorated: Node | null | undefined = parent && parentType !== 'class_body' && parentType !== 'export_statement' ? parent : node.nextNamedSibling;
    while (decorated?.type === 'decorator') decorated = decorated.nextNamedSibling;
    if (parentType === 'export_statement') decorated = parent!.childForFieldName('declaration');
    if (decorated) this.#sink.flag(decorated, 'decorated');
    // `@Injectable` calls Injectable with the class; `@Component({...})` is a call_expression of its own.
    const expr = node.namedChildren[0];
    if (!expr) return;
    const exprType = expr.type;
    // What receives the class or member may have it called where no edge shows (a framework
    // calling a `@HostListener` method): its callers answers say so.
    if (decorated) this.#sink.binding(node, { kind: 'decorator', name: decoratorName(expr, exprType) }, decorated);
    if (exprType === 'identifier' || exprType === 'member_expression') this.#use('call', expr, false, exprType);
  }

  /** A name that, at `at`, can only mean a module-level or imported thing (not a local value). */
  #free(at: number, name: string): boolean {
    const b = this.#scopes.lookup(at, name)?.binding.kind;
    return b === undefined ? !this.#reassignedModuleNames.has(name) : b === 'import' || b === 'definition';
  }

  /**
   * What a function or method declares it returns (`static create(): Store`): a `returns`
   * binding, read where `Store.create().get()` calls on the result. Not a type parameter of its
   * own (`pick<Item>(xs: Item[]): Item` beside a class Item); an `async` one declares a `Promise`.
   */
  #declareResult(node: Node, name: Node | null, typeParameters: readonly string[]): void {
    const annotation = node.childForFieldName('return_type');
    if (!name || !annotation) return;
    const written = annotation.type === 'type_annotation' ? annotation.namedChildren[0] : annotation;
    const own = (type: string | undefined): type is string => type !== undefined && !typeParameters.includes(type.split('.')[0]!);
    // `find(): Promise<Store>`: awaiting the result gives a Store.
    const promised = promisedType(written);
    const awaited = promised === undefined ? undefined : this.#resultClass(node, promised);
    if (own(awaited)) this.#sink.binding(name, { kind: 'awaits', name: name.text, module: awaited });
    const type = this.#resultClass(node, written);
    if (own(type)) this.#sink.binding(name, { kind: 'returns', name: name.text, module: type });
  }

  /** The class a declared result names; `this` in a class's method is the class (or a subclass, which dispatch covers). */
  #resultClass(node: Node, written: Node | null | undefined): string | undefined {
    return written?.type === 'this_type' ? this.#classNameNodes.get(this.#scopes.innermostAt(node.startIndex))?.text : annotatedClass(written);
  }

  #receiverOf(object: Node, at: number): ReceiverFact | 'dynamic' {
    const type = object.type;
    if (type === 'this') {
      const fn = this.#scopes.enclosingFunction(at, isFunctionOrClassScope);
      return fn >= 0 && this.#classThis.get(fn) === true ? { kind: 'self' } : 'dynamic';
    }
    if (type === 'super') return { kind: 'super' };
    // `this.api!.fetch()`: `!` only tells the compiler the value is there.
    if (type === 'non_null_expression') {
      const inner = object.namedChildren[0];
      return inner ? this.#receiverOf(inner, at) : 'dynamic';
    }
    if (type === 'identifier') {
      const text = object.text;
      const found = this.#scopes.lookup(at, text);
      if (found === undefined) return this.#reassignedModuleNames.has(text) ? 'dynamic' : { kind: 'path', path: [text] };
      const b = found.binding;
      if (b.type?.name.startsWith(VALUE_MARK) === true) return this.#valueOfLocal(Number(b.type.name.slice(VALUE_MARK.length)));
      if (b.type) {
        const path = b.type.name.split('.');
        if (!this.#free(at, path[0]!)) return 'dynamic';
        return path[path.length - 1] === RESULT_PART ? { kind: 'path', path } : { kind: 'type', type: b.type.name, ...(b.type.constructed ? { constructed: true } : {}) };
      }
      if (b.kind === 'import' || b.kind === 'definition') return { kind: 'path', path: [text] };
      return 'dynamic';
    }
    if (type === 'member_expression') {
      if (object.childForFieldName('object')?.type === 'this') return this.#thisField(object, at);
      const path = memberPath(object);
      if (!path) return 'dynamic';
      return this.#free(at, path[0]!) ? { kind: 'path', path } : 'dynamic';
    }
    if (type === 'parenthesized_expression') {
      const inner = object.namedChildren[0];
      return inner && object.namedChildCount === 1 ? this.#receiverOf(inner, at) : 'dynamic';
    }
    if (type === 'await_expression') {
      // `(await repo.find()).save()`: what awaiting the call's result gives (an `awaits` binding).
      const call = object.namedChildren[0];
      const result = call?.type === 'call_expression' ? this.#receiverOf(call, at) : 'dynamic';
      if (result === 'dynamic') return result;
      if (result.kind === 'path' && result.path[result.path.length - 1] === RESULT_PART) return { kind: 'path', path: [...result.path.slice(0, -1), AWAIT_PART] };
      return result.kind === 'type' && result.constructed === true ? { kind: 'type', type: `${result.type}.${AWAIT_PART}` } : 'dynamic';
    }
    if (type === 'new_expression') {
      const path = memberPath(object.childForFieldName('constructor'));
      if (path && this.#free(at, path[0]!)) return { kind: 'type', type: path.join('.'), constructed: true };
    }
    if (type === 'call_expression') {
      // `Store.create().get()`, `makeStore().get()`: what the function declares it returns.
      const fn = object.childForFieldName('function');
      const path = memberPath(fn);
      if (path && this.#free(at, path[0]!) && !this.#reassignedModuleNames.has(path[0]!)) return { kind: 'path', path: [...path, RESULT_PART] };
      if (fn?.type === 'member_expression') return this.#resultOfMethod(fn, at);
    }
    return 'dynamic';
  }

  /**
   * What a function's local holds when its value is read late (VALUE_MARK): the value read as a
   * receiver where it is written (`const s = repo.find()` then `s.get()` reads as
   * `repo.find().get()` there).
   */
  #valueOfLocal(offset: number): ReceiverFact | 'dynamic' {
    const known = this.#lateFacts.get(offset);
    if (known !== undefined) return known;
    const value = this.#lateValues.get(offset);
    if (value === undefined || this.#reading.has(offset)) return 'dynamic';
    this.#reading.add(offset);
    let fact: ReceiverFact | 'dynamic';
    try {
      fact = this.#receiverOf(value, offset);
    } finally {
      this.#reading.delete(offset);
    }
    // A name for a path (`const $ = django.jQuery`) may stand for a global another script
    // sets: only a call's result (`const s = makeStore()`) is read as a path.
    if (fact !== 'dynamic' && fact.kind === 'path') {
      const last = fact.path[fact.path.length - 1];
      if (last !== RESULT_PART && last !== AWAIT_PART) fact = 'dynamic';
    }
    this.#lateFacts.set(offset, fact);
    return fact;
  }

  /**
   * `q.where().run()` where q's class is known (annotated, constructed, a declared field, or
   * itself such a result: `q.where().where()`): what `where` declares it returns, read as
   * `Q.where().run()` is (the method's result, looked up on the class).
   */
  #resultOfMethod(fn: Node, at: number): ReceiverFact | 'dynamic' {
    const object = fn.childForFieldName('object');
    const property = fn.childForFieldName('property');
    if (!object || (property?.type !== 'property_identifier' && property?.type !== 'private_property_identifier')) return 'dynamic';
    const inner = this.#receiverOf(object, at);
    if (inner === 'dynamic' || inner.kind !== 'type') return 'dynamic';
    const type = inner.constructed === true ? `${inner.type}.${RESULT_PART}` : inner.type;
    return { kind: 'type', type: `${type}.${property.text}`, constructed: true };
  }

  /**
   * `this.store` in an instance method (or an arrow inside one) of a class that declares `store:
   * Store` itself: a value of Store. A field the class does not declare is, in a class with a
   * base, the one a base may declare (a `self` receiver with the attribute, see ReceiverFact),
   * else of unknown type, as is any field in a static method.
   */
  #thisField(member: Node, at: number): ReceiverFact | 'dynamic' {
    const scopes = this.#scopes;
    let scope = scopes.enclosingFunction(at, isFunctionOrClassScope);
    if (scope < 0 || this.#classThis.get(scope) !== true) return 'dynamic';
    // Up through arrows to the method, then its class.
    while (scope >= 0 && scopes.kindOf(scope) !== 'class') {
      if (this.#staticMethods.has(scope)) return 'dynamic';
      scope = scopes.parentOf(scope);
    }
    const property = member.childForFieldName('property');
    if (!property) return 'dynamic';
    const type = this.#fieldTypes.get(scope)?.get(property.text)?.type;
    // Not the class's own: a field its bases may declare (`protected client: Client`).
    if (type === undefined) return this.#derivedClasses.has(scope) && property.type === 'property_identifier' ? { kind: 'self', attribute: property.text } : 'dynamic';
    if (!this.#free(at, type.split('.')[0]!)) return 'dynamic';
    return { kind: 'type', type };
  }

  /** A call (or `new`, with `construct`) or value use of `target`, whose type the caller may have read already. */
  #use(kind: 'call' | 'reference', target: Node, construct = false, targetType: string = target.type): void {
    const sink = this.#sink;
    const at = target.startIndex;
    // `{ setup }` uses `setup` as `{ setup: setup }` does.
    if (targetType === 'identifier' || targetType === 'shorthand_property_identifier') {
      const text = target.text;
      const found = this.#scopes.lookup(at, text);
      const b = found?.binding.kind;
      if (b === 'parameter' || b === 'local') {
        if (kind === 'call' || this.#assignedFunctions.has(text)) sink.site(target, { kind, name: text, fixed: b === 'parameter' ? 'parameter' : 'local-variable' });
        return;
      }
      if (found === undefined && this.#reassignedModuleNames.has(text)) {
        // Dead code still learns that something of this name may be used.
        sink.site(target, { kind, name: text, fixed: 'dynamic' });
        return;
      }
      // Bound by no enclosing function or block: a module name (or a global).
      const moduleScope = found === undefined;
      sink.site(target, { kind, name: text, ...(construct ? { construct } : {}), ...(moduleScope ? { moduleScope } : {}) });
      return;
    }
    if (targetType !== 'member_expression') return;
    const prop = target.childForFieldName('property');
    const object = target.childForFieldName('object');
    if (!prop || !object) return;
    const propType = prop.type;
    if (propType !== 'property_identifier' && propType !== 'private_property_identifier') return;
    const receiver = this.#receiverOf(object, at);
    if (receiver === 'dynamic' || (receiver.kind === 'type' && object.type === 'identifier' && this.#stored.storedOn(object.text, prop.text, at))) {
      // A value use too (`el.on('click', obj.handler)`): nothing resolves it, but dead code must
      // know some method of that name may be used.
      sink.site(prop, { kind, name: prop.text, fixed: 'dynamic' });
      return;
    }
    // A path whose head no enclosing function or block binds: the head is a module name.
    const moduleScope = receiver.kind === 'path' && this.#scopes.lookup(at, receiver.path[0]!) === undefined;
    sink.site(prop, { kind, name: prop.text, receiver, ...(construct ? { construct } : {}), ...(moduleScope ? { moduleScope } : {}) });
  }
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
/** A decorator as written (see writtenDecorator). */
function decoratorName(expr: Node, type: string): string {
  return writtenDecorator(expr, memberPath(type === 'call_expression' ? expr.childForFieldName('function') : expr));
}

function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  new EcmascriptReferencePass(sink).run(root, share);
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
