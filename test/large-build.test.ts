// What a large build does before its resolution pass: its parse workers are released (they hold
// parser memory that only grows), through FileProcessor.releaseIdle, after the last file is
// parsed. The threshold is lowered here (SyncOptions.largeBuildSites) to stay a unit test.
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { platform } from '#platform';
import { IndexStore } from '../src/db/store.js';
import { FsAdapter } from '../src/fs/adapter.js';
import { ManifestReader } from '../src/graph/manifests.js';
import { syncIndex } from '../src/indexer/indexer.js';
import type { FileProcessor } from '../src/indexer/report.js';
import { DEFAULT_SKIPPED_DIRECTORIES, walkCodebase } from '../src/indexer/walker.js';
import { createDefaultRegistry, type LanguageDefinition, type ProcessOptions } from '../src/index.js';
import { LocalProcessor } from '../src/parser/local-processor.js';
import { ParserPool } from '../src/parser/runtime.js';
import { makeTree } from './helpers/fixtures.js';

/** A real in-thread processor that logs what the build asks of it. */
function loggingProcessor(log: string[]): FileProcessor & { close(): Promise<void> } {
  const parsers = new ParserPool({});
  const local = new LocalProcessor(parsers);
  return {
    process: async (language: LanguageDefinition, source: string, path: string, options?: ProcessOptions) => {
      log.push(`parse ${path.slice(path.lastIndexOf('/') + 1)}`);
      return await local.process(language, source, path, options);
    },
    releaseIdle: async () => {
      log.push('release');
    },
    close: () => parsers.delete(),
  };
}

async function build(largeBuildSites: number, graph = true): Promise<string[]> {
  const files: Record<string, string> = {};
  // 3 files, 4 call sites each (plus imports): 15 pending sites in all.
  for (let i = 0; i < 3; i++) files[`m${i}.py`] = `import os\n\ndef f${i}():\n    a()\n    b()\n    c()\n    d()\n`;
  const tree = makeTree('memfs', files);
  const fs = new FsAdapter(tree.fs).confinedTo(tree.root);
  const registry = createDefaultRegistry();
  const walk = await walkCodebase(fs, tree.root, { registry, maxFileSize: 1 << 20, skipDirectories: DEFAULT_SKIPPED_DIRECTORIES, exclude: [], respectGitignore: true });
  const store = IndexStore.create(await initSqlJs());
  const log: string[] = [];
  const processor = loggingProcessor(log);
  const manifests = new ManifestReader(fs, tree.root, []);
  try {
    await syncIndex({
      fs,
      root: tree.root,
      naming: { rootName: 'repo', rootIsPythonPackage: false, manifests: manifests.found },
      graph,
      store,
      walk,
      processor,
      largeBuildSites,
      onProgress: (e) => {
        if (e.phase === 'write' || e.phase === 'done' || (e.phase === 'graph' && e.graphDone === 0)) log.push(e.phase);
      },
    });
    expect(store.graphCounts().edges).toBeGreaterThanOrEqual(graph ? 15 : 0);
  } finally {
    store.close();
    await processor.close();
  }
  return log;
}

describe('a large build', () => {
  it('releases idle parse workers once every file is parsed, before resolving', async () => {
    expect(await build(10)).toEqual(['parse m0.py', 'parse m1.py', 'parse m2.py', 'release', 'graph', 'write', 'done']);
  });

  it('a smaller build keeps its workers, and so does a build without the graph', async () => {
    expect(await build(1000)).not.toContain('release');
    expect(await build(10, false)).not.toContain('release');
  });

  it('a full garbage collection really collects where the platform offers one (Node)', async () => {
    expect(platform.collectGarbage).toBeTypeOf('function');
    let target: object | undefined = { big: new Array(1000).fill(1) };
    const ref = new WeakRef(target);
    target = undefined;
    // WeakRefs are cleared only after the job that last read them ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    platform.collectGarbage!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ref.deref()).toBeUndefined();
  });
});
