// The body modes of an index: public types kept apart from the store (whose declarations name sql.js's types).

/**
 * How an index keeps the source text of functions and classes (docs/bodies.md has the numbers):
 *
 * - `'stored'`: the text in the `body` column, like the reference CKG (largest database);
 * - `'compressed'`: each file's bytes deflated once in `sources`, bodies sliced from it by offset
 *   (self-contained, 2-3 times smaller than `'stored'`);
 * - `'lazy'`: only offsets; bodies are read back from the file system at query time and checked
 *   against the file's content hash (smallest and fastest to build; needs the files).
 *
 * Query results are identical in every mode while the files are unchanged.
 *
 * @example
 * ```ts
 * const db = await CKGDatabase.open({ codebasePath: '/abs/repo', fs, bodies: 'compressed' });
 * ```
 * @public
 */
export type BodyMode = 'stored' | 'compressed' | 'lazy';

/**
 * Every {@link BodyMode}, for validation and option parsers.
 *
 * @example
 * ```ts
 * if (!BODY_MODES.includes(arg as BodyMode)) throw new Error(`--bodies must be one of ${BODY_MODES.join(', ')}`);
 * ```
 * @public
 */
export const BODY_MODES: readonly BodyMode[] = Object.freeze(['stored', 'compressed', 'lazy'] as const);

/**
 * The body mode of new indexes (chosen from the measurements in docs/bodies.md).
 *
 * @example
 * ```ts
 * const mode = options.bodies ?? DEFAULT_BODY_MODE;
 * ```
 * @public
 */
export const DEFAULT_BODY_MODE: BodyMode = 'lazy';
