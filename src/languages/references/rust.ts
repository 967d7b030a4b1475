import type { Node } from 'web-tree-sitter';
import type { ReceiverFact, ReferenceSink } from '../../graph/facts.js';
import { nearestAncestor, typedDescendants, typeSet } from '../common.js';
import { LexicalScopes, type ScopeBinding } from './scopes.js';
import { reportAnnotations, RUST_KEPT, rustAttributesOf } from './annotations.js';

// Rust: calls (plain, `path::f()`, `Type::assoc()`, `Self::new()`, `self.m()`, typed values),
// `use` (paths, `self`/`super`/`crate`, groups, globs, renames, `pub use`), `extern crate`,
// `impl Trait for X` (X implements Trait) and supertraits, functions used as values, flags.
//
// Names are bound per function (closures are functions of their own for binding, transparent
// for callers), flow-insensitively: parameters, `let`, `for`, `if let`/`while let` and match-arm
// patterns. `self` is the receiver. A value's type is known from a declared type (`x: &Foo`,
// `let x: Foo`, `x: impl Trait`, `x: &dyn Trait`, a generic `T` with a single trait bound), a
// struct literal (`Foo { .. }`) or a call (`Foo::new()`: typed only when `new` is declared to
// return `Self`/`Foo`, which the resolver checks through the `returns-self` flag). Macro
// invocations (`println!`, `vec!`) are not calls; their arguments are token trees, not parsed.
// Inline `mod x { … }` blocks are namespaces: resolution counts their items as the file
// module's, so `super::` inside one is the file module (`use super::*` there binds nothing new).

const FUNCTIONS = typeSet('function_item', 'closure_expression');
const TYPE_ITEMS = typeSet('struct_item', 'enum_item', 'union_item', 'trait_item');
const PATTERN_BINDERS = typeSet('let_declaration', 'for_expression', 'let_condition', 'match_arm');
const VALUE_PARENTS = typeSet('arguments', 'field_initializer');
const SEARCHED = [...FUNCTIONS, ...TYPE_ITEMS, ...PATTERN_BINDERS, ...VALUE_PARENTS, 'impl_item', 'mod_item', 'use_declaration', 'extern_crate_declaration', 'call_expression', 'macro_invocation'];
/**
 * Standard macros whose arguments are expressions (after a format string): calls written in
 * them are read from their tokens. Other macros' tokens may be anything (a DSL, patterns, items).
 */
const EXPRESSION_MACROS = new Set(
  (
    'assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne print println eprint eprintln format ' +
    'format_args write writeln panic unreachable unimplemented todo vec dbg'
  ).split(' '),
);
const PATH_TOKENS = typeSet('identifier', 'crate', 'self', 'super');
const OWNER_SCOPES = typeSet('function_item', 'impl_item', 'trait_item');
/** Marker traits without methods: a bound on them says nothing about what `x.m()` calls. */
const MARKER_TRAITS = new Set(['Send', 'Sync', 'Sized', 'Unpin', 'Copy']);

/** A `use` item flattened: the path it names, the name it binds, and whether it is `path::*`. */
interface UseItem {
  readonly node: Node;
  readonly path: readonly string[];
  readonly alias?: string | undefined;
  readonly star: boolean;
  /** `a::b::{self}`: the module `a::b` itself. */
  readonly self: boolean;
}

/** The segments of a path expression or type (`a::b::C`, `crate::x`, `X::<T>::new`, `::ext::f`), or undefined. */
function segments(node: Node | null | undefined): string[] | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'identifier':
    case 'type_identifier':
    case 'crate':
    case 'self':
    case 'super':
      return [node.text];
    case 'scoped_identifier':
    case 'scoped_type_identifier': {
      const name = node.childForFieldName('name');
      if (!name) return undefined;
      const pathNode = node.childForFieldName('path');
      const head = pathNode ? segments(pathNode) : [''];
      return head ? [...head, name.text] : undefined;
    }
    case 'generic_type':
      return segments(node.childForFieldName('type'));
    case 'generic_type_with_turbofish':
      return segments(node.childForFieldName('type'));
    case 'bracketed_type': {
      // `<T as Trait>::f`: the trait's item.
      const q = node.namedChildren[0];
      return q?.type === 'qualified_type' ? segments(q.childForFieldName('alias')) : undefined;
    }
    default:
      return undefined;
  }
}

