import type { Node } from 'web-tree-sitter';
import type { ReferenceSink } from '../../graph/facts.js';
import { declaratorName, plainName } from '../c-family.js';
import { typeSet } from '../common.js';
import { LexicalScopes } from './scopes.js';

// C: calls, `#include` lines, prototypes and function-like macros (what an included header
// makes visible), functions used as values, and `static` definitions.
//
// A function's parameters and the variables declared anywhere in its body are its locals for
// all of it (C has no nested functions; block scopes are merged into their function, which can
// only leave a call unresolved). A call of a local or parameter (`cb(x)`), of a file-scope
// variable (`static void (*hook)(void)`), through a pointer (`(*fp)(x)`) or a structure field
// (`ops->open(x)`) is a call of a value: kept with its name, never resolved.

/** Value positions that may hold a function used as a value: `f(cb)`, `.open = my_open`, `{ a, b }`, `x = f`, `return f`. */
const VALUE_PARENTS = typeSet('argument_list', 'initializer_list', 'initializer_pair', 'init_declarator', 'assignment_expression', 'return_statement', 'conditional_expression', 'cast_expression', 'pointer_expression');
const SEARCHED = ['function_definition', 'declaration', 'preproc_include', 'preproc_function_def', 'call_expression', ...VALUE_PARENTS];

/**
 * Directives whose text is not code: tree-sitter parses `#if` / `#elif` conditions as
 * expressions, but what they call is the preprocessor's (`#if IS_ENABLED(X)`), not a site.
 * (c.ts's `mayDefine` skips the same lines.)
 */
export const OPAQUE_DIRECTIVE = /^#[ \t]*(define|undef|if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|error|warning|pragma|line)\b/;

/** The 0-based rows of the directives in a file (from its root node), with their continuation lines. */
function directiveRows(root: Node): Set<number> | undefined {
  const text = root.text;
  if (!/#[ \t]*(if|elif)/.test(text)) return undefined;
  // The root's text starts at its first token, on row `first`.
  const first = root.startPosition.row;
  const rows = new Set<number>();
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!.trimStart();
    if (!line.startsWith('#') || !OPAQUE_DIRECTIVE.test(line)) continue;
    rows.add(first + k);
    while (lines[k]!.endsWith('\\') && k + 1 < lines.length) rows.add(first + ++k);
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
export function includeSpecifier(include: Node): string | undefined {
  const path = include.childForFieldName('path');
  if (!path) return undefined;
  if (path.type === 'system_lib_string') return path.text.slice(1, -1).trim() || undefined;
  if (path.type === 'string_literal') return path.text.replace(/^"|"$/g, '').trim() || undefined;
  return undefined;
}

/** Whether a declaration or definition carries the `static` storage class. */
export function hasStatic(node: Node): boolean {
  for (const child of node.namedChildren) if (child?.type === 'storage_class_specifier' && child.text === 'static') return true;
  return false;
}

/** The function declarator that declares `name` itself (its parameter list is the function's own). */
function ownFunctionDeclarator(name: Node, stop: Node): Node | undefined {
  for (let p = name.parent; p && p.id !== stop.id; p = p.parent) if (p.type === 'function_declarator') return p;
  return undefined;
}

/** The names a parameter list declares. */
export function parameterNames(declarator: Node | undefined): string[] {
  const out: string[] = [];
  const params = declarator?.childForFieldName('parameters');
  for (const p of params?.namedChildren ?? []) {
    if (p?.type !== 'parameter_declaration') continue;
    const found = declaratorName(p.childForFieldName('declarator'));
    if (found?.node.type === 'identifier') out.push(found.node.text);
  }
  return out;
}

/** Whether `node` sits at file scope: only preprocessor conditionals and `extern "C"` blocks around it. */
export function atFileScope(node: Node): boolean {
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
        continue;
      default:
        return false;
    }
  }
  return false;
}

