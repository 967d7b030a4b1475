// ckg-wasm: the browser-safe entry. Node-only helpers live in `ckg-wasm/node`.
export { CKGError, type CKGErrorCode } from './errors.js';
export type { FileSystem, FileSystemPromises, StatsLike } from './fs/types.js';
export { CKGDatabase, DEFAULT_MAX_FILE_SIZE, type IndexOptions, type OpenOptions } from './db/database.js';
export type { ClassEntry, FunctionEntry, FunctionKind } from './db/entries.js';
export type { IndexReport, ProgressEvent, FileProcessor } from './build/indexer.js';
export { DEFAULT_SKIPPED_DIRECTORIES, type SkipReason, type SkippedFile } from './build/walker.js';
export type { WasmOptions } from './parser/runtime.js';
export type { ExtractedFile, ExtractedFunction, ExtractedClass } from './parser/extract.js';
export { LanguageRegistry } from './languages/registry.js';
export { builtinLanguages, createDefaultRegistry } from './languages/index.js';
export type {
  ClassInfo,
  FunctionInfo,
  GrammarSource,
  LanguageDefinition,
  Visitor,
  VisitorSink,
} from './languages/types.js';
export {
  CKGTool,
  CKG_COMMANDS,
  CKG_TOOL_PARAMETERS,
  type CKGCommand,
  type CKGToolArguments,
  type CKGToolOptions,
  type CKGToolResult,
} from './tool/ckg-tool.js';
export { MAX_OUTPUT_CHARS } from './tool/format.js';