/** Identifiers a pattern binds (`x`, `(a, b)`, `Some(k)`, `Foo { a, b: c }`, `ref x`, `x @ 1..=3`). */
function patternNames(pattern: Node | null | undefined): Node[] {
  if (!pattern) return [];
  if (pattern.type === 'identifier') return [pattern];
  const out: Node[] = [];
  for (const n of pattern.descendantsOfType(['identifier', 'shorthand_field_identifier'])) {
    if (!n) continue;
    const parent = n.parent;
    // A variant or struct name, a path segment, a field name: not bindings.
    if (parent && (parent.type === 'scoped_identifier' || ((parent.type === 'tuple_struct_pattern' || parent.type === 'struct_pattern') && parent.childForFieldName('type')?.id === n.id))) continue;
    if (parent?.type === 'field_pattern' && parent.childForFieldName('name')?.id === n.id && n.type !== 'shorthand_field_identifier') continue;
    out.push(n);
  }
  return out;
}

/** The paths a `use` tree names, flattened. */
function useItems(node: Node | null | undefined, prefix: readonly string[], out: UseItem[] = []): UseItem[] {
  if (!node) return out;
  switch (node.type) {
    case 'use_as_clause': {
      const path = segments(node.childForFieldName('path'));
      const alias = node.childForFieldName('alias')?.text;
      if (path?.length === 1 && path[0] === 'self') out.push({ node, path: prefix, alias, star: false, self: true });
      else if (path) out.push({ node, path: [...prefix, ...path], alias, star: false, self: false });
      break;
    }
    case 'scoped_use_list': {
      const path = node.childForFieldName('path');
      const head = path ? segments(path) : [''];
      if (head) useItems(node.childForFieldName('list'), [...prefix, ...head], out);
      break;
    }
    case 'use_list':
      for (const c of node.namedChildren) useItems(c, prefix, out);
      break;
    case 'use_wildcard': {
      const path = node.namedChildren[0];
      const head = path ? segments(path) : [];
      if (head) out.push({ node, path: [...prefix, ...head], star: true, self: false });
      break;
    }
    case 'self':
      if (prefix.length > 0) out.push({ node, path: prefix, star: false, self: true });
      break;
    default: {
      const path = segments(node);
      if (path) out.push({ node, path: [...prefix, ...path], star: false, self: false });
    }
  }
  return out;
}

