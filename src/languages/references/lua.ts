import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink, SiteFact } from '../../graph/facts.js';
import { typedDescendants, typeSet } from '../common.js';

// Lua: calls of functions (local, global, of a table: `M.f()`, `M:f()`), `self:m()` in a method
// `function T:m()`, `require` of literal module names, and the table a module returns.
//
// Lua's scopes are blocks, and a local is seen only after its declaration: `local function f`
// from its own start (so it may recurse), `local f = function() … end` only after the statement
// (inside, `f` is a global). A call of a local that holds a value (a parameter, a required module
// called whole, a loop variable) stays unresolved; a name no local binds is a global, looked up in
// every file's global functions. Tables are no definitions: `function M.f()` is the method `f`
// of `M`, found by its qualified name (the graph's `qualifiedNames` rule): `M.f()` in the file,
// `m.f()` through `local m = require("a.b")` in the table a/b.lua returns (`return M`, reported
// as an export binding), `G.f()` in a file where G is a global table. `self:m()` in
// `function T:f()` is written with the qualifier `self, T`, unless the file stores a field `m` on
// T's instances (`self.m = cb`, or on a local made with `setmetatable({}, T)`), which hides the
// method: then it is a call of a value. Flags for that lookup: `static` on
// local functions and on methods of local tables (no other file sees them), `exported` on what
// the module returns.

const FUNCTIONS = typeSet('function_declaration', 'function_definition');
const SCOPE_TYPES = typeSet('function_declaration', 'function_definition', 'block', 'for_statement');
const SEARCHED = [...SCOPE_TYPES, 'parameters', 'variable_declaration', 'assignment_statement', 'for_generic_clause', 'for_numeric_clause', 'function_call', 'return_statement'];

type Kind = 'function' | 'require' | 'table' | 'value' | 'parameter' | 'self';

interface Local {
  readonly kind: Kind;
  /** Where the name comes into scope. */
  readonly at: number;
}

interface Scope {
  readonly start: number;
  readonly end: number;
  readonly parent: number;
  readonly names: Map<string, Local[]>;
}

/** The names of a chain of field accesses on a name (`a.b.c` → [a, b, c]), or undefined. */
function dotted(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return [node.text];
  if (node.type !== 'dot_index_expression') return undefined;
  const table = dotted(node.childForFieldName('table'));
  const field = node.childForFieldName('field');
  return table && field?.type === 'identifier' ? [...table, field.text] : undefined;
}

/** A `require` of a literal module name: the string node and the name. */
function required(value: Node | null | undefined): { at: Node; name: string } | undefined {
  if (value?.type !== 'function_call') return undefined;
  if (value.childForFieldName('name')?.text !== 'require') return undefined;
  const arg = value.childForFieldName('arguments')?.namedChildren[0];
  if (arg?.type !== 'string') return undefined;
  const content = arg.childForFieldName('content') ?? arg.namedChildren.find((c) => c?.type === 'string_content');
  return content && content.text !== '' ? { at: arg, name: content.text } : undefined;
}

/** `setmetatable(…, T)`: the table path T of the instance it makes, else undefined. */
function instanceTableOf(value: Node | null | undefined): string | undefined {
  if (value?.type !== 'function_call' || value.childForFieldName('name')?.text !== 'setmetatable') return undefined;
  const args = value.childForFieldName('arguments')?.namedChildren ?? [];
  return args.length === 2 ? dotted(args[1])?.join('.') : undefined;
}

