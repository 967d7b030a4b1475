// The graph commands of the `ckg` tool: exact answers on the Python fixture, paging, the 16,000-
// character clip (whole entries; the honesty note stays in the header), argument errors, and the
// size of the tool's definition (an agent pays for it on every call).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGTool, MAX_OUTPUT_CHARS } from '../src/index.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';
import { graphFixture } from './helpers/graph.js';

let tree: FixtureTree;
let tool: CKGTool;
beforeAll(() => {
  tree = makeTree('memfs', graphFixture('python'));
  tool = new CKGTool({ fs: tree.fs });
});
afterAll(async () => {
  await tool?.close();
  tree?.cleanup();
});

async function run(args: Record<string, unknown>): Promise<string> {
  const result = await tool.execute({ path: tree.root, ...args });
  if ('error' in result) throw new Error(result.error);
  return result.output;
}

describe('graph commands of the ckg tool', () => {
  it('find_callers: call sites with callers, and the lower-bound note', async () => {
    expect(await run({ command: 'find_callers', identifier: 'Model.save' })).toBe(
      'Callers of shop.models.Model.save (method, shop/models.py:5-6): 2 callers. Lower bound: 1 unresolved call named save may also be a call of it (app.py:10).\n' +
        '1. app.py:14 main\n' +
        '2. shop/catalog.py:14 Catalog.add_product\n',
    );
    // Catalog is re-exported by the package's `__init__` (named in its `__all__`): public API.
    expect(await run({ command: 'find_callers', identifier: 'add_product', depth: 2 })).toBe(
      'Callers of shop.catalog.Catalog.add_product (method, shop/catalog.py:12-17): 2 callers. Complete. Exported: code outside the codebase may call it.\n1. [1] app.py:9 main\n2. [2] app.py:31 app\n',
    );
    expect(await run({ command: 'find_callers', identifier: 'nothing_here' })).toBe('No function, method or class named nothing_here found.');
  });

  it('find_callees: each call with its callee or why it is unresolved', async () => {
    expect(await run({ command: 'find_callees', identifier: 'shop.catalog.Catalog.add_product' })).toBe(
      'Calls made by shop.catalog.Catalog.add_product (method, shop/catalog.py:12-17): 5 calls. 2 unresolved here.\n' +
        '1. shop/catalog.py:13 Product -> shop.models.Product.__init__\n' +
        '2. shop/catalog.py:14 save -> shop.models.Model.save\n' +
        '3. shop/catalog.py:15 append -> ? (dynamic)\n' +
        '4. shop/catalog.py:16 log -> shop.catalog.Catalog.log\n' +
        '5. shop/catalog.py:16 title_case -> ? (external)\n',
    );
  });

  it('pages with limit and offset', async () => {
    const page = await run({ command: 'find_callees', identifier: 'shop.catalog.Catalog.add_product', limit: 2, offset: 2 });
    expect(page).toBe(
      'Calls made by shop.catalog.Catalog.add_product (method, shop/catalog.py:12-17): 5 calls. 2 unresolved here.\nShowing 3-4 of 5.\n' +
        '3. shop/catalog.py:15 append -> ? (dynamic)\n4. shop/catalog.py:16 log -> shop.catalog.Catalog.log\n',
    );
  });

  it('trace_path: breadth-first hops, inbound with the honesty note', async () => {
    expect(await run({ command: 'trace_path', identifier: 'validate', direction: 'inbound', depth: 4 })).toBe(
      'Calls into shop.models.Model.validate (shop/models.py:8-9), depth 4: 5 hops. Lower bound: 1 unresolved call carries a name on the path (app.py:10).\n' +
        '1. [1] shop.models.Model.save -> shop.models.Model.validate (shop/models.py:6)\n' +
        '2. [2] app.main -> shop.models.Model.save (app.py:14)\n' +
        '3. [2] shop.catalog.Catalog.add_product -> shop.models.Model.save (shop/catalog.py:14)\n' +
        '4. [3] app.main -> shop.catalog.Catalog.add_product (app.py:9)\n' +
        '5. [3] app -> app.main (app.py:31)\n',
    );
    const outbound = await run({ command: 'trace_path', identifier: 'shop.util.retry' });
    expect(outbound).toBe(
      'Calls out of shop.util.retry (shop/util.py:18-22), depth 3: 2 hops. Paths end at unresolved calls (?).\n1. [1] shop.util.retry -> ? task (shop/util.py:20)\n2. [1] shop.util.retry -> shop.util.retry (shop/util.py:22)\n',
    );
  });

  it('class_hierarchy, dead_code, search_symbols, file_outline', async () => {
    expect(await run({ command: 'class_hierarchy', identifier: 'Model' })).toBe(
      'shop.models.Model (shop/models.py:1-9)\nBases: none\nSubclasses:\n  shop.models.Product (shop/models.py:12-26) inherits\n',
    );
    expect(await run({ command: 'dead_code', identifier: '' })).toBe(
      '2 functions and methods that nothing calls or uses (entry points, tests, exports, overrides and names of unresolved calls excluded).\n' +
        '1. shop/models.py:25-26 shop.models.Product.join: def join(self, other):\n' +
        '2. shop/util.py:10-11 shop.util.title_case: def title_case(text):\n',
    );
    expect(await run({ command: 'dead_code', identifier: 'app.py' })).toBe('No dead functions or methods found under app.py.');
    expect(await run({ command: 'search_symbols', identifier: 'get ver' })).toBe(
      '1 symbol matches get ver.\n1. function shop.version.get_version shop/version.py:4-5 [prefix, 1 call] def get_version():\n',
    );
    expect(await run({ command: 'file_outline', identifier: 'app.py' })).toBe(
      'app.py: 4 definitions, 31 lines.\n7-15 main()\n18-22 helper(c: Cat)\n  19-20 inner()\n26-27 decorated()\n',
    );
  });

  it('rejects bad optional arguments with a message, never a guess', async () => {
    expect(await tool.execute({ command: 'trace_path', path: tree.root, identifier: 'main', depth: 11 })).toEqual({
      error: "Error executing tool 'ckg': depth must be an integer from 1 to 10, got 11",
    });
    expect(await tool.execute({ command: 'trace_path', path: tree.root, identifier: 'main', direction: 'sideways' })).toMatchObject({ error: expect.stringContaining('direction') });
    expect(await tool.execute({ command: 'search_symbols', path: tree.root, identifier: 'x', kind: 'struct' })).toMatchObject({ error: expect.stringContaining('kind') });
  });

  it('keeps the whole tool definition within 4,000 characters', () => {
    const size = JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }).length;
    expect(size).toBeLessThanOrEqual(4000);
  });
});

