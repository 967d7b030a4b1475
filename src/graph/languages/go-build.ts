// Go build constraints: which files one build of a package compiles together. A file is built
// for the GOOS and GOARCH its name says (`exec_linux_amd64.go`) and when its `//go:build`
// expression holds (`linux && !arm64`, `unix || (js && wasm)`, `ignore`). Two files of a package
// see each other's definitions only if some build takes both: a function defined for plan9 is
// never what a linux-only file calls. Tags other than operating systems, architectures and
// `unix` (`cgo`, `purego`, `go1.21`, a project's own) may be set either way: only a contradiction
// that holds whatever they are keeps two files apart.
import type { CompiledFile } from '../strategy.js';

const GOOS_LIST = 'aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos'.split(' ');
const GOARCH_LIST = '386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm'.split(' ');

/** Every GOOS Go knows. */
const GOOS: ReadonlySet<string> = new Set(GOOS_LIST);
/** Every GOARCH Go knows. */
const GOARCH: ReadonlySet<string> = new Set(GOARCH_LIST);
/** The systems the `unix` tag stands for (go/build's unixOS). */
const UNIX: ReadonlySet<string> = new Set('aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris'.split(' '));
/** Operating systems whose builds take another one's files too (`_linux.go` files build for android). */
const IMPLIED_OS: Readonly<Record<string, string>> = { android: 'linux', illumos: 'solaris', ios: 'darwin' };

/** A build expression: a tag, `!x`, `x && y`, `x || y`. */
type Expr = { readonly tag: string } | { readonly not: Expr } | { readonly and: readonly [Expr, Expr] } | { readonly or: readonly [Expr, Expr] };

/**
 * Parses a `//go:build` expression; undefined when it is not one (the file is then taken to
 * build with every other: a constraint that cannot be read keeps nothing apart).
 */
export function parseBuildExpression(text: string): Expr | undefined {
  const tokens = text.match(/&&|\|\||[!()]|[A-Za-z0-9_.]+|\S/g) ?? [];
  let at = 0;
  // `left op right op …`, left-associative, each operand parsed by `operand`.
  const chain = (op: string, operand: () => Expr | undefined, join: (left: Expr, right: Expr) => Expr): Expr | undefined => {
    let left = operand();
    while (left && tokens[at] === op) {
      at++;
      const right = operand();
      left = right ? join(left, right) : undefined;
    }
    return left;
  };
  const or = (): Expr | undefined => chain('||', and, (l, r) => ({ or: [l, r] }));
  const and = (): Expr | undefined => chain('&&', unary, (l, r) => ({ and: [l, r] }));
  const unary = (): Expr | undefined => {
    const token = tokens[at++];
    if (token === '!') {
      const inner = unary();
      return inner ? { not: inner } : undefined;
    }
    if (token === '(') {
      const inner = or();
      return tokens[at++] === ')' ? inner : undefined;
    }
    return token !== undefined && /^[A-Za-z0-9_.]+$/.test(token) ? { tag: token } : undefined;
  };
  const expr = or();
  return expr && at === tokens.length ? expr : undefined;
}

/** Parsed build lines by text, `null` for unreadable ones: a package's files share a few lines, asked once per candidate. */
const parsed = new Map<string, Expr | null>();

function parsedOnce(text: string | undefined): Expr | null | undefined {
  if (text === undefined) return undefined;
  let expr = parsed.get(text);
  if (expr === undefined) {
    expr = parseBuildExpression(text) ?? null;
    if (parsed.size >= 4096) parsed.clear();
    parsed.set(text, expr);
  }
  return expr;
}

/** The GOOS and GOARCH a file's name restricts it to (`exec_linux_amd64_test.go` → linux, amd64). */
function nameConstraints(path: string): { readonly os?: string; readonly arch?: string } {
  let base = path.slice(path.lastIndexOf('/') + 1).replace(/\.go$/, '');
  if (base.endsWith('_test')) base = base.slice(0, -5);
  const parts = base.split('_');
  if (parts.length < 2) return {};
  const last = parts[parts.length - 1]!;
  const before = parts.length >= 3 ? parts[parts.length - 2] : undefined;
  if (GOARCH.has(last)) return before !== undefined && GOOS.has(before) ? { os: before, arch: last } : { arch: last };
  return GOOS.has(last) ? { os: last } : {};
}