function visit(root: Node, sink: ReferenceSink): void {
  const nodes = root.descendantsOfType(SEARCHED).filter((n): n is Node => n !== null);
  const scopes = new LexicalScopes();
  /** File-scope variables of this file: a call of one is a call through a pointer. */
  const fileVariables = new Set<string>();
  /** This file's function definitions by name, for `EXPORT_SYMBOL(f)`. */
  const definitions = new Map<string, Node>();
  /** Directive lines: what `#if` conditions call is the preprocessor's. */
  const directives = directiveRows(root);

  // Pass 1: scopes, what each binds, and the file's declarations.
  for (const node of nodes) {
    switch (node.type) {
      case 'function_definition': {
        const found = declaratorName(node.childForFieldName('declarator'));
        const scope = scopes.open(node, 'function');
        if (found?.hasFunctionDeclarator) {
          for (const p of parameterNames(ownFunctionDeclarator(found.node, node))) scopes.bind(scope, p, { kind: 'parameter' });
          const name = plainName(found.node);
          if (name && !definitions.has(name)) definitions.set(name, node);
          if (hasStatic(node)) sink.flag(node, 'static');
          else if (name === 'main') sink.flag(node, 'entry');
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
      case 'declaration': {
        const fileScope = atFileScope(node);
        const isStatic = hasStatic(node);
        const inFunction = fileScope ? -1 : scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
        for (const declarator of node.childrenForFieldName('declarator')) {
          const found = declaratorName(declarator);
          if (!found || found.node.type !== 'identifier') continue;
          // A misparse around a directive is no declaration.
          if (directives !== undefined && directives.has(found.node.startPosition.row)) continue;
          const name = found.node.text;
          if (found.isFunction) {
            // A prototype: the function is declared here (visible to files that include this one).
            sink.binding(found.node, { kind: 'declare', name, ...(isStatic ? { member: 'static' } : {}) });
          } else if (fileScope) {
            fileVariables.add(name);
          } else if (inFunction >= 0) {
            scopes.bind(inFunction, name, { kind: 'local' });
          }
        }
        break;
      }
      case 'preproc_include': {
        const spec = includeSpecifier(node);
        const path = node.childForFieldName('path');
        if (spec !== undefined && path) sink.site(path, { kind: 'import', name: spec });
        break;
      }
      case 'preproc_function_def': {
        const name = node.childForFieldName('name');
        if (name) sink.binding(name, { kind: 'macro', name: name.text });
        break;
      }
    }
  }

  // Pass 2: calls and values.
  const localKind = (at: number, name: string): 'parameter' | 'local-variable' | undefined => {
    const b = scopes.lookup(at, name)?.binding.kind;
    return b === 'parameter' ? 'parameter' : b === 'local' ? 'local-variable' : undefined;
  };
  const call = (fn: Node): void => {
    let target = fn;
    while (target.type === 'parenthesized_expression' && target.namedChildCount === 1) target = target.namedChildren[0]!;
    if (target.type === 'identifier') {
      const name = target.text;
      const local = localKind(target.startIndex, name);
      if (local) sink.site(target, { kind: 'call', name, fixed: local });
      else if (fileVariables.has(name)) sink.site(target, { kind: 'call', name, fixed: 'dynamic' });
      else sink.site(target, { kind: 'call', name });
      return;
    }
    if (target.type === 'pointer_expression') {
      // `(*fp)(x)`: through a pointer, whatever fp is.
      const inner = target.childForFieldName('argument');
      if (inner?.type === 'identifier') sink.site(inner, { kind: 'call', name: inner.text, fixed: localKind(inner.startIndex, inner.text) ?? 'dynamic' });
      else if (inner?.type === 'field_expression') call(inner);
      return;
    }
    if (target.type === 'field_expression') {
      const field = target.childForFieldName('field');
      if (field) sink.site(field, { kind: 'call', name: field.text, fixed: 'dynamic' });
    }
  };
  const value = (v: Node | null | undefined): void => {
    if (v?.type !== 'identifier') return;
    const name = v.text;
    if (!MAY_NAME_A_FUNCTION.test(name) || NOT_VALUES.has(name) || localKind(v.startIndex, name) || fileVariables.has(name)) return;
    sink.site(v, { kind: 'reference', name });
  };

  for (const node of nodes) {
    if (directives !== undefined && directives.has(node.startPosition.row)) continue;
    switch (node.type) {
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        if (!fn) break;
        call(fn);
        if (fn.type === 'identifier' && EXPORT_MACROS.has(fn.text) && atFileScope(node.parent ?? node)) {
          const exported = node.childForFieldName('arguments')?.namedChildren[0];
          const definition = exported?.type === 'identifier' ? definitions.get(exported.text) : undefined;
          if (definition) sink.flag(definition, 'exported');
        }
        break;
      }
      case 'argument_list':
      case 'initializer_list':
        for (const v of node.namedChildren) value(v);
        break;
      case 'initializer_pair':
      case 'init_declarator':
        value(node.childForFieldName('value'));
        break;
      case 'assignment_expression':
        value(node.childForFieldName('right'));
        break;
      case 'return_statement':
        value(node.namedChildren[0]);
        break;
      case 'conditional_expression':
        value(node.childForFieldName('consequence'));
        value(node.childForFieldName('alternative'));
        break;
      case 'cast_expression':
        // `(void)arg;` only silences a warning.
        if (node.childForFieldName('type')?.text !== 'void') value(node.childForFieldName('value'));
        break;
      case 'pointer_expression':
        if (node.child(0)?.type === '&') value(node.childForFieldName('argument'));
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
export const cReferences = visit;
