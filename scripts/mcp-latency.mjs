// Measures the MCP first-answer latency as a client sees it: spawn `ckg-wasm mcp <root>`, connect
// (initialize), first tools/call, second tools/call. Usage (after `npm run build`):
//   node scripts/mcp-latency.mjs dist/cli/main.js <root> <cache-dir> [extra mcp flags]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const [cli, root, cacheDir, ...extra] = process.argv.slice(2);
const t0 = performance.now();
const client = new Client({ name: 'latency', version: '1' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', root, '--cache-dir', cacheDir, ...extra], stderr: 'ignore' }));
const t1 = performance.now();
const r = await client.callTool({ name: 'search_class', arguments: { identifier: 'QuerySet', print_body: false } }, { timeout: 300000 });
const t2 = performance.now();
const r2 = await client.callTool({ name: 'search_function', arguments: { identifier: 'get_user_model', print_body: false } });
const t3 = performance.now();
console.log(JSON.stringify({ connectMs: Math.round(t1 - t0), firstAnswerMs: Math.round(t2 - t0), callMs: Math.round(t2 - t1), secondCallMs: Math.round(t3 - t2), ok: !r.isError && !r2.isError }));
await client.close();
