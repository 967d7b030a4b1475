// In-page tools for browser agents: when the browser offers WebMCP (`navigator.modelContext`,
// or `document.modelContext` in earlier drafts), every ckg command is registered as a page tool
// over the codebase open in the page, so an agent in the browser can ask where things are.
import { CKGTool, type FileProcessor, type FileSystem, type Storage, type WasmOptions } from 'ckg-wasm';
import { ckgToolDefinitions, registerWebMcpTools } from 'ckg-wasm/adapters';

/** What the page indexes: the codebase root and how it reads and keeps it. */
export interface PageCodebase {
  readonly root: string;
  readonly fs: FileSystem;
  readonly storage: Storage;
  readonly wasm: WasmOptions;
  readonly processor: FileProcessor;
}

let current: { unregister: () => void; tool: CKGTool } | undefined;

/**
 * Registers the page tools for `codebase` (replacing those of the previous one). Returns the
 * tool names, or an empty list when the browser has no WebMCP model context.
 */
export function registerPageTools(codebase: PageCodebase): string[] {
  current?.unregister();
  void current?.tool.close();
  current = undefined;
  // The page's own index is in `storage` already: the tool reopens it without parsing.
  const tool = new CKGTool({ fs: codebase.fs, storage: codebase.storage, wasm: codebase.wasm, processor: codebase.processor, storageMaxAgeMs: Infinity });
  const definitions = ckgToolDefinitions({ tool, defaultPath: codebase.root });
  const unregister = registerWebMcpTools(definitions);
  if (!unregister) {
    void tool.close();
    return [];
  }
  current = { unregister, tool };
  return definitions.map((d) => d.name);
}
