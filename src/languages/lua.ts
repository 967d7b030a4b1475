import type { Node } from 'web-tree-sitter';
import { fieldText, namedChildren } from './common.js';
import type { FunctionInfo, LanguageDefinition, VisitorSink } from './types.js';

// Node types of @tree-sitter-grammars/tree-sitter-lua 0.4. `function_declaration` is a
// `function name() … end` statement (with or without `local`); `function_definition` is an
// anonymous `function() … end` expression.

/**
 * Name and class of a function from the name it is declared or assigned under:
 * `f` → function `f`; `T.f` and `T:f` → method `f` of `T`; `a.b.c:f` → method `f` of `a.b.c`
 * (the whole table expression, as written). Bracketed keys (`T["f"]`) are not names.
 */
function fromTarget(target: Node | null): { name: string; parentClass?: string } | undefined {
  if (!target) return undefined;
  switch (target.type) {
    case 'identifier':
      return { name: target.text };
    case 'dot_index_expression': {
      const name = fieldText(target, 'field');
      const table = fieldText(target, 'table');
      return name && table ? { name, parentClass: table } : undefined;
    }
    case 'method_index_expression': {
      const name = fieldText(target, 'method');
      const table = fieldText(target, 'table');
      return name && table ? { name, parentClass: table } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * For an anonymous `function() … end` assigned to a name (`local f = function…`,
 * `T.f = function…`): that name, and the statement to use as the row's range.
 */
function assignedName(fn: Node): { target: ReturnType<typeof fromTarget>; statement: Node } | undefined {
  const values = fn.parent;
  const assignment = values?.parent;
  if (values?.type !== 'expression_list' || assignment?.type !== 'assignment_statement') return undefined;
  const index = namedChildren(values).findIndex((v) => v.startIndex === fn.startIndex && v.endIndex === fn.endIndex);
  const variables = namedChildren(assignment).find((c) => c.type === 'variable_list');
  const target = fromTarget(namedChildren(variables)[index] ?? null);
  if (!target) return undefined;
  // `local f = function…` is wrapped in a variable_declaration that starts at `local`.
  const statement = assignment.parent?.type === 'variable_declaration' ? assignment.parent : assignment;
  return { target, statement };
}

/** The name a function node is known by (declared or assigned), or undefined for anonymous ones. */
function nameOf(node: Node): string | undefined {
  if (node.type === 'function_declaration') return fromTarget(node.childForFieldName('name'))?.name;
  return assignedName(node)?.target?.name;
}

/** The nearest enclosing named function; anonymous functions in between are transparent. */
function parentFunction(node: Node): string | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'function_declaration' || p.type === 'function_definition') {
      const name = nameOf(p);
      if (name) return name;
    }
  }
  return undefined;
}

function report(node: Node, target: NonNullable<ReturnType<typeof fromTarget>>, sink: VisitorSink): void {
  const info: FunctionInfo = target.parentClass !== undefined
    ? { name: target.name, parentClass: target.parentClass }
    : { name: target.name, parentFunction: parentFunction(node) };
  sink.addFunction(node, info);
}

function visit(root: Node, sink: VisitorSink): void {
  for (const node of root.descendantsOfType(['function_declaration', 'function_definition'])) {
    if (!node) continue;
    if (node.type === 'function_declaration') {
      const target = fromTarget(node.childForFieldName('name'));
      if (target) report(node, target, sink);
      continue;
    }
    const assigned = assignedName(node);
    if (assigned?.target) report(assigned.statement, assigned.target, sink);
  }
}

/**
 * Lua: `function f()` and `local function f()` are functions; `function T.f()` and
 * `function T:f()` are methods `f` whose class is the table expression as written (`T`, or
 * `a.b.c` for `function a.b.c:f()`). A function bound by assignment (`local f = function() end`,
 * `T.f = function() end`) counts the same, with the whole statement as its range. Functions
 * nested in another named function get it as `parentFunction` (even when the outer one is a
 * method). Tables are not recorded as classes, and functions in table constructors
 * (`{ f = function() end }`) are not recorded.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([lua]);
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: registry });
 * await db.queryFunction('greet', 'class_method'); // `function M:greet()`, parent class `M`
 * ```
 * @public
 */
export const lua: LanguageDefinition = {
  id: 'lua',
  extensions: ['.lua'],
  grammar: 'tree-sitter-lua.wasm',
  grammarPackage: { name: '@tree-sitter-grammars/tree-sitter-lua', version: '0.4.1' },
  version: '1',
  visitor: visit,
};
