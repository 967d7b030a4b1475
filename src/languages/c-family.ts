import type { Node } from 'web-tree-sitter';
import { applyTextEdits, collapseSpaces, namedChildren, typeSet } from './common.js';
import type { ExtractionOptions, VisitorSink } from './types.js';

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
  if (specifier.type === 'enum_specifier') {
    // An enum's fields are its enumerators, as written (`GREEN = 2`).
    for (const member of namedChildren(specifier.childForFieldName('body'))) {
      if (member.type === 'enumerator') fields.push(collapseSpaces(member.text));
    }
    return { fields, methods };
  }
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
 * const cppOptions: CFamilyOptions = { classTypes: ['class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier'], methods: true };
 * ```
 */
export interface CFamilyOptions {
  /** Specifier node types that become class rows (`struct_specifier`, ...). */
  readonly classTypes: readonly string[];
  /** Whether definitions may be attributed to classes (C++). */
  readonly methods: boolean;
}

/**
 * Function-defining macros known without configuration, as `IndexOptions.functionMacros`
 * entries: test-framework macros whose function is their second argument (GoogleTest's
 * `TEST(Suite, Name)` and `TEST_F(Fixture, Name)`, the kernel selftests' `TEST_F`; a macro
 * given fewer arguments falls back to the first identifier: kselftest's `TEST(name)`).
 */
export const BUILTIN_FUNCTION_MACROS: readonly string[] = Object.freeze(['TEST:2', 'TEST_F:2', 'TEST_P:2', 'TYPED_TEST:2', 'TYPED_TEST_P:2']);

/** A parsed `functionMacros` entry. */
interface FunctionMacro {
  /** The macro name, or its prefix for an entry ending in `*`. */
  readonly name: string;
  readonly prefix: boolean;
  /** 1-based argument naming the function; undefined: the first identifier argument. */
  readonly argument: number | undefined;
}

/** Looks macros up by name: exact entries first, then the longest matching prefix. */
class FunctionMacros {
  readonly #exact = new Map<string, FunctionMacro>();
  readonly #prefixes: FunctionMacro[] = [];

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const match = /^([A-Za-z_]\w*)(\*?)(?::(\d+))?$/.exec(entry);
      if (!match) continue; // validated where the options come in (IndexOptions)
      const macro: FunctionMacro = { name: match[1]!, prefix: match[2] === '*', argument: match[3] === undefined ? undefined : Number(match[3]) };
      // A later entry wins: the user's come after the built-in ones.
      if (macro.prefix) this.#prefixes.push(macro);
      else this.#exact.set(macro.name, macro);
    }
    this.#prefixes.sort((a, b) => b.name.length - a.name.length);
  }

  get(name: string): FunctionMacro | undefined {
    return this.#exact.get(name) ?? this.#prefixes.find((m) => name.startsWith(m.name));
  }
}

// Parsed tables, by the option list's identity (the same options object serves a whole index).
const macroTables = new WeakMap<readonly string[], FunctionMacros>();
const builtinMacros = new FunctionMacros(BUILTIN_FUNCTION_MACROS);

function macrosOf(options: ExtractionOptions | undefined): FunctionMacros {
  const extra = options?.functionMacros;
  if (extra === undefined || extra.length === 0) return builtinMacros;
  let table = macroTables.get(extra);
  if (!table) macroTables.set(extra, (table = new FunctionMacros([...BUILTIN_FUNCTION_MACROS, ...extra])));
  return table;
}

/** The top-level texts of an argument or parameter list (`(a, f(b, c), d)` → `a`, `f(b, c)`, `d`). */
function argumentTexts(list: Node): string[] {
  const text = list.text;
  const inner = text.startsWith('(') ? text.slice(1, text.endsWith(')') ? -1 : undefined) : text;
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last !== '' || out.length > 0) out.push(last);
  return out;
}

const IDENTIFIER = /^[A-Za-z_]\w*$/;

/**
 * The name of a function a macro defines: its `:N` argument when that is an identifier, else
 * its first identifier argument, else the macro's own name (`main() { … }` in old C).
 */
function macroFunctionName(macro: string, list: Node | null | undefined, registered: FunctionMacro | undefined): string {
  const args = list ? argumentTexts(list) : [];
  const chosen = registered?.argument !== undefined ? args[registered.argument - 1] : undefined;
  if (chosen !== undefined && IDENTIFIER.test(chosen)) return chosen;
  return args.find((a) => IDENTIFIER.test(a)) ?? macro;
}

/** Where a macro can define a function: file scope, `#if` blocks, namespaces, `extern "C"`. */
const FILE_SCOPES = typeSet('translation_unit', 'declaration_list', 'linkage_specification', ...PREPROC_CONTAINERS);

