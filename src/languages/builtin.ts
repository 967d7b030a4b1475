// The built-in languages' plain data (ids, extensions, grammars, versions), apart from their
// visitors: the walker, the snapshot key and the rebuild fingerprint need only this, and a
// process that answers from a stored index should not load sixteen visitors, their reference
// visitors and web-tree-sitter (half of the code it would load). Each language's module
// (python.ts, …) supplies the visitors with `implement`; the objects are the same, so
// `builtinLanguages` and a registry made here hold identical definitions. The visitors must be
// loaded (importing languages/index.ts does it) before a file is parsed.
import { CKGError } from '../errors.js';
import type { ReferenceVisitor } from '../graph/facts.js';
import { LanguageRegistry } from './registry.js';
import type { LanguageDefinition, Visitor } from './types.js';

/** What a language's module supplies: its visitors and text hooks. */
type Implementation = Pick<LanguageDefinition, 'visitor' | 'references' | 'mayDefine' | 'rewriteSource'>;
type Hook = 'references' | 'mayDefine' | 'rewriteSource';

const implementations = new WeakMap<LanguageDefinition, Implementation>();

function implementationOf(language: LanguageDefinition): Implementation {
  const found = implementations.get(language);
  if (found === undefined) {
    throw new CKGError('INVALID_ARGUMENT', `The visitors of the built-in language ${language.id} are not loaded: import ckg-wasm's languages (languages/index.ts) before parsing`, { language: language.id });
  }
  return found;
}

/** A built-in definition whose functions call the ones its module supplies (`hooks`: the optional ones it has). */
function builtin(data: Omit<LanguageDefinition, keyof Implementation>, hooks: readonly Hook[] = []): LanguageDefinition {
  const language: LanguageDefinition = {
    ...data,
    visitor: ((...args: Parameters<Visitor>) => implementationOf(language).visitor(...args)) as Visitor,
    ...(hooks.includes('references') ? { references: ((...args: Parameters<ReferenceVisitor>) => implementationOf(language).references!(...args)) as ReferenceVisitor } : {}),
    ...(hooks.includes('mayDefine') ? { mayDefine: (source: string) => implementationOf(language).mayDefine!(source) } : {}),
    ...(hooks.includes('rewriteSource') ? { rewriteSource: (source: string) => implementationOf(language).rewriteSource!(source) } : {}),
  };
  return language;
}

/**
 * Supplies a built-in language's visitors (called once, by the language's module) and returns
 * its definition.
 */
export function implement(language: LanguageDefinition, implementation: Implementation): LanguageDefinition {
  implementations.set(language, implementation);
  return language;
}

