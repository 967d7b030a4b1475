#!/usr/bin/env node
// Rewrites the example answer of every page of docs/commands from the tool's real answer on the
// fixture the pages name (test/command-docs.test.ts fails when a page is out of date).
//   npm run build && node scripts/update-command-docs.mjs
import nodeFs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const { CKGTool } = await import(join(repoRoot, 'dist/index.js'));
const dir = join(repoRoot, 'docs/commands');
const fixture = join(repoRoot, 'test/fixtures/graph/python');
const tool = new CKGTool({ fs: nodeFs });
for (const page of nodeFs.readdirSync(dir).filter((f) => f.endsWith('.md'))) {
  const path = join(dir, page);
  const text = nodeFs.readFileSync(path, 'utf8');
  const call = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(text)[1]);
  const result = await tool.execute({ ...call, path: fixture });
  const answer = 'output' in result ? result.output : result.error;
  nodeFs.writeFileSync(path, text.replace(/```text\n[\s\S]*?```/, () => `\`\`\`text\n${answer.replace(/\n?$/, '\n')}\`\`\``));
  console.log(`updated ${page}`);
}
await tool.close();
