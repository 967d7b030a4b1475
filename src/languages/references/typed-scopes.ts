import type { Node } from 'web-tree-sitter';

// What the statically typed class languages (Java, Kotlin, Scala, C#) share in their reference
// visitors: the classes of a file with their declared fields, the anonymous class bodies
// (whose base may bring any member), and the type parameters in scope. Everything is found by
// offset, so the visitors can collect it in one pass over `descendantsOfType` and ask in another.

/** A named class (or an anonymous class body) of the file, with the fields it declares. */
export interface ClassSpan {
  readonly start: number;
  readonly end: number;
  /** Null for an anonymous class body (`new Runnable() { … }`, `object : Listener { … }`). */
  readonly name: string | null;
  /** Declared fields: name → the class the declaration names, or null when it names none (`int`, `T[]`, no type). */
  readonly fields: Map<string, string | null>;
  /** Methods declared directly in the body (for anonymous bodies: names a plain call there may mean). */
  readonly methods: Set<string>;
  /**
   * Methods the language declares for the class without a line of it (a Java enum's `valueOf`
   * and the members of `java.lang.Enum`, a record's component accessors); `replaceable`: a
   * declared method of the name is that member (a record's explicit accessor), else another
   * overload beside it.
   */
  implicit?: { readonly names: ReadonlySet<string>; readonly replaceable: boolean };
  /** Whether the class names a base (or is an anonymous body, whose base is its type): it may inherit fields nobody here sees. */
  based?: boolean;
}

/**
 * The classes of one file by range, in document order (open them as the nodes come), and the
 * type parameters in scope; asked by offset.
 */
export class ClassSpans {
  readonly #classes: ClassSpan[] = [];
  readonly #typeParameters: { readonly start: number; readonly end: number; readonly name: string }[] = [];

  /** Adds a class (or an anonymous class body) spanning `node`. */
  add(node: Node, name: string | null): ClassSpan {
    const span: ClassSpan = { start: node.startIndex, end: node.endIndex, name, fields: new Map(), methods: new Set() };
    this.#classes.push(span);
    return span;
  }

  /** The innermost class holding `offset`, named or anonymous. */
  innermost(offset: number): ClassSpan | undefined {
    let best: ClassSpan | undefined;
    for (const c of this.#classes) if (c.start <= offset && offset < c.end && (!best || c.start >= best.start)) best = c;
    return best;
  }

  /** The classes holding `offset`, innermost first. */
  enclosing(offset: number): ClassSpan[] {
    return this.#classes.filter((c) => c.start <= offset && offset < c.end).sort((a, b) => b.start - a.start);
  }

  /** The anonymous class bodies starting inside [start, end). */
  anonymousWithin(start: number, end: number): ClassSpan[] {
    return this.#classes.filter((c) => c.name === null && start <= c.start && c.start < end);
  }

  /** A type parameter `name` declared by a generic class or method spanning `owner`. */
  addTypeParameter(owner: Node, name: string): void {
    this.#typeParameters.push({ start: owner.startIndex, end: owner.endIndex, name });
  }

  /** Whether `name` at `offset` is a type parameter (`T` in `class Box<T>`), not a class. */
  isTypeParameter(offset: number, name: string): boolean {
    return this.#typeParameters.some((t) => t.name === name && t.start <= offset && offset < t.end);
  }
}

/**
 * Whether a member's modifiers say `private` (and nothing wider: C#'s `private protected` is seen
 * by subclasses; Scala's `private[pkg]` by the package): Java and Scala `modifiers`, Kotlin's
 * visibility modifier, C#'s `modifier` nodes, TypeScript's `accessibility_modifier`.
 */
export function declaredPrivate(member: Node): boolean {
  const words = modifierWords(member);
  return /(?:^|\s)private(?:\s|$)/.test(words) && !/(?:^|\s)protected(?:\s|$)/.test(words);
}

/** Whether a declaration's modifiers say `partial` (C#: one of several parts of one class). */
export function declaredPartial(declaration: Node): boolean {
  return /(?:^|\s)partial(?:\s|$)/.test(modifierWords(declaration));
}

/** A declaration's modifiers (`modifiers`, `modifier` or `accessibility_modifier` children), as one space-separated text. */
function modifierWords(declaration: Node): string {
  let words = '';
  for (const child of declaration.namedChildren) {
    const type = child?.type;
    if (type === 'modifiers' || type === 'modifier' || type === 'accessibility_modifier') words += ` ${child!.text}`;
  }
  return words;
}

/** Names every class has from the language's root class (`Object`, `Any`, `object`): a plain call of one in a class means the class's own. */
export const ROOT_MEMBERS = {
  java: new Set(['toString', 'equals', 'hashCode', 'getClass', 'clone', 'finalize', 'notify', 'notifyAll', 'wait']),
  kotlin: new Set(['toString', 'equals', 'hashCode']),
  scala: new Set(['toString', 'equals', 'hashCode', 'getClass', 'clone', 'finalize', 'notify', 'notifyAll', 'wait', 'isInstanceOf', 'asInstanceOf', 'synchronized', 'eq', 'ne']),
  csharp: new Set(['ToString', 'Equals', 'GetHashCode', 'GetType', 'MemberwiseClone', 'ReferenceEquals', 'Finalize']),
} as const;
