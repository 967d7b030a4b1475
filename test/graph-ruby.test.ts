// The Ruby code graph on a small shop (test/fixtures/graph/ruby): every edge, exactly. Each rule
// shows here and would change a line if it broke: constants looked up through the enclosing
// modules (`Logger` in `module Shop` is Shop::Logger; at the top level it is Ruby's) and across
// files (`Shop::Product` from bin/run.rb), a compact `class Shop::Catalog` (its body does not see
// Shop's constants: `Product` there is not found, as in Ruby), a class reopened in another file
// (`find`, defined in catalog_ext.rb, from catalog.rb's `build`), `Foo.new` (Product#initialize,
// else the class), class methods inherited from a base in another file (`Shop::Product.create`),
// `include` and `extend` as bases (`tag` from Taggable, `Shop::Catalog.find_all` from Finders),
// `super` (the base's method of the same name), implicit and explicit `self`, a local assigned
// `Foo.new`, `require` through `lib/` and `require_relative` as imports, recursion, and what stays
// unresolved: `require 'logger'` (outside the codebase, though the codebase has a Shop::Logger),
// a callable parameter (`task.call`), chained calls, calls on `self` inside a block given to a
// method that may run it elsewhere (`with_retry { find(name) }`; `each` and lambdas keep it),
// methods that macros define (`attrs`), Kernel's methods (`puts`, `send`: builtins; the method
// `send(:build)` names is a call of its own, on self), and a call of a method named like a
// constant (`Shop("mug")`), which is never the constant.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'bin/run.rb:1 imports bin/run -> lib/shop [../lib/shop] import',
  'bin/run.rb:4 calls main -> Shop::Catalog [Catalog] global',
  'bin/run.rb:5 calls main -> Shop::Catalog#build [build] typed',
  'bin/run.rb:6 calls main -> Shop::Finders#find_all [find_all] global',
  'bin/run.rb:7 calls main -> helper [helper] local',
  'bin/run.rb:11 calls helper -> ∅ [find] unresolved:dynamic',
  'bin/run.rb:12 calls helper -> Shop::Model#create [create] global',
  'bin/run.rb:12 calls helper -> ∅ [save] unresolved:dynamic',
  'bin/run.rb:13 calls helper -> ∅ [Shop] unresolved:not-found',
  'bin/run.rb:16 calls bin/run -> main [main] local',
  'lib/shop.rb:1 imports lib/shop -> ∅ [logger] unresolved:external',
  'lib/shop.rb:2 imports lib/shop -> lib/shop/models/product [shop/models/product] import',
  'lib/shop.rb:3 imports lib/shop -> lib/shop/catalog [./shop/catalog] import',
  'lib/shop.rb:4 imports lib/shop -> lib/shop/catalog_ext [./shop/catalog_ext] import',
  'lib/shop.rb:6 calls lib/shop -> ∅ [Logger] unresolved:builtin',
  'lib/shop.rb:9 contains Shop -> Shop#logger [logger] local',
  'lib/shop.rb:10 calls Shop#logger -> Shop::Logger [Logger] self',
  'lib/shop/catalog.rb:1 imports lib/shop/catalog -> lib/shop/models/product [./models/product] import',
  'lib/shop/catalog.rb:2 imports lib/shop/catalog -> lib/shop/finders [./finders] import',
  'lib/shop/catalog.rb:5 implements Shop::Catalog -> Shop::Finders [Finders] global',
  'lib/shop/catalog.rb:7 contains Shop::Catalog -> Shop::Catalog#build [build] local',
  'lib/shop/catalog.rb:8 calls Shop::Catalog#build -> Shop::Product#initialize [Product] global',
  'lib/shop/catalog.rb:9 calls Shop::Catalog#build -> Shop::Product#describe [describe] typed',
  'lib/shop/catalog.rb:10 calls Shop::Catalog#build -> Shop::Model#create [create] global',
  'lib/shop/catalog.rb:10 calls Shop::Catalog#build -> ∅ [describe] unresolved:dynamic',
  'lib/shop/catalog.rb:11 calls Shop::Catalog#build -> ∅ [Product] unresolved:not-found',
  'lib/shop/catalog.rb:12 calls Shop::Catalog#build -> ∅ [find] unresolved:dynamic',
  'lib/shop/catalog.rb:12 calls Shop::Catalog#build -> Shop::Catalog#with_retry [with_retry] self',
  'lib/shop/catalog.rb:13 calls Shop::Catalog#build -> ∅ [each] unresolved:dynamic',
  'lib/shop/catalog.rb:13 calls Shop::Catalog#build -> Shop::Catalog#find [find] self',
  'lib/shop/catalog.rb:14 calls Shop::Catalog#build -> Shop::Catalog#find [find] self',
  'lib/shop/catalog.rb:14 calls Shop::Catalog#build -> Shop::Catalog#run [run] self',
  'lib/shop/catalog.rb:15 calls Shop::Catalog#build -> Shop::Catalog#find [find] self',
  'lib/shop/catalog.rb:18 contains Shop::Catalog -> Shop::Catalog#with_retry [with_retry] local',
  'lib/shop/catalog.rb:21 calls Shop::Catalog#with_retry -> Shop::Catalog#with_retry [with_retry] self',
  'lib/shop/catalog.rb:24 contains Shop::Catalog -> Shop::Catalog#run [run] local',
  'lib/shop/catalog.rb:25 calls Shop::Catalog#run -> ∅ [call] unresolved:dynamic',
  'lib/shop/catalog.rb:26 calls Shop::Catalog#run -> Shop::Catalog#build [build] self',
  'lib/shop/catalog.rb:26 calls Shop::Catalog#run -> ∅ [send] unresolved:builtin',
  'lib/shop/catalog_ext.rb:2 contains Shop -> Shop::Catalog [Catalog] local',
  'lib/shop/catalog_ext.rb:3 contains Shop::Catalog -> Shop::Catalog#find [find] local',
  'lib/shop/catalog_ext.rb:4 calls Shop::Catalog#find -> ∅ [class] unresolved:builtin',
  'lib/shop/catalog_ext.rb:4 calls Shop::Catalog#find -> ∅ [find_all] unresolved:dynamic',
  'lib/shop/catalog_ext.rb:4 calls Shop::Catalog#find -> ∅ [first] unresolved:dynamic',
  'lib/shop/catalog_ext.rb:5 calls Shop::Catalog#find -> Shop::Logger [Logger] self',
  'lib/shop/catalog_ext.rb:5 calls Shop::Catalog#find -> Shop::Logger#info [info] typed',
  'lib/shop/finders.rb:2 contains Shop -> Shop::Finders [Finders] local',
  'lib/shop/finders.rb:3 contains Shop::Finders -> Shop::Finders#find_all [find_all] local',
  'lib/shop/logger.rb:2 contains Shop -> Shop::Logger [Logger] local',
  'lib/shop/logger.rb:3 contains Shop::Logger -> Shop::Logger#info [info] local',
  'lib/shop/logger.rb:4 calls Shop::Logger#info -> ∅ [puts] unresolved:builtin',
  'lib/shop/models/model.rb:2 contains Shop -> Shop::Model [Model] local',
  'lib/shop/models/model.rb:3 calls Shop::Model -> ∅ [attr_reader] unresolved:builtin',
  'lib/shop/models/model.rb:5 contains Shop::Model -> Shop::Model#initialize [initialize] local',
  'lib/shop/models/model.rb:9 contains Shop::Model -> Shop::Model#save [save] local',
  'lib/shop/models/model.rb:10 calls Shop::Model#save -> Shop::Model#validate [validate] self',
  'lib/shop/models/model.rb:11 calls Shop::Model#save -> Shop::Model#persist [persist] self',
  'lib/shop/models/model.rb:14 contains Shop::Model -> Shop::Model#validate [validate] local',
  'lib/shop/models/model.rb:15 calls Shop::Model#validate -> ∅ [any?] unresolved:dynamic',
  'lib/shop/models/model.rb:15 calls Shop::Model#validate -> ∅ [attrs] unresolved:not-found',
  'lib/shop/models/model.rb:18 contains Shop::Model -> Shop::Model#create [create] local',
  'lib/shop/models/model.rb:19 calls Shop::Model#create -> ∅ [new] unresolved:builtin',
  'lib/shop/models/model.rb:22 calls Shop::Model -> ∅ [private] unresolved:builtin',
  'lib/shop/models/model.rb:24 contains Shop::Model -> Shop::Model#persist [persist] local',
  'lib/shop/models/model.rb:25 calls Shop::Model#persist -> ∅ [info] unresolved:dynamic',
  'lib/shop/models/model.rb:25 calls Shop::Model#persist -> Shop#logger [logger] local',
  'lib/shop/models/product.rb:1 imports lib/shop/models/product -> lib/shop/models/model [./model] import',
  'lib/shop/models/product.rb:2 imports lib/shop/models/product -> lib/shop/taggable [../taggable] import',
  'lib/shop/models/product.rb:5 contains Shop -> Shop::Product [Product] local',
  'lib/shop/models/product.rb:5 inherits Shop::Product -> Shop::Model [Model] self',
  'lib/shop/models/product.rb:6 implements Shop::Product -> Shop::Taggable [Taggable] self',
  'lib/shop/models/product.rb:8 contains Shop::Product -> Shop::Product#initialize [initialize] local',
  'lib/shop/models/product.rb:9 calls Shop::Product#initialize -> Shop::Model#initialize [initialize] super',
  'lib/shop/models/product.rb:13 contains Shop::Product -> Shop::Product#describe [describe] local',
  'lib/shop/models/product.rb:14 calls Shop::Product#describe -> Shop::Taggable#tag [tag] self',
  'lib/shop/models/product.rb:15 calls Shop::Product#describe -> Shop::Model#save [save] self',
  'lib/shop/models/product.rb:16 calls Shop::Product#describe -> Shop::Product#price [price] self',
  'lib/shop/models/product.rb:19 contains Shop::Product -> Shop::Product#price [price] local',
  'lib/shop/models/product.rb:20 calls Shop::Product#price -> ∅ [length] unresolved:dynamic',
  'lib/shop/taggable.rb:2 contains Shop -> Shop::Taggable [Taggable] local',
  'lib/shop/taggable.rb:3 contains Shop::Taggable -> Shop::Taggable#tag [tag] local',
  'lib/shop/taggable.rb:4 calls Shop::Taggable#tag -> Shop::Taggable#tags [tags] self',
  'lib/shop/taggable.rb:7 contains Shop::Taggable -> Shop::Taggable#tags [tags] local',
];

describe.each(BACKENDS)('ruby code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('ruby'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});
