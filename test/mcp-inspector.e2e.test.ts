// The MCP server checked by an independent client: @modelcontextprotocol/inspector in CLI mode
// (its own client build, a 2025-era handshake), as a user would run it against `ckg-wasm mcp`.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_COMMANDS } from '../src/tool/commands.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../', import.meta.url));
const inspector = join(repo, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const example = join(repo, 'examples/python-app');
let home: string;

/** `mcp-inspector --cli node dist/cli/main.js mcp <example> … --method …`, with a throwaway HOME. */
async function inspect(...method: string[]): Promise<unknown> {
  const server = [process.execPath, join(repo, 'dist/cli/main.js'), 'mcp', example, '--workers', '0', '--cache-dir', join(home, 'cache')];
  const { stdout } = await run(process.execPath, [inspector, '--cli', ...server, ...method], { env: { ...process.env, HOME: home }, timeout: 60_000 });
  return JSON.parse(stdout);
}

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'ckg-inspector-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('ckg-wasm mcp under @modelcontextprotocol/inspector --cli', () => {
  it('lists the tools, with no schema portability problem (--strict)', async () => {
    const listed = (await inspect('--method', 'tools/list', '--strict')) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual([...TOOL_COMMANDS.map((c) => c.name), 'index_status']);
  });

  it('calls a tool and gets text and structured content', async () => {
    const result = await inspect('--method', 'tools/call', '--tool-name', 'search_function', '--tool-arg', 'identifier=parse_config', '--tool-arg', 'print_body=false');
    expect(result).toEqual({
      content: [{ type: 'text', text: `Found 1 function named parse_config:\n1. ${example}/app/config.py:15-22\n` }],
      structuredContent: { total: 1, matches: [{ file: `${example}/app/config.py`, start: 15, end: 22 }] },
    });
  });
});
