import type { Node } from 'web-tree-sitter';
import { allChildren, applyTextEdits, collapseSpaces, definitionDescendants, namedChildren, typeSet } from './common.js';
import type { Visitor, VisitorSink } from './types.js';

// One visitor for the TypeScript, TSX and JavaScript grammars: they share their node names
// (tree-sitter-typescript is built on tree-sitter-javascript), and `descendantsOfType` ignores
// names a grammar does not have (`public_field_definition` in JS, `field_definition` in TS).
//
// Decisions (each is asserted by test/typescript.test.ts or test/javascript.test.ts):
// - Ranges are the definition node. `export` and decorators written before `export` belong to
//   the `export_statement`, so they are outside; a function or class bound to a name
//   (`const f = () => …`, `const P = class {…}`) spans its whole `const`/`let`/`var` statement
//   without `export` (like `export function f` spans from `function`), or just its declarator
//   when one statement declares several names. The TS grammar puts member decorators beside the
//   member (outside), the JS grammar inside it; summaries leave decorators out in both.
// - Functions: declarations, generators, signatures without an implementation (`declare
//   function`, `.d.ts` overloads; overload lists followed by their implementation yield only the
//   implementation), functions and classes bound by `const`/`let`/`var`, by an assignment
//   (`exports.run = function () {}`: named after the last property) or by an object key
//   (`{ run: () => … }`), object-literal methods, and named function expressions that are not
//   bound (`setTimeout(function tick() {})`). Namespaces and modules are transparent.
//   At module scope (namespaces included), a `const` whose value is made by a call from a
//   function literal (`const map = dual(2, (self, f) => …)`, `const Button = memo(forwardRef(
//   (props, ref) => …))`, `const run = Effect.fn("run")(function* () {…})`) or is a function
//   literal under `as` / `satisfies` / parentheses is a function named after the binding
//   (range: the statement); a named function literal inside it of the same name is not
//   indexed again. Interfaces' construct signatures (`new (…): T`) are methods named `new`,
//   and so are their members typed as a function (`readonly add: <E>(path: string) => X`).
//   `parentFunction` is the nearest enclosing named function or method, wherever it is
//   (so an object-literal method inside a class method is a function nested in that method,
//   never a method of the class).
// - Classes: class declarations, abstract classes, interfaces, enums (members as fields) and
//   class expressions bound to a name (or named themselves). Methods are the direct members of a
//   class or interface body: `method_definition` (constructor, accessors, `#private`, generators),
//   `method_signature`, `abstract_method_signature` and fields whose value is a function
//   (`handle = () => {}`). Members of anonymous classes (`export default class {…}`) are skipped.
//   Names are the source text, so `#rotate` and `[Symbol.iterator]` keep their `#`/brackets;
//   string names lose their quotes; object-literal functions with computed keys are skipped.

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
export const DEFINITION_TYPES: readonly string[] = [
  'function_declaration',
  'generator_function_declaration',
  'function_signature',
  'class_declaration',
  'abstract_class_declaration',
  'interface_declaration',
  'enum_declaration',
  'class',
  'method_definition',
  'arrow_function',
  'function_expression',
  'generator_function',
];

const FUNCTION_VALUES = typeSet('arrow_function', 'function_expression', 'generator_function');
const CLASS_DECLARATIONS = typeSet('class_declaration', 'abstract_class_declaration', 'interface_declaration', 'enum_declaration');
const FIELD_DEFINITIONS = typeSet('public_field_definition', 'field_definition');
const SIGNATURES = typeSet('method_signature', 'abstract_method_signature');
const DECLARATION_STATEMENTS = typeSet('lexical_declaration', 'variable_declaration');
const NOT_PART_OF_SIGNATURE = typeSet('decorator', 'comment');
const WRAPPERS = typeSet('export_statement', 'ambient_declaration');

