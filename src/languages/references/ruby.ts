import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { typedDescendants, typeSet, writtenBase } from '../common.js';

// Ruby: method calls (implicit `self`, `self.m`, `super`, `Const.m`, `Foo.new`, a local assigned
// `Foo.new`), bases (the superclass, `include`/`extend`/`prepend` of modules), `require` and
// `require_relative` as imports.
//
// A bare name is a local variable when the scope assigns it anywhere (flow-insensitively: `x`
// before `x = 1` is taken for the local, which only leaves a call unresolved), else a call of
// `self`'s method. Scopes: `def`, `class`, `module` and the top level start afresh; blocks and
// lambdas see the names around them. `self` is the enclosing class in its methods and body, the
// top-level object outside classes (a plain name: the top level's methods), and unknown inside a
// block given to a method that may run it with another `self` (`instance_eval`, DSLs, `describe`,
// any codebase method): only the standard iterators (`each`, `map`, `times`, `tap`, …) keep it,
// elsewhere calls on `self` stay unresolved. Constants are names the graph looks up lexically
// (the enclosing classes and modules, then the top level); a constant path is written as a
// qualifier (`Shop::Catalog.create` → `create` in `Shop`, `Catalog`; `::Top` keeps its `::`).

const CLASS_SCOPES = typeSet('class', 'module', 'singleton_class');
const METHOD_SCOPES = typeSet('method', 'singleton_method');
const BLOCK_SCOPES = typeSet('block', 'do_block', 'lambda');
/** Parents whose identifier children are all parameters. */
const PARAM_LISTS = typeSet('method_parameters', 'block_parameters', 'lambda_parameters', 'destructured_parameter');
/** Parameters whose `name` is the parameter (a default value is an expression). */
const NAMED_PARAMS = typeSet('optional_parameter', 'keyword_parameter', 'splat_parameter', 'hash_splat_parameter', 'block_parameter');
const TARGET_PARENTS = typeSet('left_assignment_list', 'destructured_left_assignment', 'rest_assignment', 'exception_variable');
const SKIPPED_PARENTS = typeSet('alias', 'undef', 'method', 'singleton_method');
const KEYWORD_TYPES = typeSet('class', 'module', 'super');
const SEARCHED = [...CLASS_SCOPES, ...METHOD_SCOPES, ...BLOCK_SCOPES, 'call', 'identifier', 'super'];
/** Methods that call the method a symbol names (`send(:m)`, ActiveSupport's `try(:m)`). */
const SENDS = new Set(['send', 'public_send', '__send__', 'try', 'try!']);
/** A method's name as a symbol writes it (`:greet`, `:empty?`, `:name=`). */
const METHOD_NAME = /^[A-Za-z_]\w*[?!=]?$/;

/**
 * Methods that call their block with the caller's `self` (Ruby's iterators and a few more):
 * calls on `self` in their blocks are the enclosing method's. Any other method may
 * `instance_eval` its block.
 */
const KEEPS_SELF = new Set(
  (
    'each each_with_index each_with_object each_slice each_cons each_char each_line each_byte each_pair each_key ' +
    'each_value each_entry each_index reverse_each map map! collect collect! flat_map collect_concat select select! ' +
    'filter filter! filter_map reject reject! find detect find_index find_all grep grep_v inject reduce sum count min ' +
    'max min_by max_by minmax sort sort! sort_by sort_by! group_by partition chunk chunk_while slice_when zip all? any? ' +
    'none? one? cycle take_while drop_while uniq tally times upto downto step loop tap then yield_self fetch delete_if ' +
    'keep_if transform_values transform_keys to_h index_by open synchronize catch lazy combination permutation ' +
    'define_method lambda proc new each_char sum_by'
  ).split(' '),
);

/** Kernel methods that load files: their literal argument is an import. */
const REQUIRES = new Set(['require', 'require_relative', 'load']);
const MIXINS = new Set(['include', 'extend', 'prepend']);

