import { parse as parseToml } from 'smol-toml';
import { nearestManifest, type FallbackOutcome, type FallbackSite, type LanguageGraph, type NamingContext } from '../strategy.js';
import { MANIFEST_FILES } from './manifest-files.js';

// Rust: a module's name is its path in its crate, led by the crate's name and joined with `::`
// (`shop::store::Catalog::add`). The crate is the package of the nearest `Cargo.toml` that has
// one (its `[lib] name`, else its `[package] name`, `-` read as `_`); without one it is `crate`.
// Inside a package, `src/lib.rs` and `src/main.rs` are the crate root, `src/a.rs` and
// `src/a/mod.rs` are `a`, `src/a/b.rs` is `a::b` (and `src/bin/x.rs` is `bin::x`). Files of a
// package outside `src` are crates of their own, named after the package and their folder
// (`shop-tests::common` for `tests/common/mod.rs`, `shop-build` for `build.rs`): no path in
// another crate can name them. Inline `mod x { … }` blocks add `x` to the qualified names of
// what they hold but are not modules of their own for resolution: their items count as the
// file module's (see the visitor).

/** The prelude's names and the primitive types: called or named without an import. */
const BUILTINS = new Set(
  (
    'Copy Send Sized Sync Unpin Drop Fn FnMut FnOnce drop Box ToOwned Clone PartialEq PartialOrd Eq Ord AsRef AsMut ' +
    'Into From Default Iterator Extend IntoIterator DoubleEndedIterator ExactSizeIterator Option Some None Result Ok Err ' +
    'String ToString Vec TryFrom TryInto FromIterator ' +
    'bool char str u8 u16 u32 u64 u128 usize i8 i16 i32 i64 i128 isize f32 f64 std core alloc'
  ).split(' '),
);

interface Package {
  /** The package's folder, relative to the codebase root. */
  readonly dir: string;
  /** The library crate's name (identifier form). */
  readonly name: string;
  /** The folder, relative to the package, whose files are the library's modules (`src`). */
  readonly srcDir: string;
}

const packages = new Map<string, { readonly name: string; readonly srcDir: string } | null>();