/** A definition found in the file, emitted after all are known (to nest them by range). */
interface Definition {
  readonly kind: 'function' | 'method' | 'class';
  readonly name: string;
  /** Gives the range and the body. */
  readonly node: Node;
  readonly start: number;
  readonly end: number;
  readonly parentClass?: string;
  readonly fields?: string[];
  readonly methods?: string[];
}

/** The searchable name of a name/key node: quotes of string names are dropped. */
function memberName(node: Node | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return node.text.slice(1, -1);
  return node.text;
}

/**
 * The name of an object-literal key: computed keys (`[Kind.Call]: function () {}`, common in
 * dispatch tables) are skipped, as no one searches for them by that text.
 */
function keyName(node: Node | null | undefined): string | undefined {
  return node?.type === 'computed_property_name' ? undefined : memberName(node);
}

/** Source text from the first child that is not a decorator/comment up to `stop` (exclusive), on one line. */
function headText(node: Node, stop: Node | null | undefined): string {
  const first = allChildren(node).find((c) => !NOT_PART_OF_SIGNATURE.has(c.type));
  if (!first) return '';
  const text = node.text;
  const from = first.startIndex - node.startIndex;
  const to = stop ? stop.startIndex - node.startIndex : text.length;
  return collapseSpaces(text.slice(from, to).replace(/[;,]\s*$/, ''));
}

function newDefinition(kind: Definition['kind'], name: string, node: Node, extra: Partial<Definition> = {}): Definition {
  return { kind, name, node, start: node.startIndex, end: node.endIndex, ...extra };
}

/**
 * For a function or class bound by `const`/`let`/`var`: the statement when it declares only this
 * name, else the declarator alone (two functions in one statement must not share a range).
 */
/**
 * Where the definition a `variable_declarator`'s function or class value makes starts and ends:
 * its whole statement when that declares only it (`const cb = () => {}`), else the declarator.
 *
 * @example
 * ```ts
 * bindingRange(declarator).startIndex; // where `const` is, for `const cb = () => {}`
 * ```
 */
export function bindingRange(declarator: Node): Node {
  const statement = declarator.parent;
  if (!statement || !DECLARATION_STATEMENTS.has(statement.type)) return declarator;
  const declarators = namedChildren(statement).filter((c) => c.type === 'variable_declarator');
  return declarators.length === 1 ? statement : declarator;
}

/**
 * Name and range of a function or class expression, from where its value goes; undefined when
 * it is anonymous (a callback) or belongs to a class body (handled with its class).
 */
function boundName(value: Node): { name: string; range: Node } | undefined {
  const parent = value.parent;
  if (!parent || FIELD_DEFINITIONS.has(parent.type)) return undefined;
  switch (parent.type) {
    case 'variable_declarator': {
      const name = parent.childForFieldName('name');
      if (name?.type === 'identifier') return { name: name.text, range: bindingRange(parent) };
      break;
    }
    case 'pair': {
      const name = keyName(parent.childForFieldName('key'));
      if (name) return { name, range: parent };
      break;
    }
    case 'assignment_expression': {
      const left = parent.childForFieldName('left');
      const name = left?.type === 'identifier' ? left.text : left?.type === 'member_expression' ? left.childForFieldName('property')?.text : undefined;
      if (name) {
        const statement = parent.parent;
        return { name, range: statement?.type === 'expression_statement' ? statement : parent };
      }
      break;
    }
  }
  if (value.type === 'arrow_function') return undefined;
  const own = value.childForFieldName('name');
  return own ? { name: own.text, range: value } : undefined;
}

/**
 * The definition a function or class expression (or arrow function) makes, named as the
 * visitor names it: by the variable, key or assignment it is the value of, else by its own
 * name; undefined when it makes none (an anonymous callback, a function a call-made binding
 * already stands for). The reference pass asks it too: an expression's own name means this
 * definition inside it only when the definition has that name.
 *
 * @example
 * ```ts
 * expressionDefinition(node)?.name; // 'k' for `const k = function h() {}`
 * ```
 */
