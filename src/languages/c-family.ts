import type { Node } from 'web-tree-sitter';
import { collapseSpaces, namedChildren, typeSet } from './common.js';
import type { VisitorSink } from './types.js';

// Declarator logic shared by the C and C++ visitors. tree-sitter-c and tree-sitter-cpp name their
// nodes alike (the C++ grammar extends the C one), so one walker serves both; node types that only
// exist in C++ (reference_declarator, qualified_identifier, ...) simply never occur in C trees.

/** Node types that end a declarator chain: the declared name itself. */
const NAME_TYPES = typeSet(
  'identifier',
  'field_identifier',
  'type_identifier',
  'qualified_identifier',
  'destructor_name',
  'operator_name',
  'operator_cast',
  'template_function',
);

/** Struct-like specifiers that become class rows when they have a body. */
const SPECIFIER_TYPES = typeSet('class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier');

/** Containers whose members are spliced into the enclosing member list (`#ifdef` inside a struct). */
const PREPROC_CONTAINERS = typeSet('preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef');

/**
 * Where a declarator chain ends.
 *
 * @example
 * ```ts
 * const found: DeclaratorName | undefined = declaratorName(fieldDeclaration.childForFieldName('declarator'));
 * if (found?.isFunction) console.log('a member function:', plainName(found.node));
 * ```
 */
export interface DeclaratorName {
  /** The name node (identifier, qualified_identifier, destructor_name, operator_cast...). */
  readonly node: Node;
  /**
   * True when the name declares a function: the nearest wrapper around it (parentheses aside)
   * is a function_declarator, or it is a conversion operator. `int (*fp)(int)` is a pointer to
   * a function (false); `int (*h(int))(int)` is a function returning one (true).
   */
  readonly isFunction: boolean;
  /** True when a function_declarator occurs anywhere on the chain. */
  readonly hasFunctionDeclarator: boolean;
}

/**
 * Descends a declarator chain (pointer, reference, function, parenthesized, array, init,
 * attributed declarators...) to the declared name.
 *
 * @example
 * ```ts
 * // char **g(int a) { ... }  ->  the identifier `g`, isFunction true
 * const found = declaratorName(functionDefinition.childForFieldName('declarator'));
 * found?.node.text; // 'g'
 * ```
 */
export function declaratorName(declarator: Node | null | undefined): DeclaratorName | undefined {
  let node = declarator ?? undefined;
  let wrapper: string | undefined;
  let hasFunctionDeclarator = false;
  // Declarator chains are short; the bound only guards against a malformed (ERROR) tree.
  for (let depth = 0; node && depth < 64; depth++) {
    if (NAME_TYPES.has(node.type)) {
      // A conversion operator carries its own function part: `operator bool() const`.
      const isFunction = lastComponent(node).type === 'operator_cast' || wrapper === 'function_declarator';
      return { node, isFunction, hasFunctionDeclarator: hasFunctionDeclarator || isFunction };
    }
    if (node.type === 'function_declarator') hasFunctionDeclarator = true;
    // Parentheses only group; they never change what the name declares.
    if (node.type !== 'parenthesized_declarator') wrapper = node.type;
    node = node.childForFieldName('declarator') ?? innerDeclarator(node);
  }
  return undefined;
}

/** reference_declarator and parenthesized_declarator hold their inner declarator without a field. */
function innerDeclarator(node: Node): Node | undefined {
  for (const child of namedChildren(node)) {
    if (NAME_TYPES.has(child.type) || child.type.endsWith('_declarator')) return child;
  }
  return undefined;
}

/**
 * The plain, searchable name of a declared name node: the last component of a qualified name,
 * without template arguments; `~X` for destructors; `operator==` / `operator bool` for operators.
 *
 * @example
 * ```ts
 * plainName(qualifiedIdentifierOf('ns::Stack<T>::pop')); // 'pop'
 * ```
 */
export function plainName(node: Node): string | undefined {
  const last = lastComponent(node);
  switch (last.type) {
    case 'template_function':
    case 'template_type':
      return last.childForFieldName('name')?.text;
    case 'destructor_name':
      return last.text.replace(/\s+/g, '');
    case 'operator_name':
      return normaliseOperator(last.text);
    case 'operator_cast': {
      // `operator bool() const`: the name is what precedes the function part.
      const inner = last.childForFieldName('declarator');
      const head = inner ? last.text.slice(0, inner.startIndex - last.startIndex) : last.text;
      return normaliseOperator(head);
    }
    default:
      return last.text === '' ? undefined : last.text;
  }
}

/** `operator ==` and `operator==` are the same operator; `operator new` keeps its space. */
function normaliseOperator(text: string): string {
  return collapseSpaces(text).replace(/^operator\s+(?=[^\w\s])/, 'operator');
}

