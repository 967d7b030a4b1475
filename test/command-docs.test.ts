// Each page of docs/commands shows a real tool call and its answer: this checks the answer is what
// the tool gives today on the fixture the page names.
import nodeFs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGTool } from '../src/index.js';
import { makeTree, type FixtureTree } from './helpers/fixtures.js';
import { graphFixture } from './helpers/graph.js';

const DIR = new URL('../docs/commands/', import.meta.url);
const PAGES = nodeFs.readdirSync(DIR).filter((f) => f.endsWith('.md')).sort();

let tree: FixtureTree;
let tool: CKGTool;
beforeAll(() => {
  tree = makeTree('memfs', graphFixture('python'));
  tool = new CKGTool({ fs: tree.fs });
});
afterAll(async () => {
  await tool.close();
});

describe('docs/commands', () => {
  it('has a page for every graph command', () => {
    expect(PAGES).toEqual(['class_hierarchy.md', 'dead_code.md', 'file_outline.md', 'find_callees.md', 'find_callers.md', 'search_symbols.md', 'trace_path.md']);
  });

  it.each(PAGES)('%s shows what the tool answers', async (page) => {
    const text = nodeFs.readFileSync(new URL(page, DIR), 'utf8');
    const call = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text)![1]!) as Record<string, unknown>;
    const answer = /```text\n([\s\S]*?)```/.exec(text)![1]!;
    expect(call.command).toBe(page.replace(/\.md$/, ''));
    const result = await tool.execute({ ...call, path: tree.root });
    expect(('output' in result ? result.output : result.error).replace(/\n?$/, '\n')).toBe(answer);
  });
});
