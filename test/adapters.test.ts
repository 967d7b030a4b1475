// The framework adapters, checked with the frameworks themselves (dev dependencies): OpenAI's
// strict-schema transform, the Vercel AI SDK driving a tool call through generateText with its
// mock model, LangChain's tool() validating input, and every framework's types (tsc).
import { execFile } from 'node:child_process';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tool as langChainTool } from '@langchain/core/tools';
import { generateText, jsonSchema, stepCountIs, tool as vercelTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anthropicTools,
  ckgToolDefinitions,
  langChainTools,
  openAIChatTools,
  openAIResponsesTools,
  runToolCall,
  vercelAITools,
} from '../src/adapters/index.js';
import { CKGTool } from '../src/index.js';
import { TOOL_COMMANDS } from '../src/tool/commands.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const example = `${repo}examples/python-app`;
const tool = new CKGTool({ fs: nodeFs, refresh: false });
afterAll(() => tool.close());

const modes = [
  ['per command', ckgToolDefinitions({ tool })],
  ['per command, default path', ckgToolDefinitions({ tool, defaultPath: example })],
  ['single tool', ckgToolDefinitions({ tool, mode: 'single' })],
] as const;

describe.each(modes)('adapters (%s)', (_, definitions) => {
  it('OpenAI strict schemas are what OpenAI makes of them (a fixed point of its strict transform)', () => {
    for (const t of openAIChatTools(definitions)) {
      expect(t.function.strict).toBe(true);
      expect(toStrictJsonSchema(t.function.parameters as never)).toEqual(t.function.parameters);
      expect(Object.keys(t.function.parameters.properties).sort()).toEqual([...t.function.parameters.required].sort());
    }
    for (const t of openAIResponsesTools(definitions)) expect(toStrictJsonSchema(t.parameters as never)).toEqual(t.parameters);
    // The loose schemas are not strict: OpenAI's transform rejects an optional property.
    const loose = definitions.find((d) => d.inputSchema.required.length < Object.keys(d.inputSchema.properties).length);
    if (loose) expect(() => toStrictJsonSchema(loose.inputSchema as never)).toThrow(/optional/);
  });

  it('Anthropic tools carry name, description and input_schema', () => {
    expect(anthropicTools(definitions).map((t) => [t.name, t.input_schema])).toEqual(definitions.map((d) => [d.name, d.inputSchema]));
  });
});

describe('adapters run the commands', () => {
  const definitions = ckgToolDefinitions({ tool, defaultPath: example });

  it('a null argument means the default, as strict-mode models send it', async () => {
    for (const command of TOOL_COMMANDS) {
      const nulls = Object.fromEntries(Object.keys(definitions.find((d) => d.name === command.name)!.inputSchema.properties).map((k) => [k, null]));
      const withNulls = await runToolCall(definitions, command.name, JSON.stringify({ ...nulls, identifier: 'parse_config' }));
      const without = await runToolCall(definitions, command.name, { identifier: 'parse_config' });
      expect(withNulls).toBe(without);
      expect(withNulls).not.toMatch(/^Error/);
    }
    expect(await runToolCall(definitions, 'search_function', '{oops')).toMatch(/^Error: the arguments are not JSON/);
    expect(await runToolCall(definitions, 'nope', {})).toMatch(/^Error: unknown tool "nope"/);
  });

  it('Vercel AI SDK: generateText calls the tool for a (mock) model and hands back its answer', async () => {
    const tools = vercelAITools(definitions, { tool: vercelTool, jsonSchema });
    let call = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        call++;
        const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
        if (call === 1) {
          return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search_class', input: JSON.stringify({ identifier: 'Button', print_body: false }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
        }
        return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      },
    });
    const result = await generateText({ model, tools, prompt: 'Where is Button?', stopWhen: stepCountIs(3) });
    const toolResult = result.steps[0]!.toolResults[0]!;
    expect(toolResult.output).toBe(`Found 1 class named Button:\n1. ${example}/app/widgets.py:14-21\nFields:\n- kind = "button"\nMethods:\n- render(self) -> str\n- click(self, handler)\n`);
    expect(result.text).toBe('done');
  });

  it("LangChain.js: tool() validates the input against the schema and runs the command", async () => {
    const [first] = langChainTools(definitions, langChainTool);
    expect(first!.name).toBe(TOOL_COMMANDS[0]!.name);
    expect(await first!.invoke({ identifier: 'parse_config', ...(TOOL_COMMANDS[0]!.printsBodies ? { print_body: false } : {}) })).toBe(
      (await runToolCall(definitions, TOOL_COMMANDS[0]!.name, { identifier: 'parse_config', print_body: false })),
    );
    await expect(first!.invoke({ identifier: 42 } as never)).rejects.toThrow(/did not match expected schema/);
  });

  it("the adapters' outputs type-check against the frameworks' own types", async () => {
    await promisify(execFile)(process.execPath, [`${repo}node_modules/typescript/bin/tsc`, '-p', `${repo}test/types/tsconfig.json`], { cwd: repo });
  }, 120_000);
});

describe('answerWithinMs', () => {
  it('answers "indexing" only during a first build: the refresh before each later answer is waited for', async () => {
    const root = nodeFs.mkdtempSync(`${tmpdir()}/ckg-within-`);
    try {
      // Enough to parse that the build outlasts a turn of the event loop (it yields every 16 ms):
      // a build finished before the answer timer can run answers at once, rightly.
      const filler = (i: number): string => Array.from({ length: 300 }, (_, k) => `def h${i}_${k}(a, b):\n    return a + b + ${k}\n`).join('');
      for (let i = 0; i < 40; i++) nodeFs.writeFileSync(`${root}/m${i}.py`, `def f${i}():\n    return ${i}\n${filler(i)}`);
      const refreshing = new CKGTool({ fs: nodeFs });
      try {
        const [find] = ckgToolDefinitions({ tool: refreshing, defaultPath: root, answerWithinMs: 0 }).filter((d) => d.name === 'search_function');
        let first = await find!.execute({ identifier: 'f3', print_body: false });
        expect(first).toMatchObject({ pending: true, error: expect.stringMatching(/^Indexing .*% done/) });
        while ('error' in first && first.pending) first = await find!.execute({ identifier: 'f3', print_body: false });
        expect(first).toMatchObject({ output: `Found 1 function named f3:\n1. ${root}/m3.py:1-2\n` });
        // Each later call refreshes the index (an edit between calls makes it re-parse a file):
        // every one answers, none says "indexing".
        for (let i = 0; i < 10; i++) {
          nodeFs.writeFileSync(`${root}/m${i}.py`, `def g${i}():\n    return ${i}\n`);
          expect(await find!.execute({ identifier: `g${i}`, print_body: false })).toMatchObject({ output: `Found 1 function named g${i}:\n1. ${root}/m${i}.py:1-2\n` });
        }
      } finally {
        await refreshing.close();
      }
    } finally {
      nodeFs.rmSync(root, { recursive: true, force: true });
    }
  });
});
