// End to end: `ckg-wasm mcp` spawned as MCP clients spawn it, driven over stdio by the official
// SDK's client (v2), and by hand with newline-delimited JSON-RPC as 2025-era clients open.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodeFs from 'node:fs';
import { CKGTool } from '../src/index.js';
import { commandInputSchema, INDEX_STATUS_TOOL } from '../src/adapters/definitions.js';
import { TOOL_COMMANDS } from '../src/tool/commands.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const cli = join(repo, 'dist/cli/main.js');
const example = join(repo, 'examples/python-app');

let scratch: string;
const clients: Client[] = [];

/** A generated Python tree large enough that an in-thread build takes a while. */
function bigTree(name: string, files: number): string {
  const root = join(scratch, name);
  for (let i = 0; i < files; i++) {
    const dir = join(root, `pkg${i % 20}`);
    mkdirSync(dir, { recursive: true });
    const body = Array.from({ length: 40 }, (_, k) => `def f${i}_${k}(x):\n    return x + ${k}\n\n\nclass C${i}_${k}:\n    def m(self):\n        return ${k}\n`).join('\n');
    writeFileSync(join(dir, `mod${i}.py`), `def target_${i}():\n    pass\n\n${body}`);
  }
  return root;
}

async function connect(args: string[], cacheDir = join(scratch, 'cache')): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args, '--cache-dir', cacheDir], stderr: 'pipe' });
  const client = new Client({ name: 'ckg-wasm-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ckg-mcp-'));
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

describe('ckg-wasm mcp (official SDK client over stdio)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect([example, '--workers', '0']);
  });

  it('lists one tool per command of the table, in its order, plus index_status, within 6,000 characters', async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([...TOOL_COMMANDS.map((c) => c.name), INDEX_STATUS_TOOL]);
    for (const command of TOOL_COMMANDS) {
      const tool = listed.tools.find((t) => t.name === command.name)!;
      expect(tool.inputSchema).toEqual(commandInputSchema(command, true));
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      if (command.output) expect(tool.outputSchema).toEqual(command.output);
    }
    const size = JSON.stringify(listed).length;
    console.log(`tools/list: ${listed.tools.length} tools, ${size} characters`);
    expect(size).toBeLessThanOrEqual(6000);
    expect(client.getInstructions()).toContain(example);
  });

  it('answers every command like the library, with structured content next to the text', async () => {
    const tool = new CKGTool({ fs: nodeFs, refresh: false });
    try {
      for (const command of TOOL_COMMANDS) {
        for (const identifier of ['parse_config', 'Button', 'click', 'no_such_name']) {
          const args = { identifier, ...(command.printsBodies ? { print_body: false } : {}) };
          const got = await client.callTool({ name: command.name, arguments: args });
          const expected = await tool.call({ command: command.name, path: example, ...args });
          expect('output' in expected, JSON.stringify(expected)).toBe(true);
          if (!('output' in expected)) continue;
          expect(got.isError ?? false).toBe(false);
          expect(got.content).toEqual([{ type: 'text', text: expected.output }]);
          // The client has checked structuredContent against the tool's outputSchema already.
          if (command.output) expect(got.structuredContent).toEqual(expected.structured);
        }
      }
    } finally {
      await tool.close();
    }
    const hit = await client.callTool({ name: 'search_function', arguments: { identifier: 'parse_config', print_body: false } });
    expect(hit.structuredContent).toEqual({ total: 1, matches: [{ file: `${example}/app/config.py`, start: 15, end: 22 }] });
  });

  it('reports the index state', async () => {
    const status = await client.callTool({ name: INDEX_STATUS_TOOL, arguments: {} });
    // The counts are the database's own (files, symbols, and edges once the graph has them).
    const tool = new CKGTool({ fs: nodeFs, refresh: false });
    try {
      await tool.call({ command: TOOL_COMMANDS[0]!.name, path: example, identifier: 'x' });
      const { files, symbols, edges, languages } = await tool.status(example);
      expect(status.structuredContent).toMatchObject({ root: example, state: 'ready', updating: false, files, symbols, languages, ...(edges !== undefined ? { edges } : {}) });
      expect(files).toBe(4);
      expect(languages).toEqual({ python: 4 });
      const counts = `${files} files, ${symbols} symbols${edges !== undefined ? `, ${edges} edges` : ''}`;
      expect((status.content as { text: string }[])[0]!.text).toMatch(new RegExp(`: ready; ${counts}; languages: python 4; no update running; last update \\d{4}-`));
    } finally {
      await tool.close();
    }
  });

  it('answers a bad path as an error result, once', async () => {
    const got = await client.callTool({ name: 'search_class', arguments: { path: join(scratch, 'missing'), identifier: 'X' } });
    expect(got).toMatchObject({ isError: true, content: [{ type: 'text', text: `Codebase path ${join(scratch, 'missing')} does not exist` }] });
  });

  it('sends progress notifications during a real build, then answers', async () => {
    const root = bigTree('progress', 150);
    const events: { progress: number; total?: number; message?: string }[] = [];
    const got = await client.callTool({ name: 'search_function', arguments: { path: root, identifier: 'target_7', print_body: false } }, { onprogress: (p) => events.push(p), timeout: 120_000 });
    expect(got.content).toEqual([{ type: 'text', text: `Found 1 function named target_7:\n1. ${root}/pkg7/mod7.py:1-2\n` }]);
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)!.message).toMatch(/^indexing, \d+% done \(\d+\/\d+\+? files\)$/);
    for (let i = 1; i < events.length; i++) expect(events[i]!.progress).toBeGreaterThanOrEqual(events[i - 1]!.progress);
  });

  it('honours cancellation: the abandoned build stops and leaves no index', async () => {
    const root = bigTree('cancel', 150);
    const controller = new AbortController();
    const call = client.callTool({ name: 'search_class', arguments: { path: root, identifier: 'C1_1' } }, { signal: controller.signal, onprogress: () => controller.abort('enough') });
    await expect(call).rejects.toThrow();
    // The server drops the build once nobody waits for it.
    let state: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      state = (await client.callTool({ name: INDEX_STATUS_TOOL, arguments: { path: root } })).structuredContent as Record<string, unknown>;
      if (state.updating === false) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(state).toMatchObject({ state: 'none', updating: false });
    const again = await client.callTool({ name: 'search_class', arguments: { path: root, identifier: 'C1_1', print_body: false } }, { timeout: 120_000 });
    expect((again.content as { text: string }[])[0]!.text).toMatch(new RegExp(`^Found 1 class named C1_1:\\n1\\. ${root}/pkg1/mod1\\.py:\\d+-\\d+\\n`));
  });
});