export function expressionDefinition(node: Node): { readonly name: string; readonly range: Node } | undefined {
  const bound = boundName(node);
  if (bound === undefined) return undefined;
  if (node.type !== 'class' && bound.range === node && insideCallMadeBinding(node, bound.name)) return undefined;
  return bound;
}

function signatureName(node: Node): string | undefined {
  return memberName(node.childForFieldName('name'));
}

/**
 * True for an overload signature: `following` (the declarations after it) continues a run of
 * same-named signatures that ends with the implementation.
 */
function isOverload(name: string, following: Iterable<Node>, signatureTypes: ReadonlySet<string>, implementationTypes: ReadonlySet<string>): boolean {
  for (const n of following) {
    if (signatureName(n) !== name) return false;
    if (implementationTypes.has(n.type)) return true;
    if (!signatureTypes.has(n.type)) return false;
  }
  return false;
}

const FUNCTION_SIGNATURE = typeSet('function_signature');
const FUNCTION_IMPLEMENTATION = typeSet('function_declaration');
const METHOD_IMPLEMENTATION = typeSet('method_definition');

/** The declarations after `node`, looking through `export`/`declare`. */
function* followingDeclarations(node: Node): Generator<Node> {
  for (let n = nextDeclaration(node); n; n = nextDeclaration(n)) yield n;
}

/** The next top-level-like declaration after `node`, looking through `export`/`declare`. */
function nextDeclaration(node: Node): Node | undefined {
  let outer = node;
  while (outer.parent && WRAPPERS.has(outer.parent.type)) outer = outer.parent;
  let sibling = outer.nextNamedSibling;
  while (sibling?.type === 'comment') sibling = sibling.nextNamedSibling;
  while (sibling && WRAPPERS.has(sibling.type)) {
    sibling = sibling.childForFieldName('declaration') ?? namedChildren(sibling).find((c) => c.type !== 'decorator' && c.type !== 'comment') ?? null;
  }
  return sibling ?? undefined;
}

/** Records a named class-like node, its members as methods and its summaries. */
function addClassLike(node: Node, name: string, range: Node, out: Definition[]): void {
  const fields: string[] = [];
  const methods: string[] = [];
  const members = namedChildren(node.childForFieldName('body')).filter((c) => !NOT_PART_OF_SIGNATURE.has(c.type));
  out.push(newDefinition('class', name, range, { fields, methods }));
  function* membersAfter(i: number): Generator<Node> {
    for (let j = i + 1; j < members.length; j++) yield members[j]!;
  }
  members.forEach((member, i) => {
    switch (member.type) {
      case 'method_definition': {
        const methodName = signatureName(member);
        if (!methodName) return;
        methods.push(headText(member, member.childForFieldName('body')));
        out.push(newDefinition('method', methodName, member, { parentClass: name }));
        return;
      }
      case 'method_signature':
      case 'abstract_method_signature': {
        const methodName = signatureName(member);
        if (!methodName) return;
        if (isOverload(methodName, membersAfter(i), SIGNATURES, METHOD_IMPLEMENTATION)) return;
        methods.push(headText(member, undefined));
        out.push(newDefinition('method', methodName, member, { parentClass: name }));
        return;
      }
      case 'public_field_definition':
      case 'field_definition': {
        const value = member.childForFieldName('value');
        const fieldName = memberName(member.childForFieldName('name') ?? member.childForFieldName('property'));
        if (value && FUNCTION_VALUES.has(value.type) && fieldName) {
          methods.push(headText(member, value.childForFieldName('body')));
          out.push(newDefinition('method', fieldName, member, { parentClass: name }));
        } else {
          fields.push(headText(member, undefined));
        }
        return;
      }
      case 'construct_signature':
        methods.push(headText(member, undefined));
        out.push(newDefinition('method', 'new', member, { parentClass: name }));
        return;
      case 'property_signature': {
        // `readonly add: <E>(path: string) => Effect<E>`: a member typed as a function is a method.
        const type = member.childForFieldName('type')?.firstNamedChild;
        const propertyName = memberName(member.childForFieldName('name'));
        if (type?.type === 'function_type' && propertyName) {
          methods.push(headText(member, undefined));
          out.push(newDefinition('method', propertyName, member, { parentClass: name }));
        } else {
          fields.push(headText(member, undefined) || member.text);
        }
        return;
      }
      case 'property_identifier':
      case 'enum_assignment':
        fields.push(headText(member, undefined) || member.text);
        return;
    }
  });
}

