// The Lua code graph on a small shop (test/fixtures/graph/lua): every edge, exactly. Each rule
// shows here and would change a line if it broke: `require("shop.catalog")` names shop/catalog.lua
// and `require("shop")` shop/init.lua; `m.f()` is the function of the table the module returns
// (`Catalog.new` through `return Catalog`, `shop.start()`); `M.f()` and `self:m()` in a method
// `function T:m()` are found by qualified name in the file (tables are no definitions); globals are
// global: a global function (`report`) and a global table's function (`Registry.register`) defined
// in another file resolve, a global defined twice (`warn`) is ambiguous, and a name the file
// declares `local` only later is a global there (`later()`); local functions, recursion, and what
// stays unresolved: a module outside the codebase (`cjson`), though util.lua has an `encode`,
// a callable parameter (`fn(item)`), a local holding a function (`fib`), methods of values of
// unknown type (`item:save()`, `c:add()`), chained calls, Lua's builtins.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'main.lua:1 imports main -> shop [shop] import',
  'main.lua:2 imports main -> shop/catalog [shop.catalog] import',
  'main.lua:5 calls main.run -> shop/catalog.Catalog.new [new] import',
  'main.lua:6 calls main.run -> ∅ [add] unresolved:dynamic',
  'main.lua:7 calls main.run -> shop.M.start [start] import',
  'main.lua:8 calls main.run -> util.Registry.register [register] global',
  'main.lua:9 calls main.run -> util.report [report] global',
  'main.lua:10 calls main.run -> util.report [report] global',
  'main.lua:11 calls main.run -> ∅ [warn] unresolved:ambiguous',
  'main.lua:13 contains main.run -> main.run.fib [fib] local',
  'main.lua:15 calls main.run.fib -> ∅ [fib] unresolved:local-variable',
  'main.lua:17 contains main.run -> main.run.fact [fact] local',
  'main.lua:19 calls main.run.fact -> main.run.fact [fact] local',
  'main.lua:21 calls main.run -> main.run.fact [fact] local',
  'main.lua:22 calls main.run -> ∅ [each] unresolved:dynamic',
  'main.lua:22 calls main.run -> ∅ [print] unresolved:builtin',
  'main.lua:23 calls main.run -> ∅ [later] unresolved:not-found',
  'main.lua:28 calls main -> main.run [run] local',
  'shop/catalog.lua:1 imports shop/catalog -> shop/model [shop.model] import',
  'shop/catalog.lua:2 imports shop/catalog -> util [util] import',
  'shop/catalog.lua:3 imports shop/catalog -> ∅ [cjson] unresolved:external',
  'shop/catalog.lua:8 calls shop/catalog.normalize -> ∅ [lower] unresolved:dynamic',
  'shop/catalog.lua:8 calls shop/catalog.normalize -> util.M.trim [trim] import',
  'shop/catalog.lua:12 calls shop/catalog.Catalog.new -> ∅ [setmetatable] unresolved:builtin',
  'shop/catalog.lua:16 calls shop/catalog.Catalog.add -> shop/model.Model.new [new] import',
  'shop/catalog.lua:16 calls shop/catalog.Catalog.add -> shop/catalog.normalize [normalize] local',
  'shop/catalog.lua:17 calls shop/catalog.Catalog.add -> ∅ [save] unresolved:dynamic',
  'shop/catalog.lua:18 calls shop/catalog.Catalog.add -> shop/catalog.Catalog.log [log] self',
  'shop/catalog.lua:19 calls shop/catalog.Catalog.add -> ∅ [insert] unresolved:builtin',
  'shop/catalog.lua:20 calls shop/catalog.Catalog.add -> ∅ [encode] unresolved:external',
  'shop/catalog.lua:24 calls shop/catalog.Catalog.log -> ∅ [print] unresolved:builtin',
  'shop/catalog.lua:25 calls shop/catalog.Catalog.log -> util.report [report] global',
  'shop/catalog.lua:29 calls shop/catalog.Catalog.each -> ∅ [ipairs] unresolved:builtin',
  'shop/catalog.lua:30 calls shop/catalog.Catalog.each -> ∅ [fn] unresolved:parameter',
  'shop/catalog.lua:36 calls shop/catalog.Catalog.count -> shop/catalog.Catalog.count [count] self',
  'shop/catalog.lua:38 calls shop/catalog.Catalog.count -> shop/model.Model.new [new] import',
  'shop/catalog.lua:38 calls shop/catalog.Catalog.count -> ∅ [save] unresolved:dynamic',
  'shop/init.lua:1 imports shop -> shop/catalog [shop.catalog] import',
  'shop/init.lua:6 calls shop.M.start -> shop/catalog.Catalog.new [new] import',
  'shop/model.lua:5 calls shop/model.Model.new -> ∅ [setmetatable] unresolved:builtin',
  'shop/model.lua:10 calls shop/model.Model.save -> shop/model.Model.validate [validate] self',
  'shop/model.lua:19 calls shop/model.warn -> ∅ [print] unresolved:builtin',
  'util.lua:4 calls util.M.trim -> ∅ [gsub] unresolved:dynamic',
  'util.lua:8 calls util.M.encode -> ∅ [tostring] unresolved:builtin',
  'util.lua:12 calls util.report -> util.M.trim [trim] local',
  'util.lua:16 calls util.warn -> util.report [report] local',
  'util.lua:23 calls util.Registry.register -> ∅ [insert] unresolved:builtin',
];

describe.each(BACKENDS)('lua code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('lua'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});
