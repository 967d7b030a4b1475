import { Query, type Language, type Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink, ReferenceVisitor } from '../../graph/facts.js';
import { declaratorName, plainName } from '../c-family.js';
import { typeSet, writtenBase } from '../common.js';
import { LexicalScopes, type ScopeBinding } from './scopes.js';

// C and C++: calls, `#include` lines, prototypes and function-like macros (what an included
// header makes visible), functions used as values, and `static` definitions; for C++ also
// namespaces, bases, `this->m()`, typed receivers (`Foo x; x.m()`, `Foo* p = new Foo`,
// `auto x = Foo()`), constructors (`new Foo`, `Foo x(1)`), qualified names (`ns::f()`,
// `Foo::bar()`), `using` and type aliases.
//
// A function's parameters and the variables declared anywhere in its body are its locals for
// all of it (C has no nested functions; block scopes are merged into their function, which can
// only leave a call unresolved). A call of a local or parameter (`cb(x)`), of a file-scope
// variable (`static void (*hook)(void)`), through a pointer (`(*fp)(x)`) or a structure field
// (`ops->open(x)`) is a call of a value: kept with its name, never resolved.

/** Where a C++ class body's members sit: no `static` there means internal linkage. */
const CLASS_BODIES = typeSet('field_declaration_list');

/**
 * Directives whose text is not code: tree-sitter parses `#if` / `#elif` conditions as
 * expressions, but what they call is the preprocessor's (`#if IS_ENABLED(X)`), not a site.
 * (c.ts's `mayDefine` skips the same lines.)
 */
export const OPAQUE_DIRECTIVE = /^#[ \t]*(define|undef|if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|error|warning|pragma|line)\b/;

// A directive's `#` is the first token of its line: blanks and block comments may come before it
// (a comment is one space to the preprocessor: `/* note */ #if X` is a directive).
// The comment pattern cannot run past its first `*/`, so a line that starts a comment is matched in
// one pass (a lazy `[\s\S]*?` could stretch to every later `*/` of the file).
const DIRECTIVE_LINE = new RegExp(`^((?:[ \\t]|/\\*[^*]*\\*+(?:[^/*][^*]*\\*+)*/)*)${OPAQUE_DIRECTIVE.source.slice(1)}`, 'gm');

/**
 * The 0-based rows of the directives in a file (from its root node), with their continuation
 * lines: no site comes from them. Only `#if` conditions are parsed as code, unless error
 * recovery takes a directive's text for code (`int [` before `#define B (A + 4)`).
 */
