/**
 * The stable error codes of ckg-wasm. Code that handles errors should switch on
 * {@link CKGError.code}, never on the message text.
 *
 * @example
 * ```ts
 * const retryLater = (code: CKGErrorCode): boolean => code === 'STORAGE_ERROR' || code === 'FS_ERROR';
 * try {
 *   await db.update();
 * } catch (error) {
 *   if (error instanceof CKGError && retryLater(error.code)) setTimeout(() => void db.update(), 1000);
 *   else throw error;
 * }
 * ```
 * @public
 */
export type CKGErrorCode =
  /** An argument is missing or has the wrong shape. */
  | 'INVALID_ARGUMENT'
  /** A path does not exist on the FileSystem. */
  | 'NOT_FOUND'
  /** A path was expected to be a directory. */
  | 'NOT_A_DIRECTORY'
  /** The FileSystem reported an error other than "not found". */
  | 'FS_ERROR'
  /** A grammar or runtime wasm file could not be loaded. */
  | 'WASM_LOAD_FAILED'
  /** A language id is unknown to the registry. */
  | 'UNKNOWN_LANGUAGE'
  /** A language id or extension is registered twice. */
  | 'DUPLICATE_LANGUAGE'
  /** A tree-sitter query of a language does not compile. */
  | 'QUERY_ERROR'
  /** The database was used after `close()`. */
  | 'CLOSED'
  /** Database bytes are not a ckg-wasm database, or are damaged. */
  | 'CORRUPT_DATABASE'
  /** Database bytes were written by another schema version. */
  | 'SCHEMA_MISMATCH'
  /** A Storage implementation failed. */
  | 'STORAGE_ERROR'
  /** The caller aborted the operation through its AbortSignal. */
  | 'ABORTED'
  /** A parse worker could not be created, or died while processing a file (that file is reported as skipped). */
  | 'WORKER_FAILED';

/**
 * The one base class of every error ckg-wasm throws on purpose.
 *
 * @remarks
 * `code` is stable across versions; `data` carries structured details (a path, a language id);
 * `caller` names the public API that failed.
 *
 * @example
 * ```ts
 * try {
 *   await CKGDatabase.open({ codebasePath: '/nope', fs });
 * } catch (e) {
 *   if (e instanceof CKGError && e.code === 'NOT_FOUND') console.log('no such codebase');
 * }
 * ```
 * @public
 */
export class CKGError extends Error {
  /** The stable machine-readable code. */
  readonly code: CKGErrorCode;
  /** Structured details; never contains file contents. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The public API that raised the error, when known. */
  caller: string | undefined;

  constructor(
    code: CKGErrorCode,
    message: string,
    data: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CKGError';
    this.code = code;
    this.data = Object.freeze({ ...data });
    this.caller = undefined;
  }

  /** A JSON-friendly form (`JSON.stringify(error)` keeps code and data). */
  toJSON(): { name: string; code: CKGErrorCode; message: string; data: Readonly<Record<string, unknown>>; caller?: string } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      data: this.data,
      ...(this.caller === undefined ? {} : { caller: this.caller }),
    };
  }
}

/** Tags an error with the public API name and rethrows it (internal). */
export function tagCaller(error: unknown, caller: string): never {
  if (error instanceof CKGError && error.caller === undefined) error.caller = caller;
  throw error;
}
