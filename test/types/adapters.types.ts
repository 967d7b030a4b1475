// Compiled by test/adapters.test.ts with tsc: the adapters' outputs must be assignable to the
// frameworks' own types (openai, @anthropic-ai/sdk, ai, @langchain/core), not to hand copies.
import type Anthropic from '@anthropic-ai/sdk';
import { tool as langChainTool } from '@langchain/core/tools';
import { jsonSchema, tool as vercelTool, type ToolSet } from 'ai';
import type OpenAI from 'openai';
import { anthropicTools, ckgToolDefinitions, langChainTools, openAIChatTools, openAIResponsesTools, vercelAITools } from '../../src/adapters/index.js';
import { CKGTool } from '../../src/index.js';

declare const tool: CKGTool;
const definitions = ckgToolDefinitions({ tool });

export const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = openAIChatTools(definitions);
export const chatParams: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = { model: 'm', messages: [], tools: openAIChatTools(definitions) };
export const responses: OpenAI.Responses.FunctionTool[] = openAIResponsesTools(definitions);
export const responsesParams: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'm', input: 'x', tools: openAIResponsesTools(definitions) };
export const anthropic: Anthropic.Tool[] = anthropicTools(definitions);
export const anthropicParams: Anthropic.MessageCreateParamsNonStreaming = { model: 'm', max_tokens: 1, messages: [], tools: anthropicTools(definitions) };
export const vercel: ToolSet = vercelAITools<ReturnType<typeof jsonSchema>, ToolSet[string]>(definitions, { tool: vercelTool, jsonSchema });
export const langchain = langChainTools(definitions, langChainTool);
export const langchainTyped: import('@langchain/core/tools').StructuredToolInterface[] = langchain;
