import { SYMBOL_FLAGS } from '../describe.js';
import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';

// C (and the part of C++ it shares): a module is its file, named by its path from the codebase
// root (`include/linux/fs.h`); `#include` is textual inclusion, so a file sees the prototypes,
// macros and definitions of every file it includes, transitively. A function is called by its
// plain name: the definition in the same file; else one visible through the includes (a
// `static inline` in a header); else, when the includes declare it, its one non-`static`
// definition anywhere in the codebase, never the prototype. `static` functions of other files
// are invisible.
//
// Include search (no compiler flags are known): `#include "a/b.h"` and `<a/b.h>` mean the
// file `a/b.h` next to the including file if there is one; else any file whose path ends with
// `/a/b.h`, ranked by its include root (the path before `a/b.h`): a root applies to the files
// under the folder above its first `include` folder (`tools/include/` to `tools/`,
// `arch/x86/include/` to `arch/x86/`, `include/` to every file), the deepest applying root
// wins and, among those, the shortest (`include/` before `include/uapi/`). When no root
// applies (a driver's `<asm/io.h>`: one per architecture) every candidate counts: the include
// is ambiguous and the file sees them all. `"../a.h"` is only the file it names.
//
// A one-part name (`<stdio.h>`, `"util.h"`) not next to the including file is the name of a
// system header as often as a file of the tree: it means a file of the tree only directly in an
// include folder (`include/util.h`, `tools/include/util.h`) or in a folder without one that
// serves the including file, never deeper below an include folder (`tools/include/nolibc/`
// needs its own `-I`: the kernel's selftests mean the C library's `stdio.h`, not nolibc's), and
// never through the "every candidate" fallback.

/** Library functions of C (and POSIX) a program calls without defining them. */
const BUILTINS = new Set(
  (
    'abort abs acos asin atan atan2 atexit atof atoi atol atoll bsearch calloc ceil clearerr cos cosh ' +
    'difftime div exit exp fabs fclose feof ferror fflush fgetc fgetpos fgets floor fmod fopen fprintf fputc fputs ' +
    'fread free freopen frexp fscanf fseek fsetpos ftell fwrite getc getchar getenv gets gmtime isalnum isalpha ' +
    'iscntrl isdigit isgraph islower isprint ispunct isspace isupper isxdigit labs ldexp ldiv localtime log log10 ' +
    'longjmp malloc mblen mbstowcs mbtowc memchr memcmp memcpy memmove memset mktime modf perror pow printf putc ' +
    'putchar puts qsort raise rand realloc remove rename rewind scanf setbuf setjmp setvbuf signal sin sinh snprintf ' +
    'sprintf sqrt srand sscanf strcat strchr strcmp strcoll strcpy strcspn strerror strftime strlen strncat strncmp ' +
    'strncpy strpbrk strrchr strspn strstr strtod strtok strtol strtoul strxfrm system tan tanh time tmpfile tmpnam ' +
    'tolower toupper ungetc va_arg va_copy va_end va_start vfprintf vprintf vsnprintf vsprintf wcstombs wctomb ' +
    'assert offsetof alloca strdup strndup strtoll strtoull close open read write lseek stat fstat lstat unlink mkdir ' +
    'rmdir fork execv execvp waitpid pipe dup dup2 getpid getppid kill sleep usleep nanosleep mmap munmap ioctl ' +
    'pthread_create pthread_join pthread_mutex_lock pthread_mutex_unlock pthread_mutex_init pthread_mutex_destroy ' +
    'socket bind listen accept connect send recv sendto recvfrom setsockopt getsockopt select poll errno exit_group'
  ).split(' '),
);

const STATIC = SYMBOL_FLAGS.static;

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** `a/./b/../c.h` → `a/c.h`; undefined when it climbs above the root. */
function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** The folder an include root serves: the part before its first `include` folder, else the root itself. */
function servedFolder(root: string): string {
  const parts = root.split('/').filter((p) => p !== '');
  const at = parts.indexOf('include');
  const kept = at < 0 ? parts : parts.slice(0, at);
  return kept.length === 0 ? '' : `${kept.join('/')}/`;
}

