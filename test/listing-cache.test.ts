// What keeps re-checks and queries cheap: folder listings
// (`trustFolderMtimes`: a folder is listed again only when its mtime moved, never trusted when it
// changed in the moment it was listed), and files found binary or minified (not read again while
// their size and mtime are unchanged), and 'lazy' bodies read as byte ranges.
import nodeFs from 'node:fs';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, MemoryStorage, type FileSystem } from '../src/index.js';
import { ListingCache } from '../src/indexer/walker.js';
import { encodeListings, listingsKeyOf, restoreListings, snapshotMemoKeyOf } from '../src/indexer/saved-listings.js';

const ROOT = '/repo';
const OLD = (Date.now() - 86_400_000) / 1000; // a day ago, in seconds (utimes)

/** A memfs volume seen through an fs that counts folder listings and file reads. */
function countingFs(vol: Volume): { fs: FileSystem; listed: string[]; read: string[] } {
  const listed: string[] = [];
  const read: string[] = [];
  const v = vol as unknown as typeof nodeFs;
  const fs = {
    promises: v.promises,
    lstatSync: v.lstatSync.bind(v),
    statSync: v.statSync.bind(v),
    readFileSync: (path: string, options?: unknown) => {
      read.push(path);
      return (v.readFileSync as (p: string, o?: unknown) => unknown)(path, options);
    },
    realpathSync: v.realpathSync.bind(v),
    openSync: v.openSync.bind(v),
    readSync: v.readSync.bind(v),
    closeSync: v.closeSync.bind(v),
    readdirSync: (path: string, options?: unknown) => {
      listed.push(path);
      return (v.readdirSync as (p: string, o?: unknown) => unknown)(path, options);
    },
  };
  return { fs: fs as unknown as FileSystem, listed, read };
}

/** A tree whose files and folders all look a day old. */
function oldTree(files: Record<string, string>): Volume {
  const vol = Volume.fromJSON(files);
  const age = (path: string): void => {
    for (const name of vol.readdirSync(path) as string[]) {
      const child = `${path}/${name}`;
      if (vol.statSync(child).isDirectory()) age(child);
      vol.utimesSync(child, OLD, OLD);
    }
    vol.utimesSync(path, OLD, OLD);
  };
  age(ROOT);
  return vol;
}

