// The Rust code graph stays exact through updates: after random edit sequences over one crate's
// modules, whose function, type and trait names collide on purpose, `update()` leaves exactly the
// graph a fresh build gives, in every body mode. The edits move what Rust's rules read across
// files: a module declared or not (`mod a;` in lib.rs), a `use` of a function, a type, a module or
// a glob changed, a function moved between modules, an `impl` or a trait impl added or removed
// (typed receivers and trait default methods), an inline `mod` (whose functions call names it
// and the file may both define), a file moved or deleted.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkRandomEdits } from './helpers/edit-sequence.js';

const FILES = ['Cargo.toml', 'src/lib.rs', 'src/a.rs', 'src/b.rs'];
const MODULES = ['a', 'b'];
const FN = ['f', 'g'];
const TYPES = ['S', 'T'];

const item = fc.oneof(
  fc.record({ t: fc.constant('mod' as const), m: fc.constantFrom(...MODULES) }),
  fc.record({ t: fc.constant('use' as const), path: fc.constantFrom('crate::a::f', 'crate::b::g', 'crate::a::S', 'super::b::T', 'crate::b', 'crate::a::*', 'std::fmt::Display', 'ext::f') }),
  fc.record({
    t: fc.constant('fn' as const),
    n: fc.constantFrom(...FN),
    calls: fc.array(fc.constantFrom('f()', 'g()', 'a::f()', 'b::g()', 'crate::a::f()', 'S::new()', 'S::new().m()', 'T::new().d()', 'self::f()'), { maxLength: 2 }),
  }),
  fc.record({ t: fc.constant('struct' as const), n: fc.constantFrom(...TYPES) }),
  fc.record({ t: fc.constant('impl' as const), n: fc.constantFrom(...TYPES), calls: fc.array(fc.constantFrom('self.m()', 'self.d()', 'Self::new()', 'f()'), { maxLength: 2 }) }),
  fc.record({ t: fc.constant('trait' as const) }),
  fc.record({ t: fc.constant('implTrait' as const), n: fc.constantFrom(...TYPES) }),
  fc.record({ t: fc.constant('inline' as const), n: fc.constantFrom(...FN), calls: fc.array(fc.constantFrom('super::f()', 'f()', 'g()', 'self::g()'), { minLength: 1, maxLength: 2 }) }),
);
type Item = typeof item extends fc.Arbitrary<infer T> ? T : never;

function render(i: Item): string {
  switch (i.t) {
    case 'mod':
      return `pub mod ${i.m};`;
    case 'use':
      return `use ${i.path};`;
    case 'fn':
      return `pub fn ${i.n}() -> i32 {\n${i.calls.map((c) => `    ${c};\n`).join('')}    1\n}`;
    case 'struct':
      return `pub struct ${i.n};`;
    case 'impl':
      return `impl ${i.n} {\n    pub fn new() -> Self {\n        ${i.n}\n    }\n    pub fn m(&self) -> i32 {\n${i.calls.map((c) => `        ${c};\n`).join('')}        2\n    }\n}`;
    case 'trait':
      return 'pub trait D {\n    fn d(&self) -> i32 {\n        3\n    }\n}';
    case 'implTrait':
      return `impl D for ${i.n} {}`;
    case 'inline':
      return `mod inner {\n    pub fn ${i.n}() -> i32 {\n${i.calls.map((c) => `        ${c};\n`).join('')}        1\n    }\n}`;
  }
}

const rustFile = fc.array(item, { maxLength: 4 }).map((items) => `${items.map(render).join('\n\n')}\n`);
// Cargo.toml is written and deleted like the others: the crate's name changes with it.
const content = fc.oneof({ weight: 6, arbitrary: rustFile }, { weight: 1, arbitrary: fc.constant('[package]\nname = "shop"\nversion = "0.1.0"\n') });

describe('the Rust code graph after updates equals a fresh build', () => {
  it('random modules, uses, functions, types, impls and traits over colliding names', async () => {
    await checkRandomEdits('rust', FILES, content, 30);
  });
});