/**
 * Builds a C or C++ visitor: function definitions named by descending their declarator chain,
 * struct / union / enum (/ class) specifiers with a body as classes, macro-made functions
 * (see `IndexOptions.functionMacros`); see `c.ts` and `cpp.ts`.
 *
 * @example
 * ```ts
 * const visit = cFamilyVisitor({ classTypes: ['struct_specifier', 'union_specifier', 'enum_specifier'], methods: false });
 * visit(tree.rootNode, sink, {});
 * ```
 */
export function cFamilyVisitor(options: CFamilyOptions): (root: Node, sink: VisitorSink, extraction?: ExtractionOptions) => void {
  const classTypes = new Set(options.classTypes);
  const searchTypes = ['function_definition', ...options.classTypes];
  return (root, sink, extraction) => {
    const macros = macrosOf(extraction);
    for (const node of root.descendantsOfType(searchTypes)) {
      if (!node) continue;
      if (node.type === 'function_definition') {
        visitFunction(node, sink, options.methods ? classTypes : undefined, macros);
        continue;
      }
      // Forward declarations (`struct S;`) and type uses (`struct S *p`, `class Real* r`) have
      // no body: they are not definitions.
      if (!node.childForFieldName('body')) continue;
      const name = specifierName(node);
      if (name) sink.addClass(node, { name, ...memberSummaries(node) });
    }
    visitMacroCalls(root, sink, macros, 0);
  };
}

/**
 * C: `SYSCALL_DEFINE1(close, unsigned int, fd) { … }` at file scope parses as a call (with a
 * MISSING `;`) followed by a block: together they are one function, named after the macro's
 * first identifier argument (`close`). Only file-scope statements are looked at (and `#if`
 * blocks): inside functions the same shape is a loop macro (`list_for_each(p, head) { … }`).
 */
function visitMacroCalls(scope: Node, sink: VisitorSink, macros: FunctionMacros, depth: number): void {
  if (depth > 16) return;
  const children = namedChildren(scope);
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    if (PREPROC_CONTAINERS.has(node.type)) {
      visitMacroCalls(node, sink, macros, depth + 1);
      continue;
    }
    // At column 0, as definitions are written: error recovery can leave a broken function's
    // statements at file scope, and their loop macros (`for_each_cpu(cpu) {`) are indented.
    if (node.type !== 'expression_statement' || node.startPosition.column !== 0 || node.lastChild?.isMissing !== true) continue;
    const call = node.firstNamedChild;
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : undefined;
    if (callee?.type !== 'identifier') continue;
    let next = i + 1;
    while (children[next]?.type === 'comment') next++;
    const body = children[next];
    if (body?.type !== 'compound_statement') continue;
    sink.addFunction(node, { name: macroFunctionName(callee.text, call!.childForFieldName('arguments'), macros.get(callee.text)), endNode: body });
    i = next;
  }
}