describe('folder listing cache', () => {
  it('re-lists only folders whose mtime moved, and sees every added, removed and renamed file', async () => {
    const vol = oldTree({ [`${ROOT}/a/one.py`]: 'def one():\n    pass\n', [`${ROOT}/b/two.py`]: 'def two():\n    pass\n', [`${ROOT}/c/d/three.py`]: 'def three():\n    pass\n' });
    const { fs, listed } = countingFs(vol);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, trustFolderMtimes: true, languages: ['python'] });
    try {
      expect(listed.sort()).toEqual([ROOT, `${ROOT}/a`, `${ROOT}/b`, `${ROOT}/c`, `${ROOT}/c/d`]);
      listed.length = 0;
      expect(await db.refresh()).toBeUndefined(); // unchanged: nothing listed, nothing parsed
      expect(listed).toEqual([]);

      // An added file moves its folder's mtime: that folder alone is listed again.
      vol.writeFileSync(`${ROOT}/c/d/four.py`, 'def four():\n    pass\n');
      await db.refresh();
      expect(listed).toEqual([`${ROOT}/c/d`]);
      expect(await db.queryFunction('four')).toHaveLength(1);

      // The new listing is "racy" (listed in the same moment the folder changed): listed again
      // on every re-check until its mtime is safely old.
      listed.length = 0;
      await db.refresh();
      expect(listed).toEqual([`${ROOT}/c/d`]);

      // Removal and rename are seen too.
      vol.unlinkSync(`${ROOT}/a/one.py`);
      vol.renameSync(`${ROOT}/b/two.py`, `${ROOT}/b/deux.py`);
      await db.refresh();
      expect(await db.queryFunction('one')).toEqual([]);
      expect((await db.queryFunction('two'))[0]?.filePath).toBe(`${ROOT}/b/deux.py`);

      // An edit inside a file does not move its folder's mtime; the file's own stat tells.
      for (const dir of ['a', 'b', 'c/d']) vol.utimesSync(`${ROOT}/${dir}`, OLD, OLD);
      await db.refresh(); // re-listed once at their old mtimes (new cache entries), then trusted
      listed.length = 0;
      vol.writeFileSync(`${ROOT}/c/d/three.py`, 'def three_renamed():\n    pass\n');
      await db.refresh();
      expect(listed).toEqual([]);
      expect(await db.queryFunction('three_renamed')).toHaveLength(1);
    } finally {
      db.close();
    }
  });

  it('applies a changed .gitignore to folders whose listing is kept', async () => {
    const vol = oldTree({
      [`${ROOT}/.gitignore`]: 'gen.py\n',
      [`${ROOT}/pkg/gen.py`]: 'def generated():\n    pass\n',
      [`${ROOT}/pkg/main.py`]: 'def main():\n    pass\n',
      [`${ROOT}/pkg/notes.txt`]: 'x\n',
    });
    const { fs, listed } = countingFs(vol);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, trustFolderMtimes: true, languages: ['python'] });
    try {
      expect(await db.queryFunction('generated')).toEqual([]);
      expect(db.report!.unknownExtensions).toEqual({ '.txt': 1 });
      await db.refresh();
      // The rule goes away; no folder listing changes (same names, same folder mtimes).
      vol.writeFileSync(`${ROOT}/.gitignore`, '# nothing ignored\n');
      vol.utimesSync(ROOT, OLD, OLD);
      listed.length = 0;
      const report = await db.refresh();
      expect(listed).toEqual([]); // every listing reused...
      expect(report).toMatchObject({ filesParsed: 1, unknownExtensions: { '.txt': 1 } }); // ...but the new rules applied
      expect(await db.queryFunction('generated')).toHaveLength(1);
      // And back: ignored again.
      vol.writeFileSync(`${ROOT}/.gitignore`, 'gen.py\n');
      vol.utimesSync(ROOT, OLD, OLD);
      await db.refresh();
      expect(await db.queryFunction('generated')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('is off by default for file systems other than node:fs, on for node:fs', async () => {
    const vol = oldTree({ [`${ROOT}/a/one.py`]: 'def one():\n    pass\n' });
    const { fs, listed } = countingFs(vol);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python'] });
    try {
      listed.length = 0;
      await db.refresh();
      expect(listed.sort()).toEqual([ROOT, `${ROOT}/a`]); // no cache: every folder listed
    } finally {
      db.close();
    }
    const dir = nodeFs.mkdtempSync('/tmp/ckg-listing-');
    try {
      nodeFs.mkdirSync(`${dir}/pkg`);
      nodeFs.writeFileSync(`${dir}/pkg/m.py`, 'def m():\n    pass\n');
      for (const p of [`${dir}/pkg/m.py`, `${dir}/pkg`, dir]) nodeFs.utimesSync(p, OLD, OLD);
      const real = await CKGDatabase.open({ codebasePath: dir, fs: nodeFs, languages: ['python'] });
      try {
        nodeFs.writeFileSync(`${dir}/pkg/n.py`, 'def n():\n    pass\n');
        await real.refresh();
        expect(await real.queryFunction('n')).toHaveLength(1);
      } finally {
        real.close();
      }
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('content skips', () => {
  it('does not read a binary or minified file again until its size or mtime changes', async () => {
    const vol = oldTree({
      [`${ROOT}/ok.py`]: 'def ok():\n    pass\n',
      [`${ROOT}/bin.py`]: 'x\u0000y',
      [`${ROOT}/min.js`]: `var a=[${'1,'.repeat(6000)}];\n`,
    });
    const { fs, read } = countingFs(vol);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python', 'javascript'] });
    try {
      expect(db.report!.skipped.map((s) => [s.path, s.reason])).toEqual([[`${ROOT}/bin.py`, 'binary'], [`${ROOT}/min.js`, 'minified']]);
      vol.writeFileSync(`${ROOT}/ok.py`, 'def ok2():\n    pass\n');
      read.length = 0;
      const report = await db.update();
      expect(read).toEqual([`${ROOT}/ok.py`]); // the skipped files were not read again
      expect(report.skipped.map((s) => s.reason)).toEqual(['binary', 'minified']);
      // A skipped file that changes is read again, and indexed once it is source.
      vol.writeFileSync(`${ROOT}/min.js`, 'function unminified() {}\n');
      read.length = 0;
      expect((await db.update()).skipped.map((s) => s.reason)).toEqual(['binary']);
      expect(read).toContain(`${ROOT}/min.js`);
      expect(await db.queryFunction('unminified')).toHaveLength(1);
    } finally {
      db.close();
    }
  });
});

describe("'lazy' body reads", () => {
  it('read only the body from an ASCII file, and the whole file when offsets are not byte offsets', async () => {
    const padding = `# ${'x'.repeat(60)}\n`.repeat(2000); // 126 kB before the function
    const vol = oldTree({
      [`${ROOT}/big.py`]: `${padding}def wanted():\n    return 1\n`,
      [`${ROOT}/utf8.py`]: `# é\n${padding}def accented():\n    return 'é'\n`,
    });
    const { fs, read } = countingFs(vol);
    const db = await CKGDatabase.open({ codebasePath: ROOT, fs, languages: ['python'] });
    try {
      read.length = 0;
      expect((await db.queryFunction('wanted'))[0]?.body).toBe('def wanted():\n    return 1');
      expect(read).toEqual([]); // no whole-file read: the 27 bytes of the body only
      expect((await db.queryFunction('accented'))[0]?.body).toBe("def accented():\n    return 'é'");
      expect(read).toEqual([`${ROOT}/utf8.py`]); // "é" shifts byte offsets: read whole, decoded, sliced
    } finally {
      db.close();
    }
  });
});

describe('ListingCache bookkeeping', () => {
  it('drops folders a walk did not visit, but not those a later, overlapping walk visited', () => {
    const cache = new ListingCache();
    const listing = [{ name: '.gitignore', kind: 'file' as const }, { name: 'a.py', kind: 'file' as const }];
    const first = cache.startWalk();
    cache.set('/r', 1, 10_000, listing);
    cache.set('/r/x', 1, 10_000, []);
    cache.set('/r/y', 1, 10_000, []);
    cache.prune(first);
    expect(cache.size).toBe(3);
    expect(cache.get('/r', 1)?.hasGitignore).toBe(true);
    expect(cache.get('/r/x', 1)?.hasGitignore).toBe(false);

    // Walk A visits /r, then walk B starts and visits /r and /r/y; A then visits /r/x and ends.
    const a = cache.startWalk();
    cache.get('/r', 1);
    const b = cache.startWalk();
    cache.get('/r', 1);
    cache.get('/r/y', 1);
    cache.get('/r/x', 1);
    cache.prune(a);
    expect(cache.size).toBe(3); // every folder was visited by A or by B
    cache.prune(b);
    expect(cache.size).toBe(3); // /r/x was visited after B started (by A): kept
    const c = cache.startWalk();
    cache.get('/r', 1);
    cache.prune(c);
    expect(cache.size).toBe(1);
    // A changed mtime makes the listing stale, and a racy one (listed within RACY_WINDOW_MS of its mtime) too.
    expect(cache.get('/r', 2)).toBeUndefined();
    cache.set('/r', 9_000, 10_000, listing);
    expect(cache.get('/r', 9_000)).toBeUndefined();
  });
});

describe('folder listings kept between processes (beside the stored index)', () => {
  const files = { [`${ROOT}/a/one.py`]: 'def one():\n    pass\n', [`${ROOT}/b/two.py`]: 'def two():\n    pass\n', [`${ROOT}/c/d/three.py`]: 'def three():\n    pass\n' };

  it('a later open with the same storage lists only folders whose mtime moved, and sees what changed', async () => {
    const vol = oldTree(files);
    const storage = new MemoryStorage();
    const first = countingFs(vol);
    const built = await CKGDatabase.open({ codebasePath: ROOT, fs: first.fs, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] });
    const key = built.storageKey!;
    built.close();
    expect(first.listed).toHaveLength(5);
    expect(await storage.get(listingsKeyOf(key))).toBeInstanceOf(Uint8Array);

    // A new database (as a new process would open it): nothing is listed, the index is reused.
    const second = countingFs(vol);
    const reused = await CKGDatabase.open({ codebasePath: ROOT, fs: second.fs, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] });
    expect(reused.origin).toBe('storage');
    expect(second.listed).toEqual([]);
    reused.close();

    // A file added to c/d moves that folder's mtime: it alone is listed, and the file is indexed.
    vol.writeFileSync(`${ROOT}/c/d/four.py`, 'def four():\n    pass\n');
    const third = countingFs(vol);
    const updated = await CKGDatabase.open({ codebasePath: ROOT, fs: third.fs, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] });
    try {
      expect(updated.origin).toBe('updated');
      expect(third.listed).toEqual([`${ROOT}/c/d`]);
      expect(await updated.queryFunction('four')).toHaveLength(1);
    } finally {
      updated.close();
    }

    // Without trusted folder mtimes the saved listings are not used: every folder is listed.
    const untrusted = countingFs(vol);
    const fresh = await CKGDatabase.open({ codebasePath: ROOT, fs: untrusted.fs, storage, trustFolderMtimes: false, keepFolderListings: true, languages: ['python'] });
    fresh.close();
    expect(untrusted.listed).toHaveLength(5);
  });

  it('without keepFolderListings nothing is kept beside the index', async () => {
    const vol = oldTree(files);
    const storage = new MemoryStorage();
    (await CKGDatabase.open({ codebasePath: ROOT, fs: countingFs(vol).fs, storage, trustFolderMtimes: true, languages: ['python'] })).close();
    expect((await storage.list()).map((e) => e.key)).toHaveLength(1);
    const { fs, listed } = countingFs(vol);
    (await CKGDatabase.open({ codebasePath: ROOT, fs, storage, trustFolderMtimes: true, languages: ['python'] })).close();
    expect(listed).toHaveLength(5);
  });

  it('damaged or foreign saved listings are ignored: the walk lists every folder and the answer is right', async () => {
    const vol = oldTree(files);
    const storage = new MemoryStorage();
    const built = await CKGDatabase.open({ codebasePath: ROOT, fs: countingFs(vol).fs, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] });
    const key = listingsKeyOf(built.storageKey!);
    built.close();
    const saved = (await storage.get(key))!;
    // One entry name changed (`one.py` → `onx.py`): a listing that would hide a file.
    const text = new TextDecoder().decode(saved.subarray(4));
    expect(text).toContain('"one.py"');
    const tampered = saved.slice();
    tampered.set(new TextEncoder().encode(text.replace('"one.py"', '"onx.py"')), 4);
    for (const bytes of [tampered, saved.subarray(0, 3), new TextEncoder().encode('\0\0\0\0{"format":"other"}')]) {
      await storage.set(key, bytes);
      // Without the snapshot memo (it would answer without a walk), the walk relies on the listings.
      await storage.delete(snapshotMemoKeyOf(built.storageKey!));
      const { fs, listed } = countingFs(vol);
      const db = await CKGDatabase.open({ codebasePath: ROOT, fs, storage, trustFolderMtimes: true, keepFolderListings: true, languages: ['python'] });
      try {
        expect(listed).toHaveLength(5);
        expect(await db.queryFunction('one')).toHaveLength(1);
      } finally {
        db.close();
      }
    }
  });

  it('round-trips listings with every entry kind, and adopts none over a listing already known', () => {
    const cache = new ListingCache();
    const listing = [
      { name: '.gitignore', kind: 'file' as const },
      { name: 'dir', kind: 'directory' as const },
      { name: 'link', kind: 'symlink' as const },
      { name: 'fifo', kind: 'other' as const },
      { name: 'naïve ✓.py', kind: 'file' as const },
    ];
    cache.set('/r', 1_000, 10_000, listing);
    cache.set('/r/dir', 2_000, 10_000, []);
    const bytes = encodeListings(cache);
    const copy = new ListingCache();
    copy.set('/r/dir', 5_000, 20_000, [{ name: 'kept', kind: 'file' }]);
    expect(restoreListings(copy, bytes)).toBe(2);
    expect(copy.get('/r', 1_000)?.entries).toEqual(listing);
    expect(copy.get('/r', 1_000)?.hasGitignore).toBe(true);
    expect(copy.get('/r/dir', 5_000)?.entries).toEqual([{ name: 'kept', kind: 'file' }]); // its own listing wins
    expect(copy.changed).toBe(true); // from its own set(), not from the adopted listings
    const restoredOnly = new ListingCache();
    restoreListings(restoredOnly, bytes);
    expect(restoredOnly.changed).toBe(false);
    // Every single-byte change of the saved bytes is refused (checksum), so no listing is adopted.
    for (let at = 0; at < bytes.length; at += 7) {
      const damaged = bytes.slice();
      damaged[at] ^= 0x20;
      expect(restoreListings(new ListingCache(), damaged)).toBe(0);
    }
  });
});
