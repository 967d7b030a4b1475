import nodeFs from 'node:fs';
import git from 'isomorphic-git';
import type { FileSystem } from '../../src/index.js';
import type { FixtureTree } from './fixtures.js';

const AUTHOR = { name: 'Test', email: 'test@example.com', timestamp: 1_700_000_000, timezoneOffset: 0 };

type GitFs = Parameters<typeof git.init>[0]['fs'];

/** The object isomorphic-git takes for a tree's backend (memfs volume or node:fs). */
export function gitFs(tree: FixtureTree): GitFs {
  return (tree.fs === (nodeFs as unknown as FileSystem) ? nodeFs : tree.fs) as unknown as GitFs;
}

/** `git init` in `dir` (default the tree's root). */
export async function gitInit(tree: FixtureTree, dir = tree.root): Promise<void> {
  await git.init({ fs: gitFs(tree), dir, defaultBranch: 'main' });
}

/** `git add -A` (new and modified files; removed ones are dropped from the index) then `git commit`. */
export async function gitCommitAll(tree: FixtureTree, message = 'commit', dir = tree.root): Promise<string> {
  const fs = gitFs(tree);
  for (const [filepath, , worktree] of await git.statusMatrix({ fs, dir })) {
    if (worktree === 0) await git.remove({ fs, dir, filepath });
    else await git.add({ fs, dir, filepath });
  }
  // A fixed author time: two repositories with the same files get the same commit id.
  return git.commit({ fs, dir, message, author: AUTHOR, committer: AUTHOR });
}

/** `git add <file>` only. */
export async function gitAdd(tree: FixtureTree, filepath: string, dir = tree.root): Promise<void> {
  await git.add({ fs: gitFs(tree), dir, filepath });
}
