// Which languages' code may call a definition by its name. An unresolved call named like a
// definition counts as a possible call of it (callers answers are a lower bound; dead code keeps
// the definition) only when written in such a language: a JavaScript `page()` in a static
// folder is no call of a Python method `Paginator.page`.

const ECMASCRIPT = ['javascript', 'typescript', 'tsx'];
const JVM = ['java', 'kotlin', 'scala'];

/**
 * By the definition's language. C and C++ are absent: every language calls their functions
 * through its foreign-function interface (ctypes, cgo, P/Invoke, `extern` blocks, FFI gems).
 * Go and Rust export functions to C (`//export`, `#[no_mangle] extern "C"`).
 */
const CALLED_FROM: Readonly<Record<string, readonly string[]>> = {
  python: ['python'],
  javascript: ECMASCRIPT,
  typescript: ECMASCRIPT,
  tsx: ECMASCRIPT,
  java: JVM,
  kotlin: JVM,
  scala: JVM,
  c_sharp: ['c_sharp'],
  go: ['go', 'c', 'cpp'],
  rust: ['rust', 'c', 'cpp'],
  php: ['php'],
  ruby: ['ruby'],
  lua: ['lua'],
  bash: ['bash'],
};

/**
 * Whether code in `callerLanguage` may call a definition in `definitionLanguage` by name. True
 * for a language this table does not know (one a host registered).
 *
 * @example
 * ```ts
 * mayCall('javascript', 'python'); // false
 * mayCall('python', 'c'); // true: ctypes
 * ```
 */
export function mayCall(callerLanguage: string, definitionLanguage: string): boolean {
  const callers = CALLED_FROM[definitionLanguage];
  return callers === undefined || callers.includes(callerLanguage);
}

/**
 * SQL for {@link mayCall} over two columns (or quoted literals): the caller's language and the
 * definition's.
 */
export function mayCallSql(callerLanguage: string, definitionLanguage: string): string {
  const cases = Object.entries(CALLED_FROM).map(([language, callers]) => `WHEN '${language}' THEN ${callerLanguage} IN (${callers.map((c) => `'${c}'`).join(', ')})`);
  return `(CASE ${definitionLanguage} ${cases.join(' ')} ELSE 1 END)`;
}
