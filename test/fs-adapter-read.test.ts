// How FsAdapter.readBytes reads a file through descriptors (node:fs): the size fstat gives, in
// as few reads as the file system needs, and pseudo-files that report size 0 to their end.
import nodeFs from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileSystem } from '../src/index.js';
import { FsAdapter } from '../src/fs/adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'ckg-read-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** node:fs with its reads counted and, optionally, every fstat reporting size 0 (as /proc files do). */
function countingFs(options: { readonly sizeZero?: boolean } = {}): { fs: FileSystem; reads: () => number } {
  let reads = 0;
  const fs = {
    ...nodeFs,
    readSync: (...args: Parameters<typeof nodeFs.readSync>) => {
      reads++;
      return nodeFs.readSync(...args);
    },
    fstatSync: (fd: number) => {
      const stats = nodeFs.fstatSync(fd);
      if (options.sizeZero) Object.defineProperty(stats, 'size', { value: 0 });
      return stats;
    },
  } as unknown as FileSystem;
  return { fs, reads: () => reads };
}

describe('FsAdapter.readBytes through descriptors', () => {
  it('reads a file in one read of the size fstat gives', async () => {
    const path = join(dir, 'one.py');
    const text = 'def f():\n    return 1\n'.repeat(2000);
    writeFileSync(path, text);
    const { fs, reads } = countingFs();
    const bytes = await new FsAdapter(fs).readBytes(path);
    expect(new TextDecoder().decode(bytes)).toBe(text);
    expect(bytes.length).toBe(Buffer.byteLength(text));
    // A second read to find the end (with a buffer twice as large, then a copy) was the cost.
    expect(reads()).toBe(1);
  });

  it('reads an empty file without a read', async () => {
    const path = join(dir, 'empty.py');
    writeFileSync(path, '');
    const { fs, reads } = countingFs();
    const bytes = await new FsAdapter(fs).readBytes(path);
    expect(bytes.length).toBe(0);
    expect(reads()).toBeLessThanOrEqual(1);
  });

  it('reads a file whose fstat reports size 0 to its end', async () => {
    const path = join(dir, 'proc-like.py');
    // Several times the first 8 KiB buffer: the buffer grows while reads return bytes.
    const text = Array.from({ length: 3000 }, (_, i) => `def f${i}():\n    return ${i}\n`).join('');
    writeFileSync(path, text);
    const { fs } = countingFs({ sizeZero: true });
    const bytes = await new FsAdapter(fs).readBytes(path);
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });
});