interface Scope {
  readonly start: number;
  readonly end: number;
  /** `def`, `class`, `module` and the top level: no names from outside are seen. */
  readonly hard: boolean;
  readonly kind: 'top' | 'class' | 'method' | 'block';
  readonly parent: number;
  /** Local names, with the class a name holds when every assignment says (`x = Foo.new`). */
  readonly names: Map<string, { type?: string | undefined; known: boolean }>;
  /** A block whose method may run it with another `self`. */
  readonly selfUnknown: boolean;
  /** A method's name (for `super`). */
  readonly method?: string;
}

/** A constant or constant path as its parts (`Shop::Catalog` → [Shop, Catalog], `::Top` → [::Top]); undefined for anything else. */
function constantPath(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'constant') return [node.text];
  if (node.type !== 'scope_resolution') return undefined;
  const name = node.childForFieldName('name');
  if (name?.type !== 'constant') return undefined;
  const scope = node.childForFieldName('scope');
  if (!scope) return [`::${name.text}`];
  const head = constantPath(scope);
  return head ? [...head, name.text] : undefined;
}

/** The token a constant path's site is at: its last constant. */
function lastConstant(node: Node): Node {
  return node.type === 'scope_resolution' ? (node.childForFieldName('name') ?? node) : node;
}

/** A class named by a path, as a site's name and qualifier. */
function classSite(path: readonly string[]): { name: string; receiver?: ReceiverFact } {
  const name = path[path.length - 1]!;
  return path.length > 1 ? { name, receiver: { kind: 'path', path: path.slice(0, -1) } } : { name };
}