/** Whether an include root lies deeper than its first `include` folder (`tools/include/nolibc/`). */
function belowIncludeFolder(root: string): boolean {
  const parts = root.split('/').filter((p) => p !== '');
  const at = parts.indexOf('include');
  return at >= 0 && at < parts.length - 1;
}

function includeCandidates(specifier: string, fromModule: string, modules: readonly { readonly name: string }[]): readonly number[] {
  const dir = dirname(fromModule);
  const relative = normalize(dir === '' ? specifier : `${dir}/${specifier}`);
  const plain = specifier.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
  if (!plain) {
    // `./a.h`, `../a.h`: only the file it names from the including file's folder.
    const at = relative === undefined ? -1 : modules.findIndex((m) => m.name === relative);
    return at < 0 ? [] : [at];
  }
  const sibling = modules.findIndex((m) => m.name === relative);
  if (sibling >= 0) return [sibling];
  const onePart = !specifier.includes('/');
  const matching: { index: number; served: number; root: number }[] = [];
  const all: number[] = [];
  modules.forEach((m, index) => {
    if (m.name !== specifier && !m.name.endsWith(`/${specifier}`)) return;
    const root = m.name.slice(0, m.name.length - specifier.length);
    if (onePart && belowIncludeFolder(root)) return;
    all.push(index);
    const served = servedFolder(root);
    if (fromModule.startsWith(served)) matching.push({ index, served: served.length, root: root.length });
  });
  if (matching.length === 0) return onePart ? [] : all;
  const deepest = Math.max(...matching.map((m) => m.served));
  const atDeepest = matching.filter((m) => m.served === deepest);
  const shortest = Math.min(...atDeepest.map((m) => m.root));
  return atDeepest.filter((m) => m.root === shortest).map((m) => m.index);
}

/**
 * A plain name that is not the file's own: a function defined in a visible file, or declared
 * there and defined once in the codebase (see the module comment).
 */
function fallback(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined {
  // Only functions are found here: a type (a struct tag) is never one.
  if (lookup?.want === 'type') return undefined;
  if (name.startsWith('__builtin_')) return { toId: null, reason: 'builtin' };
  const { files, external } = site.visible();
  const own = site.file.id;
  let declared = false;
  let declaredStatic = false;
  let macro = false;
  for (const d of site.declarations(name)) {
    if (!files.has(d.fileId)) continue;
    if (d.kind === 'macro') macro = true;
    else if (d.member === 'static') declaredStatic = true;
    else declared = true;
  }
  const defined = site.symbolsNamed(name).filter((s) => s.kind === 'function' && s.fileId !== own && site.inFamily(s.fileId));
  // Definitions in a visible file (a header's `static inline`), then, when the name is
  // declared, every non-static definition.
  const candidates = new Map<number, boolean>(); // id → in a visible file
  for (const s of defined) {
    if (!files.has(s.fileId)) continue;
    candidates.set(s.id, true);
    if ((s.flags & STATIC) === 0) declared = true;
  }
  if (declared) for (const s of defined) if ((s.flags & STATIC) === 0 && !candidates.has(s.id)) candidates.set(s.id, false);
  if (macro) return candidates.size > 0 ? { toId: null, reason: 'ambiguous' } : { toId: null, reason: 'macro' };
  if (candidates.size > 1) return { toId: null, reason: 'ambiguous' };
  for (const [id, visible] of candidates) return { toId: id, resolution: visible ? 'include' : 'global' };
  if (declared || declaredStatic) return { toId: null, reason: 'not-found' };
  if (external && !BUILTINS.has(name)) return { toId: null, reason: 'external' };
  return undefined;
}

/**
 * The graph rules of C (see the comment above).
 *
 * @example
 * ```ts
 * cGraph.includeCandidates!('linux/fs.h', 'kernel/fork.c', [{ name: 'include/linux/fs.h' }, { name: 'tools/include/linux/fs.h' }]); // [0]
 * ```
 */
export const cGraph: LanguageGraph = {
  family: 'c-family',
  moduleName: (relativePath) => relativePath,
  qualify: (_module, chain) => chain.join('::'),
  importTargets: () => [],
  includeCandidates,
  builtins: BUILTINS,
  constructorNames: () => [],
  exportsOnly: false,
  submodulesAreMembers: false,
  callableClasses: false,
  typesApart: true,
  fallback,
};