/** Collects every definition of the file (unsorted). */
function collect(root: Node): Definition[] {
  const out: Definition[] = [];
  const { nodes, types } = definitionDescendants(root, DEFINITION_TYPES);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    const type = types[i]!;
    if (CLASS_DECLARATIONS.has(type)) {
      const name = node.childForFieldName('name')?.text;
      if (name) addClassLike(node, name, node, out);
    } else if (type === 'class') {
      const bound = expressionDefinition(node);
      if (bound) addClassLike(node, bound.name, bound.range, out);
    } else if (type === 'function_declaration' || type === 'generator_function_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name) out.push(newDefinition('function', name, node));
    } else if (type === 'function_signature') {
      const name = node.childForFieldName('name')?.text;
      if (name && !isOverload(name, followingDeclarations(node), FUNCTION_SIGNATURE, FUNCTION_IMPLEMENTATION)) {
        out.push(newDefinition('function', name, node));
      }
    } else if (type === 'method_definition') {
      // Class members come with their class; only object-literal methods are left here.
      if (node.parent?.type !== 'object') continue;
      const name = keyName(node.childForFieldName('name'));
      if (name) out.push(newDefinition('function', name, node));
    } else {
      const bound = expressionDefinition(node);
      if (bound) out.push(newDefinition('function', bound.name, bound.range));
    }
  }
  collectCallMade(root, out, 0);
  return out;
}

/** Wrappers a value may sit in without changing what it is: `x as T`, `x satisfies T`, `(x)`, `x!`. */
const VALUE_WRAPPERS = typeSet('as_expression', 'satisfies_expression', 'parenthesized_expression', 'non_null_expression', 'type_assertion');

/** The value inside `as` / `satisfies` / parentheses. */
function unwrapValue(value: Node): Node {
  let node = value;
  for (let depth = 0; VALUE_WRAPPERS.has(node.type) && depth < 8; depth++) {
    const inner = node.type === 'type_assertion' ? node.namedChildren.at(-1) : node.firstNamedChild;
    if (!inner) break;
    node = inner;
  }
  return node;
}

/** A call whose arguments hold a function literal, directly or in a nested call's arguments. */
function madeFromFunction(call: Node, depth: number): boolean {
  if (depth > 3) return false;
  const calls = [call];
  // `Effect.fn("name")(function* () {…})`: the callee may itself be a call.
  const callee = call.childForFieldName('function');
  if (callee?.type === 'call_expression') calls.push(callee);
  for (const c of calls) {
    for (const argument of namedChildren(c.childForFieldName('arguments'))) {
      const value = unwrapValue(argument);
      if (FUNCTION_VALUES.has(value.type)) return true;
      if (value.type === 'call_expression' && madeFromFunction(value, depth + 1)) return true;
    }
  }
  return false;
}

