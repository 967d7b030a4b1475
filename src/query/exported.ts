import type { IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES } from '../db/schema.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
import { BaseIndex } from './class-graph.js';
import type { SymbolCache, SymbolRow } from './symbols.js';

// What a codebase offers code outside it: a definition its language marks exported, or its
// module's export list names, and the public methods of such a class. Callers answers say so
// (code outside the codebase may call it, however complete the codebase's own calls are), and
// dead code leaves such definitions out.

/**
 * SQL, true when the symbol `s` is a module-level definition its module's export list names
 * (Python `__all__`, JavaScript `export { a, b as c }`).
 */
export const IN_EXPORT_LIST = `EXISTS (SELECT 1 FROM bindings b JOIN symbols m ON m.id = s.parent_id AND m.kind = 'module'
  WHERE b.file_id = s.file_id AND b.scope_id IS NULL AND b.kind = 'export' AND b.module IS NULL AND b.member = s.name)`;

/**
 * SQL, true when the Python module-level definition `s` is re-exported: another module imports
 * it by name (`from .geometry import GEOSGeometry`, the import's module resolved to `s`'s by an
 * imports edge) and either names it in its own `__all__`, or is a package's `__init__.py` with
 * no `__all__` (a package's public names, by the language's convention).
 */
const PYTHON_REEXPORTED = `EXISTS (SELECT 1 FROM bindings b
  JOIN symbols im ON im.file_id = b.file_id AND im.kind = 'module'
  JOIN edges e ON e.from_id = im.id AND e.kind = ${EDGE_KIND_CODES.imports} AND e.to_id = s.parent_id
  JOIN names n ON n.id = e.name_id AND n.name = b.module
  JOIN files f ON f.id = b.file_id
  WHERE b.kind = 'member' AND b.scope_id IS NULL AND b.member = s.name AND b.file_id <> s.file_id
    AND CASE WHEN EXISTS (SELECT 1 FROM bindings x WHERE x.file_id = b.file_id AND x.scope_id IS NULL AND x.kind = 'export' AND x.module IS NULL)
      THEN EXISTS (SELECT 1 FROM bindings x WHERE x.file_id = b.file_id AND x.scope_id IS NULL AND x.kind = 'export' AND x.module IS NULL AND x.member = b.name)
      ELSE (f.path LIKE '%/__init__.py' OR f.path = '__init__.py') AND b.name NOT LIKE '\\_%' ESCAPE '\\' END)`;

/** Languages whose members carry their own export mark (Go: a capital letter; Rust: `pub`), whatever their type's. */
const MEMBERS_MARKED: ReadonlySet<string> = new Set(['go', 'rust']);
/** Private by the language's or its community's convention: `_name` (not `__dunder__`), JavaScript `#name`. */
const PRIVATE_NAME = /^(#|_(?!_\w*__$))/;

/**
 * Whether code outside the codebase may use `s` as its language shares code: marked exported
 * (JavaScript/TypeScript `export`, Go capitalised, Rust `pub`, C `EXPORT_SYMBOL`, a Lua module's
 * table), named by its module's export list or, in Python, re-exported by a package's
 * `__init__.py` or another module's `__all__`; a method or nested class, not private, of such a
 * class or inherited unchanged by one (`GEOSGeometry(GEOSGeometryBase)` exported: the base's
 * `contains` is called on it). Languages whose code is public by default without a module export
 * (Java's `public`, Python names no package re-exports and no `__all__` names) mark nothing:
 * false. `known` keeps classes' answers between calls (dead code asks for hundreds of methods).
 */
export function isExported(store: IndexStore, symbols: SymbolCache, s: SymbolRow, known?: Map<number, boolean>): boolean {
  if ((s.flags & SYMBOL_FLAGS.exported) !== 0) return true;
  const parent = s.parentId === null ? undefined : symbols.get(s.parentId);
  if (parent === undefined) return false;
  if (parent.kind === 'module') {
    if (s.kind === 'method') return false;
    const listed = s.language === 'python' ? `(${IN_EXPORT_LIST} OR ${PYTHON_REEXPORTED})` : IN_EXPORT_LIST;
    return store.rows(`SELECT 1 FROM symbols s WHERE s.id = ? AND ${listed}`, [s.id]).length > 0;
  }
  if (parent.kind !== 'class' || MEMBERS_MARKED.has(s.language)) return false;
  if ((s.flags & SYMBOL_FLAGS.private) !== 0 || PRIVATE_NAME.test(s.name)) return false;
  if (exportedClass(store, symbols, parent, known)) return true;
  // Inherited unchanged by an exported subclass: the subclass's users call it. (Which classes
  // are exported is kept in `known`; most subclasses are not, and need no lookup order.)
  const bases = BaseIndex.of(store);
  for (const id of bases.below(parent.id)) {
    const sub = symbols.get(id);
    if (sub !== undefined && exportedClass(store, symbols, sub, known) && bases.reaches(id, parent.id, s.name)) return true;
  }
  return false;
}

function exportedClass(store: IndexStore, symbols: SymbolCache, cls: SymbolRow, known: Map<number, boolean> | undefined): boolean {
  let exported = known?.get(cls.id);
  if (exported === undefined) {
    exported = isExported(store, symbols, cls, known);
    known?.set(cls.id, exported);
  }
  return exported;
}
