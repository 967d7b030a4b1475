import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet, writtenBase, writtenDecorator } from '../common.js';
import { LexicalScopes, type ScopeBinding } from './scopes.js';
import { StoredMembers } from './stored-members.js';
import { AWAIT_PART, RESULT_PART } from '../../graph/container-types.js';

// Python: calls, decorators, bases, imports, value uses, `__all__`.
//
// Name binding follows Python's rules closely enough to never claim a call it cannot know:
// a name assigned anywhere in a function (parameters, assignments, `for`/`with`/`except`
// targets, comprehension variables, walrus) is local to that function for its whole body, so a
// call of it is a call of a value, never of the module function of the same name; names bound
// in a class body are visible in that body only, not in its methods; `global`/`nonlocal` names
// are not local. A method's first parameter is its `self` (not for `@staticmethod`). What a
// method stores on its instance (`self.x = …`) is reported as the class's `field` binding (it
// may hide a method x); a method stored over on a local's value (`h.x = stub`) makes `h.x()`
// in that scope a call of a value.

const SCOPES = typeSet('function_definition', 'lambda', 'list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression', 'class_definition');
const COMPREHENSIONS = typeSet('list_comprehension', 'dictionary_comprehension', 'set_comprehension', 'generator_expression');
const BINDERS = typeSet('assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'as_pattern', 'named_expression', 'global_statement', 'nonlocal_statement', 'import_statement', 'import_from_statement');
const VALUE_PARENTS = typeSet('argument_list', 'keyword_argument', 'return_statement', 'list', 'tuple', 'set', 'pair', 'expression_list');
const SEARCHED = [...SCOPES, ...BINDERS, ...VALUE_PARENTS, 'call', 'decorator'];

/**
 * The names and attributes an expression may evaluate to, through parentheses, `a or b`,
 * `a and b` and `a if c else b` (`handler or default_handler` uses both functions).
 */
function valueOperands(value: Node | null | undefined, out: Node[] = [], strings?: Node[]): Node[] {
  if (!value) return out;
  // Each `type` read crosses into wasm: read it once.
  const type = value.type;
  if (type === 'identifier' || type === 'attribute') out.push(value);
  else if (type === 'string') strings?.push(value);
  else if (type === 'parenthesized_expression') valueOperands(value.namedChildren[0], out, strings);
  else if (type === 'boolean_operator') {
    valueOperands(value.childForFieldName('left'), out, strings);
    valueOperands(value.childForFieldName('right'), out, strings);
  } else if (type === 'conditional_expression') {
    // `a if c else b`: the first and the last operands are the values.
    valueOperands(value.namedChildren[0], out, strings);
    valueOperands(value.namedChildren[2], out, strings);
  }
  return out;
}

/** A string literal holding a dotted path of identifiers (`'shop.mail.send'`), without prefix letters that change it: the path. */
const DOTTED_STRING = /^[rRuU]?(['"])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\1$/;

/** Identifiers a binding target names: `a`, `a, b`, `(a, [b, *c])`; attributes and subscripts bind nothing. */
function targetNames(node: Node | null | undefined, out: Node[] = []): Node[] {
  if (!node) return out;
  switch (node.type) {
    case 'identifier':
      out.push(node);
      break;
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'expression_list':
    case 'tuple':
    case 'list':
    case 'list_splat_pattern':
    case 'as_pattern_target':
    case 'parenthesized_expression':
      for (const child of node.namedChildren) targetNames(child, out);
      break;
  }
  return out;
}

/** The names of a dotted expression of plain identifiers (`a.b.c` → [a, b, c]), or undefined. */
function dottedPath(node: Node | null | undefined): string[] | undefined {
  const parts: string[] = [];
  let n = node;
  let type = n?.type;
  while (n && type === 'attribute') {
    const attr = n.childForFieldName('attribute');
    if (!attr) return undefined;
    parts.push(attr.text);
    n = n.childForFieldName('object');
    type = n?.type;
  }
  if (!n || type !== 'identifier') return undefined;
  parts.push(n.text);
  return parts.reverse();
}

/** `typing.Self` as written in an annotation. */
const SELF_TYPES: ReadonlySet<string> = new Set(['Self', 'typing.Self', 'typing_extensions.Self']);

/** Modules of typing's protocols and abstract types (`TextIO`, `Iterable`, `Mapping`): see PythonReferencePass.#typingNames. */
const TYPING_MODULES: ReadonlySet<string> = new Set(['typing', 'typing_extensions', 'collections.abc']);

/**
 * Annotations that say nothing of the value's class: any object may be there (a codebase class's
 * instance too), so a call on it is no builtin's nor an outside library's.
 */
const ANY_VALUE: ReadonlySet<string> = new Set(['Any', 'typing.Any', 'typing_extensions.Any', 'object']);

/** The class a type annotation names: `Foo`, `mod.Foo`, `'Foo'`, `Optional[Foo]`, `Foo | None`; undefined for anything else (`Any`, `object`). */
function annotatedClass(type: Node | null | undefined): string | undefined {
  const named = writtenClass(type);
  return named === undefined || ANY_VALUE.has(named) ? undefined : named;
}

function writtenClass(type: Node | null | undefined): string | undefined {
  let n = type;
  if (!n) return undefined;
  let t = n.type;
  if (t === 'type') {
    n = n.namedChildren[0] ?? null;
    if (!n) return undefined;
    t = n.type;
  }
  if (t === 'identifier') return n.text;
  if (t === 'attribute') return dottedPath(n)?.join('.');
  if (t === 'string') {
    const text = n.text.replace(/^[rbuRBU]*(['"])(.*)\1$/s, '$2').trim();
    return /^[A-Za-z_][\w.]*$/.test(text) ? text : undefined;
  }
  if (t === 'generic_type') {
    // Optional[X] is X or None: a call on it is a call on X.
    const head = n.namedChildren[0];
    const params = n.namedChildren.find((c) => c?.type === 'type_parameter');
    const args = params?.namedChildren.filter((c): c is Node => c !== null) ?? [];
    if (head?.text === 'Optional' && args.length === 1) return writtenClass(args[0]);
    return undefined;
  }
  if (t === 'subscript' && n.childForFieldName('value')?.text === 'typing.Optional') {
    // typing.Optional[X], read as an expression: X or None.
    const args = n.namedChildren.slice(1);
    return args.length === 1 ? writtenClass(args[0]) : undefined;
  }
  if (t === 'binary_operator') {
    // X | None
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (right?.type === 'none') return writtenClass(left);
    if (left?.type === 'none') return writtenClass(right);
  }
  return undefined;
}

/** The provisional type of a loop's target (PythonReferencePass.#bindLoops): no class has the name. */
const LOOP_MARK = '\u0000loop';

/** Containers whose subscript names what iterating them gives (`list[Row]`, `typing.Sequence[Row]`). */
const ITERABLES: ReadonlySet<string> = new Set(['list', 'List', 'set', 'Set', 'frozenset', 'FrozenSet', 'Sequence', 'MutableSequence', 'Iterable', 'Iterator', 'Collection', 'AbstractSet', 'MutableSet', 'Reversible']);

/** The class of a container annotation's elements (`list[Row]`, `Optional[Sequence['Row']]`, `typing.List[Row]`), else undefined. */
function elementClass(type: Node | null | undefined): string | undefined {
  const n = type?.type === 'type' ? type.namedChildren[0] : type;
  if (!n) return undefined;
  let head: string | undefined;
  let args: Node[] = [];
  if (n.type === 'generic_type') {
    head = n.namedChildren[0]?.text;
    args = n.namedChildren.find((c) => c?.type === 'type_parameter')?.namedChildren.filter((c): c is Node => c !== null) ?? [];
  } else if (n.type === 'subscript') {
    head = n.childForFieldName('value')?.text;
    args = n.namedChildren.slice(1).filter((c): c is Node => c !== null);
  } else return undefined;
  head = head?.replace(/^(typing|collections\.abc)\./, '');
  if (head === 'Optional' && args.length === 1) return elementClass(args[0]);
  if (head === undefined || !ITERABLES.has(head) || args.length !== 1) return undefined;
  return annotatedClass(args[0]);
}

/**
 * Literals by node type, with the builtin type of their value: Python lets no code add or
 * replace a builtin type's methods, so a method called on one is never the codebase's.
 */
const LITERAL_TYPES: Readonly<Record<string, string>> = {
  string: 'str',
  concatenated_string: 'str',
  integer: 'int',
  float: 'float',
  true: 'bool',
  false: 'bool',
  list: 'list',
  list_comprehension: 'list',
  dictionary: 'dict',
  dictionary_comprehension: 'dict',
  set: 'set',
  set_comprehension: 'set',
  tuple: 'tuple',
  generator_expression: 'generator',
};

/** The builtin type of a literal (inside parentheses too), else undefined. */
function literalType(node: Node | null | undefined): string | undefined {
  let n = node;
  while (n?.type === 'parenthesized_expression' && n.namedChildCount === 1) n = n.namedChildren[0];
  return n ? LITERAL_TYPES[n.type] : undefined;
}

/**
 * What `x = <value>` tells about x's type: a constructor-looking call gives its callee path; a
 * literal its builtin type.
 */
function assignedType(value: Node | null | undefined): ScopeBinding['type'] {
  const literal = literalType(value);
  if (literal !== undefined) return { name: literal, literal: true };
  const valueType = value?.type;
  // `s = await find()`, `s = await repo.find()`: what awaiting the call's result gives.
  if (valueType === 'await') {
    const call = value!.namedChildren[0];
    const path = call?.type === 'call' ? dottedPath(call.childForFieldName('function')) : undefined;
    return path ? { name: `${path.join('.')}.${AWAIT_PART}` } : undefined;
  }
  if (valueType !== 'call') return undefined;
  const path = dottedPath(value!.childForFieldName('function'));
  return path ? { name: path.join('.'), constructed: true } : undefined;
}

/**
 * Where the functions decorated `@staticmethod` start (children of a `decorated_definition`
 * that has such a decorator), read from the decorator: a decorator's definition comes after it
 * in document order, so pass 1 knows it before it reaches the function, and asks no function
 * for its `parent` (a walk down from the root in tree-sitter).
 */
function addStaticMethods(decorator: Node, staticMethods: Set<number>, properties: Set<number>): void {
  const written = decorator.namedChildren[0]?.text;
  const out = written === 'staticmethod' ? staticMethods : written !== undefined && PROPERTY_DECORATORS.has(written) ? properties : undefined;
  if (out === undefined) return;
  const decorated = decorator.parent;
  if (decorated?.type !== 'decorated_definition') return;
  for (const child of decorated.namedChildren) if (child?.type === 'function_definition') out.add(child.startIndex);
}

/** Decorators that make a method an attribute of its instances, read without a call: `self.store` runs `store`. */
const PROPERTY_DECORATORS: ReadonlySet<string> = new Set(['property', 'cached_property', 'functools.cached_property']);

function addParameters(scopes: LexicalScopes, scope: number, parameters: Node | null, typeOf: (annotation: Node | null | undefined) => string | undefined): string | undefined {
  let first: string | undefined;
  for (const p of parameters?.namedChildren ?? []) {
    if (!p) continue;
    let name: Node | null | undefined;
    let type: Node | null | undefined;
    switch (p.type) {
      case 'identifier':
        name = p;
        break;
      case 'typed_parameter':
        name = p.namedChildren.find((c) => c?.type === 'identifier');
        type = p.childForFieldName('type');
        break;
      case 'default_parameter':
        name = p.childForFieldName('name');
        break;
      case 'typed_default_parameter':
        name = p.childForFieldName('name');
        type = p.childForFieldName('type');
        break;
      case 'list_splat_pattern':
      case 'dictionary_splat_pattern':
        name = p.namedChildren.find((c) => c?.type === 'identifier');
        break;
    }
    if (name?.type !== 'identifier') continue;
    first ??= name.text;
    const cls = typeOf(type);
    const element = cls === undefined ? elementClass(type) : undefined;
    scopes.bind(scope, name.text, { kind: 'parameter', ...(cls ? { type: { name: cls } } : {}), ...(element !== undefined ? { element } : {}) });
  }
  return first;
}

/** Module name as written in an import: `a.b`, `.models`, `..`, `.`. */
function moduleText(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'dotted_name') return node.text;
  if (node.type === 'relative_import') return node.text.replace(/\s+/g, '');
  return undefined;
}

/**
 * One file's reference pass. Pass 1 opens the scopes and records what each binds (Python
 * decides a name's scope from the whole body); pass 2 reports the sites. Each node kind has a
 * method of its own: V8 optimises small methods cheaply and only those that run hot, where one
 * function holding every case cost the parse workers more compilation time (over 100 ms per
 * compile, several compiles per worker) than the pass itself.
 */
class PythonReferencePass {
  readonly #sink: ReferenceSink;
  readonly #scopes = new LexicalScopes();
  /** Where classes' base lists start: those argument lists are bases, not value uses. */
  readonly #baseLists = new Set<number>();
  /** Right-hand sides of assignments that are names: value uses, once every scope is known. */
  readonly #assignedValues: Node[] = [];
  /** Strings used as values (assigned, passed, listed, returned): those holding a dotted path name a module or its member. */
  readonly #strings: Node[] = [];
  /** Class scopes' class names (for `super(C, self)`), and their name nodes (where a class's own bindings are placed). */
  readonly #classNames = new Map<number, string>();
  readonly #classNameNodes = new Map<number, Node>();
  /** What the file's functions store over members (`self.x = …`, `h.x = stub`). */
  readonly #stored: StoredMembers;
  /** Class scopes by where their class starts (a class's bases are looked up around its scope). */
  readonly #classScopes = new Map<number, number>();
  /** Starts of the functions decorated `@property` (or `@cached_property`). */
  readonly #properties = new Set<number>();
  /** Starts of the functions decorated `@staticmethod`. */
  readonly #staticMethods = new Set<number>();
  /** `for x in y` loops over a name in functions, bound after pass 1 (see #bindLoops). */
  readonly #loops: { readonly scope: number; readonly name: string; readonly iterable: Node; readonly mark: string }[] = [];
  /** `nonlocal` names, with the scope declaring them. */
  readonly #nonlocals: { readonly scope: number; readonly name: string }[] = [];
  /** Module-level assignments of a class's instance or a declared type (`site = AdminSite()`, `x: Foo = make()`), reported last. */
  readonly #moduleValues: { readonly at: Node; readonly name: string; readonly type: string }[] = [];
  /** The calls (awaited or not) assigned to each function's local, by scope and name: see #assignedValue. */
  readonly #localValues = new Map<string, Node[]>();
  /** Class scopes whose class names bases: `self.x` there may be an attribute a base declares. */
  readonly #derivedClasses = new Set<number>();
  /** The assigned calls being read (a value naming its own local, `x = x.next()`, has none). */
  readonly #reading = new Set<number>();
  /** What each local's assigned calls read as (pass 2 only: every binding is known by then). */
  readonly #assignedFacts = new Map<string, Extract<ReceiverFact, { kind: 'type' }> | undefined>();
  /** Names the module binds where no binding of its own says so: definitions, `+=`, `:=`, `global` in a function. */
  readonly #moduleBound = new Set<string>();
  /** Whether the module imports `*` (which may bind any name). */
  #moduleStar = false;
  /**
   * Class scope → the classes its instances' attributes are annotated with, in its body (`store:
   * Store`) or on `self` in its methods (`self.store: Store = …`); null where two annotations
   * disagree.
   */
  readonly #attributeTypes = new Map<number, Map<string, string | null>>();
  /**
   * Names that the file's imports bind to the typing modules (`from typing import TextIO`,
   * `import typing as t`, `import collections.abc`): their types are protocols any object with
   * the methods satisfies, a codebase class's instance too.
   */
  readonly #typingNames = new Set<string>();

  /** The class an annotation names (annotatedClass), unless it is one of the typing modules'. */
  readonly #typeOf = (annotation: Node | null | undefined): string | undefined => this.#notTyping(annotatedClass(annotation));

  /** `type`, unless the typing modules' names make it (`TextIO`, `typing.Hashable`, `cabc.Mapping`). */
  #notTyping(type: string | undefined): string | undefined {
    if (type === undefined || this.#typingNames.size === 0) return type;
    const parts = type.split('.');
    for (let i = 1; i <= parts.length; i++) if (this.#typingNames.has(parts.slice(0, i).join('.'))) return undefined;
    return type;
  }
  constructor(sink: ReferenceSink) {
    this.#sink = sink;
    this.#stored = new StoredMembers(this.#scopes, sink);
  }

  run(root: Node, share: readonly string[] | undefined): void {
    const { nodes, types } = typedDescendants(root, SEARCHED, share);
    for (let i = 0; i < nodes.length; i++) this.#declare(nodes[i]!, types[i]!);
    // `nonlocal x` in an inner function assigns the outer function's x: what the outer one's own
    // assignments say x holds (`x = []`, `x = Foo()`) no longer holds.
    for (const { scope, name } of this.#nonlocals) {
      const outer = this.#scopes.lookupAround(scope, name);
      if (outer !== undefined && this.#scopes.kindOf(outer.scope) !== 'class') this.#scopes.bind(outer.scope, name, { kind: 'local' });
    }
    this.#bindLoops();
    this.#moduleValuesTyped();
    this.#declareAttributes();
    this.#scopes.doneBuilding();
    for (let i = 0; i < nodes.length; i++) this.#report(nodes[i]!, types[i]!);
    for (const value of this.#assignedValues) this.#use('reference', value);
    for (const string of this.#strings) {
      // `'django.contrib.auth.backends.ModelBackend'`: code that imports by name may load it.
      const path = DOTTED_STRING.exec(string.text)?.[2];
      if (path !== undefined) this.#sink.site(string, { kind: 'reference', name: path, dotted: true });
    }
  }

  // Pass 1: scopes and bindings.

  /**
   * Module-level values of a class (`site = AdminSite()` then `site.register(…)` or, elsewhere,
   * `admin.site.register(…)`): an `assign` binding with the class as written, which the
   * resolver reads as it reads Go's `var std = &Logger{}`, when nothing else in the file binds
   * the name (a `def`, `+=`, `:=`, a `global` statement in a function, a `*` import; other
   * assignments, `for` and `with` targets and imports are bindings the resolver weighs itself):
   * the value is then the one the assignment made.
   * Assignments of one name that disagree on the class type it not at all.
   */
  #moduleValuesTyped(): void {
    for (const { at, name, type } of this.#moduleValues) {
      const typed = !this.#moduleStar && !this.#moduleBound.has(name);
      this.#sink.binding(at, typed ? { kind: 'assign', name, module: type } : { kind: 'assign', name });
    }
  }

  #declare(node: Node, type: string): void {
    if (type === 'decorator') addStaticMethods(node, this.#staticMethods, this.#properties);
    else if (SCOPES.has(type)) this.#openScope(node, type);
    else if (BINDERS.has(type)) this.#bind(node, type, this.#scopes.innermostAt(node.startIndex));
  }

  #openScope(node: Node, type: string): void {
    const scopes = this.#scopes;
    const definition = type === 'function_definition' || type === 'class_definition';
    const enclosing = scopes.innermostAt(node.startIndex);
    // A comprehension's first iterable is evaluated in the scope around it (where a class body's names are seen).
    const outside = COMPREHENSIONS.has(type) ? node.namedChildren.find((c) => c?.type === 'for_in_clause')?.childForFieldName('right') : undefined;
    const scope = scopes.open(node, type === 'class_definition' ? 'class' : 'function', outside);
    if (type === 'class_definition') {
      this.#classScopes.set(node.startIndex, scope);
      const bases = node.childForFieldName('superclasses');
      if (bases) this.#baseLists.add(bases.startIndex);
      if (bases && bases.namedChildCount > 0) this.#derivedClasses.add(scope);
    }
    if (definition) {
      const name = node.childForFieldName('name');
      if (name && type === 'class_definition') {
        this.#classNames.set(scope, name.text);
        this.#classNameNodes.set(scope, name);
      }
      if (name && enclosing >= 0) scopes.bind(enclosing, name.text, { kind: 'definition' });
      else if (name) this.#moduleBound.add(name.text);
    }
    if (type === 'function_definition') {
      const inClass = enclosing >= 0 && scopes.kindOf(enclosing) === 'class';
      this.#declareResult(node, inClass ? this.#classNames.get(enclosing) : undefined, inClass ? enclosing : -1);
      const first = addParameters(scopes, scope, node.childForFieldName('parameters'), this.#typeOf);
      if (inClass && first !== undefined && !this.#staticMethods.has(node.startIndex)) scopes.setSelf(scope, first);
    } else if (type === 'lambda') {
      addParameters(scopes, scope, node.childForFieldName('parameters'), this.#typeOf);
    }
  }

  /**
   * What a function declares it returns (`def create(cls) -> 'Store'`, `-> Optional[Store]`): a
   * `returns` binding, read where `Store.create().get()` or `s = make_store()` then `s.get()`
   * calls on the result. Not a type parameter of its own (`def first[T](xs: list[T]) -> T`). An
   * `async def`'s is an `awaits` binding instead: a call of it makes a coroutine, the declared
   * value only comes by `await` (`s = await find()`, `(await find()).get()`).
   */
  #declareResult(node: Node, className: string | undefined, classScope: number): void {
    const annotation = node.childForFieldName('return_type');
    if (!annotation) return;
    const name = node.childForFieldName('name');
    // `-> Self` in a method: an instance of the class (or of a subclass, which dispatch covers).
    const written = annotatedClass(annotation);
    const type = written !== undefined && SELF_TYPES.has(written) ? className : this.#notTyping(written);
    if (!name || type === undefined) return;
    const own = node.childForFieldName('type_parameters') ?? node.namedChildren.find((c) => c?.type === 'type_parameter');
    const head = type.split('.')[0]!;
    if (own?.namedChildren.some((p) => p?.text === head || p?.namedChildren[0]?.text === head)) return;
    if (node.firstChild?.type === 'async') {
      this.#sink.binding(name, { kind: 'awaits', name: name.text, module: type });
      return;
    }
    this.#sink.binding(name, { kind: 'returns', name: name.text, module: type });
    // `@property def store(self) -> Store`: `self.store` is a Store, as an annotated attribute is.
    if (classScope >= 0 && this.#properties.has(node.startIndex)) this.#annotateAttribute(classScope, name.text, type);
  }

  #bind(node: Node, type: string, scope: number): void {
    switch (type) {
      case 'assignment':
        this.#bindAssignment(node, scope);
        break;
      case 'augmented_assignment':
        for (const name of targetNames(node.childForFieldName('left'))) {
          if (scope >= 0) this.#scopes.bind(scope, name.text, { kind: 'local' });
          else this.#moduleBound.add(name.text);
        }
        break;
      case 'for_statement':
      case 'for_in_clause': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        // `for row in rows` with `rows: list[Row]`: typed once every binding of rows is known;
        // meanwhile of a type of its own, which any other binding of row unties.
        if (scope >= 0 && left?.type === 'identifier' && right?.type === 'identifier') {
          const mark = { name: `${LOOP_MARK}${this.#loops.length}` };
          this.#loops.push({ scope, name: left.text, iterable: right, mark: mark.name });
          this.#scopes.bind(scope, left.text, { kind: 'local', type: mark });
        } else this.#bindTargets(left, scope);
        break;
      }
      case 'as_pattern':
        this.#bindTargets(node.childForFieldName('alias'), scope);
        break;
      case 'named_expression': {
        const name = node.childForFieldName('name');
        // The walrus binds in the nearest function, even inside a comprehension.
        const fn = this.#scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
        if (name && fn >= 0) this.#scopes.bind(fn, name.text, { kind: 'local' });
        else if (name) this.#moduleBound.add(name.text);
        break;
      }
      case 'global_statement':
      case 'nonlocal_statement':
        for (const name of node.namedChildren) {
          if (name?.type !== 'identifier' || scope < 0) continue;
          this.#scopes.bind(scope, name.text, { kind: 'global' });
          if (type === 'nonlocal_statement') this.#nonlocals.push({ scope, name: name.text });
          else this.#moduleBound.add(name.text); // a function may assign the module's name
        }
        break;
      case 'import_statement':
        this.#bindImport(node, scope);
        break;
      case 'import_from_statement':
        this.#bindImportFrom(node, scope);
        break;
    }
  }

  /**
   * `for row in rows`: row holds rows's elements, of the class its annotation declares
   * (`rows: list[Row]`) when every binding of rows says so; read when the function's bindings are
   * all known, as a later `rows = other` in a loop around makes a second pass iterate that.
   */
  #bindLoops(): void {
    const scopes = this.#scopes;
    for (const { scope, name, iterable, mark } of this.#loops) {
      const bound = scopes.own(scope, name);
      // Another binding of the name untied the mark: untyped.
      if (bound?.type?.name !== mark) continue;
      const element = scopes.lookup(iterable.startIndex, iterable.text)?.binding.element;
      const typed = element !== undefined && this.#free(iterable.startIndex, element.split('.')[0]!);
      scopes.replace(scope, name, typed ? { kind: bound.kind, type: { name: element } } : { kind: bound.kind });
    }
  }

  /** Names a `for`, `with … as` or `except … as` target binds: locals in a function, module names at module level. */
  #bindTargets(target: Node | null, scope: number): void {
    for (const name of targetNames(target)) {
      if (scope >= 0) this.#scopes.bind(scope, name.text, { kind: 'local' });
      else this.#sink.binding(name, { kind: 'assign', name: name.text });
    }
  }

  #bindAssignment(node: Node, scope: number): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    // A value stored under a name: a use of the function it may be (resolved in pass 2).
    valueOperands(right, this.#assignedValues, this.#strings);
    // `self.x = …`, `a[i] = …` bind no name (most assignments in methods): nothing more to read,
    // but what a method stores on its instance, which hides a method of the name.
    const leftType = left?.type;
    if (leftType === 'attribute') this.#attributeStore(left!, node.childForFieldName('type'));
    if (leftType === 'attribute' || leftType === 'subscript') return;
    const annotation = leftType === 'identifier' ? node.childForFieldName('type') : null;
    const declared = annotation ? this.#typeOf(annotation) : undefined;
    // `store: Store` in a class body: what the instances' attribute holds.
    if (declared !== undefined && scope >= 0 && this.#scopes.kindOf(scope) === 'class') this.#annotateAttribute(scope, left!.text, declared);
    const inferred = declared ? { name: declared } : leftType === 'identifier' ? assignedType(right) : undefined;
    const element = declared === undefined && annotation ? elementClass(annotation) : undefined;
    // `d = repo.make()`: read in pass 2 if repo is a local (#assignedValue).
    if (scope >= 0 && declared === undefined && inferred !== undefined && inferred.literal !== true) {
      const key = `${scope}\u0000${left!.text}`;
      const values = this.#localValues.get(key);
      if (values) values.push(right!);
      else this.#localValues.set(key, [right!]);
    }
    for (const name of targetNames(left)) {
      if (scope >= 0) this.#scopes.bind(scope, name.text, { kind: 'local', ...(inferred ? { type: inferred } : {}), ...(element !== undefined ? { element } : {}) });
      // `site = AdminSite()` at module level: typed once the whole file is read (see #moduleValuesTyped).
      else if (inferred !== undefined && inferred.literal !== true && leftType === 'identifier') this.#moduleValues.push({ at: name, name: name.text, type: inferred.name });
      else this.#sink.binding(name, { kind: 'assign', name: name.text });
    }
    if (scope < 0 && leftType === 'identifier' && left!.text === '__all__') this.#exports(right);
  }

  /**
   * `o.x = …` (see StoredMembers): `self.x = …` in a method (or `cls.x = …` in a class method)
   * stores on the class's instances (or the class), `h.x = …` on a local's or parameter's value.
   */
  #attributeStore(target: Node, annotation: Node | null): void {
    const object = target.childForFieldName('object');
    const attribute = target.childForFieldName('attribute');
    if (object?.type !== 'identifier' || !attribute) return;
    const found = this.#scopes.lookup(object.startIndex, object.text);
    const kind = found?.binding.kind;
    if (kind === 'self') {
      const cls = this.#scopes.parentOf(found!.scope);
      const at = cls >= 0 ? this.#classNameNodes.get(cls) : undefined;
      if (at !== undefined) this.#stored.onInstance(cls, at, attribute.text);
      // `self.store: Store = …`
      const declared = annotation ? this.#typeOf(annotation) : undefined;
      if (declared !== undefined && at !== undefined) this.#annotateAttribute(cls, attribute.text, declared);
    } else if (kind === 'local' || kind === 'parameter') this.#stored.onValue(found!.scope, object.text, attribute.text);
  }

  /**
   * What a subclass's `self.store` reads: a `field` binding with its class for each attribute a
   * class annotates itself (`store: Store`, `self.store: Store = …`, a typed `@property`), at the
   * class's name.
   */
  #declareAttributes(): void {
    for (const [cls, types] of this.#attributeTypes) {
      const at = this.#classNameNodes.get(cls);
      if (at === undefined) continue;
      for (const [name, type] of types) if (type !== null) this.#sink.binding(at, { kind: 'field', name, module: type });
    }
  }

  #annotateAttribute(cls: number, name: string, type: string): void {
    let types = this.#attributeTypes.get(cls);
    if (!types) this.#attributeTypes.set(cls, (types = new Map()));
    const before = types.get(name);
    types.set(name, before === undefined || before === type ? type : null);
  }

  /** The class scope of the method whose `self` (or `cls`) `name` is at `at`; undefined for any other name. */
  #selfClass(at: number, name: string): number | undefined {
    const found = this.#scopes.lookup(at, name);
    return found?.binding.kind === 'self' ? this.#scopes.parentOf(found.scope) : undefined;
  }

  /**
   * `self.store` in a method of a class that annotates `store` itself (in its body or on `self`):
   * a value of that class. An attribute the class does not annotate is, in a class with bases,
   * the one a base may annotate (a `self` receiver with the attribute, see ReceiverFact), else of
   * unknown type.
   */
  #selfAttribute(cls: number, attribute: Node, at: number): ReceiverFact | 'dynamic' {
    const type = this.#attributeTypes.get(cls)?.get(attribute.text);
    // Not annotated here: what the bases declare, if they do.
    if (type === undefined) return this.#derivedClasses.has(cls) ? { kind: 'self', attribute: attribute.text } : 'dynamic';
    if (type === null || !this.#free(at, type.split('.')[0]!)) return 'dynamic';
    return { kind: 'type', type };
  }

  /** `__all__ = ['a', 'b']`: the module exports those names. */
  #exports(list: Node | null): void {
    for (const item of list?.namedChildren ?? []) {
      if (item?.type !== 'string') continue;
      const text = item.text.replace(/^[rbuRBU]*(['"])(.*)\1$/s, '$2');
      if (/^[A-Za-z_]\w*$/.test(text)) this.#sink.binding(item, { kind: 'export', name: text, member: text });
    }
  }

  #bindImport(node: Node, scope: number): void {
    for (const item of node.namedChildren) {
      if (!item) continue;
      const aliased = item.type === 'aliased_import';
      const dotted = aliased ? item.childForFieldName('name') : item;
      const alias = aliased ? item.childForFieldName('alias')?.text : undefined;
      const module = moduleText(dotted);
      if (!module || !dotted) continue;
      this.#sink.site(dotted, { kind: 'import', name: module });
      if (TYPING_MODULES.has(module)) this.#typingNames.add(alias ?? module);
      // `import a.b` binds `a` (the package); `import a.b as m` binds m to a.b.
      const name = alias ?? module.split('.')[0]!;
      const bound = alias ? module : name;
      this.#sink.binding(dotted, { kind: 'module', name, module: bound });
      if (scope >= 0) this.#scopes.bind(scope, name, { kind: 'import' });
    }
  }

  #bindImportFrom(node: Node, scope: number): void {
    const moduleNode = node.childForFieldName('module_name');
    const module = moduleText(moduleNode);
    if (!module || !moduleNode) return;
    this.#sink.site(moduleNode, { kind: 'import', name: module });
    for (const item of node.namedChildren) {
      if (!item || item === moduleNode || item.startIndex === moduleNode.startIndex) continue;
      const type = item.type;
      if (type === 'wildcard_import') {
        this.#sink.binding(item, { kind: 'star', name: '*', module });
        if (scope < 0) this.#moduleStar = true;
        continue;
      }
      const dotted = type === 'aliased_import' ? item.childForFieldName('name') : type === 'dotted_name' ? item : null;
      if (!dotted) continue;
      const member = dotted.text;
      const name = type === 'aliased_import' ? (item.childForFieldName('alias')?.text ?? member) : member;
      if (TYPING_MODULES.has(module)) this.#typingNames.add(name);
      this.#sink.binding(item, { kind: 'member', name, module, member });
      if (scope >= 0) this.#scopes.bind(scope, name, { kind: 'import' });
    }
  }

  // Pass 2: sites.

  #report(node: Node, type: string): void {
    switch (type) {
      case 'call':
        this.#call(node);
        return;
      case 'decorator':
        this.#decorator(node);
        return;
      case 'class_definition':
        this.#bases(node);
        return;
    }
    // Functions used as values: passed, returned, stored in collections, assigned.
    if (VALUE_PARENTS.has(type)) this.#values(node, type);
  }

  #call(node: Node): void {
    const fn = node.childForFieldName('function');
    // `use` gives back an identifier's text (undefined for anything else).
    const name = fn ? this.#use('call', fn) : undefined;
    if (name === 'getattr' && this.#free(fn!.startIndex, 'getattr')) this.#attributeLookup(node);
  }

  #decorator(node: Node): void {
    // A decorated definition is registered, wrapped or exposed by its decorator: never dead.
    const definition = node.parent?.childForFieldName('definition');
    if (definition) this.#sink.flag(definition, 'decorated');
    const expr = node.namedChildren[0];
    // `@app.route(...)` is a call node of its own; `@cached` calls `cached` with the function.
    if (!expr) return;
    const type = expr.type;
    if (definition) {
      // What receives the definition may have it called where no edge shows (a property's
      // getter runs on every read of the attribute): its callers answers say so.
      const written = decoratorName(expr, type);
      if (!this.#keepsCalls(written, expr.startIndex)) this.#sink.binding(node, { kind: 'decorator', name: written }, definition);
    }
    if (type === 'identifier' || type === 'attribute') this.#use('call', expr, type);
  }

  /**
   * Whether a decorator returns the definition itself or a wrapper called only where the name
   * is (`staticmethod`, `functools.lru_cache`, `contextlib.contextmanager`…): the name's calls
   * are then all the calls there are. Only when the name is the module's or an import, never a
   * parameter's or local's.
   */
  #keepsCalls(written: string, at: number): boolean {
    return CALLS_KEPT_BY.has(written) && this.#free(at, written.split('.')[0]!);
  }

  /**
   * A class's bases, in order. Every base is a site, the ones no declaration names too: a base
   * computed by a call (`namedtuple('P', 'x y')`, `Manager.from_queryset(QS)`), a parameter's or
   * local's value, may define any member, and in the class's order it comes before the bases
   * after it (`class A(make_mixin(), B)`: `self.m()` may be the mixin's, never surely B's).
   */
  #bases(node: Node): void {
    const scope = this.#classScopes.get(node.startIndex);
    for (const base of node.childForFieldName('superclasses')?.namedChildren ?? []) {
      if (!base) continue;
      const baseType = base.type;
      // `metaclass=M`, `**options`: arguments of the class's creation, not bases.
      if (baseType === 'keyword_argument' || baseType === 'dictionary_splat' || baseType === 'comment') continue;
      const expr = baseType === 'subscript' ? base.childForFieldName('value') : base;
      const path = dottedPath(expr);
      if (!expr || !path) {
        this.#sink.site(base, { kind: 'inherits', name: writtenBase(base), fixed: 'dynamic' });
        continue;
      }
      const name = path[path.length - 1]!;
      const at = expr.type === 'attribute' ? (expr.childForFieldName('attribute') ?? expr) : expr;
      // Bases are evaluated around the class: a parameter or local there is a value, and a
      // name of an enclosing class's body is one the graph does not look up from here.
      const found = scope === undefined ? undefined : this.#scopes.lookupAround(scope, path[0]!);
      const bound = found?.binding.kind;
      if (bound === 'parameter' || bound === 'self') this.#sink.site(at, { kind: 'inherits', name, fixed: 'parameter' });
      else if (bound === 'local') this.#sink.site(at, { kind: 'inherits', name, fixed: 'local-variable' });
      else if (found !== undefined && this.#scopes.kindOf(found.scope) === 'class') this.#sink.site(at, { kind: 'inherits', name, fixed: 'dynamic' });
      else this.#sink.site(at, { kind: 'inherits', name, ...(path.length > 1 ? { receiver: { kind: 'path', path: path.slice(0, -1) } } : {}) });
    }
  }

  #values(node: Node, type: string): void {
    // A class's bases are an argument list too: they are `inherits` sites already.
    if (type === 'argument_list' && this.#baseLists.has(node.startIndex)) return;
    if (type === 'keyword_argument' || type === 'pair') {
      for (const operand of valueOperands(node.childForFieldName('value'), [], this.#strings)) this.#use('reference', operand);
      return;
    }
    for (const value of node.namedChildren) for (const operand of valueOperands(value, [], this.#strings)) this.#use('reference', operand);
  }

  /** A name that, at `at`, can only mean a module-level or imported thing (not a local value). */
  #free(at: number, name: string): boolean {
    const b = this.#scopes.lookup(at, name)?.binding.kind;
    return b === undefined || b === 'import' || b === 'definition' || b === 'global';
  }

  #receiverOf(object: Node, at: number): ReceiverFact | 'dynamic' | 'builtin' {
    const objectType = object.type;
    if (objectType === 'identifier') return this.#namedReceiver(object.text, at);
    if (objectType === 'parenthesized_expression') {
      const inner = object.namedChildren[0];
      return inner && object.namedChildCount === 1 ? this.#receiverOf(inner, at) : 'dynamic';
    }
    if (objectType === 'await') {
      // `(await repo.find()).get()`: what awaiting the call's result gives.
      const call = object.namedChildren[0];
      const result = call?.type === 'call' ? this.#receiverOf(call, at) : 'dynamic';
      return result !== 'dynamic' && result !== 'builtin' && result.kind === 'type' && result.constructed === true ? { kind: 'type', type: `${result.type}.${AWAIT_PART}` } : 'dynamic';
    }
    if (literalType(object) !== undefined) return 'builtin';
    if (objectType === 'attribute') {
      const inner = object.childForFieldName('object');
      const attribute = object.childForFieldName('attribute');
      const cls = inner?.type === 'identifier' && attribute && (this.#attributeTypes.size > 0 || this.#derivedClasses.size > 0) ? this.#selfClass(at, inner.text) : undefined;
      if (cls !== undefined) return this.#selfAttribute(cls, attribute!, at);
      const path = dottedPath(object);
      return path && this.#free(at, path[0]!) ? { kind: 'path', path } : 'dynamic';
    }
    if (objectType === 'call') {
      const fn = object.childForFieldName('function');
      const fnType = fn?.type;
      if (fnType === 'identifier' && fn!.text === 'super' && this.#scopes.lookup(at, 'super') === undefined) return this.#superOf(object, at);
      const path = dottedPath(fn);
      if (path && this.#free(at, path[0]!)) return { kind: 'type', type: path.join('.'), constructed: true };
      if (fnType === 'attribute') return this.#resultOfMethod(fn!, at);
    }
    return 'dynamic';
  }

  /**
   * `q.filter().run()` where q's class is known (annotated, constructed, `self`, or itself such
   * a result: `Query().filter().filter()`): what `filter` declares it returns, as
   * `Query.filter().run()` reads it (the method's result, looked up on the class).
   */
  #resultOfMethod(fn: Node, at: number): ReceiverFact | 'dynamic' {
    const object = fn.childForFieldName('object');
    const attribute = fn.childForFieldName('attribute');
    if (!object || !attribute) return 'dynamic';
    const inner = this.#receiverOf(object, at);
    if (inner === 'dynamic' || inner === 'builtin') return 'dynamic';
    let type: string | undefined;
    if (inner.kind === 'type') type = inner.constructed === true ? `${inner.type}.${RESULT_PART}` : inner.type;
    else if (inner.kind === 'self' && inner.attribute === undefined) {
      const scope = this.#selfClass(at, object.text);
      const cls = scope === undefined ? undefined : this.#classNames.get(scope);
      if (cls !== undefined && this.#free(at, cls)) type = cls;
    }
    return type === undefined ? 'dynamic' : { kind: 'type', type: `${type}.${attribute.text}`, constructed: true };
  }

  /**
   * `super()`, or `super(C, obj)` naming the enclosing class `C`, starts at the class's bases;
   * `super(Other, obj)` starts after Other in obj's class order, which the file cannot know.
   */
  #superOf(call: Node, at: number): ReceiverFact | 'dynamic' {
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    if (args.length === 0) return { kind: 'super' };
    const first = args[0];
    const cls = this.#scopes.enclosingFunction(at, (k) => k === 'class');
    return first?.type === 'identifier' && cls >= 0 && this.#classNames.get(cls) === first.text ? { kind: 'super' } : 'dynamic';
  }

  /** What a receiver named `name` is at `at`. */
  #namedReceiver(name: string, at: number): ReceiverFact | 'dynamic' | 'builtin' {
    const found = this.#scopes.lookup(at, name);
    if (found === undefined) return { kind: 'path', path: [name] };
    const binding = found.binding;
    if (binding.kind === 'self') return { kind: 'self' };
    const type = binding.type;
    if (type?.literal === true) return 'builtin';
    if (type) {
      if (this.#free(at, type.name.split('.')[0]!)) return { kind: 'type', type: type.name, ...(type.constructed ? { constructed: true } : {}) };
      // `x = catalog.add()` where catalog is itself a local: what the call gives, read where it is written.
      return this.#assignedValue(found.scope, name) ?? 'dynamic';
    }
    if (binding.kind === 'import' || binding.kind === 'definition' || binding.kind === 'global') return { kind: 'path', path: [name] };
    return 'dynamic';
  }

  /**
   * What a function's local holds when it was assigned calls on another local, a parameter or
   * `self` (`d = repo.make()` with `repo: Repo`, `qs = self.get_queryset()`, `s = await
   * repo.find()`): each assigned call read as a receiver where it is written, when they all
   * agree; undefined otherwise (nothing declares what the value is).
   */
  #assignedValue(scope: number, name: string): ReceiverFact | undefined {
    const key = `${scope}\u0000${name}`;
    if (this.#assignedFacts.has(key)) return this.#assignedFacts.get(key);
    const values = this.#localValues.get(key);
    if (values === undefined) return undefined;
    const fact = this.#agreedValue(values);
    this.#assignedFacts.set(key, fact);
    return fact;
  }

  /** What every one of a local's assigned calls reads as, when they agree (see #assignedValue). */
  #agreedValue(values: readonly Node[]): Extract<ReceiverFact, { kind: 'type' }> | undefined {
    let agreed: Extract<ReceiverFact, { kind: 'type' }> | undefined;
    for (const value of values) {
      if (this.#reading.has(value.startIndex)) return undefined;
      this.#reading.add(value.startIndex);
      let fact: ReceiverFact | 'dynamic' | 'builtin';
      try {
        fact = this.#receiverOf(value, value.startIndex);
      } finally {
        this.#reading.delete(value.startIndex);
      }
      if (fact === 'dynamic' || fact === 'builtin' || fact.kind !== 'type') return undefined;
      if (agreed !== undefined && (agreed.type !== fact.type || agreed.constructed !== fact.constructed)) return undefined;
      agreed = fact;
    }
    return agreed;
  }

  /**
   * A call, decorator or value use of `target` (an identifier or attribute), whose type the
   * caller may know already (`targetType`). Returns the identifier's text (for the caller's
   * `getattr` check), else undefined.
   */
  #use(kind: 'call' | 'reference', target: Node, targetType: string = target.type): string | undefined {
    if (targetType === 'identifier') return this.#useName(kind, target);
    if (targetType !== 'attribute') return undefined;
    const attr = target.childForFieldName('attribute');
    const object = target.childForFieldName('object');
    if (!attr || !object) return undefined;
    const receiver = this.#receiverOf(object, target.startIndex);
    if (receiver === 'builtin') {
      // `', '.join(names)`: str's, whatever the codebase defines.
      this.#sink.site(attr, { kind, name: attr.text, fixed: 'builtin' });
      return undefined;
    }
    if (receiver === 'dynamic' || (receiver.kind === 'type' && object.type === 'identifier' && this.#stored.storedOn(object.text, attr.text, target.startIndex))) {
      // A value use too (`callback=other.handle`): nothing resolves it, but dead code must know
      // some method of that name may be used.
      this.#sink.site(attr, { kind, name: attr.text, fixed: 'dynamic' });
      return undefined;
    }
    const classBody = receiver.kind === 'path' && this.#importedInClassBody(this.#scopes.lookup(target.startIndex, receiver.path[0]!));
    this.#sink.site(attr, { kind, name: attr.text, receiver, ...(classBody ? { classBody } : {}) });
    return undefined;
  }

  #useName(kind: 'call' | 'reference', target: Node): string {
    const at = target.startIndex;
    const text = target.text;
    // `super()` is part of the `super().m()` construct (a super receiver), not a call of interest.
    if (text === 'super' && kind === 'call' && target.parent?.parent?.type === 'attribute' && this.#free(at, 'super')) return text;
    const found = this.#scopes.lookup(at, text);
    const b = found?.binding.kind;
    if (b === 'parameter' || b === 'self') {
      if (kind === 'call') this.#sink.site(target, { kind, name: text, fixed: 'parameter' });
      return text;
    }
    if (b === 'local') {
      if (kind === 'call') this.#sink.site(target, { kind, name: text, fixed: 'local-variable' });
      return text;
    }
    // A name the class body around the site defines (`helper(1)` beside `def helper` in the
    // body, a decorator defined there): the class's own member, not the module's of that name.
    if (b === 'definition' && this.#scopes.kindOf(found!.scope) === 'class') {
      this.#sink.site(target, { kind, name: text, receiver: { kind: 'self' } });
      return text;
    }
    // One an import in that body binds: the import's, not the module's either.
    this.#sink.site(target, { kind, name: text, ...(this.#importedInClassBody(found) ? { classBody: true } : {}) });
    return text;
  }

  /**
   * Whether a lookup found an import of the class body the site is directly in (a lookup sees a
   * class's own names only there: not from its methods, comprehensions or lambdas).
   */
  #importedInClassBody(found: ReturnType<LexicalScopes['lookup']>): boolean {
    return found !== undefined && found.binding.kind === 'import' && this.#scopes.kindOf(found.scope) === 'class';
  }

  /**
   * `getattr(obj, name)`: a use of the attribute it names. A literal name is a use of that name
   * (`getattr(self, 'clean')`); a computed one is a use of every name it can produce, recorded as
   * a pattern: its literal start and `*` (`getattr(node, 'as_' + vendor)` → `as_*`), with `self.`
   * before it when the object is `self` (`getattr(self, piece)` → `self.*`: any method of the
   * class, its bases or its subclasses). Nothing resolves these; dead code reads them (no name
   * of a definition holds `*`). A computed name on another object with no literal start could be
   * any name at all, and is not recorded.
   */
  #attributeLookup(call: Node): void {
    const args = call.childForFieldName('arguments');
    if (args?.type !== 'argument_list') return;
    const [object, nameArg] = args.namedChildren;
    if (!object || !nameArg || object.type === 'keyword_argument' || nameArg.type === 'keyword_argument' || nameArg.type === 'list_splat') return;
    const literal = literalText(nameArg);
    if (literal !== undefined) {
      if (/^[A-Za-z_]\w*$/.test(literal)) this.#sink.site(nameArg, { kind: 'reference', name: literal, fixed: 'dynamic' });
      return;
    }
    const start = literalStart(nameArg);
    const onSelf = object.type === 'identifier' && this.#scopes.lookup(object.startIndex, object.text)?.binding.kind === 'self';
    if (start === '' && !onSelf) return;
    if (start !== '' && !/^[A-Za-z_]\w*$/.test(start)) return;
    this.#sink.site(nameArg, { kind: 'reference', name: `${onSelf ? 'self.' : ''}${start}*`, fixed: 'dynamic' });
  }
}

/**
 * Decorators after which a definition is called only through its name (see #keepsCalls): the
 * builtins and standard-library decorators that return it or a wrapper of it.
 */
const CALLS_KEPT_BY: ReadonlySet<string> = new Set(
  [
    'staticmethod',
    'classmethod',
    ...['abstractmethod', 'abstractclassmethod', 'abstractstaticmethod'].flatMap((n) => [n, `abc.${n}`]),
    ...['overload', 'override', 'final', 'no_type_check'].flatMap((n) => [n, `typing.${n}`, `typing_extensions.${n}`]),
    ...['wraps', 'lru_cache', 'cache', 'total_ordering'].flatMap((n) => [n, `functools.${n}`]),
    ...['contextmanager', 'asynccontextmanager'].flatMap((n) => [n, `contextlib.${n}`]),
    ...['dataclass'].flatMap((n) => [n, `dataclasses.${n}`]),
  ],
);

/** A decorator as written (see writtenDecorator). */
function decoratorName(expr: Node, type: string): string {
  return writtenDecorator(expr, dottedPath(type === 'call' ? expr.childForFieldName('function') : expr));
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  new PythonReferencePass(sink).run(root, share);
}

/** The text of a string literal without interpolation or prefix letters that change it (`'as_'`, `"x"`), else undefined. */
function literalText(node: Node): string | undefined {
  if (node.type === 'concatenated_string') {
    let text = '';
    for (const part of node.namedChildren) {
      const t = part ? literalText(part) : undefined;
      if (t === undefined) return undefined;
      text += t;
    }
    return text;
  }
  if (node.type !== 'string') return undefined;
  let text = '';
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'string_start') {
      if (/[fFbB]/.test(child.text)) return undefined; // f-strings interpolate; bytes are no attribute names
    } else if (child.type === 'string_content') text += child.text;
    else if (child.type !== 'string_end') return undefined; // interpolation, escape sequences
  }
  return text;
}

