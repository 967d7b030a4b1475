// Run-time checks of option objects: the one place where a caller's options are compared with
// what an API accepts, so a misspelt (`langauges`) or ill-typed (`maxFileSize: '10'`) option
// fails at once with INVALID_ARGUMENT naming it, instead of being ignored or failing later.
// Plain functions, no dependency: the core stays small and browser-safe.
import { CKGError } from '../errors.js';
import { isAbsolute } from '../fs/path.js';

/** `\\server\share\…`: a UNC path, which the path toolkit would take apart. */
const isUncPath = (v: string): boolean => /^[\\/]{2}[^\\/]/.test(v) && v.includes('\\');

/**
 * One option's check: returns undefined when `value` is acceptable, else what was expected
 * (`'a non-negative integer'`), for the error message.
 *
 * @example
 * ```ts
 * const positive: Check = (v) => (typeof v === 'number' && v > 0 ? undefined : 'a positive number');
 * ```
 */
export type Check = (value: unknown) => string | undefined;

/**
 * A check for every option of `T` (an option interface): a key missing here fails the type
 * check, so an option added to the interface cannot be left unvalidated.
 *
 * @example
 * ```ts
 * const schema: Schema<{ size?: number }> = { size: is.positiveInteger };
 * ```
 */
export type Schema<T> = { readonly [K in keyof Required<T>]: Check };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The building blocks of schemas.
 *
 * @example
 * ```ts
 * const schema = { name: is.string, tags: is.arrayOf(is.string, 'an array of strings') };
 * ```
 */
export const is = {
  string: (v: unknown) => (typeof v === 'string' ? undefined : 'a string'),
  nonEmptyString: (v: unknown) => (typeof v === 'string' && v !== '' ? undefined : 'a non-empty string'),
  boolean: (v: unknown) => (typeof v === 'boolean' ? undefined : 'a boolean'),
  function: (v: unknown) => (typeof v === 'function' ? undefined : 'a function'),
  object: (v: unknown) => (isObject(v) ? undefined : 'an object'),
  /** A POSIX absolute path, or a Windows drive path (`C:\\repo`, `c:/repo`); not a UNC path. */
  absolutePath: (v: unknown) =>
    typeof v === 'string' && isAbsolute(v)
      ? undefined
      : typeof v === 'string' && isUncPath(v)
        ? 'an absolute path, and UNC paths are not supported: map the share to a drive letter (C:\\…) or mount it'
        : 'an absolute path (POSIX /home/me/repo, or Windows C:\\repo)',
  positiveInteger: (v: unknown) => (Number.isSafeInteger(v) && (v as number) >= 1 ? undefined : 'a positive integer'),
  /** A size or count limit: a non-negative integer, or Infinity for none. */
  limit: (v: unknown) => ((Number.isSafeInteger(v) && (v as number) >= 0) || v === Infinity ? undefined : 'a non-negative integer or Infinity'),
  /** A duration in ms: a non-negative number (Infinity allowed), never NaN. */
  duration: (v: unknown) => (typeof v === 'number' && v >= 0 ? undefined : 'a non-negative number of ms'),
  url: (v: unknown) => (typeof v === 'string' || (typeof URL === 'function' && v instanceof URL) ? undefined : 'a string or a URL'),
  signal: (v: unknown) =>
    isObject(v) && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function' ? undefined : 'an AbortSignal',
  /** One of the listed literal values. */
  oneOf:
    (values: readonly unknown[]): Check =>
    (v) =>
      values.includes(v) ? undefined : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`,
  /** An array whose every element passes `item`. */
  arrayOf:
    (item: Check, expected: string): Check =>
    (v) =>
      Array.isArray(v) && v.every((x) => item(x) === undefined) ? undefined : expected,
  /** An object whose every own value passes `item`. */
  recordOf:
    (item: Check, expected: string): Check =>
    (v) =>
      isObject(v) && !Array.isArray(v) && Object.values(v).every((x) => item(x) === undefined) ? undefined : expected,
  /** An instance of `type` (compared by `instanceof`). */
  instanceOf:
    (type: abstract new (...args: never[]) => unknown, expected: string): Check =>
    (v) =>
      v instanceof type ? undefined : expected,
  /** An object with at least these methods. */
  withMethods:
    (methods: readonly string[], expected: string): Check =>
    (v) =>
      isObject(v) && methods.every((m) => typeof v[m] === 'function') ? undefined : expected,
  /** Passes if any of `checks` passes. */
  anyOf:
    (expected: string, ...checks: Check[]): Check =>
    (v) =>
      checks.some((c) => c(v) === undefined) ? undefined : expected,
  /** A nested option object, checked with its own schema (its errors name `parent.option`). */
  options:
    (schema: Readonly<Record<string, Check>>): Check =>
    (v) => {
      if (!isObject(v)) return 'an object';
      const problem = firstProblem(v, schema);
      return problem === undefined ? undefined : `an object whose ${problem}`;
    },
} as const;

/** Edit distance, for "did you mean" (option names are short). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function suggestion(key: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = distance(key.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? ` (did you mean '${best}'?)` : '';
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)} (a string)`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === null || value === undefined) return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return `an object`;
}

interface Problem {
  readonly option: string;
  readonly message: string;
}

function problemOf(options: Record<string, unknown>, schema: Readonly<Record<string, Check>>): Problem | undefined {
  const known = Object.keys(schema);
  for (const key of Object.keys(options)) {
    const check = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (check === undefined) return { option: key, message: `unknown option '${key}'${suggestion(key, known)}` };
    const value = options[key];
    if (value === undefined) continue; // absent and undefined mean the default alike
    const expected = check(value);
    if (expected !== undefined) return { option: key, message: `option '${key}' must be ${expected}, got ${describe(value)}` };
  }
  return undefined;
}

function firstProblem(options: Record<string, unknown>, schema: Readonly<Record<string, Check>>): string | undefined {
  return problemOf(options, schema)?.message;
}

/**
 * Checks an options object against a schema: every own key must be known and its value (unless
 * undefined) must pass its check; `required` keys must be present. Throws
 * `CKGError('INVALID_ARGUMENT')` naming the caller and the option; `undefined` options pass
 * when nothing is required (the defaults apply).
 *
 * @example
 * ```ts
 * checkOptions('createWorkerPool', options, { size: is.positiveInteger, pipeline: is.positiveInteger });
 * ```
 */
export function checkOptions(caller: string, options: unknown, schema: Readonly<Record<string, Check>>, required: readonly string[] = []): void {
  if (options === undefined && required.length === 0) return;
  if (!isObject(options) || Array.isArray(options)) {
    throw new CKGError('INVALID_ARGUMENT', `${caller}: options must be an object, got ${describe(options)}`, { caller });
  }
  for (const key of required) {
    if (options[key] === undefined) throw new CKGError('INVALID_ARGUMENT', `${caller}: option '${key}' is required`, { caller, option: key });
  }
  const problem = problemOf(options, schema);
  if (problem !== undefined) throw new CKGError('INVALID_ARGUMENT', `${caller}: ${problem.message}`, { caller, option: problem.option });
}

/**
 * A copy of `options` without the keys of `drop` (for passing a wider options object on to an
 * API with a narrower schema, as `CKGTool` does to `CKGDatabase.open`).
 *
 * @example
 * ```ts
 * const indexOptions = withoutKeys(toolOptions, ['cwd', 'refresh']);
 * ```
 */
export function withoutKeys<T extends object, K extends string>(options: T, drop: readonly K[]): Omit<T, K> {
  const out = { ...options } as Record<string, unknown>;
  for (const key of drop) delete out[key];
  return out as Omit<T, K>;
}
