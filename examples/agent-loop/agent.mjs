#!/usr/bin/env node
// A minimal agent loop around the ckg tools, in the OpenAI Chat Completions shape. The "model"
// is a scripted stand-in (no network, no API key): it asks where a function is, reads the
// answer, then asks for the class that uses it, and finally replies. Swap `scriptedModel` for
// `(request) => openai.chat.completions.create(request)` to run it against a real model.
//
//   node examples/agent-loop/agent.mjs [codebase]     (after `npm run build`)
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CKGTool } from 'ckg-wasm';
import { ckgToolDefinitions, openAIChatTools, runToolCall } from 'ckg-wasm/adapters';

const codebase = process.argv[2] ?? fileURLToPath(new URL('../python-app', import.meta.url));

/** The stand-in model: a fixed script of tool calls, then an answer built from what it read. */
function scriptedModel() {
  let turn = 0;
  return async ({ messages, tools }) => {
    turn++;
    const names = new Set(tools.map((t) => t.function.name));
    const call = (name, args) => {
      if (!names.has(name)) throw new Error(`the model was not offered ${name}`);
      return { role: 'assistant', content: null, tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
    };
    // Strict mode: every property is sent, the ones the model does not care about as null.
    if (turn === 1) return call('search_function', { path: null, identifier: 'parse_config', print_body: false });
    if (turn === 2) return call('search_class', { path: null, identifier: 'Button', print_body: null });
    const found = messages.filter((m) => m.role === 'tool').map((m) => m.content.split('\n')[1]);
    return { role: 'assistant', content: `parse_config is at ${found[0]?.replace(/^1\. /, '')}; Button is at ${found[1]?.replace(/^1\. /, '')}.` };
  };
}

export async function runAgent(model, question, options = {}) {
  const tool = new CKGTool({ fs, refresh: true });
  const definitions = ckgToolDefinitions({ tool, defaultPath: options.codebase ?? codebase });
  const tools = openAIChatTools(definitions);
  const messages = [
    { role: 'system', content: 'You answer questions about a codebase with the ckg tools.' },
    { role: 'user', content: question },
  ];
  try {
    for (let step = 0; step < 8; step++) {
      const reply = await model({ model: 'scripted', messages, tools });
      messages.push(reply);
      if (!reply.tool_calls?.length) return { answer: reply.content, messages };
      for (const call of reply.tool_calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: await runToolCall(definitions, call.function.name, call.function.arguments) });
      }
    }
    throw new Error('the model did not answer within 8 steps');
  } finally {
    await tool.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { answer, messages } = await runAgent(scriptedModel(), 'Where are parse_config and Button defined?');
  for (const m of messages.slice(1)) {
    if (m.role === 'tool') console.log(`  [tool] ${m.content.trim().split('\n').join('\n         ')}`);
    else if (m.tool_calls) for (const c of m.tool_calls) console.log(`  [model → ${c.function.name}] ${c.function.arguments}`);
    else console.log(`  [${m.role}] ${m.content}`);
  }
  console.log(answer);
}

export { scriptedModel };
