// IndexedDBStorage against the real IndexedDB of Chromium: the built module (dist/) is served
// as plain ESM and driven from the test with page.evaluate.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedDBStorage, IndexedDBStorageOptions } from '../src/storage/indexeddb.js';
import { launchChromium, serveStatic, type BrowserSession, type StaticServer } from './helpers/browser.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

// The page imports the built module and exposes it; the evaluated functions below only use
// globals (the test file is transformed by Vitest, so it must not contain browser `import()`).
const HARNESS = `<!doctype html><meta charset="utf-8"><title>IndexedDBStorage</title>
<script type="module">
  import { IndexedDBStorage } from '/storage/indexeddb.js';
  window.IndexedDBStorage = IndexedDBStorage;
  window.clock = 1000;
  window.make = (name) => new IndexedDBStorage({ databaseName: name, now: () => window.clock });
  document.title = 'ready';
</script>`;

interface Harness {
  IndexedDBStorage: new (options?: IndexedDBStorageOptions) => IndexedDBStorage;
  make(name: string): IndexedDBStorage;
  clock: number;
}
declare const window: Harness;

let server: StaticServer;
let browser: BrowserSession;
let page: Page;

async function openHarness(): Promise<void> {
  await page.goto(`${server.url}harness.html`);
  await page.waitForFunction(() => document.title === 'ready');
}

