import { cFamilyVisitor } from './c-family.js';
import type { LanguageDefinition } from './types.js';

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
export const c: LanguageDefinition = {
  id: 'c',
  extensions: ['.c', '.h'],
  grammar: 'tree-sitter-c.wasm',
  grammarPackage: { name: 'tree-sitter-c', version: '0.24.1' },
  // 2: enums are classes; macro-made functions (SYSCALL_DEFINEn, BPF_CALL_n, ...).
  version: '2',
  visitor: cFamilyVisitor({ classTypes: ['struct_specifier', 'union_specifier', 'enum_specifier'], methods: false }),
  // A function definition needs a compound statement and a struct or union row needs its field
  // list: without any brace there is nothing to find. (Not so in C++: `A::A() = default;`.)
  // Checked on the Linux tree: its 8,234 brace-free .c/.h files (87 MB of generated register
  // headers) yield no row when parsed.
  mayDefine: (source) => source.includes('{') || source.includes('}'),
};
