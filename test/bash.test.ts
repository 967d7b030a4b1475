import { describe, expect, it } from 'vitest';
import { extractRows } from './helpers/extract.js';
import { fixture } from './helpers/fixtures.js';

describe('bash visitor', () => {
  it('extracts every function form, named as written, with nested parents and exact ranges', async () => {
    const { rows, db } = await extractRows('tools.sh', fixture('bash/tools.sh'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(0);
      expect(rows).toEqual([
        { kind: 'function', name: 'log::info', lines: '4-6' },
        { kind: 'function', name: 'cleanup', lines: '8-10' },
        { kind: 'function', name: 'with_parens', lines: '12-15' },
        { kind: 'function', name: 'in_subshell', lines: '17-20' },
        { kind: 'function', name: 'outer', lines: '22-28' },
        { kind: 'function', name: 'inner', lines: '23-23', parent: 'outer' },
        { kind: 'function', name: 'deep', lines: '24-26', parent: 'outer' },
        { kind: 'function', name: 'nested_again', lines: '25-25', parent: 'deep' },
        { kind: 'function', name: 'my-tool', lines: '30-30' },
      ]);
    } finally {
      db.close();
    }
  });

  it('answers queries by the written name and has no classes', async () => {
    const { db } = await extractRows('tools.sh', fixture('bash/tools.sh'));
    try {
      expect(db.stats().classes).toBe(0);
      expect(await db.queryClass('outer')).toEqual([]);
      const [info] = await db.queryFunction('log::info');
      expect(info?.body).toBe('log::info() {\n  echo "[info] $*"\n}');
      const [sub] = await db.queryFunction('in_subshell');
      expect(sub?.body).toBe('in_subshell() (\n  cd /tmp\n  ls\n)');
      const [deep] = await db.queryFunction('nested_again');
      expect(deep?.parentFunction).toBe('deep');
      expect(await db.queryFunction('cleanup', 'class_method')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('still finds the definitions outside an ERROR region', async () => {
    const { rows, db } = await extractRows('broken.sh', fixture('bash/broken.sh'));
    try {
      expect(db.report?.filesWithSyntaxErrors).toBe(1);
      // `if then fi` makes `broken` an ERROR region; `after` is recovered inside it, unparented.
      expect(rows).toEqual([
        { kind: 'function', name: 'before', lines: '1-3' },
        { kind: 'function', name: 'after', lines: '9-11' },
      ]);
    } finally {
      db.close();
    }
  });

  it('indexes .bash files with the same visitor', async () => {
    const { rows, db } = await extractRows('env.bash', 'export PATH\n\nfunction setup_env() {\n  export A=1\n}\n');
    try {
      expect(db.languages.forPath('/src/env.bash')?.id).toBe('bash');
      expect(rows).toEqual([{ kind: 'function', name: 'setup_env', lines: '3-5' }]);
    } finally {
      db.close();
    }
  });
});
