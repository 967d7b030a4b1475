import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';

// Bash: a file's module is its path (`lib/common.sh`, `bin/deploy`), and its functions are named
// after it (`lib/common.sh:log`). A command is a function of the file or of the files it
// sources (star imports, followed through what they source), else a builtin, else a program: a
// name no Bash function in the codebase has is a program on the PATH (external); one that some
// other file defines stays not found (a script that sources this one may define it).
// `source lib.sh` names a file relative to the sourcing script's folder, then to the codebase
// root; an absolute or computed path is outside the codebase.

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

/** Bash's builtin commands and keywords used as commands. */
const BUILTINS = words(`
  : . [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo
  enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf
  pushd pwd read readarray readonly return set shift shopt source suspend test time times trap true type typeset
  ulimit umask unalias unset wait`);

/** A relative path normalised from a folder's parts; undefined above the root. */
function join(dir: readonly string[], path: string): string | undefined {
  const out = [...dir];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.length === 0 ? undefined : out.join('/');
}

function importTargets(specifier: string, fromModule: string): readonly string[] {
  if (specifier === '' || specifier.startsWith('/') || /[$`"'~*?]/.test(specifier)) return [];
  const dir = fromModule.split('/');
  dir.pop();
  return [...new Set([join(dir, specifier), join([], specifier)].filter((p): p is string => p !== undefined))];
}

/** A command nothing the file sees defines: a program when no Bash function of the codebase has its name. */
function fallback(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined {
  if (lookup?.qualifier !== undefined || BUILTINS.has(name)) return undefined;
  return site.named(name).some((s) => s.language === 'bash' && s.kind === 'function') ? undefined : { toId: null, reason: 'external' };
}

/**
 * Bash's graph rules.
 *
 * @example
 * ```ts
 * bashGraph.importTargets('../lib/common.sh', 'bin/deploy', 'bin/deploy'); // ['lib/common.sh']
 * ```
 */
export const bashGraph: LanguageGraph = {
  family: 'bash',
  moduleName: (relativePath) => relativePath,
  qualify: (module, chain) => (chain.length === 0 ? module : `${module}:${chain.join('.')}`),
  importTargets,
  builtins: BUILTINS,
  constructorNames: () => [],
  exportsOnly: false,
  submodulesAreMembers: false,
  fallback,
};
