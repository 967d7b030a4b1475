import { describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool, type ProgressEvent } from '../src/index.js';
import { OpenDatabases } from '../src/tool/open-databases.js';
import { makeTree } from './helpers/fixtures.js';

describe('databases kept open by a tool', () => {
  const tree = makeTree('memfs', { 'a/x.py': 'def in_a(): pass\n', 'b/x.py': 'def in_b(): pass\n', 'c/x.py': 'def in_c(): pass\n' });
  const open = (rel: string) => () => CKGDatabase.open({ codebasePath: `${tree.root}/${rel}`, fs: tree.fs });

  it('closes the least recently used beyond the limit, never one a call is using', async () => {
    const cache = new OpenDatabases(2);
    const opened: { rel: string; db: CKGDatabase }[] = [];
    const use = (rel: string, during?: () => Promise<void>) =>
      cache.use(rel, open(rel), async (db, reused) => {
        if (!reused) opened.push({ rel, db });
        await during?.();
        return db.stats().functions;
      });
    const state = () => opened.map(({ rel, db }) => `${rel}:${db.closed ? 'closed' : 'open'}`);
    await use('a');
    await use('b');
    await use('a'); // a is now the most recent, b the least
    expect(state()).toEqual(['a:open', 'b:open']);
    // While a call uses b, c and then a again are opened: the unused ones make room, b stays.
    await use('b', async () => {
      await use('c');
      expect(state()).toEqual(['a:closed', 'b:open', 'c:open']);
      await use('a');
    });
    expect(state()).toEqual(['a:closed', 'b:open', 'c:closed', 'a:open']);
    expect(cache.size).toBe(2);
    await cache.closeAll();
    expect(opened.every(({ db }) => db.closed)).toBe(true);
  });

  it('a tool reopens an evicted codebase when asked again', async () => {
    const builds: string[] = [];
    const tool = new CKGTool({
      fs: tree.fs,
      maxOpenDatabases: 1,
      onProgress: (e: ProgressEvent) => void (e.phase === 'done' && builds.push('done')),
    });
    try {
      const ask = async (rel: string) => tool.execute({ command: 'search_function', path: `${tree.root}/${rel}`, identifier: `in_${rel}`, print_body: false });
      expect(await ask('a')).toEqual({ output: `Found 1 function named in_a:\n1. ${tree.root}/a/x.py:1-1\n` });
      await ask('a');
      expect(builds).toHaveLength(1); // a stayed open
      await ask('b');
      await ask('a'); // a was closed to make room for b: built again
      expect(builds).toHaveLength(3);
    } finally {
      await tool.close();
    }
  });
});
