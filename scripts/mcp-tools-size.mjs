// The size of the MCP server's tools/list answer as a client receives it, per-command and
// single-tool mode. Usage (after `npm run build`): node scripts/mcp-tools-size.mjs [root]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const root = process.argv[2] ?? fileURLToPath(new URL('../examples/python-app', import.meta.url));
for (const mode of [[], ['--single-tool']]) {
  const client = new Client({ name: 'tools-size', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', root, '--no-cache', ...mode], stderr: 'ignore' }));
  const { tools } = await client.listTools();
  console.log(`${mode.length ? 'single-tool' : 'per-command'}: ${tools.length} tools, ${JSON.stringify({ tools }).length} characters`);
  await client.close();
}
