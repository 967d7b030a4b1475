// Where a CLI call writes and what it knows of its caller: this process's own streams, or a
// client's, relayed by the answer server (src/cli/daemon/). Exit codes follow grep.
import type { ProgressEvent } from '../indexer/report.js';

/** Something was found (or the command succeeded). */
export const EXIT_FOUND = 0;
/** The command ran and found nothing. */
export const EXIT_NOTHING = 1;
/** Usage or I/O error. */
export const EXIT_ERROR = 2;

/** One call's caller: its folder, environment and output. */
export interface CliIo {
  /** The caller's working folder: relative paths on its command line are resolved against it. */
  readonly cwd: string;
  /** The caller's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The CLI entry's file (its path and age name the answer server's socket). */
  readonly cliFile: string;
  /** The caller's default index folder (`--cache-dir` unset). */
  readonly defaultCacheDir: string;
  out(text: string): void;
  err(text: string): void;
  /** A progress listener drawing on the caller's stderr when it is a terminal; undefined otherwise. */
  progress(): ((event: ProgressEvent) => void) | undefined;
  /** The exit code set so far (grep-like: {@link EXIT_FOUND}, {@link EXIT_NOTHING}, {@link EXIT_ERROR}). */
  exitCode: number | undefined;
}
