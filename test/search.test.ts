import { afterEach, describe, expect, it, vi } from 'vitest';
import { CKGError, glob, globStream, grep, grepStream, type FileSystem, type GrepLineEntry } from '../src/index.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';

/** Sets a file's mtime (seconds since the epoch) on either backend. */
function touch(tree: FixtureTree, rel: string, seconds: number): void {
  (tree.fs as unknown as { utimesSync(p: string, a: number, m: number): void }).utimesSync(`${tree.root}/${rel}`, seconds, seconds);
}

const lines = (results: readonly unknown[]): string[] =>
  (results as GrepLineEntry[]).map((e) => `${e.path.slice(e.path.lastIndexOf('/') + 1)}${e.match ? ':' : '-'}${e.line}${e.match ? ':' : '-'}${e.text}`);

describe.each(BACKENDS)('glob on %s', (backend) => {
  let tree: FixtureTree;
  afterEach(() => tree?.cleanup());

  it('lists matching files newest first, names breaking ties, with limit, offset and the total', async () => {
    tree = makeTree(backend, { 'a.py': '', 'b.py': '', 'c.py': '', 'lib/d.py': '', 'lib/e.txt': '' });
    touch(tree, 'a.py', 1000);
    touch(tree, 'b.py', 3000);
    touch(tree, 'c.py', 1000);
    touch(tree, 'lib/d.py', 2000);
    const all = await glob({ fs: tree.fs, root: tree.root, pattern: '*.py' });
    expect(all.results.map((r) => r.path.slice(tree.root.length + 1))).toEqual(['b.py', 'lib/d.py', 'a.py', 'c.py']);
    expect(all).toMatchObject({ truncated: false, partial: false, totalMatches: 4 });
    const page = await glob({ fs: tree.fs, root: tree.root, pattern: '*.py', limit: 2, offset: 1 });
    expect(page.results.map((r) => r.path.slice(tree.root.length + 1))).toEqual(['lib/d.py', 'a.py']);
    expect(page).toMatchObject({ truncated: true, totalMatches: 4 });
    expect(page.results[0]).toEqual({ path: `${tree.root}/lib/d.py`, mtimeMs: 2_000_000, size: 0 });
  });

  it('matches a pattern without a slash at any depth, one with a slash from the root, an absolute one inside the root', async () => {
    tree = makeTree(backend, { 'src/a.ts': '', 'src/deep/b.ts': '', 'c.ts': '', 'src/d.js': '' });
    const names = async (pattern: string): Promise<string[]> =>
      (await glob({ fs: tree.fs, root: tree.root, pattern })).results.map((r) => r.path.slice(tree.root.length + 1)).sort();
    expect(await names('*.ts')).toEqual(['c.ts', 'src/a.ts', 'src/deep/b.ts']);
    expect(await names('src/*.ts')).toEqual(['src/a.ts']);
    expect(await names('src/**/*.{ts,js}')).toEqual(['src/a.ts', 'src/d.js', 'src/deep/b.ts']);
    expect(await names(`${tree.root}/src/**`)).toEqual(['src/a.ts', 'src/d.js', 'src/deep/b.ts']);
    await expect(glob({ fs: tree.fs, root: tree.root, pattern: '/elsewhere/*.ts' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('follows the indexing rules: .gitignore, dependency folders, hidden files only when asked (never .git)', async () => {
    tree = makeTree(backend, {
      '.gitignore': 'build/\n*.log\n',
      'keep.txt': '',
      'build/out.txt': '',
      'debug.log': '',
      'node_modules/pkg/index.js': '',
      '.github/ci.yml': '',
      '.git/config': '',
    });
    const names = async (hidden: boolean): Promise<string[]> =>
      (await glob({ fs: tree.fs, root: tree.root, pattern: '**', hidden })).results.map((r) => r.path.slice(tree.root.length + 1)).sort();
    expect(await names(false)).toEqual(['keep.txt']);
    expect(await names(true)).toEqual(['.github/ci.yml', '.gitignore', 'keep.txt']);
  });

  it('streams files as the walk finds them and stops the walk when the loop breaks', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 19; i++) files[`d${String(i).padStart(2, '0')}/f.txt`] = '';
    files['d19/sub/f.txt'] = '';
    tree = makeTree(backend, files);
    // The last folder, d19, is listed only after the loop broke: a glob that waited for the walk
    // to end would never yield (and the test would time out). Once the gate opens, a walk that
    // went on would list d19/sub.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const listed: string[] = [];
    const fs = gatedFs(tree.fs, `${tree.root}/d19`, gate, listed);
    const seen: string[] = [];
    for await (const match of globStream({ fs, root: tree.root, pattern: '*.txt' })) {
      seen.push(match.path);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual([`${tree.root}/d00/f.txt`, `${tree.root}/d01/f.txt`]);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(listed).not.toContain(`${tree.root}/d19/sub`); // the walk stopped with the loop
  });

  it('returns from a broken loop while a later folder is still being listed (the walk is not waited for)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 19; i++) files[`d${String(i).padStart(2, '0')}/f.txt`] = '';
    files['d19/sub/f.txt'] = '';
    tree = makeTree(backend, files);
    // The loop breaks only once the walk waits on d19's listing (what a loaded machine, or a
    // caller slower than the walk, leads to): breaking must not wait for that listing. Should
    // it wait, the gate opens after 10 s, and the loop is seen to have ended only after it.
    let release!: () => void;
    let gateOpen = false;
    const gate = new Promise<void>((resolve) => (release = resolve)).then(() => void (gateOpen = true));
    let asked!: () => void;
    const walkWaits = new Promise<void>((resolve) => (asked = resolve));
    const listed: string[] = [];
    const fs = gatedFs(tree.fs, `${tree.root}/d19`, gate, listed, asked);
    const fallback = setTimeout(release, 10_000);
    const seen: string[] = [];
    let gateOpenAtEnd: boolean;
    try {
      for await (const match of globStream({ fs, root: tree.root, pattern: '*.txt' })) {
        seen.push(match.path);
        if (seen.length === 1) await walkWaits;
        if (seen.length === 2) break;
      }
      gateOpenAtEnd = gateOpen;
    } finally {
      clearTimeout(fallback);
    }
    expect(seen).toEqual([`${tree.root}/d00/f.txt`, `${tree.root}/d01/f.txt`]);
    expect(gateOpenAtEnd).toBe(false);
    release();
    await gate;
    await new Promise((r) => setTimeout(r, 20));
    // The walk stopped with the loop: once d19 was listed, it did not go on to d19/sub.
    expect(listed).toContain(`${tree.root}/d18`);
    expect(listed).not.toContain(`${tree.root}/d19/sub`);
  });

  it('rejects bad options with typed errors', async () => {
    tree = makeTree(backend, { 'a.txt': '' });
    await expect(glob({ fs: tree.fs, root: 'relative', pattern: '*' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(glob({ fs: tree.fs, root: tree.root, pattern: '' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(glob({ fs: tree.fs, root: tree.root, pattern: '*', limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(glob({ fs: tree.fs, root: `${tree.root}/missing`, pattern: '*' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const aborted = AbortSignal.abort('stop');
    await expect(glob({ fs: tree.fs, root: tree.root, pattern: '*', signal: aborted })).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

/**
 * A promise-only FileSystem (no sync twins) over `fs` that records each folder listing and
 * holds the listing of `gated` until `gate` resolves (calling `asked`, if given, when the walk
 * asks for it).
 */
function gatedFs(fs: FileSystem, gated: string, gate: Promise<void>, listed: string[], asked?: () => void): FileSystem {
  const p = fs.promises as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  return {
    promises: {
      readFile: (path: string) => p.readFile!.call(fs.promises, path),
      stat: (path: string) => p.stat!.call(fs.promises, path),
      lstat: (path: string) => p.lstat!.call(fs.promises, path),
      readdir: async (path: string, options?: unknown) => {
        if (path === gated) {
          asked?.();
          await gate;
        }
        listed.push(path);
        return p.readdir!.call(fs.promises, path, options);
      },
    },
  } as unknown as FileSystem;
}

describe.each(BACKENDS)('grep on %s', (backend) => {
  let tree: FixtureTree;
  afterEach(() => tree?.cleanup());

  const APP = ['import json', '', 'def load(path):', '    with open(path) as f:', '        return json.load(f)', '', 'def dump(data):', '    return json.dumps(data)', ''].join('\n');

  it('files_with_matches by default, newest first', async () => {
    tree = makeTree(backend, { 'old.py': 'x = json\n', 'new.py': 'import json\n', 'none.py': 'pass\n' });
    touch(tree, 'old.py', 1000);
    touch(tree, 'new.py', 2000);
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: 'json' });
    expect(r.results).toEqual([
      { type: 'file', path: `${tree.root}/new.py`, mtimeMs: 2_000_000 },
      { type: 'file', path: `${tree.root}/old.py`, mtimeMs: 1_000_000 },
    ]);
    expect(r).toMatchObject({ truncated: false, partial: false, totalMatches: 2 });
  });

  it('content lines with numbers, and context lines that merge without repeating', async () => {
    tree = makeTree(backend, { 'app.py': APP });
    const plain = await grep({ fs: tree.fs, root: tree.root, pattern: 'json\\.\\w+\\(', outputMode: 'content' });
    expect(lines(plain.results)).toEqual(['app.py:5:        return json.load(f)', 'app.py:8:    return json.dumps(data)']);
    expect(plain.totalMatches).toBe(2);
    const around = await grep({ fs: tree.fs, root: tree.root, pattern: '^def ', outputMode: 'content', context: 1 });
    expect(lines(around.results)).toEqual(['app.py-2-', 'app.py:3:def load(path):', 'app.py-4-    with open(path) as f:', 'app.py-6-', 'app.py:7:def dump(data):', 'app.py-8-    return json.dumps(data)']);
    const after = await grep({ fs: tree.fs, root: tree.root, pattern: 'def', outputMode: 'content', after: 4 });
    // The second match's own line is not repeated as context of the first.
    expect(lines(after.results)).toEqual([
      'app.py:3:def load(path):',
      'app.py-4-    with open(path) as f:',
      'app.py-5-        return json.load(f)',
      'app.py-6-',
      'app.py:7:def dump(data):',
      'app.py-8-    return json.dumps(data)',
    ]);
    const before = await grep({ fs: tree.fs, root: tree.root, pattern: 'import', outputMode: 'content', before: 3, after: 0, context: 5 });
    expect(lines(before.results)).toEqual(['app.py:1:import json']);
  });

  it('counts matching lines per file, not matches', async () => {
    tree = makeTree(backend, { 'a.txt': 'x x x\ny\nx\n', 'b.txt': 'none\n' });
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: 'x', outputMode: 'count' });
    expect(r.results).toEqual([{ type: 'count', path: `${tree.root}/a.txt`, count: 2, mtimeMs: expect.any(Number) }]);
    expect(r.totalMatches).toBe(2);
  });

  it('pages with headLimit and offset over files ordered by recency', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`f${i}.txt`] = 'hit\nmiss\nhit\n';
    tree = makeTree(backend, files);
    for (let i = 0; i < 5; i++) touch(tree, `f${i}.txt`, 1000 + i);
    const all = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit', outputMode: 'content', headLimit: 1000 });
    expect(lines(all.results)).toEqual(['f4', 'f3', 'f2', 'f1', 'f0'].flatMap((f) => [`${f}.txt:1:hit`, `${f}.txt:3:hit`]));
    const page = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit', outputMode: 'content', headLimit: 3, offset: 3 });
    expect(lines(page.results)).toEqual(lines(all.results).slice(3, 6));
    expect(page).toMatchObject({ truncated: true, totalMatches: 10 });
    const last = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit', outputMode: 'content', headLimit: 4, offset: 6 });
    expect(last.truncated).toBe(false);
    expect(last.results).toHaveLength(4);
    expect((await grep({ fs: tree.fs, root: tree.root, pattern: 'hit' })).results).toHaveLength(5);
  });

  it('keeps the right page when a huge result is pruned from memory', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) files[`f${String(i).padStart(3, '0')}.txt`] = 'hit\n'.repeat(100);
    tree = makeTree(backend, files);
    for (let i = 0; i < 120; i++) touch(tree, `f${String(i).padStart(3, '0')}.txt`, 1000 + (i % 7));
    // 12,000 lines, more than the collector keeps (4 × page + 4096): pruning must not lose the page.
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit', outputMode: 'content', headLimit: 30, offset: 150 });
    const order = Object.keys(files).sort((a, b) => (Number(b.slice(1, 4)) % 7) - (Number(a.slice(1, 4)) % 7) || (a < b ? -1 : 1));
    const expected = order.flatMap((f) => Array.from({ length: 100 }, (_, k) => `${f}:${k + 1}:hit`)).slice(150, 180);
    expect(lines(r.results)).toEqual(expected);
    expect(r).toMatchObject({ truncated: true, totalMatches: 12_000 });
  });

  it('filters by glob and by language, ignores case on request', async () => {
    tree = makeTree(backend, { 'a.py': 'Alpha\n', 'b.ts': 'alpha\n', 'docs/c.md': 'ALPHA\n', 'tests/d.py': 'alpha\n' });
    const paths = async (extra: Record<string, unknown>): Promise<string[]> =>
      (await grep({ fs: tree.fs, root: tree.root, pattern: 'alpha', ...extra })).results.map((e) => e.path.slice(tree.root.length + 1)).sort();
    expect(await paths({})).toEqual(['b.ts', 'tests/d.py']);
    expect(await paths({ caseInsensitive: true })).toEqual(['a.py', 'b.ts', 'docs/c.md', 'tests/d.py']);
    expect(await paths({ caseInsensitive: true, glob: '*.py' })).toEqual(['a.py', 'tests/d.py']);
    expect(await paths({ caseInsensitive: true, glob: 'docs/**' })).toEqual(['docs/c.md']);
    expect(await paths({ caseInsensitive: true, language: 'typescript' })).toEqual(['b.ts']);
    await expect(grep({ fs: tree.fs, root: tree.root, pattern: 'a', language: 'cobol' })).rejects.toMatchObject({ code: 'UNKNOWN_LANGUAGE' });
  });

  it('skips binary files, reads invalid UTF-8 leniently, handles CRLF line ends', async () => {
    tree = makeTree(backend, {
      'bin.dat': new Uint8Array([104, 105, 116, 0, 1, 2]),
      'latin.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x68, 0x69, 0x74, 0x0a]), // "caf\xe9 hit\n": not UTF-8
      'dos.txt': 'first hit\r\nsecond\r\n',
      'utf8.txt': 'naïve hit ✓\n',
    });
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit$', outputMode: 'content' });
    // `$` matches before a CRLF's \r, and the shown line has no \r.
    expect(lines(r.results).sort()).toEqual(['dos.txt:1:first hit', 'latin.txt:1:caf\uFFFD hit']);
    const u = await grep({ fs: tree.fs, root: tree.root, pattern: 'ï.e h', outputMode: 'content' });
    expect(lines(u.results)).toEqual(['utf8.txt:1:naïve hit ✓']);
  });

  it('matches across lines only with multiline', async () => {
    tree = makeTree(backend, { 'a.txt': 'begin\nmiddle\nend\nother\n' });
    await expect(grep({ fs: tree.fs, root: tree.root, pattern: 'begin\\nmiddle' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // In line mode a class never takes the line break: \s cannot join two lines.
    expect((await grep({ fs: tree.fs, root: tree.root, pattern: 'begin\\s+middle' })).totalMatches).toBe(0);
    expect((await grep({ fs: tree.fs, root: tree.root, pattern: 'n[^x]m' })).totalMatches).toBe(0);
    const m = await grep({ fs: tree.fs, root: tree.root, pattern: 'begin.*end', multiline: true, outputMode: 'content' });
    expect(lines(m.results)).toEqual(['a.txt:1:begin', 'a.txt:2:middle', 'a.txt:3:end']);
  });

  it('refuses lookarounds and backreferences, and JavaScript syntax errors, with INVALID_ARGUMENT', async () => {
    tree = makeTree(backend, { 'a.txt': 'aa\n' });
    for (const pattern of ['(a)\\1', 'a(?=a)', '(?<!b)a', '(?<x>a)\\k<x>', '(unclosed', '[z-a]', '']) {
      const error = await grep({ fs: tree.fs, root: tree.root, pattern }).catch((e: unknown) => e);
      expect(error, pattern).toBeInstanceOf(CKGError);
      expect((error as CKGError).code, pattern).toBe('INVALID_ARGUMENT');
    }
    await expect(grep({ fs: tree.fs, root: tree.root, pattern: 'a', outputMode: 'lines' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('runs catastrophic patterns in linear time: (a+)+$ on a long line returns', async () => {
    tree = makeTree(backend, { 'evil.txt': `${'a'.repeat(200_000)}!\n`, 'ok.txt': 'aaa\n' });
    // A backtracking engine takes about 2^200000 steps here (2^26 already takes seconds).
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: '(a+)+$', outputMode: 'content' });
    expect(lines(r.results)).toEqual(['ok.txt:1:aaa']);
    expect(r.partial).toBe(false);
  });

  it('searches a 50 MB one-line file and cuts the shown line', async () => {
    const big = new Uint8Array(50 * 1024 * 1024).fill(0x61);
    big.set(new TextEncoder().encode('needle'), 30 * 1024 * 1024);
    tree = makeTree(backend, { 'big.txt': big });
    const r = await grep({ fs: tree.fs, root: tree.root, pattern: 'need+le', outputMode: 'content' });
    expect(r.results).toHaveLength(1);
    const e = r.results[0] as GrepLineEntry;
    expect(e).toMatchObject({ line: 1, match: true, truncated: true });
    expect(e.text).toBe(`${'a'.repeat(500)} [… ${50 * 1024 * 1024 - 500} more characters]`);
    expect((await grep({ fs: tree.fs, root: tree.root, pattern: 'needle', outputMode: 'count' })).results).toEqual([
      { type: 'count', path: `${tree.root}/big.txt`, count: 1, mtimeMs: expect.any(Number) },
    ]);
  }, 60_000);

  it('returns whole files found before the deadline, marked partial', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6; i++) files[`f${i}.txt`] = 'hit\nhit\n';
    tree = makeTree(backend, files);
    for (let i = 0; i < 6; i++) touch(tree, `f${i}.txt`, 1000);
    // A clock that moves 1 s at each file read: the deadline falls during the third file.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    try {
      const fs = onRead(tree.fs, () => (now += 1000));
      const r = await grep({ fs, root: tree.root, pattern: 'hit', outputMode: 'content', timeoutMs: 2500 });
      expect(r.partial).toBe(true);
      expect(lines(r.results)).toEqual(['f0.txt:1:hit', 'f0.txt:2:hit', 'f1.txt:1:hit', 'f1.txt:2:hit']);
      expect(r.totalMatches).toBe(4);
    } finally {
      clock.mockRestore();
    }
    const none = await grep({ fs: tree.fs, root: tree.root, pattern: 'hit', timeoutMs: 0 });
    expect(none).toMatchObject({ partial: true, results: [] });
  });

  it('streams entries during the walk, honours headLimit, and throws ABORTED when the signal fires', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 19; i++) files[`d${String(i).padStart(2, '0')}/f.txt`] = 'one hit\ntwo hit\n';
    files['d19/sub/f.txt'] = 'one hit\ntwo hit\n';
    tree = makeTree(backend, files);
    // d19 is listed only after the stream ended: a grep that waited for the walk would never
    // yield. How far the walk got meanwhile depends on timing (it runs ahead of the caller);
    // that it stopped with the stream does not: once the gate opens, it must not list d19/sub.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const listed: string[] = [];
    const fs = gatedFs(tree.fs, `${tree.root}/d19`, gate, listed);
    const seen: string[] = [];
    for await (const e of grepStream({ fs, root: tree.root, pattern: 'hit', outputMode: 'content', headLimit: 3 })) {
      seen.push(lines([e])[0]!);
    }
    expect(seen).toEqual(['f.txt:1:one hit', 'f.txt:2:two hit', 'f.txt:1:one hit']);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(listed).not.toContain(`${tree.root}/d19/sub`);
    const controller = new AbortController();
    const stream = grepStream({ fs: tree.fs, root: tree.root, pattern: 'hit', headLimit: 1000, signal: controller.signal });
    const got: unknown[] = [];
    const error = await (async () => {
      for await (const e of stream) {
        got.push(e);
        if (got.length === 2) controller.abort('enough');
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED' });
    expect(got).toHaveLength(2);
  });
});

/** A FileSystem that calls `hook` before each file read (whole-file reads and opens: a search does one of them per file). */
function onRead(fs: FileSystem, hook: () => void): FileSystem {
  const raw = fs as unknown as Record<string, unknown>;
  return new Proxy(raw, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (prop === 'readFileSync' || prop === 'openSync') {
        return (...args: unknown[]) => {
          hook();
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as FileSystem;
}
