// Text search beside the graph: glob and grep over the same FileSystem and walk rules as indexing.
export { glob, globStream, DEFAULT_GLOB_LIMIT, type GlobMatch, type GlobOptions, type GlobResult } from './glob.js';
export {
  grep,
  grepStream,
  DEFAULT_HEAD_LIMIT,
  type GrepCountEntry,
  type GrepEntry,
  type GrepFileEntry,
  type GrepLineEntry,
  type GrepOptions,
  type GrepOutputMode,
  type GrepResult,
} from './grep.js';
export { DEFAULT_SEARCH_TIMEOUT_MS } from './walk.js';
export type { CodebaseGlobOptions, CodebaseGrepOptions } from './codebase-options.js';