function tagsOf(expr: Expr | undefined, out: Set<string>): Set<string> {
  if (!expr) return out;
  if ('tag' in expr) out.add(expr.tag);
  else if ('not' in expr) tagsOf(expr.not, out);
  else for (const e of 'and' in expr ? expr.and : expr.or) tagsOf(e, out);
  return out;
}

function holds(expr: Expr, tag: (name: string) => boolean): boolean {
  if ('tag' in expr) return tag(expr.tag);
  if ('not' in expr) return !holds(expr.not, tag);
  if ('and' in expr) return holds(expr.and[0], tag) && holds(expr.and[1], tag);
  return holds(expr.or[0], tag) || holds(expr.or[1], tag);
}

/** Whether a file's name admits a GOOS and GOARCH (`_linux.go` admits android too). */
function nameAdmits(name: { readonly os?: string; readonly arch?: string }, os: string, arch: string): boolean {
  if (name.arch !== undefined && name.arch !== arch) return false;
  return name.os === undefined || name.os === os || IMPLIED_OS[os] === name.os;
}

/** The folder of a path from the codebase root: a Go package's. */
function folderOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}

/** Free tags beyond which the check gives up and takes the files as built together. */
const MAX_FREE_TAGS = 10;

/**
 * Whether some build (a GOOS, a GOARCH and any setting of the other tags) compiles both files.
 * Unreadable expressions and too many free tags answer true: only a sure contradiction keeps
 * two files apart.
 *
 * @example
 * ```ts
 * builtTogether({ path: 'a/wait_linux.go' }, { path: 'a/wait.go', buildConstraint: 'plan9' }); // false
 * builtTogether({ path: 'a/x.go', buildConstraint: 'unix' }, { path: 'a/y_darwin.go' }); // true
 * ```
 */
export function builtTogether(a: CompiledFile, b: CompiledFile): boolean {
  const exprA = parsedOnce(a.buildConstraint);
  const exprB = parsedOnce(b.buildConstraint);
  if (exprA === null || exprB === null) return true;
  // `//go:build ignore` keeps a file out of the package's builds: it is a program run by hand
  // (`go run main.go rulegen.go`, which reads no build line), never built with a file that every
  // build of the package takes. With files that have build lines of their own it may be. The
  // packages it imports are built as for any program (`fmt.Fprintf` is fmt's).
  const ignored = (f: CompiledFile, other: CompiledFile): boolean => f.buildConstraint?.trim() === 'ignore' && other.buildConstraint === undefined && folderOf(f.path) === folderOf(other.path);
  if (ignored(a, b) || ignored(b, a)) return false;
  const nameA = nameConstraints(a.path);
  const nameB = nameConstraints(b.path);
  const tags = tagsOf(exprB, tagsOf(exprA, new Set()));
  const free = [...tags].filter((t) => !GOOS.has(t) && !GOARCH.has(t) && t !== 'unix');
  if (free.length > MAX_FREE_TAGS) return true;
  // An architecture or a system no file mentions stands for all the others ('' never matches a tag).
  const archs = [...GOARCH_LIST.filter((x) => tags.has(x) || x === nameA.arch || x === nameB.arch), ''];
  for (const os of GOOS_LIST) {
    for (const arch of archs) {
      if (!nameAdmits(nameA, os, arch) || !nameAdmits(nameB, os, arch)) continue;
      for (let mask = 0; mask < 1 << free.length; mask++) {
        const tag = (name: string): boolean => {
          if (GOOS.has(name)) return name === os || IMPLIED_OS[os] === name;
          if (GOARCH.has(name)) return name === arch;
          if (name === 'unix') return UNIX.has(os);
          return (mask & (1 << free.indexOf(name))) !== 0;
        };
        if ((!exprA || holds(exprA, tag)) && (!exprB || holds(exprB, tag))) return true;
      }
    }
  }
  return false;
}