/** Reports one function_definition; `classTypes` is undefined where there are no methods (C). */
function visitFunction(definition: Node, sink: VisitorSink, classTypes: ReadonlySet<string> | undefined, macros: FunctionMacros): void {
  const declarator = definition.childForFieldName('declarator');
  const found = declaratorName(declarator);
  if (!found?.hasFunctionDeclarator) {
    // Without a function declarator this is a macro misparse (`for_each_cpu(c) { ... }`,
    // `namespace x { ... }` in a .h), unless it is the attribute-macro shape or a
    // one-argument function macro (below).
    const recovered = macroAnnotatedName(definition) ?? singleArgumentMacroName(definition);
    if (recovered) sink.addFunction(definition, { name: recovered });
    return;
  }
  // A macro invocation read as a definition: `TEST(Suite, Name) { … }` without a type at file
  // or namespace scope (C++ allows no such function), or a registered macro after specifiers.
  // (Checked cheapest first: this runs for every function of a codebase.)
  if (found.node.type === 'identifier' && declarator?.type === 'function_declarator') {
    const registered = macros.get(found.node.text);
    if (
      (registered !== undefined || (classTypes !== undefined && !definition.childForFieldName('type') && FILE_SCOPES.has(definition.parent?.type ?? ''))) &&
      declarator.childForFieldName('declarator')?.id === found.node.id
    ) {
      sink.addFunction(definition, { name: macroFunctionName(found.node.text, declarator.childForFieldName('parameters'), registered) });
      return;
    }
  }
  const name = plainName(found.node);
  if (!name) return;
  // C++ has no nested functions: a typeless "definition" in a function body is a macro
  // statement read as one (`JSON_CATCH (...) { … }`). Typed ones are real definitions that
  // error recovery put inside the function before them, and a local class's methods are kept.
  if (
    classTypes !== undefined &&
    !definition.childForFieldName('type') &&
    found.node.type === 'identifier' &&
    enclosingScope(definition, classTypes)?.type === 'function_definition'
  ) {
    return;
  }
  sink.addFunction(definition, { name, parentClass: classTypes ? ownerClass(definition, found.node, classTypes) : undefined });
}

/** The nearest enclosing function definition or class-like specifier. */
function enclosingScope(node: Node, classTypes: ReadonlySet<string>): Node | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'function_definition' || classTypes.has(p.type)) return p;
  return undefined;
}

/**
 * C: `SYSCALL_DEFINE0(fork) { … }` and `DEFINE_INTERRUPT_HANDLER(timer_interrupt) { … }` parse
 * as a definition of type `SYSCALL_DEFINE0` whose declarator is `(fork)`: a function named
 * after the parenthesised identifier (no real definition has that shape).
 */
