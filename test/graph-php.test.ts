// The PHP code graph on a small shop (test/fixtures/graph/php): every edge, exactly. Each rule
// shows here and would change a line if it broke: namespaces as modules shared by their files
// (`Model` from Product.php is `package`), `use` of classes, namespaces and functions, grouped
// (`use App\Models\{Model, Priced}`, `use function App\Util\{slug, retry as again}`) and aliased
// (`use App\Models\Product as Item`), qualified and fully qualified names (`Models\Product::create`,
// `\App\Util\slug()`, `namespace\audit()`), PHP's global fallback for unqualified functions
// (`format_price` from App\Util is the global one; `Money(5)` is, `new Money(5)` is not: classes
// have no fallback), `new` (the class's `__construct`, else the
// class), `new static`, static calls, `$this->`, `self::`, `static::`, `parent::__construct()`,
// typed parameters, promoted constructor parameters and properties (`$this->logger->info()`), a
// catch variable, `$x = Item::create()` typed by `create(): static`, bases in another file (a
// trait's method through `$product->tag()`, `Model::save` through `Product`), recursion, and what
// stays unresolved: an import of a namespace outside the codebase even where the codebase has a
// class and method of that name (`Vendor\Log\Logger` → `info`), a callable parameter (`$task()`),
// a variable holding a callable, `$this->$method()`, a chained call on a result, `$this` in an
// anonymous class or a static closure, untyped top-level variables, builtins (`\count`,
// `\RuntimeException`). A file with two namespace blocks is a module of its own: names in it are
// followed only outside it.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'helpers.php:5 calls format_price -> ∅ [number_format] unresolved:builtin',
  'helpers.php:10 calls shout -> format_price [format_price] local',
  'helpers.php:10 calls shout -> ∅ [strlen] unresolved:builtin',
  'helpers.php:10 calls shout -> ∅ [strtoupper] unresolved:builtin',
  'helpers.php:15 calls Money -> format_price [format_price] local',
  'index.php:4 imports \\ -> App\\Shop\\Catalog [App\\Shop\\Catalog] import',
  'index.php:6 calls \\ -> App\\Shop\\Catalog [Catalog] import',
  'index.php:7 calls \\ -> ∅ [make] unresolved:dynamic',
  'index.php:8 calls \\ -> ∅ [describe] unresolved:dynamic',
  'index.php:9 calls \\ -> shout [shout] package',
  'index.php:9 calls \\ -> App\\Util\\slug [slug] import',
  'index.php:10 calls \\ -> ∅ [Logger] unresolved:external',
  'index.php:14 calls run -> ∅ [go] unresolved:dynamic',
  'index.php:15 calls run -> ∅ [helper_missing] unresolved:not-found',
  'src/Legacy.php:9 contains Legacy\\A\\Box -> Legacy\\A\\Box::open [open] local',
  'src/Legacy.php:11 calls Legacy\\A\\Box::open -> Legacy\\A\\helper [helper] local',
  'src/Legacy.php:12 calls Legacy\\A\\Box::open -> App\\Util\\slug [slug] import',
  'src/Legacy.php:18 imports /src/Legacy.php -> ∅ [Legacy\\A\\Box] unresolved:external',
  'src/Legacy.php:22 calls Legacy\\B\\unpack -> ∅ [open] unresolved:external',
  'src/Legacy.php:23 calls Legacy\\B\\unpack -> ∅ [Box] unresolved:external',
  'src/Legacy.php:23 calls Legacy\\B\\unpack -> ∅ [open] unresolved:external',
  'src/Models/HasTags.php:6 contains App\\Models\\HasTags -> App\\Models\\HasTags::tag [tag] local',
  'src/Models/HasTags.php:8 calls App\\Models\\HasTags::tag -> App\\Models\\HasTags::tags [tags] self',
  'src/Models/HasTags.php:9 calls App\\Models\\HasTags::tag -> ∅ [remember] unresolved:not-found',
  'src/Models/HasTags.php:12 contains App\\Models\\HasTags -> App\\Models\\HasTags::tags [tags] local',
  'src/Models/Model.php:6 contains App\\Models\\Model -> App\\Models\\Model::__construct [__construct] local',
  'src/Models/Model.php:8 calls App\\Models\\Model::__construct -> App\\Models\\Model::boot [boot] self',
  'src/Models/Model.php:11 contains App\\Models\\Model -> App\\Models\\Model::save [save] local',
  'src/Models/Model.php:13 calls App\\Models\\Model::save -> App\\Models\\Model::validate [validate] self',
  'src/Models/Model.php:14 calls App\\Models\\Model::save -> App\\Models\\Model::persist [persist] self',
  'src/Models/Model.php:17 contains App\\Models\\Model -> App\\Models\\Model::validate [validate] local',
  'src/Models/Model.php:21 contains App\\Models\\Model -> App\\Models\\Model::boot [boot] local',
  'src/Models/Model.php:25 contains App\\Models\\Model -> App\\Models\\Model::persist [persist] local',
  'src/Models/Model.php:27 calls App\\Models\\Model::persist -> ∅ [count] unresolved:builtin',
  'src/Models/Priced.php:6 contains App\\Models\\Priced -> App\\Models\\Priced::price [price] local',
  'src/Models/Product.php:4 imports App\\Models -> App\\Util\\Logger [App\\Util\\Logger] import',
  'src/Models/Product.php:6 implements App\\Models\\Product -> App\\Models\\Priced [Priced] package',
  'src/Models/Product.php:6 inherits App\\Models\\Product -> App\\Models\\Model [Model] package',
  'src/Models/Product.php:8 inherits App\\Models\\Product -> App\\Models\\HasTags [HasTags] package',
  'src/Models/Product.php:10 contains App\\Models\\Product -> App\\Models\\Product::__construct [__construct] local',
  'src/Models/Product.php:12 calls App\\Models\\Product::__construct -> App\\Models\\Model::__construct [__construct] super',
  'src/Models/Product.php:13 calls App\\Models\\Product::__construct -> App\\Util\\Logger::info [info] typed',
  'src/Models/Product.php:16 contains App\\Models\\Product -> App\\Models\\Product::create [create] local',
  'src/Models/Product.php:18 calls App\\Models\\Product::create -> App\\Models\\Product::__construct [Product] local',
  'src/Models/Product.php:21 contains App\\Models\\Product -> App\\Models\\Product::price [price] local',
  'src/Models/Product.php:23 calls App\\Models\\Product::price -> ∅ [strlen] unresolved:builtin',
  'src/Models/Product.php:26 contains App\\Models\\Product -> App\\Models\\Product::describe [describe] local',
  'src/Models/Product.php:28 calls App\\Models\\Product::describe -> App\\Models\\HasTags::tag [tag] self',
  'src/Models/Product.php:29 calls App\\Models\\Product::describe -> App\\Models\\Product::price [price] self',
  'src/Shop/Catalog.php:4 imports App\\Shop -> App\\Models\\Product [App\\Models\\Product] import',
  'src/Shop/Catalog.php:5 imports App\\Shop -> App\\Models\\Product [App\\Models\\Product] import',
  'src/Shop/Catalog.php:6 imports App\\Shop -> App\\Models [App\\Models] import',
  'src/Shop/Catalog.php:7 imports App\\Shop -> ∅ [Vendor\\Log\\Logger] unresolved:external',
  'src/Shop/Catalog.php:8 imports App\\Shop -> App\\Util\\retry [App\\Util\\retry] import',
  'src/Shop/Catalog.php:8 imports App\\Shop -> App\\Util\\slug [App\\Util\\slug] import',
  'src/Shop/Catalog.php:15 contains App\\Shop\\Catalog -> App\\Shop\\Catalog::add [add] local',
  'src/Shop/Catalog.php:17 calls App\\Shop\\Catalog::add -> App\\Models\\Model::save [save] typed',
  'src/Shop/Catalog.php:18 calls App\\Shop\\Catalog::add -> App\\Models\\HasTags::tag [tag] typed',
  'src/Shop/Catalog.php:20 calls App\\Shop\\Catalog::add -> ∅ [info] unresolved:external',
  'src/Shop/Catalog.php:20 calls App\\Shop\\Catalog::add -> App\\Util\\slug [slug] import',
  'src/Shop/Catalog.php:23 contains App\\Shop\\Catalog -> App\\Shop\\Catalog::make [make] local',
  'src/Shop/Catalog.php:25 calls App\\Shop\\Catalog::make -> App\\Models\\Product::__construct [Item] import',
  'src/Shop/Catalog.php:26 calls App\\Shop\\Catalog::make -> App\\Shop\\Catalog::add [add] self',
  'src/Shop/Catalog.php:27 calls App\\Shop\\Catalog::make -> App\\Models\\Product::create [create] import',
  'src/Shop/Catalog.php:28 calls App\\Shop\\Catalog::make -> App\\Models\\Product::describe [describe] typed',
  'src/Shop/Catalog.php:29 calls App\\Shop\\Catalog::make -> App\\Models\\Product::create [create] import',
  'src/Shop/Catalog.php:29 calls App\\Shop\\Catalog::make -> ∅ [describe] unresolved:dynamic',
  'src/Shop/Catalog.php:31 calls App\\Shop\\Catalog::make -> App\\Shop\\Catalog::find [find] self',
  'src/Shop/Catalog.php:33 calls App\\Shop\\Catalog::make -> App\\Util\\retry [again] import',
  'src/Shop/Catalog.php:33 calls App\\Shop\\Catalog::make -> App\\Models\\Product::price [price] typed',
  'src/Shop/Catalog.php:35 calls App\\Shop\\Catalog::make -> ∅ [$handler] unresolved:local-variable',
  'src/Shop/Catalog.php:37 calls App\\Shop\\Catalog::make -> ∅ [$method] unresolved:dynamic',
  'src/Shop/Catalog.php:41 contains App\\Shop\\Catalog -> App\\Shop\\Catalog::find [find] local',
  'src/Shop/Catalog.php:43 calls App\\Shop\\Catalog::find -> App\\Shop\\Catalog::find [find] self',
  'src/Shop/Catalog.php:46 contains App\\Shop\\Catalog -> App\\Shop\\Catalog::total [total] local',
  'src/Shop/Catalog.php:48 calls App\\Shop\\Catalog::total -> ∅ [Money] unresolved:not-found',
  'src/Shop/Catalog.php:49 calls App\\Shop\\Catalog::total -> Money [Money] global',
  'src/Shop/Checkout.php:4 imports App\\Shop -> App\\Models\\Model [App\\Models\\Model] import',
  'src/Shop/Checkout.php:4 imports App\\Shop -> App\\Models\\Priced [App\\Models\\Priced] import',
  'src/Shop/Checkout.php:6 inherits App\\Shop\\Payable -> App\\Models\\Priced [Priced] import',
  'src/Shop/Checkout.php:12 contains App\\Shop\\Checkout -> App\\Shop\\Checkout::__construct [__construct] local',
  'src/Shop/Checkout.php:16 contains App\\Shop\\Checkout -> App\\Shop\\Checkout::pay [pay] local',
  'src/Shop/Checkout.php:18 calls App\\Shop\\Checkout::pay -> App\\Models\\Priced::price [price] typed',
  'src/Shop/Checkout.php:20 calls App\\Shop\\Checkout::pay -> App\\Shop\\Catalog::find [find] typed',
  'src/Shop/Checkout.php:22 calls App\\Shop\\Checkout::pay -> App\\Shop\\CheckoutError::report [report] typed',
  'src/Shop/Checkout.php:23 calls App\\Shop\\Checkout::pay -> App\\Shop\\audit [audit] import',
  'src/Shop/Checkout.php:26 calls App\\Shop\\Checkout::pay -> ∅ [pay] unresolved:dynamic',
  'src/Shop/Checkout.php:28 calls App\\Shop\\Checkout::pay -> App\\Models\\Model::__construct [Model] import',
  'src/Shop/Checkout.php:32 inherits App\\Shop\\CheckoutError -> ∅ [RuntimeException] unresolved:builtin',
  'src/Shop/Checkout.php:34 contains App\\Shop\\CheckoutError -> App\\Shop\\CheckoutError::report [report] local',
  'src/Shop/Checkout.php:36 calls App\\Shop\\CheckoutError::report -> App\\Shop\\audit [audit] local',
  'src/Shop/Checkout.php:42 calls App\\Shop\\audit -> ∅ [getMessage] unresolved:builtin',
  'src/Util/Logger.php:6 contains App\\Util\\Logger -> App\\Util\\Logger::info [info] local',
  'src/Util/Logger.php:8 calls App\\Util\\Logger::info -> ∅ [error_log] unresolved:builtin',
  'src/Util/Logger.php:8 calls App\\Util\\Logger::info -> App\\Util\\slug [slug] package',
  'src/Util/functions.php:6 calls App\\Util\\slug -> ∅ [strtolower] unresolved:builtin',
  'src/Util/functions.php:6 calls App\\Util\\slug -> ∅ [trim] unresolved:builtin',
  'src/Util/functions.php:12 calls App\\Util\\retry -> ∅ [$task] unresolved:parameter',
  'src/Util/functions.php:14 calls App\\Util\\retry -> App\\Util\\retry [retry] local',
  'src/Util/functions.php:19 calls App\\Util\\log_line -> format_price [format_price] global',
  'src/Util/functions.php:20 calls App\\Util\\log_line -> format_price [format_price] import',
];

describe.each(BACKENDS)('php code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('php'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});
