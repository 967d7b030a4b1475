import type { Node } from 'web-tree-sitter';

/**
 * What a scope knows of one name. `parameter` and `local` make calls of the name calls of a
 * value (never resolved); `definition` (a nested function or class) and `import` are resolved by
 * the graph; `global` (Python `global`/`nonlocal`) defers to the enclosing or module scope;
 * `self` is a method's receiver parameter. `type` is the class the scope declares for the name
 * (an annotation, or a constructor-looking call assigned to it).
 */
export interface ScopeBinding {
  readonly kind: 'parameter' | 'local' | 'definition' | 'import' | 'global' | 'self';
  /** What the name holds: a class by name (declared, or `constructed` by a call of it), or a value of a builtin type (`literal`: `x = []`). */
  readonly type?: { readonly name: string; readonly constructed?: boolean; readonly literal?: boolean } | undefined;
  /** The class of what the name holds as a container declares its elements (`rows: list[Row]`): what iterating it gives. */
  readonly element?: string | undefined;
}

interface Scope {
  readonly start: number;
  readonly end: number;
  readonly kind: 'function' | 'class' | 'block';
  readonly parent: number;
  readonly names: Map<string, ScopeBinding>;
  /** A part of the node evaluated in the scope around it (a Python comprehension's first iterable), else -1, -1. */
  readonly outsideStart: number;
  readonly outsideEnd: number;
}

/** Whether `scope` holds `offset`: inside its node, not in the part evaluated around it. */
function holds(scope: Scope, offset: number): boolean {
  return scope.start <= offset && offset < scope.end && !(scope.outsideStart <= offset && offset < scope.outsideEnd);
}

/** Whether two bindings say the same of what a name holds. */
function sameType(a: NonNullable<ScopeBinding['type']>, b: NonNullable<ScopeBinding['type']>): boolean {
  return a.name === b.name && a.constructed === b.constructed && a.literal === b.literal;
}

/** How strongly a binding says "this name is a value, not a definition": the stronger wins when a name is bound twice. */
const STRENGTH: Record<ScopeBinding['kind'], number> = { global: 0, definition: 1, import: 2, self: 3, parameter: 4, local: 5 };

/**
 * Lexical scopes of one file (functions, lambdas, classes, blocks), built in document order,
 * then asked which binding a name has at an offset. Languages where a name is local to its
 * whole function (Python) bind everything first and look up after; the lookup is
 * flow-insensitive on purpose: it may say "local" where a use precedes the binding, which only
 * leaves a call unresolved, never wrong.
 */
export class LexicalScopes {
  readonly #scopes: Scope[] = [];
  /** Open scopes while building, innermost last. */
  readonly #open: number[] = [];