/** Where module-scope declarations live: the program, namespace and module bodies, `export` / `declare`. */
function collectCallMade(scope: Node, out: Definition[], depth: number): void {
  if (depth > 8) return;
  for (const statement of namedChildren(scope)) {
    switch (statement.type) {
      case 'export_statement':
      case 'ambient_declaration':
        collectCallMade(statement, out, depth + 1);
        break;
      case 'expression_statement':
      case 'internal_module':
      case 'module': {
        const module = statement.type === 'expression_statement' ? statement.firstNamedChild : statement;
        if (module?.type === 'internal_module' || module?.type === 'module') collectCallMade(module.childForFieldName('body') ?? module, out, depth + 1);
        break;
      }
      case 'lexical_declaration': {
        if (statement.childForFieldName('kind')?.type !== 'const') break;
        for (const declarator of namedChildren(statement)) {
          if (declarator.type !== 'variable_declarator') continue;
          const name = declarator.childForFieldName('name');
          const value = declarator.childForFieldName('value');
          if (name?.type !== 'identifier' || !value) continue;
          const inner = unwrapValue(value);
          // A function literal directly bound (`const f = () => …`) is found with the literal.
          const wrappedFunction = inner !== value && FUNCTION_VALUES.has(inner.type);
          if (wrappedFunction || (inner.type === 'call_expression' && madeFromFunction(inner, 0))) {
            out.push(newDefinition('function', name.text, bindingRange(declarator)));
          }
        }
        break;
      }
    }
  }
}

/**
 * True for a named function literal inside a call-made binding of the same name
 * (`const Button = forwardRef(function Button(…) {…})`): the binding's row covers it.
 */
function insideCallMadeBinding(fn: Node, name: string): boolean {
  let node = fn.parent;
  for (let depth = 0; node && depth < 12; depth++, node = node.parent) {
    if (node.type === 'variable_declarator') return node.childForFieldName('name')?.text === name;
    if (node.type !== 'arguments' && node.type !== 'call_expression' && !VALUE_WRAPPERS.has(node.type)) return false;
  }
  return false;
}

function visit(root: Node, sink: VisitorSink): void {
  const definitions = collect(root).sort((a, b) => a.start - b.start || b.end - a.end);
  // Ranges nest like the tree, so a stack of open definitions gives each one its enclosing
  // definitions without walking parent links again.
  const open: Definition[] = [];
  for (const def of definitions) {
    while (open.length > 0 && open[open.length - 1]!.end <= def.start) open.pop();
    if (def.kind === 'class') {
      sink.addClass(def.node, { name: def.name, fields: def.fields, methods: def.methods });
    } else if (def.kind === 'method') {
      sink.addFunction(def.node, { name: def.name, parentClass: def.parentClass });
    } else {
      let parent: Definition | undefined;
      for (let i = open.length - 1; i >= 0 && !parent; i--) if (open[i]!.kind !== 'class') parent = open[i];
      sink.addFunction(def.node, { name: def.name, parentFunction: parent?.name });
    }
    open.push(def);
  }
}

/**
 * The visitor shared by the TypeScript, TSX and JavaScript definitions (see the decisions at the
 * top of `ecmascript.ts`).
 *
 * @example
 * ```ts
 * const es: LanguageDefinition = {
 *   id: 'javascript',
 *   extensions: ['.js'],
 *   grammar: 'tree-sitter-javascript.wasm',
 *   version: '1',
 *   visitor: ecmascriptVisitor,
 * };
 * ```
 * @public
 */
export const ecmascriptVisitor: Visitor = visit;

// ---------------------------------------------------------------------------------------------
// TypeScript source rewrite. tree-sitter-typescript 0.23.2 (the newest on npm) fails on three
// shapes, and its error recovery then often turns the rest of the file into one ERROR node
// (effect's Schema.ts, 19,547 lines): variance annotations (`interface Stream<out A, in R>`), a
// generic call signature on its own line after a member (`{ (a: A): B ⏎ <C>(c: C): D }`), and
// backslashes in template literal types (`` `a\`b` ``). Each is rewritten with offsets kept
// (rows and texts still come from the original source): the variance keywords become spaces, a
// `;` goes into the indentation before the signature, and every escape pair `\x` becomes `__`
// (inside a string, template, regex or comment, where escapes live, that changes contents only).

/** A head whose `<` opens type parameters that may carry variance: `interface X<`, `class<`. */
const VARIANCE_HEADS = /\b(?:interface|class|type)\b(?:\s+[A-Za-z_$][\w$]*)?\s*</g;
/** `in ` / `out ` / `in out ` before a type parameter's name (`out extends` names a parameter `out`). */
const VARIANCE = /^(?:(?:in|out)\s+)+(?!extends\b)(?=[A-Za-z_$])/;