/** Follows `name` fields through nested qualified identifiers (`a::b::c` nests to the right). */
function lastComponent(node: Node): Node {
  let current = node;
  for (let depth = 0; current.type === 'qualified_identifier' && depth < 64; depth++) {
    const name = current.childForFieldName('name');
    if (!name) break;
    current = name;
  }
  return current;
}

/**
 * The class a qualified definition belongs to: the last scope component, template arguments
 * stripped (`Stack<T>::pop` -> `Stack`, `ns::Outer::Inner::f` -> `Inner`). Undefined for a
 * plain name or a global `::f`.
 *
 * @example
 * ```ts
 * qualifierClass(qualifiedIdentifierOf('Shape::rename')); // 'Shape'
 * ```
 */
export function qualifierClass(node: Node): string | undefined {
  let scope: Node | undefined;
  let current = node;
  for (let depth = 0; current.type === 'qualified_identifier' && depth < 64; depth++) {
    // `int __init setup(void)` in C++ parses as `__init::setup` with a MISSING `::`: the
    // attribute macro is no scope.
    const separatorMissing = current.children.some((c) => c?.type === '::' && c.isMissing);
    scope = separatorMissing ? undefined : (current.childForFieldName('scope') ?? undefined);
    const name = current.childForFieldName('name');
    if (!name) break;
    current = name;
  }
  if (!scope) return undefined;
  if (scope.type === 'template_type') return scope.childForFieldName('name')?.text;
  return scope.text;
}

/**
 * The name of a struct / class / union specifier: its own tag (the last component, template
 * arguments stripped), or for an anonymous one the first plain typedef name
 * (`typedef struct { ... } Point;`). Undefined for an anonymous specifier that no typedef names.
 *
 * @example
 * ```ts
 * specifierName(structSpecifierNode); // 'Point'
 * ```
 */
export function specifierName(specifier: Node): string | undefined {
  const name = specifier.childForFieldName('name');
  if (name) return plainName(name);
  const parent = specifier.parent;
  if (parent?.type !== 'type_definition') return undefined;
  for (const declarator of parent.childrenForFieldName('declarator')) {
    if (declarator?.type === 'type_identifier') return declarator.text;
  }
  return undefined;
}

/** The specifier (struct/class/union/enum with a body) a member declaration defines, if any. */
function definedSpecifier(member: Node): Node | undefined {
  const type = member.childForFieldName('type');
  if (type && SPECIFIER_TYPES.has(type.type) && type.childForFieldName('body')) return type;
  return undefined;
}

/** Member text folded to one line, a nested specifier's body shortened to `{...}`. */
function memberText(member: Node, nested: Node | undefined): string {
  const body = nested?.childForFieldName('body');
  if (!body) return collapseSpaces(member.text);
  const text = member.text;
  const from = body.startIndex - member.startIndex;
  const to = body.endIndex - member.startIndex;
  return collapseSpaces(`${text.slice(0, from)}{...}${text.slice(to)}`);
}

/** Signature of a function definition: its text before the body, or all of it when bodiless. */
function signatureText(outer: Node, definition: Node): string {
  const body = definition.childForFieldName('body');
  if (!body) return collapseSpaces(outer.text);
  return collapseSpaces(outer.text.slice(0, body.startIndex - outer.startIndex));
}

/**
 * The fields / methods summary of a struct, union or class body. Methods are inline definitions,
 * member function declarations (decided by the declarator chain, so `Shape* clone() const;` is a
 * method and `int (*fp)(int);` a field), constructor / destructor declarations and member
 * templates; nested type definitions, access specifiers, friends and usings are not listed.
 *
 * @example
 * ```ts
 * const { fields, methods } = memberSummaries(classSpecifier);
 * ```
 */
export function memberSummaries(specifier: Node): { fields: string[]; methods: string[] } {
  const fields: string[] = [];
  const methods: string[] = [];
  const visitMembers = (container: Node | null | undefined, depth: number): void => {
    // The depth bound only guards against pathological nesting in broken trees.
    if (depth > 8) return;
    for (const member of namedChildren(container)) {
      if (PREPROC_CONTAINERS.has(member.type)) visitMembers(member, depth + 1);
      else summariseMember(member, member, depth);
    }
  };
  const summariseMember = (outer: Node, member: Node, depth: number): void => {
    switch (member.type) {
      case 'function_definition':
        methods.push(signatureText(outer, member));
        return;
      case 'template_declaration': {
        // The template line belongs in the summary; the member itself decides where it goes.
        const inner = namedChildren(member).find((c) => c.type === 'function_definition' || c.type === 'declaration' || c.type === 'field_declaration');
        if (inner) summariseMember(outer, inner, depth);
        return;
      }
      case 'declaration':
      case 'field_declaration': {
        const nested = definedSpecifier(member);
        const declarators = member.childrenForFieldName('declarator').filter((d): d is Node => d !== null);
        if (nested && declarators.length === 0) {
          // A named nested type has a row of its own; the members of an anonymous struct or
          // union member (`union { int i; float f; };`) are members of this one.
          if (!nested.childForFieldName('name') && nested.type !== 'enum_specifier') visitMembers(nested.childForFieldName('body'), depth + 1);
          return;
        }
        if (declarators.some((d) => declaratorName(d)?.isFunction === true)) methods.push(collapseSpaces(outer.text));
        else fields.push(outer === member ? memberText(member, nested) : collapseSpaces(outer.text));
        return;
      }
      default:
        return;
    }
  };
  visitMembers(specifier.childForFieldName('body'), 0);
  return { fields, methods };
}