/** The data of `python` (languages/python.ts). */
export const PYTHON = builtin(
  {
    id: 'python',
    extensions: ['.py', '.pyi'],
    interpreters: ['python', 'pypy'],
    grammar: 'tree-sitter-python.wasm',
    grammarPackage: { name: 'tree-sitter-python', version: '0.25.0' },
    // 3: value uses the graph cannot resolve (`f(other.get_y)`, `a or b`), getattr lookups.
    // 4: dict comprehensions are scopes (their variables no longer bind module names).
    // 5: `super(Other, self)` is no `super()`; `global`/`nonlocal` next to a binding, and a name bound again without a type, are values the file cannot know; members follow the C3 order, and a class attribute hides an inherited method.
    // 6: every base is a base: a computed one (`namedtuple(…)`, `make_mixin()`), a parameter's or local's value, a name of an enclosing class body, are bases of unknown members in their place of the class's order (`class A(make_mixin(), B)`: `self.m()` is no longer B's); a name the class body defines is the class's own in that body (`helper(1)` beside `def helper`).
    // 7: a name an import in a class body binds is the import's in that body (`class C: from b import helper; x = helper()` is b's helper, never the module's); a comprehension's first iterable is evaluated in the scope around it (`[i for i in helper()]` in a class body sees the body's names).
    // 8: attributes a method stores on its instance (`self.x = …`, `cls.x = …` in a class method: `field` bindings of the class) hide a method x of the class's order: `self.x()` and typed `c.x()` are ambiguous there (they were the method).
    // 9: the stored-attribute rule of 8 applies to calls through the instance only: `super().x()` reads the classes, and is the method again.
    // 10: a method stored over on a local's or parameter's value in its scope (`h.process = stub`, not `h.f = h.f.bind(h)`) makes `h.process()` there dynamic (it was the class's method).
    // 11: decorators that may have the definition called elsewhere are `decorator` bindings of it (callers answers are a lower bound).
    // 12: a dotted path in a string used as a value (`'shop.mail.Backend'`, `patch('shop.mail.send')`) is a reference to what it spells out (SiteFact.dotted).
    // 13: a value made by a call of an outside name read as a function's (`module = import_module(name)`, lowercase) is of unknown type: its calls are dynamic, not external (LanguageGraph.constructsByCall).
    // 14: a method called on a literal (`', '.join(names)`) or on a local only ever assigned literals (`parts = []` then `parts.append(x)`) is a builtin's (it was dynamic); `nonlocal x` in an inner function leaves the outer function's x untyped (`box = Box()` there no longer types `box.put()`).
    // 15: a module-level value of a class (`site = AdminSite()`, `x: Foo = make()`) is an `assign` binding with its class: `site.register()`, `sites.site.register()` and, through a re-export, `admin.site.register()` are the class's method (LanguageGraph.valuesReexported); a package importing its own submodule (`from django.db.models import signals` in its `__init__`) has it as a member (it was not-found).
    // 16: a function's declared result (`def make() -> Store`, `-> 'Store'`, `-> Optional[Store]`; not an `async def`'s, not a type parameter) is a `returns` binding: `make().get()`, `Store.create().get()` and `s = make()` then `s.get()` are Store's (they were dynamic).
    // 17: a member no class of the lookup order defines, on a class whose order has a `__getattr__` (LanguageGraph.missingMemberHook), is dynamic (it was not-found, or external with a base outside the codebase).
    // 18: attributes a class annotates itself (`store: Store` in its body, `self.db: Store = db` in a method) type the calls through `self` (`self.store.get()` was dynamic); not an attribute only assigned, a base's, or one annotated twice with different types.
    // 19: `Any` (`typing.Any`) and `object` annotations are no annotation: calls on such a parameter, attribute or result are dynamic (they were external or builtin, which no callers answer counts).
    // 20: the typing modules' types (`TextIO`, `typing.Hashable`, `collections.abc.Mapping`: protocols any object with the methods satisfies) are no annotation either; `typing.Optional[X]` is X's, as `Optional[X]` is.
    // 21: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 22: chains on a value of known class follow declared results (`q.filter().first().show()` with `q: Query`, `Query().filter()`, `self.filter()`); `-> Self` in a method is its class; a method the instances store over (`self.make = …`) has no declared result.
    // 23: a loop over a parameter or local annotated as a container of a class (`rows: list[Row]`, `Sequence['Row']`, `typing.List[Row]`) types its variable (`for r in rows: r.show()`), when nothing else binds either name.
    // 24: a method decorated `@property` or `@cached_property` that declares its result (`-> Row`) types `self.row.show()` as an annotated attribute does.
    // 25: an `async def`'s declared result is an `awaits` binding: `s = await find()`, `(await repo.find()).get()` are its class's (they were dynamic); a local holding a call on a local, parameter or `self` of known class (`d = repo.make()`, `qs = self.get_queryset()`) is typed by the method's declared result (it was dynamic); what `getattr`, `next`, `max`, `type`… return, and what a builtin's method returns (`d.get(k)`), is of unknown type (calls on it were builtin, now dynamic), as is anything read from an outside function's result (`import_module(name).Store()`: was external).
    // 26: a call of an attribute no class of the order defines as a method but a method stores on the instances (`self.callback = cb` then `self.callback(1)`, `job.callback()` with `job: Job`) is dynamic (it was not-found, which no callers answer counts).
    // 27: attributes a class annotates (`store: Store`, `self.db: Store = …`, a typed `@property`) are `field` bindings with their class: `self.store.get()` in a subclass's methods is that class's (it was dynamic), unless two bases declare different classes.
    version: '27',
  },
  ['references'],
);

/** The data of `java` (languages/java.ts). */
export const JAVA = builtin(
  {
    id: 'java',
    extensions: ['.java'],
    grammar: 'tree-sitter-java.wasm',
    grammarPackage: { name: 'tree-sitter-java', version: '0.23.5' },
    // 3: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; `super(...)` constructs the superclass only (never an interface or a class above it); an inherited method with as many parameters and other parameter types makes a call ambiguous.
    // 4: every file imports java.lang.* on demand when the codebase holds java.lang (the JDK's own sources); a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 5: a local class (in a block) is no member of the class around it (DefinitionFlag `enclosed`): one in a lambda of a field's initialiser sat in that class.
    // 6: `super.m()` looks in the superclass only (never an interface the class implements: `super.clone()` is Object's); a base's `private` methods (DefinitionFlag `private`) are not inherited; an enum's `valueOf`/`values` and `java.lang.Enum`'s members and a record's accessors are the class's own; a call only a variadic method takes is unresolved where a base outside the codebase may declare a fixed-arity overload; a qualified name whose head names nothing in scope starts at a package (`java.io.Serializable`, `a.b.C.m()`).
    // 7: a field of a class around is a typed receiver in a nested class when no class between names a base (whose field of the name would hide it).
    // 8: fields with a class type are `field` bindings of their class: a field naming a receiver (`UNSAFE.get()` through a static import, `System.err.println()`, a base's non-private field) types it with its declared class, unless a class on the way may inherit a field of the name from outside the codebase.
    // 9: `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 10: annotations that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 11: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 12: `this.store.get()` in a class with bases, `store` not its own field, is the class a base declares the field of (it was dynamic), unless the base's field is private or two bases declare different classes.
    version: '12',
  },
  ['references'],
);

