import { cFamilyVisitor, rewriteCppSource } from './c-family.js';
import { cppReferences } from './references/c.js';
import type { LanguageDefinition } from './types.js';
import { implement, CPP } from './builtin.js';

/**
 * C++: `class`, `struct`, `union` and `enum` definitions (with a body) are classes, their
 * inline member functions class methods (an enum's fields are its enumerators). Out-of-class definitions (`Shape::rename`, `Stack<T>::pop`,
 * `ns::Outer::Inner::f`) are methods of the last scope component, template arguments stripped,
 * under their unqualified name; constructors, destructors (`~Shape`) and operators
 * (`operator==`, `operator bool`) too. Names come from the declarator chain, so pointer- and
 * reference-returning functions are found by their plain name. Ranges follow the definition node
 * (a `template <...>` line is outside). Namespaces and `extern "C"` blocks are transparent;
 * lambdas, prototypes, forward declarations and elaborated type specifiers are not indexed;
 * inline `friend` definitions are free functions. `= default` / `= delete` definitions are kept.
 *
 * Macros tree-sitter cannot place are blanked before parsing (offsets kept; rows keep the
 * original text): an export macro between `class` and the name (`class EXPORT widget`), a line
 * holding only a macro before a declaration (`NLOHMANN_JSON_NAMESPACE_BEGIN`, `BOOST_BEAST_DECL`),
 * and `#if` branches inside a class head (the first branch is kept). A macro invocation with a
 * body and no type at file or namespace scope (`TEST(Suite, Name) { … }`) is a function named
 * after an argument; see `IndexOptions.functionMacros`.
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
export const cpp: LanguageDefinition = implement(CPP, {
  visitor: cFamilyVisitor({ classTypes: ['class_specifier', 'struct_specifier', 'union_specifier', 'enum_specifier'], methods: true }),
  references: cppReferences,
  rewriteSource: rewriteCppSource,
});