  /**
   * Opens a scope for `node` (nodes must come in document order). Returns its id. `outside`: a
   * part of the node evaluated in the scope around it (a Python comprehension's first iterable,
   * `[f(x) for x in ITEMS]`), where lookups and scopes opened there see that scope, not this one.
   */
  open(node: Node, kind: Scope['kind'], outside?: Node | null): number {
    const parent = this.innermostAt(node.startIndex);
    this.#scopes.push({
      start: node.startIndex,
      end: node.endIndex,
      kind,
      parent,
      names: new Map(),
      outsideStart: outside ? outside.startIndex : -1,
      outsideEnd: outside ? outside.endIndex : -1,
    });
    const id = this.#scopes.length - 1;
    this.#open.push(id);
    return id;
  }

  /** The innermost scope holding `offset` among those opened so far (-1: module level). */
  innermostAt(offset: number): number {
    // While building, the open stack is exact for offsets at or after the last opened node.
    while (this.#open.length > 0 && this.#scopes[this.#open[this.#open.length - 1]!]!.end <= offset) this.#open.pop();
    if (this.#open.length > 0 && holds(this.#scopes[this.#open[this.#open.length - 1]!]!, offset)) return this.#open[this.#open.length - 1]!;
    return this.#search(offset);
  }

  kindOf(scope: number): Scope['kind'] {
    return this.#scopes[scope]!.kind;
  }

  /** The scope around `scope` (-1: module level). */
  parentOf(scope: number): number {
    return this.#scopes[scope]!.parent;
  }

  /** The nearest scope holding `offset` whose kind passes `accept` (-1: none). */
  enclosingFunction(offset: number, accept: (kind: Scope['kind']) => boolean): number {
    for (let s = this.innermostAt(offset); s >= 0; s = this.#scopes[s]!.parent) if (accept(this.#scopes[s]!.kind)) return s;
    return -1;
  }

  bind(scope: number, name: string, binding: ScopeBinding): void {
    const names = this.#scopes[scope]!.names;
    const old = names.get(name);
    if (!old) {
      names.set(name, binding);
      return;
    }
    // Python's `global x` / `nonlocal x` next to a binding of x in the same scope (`def x():`,
    // `x = …`): the scope assigns the outer name, which then holds a value the file cannot know.
    if ((old.kind === 'global') !== (binding.kind === 'global')) {
      names.set(name, { kind: 'local' });
      return;
    }
    const kind = STRENGTH[binding.kind] > STRENGTH[old.kind] ? binding.kind : old.kind;
    // A flow-insensitive rule keeps a type only when every binding of the name agrees on it:
    // two different types, or a binding of unknown type (an untyped assignment or parameter, an
    // import, a nested `def` or class, the method's `self`), leave the name untyped.
    const unknown = (b: ScopeBinding): boolean => b.type === undefined;
    let type: ScopeBinding['type'];
    if (old.type && binding.type) type = sameType(old.type, binding.type) ? old.type : undefined;
    else if (old.type) type = unknown(binding) ? undefined : old.type;
    else if (binding.type) type = unknown(old) ? undefined : binding.type;
    // Elements likewise: every binding must declare the same.
    const element = old.element !== undefined && old.element === binding.element ? old.element : undefined;
    names.set(name, type ? { kind, type, ...(element !== undefined ? { element } : {}) } : element !== undefined ? { kind, element } : { kind });
  }

  /** The binding of `name` in `scope` itself (not the scopes around it), if any. */
  own(scope: number, name: string): ScopeBinding | undefined {
    return this.#scopes[scope]!.names.get(name);
  }

  /** Sets what `name` in `scope` holds, whatever was bound before (a visitor's second look, once all bindings are known). */
  replace(scope: number, name: string, binding: ScopeBinding): void {
    this.#scopes[scope]!.names.set(name, binding);
  }

  /** Marks `name` as the scope's receiver (`self`), unless the body rebinds it. */
  setSelf(scope: number, name: string): void {
    this.#scopes[scope]!.names.set(name, { kind: 'self' });
  }

  /**
   * The binding `name` has at `offset`: the innermost scope that binds it, skipping class
   * scopes that are not the innermost one (a class body's names are not visible in its
   * methods). Undefined when no enclosing scope binds it (a module-level or builtin name).
   */
  lookup(offset: number, name: string): { readonly binding: ScopeBinding; readonly scope: number } | undefined {
    return this.#lookupFrom(this.#search(offset), name);
  }

  /**
   * The binding `name` has in the scope around `scope`, as {@link LexicalScopes.lookup} would
   * answer there: where a class's bases are evaluated (Python), which its own body's names do
   * not reach.
   */
  lookupAround(scope: number, name: string): { readonly binding: ScopeBinding; readonly scope: number } | undefined {
    return this.#lookupFrom(this.#scopes[scope]!.parent, name);
  }

  /**
   * Ends the building: lookups after it search every scope (the open stack {@link
   * LexicalScopes.innermostAt} keeps is exact only while nodes come in document order).
   */
  doneBuilding(): void {
    this.#open.length = 0;
  }

  #lookupFrom(innermost: number, name: string): { readonly binding: ScopeBinding; readonly scope: number } | undefined {
    for (let s = innermost; s >= 0; s = this.#scopes[s]!.parent) {
      const scope = this.#scopes[s]!;
      if (scope.kind === 'class' && s !== innermost) continue;
      const binding = scope.names.get(name);
      if (binding === undefined) continue;
      if (binding.kind === 'global') return undefined;
      return { binding, scope: s };
    }
    return undefined;
  }

  /** The innermost scope holding `offset`, by binary search over starts then a walk out. */
  #search(offset: number): number {
    const scopes = this.#scopes;
    let lo = 0;
    let hi = scopes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scopes[mid]!.start <= offset) lo = mid + 1;
      else hi = mid;
    }
    // scopes are in start order; the last one starting at or before offset, then out through parents.
    for (let s = lo - 1; s >= 0; s = scopes[s]!.parent) if (holds(scopes[s]!, offset)) return s;
    return -1;
  }
}
