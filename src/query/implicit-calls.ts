import { SYMBOL_FLAGS } from '../graph/describe.js';
import type { SymbolRow } from './symbols.js';

// Methods a language (or its runtime) calls where no call is written: Python runs `__iter__` for
// `for x in obj`, `__add__` for `a + b`, `__repr__` for `repr(x)`; PHP `__toString` where an
// object is used as a string; C++ an operator for its operator and a destructor at the end of a
// scope; every JVM and .NET language `toString()` / `ToString()` in string concatenation and
// `equals` / `hashCode` in collections; Go's fmt `String()` and `Error()`. And the runtime calls
// entry points (`main`, Go's `init`, Rust's `#[no_mangle]`) and tests (flags `entry`, `test`).
// No edge shows those calls, so a callers answer of such a definition is a lower bound.
// Constructors are not among them: a construction is a call of the class, which the graph
// records.

/** Python's dunders other than `__init__` (a call of the class resolves to it). */
const PYTHON_DUNDER = /^__(?!init__$)\w+__$/;
/** PHP's magic methods other than `__construct` (`new Foo` resolves to it). */
const PHP_MAGIC = /^__(destruct|get|set|call|callStatic|isset|unset|sleep|wakeup|serialize|unserialize|toString|invoke|set_state|clone|debugInfo)$/;
/** C++ operators and destructors (`operator+`, `operator()`, `~Buffer`). */
const CPP_IMPLICIT = /^(operator\b|~)/;

/** JavaScript's conversions and thenables: `String(x)`, `+x`, `JSON.stringify`, `await`. */
const JS_HOOKS: ReadonlySet<string> = new Set(['toString', 'valueOf', 'toJSON', 'then']);

/** Methods of the root class every class has (or overrides), called by the runtime's own code. */
const ROOT_CALLED: Readonly<Record<string, ReadonlySet<string>>> = {
  java: new Set(['toString', 'equals', 'hashCode', 'compareTo', 'close', 'finalize', 'clone', 'run', 'call', 'iterator']),
  kotlin: new Set(['toString', 'equals', 'hashCode', 'compareTo', 'close', 'iterator', 'invoke', 'component1', 'component2', 'component3', 'getValue', 'setValue', 'provideDelegate']),
  scala: new Set(['toString', 'equals', 'hashCode', 'compare', 'apply', 'unapply', 'update']),
  c_sharp: new Set(['ToString', 'Equals', 'GetHashCode', 'CompareTo', 'Dispose', 'DisposeAsync', 'GetEnumerator', 'Finalize', 'Deconstruct']),
  javascript: JS_HOOKS,
  typescript: JS_HOOKS,
  tsx: JS_HOOKS,
  go: new Set(['String', 'Error', 'Format', 'GoString', 'ServeHTTP', 'MarshalJSON', 'UnmarshalJSON', 'MarshalText', 'UnmarshalText']),
  ruby: new Set(['to_s', 'inspect', 'each', '<=>', '==', 'eql?', 'hash', 'method_missing', 'respond_to_missing?', 'to_str', 'to_ary', 'to_proc', 'coerce', 'call', '===', '[]', '[]=', '+', '-', '*', '/']),
};

/**
 * Whether the language or its runtime calls `symbol` where no call is written (see above): its
 * callers answers are a lower bound.
 *
 * @example
 * ```ts
 * implicitlyCalled({ kind: 'method', language: 'python', name: '__iter__', flags: 0 }); // true
 * ```
 */
export function implicitlyCalled(symbol: Pick<SymbolRow, 'kind' | 'name' | 'language' | 'flags'>): boolean {
  if ((symbol.flags & (SYMBOL_FLAGS.entry | SYMBOL_FLAGS.test)) !== 0) return true;
  if (symbol.kind !== 'method') return false;
  const { name, language } = symbol;
  switch (language) {
    case 'python':
      return PYTHON_DUNDER.test(name);
    case 'php':
      return PHP_MAGIC.test(name);
    case 'cpp':
      return CPP_IMPLICIT.test(name);
    default:
      return ROOT_CALLED[language]?.has(name) === true || (language === 'c_sharp' && name.startsWith('operator'));
  }
}
