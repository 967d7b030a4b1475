// The options of CKGDatabase.glob / grep: public types kept apart from the search context
// (whose declarations name the store's, and through them sql.js's, types).
import type { GlobOptions } from './glob.js';
import type { GrepOptions } from './grep.js';

/**
 * Options of `CKGDatabase.glob`: those of {@link glob} without `fs` and `root` (the database's own).
 *
 * @example
 * ```ts
 * const page: CodebaseGlobOptions = { pattern: '*.py', limit: 50, offset: 50 };
 * ```
 * @public
 */
export type CodebaseGlobOptions = Omit<GlobOptions, 'fs' | 'root'>;

/**
 * Options of `CKGDatabase.grep`: those of {@link grep} without `fs` and `root` (the database's own).
 *
 * @example
 * ```ts
 * const options: CodebaseGrepOptions = { pattern: 'TODO', outputMode: 'content', glob: '*.py' };
 * ```
 * @public
 */
export type CodebaseGrepOptions = Omit<GrepOptions, 'fs' | 'root'>;
