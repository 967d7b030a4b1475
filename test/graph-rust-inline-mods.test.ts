// Rust inline mods share their file's module in the graph (their items' qualified names say which
// mod holds them). A plain call in a function of a mod is that mod's own item of the name when it
// has one: an item shadows what a glob brings, and importing a name the mod defines does not
// compile. So a name defined both at file level and in `mod inner` is each one's own in its own
// functions. Unresolved, as they must be: such a name through a path (`super::helper`,
// `self::helper`, `inner::helper`, which the graph reads as paths into the file module), in a
// method (its qualified name leads with its type, not its mod) and in a mod that has no item of
// the name (`mod tests` with `use super::*`).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

const FILES: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "shop"\n',
  'src/lib.rs': `pub fn helper() {}

pub fn run() {
    helper();
    inner::helper();
    fn nested() {
        helper();
    }
}

mod inner {
    pub fn helper() {}

    pub fn go() {
        helper();
        super::helper();
        self::helper();
        let f = || helper();
    }

    pub struct S;

    impl S {
        pub fn m(&self) {
            helper();
        }
    }

    mod deeper {
        fn helper() {}

        fn down() {
            helper();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_here() {}

    #[test]
    fn t() {
        helper();
        only_here();
    }
}
`,
};

const EXPECTED = [
  'src/lib.rs:4 calls shop::run -> shop::helper [helper] local',
  'src/lib.rs:5 calls shop::run -> ∅ [helper] unresolved:ambiguous',
  'src/lib.rs:7 calls shop::run::nested -> shop::helper [helper] local',
  'src/lib.rs:15 calls shop::inner::go -> shop::inner::helper [helper] local',
  'src/lib.rs:16 calls shop::inner::go -> ∅ [helper] unresolved:ambiguous',
  'src/lib.rs:17 calls shop::inner::go -> ∅ [helper] unresolved:ambiguous',
  // A closure is transparent: its call is go's.
  'src/lib.rs:18 calls shop::inner::go -> shop::inner::helper [helper] local',
  'src/lib.rs:25 calls shop::inner::S::m -> ∅ [helper] unresolved:ambiguous',
  'src/lib.rs:33 calls shop::inner::deeper::down -> shop::inner::deeper::helper [helper] local',
  'src/lib.rs:46 calls shop::tests::t -> ∅ [helper] unresolved:ambiguous',
  'src/lib.rs:47 calls shop::tests::t -> shop::tests::only_here [only_here] local',
];

describe.each(BACKENDS)('rust inline mods on %s', (backend) => {
  it("resolves a plain name in a mod's function to the mod's own item", async () => {
    const graph = await openGraph(FILES, backend);
    try {
      expect(await graph.lines({ kind: 'calls' })).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });

  it('keeps those calls exact when a mod gains or loses its own item', async () => {
    await expectExactThrough(FILES, backend, [
      // inner's helper goes: go's plain call is left with the file's (ambiguous no more).
      (f) => void (f['src/lib.rs'] = f['src/lib.rs']!.replace('mod inner {\n    pub fn helper() {}\n', 'mod inner {\n')),
      // tests gets its own helper.
      (f) => void (f['src/lib.rs'] = f['src/lib.rs']!.replace('    fn only_here() {}\n', '    fn only_here() {}\n\n    fn helper() {}\n')),
      // The file-level helper goes.
      (f) => void (f['src/lib.rs'] = f['src/lib.rs']!.replace('pub fn helper() {}\n\npub fn run', 'pub fn run')),
    ]);
  });
});