/** `share`: the definitions visitor's walk types (see typedDescendants). */
function visit(root: Node, sink: ReferenceSink, share?: readonly string[]): void {
  // Each node's type read once (a read crosses into wasm), for both loops.
  const { nodes, types } = typedDescendants(root, SEARCHED, share);
  const scopes = new LexicalScopes();
  /** Inline `mod x { … }` spans, and their names. */
  const inlineMods: { start: number; end: number }[] = [];
  const inlineModNames = new Set<string>();
  /** Structs, enums, unions and traits of this file outside functions, by name (null: declared twice). */
  const typeItems = new Map<string, Node | null>();
  /** A function scope → its generic parameters with their one trait bound (null: none usable). */
  const generics = new Map<number, Map<string, string[] | null>>();

  /** A name that, at `at`, can only mean an item or an import (not a local value). */
  const free = (at: number, name: string): boolean => {
    const b = scopes.lookup(at, name)?.binding.kind;
    return b === undefined || b === 'import';
  };

  /** `scope:head` pairs already bound (see {@link bindHead}). */
  const boundHeads = new Set<string>();
  /**
   * A path led by `crate`, `self` or `super` names a module relative to this one: a binding of
   * that keyword (in the scope of `at`, once per function) lets the resolver follow it like an
   * import, ahead of any glob import (keywords are never glob-imported names).
   */
  const bindHead = (path: string[], at: Node): string[] => {
    const head = path[0];
    if (head !== 'crate' && head !== 'self' && !head?.startsWith('super')) return path;
    const scope = scopes.enclosingFunction(at.startIndex, (k) => k === 'function');
    const key = `${scope}:${head}`;
    if (!boundHeads.has(key)) {
      boundHeads.add(key);
      sink.binding(at, { kind: 'module', name: head, module: head });
    }
    return path;
  };

  /** How many inline mods hold `offset`. */
  const modDepth = (offset: number): number => inlineMods.filter((m) => m.start <= offset && offset < m.end).length;

  /**
   * A path as the resolver reads it, relative to the file module: `super` heads inside inline
   * mods climb out of those first (`super::x` in `mod tests` is the file's `x`), and several
   * `super`s join into one head (`super::super`).
   */
  const normalise = (path: readonly string[], at: number): string[] => {
    let supers = 0;
    while (path[supers] === 'super') supers++;
    if (supers === 0) return [...path];
    const remaining = supers - Math.min(supers, modDepth(at));
    const rest = path.slice(supers);
    if (remaining === 0) return ['self', ...rest];
    return [Array.from({ length: remaining }, () => 'super').join('::'), ...rest];
  };

  /**
   * A path into this file's inline mods without their names (`helpers::log` → `log`,
   * `self::tests::t` → `self::t`): their items are the file module's. Only in pass 2, when every
   * inline mod is known; a name bound otherwise in scope is left alone.
   */
  const flatten = (path: readonly string[], at: number): string[] => {
    const out = [...path];
    const i = out[0] === 'self' ? 1 : 0;
    while (out.length > i && inlineModNames.has(out[i]!) && (i === 1 || free(at, out[i]!))) out.splice(i, 1);
    return out;
  };

  /** The generic parameters in force at a function: its own and its impl's or trait's. */
  const boundsOf = (fn: Node): Map<string, string[] | null> => {
    const out = new Map<string, string[] | null>();
    const collect = (item: Node | null | undefined): void => {
      if (!item) return;
      const found = new Map<string, string[][]>();
      const add = (name: string, bounds: Node | null | undefined): void => {
        let list = found.get(name);
        if (!list) found.set(name, (list = []));
        for (const b of bounds?.namedChildren ?? []) {
          if (!b || b.type === 'lifetime' || b.type === 'removed_trait_bound') continue;
          const path = segments(b);
          if (!path) list.push([]); // a bound we cannot name (`Fn(u8)`, `for<'a> …`)
          else if (!MARKER_TRAITS.has(path[path.length - 1]!)) list.push(path);
        }
      };
      for (const p of item.childForFieldName('type_parameters')?.namedChildren ?? []) {
        if (p?.type !== 'type_parameter') continue;
        const name = p.childForFieldName('name')?.text;
        if (name) add(name, p.childForFieldName('bounds'));
      }
      const where = item.namedChildren.find((c) => c?.type === 'where_clause');
      for (const w of where?.namedChildren ?? []) {
        if (w?.type !== 'where_predicate') continue;
        const left = w.childForFieldName('left');
        if (left?.type === 'type_identifier' && found.has(left.text)) add(left.text, w.childForFieldName('bounds'));
      }
      for (const [name, bounds] of found) {
        if (out.has(name)) continue; // the function's own parameter shadows its impl's
        out.set(name, bounds.length === 1 && bounds[0]!.length > 0 ? bounds[0]! : null);
      }
    };
    collect(fn);
    collect(nearestAncestor(fn, typeSet('impl_item', 'trait_item')));
    return out;
  };

  /** The generic parameters visible at an offset (a closure sees its function's). */
  const genericsAt = (at: number): Map<string, string[] | null> | undefined => generics.get(scopes.enclosingFunction(at, (k) => k === 'function'));

  /** The class a type names, as a `.`-joined path (`Foo`, `models.Foo`), `Self`, or undefined. */
  const typeOf = (type: Node | null | undefined, at: number): string | undefined => {
    let t = type;
    for (let depth = 0; t && depth < 6; depth++) {
      switch (t.type) {
        case 'reference_type':
          t = t.childForFieldName('type');
          continue;
        case 'abstract_type':
        case 'dynamic_type':
          t = t.childForFieldName('trait');
          continue;
        case 'generic_type':
          // `Foo<T>` is a Foo; `Box<Foo>` is a Box (its own methods come first), never a Foo.
          t = t.childForFieldName('type');
          continue;
        case 'type_identifier': {
          if (t.text === 'Self') return 'Self';
          const g = genericsAt(at);
          if (g?.has(t.text)) {
            const bound = g.get(t.text);
            return bound ? bindHead(normalise(bound, at), t).join('.') : undefined;
          }
          return t.text;
        }
        case 'scoped_type_identifier': {
          const path = segments(t);
          return path && path[0] !== '' ? bindHead(normalise(path, at), t).join('.') : undefined;
        }
        default:
          return undefined;
      }
    }
    return undefined;
  };

  /** The type a `let` value has when the file shows it: a struct literal, a call of a path. */
  const valueType = (value: Node | null | undefined, at: number): ScopeBinding['type'] => {
    let v = value;
    while (v && (v.type === 'reference_expression' || v.type === 'parenthesized_expression')) v = v.childForFieldName('value') ?? v.namedChildren[0] ?? null;
    if (!v) return undefined;
    if (v.type === 'struct_expression') {
      const name = typeOf(v.childForFieldName('name'), at);
      return name ? { name } : undefined;
    }
    if (v.type === 'call_expression') {
      let fn = v.childForFieldName('function');
      if (fn?.type === 'generic_function') fn = fn.childForFieldName('function');
      const path = segments(fn);
      if (!path || path[0] === '') return undefined;
      if (path[0] === 'Self') {
        // `Self::new()` in `impl Foo`: `Foo::new()`.
        const impl = nearestAncestor(v, typeSet('impl_item', 'trait_item'));
        const self = impl?.type === 'impl_item' ? implTypeName(impl) : undefined;
        if (!self) return undefined;
        return { name: [self, ...path.slice(1)].join('.'), constructed: true };
      }
      return { name: bindHead(normalise(path, at), v).join('.'), constructed: true };
    }
    return undefined;
  };

  const bindParameters = (scope: number, params: Node | null | undefined, at: number): void => {
    for (const p of params?.namedChildren ?? []) {
      if (!p) continue;
      if (p.type === 'self_parameter') {
        scopes.setSelf(scope, 'self');
      } else if (p.type === 'parameter') {
        const pattern = p.childForFieldName('pattern');
        const type = pattern?.type === 'identifier' ? typeOf(p.childForFieldName('type'), at) : undefined;
        for (const name of patternNames(pattern)) scopes.bind(scope, name.text, { kind: 'parameter', ...(type ? { type: { name: type } } : {}) });
      } else {
        // Closure parameters without types: `|a, (b, c)|`.
        for (const name of patternNames(p)) scopes.bind(scope, name.text, { kind: 'parameter' });
      }
    }
  };

  const uses: { node: Node; scope: number }[] = [];

  // Pass 1: scopes, bindings, type items.
  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (FUNCTIONS.has(type)) {
      const outer = genericsAt(node.startIndex);
      const scope = scopes.open(node, 'function');
      if (type === 'function_item') {
        generics.set(scope, boundsOf(node));
        flagFunction(node, sink);
      } else if (outer) {
        generics.set(scope, outer);
      }
      bindParameters(scope, node.childForFieldName('parameters'), node.startIndex);
      continue;
    }
    if (TYPE_ITEMS.has(type)) {
      const name = node.childForFieldName('name')?.text;
      if (name && !nearestAncestor(node, FUNCTIONS)) typeItems.set(name, typeItems.has(name) ? null : node);
      if (publicItem(node)) sink.flag(node, 'exported');
      continue;
    }
    if (type === 'mod_item') {
      const name = node.childForFieldName('name')?.text;
      if (name && node.childForFieldName('body')) {
        sink.namespace(node, name);
        inlineMods.push({ start: node.startIndex, end: node.endIndex });
        inlineModNames.add(name);
      } else if (name) {
        // `mod x;` declares the file module `self::x`: an item of this module, ahead of any glob.
        sink.binding(node, { kind: 'module', name, module: `self::${name}` });
      }
      continue;
    }
    const scope = scopes.enclosingFunction(node.startIndex, (k) => k === 'function');
    switch (type) {
      case 'let_declaration': {
        const pattern = node.childForFieldName('pattern');
        const declared = typeOf(node.childForFieldName('type'), node.startIndex);
        const inferred = declared ? { name: declared } : pattern?.type === 'identifier' ? valueType(node.childForFieldName('value'), node.startIndex) : undefined;
        for (const name of patternNames(pattern)) {
          if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local', ...(inferred && pattern?.type === 'identifier' ? { type: inferred } : {}) });
        }
        break;
      }
      case 'for_expression':
      case 'let_condition':
        for (const name of patternNames(node.childForFieldName('pattern'))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      case 'match_arm':
        // The arm's pattern without its `if` guard.
        for (const name of patternNames(armPattern(node))) if (scope >= 0) scopes.bind(scope, name.text, { kind: 'local' });
        break;
      case 'use_declaration':
        // After pass 1: a path into an inline mod declared further down is flattened too.
        uses.push({ node, scope });
        break;
      case 'extern_crate_declaration': {
        const name = node.childForFieldName('name');
        const alias = node.childForFieldName('alias');
        if (!name || name.text === 'self') break;
        sink.site(name, { kind: 'import', name: name.text });
        sink.binding(alias ?? name, { kind: 'module', name: (alias ?? name).text, module: `::${name.text}` });
        if (scope >= 0) scopes.bind(scope, (alias ?? name).text, { kind: 'import' });
        break;
      }
    }
  }

  for (const u of uses) useDeclaration(u.node, u.scope);

  function useDeclaration(node: Node, scope: number): void {
    const at = node.startIndex;
    const sited = new Set<string>();
    const site = (where: Node, module: readonly string[]): void => {
      const name = module.join('::');
      if (name === '' || name === 'self' || sited.has(name)) return;
      sited.add(name);
      sink.site(where, { kind: 'import', name });
    };
    for (const item of useItems(node.childForFieldName('argument'), [])) {
      let path = normalise(item.path, at);
      if (path[0] !== '' && (item.star || path.length > 1)) {
        // `use helpers::log` of an inline `mod helpers`: `log` of this file's module.
        const module = item.star ? path : path.slice(0, -1);
        const flat = flatten(module, at);
        if (flat.length < module.length) path = [...(flat.length === 0 ? ['self'] : flat), ...(item.star ? [] : [path[path.length - 1]!])];
      }
      if (path.length === 0 || path[0] === '') {
        // `use ::ext::m`: a crate path.
        path.splice(0, 1);
        if (path.length === 0) continue;
        path[0] = `::${path[0]}`;
      }
      if (item.star) {
        // `use super::*` in an inline mod is the file module itself: nothing new.
        if (path.length === 1 && path[0] === 'self') continue;
        site(item.node, path);
        sink.binding(item.node, { kind: 'star', name: '*', module: path.join('::') });
        continue;
      }
      const moduleOnly = item.self || path.length === 1;
      const last = path[path.length - 1]!;
      const name = item.alias ?? (item.self ? last : last);
      if (name === '_' || name === 'self' || name === 'crate' || name === 'super') continue;
      if (moduleOnly) {
        site(item.node, path);
        sink.binding(item.node, { kind: 'module', name, module: path.join('::') });
      } else {
        site(item.node, path.slice(0, -1));
        sink.binding(item.node, { kind: 'member', name, module: path.slice(0, -1).join('::'), member: last });
      }
      if (scope >= 0) scopes.bind(scope, name, { kind: 'import' });
    }
  }

  // Pass 2: sites.
  /** A `.`-joined type as a receiver: `Self` is the enclosing class; a type led by a local is not a type. */
  const typeReceiver = (type: string, at: number, constructed: boolean): ReceiverFact | 'dynamic' => {
    if (type === 'Self') return { kind: 'self' };
    const head = type.split('.')[0]!;
    if (head !== 'self' && head !== 'crate' && !head.startsWith('super') && !free(at, head)) return 'dynamic';
    return { kind: 'type', type, ...(constructed ? { constructed } : {}) };
  };
  const receiverOf = (value: Node, at: number): ReceiverFact | 'dynamic' => {
    let v: Node | null = value;
    while (v?.type === 'parenthesized_expression') v = v.namedChildren[0] ?? null;
    if (!v) return 'dynamic';
    if (v.type === 'self') return free(at, 'self') ? 'dynamic' : { kind: 'self' };
    if (v.type === 'identifier') {
      const found = scopes.lookup(at, v.text);
      if (found === undefined) return { kind: 'path', path: [v.text] };
      if (found.binding.kind === 'self') return { kind: 'self' };
      const t = found.binding.type;
      return t ? typeReceiver(t.name, at, t.constructed === true) : 'dynamic';
    }
    const made = v.type === 'struct_expression' || v.type === 'call_expression' ? valueType(v, at) : undefined;
    if (made) return typeReceiver(made.name, at, made.constructed === true);
    return 'dynamic';
  };

  /** A path call or value (`a::b::f`, `Type::assoc`, `Self::new`): its receiver and name. */
  const pathSite = (kind: 'call' | 'reference', target: Node, path: readonly string[]): void => {
    const at = target.startIndex;
    const nameNode = target.childForFieldName('name') ?? target;
    const name = path[path.length - 1]!;
    let head = path.slice(0, -1);
    if (head[0] === '') return; // `::ext::f()`: an external crate's item, never ours by name
    if (head[0] === 'Self') {
      sink.site(nameNode, { kind, name, receiver: { kind: 'self' } });
      return;
    }
    const g = genericsAt(at);
    if (g?.has(head[0]!)) {
      // `T::default()` with `T: Trait`: the trait's item; without one bound, unknown.
      const bound = g.get(head[0]!);
      if (!bound) {
        if (kind === 'call') sink.site(nameNode, { kind, name, fixed: 'dynamic' });
        return;
      }
      head = [...bound, ...head.slice(1)];
    }
    head = bindHead(flatten(normalise(head, at), at), target);
    // `inner::helper()` of an inline `mod inner`: an item of this file's module as a path
    // (`self::helper`), never a plain name, which means the caller's own mod's item first.
    if (head.length === 0) head = bindHead(['self'], target);
    if (!free(at, head[0]!) && head[0] !== 'self') {
      if (kind === 'call') sink.site(nameNode, { kind, name, fixed: 'dynamic' });
      return;
    }
    sink.site(nameNode, { kind, name, receiver: { kind: 'path', path: head } });
  };

  const use = (kind: 'call' | 'reference', target: Node): void => {
    const at = target.startIndex;
    let t = target;
    if (t.type === 'generic_function') t = t.childForFieldName('function') ?? t;
    if (t.type === 'identifier') {
      const b = scopes.lookup(at, t.text)?.binding.kind;
      if (b === 'parameter' || b === 'local' || b === 'self') {
        if (kind === 'call') sink.site(t, { kind, name: t.text, fixed: b === 'local' ? 'local-variable' : 'parameter' });
        return;
      }
      sink.site(t, { kind, name: t.text });
      return;
    }
    if (t.type === 'scoped_identifier') {
      const path = segments(t);
      if (path && path.length > 1) pathSite(kind, t, path);
      return;
    }
    if (t.type === 'field_expression') {
      const field = t.childForFieldName('field');
      const value = t.childForFieldName('value');
      if (!field || !value || field.type !== 'field_identifier') return;
      const receiver = receiverOf(value, at);
      if (receiver === 'dynamic') {
        if (kind === 'call') sink.site(field, { kind, name: field.text, fixed: 'dynamic' });
        return;
      }
      sink.site(field, { kind, name: field.text, receiver });
      return;
    }
    if (kind === 'call' && t.type === 'parenthesized_expression') {
      // `(self.on_done)()`: a call of a function stored in a field.
      const inner = t.namedChildren[0];
      const field = inner?.type === 'field_expression' ? inner.childForFieldName('field') : undefined;
      if (field) sink.site(field, { kind, name: field.text, fixed: 'dynamic' });
    }
  };

  for (let nodeIndex = 0; nodeIndex < nodes.length; nodeIndex++) {
    const node = nodes[nodeIndex]!;
    const type = types[nodeIndex]!;
    if (type === 'call_expression') {
      const fn = node.childForFieldName('function');
      if (fn) use('call', fn);
    } else if (type === 'impl_item') {
      const traitNode = node.childForFieldName('trait');
      const path = segments(traitNode);
      if (!traitNode || !path || path[0] === '') continue;
      // X implements Trait: a base of X when X is declared in this file (the edge starts at X).
      const self = implTypeName(node);
      const owner = self ? typeItems.get(self) : undefined;
      if (!owner) continue;
      baseSite('implements', traitNode, path, owner);
    } else if (type === 'trait_item') {
      for (const b of node.childForFieldName('bounds')?.namedChildren ?? []) {
        const path = b && b.type !== 'lifetime' && b.type !== 'removed_trait_bound' ? segments(b) : undefined;
        if (b && path && path[0] !== '') baseSite('inherits', b, path);
      }
    } else if (type === 'macro_invocation') {
      const name = node.childForFieldName('macro');
      const tokens = node.namedChildren.find((c) => c?.type === 'token_tree');
      if (name?.type === 'identifier' && EXPRESSION_MACROS.has(name.text) && tokens) macroCalls(tokens);
    } else if (VALUE_PARENTS.has(type)) {
      const values = type === 'field_initializer' ? [node.childForFieldName('value')] : node.namedChildren;
      for (const v of values) if (v && (v.type === 'identifier' || v.type === 'scoped_identifier')) use('reference', v);
    }
  }

  /**
   * Calls in a standard macro's token tree: `f(…)`, `a::b::f(…)`, `x.m(…)` / `self.m(…)`; a
   * method of anything longer (`a.b.m(…)`, `f().m(…)`) is of unknown type. Macros nested in
   * the tokens are read only when they are standard ones too.
   */
  function macroCalls(tree: Node): void {
    const tokens = tree.children.filter((c): c is Node => c !== null);
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      if (t.type !== 'token_tree') continue;
      const prev = tokens[i - 1];
      if (prev?.type === '!') {
        const macro = tokens[i - 2];
        if (macro?.type === 'identifier' && EXPRESSION_MACROS.has(macro.text)) macroCalls(t);
        continue;
      }
      if (prev?.type === 'identifier' && t.children[0]?.type === '(') {
        let j = i - 1;
        const path = [prev.text];
        while (tokens[j - 1]?.type === '::' && PATH_TOKENS.has(tokens[j - 2]?.type ?? '') ) {
          path.unshift(tokens[j - 2]!.text);
          j -= 2;
        }
        const before = tokens[j - 1];
        if (before?.type === '.') {
          const receiver = tokens[j - 2];
          const simple = path.length === 1 && receiver !== undefined && (receiver.type === 'identifier' || receiver.type === 'self') && tokens[j - 3]?.type !== '.' && tokens[j - 3]?.type !== '::';
          const r = simple ? receiverOf(receiver, prev.startIndex) : 'dynamic';
          if (r === 'dynamic') sink.site(prev, { kind: 'call', name: prev.text, fixed: 'dynamic' });
          else sink.site(prev, { kind: 'call', name: prev.text, receiver: r });
        } else if (before?.type !== '::' && before?.type !== '>') {
          if (path.length === 1) use('call', prev);
          else pathSite('call', prev, path);
        }
      }
      macroCalls(t);
    }
  }

  function baseSite(kind: 'inherits' | 'implements', at: Node, path: readonly string[], owner?: Node): void {
    const nameNode = at.type === 'generic_type' ? (at.childForFieldName('type') ?? at) : at;
    const named = nameNode.type === 'scoped_type_identifier' ? (nameNode.childForFieldName('name') ?? nameNode) : nameNode;
    const name = path[path.length - 1]!;
    const head = bindHead(normalise(path.slice(0, -1), at.startIndex), at);
    sink.site(named, { kind, name, ...(head.length > 0 ? { receiver: { kind: 'path', path: head } } : {}) }, owner?.childForFieldName('name') ?? owner);
  }
}