/** The data of `c` (languages/c.ts). */
export const C = builtin(
  {
    id: 'c',
    extensions: ['.c', '.h'],
    grammar: 'tree-sitter-c.wasm',
    grammarPackage: { name: 'tree-sitter-c', version: '0.24.1' },
    // 2: enums are classes; macro-made functions (SYSCALL_DEFINEn, BPF_CALL_n, ...).
    // 3: graph facts (the reference visitor); brace-free files with includes, macros or calls are parsed.
    // 4: a one-part include (`<stdio.h>`) no longer means a header deeper below an include folder (stored edges re-resolved).
    // 5: no call from a name whose argument list error recovery found on a directive line.
    // 6: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; a file never includes itself.
    // 7: an object-like macro that renames (`#define hash_64 hash_64_generic`) hides calls of its name where it is visible, as a function-like macro does.
    version: '7',
  },
  ['references', 'mayDefine'],
);

/** The data of `cpp` (languages/cpp.ts). */
export const CPP = builtin(
  {
    id: 'cpp',
    extensions: ['.cpp', '.hpp', '.cc', '.cxx', '.c++', '.hh', '.hxx', '.ipp', '.tpp', '.inl'],
    grammar: 'tree-sitter-cpp.wasm',
    grammarPackage: { name: 'tree-sitter-cpp', version: '0.23.4' },
    // 2: enums are classes; macro-made functions; the macro rewrite around class heads.
    // 3: graph facts (the reference visitor).
    // 4: C's one-part include rule (`<stdio.h>` is not `tools/include/nolibc/stdio.h`): stored edges re-resolved.
    // 5: no call from a name whose argument list error recovery found on a directive line.
    // 6: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; a file never includes itself.
    // 7: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 8: an object-like macro that renames (`#define hash_64 hash_64_generic`) hides calls of its name where it is visible, as a function-like macro does.
    // 9: a template's parameter hides the class of its name in the template (`template <class Base> class W : public Base`, `template <typename Shape> void draw(Shape& s)`): a base and a type of unknown members.
    // 10: a class header the grammar cannot read (`struct A : decltype(b)`) has a base of unknown members there: a call in the class is no longer a global function of the name.
    // 11: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    version: '11',
  },
  ['references', 'rewriteSource'],
);

/** The data of `typescript` (languages/typescript.ts). */
export const TYPESCRIPT = builtin(
  {
    id: 'typescript',
    extensions: ['.ts', '.mts', '.cts'],
    interpreters: ['ts-node', 'tsx', 'deno', 'bun'],
    grammar: 'tree-sitter-typescript.wasm',
    grammarPackage: { name: 'tree-sitter-typescript', version: '0.23.2' },
    // 3: the grammar-gap rewrite; call-made functions; construct signatures.
    // 4: value uses (`a || b`, `fn.bind`), functions held by locals, object-literal members flagged.
    // 5: a shorthand property (`{ setup }`) is a value use of the name.
    // 6: block scopes, reassigned names, type parameters, functions stored in objects bind no name (SiteFact.moduleScope); static and instance members apart.
    // 7: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 8: a function or class expression's own name is a value inside it (`const k = function h() { h(); }` calls no outer `h`).
    // 9: a definition inside an anonymous function or a block (an IIFE, a bundler's module wrapper) is no module name outside it (DefinitionFlag `enclosed`).
    // 10: nor a member of the class whose field initialiser holds it (`this.helper()`).
    // 11: a class's static methods and function-valued fields are flagged `static`: making one static (or not) re-resolves the calls other files make of it.
    // 12: a call that wraps a function literal, bound inside a function (`const h = wrap(function () {…})`), is a local value: no definition is made of it there.
    // 13: `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 14: a computed base (`class A extends mixin(B)`) is a base of unknown members; a build counts a base named by a parameter or local as one, as an update did (`this.m()` in such a class: external, not not-found).
    // 15: attributes a method stores on its instance (`this.x = …`, not `this.x = this.x.bind(this)`: `field` bindings of the class) hide a method x of the class and its bases: `this.x()` and typed `c.x()` are ambiguous there (they were the method).
    // 16: a method stored over on a local's or parameter's value in its scope (`h.process = stub`, not `h.f = h.f.bind(h)`) makes `h.process()` there dynamic (it was the class's method).
    // 17: decorators are `decorator` bindings of the class or member they decorate (callers answers are a lower bound).
    // 18: interfaces are flagged `interface` (structural dispatch: a class with their methods may stand for them).
    // 19: `import('./page')` is an import of the function doing it (SiteFact.dynamicImport).
    // 20: `obj['name']()` is a call named `name` on a value of unknown type.
    // 21: TypeScript `private` members are flagged `private` (not offered outside: CallGroup.exported).
    // 22: a module-level `const` made by `new` or declared of a class (`export const store = new Store()`) is an `assign` binding with its class, and `export const`/`let`/`var` names are exports: `store.get()` here and where it is imported is Store's.
    // 23: a function's or method's declared return type (`static create(): Store`) types the calls on its result (`Store.create().get()`); a result of a function outside the codebase, or of a declared type that names no class (a type alias), is of unknown type (dynamic, not external or not-found); a local holding a call's result (`const s = makeStore()`) too, until another value is assigned.
    // 24: a module-level `const` holding a call's result (`export const store = makeStore()`) is typed by it, here and where it is imported.
    // 25: a TypeScript class's own declared instance fields (`store: Store;`, parameter properties, `#cache: Cache`) type the calls through `this` in its instance methods (`this.store.get()` was dynamic); `x!.m()` is read as `x.m()`.
    // 26: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 27: chains on a value of known class follow declared results (`q.where().first().show()` with `q: Query`, `this.query.where()`, `new Query().where()`); a method's `this` return type is its class.
    // 28: a class's own `get row(): Row` accessor types `this.row.show()` in its instance methods as a declared field does.
    // 29: a declared `Promise<T>` (`PromiseLike<T>`) result is an `awaits` binding: `const s = await find()`, `(await repo.find()).get()` are T's (they were dynamic); a function's local holding a call, an awaited call or another value (`const u = await this.repo.find()`, `const c = r.make()`, `const repo = this.repo`, `const self = this`) is read as that value where it is written (it was dynamic); a utility type of a class (`Readonly<Pick<Store, 'get'>>`, `Partial<Store>`) types as the class (it was not-found).
    // 30: a function or arrow bound to a name declares its result as a declared function does (`const makeStore = (): Store => …`, `async (): Promise<Store> =>`): `makeStore().get()`, `(await loadStore()).get()` (they were dynamic).
    // 31: a call of an attribute no class of the order defines as a method but a method stores on the instances (`this.add = add` then `this.add(1)`, `s.add()` with `s: Stream`) is dynamic (it was not-found, which no callers answer counts).
    // 32: a class's declared instance fields (`protected client: Client`, parameter properties; not getters) are `field` bindings with their class (`member` private for `private` and `#` fields): `this.client.get()` in a subclass's instance methods is that class's (it was dynamic), unless the field is private or two bases declare different classes.
    version: '32',
  },
  ['references', 'rewriteSource'],
);