/** The literal text of a string argument without interpolation, or undefined. */
function literal(node: Node | null | undefined): string | undefined {
  if (node?.type !== 'string') return undefined;
  const parts = node.namedChildren;
  if (parts.length === 0) return '';
  return parts.length === 1 && parts[0]?.type === 'string_content' ? parts[0].text : undefined;
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  // `class`, `module` and `super` are keywords too: their tokens come back as nodes of those types.
  const walk = typedDescendants(root, SEARCHED, share);
  const nodes: Node[] = [];
  const types: string[] = [];
  for (let k = 0; k < walk.nodes.length; k++) {
    const node = walk.nodes[k]!;
    const type = walk.types[k]!;
    if (KEYWORD_TYPES.has(type) && !node.isNamed) continue;
    nodes.push(node);
    types.push(type);
  }
  const scopes: Scope[] = [{ start: 0, end: root.endIndex, hard: true, kind: 'top', parent: -1, names: new Map(), selfUnknown: false }];
  const open: number[] = [0];
  /** The innermost scope holding `offset`, while scopes open in document order (pass 1). */
  const openAt = (offset: number): number => {
    while (open.length > 1 && scopes[open[open.length - 1]!]!.end <= offset) open.pop();
    return open[open.length - 1]!;
  };
  /** The innermost scope holding `offset` (pass 2). */
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
  const bind = (scope: number, name: string, type?: string): void => {
    const names = scopes[scope]!.names;
    const old = names.get(name);
    // Flow-insensitive: a type only when every assignment gives the same one.
    if (!old) names.set(name, { type, known: type !== undefined });
    else if (old.type !== type) names.set(name, { type: undefined, known: false });
  };
  /** The local `name` is at `offset`: through blocks out to the nearest `def`, class or top level. */
  const local = (offset: number, name: string): { type?: string | undefined } | undefined => {
    for (let s = scopeAt(offset); s >= 0; s = scopes[s]!.parent) {
      const found = scopes[s]!.names.get(name);
      if (found) return found;
      if (scopes[s]!.hard) return undefined;
    }
    return undefined;
  };
  /** What `self` is at `offset`: the enclosing class, the top-level object, or unknown (a block that may be run elsewhere). */
  const selfAt = (offset: number): 'class' | 'top' | 'unknown' => {
    for (let s = scopeAt(offset); s >= 0; s = scopes[s]!.parent) {
      const scope = scopes[s]!;
      if (scope.kind === 'block' && scope.selfUnknown) return 'unknown';
      if (scope.kind === 'class') return 'class';
      if (scope.kind === 'top') return 'top';
    }
    return 'top';
  };
  /** The method `super` at `offset` calls the base's version of. */
  const methodAt = (offset: number): string | undefined => {
    for (let s = scopeAt(offset); s >= 0; s = scopes[s]!.parent) {
      const scope = scopes[s]!;
      if (scope.kind === 'method') return scope.method;
      if (scope.hard) return undefined;
    }
    return undefined;
  };
  /** The class a value assigned to a local is an instance of: `Foo.new(…)`. */
  const constructedType = (value: Node | null | undefined): string | undefined => {
    if (value?.type !== 'call') return undefined;
    if (value.childForFieldName('method')?.text !== 'new') return undefined;
    return constantPath(value.childForFieldName('receiver'))?.join('.');
  };

  /** Per identifier (by index in `nodes`): whether it names something the scope binds, and so is no call. */
  const bound = new Uint8Array(nodes.length);

  // Pass 1: scopes and the names they bind.
  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (CLASS_SCOPES.has(type) || METHOD_SCOPES.has(type) || BLOCK_SCOPES.has(type)) {
      const parent = openAt(node.startIndex);
      let selfUnknown = false;
      if (type !== 'lambda' && BLOCK_SCOPES.has(type)) {
        // A lambda's body is a block of the lambda: it keeps `self`.
        const parentNode = node.parent;
        const owner = parentNode?.type === 'call' ? parentNode.childForFieldName('method')?.text : parentNode?.type === 'lambda' ? 'lambda' : undefined;
        selfUnknown = owner === undefined || !KEEPS_SELF.has(owner);
      }
      const kind = CLASS_SCOPES.has(type) ? 'class' : METHOD_SCOPES.has(type) ? 'method' : 'block';
      const method = kind === 'method' ? node.childForFieldName('name')?.text : undefined;
      scopes.push({ start: node.startIndex, end: node.endIndex, hard: kind !== 'block', kind, parent, names: new Map(), selfUnknown, ...(method !== undefined ? { method } : {}) });
      open.push(scopes.length - 1);
      if (kind === 'class' && type !== 'singleton_class') {
        // `class Shop::Catalog`: a definition named in Shop, which no enclosing `module Shop` shows.
        const path = constantPath(node.childForFieldName('name'));
        if (path && path.length > 1) sink.namespace(node, path.slice(0, -1).join('::').replace(/^::/, ''));
      }
      continue;
    }
    if (type !== 'identifier') continue;
    const parent = node.parent;
    const ptype = parent?.type;
    if (!parent || !ptype) continue;
    let binds = false;
    let assignedType: string | undefined;
    if (PARAM_LISTS.has(ptype) || TARGET_PARENTS.has(ptype)) binds = true;
    else if (NAMED_PARAMS.has(ptype)) binds = parent.childForFieldName('name')?.startIndex === node.startIndex;
    else if (ptype === 'assignment' || ptype === 'operator_assignment') {
      if (parent.childForFieldName('left')?.startIndex === node.startIndex) {
        binds = true;
        if (ptype === 'assignment') assignedType = constructedType(parent.childForFieldName('right'));
      }
    } else if (ptype === 'for') binds = parent.childForFieldName('pattern')?.startIndex === node.startIndex;
    if (binds) {
      bind(openAt(node.startIndex), node.text, assignedType);
      bound[i] = 1;
    } else if (SKIPPED_PARENTS.has(ptype) || (ptype === 'call' && parent.childForFieldName('method')?.startIndex === node.startIndex)) {
      bound[i] = 1;
    }
  }

  // Pass 2: sites.
  /** A call of `name` at `at` on the site's `self`. */
  const selfCall = (at: Node, name: string): void => {
    const self = selfAt(at.startIndex);
    if (self === 'unknown') sink.site(at, { kind: 'call', name, fixed: 'dynamic' });
    else if (self === 'class') sink.site(at, { kind: 'call', name, receiver: { kind: 'self' } });
    // The top-level object: its methods are the top level's `def`s (explicit `self.` too, since 2.7).
    else sink.site(at, { kind: 'call', name });
  };
  /**
   * Calls named by a symbol: `o.send(:greet)`, `public_send(:wave)`, `__send__`, `try(:name)`
   * call the method the symbol names on the same receiver; `each(&:hello)` calls it on every
   * value the method yields (of unknown type).
   */
  const symbolCalls = (call: Node, name: string, receiver: Node | null): void => {
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    const first = args[0];
    if (SENDS.has(name) && first?.type === 'simple_symbol' && METHOD_NAME.test(first.text.slice(1))) {
      const target = first.text.slice(1);
      const on = receiver ? receiverOf(receiver) : 'self';
      if (on === 'self') selfCall(first, target);
      else if (on === 'dynamic') sink.site(first, { kind: 'call', name: target, fixed: 'dynamic' });
      else sink.site(first, { kind: 'call', name: target, receiver: on });
    }
    for (const arg of args) {
      const symbol = arg?.type === 'block_argument' ? arg.namedChildren[0] : undefined;
      if (symbol?.type === 'simple_symbol' && METHOD_NAME.test(symbol.text.slice(1))) sink.site(symbol, { kind: 'call', name: symbol.text.slice(1), fixed: 'dynamic' });
    }
  };
  /** What a call is made on. */
  const receiverOf = (receiver: Node): ReceiverFact | 'self' | 'dynamic' => {
    switch (receiver.type) {
      case 'self':
        return 'self';
      case 'constant':
      case 'scope_resolution': {
        const path = constantPath(receiver);
        return path ? { kind: 'path', path } : 'dynamic';
      }
      case 'identifier': {
        const found = local(receiver.startIndex, receiver.text);
        return found?.type !== undefined ? { kind: 'type', type: found.type, constructed: true } : 'dynamic';
      }
      case 'call': {
        const t = constructedType(receiver);
        return t !== undefined ? { kind: 'type', type: t, constructed: true } : 'dynamic';
      }
      default:
        return 'dynamic';
    }
  };
  /** The `include`/`extend`/`prepend` calls of each class or module body, by its start offset, each with its modules. */
  const mixins = new Map<number, { at: Node; path: string[] | undefined }[][]>();

  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (type === 'identifier') {
      if (bound[i] === 1 || local(node.startIndex, node.text)) continue;
      // A bare name nothing assigns: a call of self's method (`helper`, `items.each`).
      selfCall(node, node.text);
      continue;
    }
    if (type === 'super') {
      // Bare `super` (`super(x)` is a call whose method is `super`, seen below).
      if (node.parent?.type === 'call' && node.parent.childForFieldName('method')?.startIndex === node.startIndex) continue;
      const method = methodAt(node.startIndex);
      if (method !== undefined && selfAt(node.startIndex) === 'class') sink.site(node, { kind: 'call', name: method, receiver: { kind: 'super' } });
      continue;
    }
    if (type !== 'call') continue;
    const method = node.childForFieldName('method');
    if (!method) continue;
    const receiver = node.childForFieldName('receiver');
    if (method.type === 'super') {
      const name = methodAt(node.startIndex);
      if (name !== undefined && selfAt(node.startIndex) === 'class') sink.site(method, { kind: 'call', name, receiver: { kind: 'super' } });
      continue;
    }
    if (method.type !== 'identifier' && method.type !== 'constant') continue;
    const name = method.text;
    symbolCalls(node, name, receiver);
    if (!receiver) {
      if (method.type === 'constant') {
        // `Integer("3")`, `URI(s)`: a method named like a constant (Kernel's, mostly), never the constant.
        const self = selfAt(node.startIndex);
        sink.site(method, { kind: 'call', name, ...(self === 'unknown' ? { fixed: 'dynamic' as const } : { receiver: { kind: 'self' as const } }) });
        continue;
      }
      const args = node.childForFieldName('arguments');
      const first = args?.namedChildren[0];
      if (REQUIRES.has(name)) {
        const path = literal(first);
        if (path !== undefined && path !== '' && first) {
          // An import, not a call of interest.
          const relative = name === 'require_relative' && !path.startsWith('.') ? `./${path}` : path;
          sink.site(first, { kind: 'import', name: relative });
          continue;
        }
      }
      if (MIXINS.has(name)) {
        // `include M` in a class or module body: M's methods are the class's (or, extended, its own).
        // A module computed there (`include make_mixin(x)`) is mixed in all the same: a base
        // that may define any method, before the ones included earlier and the superclass.
        const scope = scopes[scopeAt(node.startIndex)]!;
        const paths = (args?.namedChildren ?? []).filter((a): a is Node => a !== null && a.type !== 'comment').map((a) => ({ at: a, path: constantPath(a) }));
        if (scope.kind === 'class' && paths.length > 0) {
          let list = mixins.get(scope.start);
          if (!list) mixins.set(scope.start, (list = []));
          list.push(paths.map((p) => ({ at: p.path ? lastConstant(p.at) : p.at, path: p.path })));
          if (paths.some((p) => p.path === undefined)) selfCall(method, name);
          continue;
        }
      }
      if (name === 'method' && first?.type === 'simple_symbol') {
        // `method(:helper)`: the method as a value.
        const self = selfAt(node.startIndex);
        const target = first.text.slice(1);
        if (self === 'class') sink.site(first, { kind: 'reference', name: target, receiver: { kind: 'self' } });
        else if (self === 'top') sink.site(first, { kind: 'reference', name: target });
      }
      selfCall(method, name);
      continue;
    }
    const on = receiverOf(receiver);
    if (on === 'self') selfCall(method, name);
    else if (on === 'dynamic') sink.site(method, { kind: 'call', name, fixed: 'dynamic' });
    else if (on.kind === 'path' && name === 'new') {
      // `Foo.new(…)`: Foo's `initialize`, else the class.
      sink.site(lastConstant(receiver), { kind: 'call', ...classSite(on.path), construct: true });
    } else sink.site(method, { kind: 'call', name, receiver: on });
  }

  // Bases, in lookup order: the modules mixed in (the last one first), then the superclass.
  for (const [i, node] of nodes.entries()) {
    const type = types[i]!;
    if (type !== 'class' && type !== 'module') continue;
    // `include A; include B` looks in B first; `include A, B` in A first.
    for (const call of [...(mixins.get(node.startIndex) ?? [])].reverse()) {
      for (const m of call) sink.site(m.at, m.path ? { kind: 'implements', ...classSite(m.path) } : { kind: 'implements', name: writtenBase(m.at), fixed: 'dynamic' });
    }
    const superclass = node.childForFieldName('superclass')?.namedChildren[0];
    const path = constantPath(superclass);
    if (superclass && path) sink.site(lastConstant(superclass), { kind: 'inherits', ...classSite(path) });
    else if (superclass) sink.site(superclass, { kind: 'inherits', name: writtenBase(superclass), fixed: 'dynamic' });
  }
}

/**
 * The Ruby reference visitor: calls on `self` (implicit and explicit), `super`, constants and
 * constant paths (`Foo.m`, `Foo.new`, `Shop::Catalog.create`), locals assigned `Foo.new`, bases
 * (superclass, `include`/`extend`/`prepend`), `require`/`require_relative`/`load` of literals.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...ruby, references: rubyReferences };
 * ```
 */
export const rubyReferences = visit;