describe('clipping of graph answers', () => {
  it('shows whole entries up to 16,000 characters and counts the rest, the header intact', async () => {
    const callers = Array.from({ length: 600 }, (_, i) => `def caller_with_a_long_descriptive_name_${i}():\n    target()\n`).join('\n');
    const big = makeTree('memfs', { 'lib.py': 'def target():\n    pass\n', 'many.py': `from lib import target\n\n${callers}`, 'other.py': 'def f(x):\n    x.target()\n' });
    const t = new CKGTool({ fs: big.fs });
    try {
      const result = await t.execute({ command: 'find_callers', path: big.root, identifier: 'target' });
      const output = 'output' in result ? result.output : result.error;
      expect(output.startsWith('Callers of lib.target (function, lib.py:1-2): 600 callers. Lower bound: 1 unresolved call named target may also be a call of it (other.py:2).\n')).toBe(true);
      const [body, marker] = output.split('\n<response clipped> ');
      expect(body!.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
      const shown = body!.split('\n').filter((l) => /^\d+\. /.test(l)).length;
      expect(marker).toBe(`${600 - shown} more entries not shown`);
      expect(body!.endsWith('\n')).toBe(true); // whole entries only
      // The next page starts where the clip cut.
      const next = await t.execute({ command: 'find_callers', path: big.root, identifier: 'target', offset: shown, limit: 5 });
      expect('output' in next && next.output.split('\n')[2]).toMatch(new RegExp(`^${shown + 1}\\. many\\.py:`));
    } finally {
      await t.close();
      big.cleanup();
    }
  });
});