/** The data of `tsx` (languages/typescript.ts). */
export const TSX = builtin(
  {
    id: 'tsx',
    extensions: ['.tsx'],
    grammar: 'tree-sitter-tsx.wasm',
    grammarPackage: { name: 'tree-sitter-typescript', version: '0.23.2' },
    // 3: the grammar-gap rewrite; call-made functions; construct signatures.
    // 4: value uses (`a || b`, `fn.bind`), functions held by locals, object-literal members flagged.
    // 5: a shorthand property (`{ setup }`) is a value use of the name.
    // 6: block scopes, reassigned names, type parameters, functions stored in objects bind no name (SiteFact.moduleScope); static and instance members apart.
    // 7: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 8: a function or class expression's own name is a value inside it (`const k = function h() { h(); }` calls no outer `h`).
    // 9: a definition inside an anonymous function or a block (an IIFE, a bundler's module wrapper) is no module name outside it (DefinitionFlag `enclosed`).
    // 10: nor a member of the class whose field initialiser holds it (`this.helper()`).
    // 11: a class's static methods and function-valued fields are flagged `static`: making one static (or not) re-resolves the calls other files make of it.
    // 12: a call that wraps a function literal, bound inside a function (`const h = wrap(function () {…})`), is a local value: no definition is made of it there.
    // 13: `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 14: a computed base (`class A extends mixin(B)`) is a base of unknown members; a build counts a base named by a parameter or local as one, as an update did (`this.m()` in such a class: external, not not-found).
    // 15: attributes a method stores on its instance (`this.x = …`, not `this.x = this.x.bind(this)`: `field` bindings of the class) hide a method x of the class and its bases: `this.x()` and typed `c.x()` are ambiguous there (they were the method).
    // 16: a method stored over on a local's or parameter's value in its scope (`h.process = stub`, not `h.f = h.f.bind(h)`) makes `h.process()` there dynamic (it was the class's method).
    // 17: decorators are `decorator` bindings of the class or member they decorate (callers answers are a lower bound).
    // 18: interfaces are flagged `interface` (structural dispatch: a class with their methods may stand for them).
    // 19: `import('./page')` is an import of the function doing it (SiteFact.dynamicImport).
    // 20: `obj['name']()` is a call named `name` on a value of unknown type.
    // 21: TypeScript `private` members are flagged `private` (not offered outside: CallGroup.exported).
    // 22: a module-level `const` made by `new` or declared of a class (`export const store = new Store()`) is an `assign` binding with its class, and `export const`/`let`/`var` names are exports: `store.get()` here and where it is imported is Store's.
    // 23: a function's or method's declared return type (`static create(): Store`) types the calls on its result (`Store.create().get()`); a result of a function outside the codebase, or of a declared type that names no class (a type alias), is of unknown type (dynamic, not external or not-found); a local holding a call's result (`const s = makeStore()`) too, until another value is assigned.
    // 24: a module-level `const` holding a call's result (`export const store = makeStore()`) is typed by it, here and where it is imported.
    // 25: a TypeScript class's own declared instance fields (`store: Store;`, parameter properties, `#cache: Cache`) type the calls through `this` in its instance methods (`this.store.get()` was dynamic); `x!.m()` is read as `x.m()`.
    // 26: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 27: chains on a value of known class follow declared results (`q.where().first().show()` with `q: Query`, `this.query.where()`, `new Query().where()`); a method's `this` return type is its class.
    // 28: a class's own `get row(): Row` accessor types `this.row.show()` in its instance methods as a declared field does.
    // 29: a declared `Promise<T>` (`PromiseLike<T>`) result is an `awaits` binding: `const s = await find()`, `(await repo.find()).get()` are T's (they were dynamic); a function's local holding a call, an awaited call or another value (`const u = await this.repo.find()`, `const c = r.make()`, `const repo = this.repo`, `const self = this`) is read as that value where it is written (it was dynamic); a utility type of a class (`Readonly<Pick<Store, 'get'>>`, `Partial<Store>`) types as the class (it was not-found).
    // 30: a function or arrow bound to a name declares its result as a declared function does (`const makeStore = (): Store => …`, `async (): Promise<Store> =>`): `makeStore().get()`, `(await loadStore()).get()` (they were dynamic).
    // 31: a call of an attribute no class of the order defines as a method but a method stores on the instances (`this.add = add` then `this.add(1)`, `s.add()` with `s: Stream`) is dynamic (it was not-found, which no callers answer counts).
    // 32: a class's declared instance fields (`protected client: Client`, parameter properties; not getters) are `field` bindings with their class (`member` private for `private` and `#` fields): `this.client.get()` in a subclass's instance methods is that class's (it was dynamic), unless the field is private or two bases declare different classes.
    version: '32',
  },
  ['references', 'rewriteSource'],
);

