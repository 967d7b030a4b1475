// The two walker options text search needs: every file (not only indexable ones) and hidden
// files on request. Indexing walks (neither option) must see exactly what they saw before.
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SKIPPED_DIRECTORIES, ListingCache, walkCodebase, type OtherFile, type SourceFile, type WalkOptions } from '../src/indexer/walker.js';
import { FsAdapter } from '../src/fs/adapter.js';
import { createDefaultRegistry } from '../src/languages/index.js';
import type { FileSystem } from '../src/index.js';

const OLD = (Date.now() - 86_400_000) / 1000;

function tree(): FsAdapter {
  const vol = Volume.fromJSON({
    '/repo/.gitignore': 'ignored.txt\n',
    '/repo/app.py': 'def f(): pass\n',
    '/repo/README.md': '# r\n',
    '/repo/ignored.txt': 'x\n',
    '/repo/lib/util.go': 'package lib\n',
    '/repo/lib/data.json': '{}\n',
    '/repo/.github/ci.yml': 'on: push\n',
    '/repo/.git/HEAD': 'ref: refs/heads/main\n',
    '/repo/node_modules/x/index.js': '\n',
    '/repo/node_modules/notes.txt': 'n\n',
    '/outside/secret.txt': 's\n',
  });
  // A link to a file the walk does not visit itself is walked; a link out of the root never (docs/security.md).
  vol.symlinkSync('/repo/node_modules/notes.txt', '/repo/notes-link.txt');
  vol.symlinkSync('/outside/secret.txt', '/repo/secret-link.txt');
  for (const p of ['/repo', '/repo/lib', '/repo/.github', '/repo/.git', '/repo/node_modules', '/repo/node_modules/x']) vol.utimesSync(p, OLD, OLD);
  return new FsAdapter(vol as unknown as FileSystem);
}

const base = (): WalkOptions => ({
  registry: createDefaultRegistry(),
  maxFileSize: 1 << 20,
  skipDirectories: DEFAULT_SKIPPED_DIRECTORIES,
  exclude: [],
  respectGitignore: true,
});

async function walk(fs: FsAdapter, extra: Partial<WalkOptions>): Promise<{ order: string[]; indexed: string[]; unknown: Record<string, number> }> {
  const order: string[] = [];
  const result = await walkCodebase(fs, '/repo', {
    ...base(),
    onFile: (f: SourceFile) => order.push(`${f.path} ${f.language.id}`),
    ...extra,
    ...(extra.onOtherFile ? { onOtherFile: (f: OtherFile) => (extra.onOtherFile!(f), order.push(`${f.path} -`)) } : {}),
  });
  return { order, indexed: result.files.map((f) => f.path), unknown: Object.fromEntries(result.unknownExtensions) };
}

describe('walker: every file, hidden files', () => {
  it('indexing walks are unchanged: only indexable, non-hidden files', async () => {
    const { order, indexed, unknown } = await walk(tree(), {});
    expect(order).toEqual(['/repo/app.py python', '/repo/lib/util.go go']);
    expect(indexed).toEqual(['/repo/app.py', '/repo/lib/util.go']);
    expect(unknown).toEqual({ '.md': 1, '.txt': 1, '.json': 1 });
  });

  it('onOtherFile receives the other files in walk order, with stats, under the same rules', async () => {
    const others: OtherFile[] = [];
    const { order, indexed, unknown } = await walk(tree(), { onOtherFile: (f) => others.push(f) });
    expect(order).toEqual(['/repo/README.md -', '/repo/app.py python', '/repo/notes-link.txt -', '/repo/lib/data.json -', '/repo/lib/util.go go']);
    expect(indexed).toEqual(['/repo/app.py', '/repo/lib/util.go']); // never in WalkResult.files
    expect(unknown).toEqual({ '.md': 1, '.txt': 1, '.json': 1 });
    expect(others.find((f) => f.path === '/repo/notes-link.txt')).toMatchObject({ size: 2 }); // the target's size
  });

  it('hidden walks dot files and folders, never .git', async () => {
    const { order } = await walk(tree(), { hidden: true, onOtherFile: () => undefined });
    expect(order).toEqual([
      '/repo/.gitignore -',
      '/repo/README.md -',
      '/repo/app.py python',
      '/repo/notes-link.txt -',
      '/repo/.github/ci.yml -',
      '/repo/lib/data.json -',
      '/repo/lib/util.go go',
    ]);
  });

  it('kept folder plans are per option set: an index walk and a search walk alternate without mixing', async () => {
    const fs = tree();
    const listings = new ListingCache();
    const index1 = await walk(fs, { listings });
    const search1 = await walk(fs, { listings, hidden: true, onOtherFile: () => undefined });
    const index2 = await walk(fs, { listings });
    const search2 = await walk(fs, { listings, hidden: true, onOtherFile: () => undefined });
    const search3 = await walk(fs, { listings, hidden: true, onOtherFile: () => undefined }); // from its own plans
    expect(index2).toEqual(index1);
    expect(search2).toEqual(search1);
    expect(search3).toEqual(search1);
    expect(search1.order).toContain('/repo/.github/ci.yml -');
    expect(index1.order).toEqual(['/repo/app.py python', '/repo/lib/util.go go']);
  });
});
