import type { LanguageGraph } from '../strategy.js';

// Java, Kotlin, Scala and C#: a file's module is the package (namespace) it declares, shared by
// every file that declares it, so qualified names are the package and the class chain
// (`com.acme.Shop.add`) and a plain name also finds the package's other files' top-level
// definitions. Imports name packages, classes in packages (`com.acme.util.Strings`), members of
// classes (static imports, object members) or whole packages (`.*`, `using`). A file without a
// package declaration is in the unnamed package (''). Each language is its own family: a Kotlin
// file and a Java file of one package do not see each other's names (their rules differ: Java
// cannot call a Kotlin top-level function by its plain name).

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

/** `java.lang`, imported by every Java file. */
const JAVA_LANG = words(`
  Object String StringBuilder StringBuffer CharSequence System Math StrictMath Integer Long Short Byte Double Float Boolean
  Character Number Void Thread ThreadLocal InheritableThreadLocal Runnable Runtime Process ProcessBuilder Class ClassLoader
  Enum Record Iterable Comparable AutoCloseable Cloneable Appendable Readable Override Deprecated SuppressWarnings
  FunctionalInterface SafeVarargs StackTraceElement Throwable Exception RuntimeException Error ArithmeticException
  ArrayIndexOutOfBoundsException ArrayStoreException ClassCastException ClassNotFoundException CloneNotSupportedException
  IllegalAccessException IllegalArgumentException IllegalMonitorStateException IllegalStateException
  IndexOutOfBoundsException InstantiationException InterruptedException NegativeArraySizeException NoSuchFieldException
  NoSuchMethodException NullPointerException NumberFormatException ReflectiveOperationException SecurityException
  StringIndexOutOfBoundsException UnsupportedOperationException AssertionError ExceptionInInitializerError LinkageError
  NoClassDefFoundError OutOfMemoryError StackOverflowError VirtualMachineError`);

/** Kotlin's default imports (`kotlin.*`, `kotlin.collections.*`, …): the functions and classes called without an import. */
const KOTLIN_DEFAULTS = words(`
  println print readLine readln listOf listOfNotNull mutableListOf arrayListOf emptyList setOf mutableSetOf hashSetOf
  linkedSetOf emptySet mapOf mutableMapOf hashMapOf linkedMapOf emptyMap sequenceOf emptySequence arrayOf arrayOfNulls
  emptyArray intArrayOf longArrayOf doubleArrayOf floatArrayOf booleanArrayOf charArrayOf byteArrayOf shortArrayOf
  require requireNotNull check checkNotNull error TODO lazy run with apply also let takeIf takeUnless repeat maxOf minOf
  buildString buildList buildMap buildSet synchronized assert to Pair Triple Any Unit Nothing String Int Long Short Byte
  Double Float Boolean Char Array List Set Map MutableList MutableSet MutableMap Exception RuntimeException Error
  IllegalArgumentException IllegalStateException UnsupportedOperationException NullPointerException IndexOutOfBoundsException
  NoSuchElementException Throwable StringBuilder Comparable Iterable Sequence Regex Result runCatching suspend`);

/** Scala's `scala.*`, `scala.Predef.*` and `java.lang.*` names called without an import. */
const SCALA_DEFAULTS = words(`
  println print printf require assert assume implicitly identity locally summon Some None Option List Nil Seq
  IndexedSeq Vector Map Set Array Range Either Left Right Iterator LazyList Stream StringBuilder BigInt BigDecimal
  Tuple2 Tuple3 Ordering Function Exception RuntimeException IllegalArgumentException IllegalStateException
  UnsupportedOperationException NoSuchElementException NullPointerException IndexOutOfBoundsException Throwable
  Error String Int Long Double Float Boolean Char Byte Short Unit Any AnyRef Nothing Object System Math Thread Runnable`);

