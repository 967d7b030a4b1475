// A build's sites held in memory until its resolution pass (src/graph/pending.ts), and what the
// write session does with them: columns kept in fixed-size chunks read back exactly across chunk
// boundaries, interning that survives dropping its map, and a build that refuses files written
// after its sites were resolved and written (their edges would be neither resolved nor kept).
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { CKGError } from '../src/index.js';
import { IndexStore } from '../src/db/store.js';
import { beginWrite } from '../src/db/write-session.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../src/db/schema.js';
import { PendingSites } from '../src/graph/pending.js';
import { FIXED_SITE } from '../src/graph/site.js';
import { openGraph } from './helpers/graph.js';
import type { EdgeRow, FileGraphRows } from '../src/graph/describe.js';
import type { ExtractedFile } from '../src/parser/extract.js';

const site = (k: number): EdgeRow => ({
  kind: k % 7 === 0 ? EDGE_KIND_CODES.imports : EDGE_KIND_CODES.calls,
  from: k % 3,
  toName: `name${k % 1000}`,
  line: k + 1,
  resolution: RESOLUTION_CODES.pending,
  site: k % 5 === 0 ? null : k % 13 === 0 ? FIXED_SITE : `site${k % 11}`,
});

describe('PendingSites', () => {
  it('reads back every column of sites spread over several chunks, in order', () => {
    const pending = new PendingSites();
    // More than two chunks (65,536 sites each), added a file at a time as a build does.
    const total = 150_001;
    const perFile = 97;
    for (let start = 0; start < total; start += perFile) {
      const rows: EdgeRow[] = [];
      for (let k = start; k < Math.min(total, start + perFile); k++) rows.push(site(k));
      pending.add(rows, start * 10);
    }
    expect(pending.length).toBe(total);
    for (let k = 0; k < total; k++) {
      const e = site(k);
      const base = Math.floor(k / perFile) * perFile * 10;
      expect([pending.kind(k), pending.resolution(k), pending.from(k), pending.line(k), pending.name(k), pending.site(k), pending.isFixed(k)]).toEqual([
        e.kind,
        e.resolution,
        base + e.from,
        e.line,
        e.toName,
        e.site,
        e.site === FIXED_SITE,
      ]);
    }
    // 1,000 names, 11 site texts and FIXED_SITE, each interned once; sites of one name share its number.
    expect(pending.stringCount).toBe(1012);
    expect(pending.nameNumber(1000)).toBe(pending.nameNumber(0));
    // A module's imports are the imports of its first symbol (from = 0).
    const imports = pending.moduleImports.get(0);
    expect(imports).toEqual([site(0).toName, site(21).toName, site(42).toName, site(63).toName, site(84).toName]);
  });

  it.each([
    ['packed', 0],
    ['kept as a list (a small build)', undefined],
  ])('interns as before when sites are added after its map was dropped (strings %s)', (_, packStringsFrom) => {
    const pending = new PendingSites(packStringsFrom === undefined ? {} : { packStringsFrom });
    pending.add([site(1), site(2)], 0);
    pending.doneAdding();
    pending.add([site(1001), site(12)], 0);
    // name1 and site1 again (the same numbers), site0 and name12 new.
    expect(pending.nameNumber(2)).toBe(pending.nameNumber(0));
    expect([pending.name(3), pending.site(3)]).toEqual(['name12', 'site1']);
    expect(pending.stringCount).toBe(6); // name1, site1, name2, site2, then site0, name12
  });

  it('reads back every name exactly once its strings are packed (one-byte, UTF-16, lone surrogates, long)', () => {
    const names = ['plain', 'café', '', 'x'.repeat(5000), 'naïve_λ', 'emoji_😀', 'lone_\ud800_surrogate', '\udc00', `${'é'.repeat(1500)}λ`];
    for (const wide of [false, true]) {
      // Packed whatever their number (a build packs from 131,072 strings on).
      const pending = new PendingSites({ packStringsFrom: 0 });
      const list = wide ? names : names.filter((n) => [...n].every((c) => c.charCodeAt(0) <= 0xff));
      pending.add(list.map((toName, k) => ({ kind: EDGE_KIND_CODES.calls, from: 0, toName, line: k + 1, resolution: RESOLUTION_CODES.pending, site: k % 2 === 0 ? `N ${toName}` : null })), 0);
      const before = list.map((_, k) => [pending.name(k), pending.site(k)]);
      pending.doneAdding();
      expect(list.map((_, k) => [pending.name(k), pending.site(k)])).toEqual(before);
      expect(before.map(([n]) => n)).toEqual(list);
    }
  });

  it("keeps a small build's sites in one chunk's buffer and a large build's in slabs the C allocator maps on their own", () => {
    const small = new PendingSites();
    small.add([site(0), site(1)], 0);
    expect(small.slabSizes).toEqual([65_536 * 18]);
    const large = new PendingSites();
    const rows: EdgeRow[] = [];
    for (let k = 0; k < 140_000; k++) rows.push(site(k));
    large.add(rows, 0);
    // The first chunk alone, then 32 chunks at once: above glibc's 32 MB, so freed memory is returned.
    expect(large.slabSizes).toEqual([65_536 * 18, 32 * 65_536 * 18]);
    expect(32 * 65_536 * 18).toBeGreaterThan(32 * 2 ** 20);
    large.releaseBefore(140_000);
    expect(large.slabSizes).toEqual([32 * 65_536 * 18]);
    for (const k of [131_072, 139_999]) expect([large.line(k), large.name(k), large.site(k)]).toEqual([k + 1, site(k).toName, site(k).site]);
  });

  it('frees whole chunks below a site once they are read, and takes no site after', () => {
    const pending = new PendingSites();
    const total = 140_000; // two full chunks of 65,536 and part of a third
    const rows: EdgeRow[] = [];
    for (let k = 0; k < total; k++) rows.push(site(k));
    pending.add(rows, 0);
    pending.releaseBefore(65_535); // the first chunk is not all below it: kept
    expect(pending.line(0)).toBe(1);
    pending.releaseBefore(70_000); // the first chunk goes, the second stays
    expect(() => pending.line(0)).toThrow();
    expect(() => pending.kind(65_535)).toThrow();
    for (const k of [65_536, 99_999, 131_071, 131_072, total - 1]) expect([pending.line(k), pending.name(k), pending.site(k)]).toEqual([k + 1, site(k).toName, site(k).site]);
    pending.releaseBefore(total); // the last chunk is not full: kept
    expect(pending.line(total - 1)).toBe(total);
    expect(pending.length).toBe(total);
    expect(() => pending.add([site(1)], 0)).toThrow();
  });
});

