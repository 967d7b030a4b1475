// A tiny POSIX path toolkit: the core must not import node:path (browser bundles).
//
// Windows paths: a drive-letter path (`C:\Users\me\repo`, `c:/Users/me/repo`) is absolute and
// normalises to `C:/Users/me/repo` (forward slashes, upper-case drive), which node:fs on
// Windows accepts; its root is `C:/`. No POSIX absolute path starts with a drive letter, so
// the two kinds never mix. UNC paths (`\\server\share`) are not supported.

/** `C:` of a drive-letter path (with `\` or `/` after it, or nothing), else undefined. */
const DRIVE = /^([A-Za-z]):(?=[\\/]|$)/;

/** The drive prefix (`C:`) of a path, upper-cased, or undefined for POSIX paths. */
function driveOf(path: string): string | undefined {
  const match = DRIVE.exec(path);
  return match === null ? undefined : `${match[1]!.toUpperCase()}:`;
}

/**
 * A Windows path with forward slashes (`C:\a\b` → `C:/a/b`), or a relative path inside a
 * Windows codebase (`onWindows`); other paths unchanged (`\` is a valid POSIX file name character).
 */
export function toSlashes(path: string, onWindows = false): string {
  return onWindows || DRIVE.test(path) ? path.replace(/\\/g, '/') : path;
}

/** True for a drive-letter (Windows) path. */
export function isWindowsPath(path: string): boolean {
  return DRIVE.test(path);
}

/** Collapses `.`/`..`/duplicate slashes of an absolute or relative POSIX path (or a drive-letter path). */
export function normalize(path: string): string {
  const drive = driveOf(path);
  const rest = drive === undefined ? path : toSlashes(path).slice(2);
  const absolute = drive !== undefined || rest.startsWith('/');
  const out: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (drive !== undefined) return `${drive}/${joined}`;
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/** The root of an absolute path: `/`, or `C:/` for a drive-letter path. */
export function rootOf(path: string): string {
  const drive = driveOf(path);
  return drive === undefined ? '/' : `${drive}/`;
}

/** `dir` with one trailing slash: the prefix of every path below it. */
export function folderPrefix(dir: string): string {
  return dir.endsWith('/') ? dir : `${dir}/`;
}

/** Joins segments with `/` and normalises the result. */
export function join(...parts: string[]): string {
  return normalize(parts.filter((p) => p !== '').join('/'));
}

/** The folder part of a path (`/a/b.py` → `/a`); a root is its own folder. */
export function dirname(path: string): string {
  const n = normalize(path);
  const i = n.lastIndexOf('/');
  if (i < 0) return '.';
  const root = isAbsolute(n) ? rootOf(n) : '';
  if (i < root.length) return root;
  return n.slice(0, i);
}

/** The last segment of a path. */
export function basename(path: string): string {
  const n = normalize(path);
  return n.slice(n.lastIndexOf('/') + 1);
}

/** The extension of the last segment, with its dot (`a.test.ts` → `.ts`), or `''`. */
export function extname(path: string): string {
  const base = basename(path);
  const i = base.lastIndexOf('.');
  return i <= 0 ? '' : base.slice(i);
}

/** `to` relative to `from` when `to` is inside `from`, else undefined. */
export function relativeInside(from: string, to: string): string | undefined {
  const f = normalize(from);
  const t = normalize(to);
  if (t === f) return '';
  const prefix = folderPrefix(f);
  return t.startsWith(prefix) ? t.slice(prefix.length) : undefined;
}

/** True for absolute POSIX paths and drive-letter (Windows) paths. */
export function isAbsolute(path: string): boolean {
  return path.startsWith('/') || DRIVE.test(path);
}
