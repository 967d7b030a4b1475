import type { ListingCache } from '../indexer/walker.js';
import { DEFAULT_SKIPPED_DIRECTORIES } from '../indexer/walker.js';
import type { IndexStore } from '../db/store.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { SearchContext, SearchFile } from './walk.js';

export type { CodebaseGlobOptions, CodebaseGrepOptions } from './codebase-options.js';

/** The walk options of an index that a search shares. */
interface WalkRules {
  readonly skipDirectories?: readonly string[];
  readonly exclude?: readonly string[];
  readonly respectGitignore?: boolean;
}

/**
 * A search over a database's codebase: its walk rules and folder listings, and the names of
 * the definitions around `content` hits in files unchanged since they were indexed.
 */
export function databaseSearchContext(rules: WalkRules, registry: LanguageRegistry, listings: ListingCache | undefined, store: IndexStore): SearchContext {
  return {
    registry,
    skipDirectories: rules.skipDirectories ?? DEFAULT_SKIPPED_DIRECTORIES,
    exclude: rules.exclude ?? [],
    respectGitignore: rules.respectGitignore ?? true,
    listings,
    enclosing: (file: SearchFile) => {
      const record = store.fileRecords().get(file.path);
      // A file changed since it was indexed has other line numbers: name nothing rather than guess.
      if (record === undefined || record.size !== file.size || record.mtimeMs !== file.mtimeMs) return undefined;
      const definitions = store.definitionsIn(file.path);
      return (line) => {
        let best: (typeof definitions)[number] | undefined;
        for (const d of definitions) {
          if (d.startLine <= line && line <= d.endLine && (best === undefined || d.startLine > best.startLine || (d.startLine === best.startLine && d.endLine < best.endLine))) best = d;
        }
        if (best === undefined) return undefined;
        return best.parentClass === undefined ? best.name : `${best.parentClass}.${best.name}`;
      };
    },
  };
}
