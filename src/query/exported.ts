import type { IndexStore } from '../db/store.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
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

/** Languages whose members carry their own export mark (Go: a capital letter; Rust: `pub`), whatever their type's. */
const MEMBERS_MARKED: ReadonlySet<string> = new Set(['go', 'rust']);
/** Private by the language's or its community's convention: `_name` (not `__dunder__`), JavaScript `#name`. */
const PRIVATE_NAME = /^(#|_(?!_\w*__$))/;

/**
 * Whether code outside the codebase may use `s` as its language shares code: marked exported
 * (JavaScript/TypeScript `export`, Go capitalised, Rust `pub`, C `EXPORT_SYMBOL`, a Lua module's
 * table), named by its module's export list, or a method or nested class, not private, of such a
 * class. Languages whose code is public by default without a module export (Java's `public`,
 * Python without `__all__`) mark nothing: false.
 */
export function isExported(store: IndexStore, symbols: SymbolCache, s: SymbolRow, known?: Map<number, boolean>): boolean {
  if ((s.flags & SYMBOL_FLAGS.exported) !== 0) return true;
  const parent = s.parentId === null ? undefined : symbols.get(s.parentId);
  if (parent === undefined) return false;
  if (parent.kind === 'module') return s.kind !== 'method' && store.rows(`SELECT 1 FROM symbols s WHERE s.id = ? AND ${IN_EXPORT_LIST}`, [s.id]).length > 0;
  if (parent.kind !== 'class' || MEMBERS_MARKED.has(s.language)) return false;
  if ((s.flags & SYMBOL_FLAGS.private) !== 0 || PRIVATE_NAME.test(s.name)) return false;
  // The methods of one class ask for it in turn (dead code asks for hundreds): once each.
  let exported = known?.get(parent.id);
  if (exported === undefined) {
    exported = isExported(store, symbols, parent, known);
    known?.set(parent.id, exported);
  }
  return exported;
}