/** The data of `javascript` (languages/javascript.ts). */
export const JAVASCRIPT = builtin(
  {
    id: 'javascript',
    extensions: ['.js', '.jsx', '.mjs', '.cjs'],
    interpreters: ['node', 'nodejs'],
    grammar: 'tree-sitter-javascript.wasm',
    grammarPackage: { name: 'tree-sitter-javascript', version: '0.25.0' },
    // 3: call-made functions (`const Button = memo(forwardRef((props, ref) => …))`).
    // 4: value uses (`a || b`, `fn.bind`), functions held by locals, object-literal members flagged.
    // 5: a shorthand property (`{ setup }`) is a value use of the name.
    // 6: block scopes, reassigned names, type parameters, functions stored in objects bind no name (SiteFact.moduleScope); static and instance members apart.
    // 7: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 8: a function or class expression's own name is a value inside it (`const k = function h() { h(); }` calls no outer `h`).
    // 9: a definition inside an anonymous function or a block (an IIFE, a bundler's module wrapper) is no module name outside it (DefinitionFlag `enclosed`).
    // 10: nor a member of the class whose field initialiser holds it (`this.helper()`).
    // 11: a class's static methods and function-valued fields are flagged `static`: making one static (or not) re-resolves the calls other files make of it.
    // 12: a call that wraps a function literal, bound inside a function (`const h = wrap(function () {…})`), is a local value: no definition is made of it there.
    // 13: `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 14: a computed base (`class A extends mixin(B)`) is a base of unknown members; a build counts a base named by a parameter or local as one, as an update did (`this.m()` in such a class: external, not not-found).
    // 15: attributes a method stores on its instance (`this.x = …`, not `this.x = this.x.bind(this)`: `field` bindings of the class) hide a method x of the class and its bases: `this.x()` and typed `c.x()` are ambiguous there (they were the method).
    // 16: a method stored over on a local's or parameter's value in its scope (`h.process = stub`, not `h.f = h.f.bind(h)`) makes `h.process()` there dynamic (it was the class's method).
    // 17: decorators are `decorator` bindings of the class or member they decorate (callers answers are a lower bound).
    // 18: interfaces are flagged `interface` (structural dispatch: a class with their methods may stand for them).
    // 19: `import('./page')` is an import of the function doing it (SiteFact.dynamicImport).
    // 20: `obj['name']()` is a call named `name` on a value of unknown type.
    // 21: TypeScript `private` members are flagged `private` (not offered outside: CallGroup.exported).
    // 22: a module-level `const` made by `new` or declared of a class (`export const store = new Store()`) is an `assign` binding with its class, and `export const`/`let`/`var` names are exports: `store.get()` here and where it is imported is Store's.
    // 23: a function's or method's declared return type (`static create(): Store`) types the calls on its result (`Store.create().get()`); a result of a function outside the codebase, or of a declared type that names no class (a type alias), is of unknown type (dynamic, not external or not-found); a local holding a call's result (`const s = makeStore()`) too, until another value is assigned.
    // 24: a module-level `const` holding a call's result (`export const store = makeStore()`) is typed by it, here and where it is imported.
    // 25: a TypeScript class's own declared instance fields (`store: Store;`, parameter properties, `#cache: Cache`) type the calls through `this` in its instance methods (`this.store.get()` was dynamic); `x!.m()` is read as `x.m()`.
    // 26: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 27: chains on a value of known class follow declared results (`q.where().first().show()` with `q: Query`, `this.query.where()`, `new Query().where()`); a method's `this` return type is its class.
    // 28: a class's own `get row(): Row` accessor types `this.row.show()` in its instance methods as a declared field does.
    // 29: a declared `Promise<T>` (`PromiseLike<T>`) result is an `awaits` binding: `const s = await find()`, `(await repo.find()).get()` are T's (they were dynamic); a function's local holding a call, an awaited call or another value (`const u = await this.repo.find()`, `const c = r.make()`, `const repo = this.repo`, `const self = this`) is read as that value where it is written (it was dynamic); a utility type of a class (`Readonly<Pick<Store, 'get'>>`, `Partial<Store>`) types as the class (it was not-found).
    // 30: a function or arrow bound to a name declares its result as a declared function does (`const makeStore = (): Store => …`, `async (): Promise<Store> =>`): `makeStore().get()`, `(await loadStore()).get()` (they were dynamic).
    // 31: a call of an attribute no class of the order defines as a method but a method stores on the instances (`this.add = add` then `this.add(1)`, `s.add()` with `s: Stream`) is dynamic (it was not-found, which no callers answer counts).
    // 32: a class's declared instance fields (`protected client: Client`, parameter properties; not getters) are `field` bindings with their class (`member` private for `private` and `#` fields): `this.client.get()` in a subclass's instance methods is that class's (it was dynamic), unless the field is private or two bases declare different classes.
    version: '32',
  },
  ['references'],
);