/** A match arm's pattern without its `if` guard. */
function armPattern(arm: Node): Node | undefined {
  const pattern = arm.childForFieldName('pattern');
  const guard = pattern?.childForFieldName('condition');
  const first = pattern?.namedChildren[0] ?? undefined;
  return first && first.id !== guard?.id ? first : undefined;
}

/** The bare name of an `impl`'s type (`impl<T> Stack<T>` → `Stack`, `impl Tr for &E` → `E`), if it has one. */
function implTypeName(impl: Node): string | undefined {
  let t = impl.childForFieldName('type');
  for (let depth = 0; t && depth < 6; depth++) {
    if (t.type === 'type_identifier') return t.text;
    if (t.type === 'generic_type' || t.type === 'reference_type' || t.type === 'pointer_type') t = t.childForFieldName('type');
    else if (t.type === 'scoped_type_identifier') t = t.childForFieldName('name');
    else return undefined;
  }
  return undefined;
}

/** Whether an item is `pub`: `pub(crate)`, `pub(super)` and `pub(in path)` keep it in the crate. */
function publicItem(item: Node): boolean {
  return item.namedChildren.some((c) => c?.type === 'visibility_modifier' && c.text === 'pub');
}

/** Flags of a function: exported (`pub`), entry (`fn main`, `#[no_mangle]`), test (`#[test]`), returns-self. */
function flagFunction(fn: Node, sink: ReferenceSink): void {
  if (publicItem(fn)) sink.flag(fn, 'exported');
  const owner = nearestAncestor(fn, OWNER_SCOPES);
  const attributes = rustAttributesOf(fn);
  if (attributes.some((a) => /^#\[([\w:]+::)?(test|bench)(\(|\]|$)/.test(a.text!))) sink.flag(fn, 'test');
  if (attributes.some((a) => /^#\[(no_mangle|export_name)/.test(a.text!))) sink.flag(fn, 'entry');
  if (!owner && fn.childForFieldName('name')?.text === 'main') sink.flag(fn, 'entry');
  reportAnnotations(fn, sink, RUST_KEPT, attributes);
  if (owner?.type === 'impl_item') {
    const self = implTypeName(owner);
    let ret = fn.childForFieldName('return_type');
    if (ret?.type === 'generic_type') ret = ret.childForFieldName('type');
    if (ret?.type === 'type_identifier' && (ret.text === 'Self' || ret.text === self)) sink.flag(fn, 'returns-self');
  }
}

/**
 * The Rust reference visitor: calls, `use` and `extern crate`, `impl Trait for X` and
 * supertraits, functions used as values, flags.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...rust, references: rustReferences };
 * ```
 */
export const rustReferences = visit;