beforeAll(async () => {
  if (!existsSync(`${dist}storage/indexeddb.js`)) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.json`');
  server = await serveStatic(dist, { '/harness.html': HARNESS });
  browser = await launchChromium();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  await openHarness();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('IndexedDBStorage in Chromium', () => {
  it('stores, returns and deletes bytes', async () => {
    const result = await page.evaluate(async () => {
      const s = window.make('roundtrip');
      const before = await s.get('a');
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 251);
      await s.set('a', bytes);
      const back = await s.get('a');
      const keys1 = (await s.list()).map((e) => e.key);
      await s.delete('a');
      await s.delete('never-there');
      const after = await s.get('a');
      const keys2 = (await s.list()).map((e) => e.key);
      s.close();
      return {
        before: before === undefined,
        isBytes: back instanceof Uint8Array,
        same: back !== undefined && back.length === bytes.length && back.every((b, i) => b === bytes[i]),
        keys1,
        after: after === undefined,
        keys2,
      };
    });
    expect(result).toEqual({ before: true, isBytes: true, same: true, keys1: ['a'], after: true, keys2: [] });
  });

  it('records the last use: set, then get, in ms; a miss records nothing', async () => {
    const uses = await page.evaluate(async () => {
      const s = window.make('uses');
      window.clock = 1_000;
      await s.set('k1', new Uint8Array([1]));
      window.clock = 2_000;
      await s.set('k2', new Uint8Array([2]));
      const afterSets = await s.list();
      window.clock = 9_000;
      await s.get('k1');
      await s.get('missing');
      const afterGet = await s.list();
      window.clock = 12_000;
      await s.set('k2', new Uint8Array([3, 4]));
      const afterReplace = await s.list();
      const replaced = [...((await s.get('k2')) ?? [])];
      s.close();
      return { afterSets, afterGet, afterReplace, replaced };
    });
    expect(uses.afterSets).toEqual([
      { key: 'k1', lastUsed: 1_000 },
      { key: 'k2', lastUsed: 2_000 },
    ]);
    expect(uses.afterGet).toEqual([
      { key: 'k1', lastUsed: 9_000 },
      { key: 'k2', lastUsed: 2_000 },
    ]);
    expect(uses.afterReplace).toEqual([
      { key: 'k1', lastUsed: 9_000 },
      { key: 'k2', lastUsed: 12_000 },
    ]);
    expect(uses.replaced).toEqual([3, 4]);
  });

  it('uses Date.now by default', async () => {
    const { before, lastUsed, after } = await page.evaluate(async () => {
      const s = new window.IndexedDBStorage({ databaseName: 'default-clock' });
      const start = Date.now();
      await s.set('x', new Uint8Array([1]));
      const list = await s.list();
      const end = Date.now();
      s.close();
      return { before: start, lastUsed: list[0]?.lastUsed ?? -1, after: end };
    });
    expect(lastUsed).toBeGreaterThanOrEqual(before);
    expect(lastUsed).toBeLessThanOrEqual(after);
  });

  it('stores only the bytes of a view, not its whole buffer', async () => {
    const stored = await page.evaluate(async () => {
      const s = window.make('views');
      const big = new Uint8Array(1000).map((_, i) => i % 256);
      await s.set('view', big.subarray(10, 15));
      const back = await s.get('view');
      s.close();
      return { values: [...(back ?? [])], bufferLength: back?.buffer.byteLength ?? -1 };
    });
    expect(stored).toEqual({ values: [10, 11, 12, 13, 14], bufferLength: 5 });
  });

  it('keeps data across instances and page reloads, separately per database name', async () => {
    await page.evaluate(async () => {
      const a = window.make('persist-a');
      const b = window.make('persist-b');
      await a.set('shared-key', new TextEncoder().encode('from a'));
      await b.set('shared-key', new TextEncoder().encode('from b'));
      a.close();
      b.close();
    });
    await page.reload();
    await page.waitForFunction(() => document.title === 'ready');
    const texts = await page.evaluate(async () => {
      const a = window.make('persist-a');
      const b = window.make('persist-b');
      const read = async (s: IndexedDBStorage) => new TextDecoder().decode((await s.get('shared-key')) ?? new Uint8Array());
      const out = [await read(a), await read(b), (await window.make('persist-c').list()).length];
      a.close();
      b.close();
      return out;
    });
    expect(texts).toEqual(['from a', 'from b', 0]);
  });

  it('serialises concurrent writes: every key lands, the last write to a key wins', async () => {
    const result = await page.evaluate(async () => {
      const s = window.make('concurrent');
      await Promise.all(Array.from({ length: 20 }, (_, i) => s.set(`key-${String(i).padStart(2, '0')}`, new Uint8Array([i]))));
      await Promise.all([1, 2, 3].map((v) => s.set('same', new Uint8Array([v]))));
      const keys = (await s.list()).map((e) => e.key);
      const same = [...((await s.get('same')) ?? [])];
      s.close();
      return { count: keys.length, first: keys[0], same };
    });
    expect(result).toEqual({ count: 21, first: 'key-00', same: [3] });
  });

  it('rejects bad keys and values with INVALID_ARGUMENT', async () => {
    const codes = await page.evaluate(async () => {
      const s = window.make('invalid');
      const codeOf = async (run: () => Promise<unknown>) => {
        try {
          await run();
          return 'no error';
        } catch (e) {
          return `${(e as Error).name}:${(e as { code?: string }).code}`;
        }
      };
      const out = [
        await codeOf(() => s.get('')),
        await codeOf(() => s.set('k', [1, 2] as unknown as Uint8Array)),
        await codeOf(() => s.delete(42 as unknown as string)),
      ];
      s.close();
      return out;
    });
    expect(codes).toEqual(['CKGError:INVALID_ARGUMENT', 'CKGError:INVALID_ARGUMENT', 'CKGError:INVALID_ARGUMENT']);
  });

  it('lets the database be deleted after close(), and works again afterwards', async () => {
    const result = await page.evaluate(async () => {
      const s = window.make('deletable');
      await s.set('k', new Uint8Array([7]));
      s.close();
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('deletable');
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
        request.onblocked = () => reject(new Error('blocked: close() did not close the connection'));
      });
      const afterDelete = await s.list();
      await s.set('k2', new Uint8Array([8]));
      const again = [...((await s.get('k2')) ?? [])];
      s.close();
      return { afterDelete: afterDelete.length, again };
    });
    expect(result).toEqual({ afterDelete: 0, again: [8] });
  });

  it('reports STORAGE_ERROR when IndexedDB is unavailable', async () => {
    const code = await page.evaluate(async () => {
      // A factory that throws on open, as Chromium's does on opaque origins.
      const broken = new window.IndexedDBStorage({
        databaseName: 'broken',
        indexedDB: { open: () => { throw new DOMException('denied', 'SecurityError'); } } as unknown as IDBFactory,
      });
      try {
        await broken.list();
        return 'no error';
      } catch (e) {
        return (e as { code?: string }).code;
      }
    });
    expect(code).toBe('STORAGE_ERROR');
  });
});
