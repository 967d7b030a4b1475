import type { Node } from 'web-tree-sitter';
import { definitionDescendants, fieldText, namedChildren } from './common.js';
import type { FunctionInfo, LanguageDefinition, VisitorSink } from './types.js';
import { implement, LUA } from './builtin.js';
import { luaReferences } from './references/lua.js';

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

/**
 * The table expression a table constructor is bound to, as written: `M` for `local M = {…}`,
 * `a.b` for `a.b = {…}`, `M.sub` for the `sub = {…}` field of `M`'s constructor; undefined for
 * a constructor that is not bound to a name (an argument, a return value).
 */
function tableName(table: Node, depth = 0): string | undefined {
  if (depth > 8) return undefined;
  const parent = table.parent;
  if (parent?.type === 'field') {
    const key = parent.childForFieldName('name');
    const outer = parent.parent?.type === 'table_constructor' ? tableName(parent.parent, depth + 1) : undefined;
    return key?.type === 'identifier' && outer !== undefined ? `${outer}.${key.text}` : undefined;
  }
  if (parent?.type !== 'expression_list' || parent.parent?.type !== 'assignment_statement') return undefined;
  const assignment = parent.parent;
  const index = namedChildren(parent).findIndex((v) => v.startIndex === table.startIndex && v.endIndex === table.endIndex);
  const variables = namedChildren(assignment).find((c) => c.type === 'variable_list');
  const target = namedChildren(variables)[index];
  return target?.type === 'identifier' || target?.type === 'dot_index_expression' ? target.text : undefined;
}

/**
 * A function in a table constructor (`{ f = function() end }`): named after its key, a method
 * of the table's name when the constructor is bound to one; the `field` is the range. Bracketed
 * keys (`["f"] = …`) and positional entries are not names.
 */
function fieldFunction(fn: Node): { target: { name: string; parentClass?: string }; field: Node } | undefined {
  const field = fn.parent;
  if (field?.type !== 'field' || field.childForFieldName('value')?.startIndex !== fn.startIndex) return undefined;
  const key = field.childForFieldName('name');
  if (key?.type !== 'identifier') return undefined;
  const table = field.parent?.type === 'table_constructor' ? tableName(field.parent) : undefined;
  return { target: table === undefined ? { name: key.text } : { name: key.text, parentClass: table }, field };
}

/** The name a function node is known by (declared, assigned or a table key), or undefined for anonymous ones. */
function nameOf(node: Node): string | undefined {
  if (node.type === 'function_declaration') return fromTarget(node.childForFieldName('name'))?.name;
  return assignedName(node)?.target?.name ?? fieldFunction(node)?.target.name;
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

/** What the definitions visitor walks the tree for (the reference pass finds them on its walk: see definitionDescendants). */
const DEFINITION_TYPES = ['function_declaration', 'function_definition'];

function visit(root: Node, sink: VisitorSink): void {
  for (const node of definitionDescendants(root, DEFINITION_TYPES).nodes) {
    if (!node) continue;
    if (node.type === 'function_declaration') {
      const target = fromTarget(node.childForFieldName('name'));
      if (target) report(node, target, sink);
      continue;
    }
    const assigned = assignedName(node);
    if (assigned?.target) {
      report(assigned.statement, assigned.target, sink);
      continue;
    }
    const inTable = fieldFunction(node);
    if (inTable) report(inTable.field, inTable.target, sink);
  }
}

/**
 * Lua: `function f()` and `local function f()` are functions; `function T.f()` and
 * `function T:f()` are methods `f` whose class is the table expression as written (`T`, or
 * `a.b.c` for `function a.b.c:f()`). A function bound by assignment (`local f = function() end`,
 * `T.f = function() end`) counts the same, with the whole statement as its range. Functions
 * nested in another named function get it as `parentFunction` (even when the outer one is a
 * method). Functions in table constructors are named after their key: methods of the
 * table's name when the constructor is bound to one (`local M = { f = function() end }` →
 * method `f` of `M`; a nested `sub = { g = … }` → of `M.sub`), plain functions otherwise
 * (`setmetatable(t, { __call = function() end })`), the `key = function … end` field being the
 * range. Tables are not recorded as classes.
 *
 * @example
 * ```ts
 * const registry = new LanguageRegistry([lua]);
 * const db = await CKGDatabase.open({ codebasePath: '/src', fs, languages: registry });
 * await db.queryFunction('greet', 'class_method'); // `function M:greet()`, parent class `M`
 * ```
 * @public
 */
export const lua: LanguageDefinition = implement(LUA, {
  visitor: visit,
  // One walk of the tree for both visitors.
  references: (root, sink) => luaReferences(root, sink, DEFINITION_TYPES),
});
