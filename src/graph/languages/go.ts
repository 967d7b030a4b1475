import { nearestManifest, type LanguageGraph, type NamingContext } from '../strategy.js';
import { MANIFEST_FILES } from './manifest-files.js';
import { builtTogether } from './go-build.js';

// Go: a package is a folder, named by its import path: the module path of the nearest `go.mod`
// at or above it (inside the codebase) joined with the folder's path below that go.mod
// (`example.com/shop` + `store` → `example.com/shop/store`). The Go tree's own `src/go.mod`
// says `module std`: its packages are imported by their folder alone (`net/http`). Without a
// go.mod a package is named by its folder from the codebase root (GOPATH style). All files of
// a folder are one package (`sharedModules`), apart from an external test package (`package
// x_test`), which is a package of its own.
// Definitions are qualified as `importpath.Func` and `importpath.Type.Method`.

/** The predeclared identifiers (functions and types) of the universe block. */
const BUILTINS = new Set(
  (
    'append cap clear close complex copy delete imag len make max min new panic print println real recover ' +
    'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string ' +
    'uint uint8 uint16 uint32 uint64 uintptr iota nil true false'
  ).split(' '),
);

const MODULE_LINE = /^[ \t]*module[ \t]+("?)([^\s"]+)\1/m;
const modulePaths = new Map<string, string | undefined>();

/** The module path a go.mod declares (`module example.com/shop`), or undefined. */
export function goModulePath(text: string): string | undefined {
  if (modulePaths.has(text)) return modulePaths.get(text);
  const path = MODULE_LINE.exec(text.replace(/\/\/[^\n]*/g, ''))?.[2];
  if (modulePaths.size > 256) modulePaths.clear();
  modulePaths.set(text, path);
  return path;
}

/** The go.mod that decides a file's package name: its folder and module path. */
function moduleOf(relativePath: string, context: NamingContext): { readonly dir: string; readonly path: string } | undefined {
  const found = nearestManifest(context, relativePath, 'go.mod');
  if (!found) return undefined;
  const path = goModulePath(found.text);
  return path === undefined ? undefined : { dir: found.dir, path };
}

/**
 * A file's package: its folder's import path; a file of an external test package (`package
 * store_test` beside `package store`) is in a package of its own, `<import path>_test` as Go
 * names it, which sees the package under test only through its imports.
 */
function moduleName(relativePath: string, context: NamingContext, declaredPackage?: string): string {
  const name = folderPackage(relativePath, context);
  return declaredPackage !== undefined && declaredPackage.endsWith('_test') ? `${name}_test` : name;
}

function folderPackage(relativePath: string, context: NamingContext): string {
  const dir = relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
  const mod = moduleOf(relativePath, context);
  if (!mod) return dir === '' ? context.rootName : dir;
  const below = mod.dir === '' ? dir : dir.slice(mod.dir.length + 1);
  if (below === '') return mod.path;
  return mod.path === 'std' ? below : `${mod.path}/${below}`;
}

/**
 * The packages an import path may mean: itself, else a vendored copy in the nearest `vendor`
 * folder at or above the importing package (`cmd/vendor/…`, the Go tree's `vendor/…`).
 */
function importTargets(specifier: string, fromModule: string): readonly string[] {
  const out = [specifier];
  const parts = fromModule.split('/');
  for (let n = parts.length; n > 0; n--) out.push(`${parts.slice(0, n).join('/')}/vendor/${specifier}`);
  out.push(`vendor/${specifier}`);
  return out;
}

/**
 * Go's graph rules.
 *
 * @example
 * ```ts
 * goGraph.qualify('example.com/shop/store', ['Catalog', 'Add']); // 'example.com/shop/store.Catalog.Add'
 * ```
 */
export const goGraph: LanguageGraph = {
  family: 'go',
  moduleName,
  namingKey: (context, relativePath) => {
    const mod = moduleOf(relativePath, context);
    return mod ? `go.mod@${mod.dir}=${mod.path}` : '';
  },
  manifests: MANIFEST_FILES.go,
  qualify: (module, chain) => [module, ...chain].filter((p) => p !== '').join('.'),
  importTargets,
  builtins: BUILTINS,
  constructorNames: () => [],
  exportsOnly: false,
  // A dot import brings in the exported (capitalised) names only.
  isPrivateName: (name) => !/^\p{Lu}/u.test(name),
  submodulesAreMembers: false,
  sharedModules: true,
  compiledTogether: builtTogether,
  basesByDepth: true,
  returnTypes: true,
  // Struct fields (`field` bindings): `s.db.Query()` where s's struct is declared in another file.
  fieldTypes: true,
};