function directiveRows(root: Node): Set<number> | undefined {
  const text = root.text;
  if (!root.hasError && !/#[ \t]*(if|elif)/.test(text)) return undefined;
  const rows = new Set<number>();
  // The root's text starts at its first token, on row `row`.
  let row = root.startPosition.row;
  let at = 0;
  const advance = (to: number): void => {
    for (let i = text.indexOf('\n', at); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) row++;
    at = to;
  };
  for (const match of text.matchAll(DIRECTIVE_LINE)) {
    // The directive's row is its `#`'s (a comment before it may span lines).
    advance(match.index + match[1]!.length);
    rows.add(row);
    // Escaped newlines continue the directive.
    for (let end = text.indexOf('\n', match.index); end > 0 && (text[end - 1] === '\\' || (text[end - 1] === '\r' && text[end - 2] === '\\')); end = text.indexOf('\n', end + 1)) {
      advance(end + 1);
      rows.add(row);
    }
  }
  return rows;
}

/**
 * A value use worth a site: not an all-capitals name (a macro constant or enumerator: the
 * Linux tree's `GFP_KERNEL`, `PAGE_SIZE`, a third of its identifier arguments; C functions are
 * not named so).
 */
const MAY_NAME_A_FUNCTION = /[a-z]/;

/** Type names and keywords that reach argument lists through macros (`min_t(unsigned int, a, b)`). */
const NOT_VALUES = typeSet('unsigned', 'signed', 'int', 'char', 'short', 'long', 'float', 'double', 'void', 'struct', 'union', 'enum', 'const', 'volatile', 'bool', 'size_t', '__func__');

/** Macros that export a function to the rest of the program (Linux): the definition is `exported`. */
const EXPORT_MACROS = typeSet('EXPORT_SYMBOL', 'EXPORT_SYMBOL_GPL', 'EXPORT_SYMBOL_NS', 'EXPORT_SYMBOL_NS_GPL', 'EXPORT_UNUSED_SYMBOL', 'EXPORT_UNUSED_SYMBOL_GPL');

/** The `#include` operand without its delimiters (`<linux/fs.h>` → `linux/fs.h`); undefined for a computed include (`#include FOO_H`). */
function includeSpecifier(include: Node): string | undefined {
  const path = include.childForFieldName('path');
  if (!path) return undefined;
  if (path.type === 'system_lib_string') return path.text.slice(1, -1).trim() || undefined;
  if (path.type === 'string_literal') return path.text.replace(/^"|"$/g, '').trim() || undefined;
  return undefined;
}

/** Whether a declaration or definition carries the `static` storage class. */
function hasStatic(node: Node): boolean {
  for (const child of node.namedChildren) if (child?.type === 'storage_class_specifier' && child.text === 'static') return true;
  return false;
}

/** The function declarator that declares `name` itself (its parameter list is the function's own). */
function ownFunctionDeclarator(name: Node, stop: Node): Node | undefined {
  for (let p = name.parent; p && p.id !== stop.id; p = p.parent) if (p.type === 'function_declarator') return p;
  return undefined;
}

/** Whether `node` sits at file scope: only preprocessor conditionals and `extern "C"` blocks around it. */
function atFileScope(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    switch (p.type) {
      case 'translation_unit':
        return true;
      case 'preproc_if':
      case 'preproc_ifdef':
      case 'preproc_else':
      case 'preproc_elif':
      case 'preproc_elifdef':
      case 'linkage_specification':
      case 'declaration_list':
      case 'namespace_definition':
        continue;
      default:
        return false;
    }
  }
  return false;
}

/** The name of one part of a C++ qualified name, template arguments stripped (`Base<int>` → `Base`). */
function partName(n: Node): string | undefined {
  switch (n.type) {
    case 'namespace_identifier':
    case 'type_identifier':
    case 'identifier':
    case 'field_identifier':
      return n.text;
    case 'template_type':
    case 'template_function':
    case 'template_method':
      return n.childForFieldName('name')?.text;
    default:
      return undefined;
  }
}

/**
 * The parts of a C++ name (`geo::util::log` → `['geo', 'util', 'log']`, `::f` → `['f']`) and the
 * node of its last part; undefined for anything else (`decltype(x)::y`, operators…).
 */
