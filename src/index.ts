/**
 * A code knowledge graph for LLM coding agents, on WebAssembly alone: functions, methods and
 * classes of a codebase parsed with tree-sitter and kept in SQLite, answered by name. This
 * entry runs in browsers, workers and Node alike (it imports no `node:` module); Node-only
 * helpers are in `ckg-wasm/node`.
 *
 * @packageDocumentation
 */
export type {} from './globals.js';
export { CKGError, type CKGErrorCode } from './errors.js';
export type { FileSystem, FileSystemPromises, StatsLike } from './fs/types.js';
export { memoryFileSystem, type MemoryFile, type MemoryFiles, type MemoryFileSystem, type MemoryFileSystemOptions } from './fs/memory.js';
export { droppedFiles, pickedFiles, type DataTransferLike, type FileLike, type FileSystemEntryLike } from './browser/picked-files.js';
export { CKGDatabase, DEFAULT_MAX_FILE_SIZE, type IndexOptions, type IndexOrigin, type OpenOptions, type UpdateOptions } from './db/database.js';
export type { ClassEntry, Edge, EdgeFilter, EdgeKind, FunctionEntry, FunctionKind, SymbolKind, SymbolRef } from './db/entries.js';
export type {
  CallEntry,
  CallGroup,
  CallsAnswer,
  CallsOptions,
  ClassHierarchy,
  DeadCodeAnswer,
  DeadCodeEntry,
  DeadCodeOptions,
  Decorator,
  Decorators,
  DispatchCall,
  DispatchCalls,
  FileOutline,
  HierarchyEntry,
  OutlineEntry,
  PathAnswer,
  PathHop,
  SearchSymbolsOptions,
  SourceLocation,
  SymbolMatch,
  SymbolSearchAnswer,
  SymbolTarget,
  TraceOptions,
  UnresolvedCalls,
  ValueUse,
  ValueUses,
} from './query/types.js';
export type { BindingFact, DefinitionFlag, ExtractedGraph, FixedReason, ReceiverFact, ReferenceSink, ReferenceVisitor, SiteFact } from './graph/facts.js';
export { BODY_MODES, DEFAULT_BODY_MODE, type BodyMode } from './db/body-mode.js';
export type { IndexReport, ProgressEvent, FileProcessor, ProcessOptions } from './indexer/report.js';
export { DEFAULT_SKIPPED_DIRECTORIES, type SkipReason, type SkippedFile } from './indexer/walker.js';
export type { GitignoreExclusion } from './indexer/gitignored.js';
export type { SqlJs, WasmOptions } from './wasm/options.js';
export type { ExtractedFile, ExtractedFunction, ExtractedClass } from './parser/extract.js';
export { LanguageRegistry, extractorVersionOf } from './languages/registry.js';
export { builtinLanguages, createDefaultRegistry } from './languages/index.js';
export type {
  ClassInfo,
  ExtractionOptions,
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
  type CKGCallOptions,
  type CKGCallResult,
  type CKGCommand,
  type CKGIndexStatus,
  type CKGToolArguments,
  type CKGToolCall,
  type CKGToolParameters,
  type CKGToolOptions,
  type CKGToolResult,
} from './tool/ckg-tool.js';
export { MAX_OUTPUT_CHARS } from './tool/format.js';
export { DEFAULT_IDENTIFIER, type JsonSchema, type ToolCommand, type ToolCommandArguments, type ToolCommandOutput, type ToolIdentifier, type ToolParameter } from './tool/commands.js';
export { IndexedDBStorage, type IndexedDBFactoryLike, type IndexedDBStorageOptions } from './storage/indexeddb.js';
export { createWebWorkerPool, type WebWorkerPool, type WebWorkerPoolOptions, type WorkerLike } from './browser/web-worker-pool.js';
export type { ParsePoolOptions } from './parser/thread-pool.js';
export type { Storage } from './storage/types.js';
export { MemoryStorage, type MemoryStorageOptions } from './storage/memory.js';
export { expireStorage, DEFAULT_STORAGE_MAX_AGE_MS, type ExpireOptions } from './storage/expire.js';
export {
  glob,
  globStream,
  grep,
  grepStream,
  DEFAULT_GLOB_LIMIT,
  DEFAULT_HEAD_LIMIT,
  DEFAULT_SEARCH_TIMEOUT_MS,
  type CodebaseGlobOptions,
  type CodebaseGrepOptions,
  type GlobMatch,
  type GlobOptions,
  type GlobResult,
  type GrepCountEntry,
  type GrepEntry,
  type GrepFileEntry,
  type GrepLineEntry,
  type GrepOptions,
  type GrepOutputMode,
  type GrepResult,
} from './search/index.js';
