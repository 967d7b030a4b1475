import type { Node } from 'web-tree-sitter';
import type { ReferenceSink } from '../../graph/facts.js';

// Annotations (Java, Kotlin, Scala) and attributes (C#, PHP, Rust) that code reading them may
// act on: a framework calls an `@GetMapping` handler, a test runner a `@Test` method, the
// dependency injector a `@Bean` factory, all by reflection, where no edge shows a call. Such a
// definition is reported `decorated` (dead code leaves it out) with a `decorator` binding per
// annotation (its callers answers list them and are a lower bound). Annotations for the compiler
// and for tools (`@Override`, `@Deprecated`, nullness, inlining hints) change nothing of how the
// definition is called: each language lists those it knows, and they are not reported.

/** An annotation or attribute written on a declaration, with its name as written (without arguments). */
export interface WrittenAnnotation {
  readonly node: Node;
  readonly name: string;
  /** Rust: the whole attribute without spaces (`#[tokio::test]`). */
  readonly text?: string;
}

/** The name node of an annotation: its `name` field (Java, C#, Scala), else Kotlin's user type, else the first named child (PHP). */
function annotationName(annotation: Node): string | undefined {
  const named = annotation.childForFieldName('name');
  if (named) return named.text.replace(/^\\/, '');
  for (const child of annotation.namedChildren) {
    const type = child?.type;
    if (type === 'user_type') return child!.text;
    if (type === 'constructor_invocation') return child!.namedChildren.find((c) => c?.type === 'user_type')?.text;
  }
  const first = annotation.namedChildren[0];
  return first && (first.type === 'name' || first.type === 'qualified_name') ? first.text.replace(/^\\/, '') : undefined;
}

/**
 * The annotations and attributes written in a declaration's own syntax: Java's and Kotlin's in
 * its `modifiers`, C#'s and PHP's attribute lists, Scala's annotations.
 */
function annotationsOf(declaration: Node): WrittenAnnotation[] {
  const out: WrittenAnnotation[] = [];
  const add = (node: Node): void => {
    const name = annotationName(node);
    if (name) out.push({ node, name: name.replace(/\s+/g, '') });
  };
  for (const child of declaration.namedChildren) {
    const type = child?.type;
    if (type === 'modifiers') {
      for (const m of child!.namedChildren) if (m?.type === 'annotation' || m?.type === 'marker_annotation') add(m);
    } else if (type === 'attribute_list') {
      for (const a of child!.namedChildren) {
        if (a?.type === 'attribute') add(a);
        else if (a?.type === 'attribute_group') for (const g of a.namedChildren) if (g?.type === 'attribute') add(g);
      }
    } else if (type === 'annotation') add(child!);
  }
  return out;
}

/**
 * Rust's outer attributes of an item (`#[tokio::main]`, `#[get("/")]`): the `attribute_item`s
 * before it, nearest first, comments between them skipped; `name` is the attribute's path.
 */
export function rustAttributesOf(item: Node): WrittenAnnotation[] {
  const out: WrittenAnnotation[] = [];
  for (let p = item.previousNamedSibling; p && (p.type === 'attribute_item' || p.type === 'line_comment' || p.type === 'block_comment'); p = p.previousNamedSibling) {
    if (p.type !== 'attribute_item') continue;
    const path = p.namedChildren[0]?.namedChildren[0];
    const name = path && (path.type === 'identifier' || path.type === 'scoped_identifier') ? path.text.replace(/\s+/g, '') : '';
    out.push({ node: p, name, text: p.text.replace(/\s+/g, '') });
  }
  return out;
}

/** Whether an annotation is one of `kept`: by its name as written, or its last part (`java.lang.Override`); C# may add `Attribute`. */
function keeps(kept: ReadonlySet<string>, name: string): boolean {
  if (kept.has(name)) return true;
  const last = name.slice(name.lastIndexOf('.') + 1);
  return kept.has(last) || (last.endsWith('Attribute') && kept.has(last.slice(0, -'Attribute'.length))) || kept.has(name.replace(/::.*$/, '::*'));
}

/**
 * Reports a declaration's annotations (attributes) other than `kept`: the definition is
 * `decorated`, and each is a `decorator` binding of it at its own line. `written`: those read
 * already (Rust's, which stand before the item: {@link rustAttributesOf}).
 */
export function reportAnnotations(declaration: Node, sink: ReferenceSink, kept: ReadonlySet<string>, written: readonly WrittenAnnotation[] = annotationsOf(declaration)): void {
  for (const a of written) {
    if (a.name === '' || keeps(kept, a.name)) continue;
    sink.flag(declaration, 'decorated');
    sink.binding(a.node, { kind: 'decorator', name: a.name }, declaration);
  }
}

