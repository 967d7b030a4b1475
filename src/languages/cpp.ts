import { cFamilyVisitor } from './c-family.js';
import { cppReferences } from './references/c.js';
import type { LanguageDefinition } from './types.js';

/**
 * C++: `class`, `struct` and `union` definitions (with a body) are classes, their inline member
 * functions class methods. Out-of-class definitions (`Shape::rename`, `Stack<T>::pop`,
 * `ns::Outer::Inner::f`) are methods of the last scope component, template arguments stripped,
 * under their unqualified name; constructors, destructors (`~Shape`) and operators
 * (`operator==`, `operator bool`) too. Names come from the declarator chain, so pointer- and
 * reference-returning functions are found by their plain name. Ranges follow the definition node
 * (a `template <...>` line is outside). Namespaces and `extern "C"` blocks are transparent;
 * lambdas, prototypes, forward declarations and elaborated type specifiers are not indexed;
 * inline `friend` definitions are free functions. `= default` / `= delete` definitions are kept.
 *
 * An out-of-namespace definition `void ns::f() {}` is indistinguishable from a member
 * definition without semantic analysis and is reported as a method of `ns`.
 *
 * @example
 * ```ts
 * import { createDefaultRegistry } from 'ckg-wasm';
 * createDefaultRegistry().forPath('/src/shape.hpp')?.id; // 'cpp'
 * ```
 * @public
 */
export const cpp: LanguageDefinition = {
  id: 'cpp',
  extensions: ['.cpp', '.hpp', '.cc', '.cxx', '.c++', '.hh'],
  grammar: 'tree-sitter-cpp.wasm',
  grammarPackage: { name: 'tree-sitter-cpp', version: '0.23.4' },
  version: '2',
  visitor: cFamilyVisitor({ classTypes: ['class_specifier', 'struct_specifier', 'union_specifier'], methods: true }),
  references: cppReferences,
};
