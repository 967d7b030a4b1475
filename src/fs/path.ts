// A tiny POSIX path toolkit: the core must not import node:path (browser bundles).

/** Collapses `.`/`..`/duplicate slashes of an absolute or relative POSIX path. */
export function normalize(path: string): string {
  const absolute = path.startsWith('/');
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/** Joins segments with `/` and normalises the result. */
export function join(...parts: string[]): string {
  return normalize(parts.filter((p) => p !== '').join('/'));
}

/** The folder part of a path (`/a/b.py` → `/a`). */
export function dirname(path: string): string {
  const n = normalize(path);
  const i = n.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
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
  const prefix = f === '/' ? '/' : `${f}/`;
  return t.startsWith(prefix) ? t.slice(prefix.length) : undefined;
}

/** True for absolute POSIX paths. */
export function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}
