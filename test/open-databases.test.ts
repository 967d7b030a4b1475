// A long-lived CKGTool keeps at most `maxOpenDatabases` indexes open, least recently used closed
// first, never one a call is using.
import { describe, expect, it } from 'vitest';
import { CKGTool, type ProgressEvent } from '../src/index.js';
import { makeTree } from './helpers/fixtures.js';

describe('databases kept open by a tool', () => {
  const tree = makeTree('memfs', { 'a/x.py': 'def in_a(): pass\n', 'b/x.py': 'def in_b(): pass\n', 'c/x.py': 'def in_c(): pass\n' });
  const toolWith = (limit: number, builds: string[]) =>
    new CKGTool({ fs: tree.fs, maxOpenDatabases: limit, onProgress: (e: ProgressEvent) => void (e.phase === 'done' && builds.push('done')) });
  const ask = (tool: CKGTool, rel: string) => tool.execute({ command: 'search_function', path: `${tree.root}/${rel}`, identifier: `in_${rel}`, print_body: false });

  it('reopens an evicted codebase when asked again, keeps the recently used ones', async () => {
    const builds: string[] = [];
    const tool = toolWith(2, builds);
    try {
      expect(await ask(tool, 'a')).toEqual({ output: `Found 1 function named in_a:\n1. ${tree.root}/a/x.py:1-1\n` });
      await ask(tool, 'b');
      await ask(tool, 'a'); // a is now the most recently used, b the least
      expect(builds).toHaveLength(2);
      await ask(tool, 'c'); // closes b
      await ask(tool, 'a');
      expect(builds).toHaveLength(3);
      await ask(tool, 'b'); // b was closed: built again (and c, now the least recent, closed)
      expect(builds).toHaveLength(4);
      await ask(tool, 'a');
      expect(builds).toHaveLength(4);
    } finally {
      await tool.close();
    }
  });

  it('never closes a database under a call that uses it', async () => {
    const builds: string[] = [];
    const tool = toolWith(1, builds);
    try {
      const answers = await Promise.all(['a', 'b', 'c', 'a', 'b'].map((rel) => ask(tool, rel)));
      for (const [i, rel] of ['a', 'b', 'c', 'a', 'b'].entries()) expect(answers[i]).toEqual({ output: `Found 1 function named in_${rel}:\n1. ${tree.root}/${rel}/x.py:1-1\n` });
    } finally {
      await tool.close();
    }
  });
});