function nameParts(node: Node): { readonly parts: string[]; readonly last: Node } | undefined {
  const parts: string[] = [];
  let n: Node | null = node;
  for (let depth = 0; n && depth < 32; depth++) {
    if (n.type !== 'qualified_identifier') {
      const last = partName(n);
      if (last === undefined) return undefined;
      parts.push(last);
      return { parts, last: n.type.startsWith('template_') ? (n.childForFieldName('name') ?? n) : n };
    }
    const scope = n.childForFieldName('scope');
    if (scope) {
      const part = partName(scope);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    n = n.childForFieldName('name');
  }
  return undefined;
}

/** The name a template parameter declares (`class T`, `typename T = int`, `typename... Ts`, `int N`, `template <class> class TT`), if any. */
function templateParameterName(p: Node): string | undefined {
  switch (p.type) {
    case 'type_parameter_declaration':
    case 'variadic_type_parameter_declaration':
      return p.namedChildren.find((c) => c?.type === 'type_identifier')?.text;
    case 'optional_type_parameter_declaration':
      return p.childForFieldName('name')?.text;
    case 'template_template_parameter_declaration':
      return p.namedChildren.filter((c) => c?.type === 'type_parameter_declaration').map((c) => templateParameterName(c!)).pop();
    case 'parameter_declaration':
    case 'optional_parameter_declaration':
    case 'variadic_parameter_declaration': {
      const found = declaratorName(p.childForFieldName('declarator'));
      return found?.node.type === 'identifier' ? found.node.text : undefined;
    }
    default:
      return undefined;
  }
}

/** The class a C++ type names, parts joined by `.` (`geo::Circle` → `geo.Circle`, `std::vector<int>` → `std.vector`); undefined for built-in types and `auto`. */
function typeName(type: Node | null | undefined): string | undefined {
  if (!type || (type.type !== 'type_identifier' && type.type !== 'template_type' && type.type !== 'qualified_identifier')) return undefined;
  return nameParts(type)?.parts.join('.');
}

/** What a C++ initializer says a local's class is: `new Foo(…)`, `Foo(…)`, `ns::Foo{…}` (the latter only if Foo is a class). */
function initializedType(value: Node | null | undefined): { readonly name: string; readonly constructed?: boolean } | undefined {
  if (!value) return undefined;
  if (value.type === 'new_expression') {
    const t = typeName(value.childForFieldName('type'));
    return t === undefined ? undefined : { name: t, constructed: true };
  }
  if (value.type === 'call_expression' || value.type === 'compound_literal_expression') {
    const fn = value.childForFieldName(value.type === 'call_expression' ? 'function' : 'type');
    const found = fn ? nameParts(fn) : undefined;
    return found ? { name: found.parts.join('.'), constructed: true } : undefined;
  }
  return undefined;
}

/**
 * Whether the call whose callee holds `at` has its argument list on a directive line: error
 * recovery joined a name before a directive to the directive's parentheses (`int [` then
 * `#define B (A + 4)`), and the preprocessor removes that line, so the compiler sees no call.
 */
function argumentsOnDirective(at: Node, directives: ReadonlySet<number>): boolean {
  let node: Node | null = at;
  for (let depth = 0; node !== null && depth < 4; depth++, node = node.parent) {
    if (node.type !== 'call_expression') continue;
    const args = node.childForFieldName('arguments');
    return args !== null && args.startIndex > at.endIndex && directives.has(args.startPosition.row);
  }
  return false;
}

/**
 * Drops what error recovery made of directive text: a site or binding whose token is on a
 * directive line (but `#include`s and `#define`d macros), and a call whose arguments are.
 */
function outsideDirectives(sink: ReferenceSink, directives: ReadonlySet<number>): ReferenceSink {
  return {
    site: (at, fact) => {
      if (fact.kind === 'import') sink.site(at, fact);
      else if (!directives.has(at.startPosition.row) && !(fact.kind === 'call' && argumentsOnDirective(at, directives))) sink.site(at, fact);
    },
    binding: (at, fact) => {
      if (fact.kind === 'macro' || !directives.has(at.startPosition.row)) sink.binding(at, fact);
    },
    flag: (definition, flag) => sink.flag(definition, flag),
    namespace: (node, name) => sink.namespace(node, name),
    setPackage: (name) => sink.setPackage(name),
  };
}

/** A C identifier, whole. */
const IDENTIFIER = /^[A-Za-z_]\w*$/;

// One query finds every node the visitor reads, in document order, each tagged with its role:
// matching inside wasm beats visiting the tree's nodes from JavaScript (`.type`,
// `childForFieldName` and `namedChildren` each cross into wasm), which took most of the time.
const C_PATTERNS = `
(function_definition) @function
(declaration) @declaration
(preproc_include path: (_) @include)
(preproc_function_def name: (identifier) @macro)
(preproc_def name: (identifier) value: (preproc_arg)) @macro.object
(call_expression function: (identifier) @call)
(call_expression function: (field_expression) @call.field)
(call_expression function: (parenthesized_expression) @call.other)
(argument_list (identifier) @value)
(initializer_list (identifier) @value)
(initializer_pair value: (identifier) @value)
(init_declarator value: (identifier) @value)
(assignment_expression right: (identifier) @value)
(return_statement (identifier) @value)
(conditional_expression consequence: (identifier) @value)
(conditional_expression alternative: (identifier) @value)
((cast_expression type: (type_descriptor) @void value: (identifier) @value) (#not-eq? @void "void"))
(pointer_expression "&" argument: (identifier) @value)
`;
const CPP_PATTERNS = `${C_PATTERNS}
(lambda_expression) @lambda
(namespace_definition) @namespace
(for_range_loop) @declaration
(using_declaration) @using
(alias_declaration) @alias
(type_definition) @alias
(call_expression function: [(qualified_identifier) (template_function)] @call.other)
(new_expression type: (_) @construct)
(declaration type: (_) @construct declarator: (init_declarator value: [(argument_list) (initializer_list)]))
(base_class_clause [(type_identifier) (qualified_identifier) (template_type)] @base)
(struct_specifier (ERROR) @base.unread body: (field_declaration_list))
(class_specifier (ERROR) @base.unread body: (field_declaration_list))
(template_declaration parameters: (template_parameter_list) @template)
(argument_list (qualified_identifier) @value)
(initializer_list (qualified_identifier) @value)
(init_declarator value: (qualified_identifier) @value)
(assignment_expression right: (qualified_identifier) @value)
(return_statement (qualified_identifier) @value)
(pointer_expression "&" argument: (qualified_identifier) @value)
`;

/** The visitor's query for a grammar, made once per grammar and kept (like the grammar itself). */
const QUERIES = new WeakMap<Language, { readonly c?: Query; readonly cpp?: Query }>();

function queryFor(language: Language, cpp: boolean): Query {
  const known = QUERIES.get(language) ?? {};
  const key = cpp ? 'cpp' : 'c';
  let query = known[key];
  if (!query) {
    query = new Query(language, cpp ? CPP_PATTERNS : C_PATTERNS);
    QUERIES.set(language, { ...known, [key]: query });
  }
  return query;
}

function visit(root: Node, output: ReferenceSink, cpp: boolean): void {
  const captures = queryFor(root.tree.language, cpp).captures(root);
  const scopes = new LexicalScopes();
  /** File-scope variables of this file: a call of one is a call through a pointer. */
  const fileVariables = new Set<string>();
  /** This file's function definitions by name, for `EXPORT_SYMBOL(f)`. */
  const definitions = new Map<string, Node>();
  /** Directive lines: what `#if` conditions call is the preprocessor's. */
  const directives = directiveRows(root);
  const sink = directives === undefined ? output : outsideDirectives(output, directives);
  /** C++ namespaces open at the current node (document order), named or not. */
  const namespaces: { readonly end: number; readonly name: string | undefined }[] = [];
  const namespaceAt = (offset: number): { readonly path: string; readonly anonymous: boolean } => {
    while (namespaces.length > 0 && namespaces[namespaces.length - 1]!.end <= offset) namespaces.pop();
    return { path: namespaces.filter((n) => n.name !== undefined).map((n) => n.name).join('::'), anonymous: namespaces.some((n) => n.name === undefined) };
  };
  /**
   * A type as written at `at` (typeName's `a.b` parts), unless its first part is a template's
   * parameter there (`template <class Shape> void draw(Shape& s)`): then any type, not the
   * codebase's class of that name.
   */
  const declaredType = (at: number, type: string | undefined): string | undefined =>
    type !== undefined && scopes.lookup(at, type.split('.')[0]!)?.binding.kind === 'parameter' ? undefined : type;
  /** What an initializer makes (initializedType), unless it names a template's parameter (see declaredType). */
  const declaredMade = (at: number, value: Node | null | undefined): ReturnType<typeof initializedType> => {
    const made = initializedType(value);
    return made !== undefined && declaredType(at, made.name) !== undefined ? made : undefined;
  };
  const bindParameters = (scope: number, declarator: Node | undefined): void => {
    for (const p of declarator?.childForFieldName('parameters')?.namedChildren ?? []) {
      if (p?.type !== 'parameter_declaration' && p?.type !== 'optional_parameter_declaration') continue;
      const found = declaratorName(p.childForFieldName('declarator'));
      if (found?.node.type !== 'identifier') continue;
      const type = cpp && !found.isFunction ? declaredType(p.startIndex, typeName(p.childForFieldName('type'))) : undefined;
      scopes.bind(scope, found.node.text, { kind: 'parameter', ...(type ? { type: { name: type } } : {}) });
    }
  };

  // Pass 1: scopes, what each binds, and the file's declarations.
  for (const { name: role, node } of captures) {
    switch (role) {
      case 'function': {
        const found = declaratorName(node.childForFieldName('declarator'));
        const scope = scopes.open(node, 'function');
        const parent = node.parent;
        const inClass = cpp && (CLASS_BODIES.has(parent?.type ?? '') || CLASS_BODIES.has(parent?.parent?.type ?? ''));
        const anonymous = cpp && namespaceAt(node.startIndex).anonymous;
        if (found?.hasFunctionDeclarator) {
          bindParameters(scope, ownFunctionDeclarator(found.node, node));
          const name = plainName(found.node);
          if (name && !definitions.has(name)) definitions.set(name, node);
          // A static member function is no file-local one; a function in an anonymous namespace is.
          if ((hasStatic(node) && !inClass) || anonymous) sink.flag(node, 'static');
          else if (name === 'main' && found.node.type === 'identifier') sink.flag(node, 'entry');
        } else {
          // `static void __init setup(void)`: the attribute macro ended a declaration before it
          // (see c-family.ts); that declaration holds the storage class.
          const previous = node.previousNamedSibling;
          const name = node.childForFieldName('type')?.text;
          if (name && !definitions.has(name)) definitions.set(name, node);
          if (previous?.type === 'declaration' && hasStatic(previous)) sink.flag(node, 'static');
        }
        break;
      }
      case 'lambda':
        bindParameters(scopes.open(node, 'function'), node.childForFieldName('declarator') ?? undefined);
        break;
      case 'template': {
        // A template's parameters name whatever it is instantiated with: a type parameter hides
        // the codebase's class of that name in the declaration (`template <class Base> class W
        // : public Base`), a non-type one is a value.
        const scope = scopes.open(node.parent!, 'block');
        for (const p of node.namedChildren) {
          const name = p ? templateParameterName(p) : undefined;
          if (name) scopes.bind(scope, name, { kind: 'parameter' });
        }
        break;
      }
      case 'namespace': {
        const name = node.childForFieldName('name');
        const text = name ? name.text.replace(/\s+/g, '') : undefined;
        namespaceAt(node.startIndex);
        namespaces.push({ end: node.endIndex, name: text });
        if (text) sink.namespace(node, text);
        break;
      }
      case 'declaration': {
        const fileScope = node.type === 'declaration' && atFileScope(node);
        const isStatic = hasStatic(node);
        const inFunction = fileScope ? -1 : scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
        const declared = cpp ? declaredType(node.startIndex, typeName(node.childForFieldName('type'))) : undefined;
        for (const declarator of node.childrenForFieldName('declarator')) {
          const found = declaratorName(declarator);
          if (!found || found.node.type !== 'identifier') continue;
          const name = found.node.text;
          if (found.isFunction) {
            // A prototype: the function is declared here (visible to files that include this one).
            const namespace = cpp ? namespaceAt(node.startIndex).path : '';
            sink.binding(found.node, { kind: 'declare', name, ...(namespace !== '' ? { module: namespace } : {}), ...(isStatic ? { member: 'static' } : {}) });
          } else if (fileScope) {
            fileVariables.add(name);
          } else if (inFunction >= 0) {
            const value = declarator?.type === 'init_declarator' ? declarator.childForFieldName('value') : undefined;
            const type = declared !== undefined ? { name: declared } : cpp ? declaredMade(node.startIndex, value) : undefined;
            scopes.bind(inFunction, name, { kind: 'local', ...(type ? { type } : {}) });
          }
        }
        break;
      }
      case 'include': {
        const spec = includeSpecifier(node.parent!);
        if (spec !== undefined) sink.site(node, { kind: 'import', name: spec });
        break;
      }
      case 'macro':
        // The name is on the `#define` line itself (error recovery can take one from a later line).
        if (node.startPosition.row === node.parent?.startPosition.row) sink.binding(node, { kind: 'macro', name: node.text });
        break;
      case 'macro.object': {
        // `#define hash_64 hash_64_generic`: a call `hash_64(x)` where this is visible calls what
        // the name becomes, as with a function-like macro. `#define writel writel` (an
        // architecture saying it has its own writel) renames nothing.
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value')?.text.trim();
        if (name && value !== undefined && value !== name.text && IDENTIFIER.test(value) && name.startPosition.row === node.startPosition.row) {
          sink.binding(name, { kind: 'macro', name: name.text });
        }
        break;
      }
      case 'using': {
        if (CLASS_BODIES.has(node.parent?.type ?? '')) break; // `using Base::Base;` in a class
        const target = node.namedChildren.find((c) => c?.type === 'identifier' || c?.type === 'qualified_identifier');
        const found = target ? nameParts(target) : undefined;
        if (!found || !target) break;
        if (node.children.some((c) => c?.type === 'namespace')) sink.binding(target, { kind: 'using', name: '*', module: found.parts.join('::') });
        else if (found.parts.length > 1) sink.binding(target, { kind: 'using', name: found.parts[found.parts.length - 1]!, module: found.parts.slice(0, -1).join('::') });
        break;
      }
      case 'alias': {
        if (CLASS_BODIES.has(node.parent?.type ?? '')) break;
        const isUsing = node.type === 'alias_declaration';
        const target = typeName(isUsing ? node.childForFieldName('type')?.childForFieldName('type') : node.childForFieldName('type'));
        if (target === undefined) break;
        const names = isUsing ? [node.childForFieldName('name')] : node.childrenForFieldName('declarator');
        for (const n of names) if (n?.type === 'type_identifier') sink.binding(n, { kind: 'alias', name: n.text, module: target.split('.').join('::') });
        break;
      }
    }
  }

  // Pass 2: calls and values.
  const lookup = (at: number, name: string): ScopeBinding | undefined => scopes.lookup(at, name)?.binding;
  const localKind = (at: number, name: string): 'parameter' | 'local-variable' | undefined => {
    const b = lookup(at, name)?.kind;
    return b === 'parameter' ? 'parameter' : b === 'local' ? 'local-variable' : undefined;
  };
  /** A C++ name used as a callee or value: plain (`f`, `::f`, `f<int>`) or qualified (`ns::f`, `Foo::bar`). */
  const named = (kind: 'call' | 'reference', n: Node, construct = false): void => {
    const found = nameParts(n);
    if (!found) return;
    const name = found.parts[found.parts.length - 1]!;
    if (kind === 'reference' && (!MAY_NAME_A_FUNCTION.test(name) || NOT_VALUES.has(name))) return;
    if (found.parts.length === 1 && n.type !== 'qualified_identifier') {
      const local = localKind(found.last.startIndex, name);
      if (local || fileVariables.has(name)) {
        if (kind === 'call') sink.site(found.last, { kind, name, fixed: local ?? 'dynamic' });
        return;
      }
    }
    const path = found.parts.slice(0, -1);
    // `T::create()`, `new T::Node` with T a template's parameter: whatever T is instantiated with.
    if (path.length > 0 && declaredType(found.last.startIndex, path[0]!) === undefined) {
      if (kind === 'call') sink.site(found.last, { kind, name, fixed: 'parameter' });
      return;
    }
    sink.site(found.last, { kind, name, ...(path.length > 0 ? { receiver: { kind: 'path', path } } : {}), ...(construct ? { construct } : {}) });
  };
  /** What a C++ member call is made on, or undefined when nothing declares it. */
  const receiverOf = (object: Node, at: number): ReceiverFact | undefined => {
    let o = object;
    while (o.type === 'parenthesized_expression' && o.namedChildCount === 1) o = o.namedChildren[0]!;
    if (o.type === 'this') return { kind: 'self' };
    if (o.type === 'identifier') {
      const b = lookup(at, o.text);
      return b?.type && (b.kind === 'local' || b.kind === 'parameter') ? { kind: 'type', type: b.type.name, ...(b.type.constructed ? { constructed: true } : {}) } : undefined;
    }
    const made = declaredMade(at, o);
    return made ? { kind: 'type', type: made.name, constructed: true } : undefined;
  };
  const plainCall = (target: Node): void => {
    const name = target.text;
    const local = localKind(target.startIndex, name);
    if (local) sink.site(target, { kind: 'call', name, fixed: local });
    else if (fileVariables.has(name)) sink.site(target, { kind: 'call', name, fixed: 'dynamic' });
    else sink.site(target, { kind: 'call', name });
  };
  const fieldCall = (target: Node): void => {
    const field = target.childForFieldName('field');
    const name = field ? partName(field) : undefined;
    if (!field || name === undefined) return;
    const at = field.type.startsWith('template_') ? (field.childForFieldName('name') ?? field) : field;
    const object = target.childForFieldName('argument');
    // C: a structure field (a function pointer). C++: a method of what the object is declared as.
    const receiver = cpp && object ? receiverOf(object, target.startIndex) : undefined;
    if (receiver) sink.site(at, { kind: 'call', name, receiver });
    else sink.site(at, { kind: 'call', name, fixed: 'dynamic' });
  };
  /** Any other callee: `(f)(x)`, `(*fp)(x)`, C++ `ns::f()`, `f<int>()`. */
  const otherCall = (fn: Node): void => {
    let target = fn;
    while (target.type === 'parenthesized_expression' && target.namedChildCount === 1) target = target.namedChildren[0]!;
    switch (target.type) {
      case 'identifier':
        plainCall(target);
        break;
      case 'qualified_identifier':
      case 'template_function':
        if (cpp) named('call', target);
        break;
      case 'field_expression':
        fieldCall(target);
        break;
      case 'pointer_expression': {
        // `(*fp)(x)`: through a pointer, whatever fp is.
        const inner = target.childForFieldName('argument');
        if (inner?.type === 'identifier') sink.site(inner, { kind: 'call', name: inner.text, fixed: localKind(inner.startIndex, inner.text) ?? 'dynamic' });
        else if (inner?.type === 'field_expression') fieldCall(inner);
        break;
      }
    }
  };
  const value = (v: Node): void => {
    const name = v.text;
    if (!MAY_NAME_A_FUNCTION.test(name) || NOT_VALUES.has(name) || localKind(v.startIndex, name) || fileVariables.has(name)) return;
    sink.site(v, { kind: 'reference', name });
  };

  for (const { name: role, node } of captures) {
    switch (role) {
      case 'call':
        plainCall(node);
        if (EXPORT_MACROS.has(node.text)) {
          const call = node.parent;
          if (call && atFileScope(call.parent ?? call)) {
            const exported = call.childForFieldName('arguments')?.namedChildren[0];
            const definition = exported?.type === 'identifier' ? definitions.get(exported.text) : undefined;
            if (definition) sink.flag(definition, 'exported');
          }
        }
        break;
      case 'call.field':
        fieldCall(node);
        break;
      case 'call.other':
        otherCall(node);
        break;
      case 'value':
        if (node.type === 'identifier') value(node);
        else named('reference', node);
        break;
      case 'construct':
        // `new Foo(…)`, `Foo x(…)`, `Foo x{…}`: a constructor call.
        if (typeName(node) !== undefined) named('call', node, true);
        break;
      case 'base': {
        const found = nameParts(node);
        if (!found) break;
        const name = found.parts[found.parts.length - 1]!;
        if (declaredType(node.startIndex, found.parts[0]!) === undefined) {
          sink.site(found.last, { kind: 'inherits', name, fixed: 'parameter' });
          break;
        }
        const path = found.parts.slice(0, -1);
        sink.site(found.last, { kind: 'inherits', name, ...(path.length > 0 ? { receiver: { kind: 'path', path } } : {}) });
        break;
      }
      case 'base.unread':
        // A class header the grammar could not read (`struct A : decltype(b)`): it may name bases,
        // whose members a call in the class may mean (never a global function of the name).
        sink.site(node, { kind: 'inherits', name: writtenBase(node).replace(/^[\s:,]*((public|protected|private|virtual)\s+)*/, '') || '?', fixed: 'dynamic' });
        break;
    }
  }
}

/**
 * The C reference visitor: calls (plain, through pointers and fields), `#include` lines,
 * prototypes and function-like macros as bindings, functions used as values, and the `static`,
 * `exported` (`EXPORT_SYMBOL`) and `entry` (`main`) flags.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...c, references: cReferences };
 * ```
 */
export const cReferences: ReferenceVisitor = (root, sink) => visit(root, sink, false);

/**
 * The C++ reference visitor: C's, plus namespaces, bases, `this`, typed receivers,
 * constructors, qualified names, `using` declarations and directives, and type aliases.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...cpp, references: cppReferences };
 * ```
 */
export const cppReferences: ReferenceVisitor = (root, sink) => visit(root, sink, true);