function singleArgumentMacroName(definition: Node): string | undefined {
  // Inside a function the same shape is a loop macro (`for_each_cpu(cpu) { … }`): only a
  // definition at file scope, starting at column 0, is taken.
  if (definition.startPosition.column !== 0 || definition.parent === null || !FILE_SCOPES.has(definition.parent.type)) return undefined;
  const type = definition.childForFieldName('type');
  const declarator = definition.childForFieldName('declarator');
  if (type?.type !== 'type_identifier' || declarator?.type !== 'parenthesized_declarator') return undefined;
  const inner = namedChildren(declarator);
  return inner.length === 1 && inner[0]!.type === 'identifier' ? inner[0]!.text : undefined;
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

// ---------------------------------------------------------------------------------------------
// C++ source rewrite. tree-sitter-cpp parses the text as it is, without the preprocessor: a
// macro where a declaration's head should be (an export macro between `class` and the name, a
// macro line before `template`/`class`, an `#if` inside a base clause) makes it lose the class
// and attach its methods to nothing. Those tokens are blanked (spaces, line breaks kept) before
// parsing; rows and texts still come from the original source, at the same offsets.

/** `class EXPORT widget {`, `struct BOOST_SYMBOL_VISIBLE error : base`: the macros between keyword and name. */
const EXPORT_MACROS = /\b(?:class|struct|union)[ \t]+((?:[A-Z_][A-Z0-9_]*(?:\([^()\n]*\))?[ \t]+)+)(?=[A-Za-z_]\w*\s*(?:final\b|:(?!:)|\{|<))/g;

function blankExportMacros(text: string): string {
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(EXPORT_MACROS)) {
    const start = match.index + match[0].length - match[1]!.length;
    ranges.push([start, start + match[1]!.length]);
  }
  return applyTextEdits(text, ranges);
}

/** A line holding only an upper-case macro, with or without arguments: `NLOHMANN_JSON_NAMESPACE_BEGIN`. */
const LONE_MACRO = /^[ \t]*[A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*[ \t]*(?:\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\))?[ \t]*\r?$/;
/** A (qualified, templated) function name and its `(`: the macro line before it is its return type. */
const FUNCTION_HEAD = /^~?[A-Za-z_]\w*(?:\s*<[^;{}()]*>)?(?:\s*::\s*~?[A-Za-z_]\w*(?:\s*<[^;{}()]*>)?)*\s*\(/;

/**
 * Kinds of the lines of a text, for the lone-macro pass: `code` lines and the rest (blank,
 * comment-only, preprocessor, blanked), with the trimmed code of each code line.
 */
function codeLines(lines: readonly string[]): (string | undefined)[] {
  const code: (string | undefined)[] = new Array<string | undefined>(lines.length);
  let inComment = false;
  let continued = false; // a preprocessor line ending in `\` continues on the next line
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (!inComment && !continued && !line.includes('/') && !line.includes('#')) {
      // The common line: no comment, no directive.
      const trimmed = line.trim();
      code[i] = trimmed === '' ? undefined : trimmed;
      continue;
    }
    const directive: boolean = continued || (!inComment && /^[ \t]*#/.test(line));
    continued = directive && /\\\r?$/.test(line);
    if (directive) {
      code[i] = undefined;
      continue;
    }
    let out = '';
    while (line.length > 0) {
      if (inComment) {
        const close = line.indexOf('*/');
        if (close < 0) {
          line = '';
          break;
        }
        inComment = false;
        line = line.slice(close + 2);
        continue;
      }
      const open = line.search(/\/[*/]/);
      if (open < 0) {
        out += line;
        break;
      }
      out += line.slice(0, open);
      if (line[open + 1] === '/') break;
      inComment = true;
      line = line.slice(open + 2);
    }
    out = out.trim();
    code[i] = out === '' ? undefined : out;
  }
  return code;
}

/**
 * Macro lines before a declaration: a line holding only an upper-case macro, after a line
 * that ends a declaration or a block (`;`, `{`, `}`, `>`, an access specifier's `:`) or a
 * directive. Before a function's name (`MACRO(Handler)` ⏎ `stream<P>::` ⏎ `async_read(…)`) a
 * macro with arguments is a return type: its parentheses become angle brackets, so it parses
 * as one (`MACRO<Handler>`) and the function keeps its first line; a bare macro there
 * (`HRESULT` ⏎ `paint(…)`) already parses. Before other declarations (`BOOST_BEAST_DECL` ⏎
 * `void f();`, `NLOHMANN_JSON_NAMESPACE_BEGIN` ⏎ `template<…>`) the line is blanked, and a
 * bare macro before a block (`JSON_TRY` ⏎ `{`, read as a braced initializer) too; a macro with
 * arguments before a block may define a function (`TEST(Suite, Name)` ⏎ `{`) and stays.
 */
function rewriteLoneMacroLines(text: string): string {
  // Most files have no such line: a cheap test of the whole text first.
  if (!/^[ \t]*[A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*[ \t]*(?:\(.*\))?[ \t]*(?:\/[/*].*)?\r?$/m.test(text)) return text;
  const lines = text.split('\n');
  const code = codeLines(lines);
  const ranges: [number, number][] = [];
  const chars = new Map<number, string>();
  let offset = 0;
  let previous: string | undefined; // the last code line kept, trimmed
  for (let i = 0; i < lines.length; offset += lines[i]!.length + 1, i++) {
    const line = code[i];
    if (line === undefined) continue;
    if (LONE_MACRO.test(line)) {
      const last = previous?.[previous.length - 1];
      const afterDeclaration = previous === undefined || last === ';' || last === '{' || last === '}' || last === '>' || (last === ':' && !previous.endsWith('::'));
      const following: string[] = [];
      for (let j = i + 1; j < lines.length && following.length < 3; j++) {
        if (/^[ \t]*#/.test(lines[j]!)) break;
        const next = code[j];
        if (next === undefined) continue;
        following.push(next);
        if (next.includes('(') || next.includes('{') || next.includes(';')) break;
      }
      const next = following[0];
      const withArguments = line.includes('(');
      const declaration = next !== undefined && /^(?:[A-Za-z_~]|\[\[)/.test(next);
      const functionHead = declaration && FUNCTION_HEAD.test(following.join(' '));
      if (afterDeclaration && withArguments && functionHead) {
        const raw = lines[i]!;
        const open = raw.indexOf('(');
        const close = matchingParen(raw, open);
        if (close > open) {
          chars.set(offset + open, '<');
          chars.set(offset + close, '>');
        }
      } else if (afterDeclaration && ((declaration && (withArguments || !functionHead)) || (next?.startsWith('{') === true && !withArguments))) {
        ranges.push([offset, offset + lines[i]!.length]);
        continue; // blanked: not a previous line for the next one
      }
    }
    previous = line;
  }
  return applyTextEdits(text, ranges, chars);
}

/** The index of the `)` closing the `(` at `open`, or -1. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** `class name` / `struct name` at the start of a class head. */
const CLASS_HEAD = /\b(?:class|struct|union)[ \t]+[A-Za-z_]\w*/g;
/** `template <` at the start of a template declaration (not `x.template get<…>`). */
const TEMPLATE_HEAD = /(?<![.>:]\s*)\btemplate[ \t]*</g;
const DIRECTIVE_LINE = /^[ \t]*#[ \t]*(\w*)/;

/**
 * Blanks preprocessor conditionals inside declaration heads, where tree-sitter cannot place
 * them: in a class head (`class stream` ⏎ `#if ! DOXYGEN` ⏎ `: private base` ⏎ `#endif` ⏎ `{`)
 * and in a template declaration before its body (`template<…>` ⏎ `#if CPP14` ⏎ `constexpr` ⏎
 * `#endif` ⏎ `auto get() …`, `#if` lines among template parameters). The directive lines go,
 * and the lines of every branch but the first. A group opened before the head (`#if X` ⏎
 * `class A : B` ⏎ `#else` ⏎ `class A : C` ⏎ `#endif`) has its opening line blanked too.
 */
function blankHeadConditionals(text: string): string {
  if (!text.includes('#')) return text;
  const ranges: [number, number][] = [];
  const heads: [RegExp, (from: number) => number[] | undefined][] = [
    [CLASS_HEAD, (from) => headDirectives(text, from, true)],
    [TEMPLATE_HEAD, (from) => headDirectives(text, from, false)],
  ];
  // Where directive lines start: a head is scanned only when one comes before its first `{`/`;`
  // (include guards and #includes are nowhere near most heads).
  const directiveStarts: number[] = [];
  for (const match of text.matchAll(/^[ \t]*#/gm)) directiveStarts.push(match.index);
  if (directiveStarts.length === 0) return text;
  const nextDirective = (from: number): number => {
    let lo = 0;
    let hi = directiveStarts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (directiveStarts[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < directiveStarts.length ? directiveStarts[lo]! : Infinity;
  };
  const firstEnd = (from: number): number => {
    const brace = text.indexOf('{', from);
    const semicolon = text.indexOf(';', from);
    return Math.min(brace < 0 ? Infinity : brace, semicolon < 0 ? Infinity : semicolon);
  };
  for (const [pattern, directives] of heads) {
    for (const match of text.matchAll(pattern)) {
      const from = match.index + match[0].length;
      if (nextDirective(from) > firstEnd(from)) continue;
      const found = directives(from);
      if (found === undefined || found.length === 0) continue;
      const blanked = branchRanges(text, match.index, found);
      if (blanked) ranges.push(...blanked);
    }
  }
  return applyTextEdits(text, ranges);
}

/**
 * Line starts of the directive lines between `from` and the `{` (or `;`) that ends the head;
 * undefined when the head ends otherwise. A class head (`classHead`) also ends, as no class
 * head, at `(`, `)`, `=` or `}` outside angle brackets (`struct stat *f(…)`, `struct S s = …`).
 */
function headDirectives(text: string, from: number, classHead: boolean): number[] | undefined {
  const lines: number[] = [];
  let angle = 0;
  let parens = 0;
  let open = 0; // conditional groups opened in the head and not closed yet
  let draining = false; // the head ended inside a group opened in it: find the group's end
  for (let i = from; i < text.length && i < from + 4000; i++) {
    const c = text[i];
    if (c === '\n') {
      let first = i + 1;
      while (text[first] === ' ' || text[first] === '\t') first++;
      const directive: RegExpExecArray | null = text[first] === '#' ? DIRECTIVE_LINE.exec(text.slice(i + 1, i + 80)) : null;
      if (directive) {
        lines.push(i + 1);
        if (directive[1]!.startsWith('if')) open++;
        else if (directive[1] === 'endif' && open > 0 && --open === 0 && draining) return lines;
        // Skip the directive, with its continuation lines.
        let end = i + 1;
        do end = text.indexOf('\n', end + 1);
        while (end > 0 && text[end - 1] === '\\');
        i = (end < 0 ? text.length : end) - 1;
      }
    } else if (draining) {
      continue;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '<') angle++;
    else if (c === '>') {
      if (text[i - 1] !== '-') angle = Math.max(0, angle - 1);
    } else if (c === '(' || c === '[') {
      if (classHead && angle === 0) return undefined;
      parens++;
    } else if (c === ')' || c === ']') {
      if (classHead && angle === 0) return undefined;
      parens = Math.max(0, parens - 1);
    } else if (angle === 0 && parens === 0) {
      if (c === '{' || (c === ';' && !classHead)) {
        // A template declaration whose alternatives are whole (`#if DOC` ⏎ `using t = x;` ⏎
        // `#else` ⏎ `using t = y;` ⏎ `#endif`): the group's end closes the head.
        if (open === 0 || classHead) return lines;
        draining = true;
      } else if (c === ';' || (classHead && (c === '=' || c === '}'))) {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The ranges to blank for the directive lines of one head, or undefined when the groups do not add up. */
function branchRanges(text: string, headStart: number, directives: readonly number[]): [number, number][] | undefined {
  const lineEnd = (start: number): number => {
    const end = text.indexOf('\n', start);
    return end < 0 ? text.length : end;
  };
  const ranges: [number, number][] = [];
  // Per open group: whether its later branches are being dropped (the first one is kept).
  const groups: boolean[] = [];
  let unopened = 0; // #else / #endif of groups opened before the head
  let dropFrom: number | undefined; // start of the branch text being dropped
  for (const start of directives) {
    const keyword = DIRECTIVE_LINE.exec(text.slice(start, start + 80))![1]!;
    const end = lineEnd(start);
    ranges.push([start, end]);
    if (keyword.startsWith('if')) groups.push(false);
    else if (keyword === 'else' || keyword.startsWith('el')) {
      if (groups.length === 0) unopened = Math.max(unopened, 1);
      else groups[groups.length - 1] = true;
      dropFrom ??= end;
    } else if (keyword === 'endif') {
      if (groups.length === 0) unopened = Math.max(unopened, 1);
      else groups.pop();
      if (dropFrom !== undefined && !groups.some(Boolean)) {
        ranges.push([dropFrom, start]);
        dropFrom = undefined;
      }
    }
  }
  if (groups.length > 0) return undefined; // a group the head opens and does not close
  if (dropFrom !== undefined) return undefined;
  if (unopened > 0) {
    // The group started before the head: blank its opening `#if` line, found by walking back.
    let depth = 0;
    let at = text.lastIndexOf('\n', headStart);
    for (let steps = 0; at > 0 && steps < 200; steps++) {
      const start = text.lastIndexOf('\n', at - 1) + 1;
      const keyword = DIRECTIVE_LINE.exec(text.slice(start, start + 80))?.[1];
      if (keyword === 'endif') depth++;
      else if (keyword?.startsWith('if')) {
        if (depth === 0) {
          ranges.push([start, lineEnd(start)]);
          return ranges;
        }
        depth--;
      }
      at = start - 1;
    }
    return undefined;
  }
  return ranges;
}

/**
 * Access-specifier macros (`JSON_PRIVATE_UNLESS_TESTED:` → `private:`) and macros after an
 * access specifier (`public Q_SLOTS:`): tree-sitter reads the former as a label or a bit field
 * and loses the class around it.
 */
function rewriteAccessMacros(text: string): string {
  if (!/(?:PRIVATE|PROTECTED|PUBLIC|public|protected|private)\w*[ \t]*:/.test(text)) return text;
  return text
    .replace(/^([ \t]*)([A-Z_]*(PRIVATE|PROTECTED|PUBLIC)[A-Z0-9_]*)([ \t]*:)(?!:)/gm, (_all, indent: string, macro: string, access: string, colon: string) =>
      `${indent}${access.toLowerCase().padEnd(macro.length, ' ')}${colon}`,
    )
    .replace(/^([ \t]*(?:public|protected|private)[ \t]+)([A-Z_][A-Z0-9_]*)(?=[ \t]*:(?!:))/gm, (_all, head: string, macro: string) => `${head}${' '.repeat(macro.length)}`);
}

/**
 * `decltype(f(x), void())`: tree-sitter-cpp takes one expression in `decltype`, not a comma
 * expression (common in SFINAE return types), and loses the function. Commas at the top level
 * of a `decltype` become `|` (still an expression; only the tree inside `decltype` changes).
 */
function rewriteDecltypeCommas(text: string): string {
  if (!text.includes('decltype')) return text;
  const chars = new Map<number, string>();
  for (const match of text.matchAll(/\bdecltype[ \t]*\(/g)) {
    let depth = 0;
    for (let i = match.index + match[0].length; i < text.length && i < match.index + 2000; i++) {
      const c = text[i];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) {
        chars.set(i, '|');
      } else if (c === ';') break;
    }
  }
  return applyTextEdits(text, [], chars);
}

/**
 * `typename T::value_type(a, b)` as an expression (a functional cast of a dependent type):
 * tree-sitter-cpp cannot parse it, and its error recovery can swallow the methods after the
 * function. The `typename` keyword is blanked there (a declaration's `typename T::type name(`
 * has a name before its parenthesis and is left alone).
 */
function blankTypenameCasts(text: string): string {
  if (!text.includes('typename')) return text;
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(/\btypename(?=\s+(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+\s*\()/g)) ranges.push([match.index, match.index + 8]);
  return applyTextEdits(text, ranges);
}

/**
 * The C++ rewrite: macro tokens that tree-sitter cannot place, blanked with their offsets kept
 * (see `LanguageDefinition.rewriteSource`).
 *
 * @example
 * ```ts
 * rewriteCppSource('class EXPORT widget {};'); // 'class        widget {};'
 * ```
 */
export function rewriteCppSource(source: string): string {
  return blankHeadConditionals(rewriteLoneMacroLines(blankExportMacros(rewriteAccessMacros(rewriteDecltypeCommas(blankTypenameCasts(source))))));
}
