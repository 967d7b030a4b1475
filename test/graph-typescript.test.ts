// The JavaScript/TypeScript code graph on test/fixtures/graph/typescript: every edge, exactly.
// Rules shown: named, default and aliased imports, `export … from` re-exports and `export *`,
// `import * as`, CommonJS `require` (whole module and destructured), a folder's `index` file,
// the default import that is not the module's first export (`Registry`, not `helper`),
// constructors (`new Registry()` → its `constructor`; `new Sub()` without one → the class),
// static calls, `this`/`super`, typed parameters and `new`-typed locals, recursion through a
// `const` arrow function; unresolved: a package outside the codebase even where the codebase has
// a function of that name (`debounce`), calls of parameters, methods of call results, builtins.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'src/legacy.js:5 calls src/legacy.go -> src/registry.helper [help] import',
  'src/legacy.js:6 calls src/legacy.go -> src/registry.helper [helper] import',
  'src/main.ts:1 imports src/main -> src/registry [./registry] import',
  'src/main.ts:2 imports src/main -> src/util/index [./util] import',
  'src/main.ts:3 imports src/main -> src/util/strings [./util/strings] import',
  'src/main.ts:4 imports src/main -> ∅ [some-lib] unresolved:external',
  'src/main.ts:6 inherits src/main.Sub -> src/registry.Registry [Registry] import',
  'src/main.ts:7 contains src/main.Sub -> src/main.Sub.add [add] local',
  'src/main.ts:8 calls src/main.Sub.add -> src/registry.Registry.add [add] super',
  'src/main.ts:9 calls src/main.Sub.add -> src/registry.Registry.check [check] self',
  'src/main.ts:14 calls src/main.run -> src/registry.Registry.constructor [Registry] import',
  'src/main.ts:15 calls src/main.run -> src/registry.Registry.add [add] typed',
  'src/main.ts:16 calls src/main.run -> src/registry.Registry.check [check] typed',
  'src/main.ts:17 calls src/main.run -> src/registry.Registry.create [create] import',
  'src/main.ts:17 calls src/main.run -> src/registry.Registry.reset [reset] import', // create() declares it returns a Registry
  'src/main.ts:18 calls src/main.run -> src/registry.helper [helper] import',
  'src/main.ts:19 calls src/main.run -> src/registry.helper [h] import',
  'src/main.ts:20 calls src/main.run -> src/util/strings.slug [slug] import',
  'src/main.ts:21 calls src/main.run -> src/util/strings.slug [slug] import',
  'src/main.ts:22 calls src/main.run -> ∅ [debounce] unresolved:external',
  'src/main.ts:23 calls src/main.run -> ∅ [cb] unresolved:parameter',
  'src/main.ts:24 calls src/main.run -> src/main.Sub [Sub] local',
  'src/main.ts:24 calls src/main.run -> src/main.Sub.add [add] typed',
  'src/main.ts:25 calls src/main.run -> src/registry.helper [helper] import',
  'src/main.ts:25 calls src/main.run -> ∅ [map] unresolved:dynamic',
  'src/main.ts:26 calls src/main.run -> ∅ [setTimeout] unresolved:builtin',
  'src/main.ts:29 calls src/main.countdown -> src/main.countdown [countdown] local',
  'src/registry.ts:8 contains src/registry.Registry -> src/registry.Registry.constructor [constructor] local',
  'src/registry.ts:9 calls src/registry.Registry.constructor -> src/registry.Registry.reset [reset] self',
  'src/registry.ts:12 contains src/registry.Registry -> src/registry.Registry.create [create] local',
  'src/registry.ts:13 calls src/registry.Registry.create -> src/registry.Registry.constructor [Registry] local',
  'src/registry.ts:16 contains src/registry.Registry -> src/registry.Registry.add [add] local',
  'src/registry.ts:17 calls src/registry.Registry.add -> src/registry.Registry.check [check] self',
  'src/registry.ts:20 contains src/registry.Registry -> src/registry.Registry.check [check] local',
  'src/registry.ts:24 contains src/registry.Registry -> src/registry.Registry.reset [reset] local',
  'src/util/index.ts:1 imports src/util/index -> src/registry [../registry] import',
  'src/util/index.ts:2 imports src/util/index -> src/util/strings [./strings] import',
  'src/util/strings.ts:1 calls src/util/strings.slug -> ∅ [toLowerCase] unresolved:dynamic',
];

describe.each(BACKENDS)('typescript/javascript code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('typescript'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});