describe('a build from nothing', () => {
  it('writes and counts every site of a build larger than a chunk (its columns freed as they are written)', async () => {
    const SQL = await initSqlJs();
    const store = IndexStore.create(SQL);
    const extracted: ExtractedFile = { functions: [], classes: [], hasSyntaxErrors: false };
    const total = 150_000;
    const edges: EdgeRow[] = [];
    for (let k = 0; k < total; k++) edges.push({ kind: EDGE_KIND_CODES.calls, from: 0, toName: `f${k % 5000}`, line: k + 1, resolution: RESOLUTION_CODES.pending, site: null });
    const graph: FileGraphRows = { symbols: [{ kind: 'module', name: 'a', qualifiedName: 'a', parent: -1, flags: 0, row: -1 }], edges, bindings: [] };
    try {
      const writer = beginWrite(store);
      writer.putFile({ path: '/r/a.py', size: 1, mtimeMs: 1, contentHash: 'h', language: 'python', extractorVersion: '1' }, extracted, graph);
      await writer.resolveGraph();
      writer.commit();
      expect(store.rows('SELECT count(*), min(line), max(line), count(DISTINCT line) FROM edges')).toEqual([[total, 1, total, total]]);
      expect(store.rows("SELECT count(*) FROM edges e JOIN names n ON n.id = e.name_id WHERE n.name = 'f' || ((e.line - 1) % 5000)")).toEqual([[total]]);
      expect(store.graphCounts().edges).toBe(total);
      expect(JSON.parse(String(store.rows("SELECT value FROM meta WHERE key = 'counts'")[0]![0])).edges).toBe(total);
    } finally {
      store.close();
    }
  });

  it("gives a caller's repeated sites the first one's answer and the dependencies an update re-resolves them by", async () => {
    const g = await openGraph({
      'app.py': ['import shop.models as m', '', 'def main():', '    m.make()', '    m.make()', '    m.make()', ''].join('\n'),
      'shop/__init__.py': '',
      'shop/models.py': 'def make():\n    return 1\n',
    });
    const SQL = await initSqlJs();
    const raw = new SQL.Database(g.db.export());
    try {
      const rows = raw.exec("SELECT e.line, e.to_id IS NOT NULL, e.deps FROM edges e JOIN names n ON n.id = e.name_id WHERE n.name = 'make' ORDER BY e.line")[0]!.values;
      expect(rows.map((r) => r[0])).toEqual([4, 5, 6]);
      // Resolved through the module the name `m` is bound to: what the answer depends on.
      expect(rows[0]![1]).toBe(1);
      expect(rows[0]![2]).not.toBeNull();
      for (const r of rows) expect(r.slice(1)).toEqual(rows[0]!.slice(1));
    } finally {
      raw.close();
      g.close();
    }
  });

  it('refuses a file written after its sites were resolved', async () => {
    const SQL = await initSqlJs();
    const store = IndexStore.create(SQL);
    const extracted: ExtractedFile = { functions: [], classes: [], hasSyntaxErrors: false };
    const graph = (name: string): FileGraphRows => ({
      symbols: [{ kind: 'module', name, qualifiedName: name, parent: -1, flags: 0, row: -1 }],
      edges: [{ kind: EDGE_KIND_CODES.imports, from: 0, toName: 'b', line: 1, resolution: RESOLUTION_CODES.pending, site: null }],
      bindings: [],
    });
    const record = (path: string) => ({ path, size: 1, mtimeMs: 1, contentHash: 'h', language: 'python', extractorVersion: '1' });
    try {
      const writer = beginWrite(store);
      writer.putFile(record('/r/a.py'), extracted, graph('a'));
      await writer.resolveGraph();
      let error: unknown;
      try {
        writer.putFile(record('/r/b.py'), extracted, graph('b'));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CKGError);
      expect((error as CKGError).code).toBe('INVALID_ARGUMENT');
      writer.commit();
      // The build's one site was written once, resolved; the refused file left nothing.
      expect(store.rows('SELECT count(*) FROM files')).toEqual([[1]]);
      expect(store.rows('SELECT kind, resolution FROM edges')).toEqual([[EDGE_KIND_CODES.imports, RESOLUTION_CODES.external]]);
    } finally {
      store.close();
    }
  });
});
