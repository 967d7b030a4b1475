import type { IndexStore, StaleBodyPolicy } from '../db/store.js';
import { EDGE_KIND_CODES } from '../db/schema.js';
import { CKGError } from '../errors.js';
import { isAbsolute, join, normalize } from '../fs/path.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
import { IN_EXPORT_LIST, isExported } from './exported.js';
import { mayCallSql } from './calling-languages.js';
import { signaturesOf } from './signature.js';
import { refOf, SYMBOL_SELECT, SymbolCache, toSymbol, type SymbolRow } from './symbols.js';
import { bySymbolLocation, POSSIBLE_CAUSES } from './targets.js';
import { AttributeLookups, BaseIndex } from './class-graph.js';
import { classOfMethod } from './dispatch.js';
import { GoInterfaces } from './interface-dispatch.js';
import { StructuralInterfaces, typesStructurally } from './structural-dispatch.js';
import type { DeadCodeAnswer, DeadCodeOptions } from './types.js';

// Dead code: functions and methods that no resolved call or value use reaches, less everything
// the tools that report dead code are known to get wrong. A definition stays out of the answer
// when it is an entry point, a constructor or a language hook, an override or interface
// implementation (or may be one: its class has a base outside the codebase), a test, exported
// API or imported by name elsewhere, registered by a decorator or attribute, stored in an object literal (reached through the
// object), or when any unresolved call or value use in the codebase has its name — the graph
// cannot rule out that it is that callee.

/** Names a language or its runtime calls by itself. */
const ENTRY_NAMES = new Set(['main', 'Main', 'init', '__main__', 'String', 'Error', 'ServeHTTP', 'setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule']);
/** Constructor and lifecycle names (the class's own name is one too: Java, C#, Kotlin, C++). */
const CONSTRUCTOR_NAMES = new Set(['__init__', '__new__', '__post_init__', '__init_subclass__', 'constructor', '__construct', '__destruct', 'initialize', 'new', 'finalize', 'dispose', 'Dispose']);
/** Python dunders, PHP magic methods, Kotlin/C# operator-like hooks. */
const MAGIC = /^(__\w+__|__(get|set|call|callStatic|isset|unset|sleep|wakeup|toString|invoke|set_state|clone|debugInfo|serialize|unserialize))$|^operator/;
/** Test files by path: `test_x.py`, `x_test.go`, `x.test.ts`, `x.spec.js`, `XTest.java`, folders named test(s). */
const TEST_PATH = /(^|\/)(tests?|__tests__|spec|testing)\/|(^|\/)test_[^/]*$|_test\.[^/.]+$|\.(test|spec)\.[^/]+$|Tests?\.[^/.]+$/;
const TEST_NAME = /^(test|Test)/;
/**
 * Languages where every class extends a root class outside the codebase (`java.lang.Object`,
 * `System.Object`, `Any`) even when it names no base, with the methods of that root that the
 * runtime and libraries call (`toString` by string concatenation, `equals`/`hashCode` by
 * collections).
 */
const ROOT_CLASS_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  java: new Set(['toString', 'equals', 'hashCode', 'clone', 'finalize']),
  kotlin: new Set(['toString', 'equals', 'hashCode']),
  scala: new Set(['toString', 'equals', 'hashCode', 'clone', 'finalize']),
  c_sharp: new Set(['ToString', 'Equals', 'GetHashCode', 'Finalize']),
};

const FLAGGED = SYMBOL_FLAGS.exported | SYMBOL_FLAGS.decorated | SYMBOL_FLAGS.entry | SYMBOL_FLAGS.test | SYMBOL_FLAGS['member-value'];
/** The language of edge `u`'s file, read only where the definition's language asks (mayCallSql: C's never does). */
const CALLER_LANGUAGE = '(SELECT uf.language FROM symbols us JOIN files uf ON uf.id = us.file_id WHERE us.id = u.from_id)';
/** Edge kinds that use a definition: calls and value references. */
const USES = `${EDGE_KIND_CODES.calls}, ${EDGE_KIND_CODES.references}`;

/**
 * Functions and methods with no resolved caller or use other than themselves, after the
 * exclusions above, in file and line order, paged.
 */