/** What a local's value says about it. */
function kindOfValue(value: Node | null | undefined): Kind {
  if (!value) return 'value';
  if (value.type === 'function_definition') return 'function';
  if (value.type === 'table_constructor') return 'table';
  if (value.type === 'function_call') {
    if (required(value)) return 'require';
    if (value.childForFieldName('name')?.text === 'setmetatable' && value.childForFieldName('arguments')?.namedChildren[0]?.type === 'table_constructor') return 'table';
  }
  return 'value';
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes: Scope[] = [{ start: 0, end: root.endIndex, parent: -1, names: new Map() }];
  const open: number[] = [0];
  const openAt = (offset: number): number => {
    while (open.length > 1 && scopes[open[open.length - 1]!]!.end <= offset) open.pop();
    return open[open.length - 1]!;
  };
  const scopeAt = (offset: number): number => {
    let lo = 0;
    let hi = scopes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scopes[mid]!.start <= offset) lo = mid + 1;
      else hi = mid;
    }
    for (let s = lo - 1; s >= 0; s = scopes[s]!.parent) if (offset < scopes[s]!.end) return s;
    return 0;
  };
  const declare = (scope: number, name: string, local: Local): void => {
    const names = scopes[scope]!.names;
    let list = names.get(name);
    if (!list) names.set(name, (list = []));
    list.push(local);
  };
  /** The local `name` is at `offset` (the innermost, latest declared before it), or undefined for a global. */
  const lookup = (offset: number, name: string): Local | undefined => {
    for (let s = scopeAt(offset); s >= 0; s = scopes[s]!.parent) {
      const list = scopes[s]!.names.get(name);
      if (!list) continue;
      let best: Local | undefined;
      for (const l of list) if (l.at <= offset && (!best || l.at >= best.at)) best = l;
      if (best) return best;
    }
    return undefined;
  };
  /** Names the file declares local at its top level anywhere (a call of one before its declaration means a global). */
  const fileLocals = new Set<string>();
  /** Methods `function T:m()`: their range and table, for `self`. */
  const colonMethods: { start: number; end: number; table: string[] }[] = [];
  /** The innermost `function T:m()` holding `offset`: its table. */
  const tableOfSelf = (offset: number): string[] | undefined => {
    let best: { start: number; end: number; table: string[] } | undefined;
    for (const m of colonMethods) if (m.start <= offset && offset < m.end && (!best || m.start >= best.start)) best = m;
    return best?.table;
  };
  /** Locals made instances of a table (`local self = setmetatable({}, T)`), by where they are declared: the table's path. */
  const instancesOf = new Map<number, string>();
  /**
   * Fields stored on a table's instances (`self.handler = cb` in `function T:m()`, or on a local
   * made with `setmetatable(…, T)`), by the table's path: such a field hides a method of the
   * name, so `self:handler()` is no sure call of `T:handler`.
   */
  const storedOnInstances = new Map<string, Set<string>>();
  /** The table `head` is an instance of at `offset`, if the file shows it. */
  const instanceTable = (head: string, offset: number): string | undefined => {
    const local = lookup(offset, head);
    if (local?.kind === 'self') return tableOfSelf(offset)?.join('.');
    return local === undefined ? undefined : instancesOf.get(local.at);
  };
  /** Functions stored in a table (`function M.f()`, `M.f = function`, `M = { f = function }`): the node to flag and the table's head name. */
  const tableFunctions: { readonly node: Node; readonly head: string }[] = [];
  /** Records a function stored in the table whose head is `head`; a table the file keeps local makes it invisible to other files. */
  const tableFunction = (node: Node, head: string, at: number): void => {
    tableFunctions.push({ node, head });
    if (lookup(at, head) !== undefined) sink.flag(node, 'static');
  };
  /** The functions of a table constructor bound to `head`, nested tables included. */
  const constructorFunctions = (table: Node, head: string, at: number, depth = 0): void => {
    if (depth > 8) return;
    for (const field of table.namedChildren) {
      const value = field?.type === 'field' ? field.childForFieldName('value') : undefined;
      if (field?.childForFieldName('name')?.type !== 'identifier' || !value) continue;
      if (value.type === 'function_definition') tableFunction(value, head, at);
      else if (value.type === 'table_constructor') constructorFunctions(value, head, at, depth + 1);
    }
  };

  // Pass 1: scopes and locals.
  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (SCOPE_TYPES.has(type)) {
      const enclosing = openAt(node.startIndex);
      if (type === 'function_declaration') {
        const nameNode = node.childForFieldName('name');
        const isLocal = node.child(0)?.type === 'local';
        if (nameNode?.type === 'identifier') {
          if (isLocal) {
            declare(enclosing, nameNode.text, { kind: 'function', at: node.startIndex });
            if (enclosing === 0) fileLocals.add(nameNode.text);
            sink.flag(node, 'static');
          } else {
            // `function f()` assigns a local f declared before (`local f` … `function f()`), else the global.
            const before = lookup(node.startIndex, nameNode.text);
            if (before) {
              declare(enclosing, nameNode.text, { kind: before.kind === 'value' ? 'function' : before.kind, at: before.at });
              sink.flag(node, 'static');
            }
          }
        } else if (nameNode?.type === 'method_index_expression') {
          const table = dotted(nameNode.childForFieldName('table'));
          if (table) colonMethods.push({ start: node.startIndex, end: node.endIndex, table });
        }
        const table = nameNode?.type === 'dot_index_expression' || nameNode?.type === 'method_index_expression' ? dotted(nameNode.childForFieldName('table')) : undefined;
        if (table) tableFunction(node, table[0]!, node.startIndex);
      }
      scopes.push({ start: node.startIndex, end: node.endIndex, parent: enclosing, names: new Map() });
      open.push(scopes.length - 1);
      if (type === 'function_declaration' && node.childForFieldName('name')?.type === 'method_index_expression') {
        declare(scopes.length - 1, 'self', { kind: 'self', at: node.startIndex });
      }
      continue;
    }
    switch (type) {
      case 'parameters': {
        const scope = openAt(node.startIndex);
        for (const p of node.namedChildren) if (p?.type === 'identifier') declare(scope, p.text, { kind: 'parameter', at: node.startIndex });
        break;
      }
      case 'for_generic_clause':
      case 'for_numeric_clause': {
        const scope = openAt(node.startIndex);
        const names = type === 'for_numeric_clause' ? [node.childForFieldName('name')] : (node.namedChildren.find((c) => c?.type === 'variable_list')?.namedChildren ?? []);
        for (const n of names) if (n?.type === 'identifier') declare(scope, n.text, { kind: 'value', at: node.startIndex });
        break;
      }
      case 'variable_declaration': {
        const scope = openAt(node.startIndex);
        const assignment = node.namedChildren.find((c) => c?.type === 'assignment_statement');
        const list = (assignment ?? node).namedChildren.find((c) => c?.type === 'variable_list');
        const values = assignment?.namedChildren.find((c) => c?.type === 'expression_list')?.namedChildren ?? [];
        const names = list?.childrenForFieldName('name') ?? [];
        names.forEach((n, k) => {
          if (n?.type !== 'identifier') return;
          const value = values[k];
          const kind = kindOfValue(value);
          // In scope after the statement: `local f = function() f() end` calls a global f.
          declare(scope, n.text, { kind, at: node.endIndex });
          if (scope === 0) fileLocals.add(n.text);
          if (kind === 'function' && value) sink.flag(value, 'static');
          const table = instanceTableOf(value);
          if (table !== undefined) instancesOf.set(node.endIndex, table);
          if (value?.type === 'table_constructor') constructorFunctions(value, n.text, node.endIndex);
          const req = required(value);
          if (req) sink.binding(n, { kind: 'module', name: n.text, module: req.name });
        });
        break;
      }
      case 'assignment_statement': {
        if (node.parent?.type === 'variable_declaration') break;
        // `M.f = function() … end`, `M = { f = function() … end }`, `m = require("x")`.
        const targets = node.namedChildren.find((c) => c?.type === 'variable_list')?.childrenForFieldName('name') ?? [];
        const values = node.namedChildren.find((c) => c?.type === 'expression_list')?.namedChildren ?? [];
        targets.forEach((t, k) => {
          const value = values[k];
          if (!t || !value) return;
          const path = dotted(t);
          if (!path) return;
          const instanceOf = path.length === 2 ? instanceTable(path[0]!, node.startIndex) : undefined;
          if (instanceOf !== undefined) {
            let fields = storedOnInstances.get(instanceOf);
            if (!fields) storedOnInstances.set(instanceOf, (fields = new Set()));
            fields.add(path[1]!);
          }
          if (value.type === 'function_definition' && path.length > 1) tableFunction(value, path[0]!, node.startIndex);
          else if (value.type === 'table_constructor') constructorFunctions(value, path[0]!, node.startIndex);
          else if (path.length === 1 && lookup(node.startIndex, path[0]!) === undefined) {
            const req = required(value);
            if (req) sink.binding(t, { kind: 'module', name: path[0]!, module: req.name });
          }
        });
        break;
      }
    }
  }

  // Pass 2: sites.
  /** A qualifier's head as a receiver: `self` in a method, a table, a module, a global. */
  const qualifier = (path: string[], offset: number): string[] | 'dynamic' => {
    const head = path[0]!;
    const local = lookup(offset, head);
    if (local?.kind === 'self') {
      const table = tableOfSelf(offset);
      return table ? ['self', ...table, ...path.slice(1)] : 'dynamic';
    }
    if (local === undefined || local.kind === 'table' || local.kind === 'require') return path;
    return 'dynamic';
  };
  const site = (kind: 'call' | 'reference', at: Node, fact: Omit<SiteFact, 'line' | 'caller' | 'kind'>): void => sink.site(at, { kind, ...fact });
  /** A use of the function a callee or argument expression names. */
  const use = (kind: 'call' | 'reference', expr: Node): void => {
    const offset = expr.startIndex;
    if (expr.type === 'identifier') {
      const name = expr.text;
      const local = lookup(offset, name);
      if (local === undefined) {
        // A global. A file-level local of that name declared later (or in a block) must not be taken for it.
        if (fileLocals.has(name)) site(kind, expr, { name, receiver: { kind: 'path', path: ['_G'] } });
        else site(kind, expr, { name });
      } else if (local.kind === 'function') site(kind, expr, { name });
      else if (kind === 'call') site(kind, expr, { name, fixed: local.kind === 'parameter' || local.kind === 'self' ? 'parameter' : 'local-variable' });
      return;
    }
    if (expr.type === 'dot_index_expression' || expr.type === 'method_index_expression') {
      const isMethod = expr.type === 'method_index_expression';
      const nameNode = expr.childForFieldName(isMethod ? 'method' : 'field');
      const path = dotted(expr.childForFieldName('table'));
      if (nameNode?.type !== 'identifier') return;
      const head = path ? qualifier(path, offset) : 'dynamic';
      if (head === 'dynamic') {
        if (kind === 'call') site(kind, nameNode, { name: nameNode.text, fixed: 'dynamic' });
        return;
      }
      // A field the file stores on the table's instances hides its method of the name.
      if (path!.length === 1 && head[0] === 'self' && storedOnInstances.get(head.slice(1).join('.'))?.has(nameNode.text) === true) {
        if (kind === 'call') site(kind, nameNode, { name: nameNode.text, fixed: 'dynamic' });
        return;
      }
      const receiver: ReceiverFact = { kind: 'path', path: head };
      site(kind, nameNode, { name: nameNode.text, receiver });
    }
  };

  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (type === 'function_call') {
      const callee = node.childForFieldName('name');
      if (!callee) continue;
      const req = required(node);
      if (req) {
        sink.site(req.at, { kind: 'import', name: req.name });
        continue;
      }
      use('call', callee);
      // Functions passed as values (`pcall(M.run, x)`, `table.sort(t, compare)`).
      for (const arg of node.childForFieldName('arguments')?.namedChildren ?? []) {
        if (arg && (arg.type === 'identifier' || arg.type === 'dot_index_expression')) use('reference', arg);
      }
      continue;
    }
    if (type === 'return_statement' && node.parent?.type === 'chunk') {
      // What the module gives to `require`.
      let value = node.namedChildren.find((c) => c?.type === 'expression_list')?.namedChildren[0] ?? node.namedChildren[0];
      if (value?.type === 'function_call' && value.childForFieldName('name')?.text === 'setmetatable') value = value.childForFieldName('arguments')?.namedChildren[0] ?? undefined;
      if (value?.type === 'identifier') {
        sink.binding(value, { kind: 'export', name: '<return>', member: value.text });
        // The returned table's functions are what other files call through `require`.
        for (const f of tableFunctions) if (f.head === value.text) sink.flag(f.node, 'exported');
      } else if (value?.type === 'table_constructor') {
        for (const field of value.namedChildren) {
          const key = field?.childForFieldName('name');
          const v = field?.childForFieldName('value');
          if (key?.type !== 'identifier' || !v) continue;
          if (v.type === 'identifier') sink.binding(v, { kind: 'export', name: key.text, member: v.text });
          else if (FUNCTIONS.has(v.type)) sink.flag(v, 'exported');
        }
      }
    }
  }
}

/**
 * The Lua reference visitor: calls of local and global functions, of table functions
 * (`M.f()`, `M:f()`, `self:m()` in methods), `require` of literal names (with the local it binds)
 * and what a module returns.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...lua, references: luaReferences };
 * ```
 */
export const luaReferences = visit;