/**
 * What the shared visitor needs to know about one grammar.
 *
 * @example
 * ```ts
 * const cppOptions: CFamilyOptions = { classTypes: ['class_specifier', 'struct_specifier', 'union_specifier'], methods: true };
 * ```
 */
export interface CFamilyOptions {
  /** Specifier node types that become class rows (`struct_specifier`, ...). */
  readonly classTypes: readonly string[];
  /** Whether definitions may be attributed to classes (C++). */
  readonly methods: boolean;
}

/**
 * Builds a C or C++ visitor: function definitions named by descending their declarator chain,
 * struct / union (/ class) specifiers with a body as classes; see `c.ts` and `cpp.ts`.
 *
 * @example
 * ```ts
 * const visit = cFamilyVisitor({ classTypes: ['struct_specifier', 'union_specifier'], methods: false });
 * visit(tree.rootNode, sink);
 * ```
 */
export function cFamilyVisitor(options: CFamilyOptions): (root: Node, sink: VisitorSink) => void {
  const classTypes = new Set(options.classTypes);
  const searchTypes = ['function_definition', ...options.classTypes];
  return (root, sink) => {
    for (const node of root.descendantsOfType(searchTypes)) {
      if (!node) continue;
      if (node.type === 'function_definition') {
        visitFunction(node, sink, options.methods ? classTypes : undefined);
        continue;
      }
      // Forward declarations (`struct S;`) and type uses (`struct S *p`, `class Real* r`) have
      // no body: they are not definitions.
      if (!node.childForFieldName('body')) continue;
      const name = specifierName(node);
      if (name) sink.addClass(node, { name, ...memberSummaries(node) });
    }
  };
}

/** Reports one function_definition; `classTypes` is undefined where there are no methods (C). */
function visitFunction(definition: Node, sink: VisitorSink, classTypes: ReadonlySet<string> | undefined): void {
  const found = declaratorName(definition.childForFieldName('declarator'));
  if (!found?.hasFunctionDeclarator) {
    // Without a function declarator this is a macro misparse (`for_each_cpu(c) { ... }`,
    // `namespace x { ... }` in a .h), unless it is the attribute-macro shape below.
    const recovered = macroAnnotatedName(definition);
    if (recovered) sink.addFunction(definition, { name: recovered });
    return;
  }
  const name = plainName(found.node);
  if (!name) return;
  sink.addFunction(definition, { name, parentClass: classTypes ? ownerClass(definition, found.node, classTypes) : undefined });
}

/**
 * `static void __init setup(void) { ... }`: without the preprocessor, tree-sitter reads an
 * unknown attribute macro (`__init`, `__sched`, ...) as the end of a declaration
 * (`static void __init` with a MISSING `;`), then the function as a definition of type `setup`
 * whose declarator is `(void)`. That exact shape names the function by its `type`; the range
 * then starts at the name, the macro-annotated prefix being in the preceding declaration.
 */
function macroAnnotatedName(definition: Node): string | undefined {
  const type = definition.childForFieldName('type');
  if (type?.type !== 'type_identifier' || definition.childForFieldName('declarator')?.type !== 'parenthesized_declarator') return undefined;
  const previous = definition.previousNamedSibling;
  if (previous?.type !== 'declaration' || previous.lastChild?.isMissing !== true) return undefined;
  return type.text;
}

/** The class a C++ function definition belongs to: its qualifier, else the enclosing class. */
function ownerClass(definition: Node, name: Node, classTypes: ReadonlySet<string>): string | undefined {
  if (name.type === 'qualified_identifier') {
    const qualifier = qualifierClass(name);
    if (qualifier) return qualifier;
  }
  // A friend defined inline is a free function, not a member.
  if (definition.parent?.type === 'friend_declaration') return undefined;
  for (let p = definition.parent; p; p = p.parent) {
    if (classTypes.has(p.type)) return specifierName(p);
    // A local class's methods belong to it, but a function never belongs to a class around the
    // function it is defined in.
    if (p.type === 'function_definition') return undefined;
  }
  return undefined;
}