describe('ckg-wasm mcp: answering while a build runs, single-tool mode, persistence', () => {
  it('answers "indexing, N% done" instead of blocking, while the build goes on', async () => {
    const root = bigTree('pending', 150);
    const client = await connect([root, '--workers', '0', '--answer-within', '0']);
    const first = await client.callTool({ name: 'search_function', arguments: { identifier: 'target_3', print_body: false } });
    expect(first.isError).toBe(true);
    expect((first.content as { text: string }[])[0]!.text).toMatch(new RegExp(`^Indexing ${root}, \\d+% done.*call again`));
    let answer: string | undefined;
    for (let i = 0; i < 600 && answer === undefined; i++) {
      const got = await client.callTool({ name: 'search_function', arguments: { identifier: 'target_3', print_body: false } });
      if (!got.isError) answer = (got.content as { text: string }[])[0]!.text;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer).toBe(`Found 1 function named target_3:\n1. ${root}/pkg3/mod3.py:1-2\n`);
  });

  it('offers the single ckg tool with the command enum', async () => {
    const client = await connect([example, '--workers', '0', '--single-tool']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ckg', INDEX_STATUS_TOOL]);
    expect((tools[0]!.inputSchema.properties as Record<string, { enum?: string[] }>).command!.enum).toEqual(TOOL_COMMANDS.map((c) => c.name));
    const got = await client.callTool({ name: 'ckg', arguments: { command: 'search_class_method', identifier: 'click', print_body: false } });
    expect(got.content).toEqual([{ type: 'text', text: `Found 1 class method named click:\n1. ${example}/app/widgets.py:20-21 within class Button\n` }]);
  });

  it('keeps the index in its storage folder between runs and writes nothing else', async () => {
    const cacheDir = join(scratch, 'persist-cache');
    const root = bigTree('persist', 5);
    const before = readdirSync(root, { recursive: true }).sort();
    const first = await connect([root, '--workers', '0'], cacheDir);
    await first.callTool({ name: 'search_function', arguments: { identifier: 'target_1' } });
    await first.close();
    // The index, and the folder listings a restarted server's first walk reuses (the snapshot memo
    // too, once the tree is older than the racy window; this one was just written).
    const kinds = (name: string): string => (name.endsWith('.folders.db') ? 'folders' : name.endsWith('.walk.db') ? 'walk' : 'index');
    expect(readdirSync(cacheDir).filter((n) => n.endsWith('.db')).map(kinds).filter((k) => k !== 'walk')).toEqual(['index', 'folders']);
    const second = await connect([root, '--workers', '0'], cacheDir);
    await second.callTool({ name: 'search_function', arguments: { identifier: 'target_1' } });
    const status = await second.callTool({ name: INDEX_STATUS_TOOL, arguments: {} });
    expect(status.structuredContent).toMatchObject({ state: 'ready', origin: 'storage', files: 5 });
    expect(readdirSync(root, { recursive: true }).sort()).toEqual(before);
  });
});

describe('ckg-wasm mcp: 2025-era clients over newline-delimited JSON-RPC', () => {
  /** Sends lines to a fresh server and collects the answers to the requests with ids. */
  async function exchange(lines: object[], ids: number): Promise<Record<string, unknown>[]> {
    const child = spawn(process.execPath, [cli, 'mcp', example, '--workers', '0', '--cache-dir', join(scratch, 'cache')], { stdio: ['pipe', 'pipe', 'pipe'] });
    const answers: Record<string, unknown>[] = [];
    let buffer = '';
    const done = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
          buffer = buffer.slice(newline + 1);
          if ('id' in message) answers.push(message);
          if (answers.length === ids) resolve();
        }
      });
      child.on('exit', () => reject(new Error(`server exited after ${answers.length} answers`)));
    });
    for (const line of lines) child.stdin.write(`${JSON.stringify(line)}\n`);
    try {
      await done;
    } finally {
      child.stdin.end();
    }
    return answers;
  }

  it.each(['2025-06-18', '2025-11-25'])('answers initialize at %s, then lists and calls tools', async (protocolVersion) => {
    const answers = await exchange(
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'search_class', arguments: { identifier: 'Button', print_body: false } } },
      ],
      3,
    );
    expect(answers[0]).toMatchObject({ id: 1, result: { protocolVersion, serverInfo: { name: 'ckg-wasm' }, capabilities: { tools: {} } } });
    expect((answers[1]!.result as { tools: { name: string }[] }).tools.map((t) => t.name)).toContain('search_class');
    expect(answers[2]).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: expect.stringContaining(`${example}/app/widgets.py:14-21`) }] } });
  });
});