/** The data of `go` (languages/go.ts). */
export const GO = builtin(
  {
    id: 'go',
    extensions: ['.go'],
    grammar: 'tree-sitter-go.wasm',
    grammarPackage: { name: 'tree-sitter-go', version: '0.25.0' },
    // 2: code graph references (calls, imports, embedded types).
    // 3: method values of untyped receivers as value uses.
    // 4: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; an external test package is a package of its own; files for other systems (`_windows.go`) are not the package a site sees; package-level vars are candidates.
    // 5: `//go:build` lines are read (a `build` binding): a file sees the definitions of the package's files some build compiles with it (`unix && !darwin`, `ignore` apart from the files every build takes).
    // 6: `// +build` lines of code older than Go 1.17 are read too (when a file has no `//go:build` line).
    // 7: a type defined once per system has, in each build, the methods of its qualified name declared in files built with it (os.File's Read in file.go).
    // 8: a named field of a struct of the file types its receiver (`c.in.setKey()`), unless typed by a type parameter; a target no build compiles with the site is never one; a method of a type some build compiling the site defines otherwise is ambiguous.
    // 9: functions declare what they return first (`returns` bindings): `x := f()` / `x, err := pkg.F()` types x.
    // 10: structs declare their fields (`field` bindings): `s.db.Query()` where s's struct is declared in another file (or db is promoted from an embedded struct) takes db's declared type; a field without a named type hides the promoted ones.
    // 11: fields of fields (`s.Fixture.hook.First()`), each read in its struct's declaration.
    // 12: methods declare what they return first too: `x := s.Get()` (s the receiver or a value of declared type) then `x.M()`.
    // 13: a call made directly on such a result: `c.First().Name()`, `store.Open(…).Close()`.
    // 14: the result of a method called through fields of the value (`p := s.catalog.First()`).
    // 15: every defined type is a class (`type Level int`, `type HandlerFunc func(…)`): its methods are reached through typed values and the receiver, a conversion `Level(n)` is a call of it.
    // 16: type assertions (`x, ok := v.(T)`, `v.(*T).M()`) and conversions (`(*T)(p)`) type what they make, a type switch's alias has the type of a case naming one; a function's type parameter is never the package's type of its name.
    // 17: containers of declared element types (`[]T`, `[N]T`, `map[K]V`, `chan T`, variadic parameters, `[]T{…}`, `make(…)`) type what ranging over and indexing them gives.
    // 18: package-level values of declared types (`var userMap sync.Map`, `var std = &Logger{}`) type their receivers, in the package (`userMap.Store()`) and from others (`log.Std.Print()`).
    // 19: a value read from a path (`c := s.catalog`, `p := &s.f`, `v := pkg.Var`) or copied from a typed one (`q := p`) holds what that path holds; `(&Foo{}).M()`.
    // 20: an interface's methods declare what they return first (`Mode() FileMode`), as functions and methods do.
    // 21: a package-level type alias names its type in the package: a type some build declares and another aliases is ambiguous.
    // 22: a method of a value made in the call (`new(big.Int).SetBytes(b)`, `(&Point{}).Add(p, q)`) types its result by what the method declares it returns.
    // 23: a struct field's container of declared element types (`items []*Item`, read where the struct is declared) types `s.items[i]` and the values of `for _, it := range s.items`.
    // 24: chains of calls read what each function or method declares it returns (`blk.toGNU().sparse()`, `NewCatalog().First().Name()`, `c := NewCatalog()` then `c.First().Name()`); a call of a value of a function type is no conversion to it.
    // 25: a named container type (`type Holes []Hole`) says what indexing and ranging over its values give, as a field `[]` of the type.
    // 26: a value made or asserted in place heads a path anywhere in a chain (`v.(*T).f.M()`, `(&T{}).f.M()`).
    // 27: package-level capitalised types are flagged `exported` (CallGroup.exported), as functions are.
    // 28: a `//go:build ignore` file is kept apart from its own package's files only: what it imports is built as for any program (`fmt.Fprintf` there was ambiguous).
    version: '28',
  },
  ['references'],
);

