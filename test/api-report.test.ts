import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without declarations
import { extractApi, typedEntries, writeReference } from '../scripts/api.mjs';

interface EntryResult {
  readonly entry: string;
  readonly reexported: readonly string[];
  readonly changed: boolean;
  readonly messages: readonly string[];
  readonly undocumented: number;
}

const reference = fileURLToPath(new URL('../docs/api/reference/', import.meta.url));

// The public API of every typed package entry is committed and reviewed like code: its report
// (docs/api/<entry>.api.md) and its reference (docs/api/reference/, from the TSDoc comments).
// This fails when the built declarations no longer match them, or when an export or member
// has no documentation. `npm run api:update` refreshes both.
describe('public API of every entry', () => {
  const results = extractApi({ local: false, docModel: true }) as EntryResult[];

  it('covers every typed entry of package.json exports', () => {
    expect(results.map((r) => r.entry)).toEqual((typedEntries() as { name: string }[]).map((e) => e.name));
    expect(results.map((r) => r.entry)).toEqual(expect.arrayContaining(['ckg-wasm', 'ckg-wasm/node']));
    expect(results.find((r) => r.entry === 'ckg-wasm/node')?.reexported).toEqual(['ckg-wasm']);
  });

  it('matches the committed reports, with every export and member documented', () => {
    for (const r of results) {
      expect({ entry: r.entry, messages: r.messages, undocumented: r.undocumented, changed: r.changed }).toEqual({ entry: r.entry, messages: [], undocumented: 0, changed: false });
    }
  });

  it('matches the committed reference pages', () => {
    const out = mkdtempSync(join(tmpdir(), 'ckg-api-reference-'));
    try {
      writeReference(results, out);
      const pages = readdirSync(out).sort();
      expect(readdirSync(reference).sort()).toEqual(pages);
      for (const page of pages) expect(readFileSync(join(reference, page), 'utf8'), page).toBe(readFileSync(join(out, page), 'utf8'));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
