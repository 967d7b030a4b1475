import { mkdtempSync, mkdirSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Volume } from 'memfs';
import type { FileSystem } from '../../src/index.js';

/** A codebase laid out on one backend: its root path and the fs to read it with. */
export interface FixtureTree {
  readonly root: string;
  readonly fs: FileSystem;
  /** Writes (or overwrites) a file relative to the root. */
  write(rel: string, content: string | Uint8Array): void;
  remove(rel: string): void;
  cleanup(): void;
}

export type Backend = 'memfs' | 'node';
export const BACKENDS: readonly Backend[] = ['memfs', 'node'];

/** Creates the same tree of files in memfs or in a temp dir on node:fs. */
export function makeTree(backend: Backend, files: Record<string, string | Uint8Array>): FixtureTree {
  if (backend === 'memfs') {
    const vol = new Volume();
    const root = '/work/repo';
    vol.mkdirSync(root, { recursive: true });
    const write = (rel: string, content: string | Uint8Array): void => {
      const path = `${root}/${rel}`;
      vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
      vol.writeFileSync(path, content);
    };
    for (const [rel, content] of Object.entries(files)) write(rel, content);
    return {
      root,
      fs: vol as unknown as FileSystem,
      write,
      remove: (rel) => vol.rmSync(`${root}/${rel}`, { recursive: true, force: true }),
      cleanup: () => undefined,
    };
  }
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ckg-test-')));
  const write = (rel: string, content: string | Uint8Array): void => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const [rel, content] of Object.entries(files)) write(rel, content);
  return {
    root,
    fs: nodeFs,
    write,
    remove: (rel) => rmSync(join(root, rel), { recursive: true, force: true }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Reads a fixture file from test/fixtures. */
export function fixture(rel: string): string {
  return nodeFs.readFileSync(new URL(`../fixtures/${rel}`, import.meta.url), 'utf8');
}