/** The data of `rust` (languages/rust.ts). */
export const RUST = builtin(
  {
    id: 'rust',
    extensions: ['.rs'],
    grammar: 'tree-sitter-rust.wasm',
    grammarPackage: { name: 'tree-sitter-rust', version: '0.24.0' },
    // 2: `impl X for dyn Error + Send` belongs to `Error`, not to the folded bound list.
    // 3: code graph references (calls, `use`, `impl Trait for X`, macros' calls).
    // 4: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped.
    // 5: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 6: inline mods: a plain call in a function of an inline `mod` is the mod's own item of the name when it has one (it was ambiguous beside a file-level item of the name); a path into an inline mod (`inner::helper()`) stays a path into the file module.
    // 7: attributes that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 8: only `pub` items are flagged exported (`pub(crate)`, `pub(super)`, `pub(in path)` stay in the crate: dead code may list them).
    version: '8',
  },
  ['references'],
);

/** The data of `php` (languages/php.ts). */
export const PHP = builtin(
  {
    id: 'php',
    extensions: ['.php'],
    interpreters: ['php'],
    grammar: 'tree-sitter-php.wasm',
    grammarPackage: { name: 'tree-sitter-php', version: '0.24.2' },
    // 2: code graph references.
    // 4: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; `super(...)` constructs the superclass only (never an interface or a class above it).
    // 5: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 6: `parent::m()` is looked up in the class `extends` names (a `super` receiver with its type), never in a trait the class uses itself.
    // 7: `parent::__construct()` depends on its class's name, so a parent class added later in another file re-resolves it; a class with no parent in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 8: attributes that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 9: callables written as data in call arguments (`[$this, 'boot']`, `[Foo::class, 'm']`, `'trim_all'` where a function takes a callable) are uses of what they name.
    // 10: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    version: '10',
  },
  ['references'],
);

/** The data of `ruby` (languages/ruby.ts). */
export const RUBY = builtin(
  {
    id: 'ruby',
    extensions: ['.rb'],
    interpreters: ['ruby', 'jruby'],
    grammar: 'tree-sitter-ruby.wasm',
    grammarPackage: { name: 'tree-sitter-ruby', version: '0.23.1' },
    // 2: code graph references.
    // 3: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 4: a module mixed in by a computed expression (`include make_mod()`) and a computed superclass are bases of unknown members (a call they may answer is no longer an earlier base's).
    // 5: `send(:m)`, `public_send(:m)`, `try(:m)` call the method the symbol names; `each(&:m)` calls it on each yielded value.
    // 6: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    version: '6',
  },
  ['references'],
);

/** The data of `csharp` (languages/csharp.ts). */
export const CSHARP = builtin(
  {
    id: 'c_sharp',
    extensions: ['.cs'],
    grammar: 'tree-sitter-c_sharp.wasm',
    grammarPackage: { name: 'tree-sitter-c-sharp', version: '0.23.5' },
    // 4: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; `super(...)` constructs the superclass only (never an interface or a class above it); an inherited method with as many parameters and other parameter types makes a call ambiguous.
    // 5: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 6: `base.M()` looks in the first base only; a base's `private` methods (DefinitionFlag `private`) are not inherited; a call only a `params` method takes is unresolved where a base outside the codebase may declare a fixed-arity overload.
    // 7: interfaces are flagged (DefinitionFlag `interface`): a class whose base list names one first has `object` as its superclass, so its `base.M()` and `: base(…)` stay unresolved (they targeted the interface).
    // 8: the first entry of a base list is `inherits` or `implements` by the declaration it resolves to (an interface: implements; unresolved: inherits as written); `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 9: the parts of a `partial` class (DefinitionFlag `partial`), in any file, are one class: a call of a member another part declares resolves (it was not-found), a part's bases are the class's.
    // 10: extension methods (`static int Twice(this Foo x)`: a `receiver` binding): `f.Twice()` on a class without a member `Twice` is the extension method that applies, from the file's namespace, then the namespaces around it and its `using`s.
    // 11: attributes that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 12: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 13: fields and properties of a class type are `field` bindings (`member` private for private ones, by default too): `this.store.Get()` in a class with bases, `store` not its own, is the class a base declares it of (it was dynamic), never in a `partial` class, nor through a private field or two bases declaring different classes.
    // 14: a base's field or property named by its bare name (`store.Get()` in a subclass) is typed by its declared class, as Java's is (it was not-found, which no callers answer counts).
    version: '14',
  },
  ['references'],
);