export async function deadCode(store: IndexStore, root: string, options: DeadCodeOptions = {}, onStale: StaleBodyPolicy = 'marker'): Promise<DeadCodeAnswer> {
  if (options === null || typeof options !== 'object') throw new CKGError('INVALID_ARGUMENT', 'options must be an object');
  const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
  const offset = options.offset ?? 0;
  for (const [name, v] of [['limit', limit], ['offset', offset]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new CKGError('INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  }
  let prefix: string | undefined;
  if (options.path !== undefined && options.path !== '') {
    if (typeof options.path !== 'string') throw new CKGError('INVALID_ARGUMENT', 'path must be a string');
    prefix = isAbsolute(options.path) ? normalize(options.path) : join(root, options.path);
  }
  if (options.language !== undefined && typeof options.language !== 'string') throw new CKGError('INVALID_ARGUMENT', 'language must be a string');

  const conditions = ["s.kind IN ('function', 'method')", `(s.flags & ${FLAGGED}) = 0`];
  const params: (string | number)[] = [];
  if (options.language) {
    conditions.push('f.language = ?');
    params.push(options.language);
  }
  // In SQL, through the indexes: no resolved call or use from elsewhere; no unresolved call or
  // use anywhere with its name (any definition of such a name may be the one called); not
  // exported by its module's export list.
  const rows = store.rows(
    `${SYMBOL_SELECT} WHERE ${conditions.join(' AND ')}
       AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.to_id = s.id AND e.kind IN (${USES}) AND e.from_id <> s.id)
       AND NOT EXISTS (SELECT 1 FROM edges u
                       WHERE u.name_id = (SELECT id FROM names WHERE name = s.name) AND u.to_id IS NULL AND u.kind IN (${USES}) AND u.resolution IN (${POSSIBLE_CAUSES.join(', ')})
                         AND ${mayCallSql(CALLER_LANGUAGE, 'f.language')})
       AND NOT ${IN_EXPORT_LIST}`,
    params,
  );
  // Functions another file imports by name (`from .libgdal import gdal_full_version`, re-exported
  // by a package's `__init__`): public API or used there, never dead. The module as written
  // need only end like the function's module (`.libgdal`, `./util/strings`), without resolving it.
  const importedFrom = new Map<string, string[]>();
  for (const [member, module] of store.rows("SELECT DISTINCT member, module FROM bindings WHERE kind = 'member' AND member IS NOT NULL AND module IS NOT NULL")) {
    const list = importedFrom.get(String(member));
    if (list) list.push(moduleKey(String(module)));
    else importedFrom.set(String(member), [moduleKey(String(module))]);
  }
  const isImported = (fn: SymbolRow, owner: SymbolRow | undefined): boolean => {
    const specs = owner?.kind === 'module' ? importedFrom.get(fn.name) : undefined;
    if (!specs) return false;
    const own = moduleKey(owner!.qualifiedName);
    return specs.some((spec) => spec !== '' && (own === spec || own.endsWith(`.${spec}`)));
  };
  const symbols = new SymbolCache(store);
  const bases = BaseIndex.of(store);
  const lookups = AttributeLookups.of(store);
  const exportedClasses = new Map<number, boolean>();
  const dead: SymbolRow[] = [];
  for (const row of rows) {
    const s = toSymbol(row);
    if (prefix !== undefined && !s.filePath.startsWith(prefix)) continue;
    if (ENTRY_NAMES.has(s.name) || CONSTRUCTOR_NAMES.has(s.name) || MAGIC.test(s.name)) continue;
    const rel = s.filePath.startsWith(`${root}/`) ? s.filePath.slice(root.length + 1) : s.filePath;
    if (TEST_PATH.test(rel) || TEST_NAME.test(s.name)) continue;
    const owner = s.parentId === null ? undefined : symbols.get(s.parentId);
    if (isImported(s, owner)) continue;
    if (lookups.anyMayName(s.name, s.language)) continue;
    const rootMethods = ROOT_CLASS_METHODS[s.language];
    if (rootMethods && s.kind === 'method' && rootMethods.has(s.name)) continue;
    // Java has no free or nested functions: a "function" is a method of an anonymous class.
    if (s.language === 'java' && s.kind === 'function') continue;
    const cls = s.kind === 'method' ? classOfMethod(store, symbols, s) : undefined;
    if (cls) {
      if (cls.name === s.name || `~${cls.name}` === s.name) continue; // a constructor or destructor
      if (TEST_NAME.test(cls.name) || /Tests?$/.test(cls.name)) continue;
      if (bases.mayBeDispatched(cls.id, s.name)) continue;
      // Go: a method an interface of the codebase may be called for (no edge joins them).
      if (s.language === 'go' && GoInterfaces.of(store).holding(cls.id, s.name).size > 0) continue;
      // TypeScript: a method an interface may be called for on a class that does not declare it.
      if (typesStructurally(s.language) && StructuralInterfaces.of(store).holding(cls.id, s.name).size > 0) continue;
      if (lookups.onSelfMayName(cls.id, s.name, bases)) continue;
    }
    // A public method of an exported class is API as the class is (callers answers say so too).
    if (s.kind === 'method' && isExported(store, symbols, s, exportedClasses)) continue;
    dead.push(s);
  }
  dead.sort(bySymbolLocation);
  const page = dead.slice(offset, offset + limit);
  const signatures = await signaturesOf(store, page.map((s) => s.id), onStale);
  return { entries: page.map((s, i) => ({ symbol: refOf(s), signature: signatures[i]! })), total: dead.length, offset };
}

/**
 * A module name or specifier in one form for comparing ends: leading `./`, `../` and dots and a
 * file extension dropped, separators as dots (`./util/strings.js` → `util.strings`).
 */
function moduleKey(module: string): string {
  return module
    .replace(/^(\.{1,2}\/)+|^\.+/, '')
    .replace(/\.(m?[jt]sx?|c[jt]s|py)$/, '')
    .replace(/[/\\:]+/g, '.');
}
