// ckg-wasm/adapters: the ckg commands as agent tools (browser-safe, no framework dependency).
export {
  ckgToolDefinitions,
  commandDescription,
  commandInputSchema,
  formatStatus,
  INDEX_STATUS_TOOL,
  type CKGToolDefinition,
  type CKGToolDefinitionOptions,
  type ObjectSchema,
  type ToolAnnotations,
} from './definitions.js';
export {
  anthropicTools,
  langChainTools,
  openAIChatTools,
  openAIResponsesTools,
  resultText,
  runToolCall,
  strictSchema,
  vercelAITools,
  type AnthropicTool,
  type LangChainToolFunction,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type VercelAIFunctions,
} from './frameworks.js';
export { webMcpTools, registerWebMcpTools, type WebMcpTool, type WebMcpModelContext } from './webmcp.js';