/** The data of `kotlin` (languages/kotlin.ts). */
export const KOTLIN = builtin(
  {
    id: 'kotlin',
    extensions: ['.kt', '.kts'],
    interpreters: ['kotlin'],
    grammar: 'tree-sitter-kotlin.wasm',
    grammarPackage: { name: '@tree-sitter-grammars/tree-sitter-kotlin', version: '1.1.0' },
    // 3: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; `super(...)` constructs the superclass only (never an interface or a class above it); an inherited method with as many parameters and other parameter types makes a call ambiguous.
    // 4: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 5: secondary constructors (methods named like their class) are no members of a subclass: `Base` inside a subclass of Base is the class.
    // 6: a local function inside a lambda is no name of the file (DefinitionFlag `enclosed`).
    // 7: a base's `private` functions (DefinitionFlag `private`) are not inherited; a call only a `vararg` function takes is unresolved where a base outside the codebase may declare a fixed-arity overload; a qualified name whose head names nothing in scope starts at a package.
    // 8: `super<Named>.m()` is looked up in the named supertype (a `super` receiver with its type).
    // 9: interfaces are flagged (DefinitionFlag `interface`); a supertype written without a call is `inherits` or `implements` by the declaration it resolves to (unresolved: implements as written), so a class without a primary constructor has its superclass for `super(…)`; `super(…)` depends on its class's name, so a superclass added later in another file re-resolves it; a class with no superclass in the codebase leaves it unresolved as external (it was not-found when the class named none).
    // 10: extension functions (`fun Foo.ext()`: a `receiver` binding): `f.ext()` on a class without a member `ext` is the extension that applies, in Kotlin's order; in an extension's body the extended class is the implicit receiver (`this.m()`, `m()` were dynamic).
    // 11: companion objects (DefinitionFlag `companion`): a plain name a class and its bases do not define is a member of its companion or of a base's (it was the package's function of the name); `Foo.create()` is Foo's companion's.
    // 12: a member of an interface's companion object leaves a plain call of the name in an implementing class ambiguous (it was the companion's).
    // 13: annotations that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 14: bound references passed as arguments (`this::show`, `c::take`, `B::hide`: navigations written with `::`) are references of the member.
    // 15: a value made by a call of an outside name read as a function's (`module = import_module(name)`, lowercase) is of unknown type: its calls are dynamic, not external (LanguageGraph.constructsByCall).
    // 16: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    // 17: properties of a class type (body properties, `val`/`var` constructor parameters) are `field` bindings (`member` private for private ones): `this.store.get()` and `store.get()` in a subclass are the class a supertype declares the property of (they were dynamic and not-found), never through a private property or where two supertypes declare different classes.
    version: '17',
  },
  ['references'],
);

/** The data of `scala` (languages/scala.ts). */
export const SCALA = builtin(
  {
    id: 'scala',
    extensions: ['.scala', '.sc'],
    interpreters: ['scala'],
    grammar: 'tree-sitter-scala.wasm',
    grammarPackage: { name: 'tree-sitter-scala', version: '0.24.0' },
    // 4: shared scope rules: a name bound again without a type (an import, a nested definition) is untyped; an inherited method with as many parameters and other parameter types makes a call ambiguous.
    // 5: a base whose lookup has several candidates makes a call through it ambiguous (it was external, which callers do not count); a class met twice in a search (an interface two others extend) adds nothing the second time; constructors are no members of a subclass.
    // 6: a def in a block is local to it: no member of the class or object around (DefinitionFlag `enclosed`).
    // 7: a base's `private` defs (DefinitionFlag `private`) are not inherited; a call only a repeated-parameter def takes is unresolved where a base outside the codebase may declare a fixed-arity overload.
    // 8: `super[T].m()` is looked up in the named parent (a `super` receiver with its type; it was unresolved).
    // 9: a trait mixed in later overrides what an earlier base defines (LanguageGraph.mixinsOverride): a member found in an earlier base is ambiguous when a later one (or a base of it) defines the name otherwise or is outside the codebase (`class D extends Base with V`: `m()` was Base's where V overrides it).
    // 10: annotations that code reading them may act on (a framework's handler, a test) are `decorator` bindings of the definition, which is flagged decorated (callers answers are a lower bound; dead code leaves it out).
    // 11: a value made by a call of an outside name read as a function's (`module = import_module(name)`, lowercase) is of unknown type: its calls are dynamic, not external (LanguageGraph.constructsByCall).
    // 12: a member no codebase class above defines, on a class with a base unresolved for another cause than being outside the codebase (a computed base: `class Manager(BaseManager.from_queryset(QuerySet))`, `extends mixin(Base)`; a base found nowhere), is dynamic (it was external, which callers answers do not count).
    version: '12',
  },
  ['references'],
);

/** The data of `lua` (languages/lua.ts). */
export const LUA = builtin(
  {
    id: 'lua',
    extensions: ['.lua'],
    interpreters: ['lua', 'luajit'],
    grammar: 'tree-sitter-lua.wasm',
    grammarPackage: { name: '@tree-sitter-grammars/tree-sitter-lua', version: '0.4.1' },
    // 2: functions in table constructors; 3: code graph references.
    // 4: a field stored on an instance of a table (`self.x = …` in `function T:m()`, or on a local made with `setmetatable(…, T)`) hides T's method x: `self:x()` in the file is dynamic (it was T:x).
    version: '4',
  },
  ['references'],
);

/** The data of `bash` (languages/bash.ts). */
export const BASH = builtin(
  {
    id: 'bash',
    extensions: ['.sh', '.bash'],
    interpreters: ['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh'],
    grammar: 'tree-sitter-bash.wasm',
    grammarPackage: { name: 'tree-sitter-bash', version: '0.25.1' },
    // 2: code graph references.
    version: '3',
  },
  ['references'],
);

/** The built-in languages, in registry order (as `builtinLanguages`). */
export const BUILTIN_LANGUAGES: readonly LanguageDefinition[] = Object.freeze([PYTHON, JAVA, C, CPP, TYPESCRIPT, TSX, JAVASCRIPT, GO, RUST, PHP, RUBY, CSHARP, KOTLIN, SCALA, LUA, BASH]);

/** A registry of the built-in languages that loads none of their visitors (see above). */
export function createBuiltinRegistry(): LanguageRegistry {
  return new LanguageRegistry(BUILTIN_LANGUAGES);
}