/** The crate a Cargo.toml describes (`[lib] name` / `[package] name`, `[lib] path`), or null for a workspace-only or unreadable one. */
export function cargoCrate(text: string): { readonly name: string; readonly srcDir: string } | null {
  const known = packages.get(text);
  if (known !== undefined) return known;
  let out: { name: string; srcDir: string } | null = null;
  try {
    const toml = parseToml(text) as { package?: { name?: unknown }; lib?: { name?: unknown; path?: unknown } };
    const name = typeof toml.lib?.name === 'string' ? toml.lib.name : typeof toml.package?.name === 'string' ? toml.package.name : undefined;
    if (name !== undefined && name !== '') {
      const libPath = typeof toml.lib?.path === 'string' ? toml.lib.path.replace(/^\.\//, '') : 'src/lib.rs';
      out = { name: name.replace(/-/g, '_'), srcDir: libPath.includes('/') ? libPath.slice(0, libPath.lastIndexOf('/')) : '' };
    }
  } catch {
    out = null; // not TOML: as if there were no manifest
  }
  if (packages.size > 256) packages.clear();
  packages.set(text, out);
  return out;
}

/** The package a file belongs to: the nearest Cargo.toml above it that declares a crate. */
function packageOf(relativePath: string, context: NamingContext): Package | undefined {
  let path = relativePath;
  for (;;) {
    const found = nearestManifest(context, path, 'Cargo.toml');
    if (!found) return undefined;
    const crate = cargoCrate(found.text);
    if (crate) return { dir: found.dir, ...crate };
    if (found.dir === '') return undefined;
    // A workspace manifest: look further up.
    path = found.dir;
  }
}

/** `crate` + a file's path in its crate's source folder: `lib.rs`/`main.rs` at the top are the root, `mod.rs` names its folder. */
function modulePath(crate: string, parts: string[], rootFilesAnywhere: boolean): string {
  const last = parts.pop()!.replace(/\.rs$/, '');
  const isRoot = last === 'lib' || last === 'main';
  if (last !== 'mod' && !(isRoot && (parts.length === 0 || rootFilesAnywhere))) parts.push(last);
  return [crate, ...parts].join('::');
}

function moduleName(relativePath: string, context: NamingContext): string {
  const pkg = packageOf(relativePath, context);
  if (!pkg) {
    // No package: the crate `crate`, its source folder the innermost `src` (else the root);
    // without a manifest to say which files root crates, `lib.rs`/`main.rs` name their folder.
    const src = `/${relativePath}`.lastIndexOf('/src/');
    return modulePath('crate', (src < 0 ? relativePath : relativePath.slice(src + 4)).split('/'), true);
  }
  const inPackage = pkg.dir === '' ? relativePath : relativePath.slice(pkg.dir.length + 1);
  if (pkg.srcDir === '' ? inPackage !== 'build.rs' : inPackage.startsWith(`${pkg.srcDir}/`)) {
    return modulePath(pkg.name, (pkg.srcDir === '' ? inPackage : inPackage.slice(pkg.srcDir.length + 1)).split('/'), false);
  }
  // `build.rs`, `tests/…`, `benches/…`, `examples/…`: crates of their own.
  const parts = inPackage.split('/');
  const crate = `${pkg.name}-${parts.shift()!.replace(/\.rs$/, '')}`;
  return parts.length === 0 ? crate : modulePath(crate, parts, false);
}

/** The crate root of a module name: its first segment. */
function crateOf(module: string): string {
  const i = module.indexOf('::');
  return i < 0 ? module : module.slice(0, i);
}

/**
 * The modules a `use` path (`crate::a::b`, `self::x`, `super::super::y`, `::ext::m`, `other::m`)
 * may mean from module `fromModule`. A path led by a plain name is first a child module of the
 * importing one (a module declared there), then a crate of that name.
 */
function importTargets(specifier: string, fromModule: string): readonly string[] {
  const parts = specifier.split('::');
  const head = parts[0];
  if (head === '') return [parts.slice(1).join('::')];
  if (head === 'crate') return [[crateOf(fromModule), ...parts.slice(1)].join('::')];
  if (head === 'self') return [[fromModule, ...parts.slice(1)].join('::')];
  if (head === 'super') {
    const up = fromModule.split('::');
    let i = 0;
    while (parts[i] === 'super') {
      // The crate root has no parent module.
      if (up.length <= 1) return [];
      up.pop();
      i++;
    }
    return [[...up, ...parts.slice(i)].join('::')];
  }
  return [`${fromModule}::${specifier}`, specifier];
}

/**
 * A path's head nothing binds: `crate`, `self` and `super` (`super::super` as one head) name
 * modules relative to the site's; a crate's name that nothing imports (`core::mem::swap()`,
 * the 2018 edition's extern prelude) names that crate's root, when the codebase holds it.
 */
function fallback(name: string, site: FallbackSite): FallbackOutcome | undefined {
  if (name === 'self') return { toId: site.file.moduleId, resolution: 'import' };
  if (name === 'crate' || name.startsWith('super')) {
    const target = importTargets(name, site.file.moduleName)[0];
    if (target === undefined) return { toId: null, reason: 'not-found' };
    const modules = site.modulesNamed(target);
    const module = modules.length === 1 ? modules[0] : pickRoot(modules);
    return module ? { toId: module.moduleId, resolution: 'import' } : { toId: null, reason: modules.length === 0 ? 'not-found' : 'ambiguous' };
  }
  const roots = site.modulesNamed(name);
  if (roots.length === 0) return undefined;
  const lib = roots.length === 1 ? roots[0] : pickRoot(roots);
  return lib ? { toId: lib.moduleId, resolution: 'import' } : { toId: null, reason: 'ambiguous' };
}

function pickRoot<T extends { readonly path: string }>(roots: readonly T[]): T | undefined {
  const libs = roots.filter((r) => r.path.endsWith('/lib.rs'));
  return libs.length === 1 ? libs[0] : undefined;
}

/**
 * Rust's graph rules.
 *
 * @example
 * ```ts
 * rustGraph.importTargets('super::models', 'shop::store::catalog', '/repo/src/store/catalog.rs'); // ['shop::store::models']
 * ```
 */
export const rustGraph: LanguageGraph = {
  family: 'rust',
  inlineModules: true,
  moduleName,
  namingKey: (context, relativePath) => {
    const pkg = packageOf(relativePath, context);
    return pkg ? `crate@${pkg.dir}=${pkg.name}:${pkg.srcDir}` : '';
  },
  manifests: MANIFEST_FILES.rust,
  qualify: (module, chain) => [module, ...chain].filter((p) => p !== '').join('::'),
  importTargets,
  // `src/lib.rs` and `src/main.rs` both root a crate of the package's name: a path means the library.
  pickModule: (candidates) => {
    const libs = candidates.map((c, i) => (c.path.endsWith('/lib.rs') ? i : -1)).filter((i) => i >= 0);
    return libs.length === 1 ? libs[0] : undefined;
  },
  builtins: BUILTINS,
  constructorNames: () => [],
  exportsOnly: false,
  submodulesAreMembers: true,
  pathSeparator: '::',
  basesByDepth: true,
  fallback,
};