/** Annotations of the compiler and of tools, per language: they leave how a definition is called as it is. */
const COMMON_KEPT = ['Deprecated', 'Nullable', 'NonNull', 'Nonnull', 'NotNull', 'CheckForNull', 'CheckReturnValue', 'CanIgnoreReturnValue', 'VisibleForTesting', 'Contract', 'Pure', 'Generated'];

/** Java: `java.lang` and the meta-annotations, nullness and concurrency documentation, the JDK's own compiler hints. */
export const JAVA_KEPT: ReadonlySet<string> = new Set([
  ...COMMON_KEPT,
  ...['Override', 'SuppressWarnings', 'SafeVarargs', 'FunctionalInterface', 'Serial', 'Native', 'Documented', 'Retention', 'Target', 'Inherited', 'Repeatable'],
  ...['ParametersAreNonnullByDefault', 'GuardedBy', 'ThreadSafe', 'NotThreadSafe', 'Immutable', 'Beta', 'MustBeInvokedByOverriders', 'OverridingMethodsMustInvokeSuper', 'UnmodifiableView', 'Unmodifiable'],
  ...['ForceInline', 'DontInline', 'IntrinsicCandidate', 'HotSpotIntrinsicCandidate', 'Stable', 'ReservedStackAccess', 'CallerSensitive', 'Hidden', 'PreviewFeature', 'ValueBased'],
]);

/** Kotlin: the JVM interop and compiler annotations. */
export const KOTLIN_KEPT: ReadonlySet<string> = new Set([
  ...COMMON_KEPT,
  ...['JvmStatic', 'JvmOverloads', 'JvmName', 'JvmField', 'JvmSynthetic', 'JvmDefault', 'JvmInline', 'Throws', 'Suppress', 'OptIn', 'RequiresOptIn', 'Synchronized', 'Volatile', 'Transient', 'PublishedApi', 'DslMarker'],
  ...['Target', 'Retention', 'MustBeDocumented', 'Repeatable', 'CallSuper', 'MainThread', 'UiThread', 'WorkerThread', 'AnyThread'],
]);

/** Scala: the compiler's annotations. */
export const SCALA_KEPT: ReadonlySet<string> = new Set([
  ...['deprecated', 'inline', 'noinline', 'tailrec', 'throws', 'transient', 'volatile', 'native', 'specialized', 'unchecked', 'nowarn', 'implicitNotFound', 'implicitAmbiguous'],
  ...['varargs', 'switch', 'unused', 'uncheckedVariance', 'elidable', 'experimental', 'targetName', 'static', 'publicInBinary', 'Override', 'Deprecated'],
]);

/** C#: the compiler's, the debugger's and the nullness attributes (with or without `Attribute`). */
export const CSHARP_KEPT: ReadonlySet<string> = new Set([
  ...COMMON_KEPT,
  ...['Obsolete', 'MethodImpl', 'DebuggerStepThrough', 'DebuggerHidden', 'DebuggerNonUserCode', 'DebuggerDisplay', 'DebuggerBrowsable', 'StackTraceHidden', 'SkipLocalsInit'],
  ...['CanBeNull', 'MaybeNull', 'NotNullWhen', 'MaybeNullWhen', 'NotNullIfNotNull', 'MemberNotNull', 'MemberNotNullWhen', 'DoesNotReturn', 'DoesNotReturnIf', 'AllowNull', 'DisallowNull'],
  ...['SuppressMessage', 'EditorBrowsable', 'ExcludeFromCodeCoverage', 'GeneratedCode', 'CompilerGenerated', 'Conditional', 'Flags', 'StructLayout', 'MustUseReturnValue', 'AttributeUsage'],
]);

/** PHP: the engine's attributes and the IDE's. */
export const PHP_KEPT: ReadonlySet<string> = new Set(['Override', 'ReturnTypeWillChange', 'Deprecated', 'SensitiveParameter', 'AllowDynamicProperties', 'NoDiscard', 'Pure', 'Immutable', 'ArrayShape', 'ExpectedValues', 'Language']);

/** Rust: the compiler's and the lints' attributes (`clippy::*`, `rustfmt::*`: every one of the tool). */
export const RUST_KEPT: ReadonlySet<string> = new Set([
  ...['inline', 'cold', 'must_use', 'doc', 'allow', 'warn', 'deny', 'forbid', 'expect', 'cfg', 'cfg_attr', 'deprecated', 'track_caller', 'non_exhaustive', 'derive', 'repr'],
  ...['stable', 'unstable', 'rustc_const_stable', 'rustc_const_unstable', 'automatically_derived', 'target_feature', 'optimize', 'coverage', 'doc_cfg', 'clippy::*', 'rustfmt::*'],
]);