/**
 * The literal start of a computed string: `'as_' + vendor`, `'clean_%s' % name`,
 * `'as_{}'.format(v)`, `f'render_{name}'` → `as_`, `clean_`, `as_`, `render_`; '' when it does
 * not start with a literal.
 */
function literalStart(node: Node): string {
  switch (node.type) {
    case 'parenthesized_expression':
      return node.namedChildren[0] ? literalStart(node.namedChildren[0]) : '';
    case 'binary_operator': {
      const left = node.childForFieldName('left');
      const operator = node.childForFieldName('operator')?.text;
      if (!left) return '';
      if (operator === '+') return literalText(left) ?? literalStart(left);
      if (operator === '%') return upTo(literalText(left), '%');
      return '';
    }
    case 'call': {
      const fn = node.childForFieldName('function');
      if (fn?.type === 'attribute' && fn.childForFieldName('attribute')?.text === 'format') {
        const object = fn.childForFieldName('object');
        return object ? upTo(literalText(object), '{') : '';
      }
      return '';
    }
    case 'string': {
      // An f-string: the content before its first interpolation.
      const start = node.namedChildren[0];
      if (!start || start.type !== 'string_start' || !/[fF]/.test(start.text) || /[bB]/.test(start.text)) return '';
      let text = '';
      for (const child of node.namedChildren.slice(1)) {
        if (child?.type === 'string_content') text += child.text;
        else break;
      }
      return upTo(text, '{');
    }
    default:
      return '';
  }
}

/** `text` up to the first `stop` (all of it when absent); '' for no text. */
function upTo(text: string | undefined, stop: string): string {
  if (text === undefined) return '';
  const at = text.indexOf(stop);
  return at < 0 ? text : text.slice(0, at);
}

/**
 * The Python reference visitor: calls (with `self`, `super()`, typed and module receivers),
 * decorators, bases, imports, functions used as values and `__all__` exports.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...python, references: pythonReferences };
 * ```
 */
export const pythonReferences = visit;
