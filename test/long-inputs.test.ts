// Very long inputs: an identifier is echoed clipped, a storage key too long for a file name is hashed.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CKGTool, MAX_OUTPUT_CHARS } from '../src/index.js';
import { DirectoryStorage } from '../src/node/index.js';
import { makeTree } from './helpers/fixtures.js';

describe('long inputs', () => {
  it('a 100 kB identifier or path is echoed clipped, short ones exactly as before', async () => {
    const tree = makeTree('memfs', { 'a.py': 'def f():\n    pass\n' });
    const tool = new CKGTool({ fs: tree.fs });
    try {
      const huge = 'x'.repeat(100_000);
      const result = await tool.execute({ command: 'search_function', path: tree.root, identifier: huge });
      expect(result).toEqual({ output: `No functions named ${'x'.repeat(200)}… (100000 characters) found.` });
      for (const command of ['search_class', 'search_class_method']) {
        const r = await tool.execute({ command, path: tree.root, identifier: huge });
        expect('output' in r && r.output.length).toBeLessThan(400);
      }
      const badCommand = await tool.execute({ command: huge, path: tree.root, identifier: 'f' });
      expect('error' in badCommand && badCommand.error.length).toBeLessThan(400);
      const badPath = await tool.execute({ command: 'search_class', path: `/${huge}`, identifier: 'f' });
      expect('error' in badPath && badPath.error.length).toBeLessThan(MAX_OUTPUT_CHARS);
      expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'nope' })).toEqual({ output: 'No functions named nope found.' });
    } finally {
      await tool.close();
    }
  });

  it('DirectoryStorage keeps keys too long for a file name under their hash, and lists them', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'ckg-keys-'));
    try {
      const storage = new DirectoryStorage({ directory });
      const long = `/home/someone/${'deeply/nested/'.repeat(40)}repo`;
      const other = `${long}-other`;
      await storage.set(long, new Uint8Array([1, 2, 3]));
      await storage.set(other, new Uint8Array([4]));
      await storage.set('short', new Uint8Array([5]));
      expect(await storage.get(long)).toEqual(new Uint8Array([1, 2, 3]));
      expect(await storage.get(other)).toEqual(new Uint8Array([4]));
      expect((await storage.list()).map((e) => e.key).sort()).toEqual([long, other, 'short'].sort());
      expect(readdirSync(directory).every((name) => name.length <= 200)).toBe(true);
      // Keys are never paths: '../' and '/' stay inside the folder.
      await storage.set('../../escape/attempt', new Uint8Array([6]));
      await storage.set('/etc/passwd', new Uint8Array([7]));
      expect(readdirSync(join(directory, '..')).some((n) => n.includes('escape'))).toBe(false);
      expect(await storage.get('../../escape/attempt')).toEqual(new Uint8Array([6]));
      await storage.delete('../../escape/attempt');
      await storage.delete('/etc/passwd');
      await storage.delete(long);
      expect(await storage.get(long)).toBeUndefined();
      expect((await storage.list()).map((e) => e.key).sort()).toEqual([other, 'short'].sort());
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
