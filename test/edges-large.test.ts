// db.edges() on answers of hundreds of thousands of rows (every edge of a large codebase, the
// callers of the kernel's `printk`): rows were spread into one call's arguments, which overflows
// the stack past about 130,000.
import { describe, expect, it } from 'vitest';
import { openGraph } from './helpers/graph.js';

describe('db.edges() on a large answer', () => {
  it('returns 200,000 calls of one function, filtered by target and unfiltered', async () => {
    const calls = 200_000;
    const g = await openGraph({ 'big.py': `def f():\n    pass\n\n${'f()\n'.repeat(calls)}` });
    try {
      const toF = await g.db.edges({ kind: 'calls', to: 'big.f' });
      expect(toF).toHaveLength(calls);
      expect(toF[calls - 1]).toMatchObject({ line: calls + 3, toName: 'f', resolution: 'local' });
      expect((await g.db.edges()).filter((e) => e.kind === 'calls')).toHaveLength(calls);
    } finally {
      g.close();
    }
  }, 120_000);
});
