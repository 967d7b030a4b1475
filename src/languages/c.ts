import { cFamilyVisitor } from './c-family.js';
import { cReferences, OPAQUE_DIRECTIVE } from './references/c.js';
import type { LanguageDefinition } from './types.js';
import { implement, C } from './builtin.js';

/**
 * Whether a C text may hold a definition or a graph fact (a site or binding of
 * references/c.ts). False only when, outside comments and directives, the text has none of
 * `{ } ( ) = ? &`, no quote and no `return`, and no `#include` or function-like `#define`:
 * a definition needs braces; calls, prototypes and casts need parentheses; values are used
 * after `=`, `?`, `&`, `return` or in argument and initializer lists. The Linux tree's
 * brace-free files are mostly generated register headers (`#define`s and comments only).
 */
function cMayHoldFacts(source: string): boolean {
  if (/#[ \t]*include|#[ \t]*define[ \t]+\w+\(/.test(source)) return true;
  const n = source.length;
  let lineStart = true;
  for (let i = 0; i < n; ) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return false;
      i = end + 2;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      i = endOfLine(source, i);
      continue;
    }
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v' || (c === '\\' && source[i + 1] === '\n')) {
      i += c === '\\' ? 2 : 1;
      continue;
    }
    if (lineStart && c === '#' && OPAQUE_DIRECTIVE.test(source.slice(i, i + 16))) {
      // To the end of the directive: comments and escaped newlines belong to it.
      while (i < n && source[i] !== '\n') {
        if (source[i] === '/' && source[i + 1] === '*') {
          const end = source.indexOf('*/', i + 2);
          if (end < 0) return false;
          i = end + 2;
        } else i += source[i] === '\\' && source[i + 1] === '\n' ? 2 : 1;
      }
      continue;
    }
    lineStart = false;
    if ('{}()=?&"\''.includes(c)) return true;
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /\w/.test(source[j]!)) j++;
      if (source.slice(i, j) === 'return') return true;
      i = j;
      continue;
    }
    i++;
  }
  return false;
}

/** Where a `//` comment ends (an escaped newline continues it). */
function endOfLine(source: string, from: number): number {
  let i = from;
  while (i < source.length && source[i] !== '\n') i += source[i] === '\\' && source[i + 1] === '\n' ? 2 : 1;
  return i;
}

/**
 * C: function definitions named by descending the declarator chain, so pointer-returning
 * (`char *dup(...)`, `char **split(...)`), function-pointer-returning (`int (*handler(int))(int)`)
 * and parenthesised (`int (name)(void)`) definitions are found by their plain name. Structs,
 * unions and enums with a body are classes (tagged ones by tag, `typedef struct { ... } Point;`
 * as `Point`), their fields summary being the member declarations (an enum's: its
 * enumerators). Prototypes, forward declarations and `struct S *p` type uses are not
 * definitions and are not indexed. Functions made by a macro at file scope
 * (`SYSCALL_DEFINE3(read, unsigned int, fd, …) { … }`, `BPF_CALL_2(…)`,
 * `DEFINE_INTERRUPT_HANDLER(name)`) are named after its first identifier argument; see
 * `IndexOptions.functionMacros` for more.
 *
 * `.h` files use this grammar: a header cannot be told apart from a C++ one without reading it,
 * and C is the safe default. C++ headers should be named `.hpp` / `.hh`; C++ constructs in a `.h`
 * file parse with errors (the definitions tree-sitter still recognises are kept).
 *
 * @example
 * ```ts
 * import { createDefaultRegistry } from 'ckg-wasm';
 * createDefaultRegistry().forPath('/src/util.h')?.id; // 'c'
 * ```
 * @public
 */
export const c: LanguageDefinition = implement(C, {
  visitor: cFamilyVisitor({ classTypes: ['struct_specifier', 'union_specifier', 'enum_specifier'], methods: false }),
  references: cReferences,
  // A function definition needs a compound statement and a struct or union row needs its field
  // list: without any brace there is no definition to find. (Not so in C++: `A::A() = default;`.)
  // The graph needs a file's includes, prototypes, macros and calls too (cMayHoldFacts).
  mayDefine: cMayHoldFacts,
});
