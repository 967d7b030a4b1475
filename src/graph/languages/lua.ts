import { SYMBOL_FLAGS } from '../describe.js';
import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';

// Lua: a file's module is its path without `.lua` (`a/b/init.lua` is `a/b`), which
// `require("a.b")` names, from the codebase root or from a folder above the requiring file
// (`lua/`, `src/`). What `require` gives is what the file returns: a table, whose functions
// (`function M.f()`) are methods of no class symbol, since tables are no definitions; the
// graph finds them by qualified name (`a/b.M.f`) through `qualifiedNames`: `M.f()` and
// `self:m()` in the file, `m.f()` through the table a module returns, `G.f()` in the file
// where the global table G is filled. Functions and tables not declared `local` are globals,
// seen from every file; a call of a global resolves when exactly one global function of that
// name exists (local functions and local tables' methods are flagged `static`).

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter((w) => w !== ''));

/** Lua's standard globals. */
const BUILTINS = words(`
  assert collectgarbage dofile error getmetatable ipairs load loadfile loadstring next pairs pcall print rawequal rawget
  rawlen rawset require select setmetatable tonumber tostring type unpack xpcall module setfenv getfenv _G _VERSION
  string table math io os coroutine debug utf8 package bit32 jit arg`);

const STATIC = SYMBOL_FLAGS.static;

function moduleName(relativePath: string): string {
  const path = relativePath.replace(/\.lua$/, '');
  return path.endsWith('/init') ? path.slice(0, -'/init'.length) : path;
}

/** `a/b` + `M`, `f` → `a/b.M.f`. */
function qualify(module: string, chain: readonly string[]): string {
  return [module, ...chain].join('.');
}

/**
 * The files `require("a.b")` may mean: `a/b` from the root, then below each folder above the
 * requiring file, outermost first (`lua/a/b` for `lua/x/y.lua`).
 */
function importTargets(specifier: string, fromModule: string): readonly string[] {
  const path = specifier.replace(/^\.\//, '').replace(/\.lua$/, '').replace(/\./g, '/');
  if (path === '' || path.startsWith('/') || path.split('/').includes('')) return [];
  const dirs = fromModule.split('/');
  dirs.pop();
  const out = [path];
  for (let n = 1; n <= dirs.length; n++) out.push(`${dirs.slice(0, n).join('/')}/${path}`);
  return [...new Set(out)];
}

/** Whether a method's qualified name is `<module>.<table>.<name>` for a module name without dots. */
function inTable(qualifiedName: string, table: string, name: string): boolean {
  const tail = `.${table}.${name}`;
  if (!qualifiedName.endsWith(tail)) return false;
  const module = qualifiedName.slice(0, qualifiedName.length - tail.length);
  return module !== '' && !module.includes('.');
}

/** One symbol, several, or none, as a fallback outcome. */
function one(found: readonly { readonly id: number }[], resolution: 'local' | 'self' | 'global' | 'import'): FallbackOutcome | undefined {
  if (found.length === 1) return { toId: found[0]!.id, resolution };
  return found.length > 1 ? { toId: null, reason: 'ambiguous' } : undefined;
}

/**
 * Functions stored in tables, and globals. `lookup.module`: the table that module returns
 * (its `<return>` export binding); `lookup.qualifier`: `self, T` in a method of T, `_G`, a table
 * of the file, else a global table of another file; a plain name: a global function.
 */
function fallback(name: string, site: FallbackSite, lookup?: FallbackLookup): FallbackOutcome | undefined {
  if (lookup?.want === 'type') return undefined;
  const lua = site.named(name).filter((s) => s.language === 'lua');
  const globalFunctions = (): FallbackOutcome | undefined => one(lua.filter((s) => s.kind === 'function' && (s.flags & STATIC) === 0), 'global');
  if (lookup?.module !== undefined) {
    const { module } = lookup;
    // A module's table is known by its return; any module's return may change: depend on it.
    site.depend('<return>');
    const returned = site.bindings(module.fileId).find((b) => b.kind === 'export' && b.name === '<return>' && b.scopeId === null)?.member;
    if (returned == null) return undefined;
    const table = [returned, ...(lookup.qualifier ?? []).slice(1)].join('.');
    const qualified = qualify(module.name, [table, name]);
    return one(lua.filter((s) => s.fileId === module.fileId && s.kind === 'method' && s.qualifiedName === qualified), 'import');
  }
  const qualifier = lookup?.qualifier;
  if (qualifier === undefined) return globalFunctions();
  // `_G.f()` (and a call of a name the file declares local only later): a global, or nothing.
  if (qualifier.length === 1 && qualifier[0] === '_G') return globalFunctions() ?? { toId: null, reason: BUILTINS.has(name) ? 'builtin' : 'not-found' };
  const self = qualifier[0] === 'self';
  const table = (self ? qualifier.slice(1) : qualifier).join('.');
  const own = qualify(site.file.moduleName, [table, name]);
  const inFile = lua.filter((s) => s.fileId === site.file.id && s.kind === 'method' && s.qualifiedName === own);
  if (inFile.length > 0 || self) return one(inFile, self ? 'self' : 'local');
  // A global table filled in another file.
  return one(lua.filter((s) => s.fileId !== site.file.id && s.kind === 'method' && (s.flags & STATIC) === 0 && inTable(s.qualifiedName, table, name)), 'global');
}

/**
 * Lua's graph rules.
 *
 * @example
 * ```ts
 * luaGraph.importTargets('pl.utils', 'lua/pl/app', 'lua/pl/app.lua'); // ['pl/utils', 'lua/pl/utils', 'lua/pl/pl/utils']
 * ```
 */
export const luaGraph: LanguageGraph = {
  family: 'lua',
  moduleName,
  qualify,
  importTargets,
  // `a/b.lua` beside `a/b/init.lua`: Lua's path tries `?.lua` first.
  pickModule: (candidates) => {
    const plain = candidates.map((c, i) => (c.path.endsWith('/init.lua') ? -1 : i)).filter((i) => i >= 0);
    return plain.length === 1 ? plain[0] : undefined;
  },
  builtins: BUILTINS,
  constructorNames: () => [],
  exportsOnly: true,
  submodulesAreMembers: false,
  qualifiedNames: true,
  fallback,
};