/** Blank ranges of the variance keywords in every type parameter list a declaration opens. */
function varianceRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  if (!/\b(?:in|out)\s/.test(text)) return ranges;
  for (const match of text.matchAll(VARIANCE_HEADS)) {
    let depth = 0;
    let atStart = true; // at a parameter's start: after `<` or a top-level `,`
    for (let i = match.index + match[0].length; i < text.length && i < match.index + 4000; i++) {
      const c = text[i]!;
      if (atStart) {
        if (/\s/.test(c)) continue;
        atStart = false;
        const variance = VARIANCE.exec(text.slice(i, i + 40));
        if (variance) {
          ranges.push([i, i + variance[0].length]);
          i += variance[0].length - 1;
          continue;
        }
      }
      if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
      else if (c === '>' && text[i - 1] !== '=') {
        if (depth === 0) break;
        depth--;
      } else if (c === ')' || c === ']' || c === '}') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) atStart = true;
      else if (c === ';') break;
    }
  }
  return ranges;
}

/** A generic call signature starting a line: `  <A, B>(…`, `  <const T extends …`, `  <` ⏎ `A,`. */
const CALL_SIGNATURE_LINE = /\n([ \t]*)[ \t]<\s*(?:const\s+)?[A-Za-z_$][\w$]*\s*(?:,|>|extends\b|=)/g;

/**
 * Where a `;` goes before a generic call signature that follows a member on the line above
 * without a separator (the grammar reads `B ⏎ <C>(c: C): D` as type arguments of `B`): the
 * indentation character before its `<`. Only after code that can end a type (a name, `)`,
 * `]`, `}`, a quote, `>` but not `=>`); comments in between are skipped.
 */
function callSignatureSeparators(text: string): Map<number, string> {
  const chars = new Map<number, string>();
  if (!text.includes('<')) return chars;
  for (const match of text.matchAll(CALL_SIGNATURE_LINE)) {
    if (endsLikeAType(text, match.index)) chars.set(match.index + 1 + match[1]!.length, ';');
  }
  return chars;
}

/** True when the code before the line break at `lineBreak` (comments skipped) ends a type. */
function endsLikeAType(text: string, lineBreak: number): boolean {
  let end = lineBreak;
  for (let guard = 0; guard < 200 && end > 0; guard++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    let line = text.slice(start, end);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('//') || (trimmed.startsWith('*') && !trimmed.endsWith('*/'))) {
      end = start - 1;
      continue;
    }
    if (trimmed.endsWith('*/')) {
      // A block comment ending here: continue before its `/*`.
      const open = text.lastIndexOf('/*', start + line.lastIndexOf('*/'));
      if (open < 0) return false;
      const lineStart = text.lastIndexOf('\n', open - 1) + 1;
      line = text.slice(lineStart, open);
      if (line.trim() === '') {
        end = lineStart - 1;
        continue;
      }
    }
    line = line.replace(/\s\/\/.*$/, '').trimEnd();
    const last = line[line.length - 1];
    if (last === undefined) {
      end = start - 1;
      continue;
    }
    if (/[\w$)\]}'"`]/.test(last)) return true;
    return last === '>' && line[line.length - 2] !== '=';
  }
  return false;
}

/**
 * The TypeScript / TSX rewrite (see the notes above `VARIANCE_HEADS`); returns `source`
 * itself when nothing needs it.
 *
 * @example
 * ```ts
 * rewriteTypeScriptSource('interface Stream<out A> {}'); // 'interface Stream<    A> {}'
 * ```
 */
export function rewriteTypeScriptSource(source: string): string {
  const unescaped = source.includes('\\') ? source.replace(/\\[^\n\r\u2028\u2029\ud800-\udfff]/g, '__') : source;
  return applyTextEdits(unescaped, varianceRanges(unescaped), callSignatureSeparators(unescaped));
}