/** Types of `System` (nearly every C# file's `using System;`) called or constructed by their plain name. */
const CSHARP_SYSTEM = words(`
  Console Math String Object Array Convert Environment GC Guid DateTime DateTimeOffset TimeSpan Type Activator Attribute
  Nullable Enum Buffer BitConverter Random Tuple ValueTuple Lazy Exception SystemException ArgumentException
  ArgumentNullException ArgumentOutOfRangeException InvalidOperationException NotImplementedException
  NotSupportedException NullReferenceException IndexOutOfRangeException KeyNotFoundException FormatException
  InvalidCastException ObjectDisposedException OperationCanceledException TimeoutException OverflowException
  DivideByZeroException AggregateException Action Func Predicate EventHandler EventArgs Int32 Int64 Boolean Double
  Single Decimal Char Byte Uri Version StringComparer IDisposable nameof`);

function packageGraph(family: string, builtins: ReadonlySet<string>, constructorNames: (className: string) => readonly string[]): LanguageGraph {
  return {
    family,
    moduleName: (_relativePath, _context, declaredPackage) => declaredPackage ?? '',
    qualify: (module, chain) => [module, ...chain].filter((p) => p !== '').join('.'),
    importTargets: (specifier) => [specifier],
    builtins,
    constructorNames,
    exportsOnly: false,
    submodulesAreMembers: false,
    sharedModules: true,
    implicitMembers: true,
    memberImports: true,
    starConflictsAreErrors: true,
    variadicLast: true,
  };
}

/**
 * Java's graph rules: constructors are methods named like their class.
 *
 * @example
 * ```ts
 * javaGraph.moduleName('src/main/java/com/acme/Shop.java', context, 'com.acme'); // 'com.acme'
 * ```
 */
export const javaGraph: LanguageGraph = {
  ...packageGraph('java', JAVA_LANG, (cls) => [cls]),
  implicitStarImports: ['java.lang'],
  absolutePackagePaths: true,
  fieldTypes: true,
  superIsSuperclass: true,
  privateNotInherited: true,
};

/**
 * Kotlin's graph rules: `Foo(…)` targets the class Foo, never one of its secondary constructors
 * (methods named like the class): the primary constructor, which it may call, is no symbol.
 *
 * @example
 * ```ts
 * kotlinGraph.qualify('com.acme', ['Shop', 'add']); // 'com.acme.Shop.add'
 * ```
 */
export const kotlinGraph: LanguageGraph = { ...packageGraph('kotlin', KOTLIN_DEFAULTS, () => []), fieldTypes: true, constructorsNamedLikeClass: true, privateNotInherited: true, absolutePackagePaths: true, extensionReceivers: 'top-level', companionObjects: true, constructsByCall: true };

/**
 * Scala's graph rules: a class has no constructor method of its own (auxiliary constructors are
 * `def this(…)`, not indexed), so `new Foo()` targets the class.
 *
 * @example
 * ```ts
 * scalaGraph.qualify('', ['Main', 'run']); // 'Main.run'
 * ```
 */
export const scalaGraph: LanguageGraph = { ...packageGraph('scala', SCALA_DEFAULTS, () => []), privateNotInherited: true, mixinsOverride: true, constructsByCall: true };

/**
 * C#'s graph rules: a file's module is its namespace; constructors are methods named like their type.
 *
 * @example
 * ```ts
 * csharpGraph.qualify('Acme.Shop', ['Cart', 'Add']); // 'Acme.Shop.Cart.Add'
 * ```
 */
export const csharpGraph: LanguageGraph = {
  ...packageGraph('csharp', CSHARP_SYSTEM, (cls) => [cls]),
  fieldTypes: true,
  superIsSuperclass: true,
  extensionReceivers: 'static-classes',
  privateNotInherited: true,
  partialClasses: true,
  // A file with types in several namespaces (declared as '/') is a module of its own, named by
  // its path, which no namespace can be; its types carry their namespaces in their chains.
  moduleName: (relativePath, _context, declaredPackage) => (declaredPackage === '/' ? `/${relativePath}` : (declaredPackage ?? '')),
  qualify: (module, chain) => [module.startsWith('/') ? '' : module, ...chain].filter((p) => p !== '').join('.'),
};
