import type { SqlValue } from 'sql.js';
import type { IndexStore } from '../db/store.js';
import type { SymbolKind, SymbolRef } from '../db/entries.js';

/** A symbol row with its id, for queries that join further. */
export interface SymbolRow extends SymbolRef {
  readonly id: number;
  readonly parentId: number | null;
  readonly fileId: number;
  readonly flags: number;
}

/** The columns of a SymbolRow, from `symbols s JOIN files f` (for queries that select rows whole). */
export const SYMBOL_SELECT = `SELECT s.id, s.kind, s.name, s.qualified_name, f.language, f.path, s.start_line, s.end_line, s.parent_id, s.file_id, s.flags
  FROM symbols s JOIN files f ON f.id = s.file_id`;

/** A SymbolRow from a row of {@link SYMBOL_SELECT}'s columns. */
export function toSymbol(r: SqlValue[]): SymbolRow {
  return {
    id: Number(r[0]),
    kind: String(r[1]) as SymbolKind,
    name: String(r[2]),
    qualifiedName: String(r[3]),
    language: String(r[4]),
    filePath: String(r[5]),
    startLine: Number(r[6]),
    endLine: Number(r[7]),
    parentId: r[8] === null ? null : Number(r[8]),
    fileId: Number(r[9]),
    flags: Number(r[10]),
  };
}

/** The public, plain form of a symbol row. */
export function refOf(s: SymbolRow): SymbolRef {
  return { kind: s.kind, name: s.name, qualifiedName: s.qualifiedName, language: s.language, filePath: s.filePath, startLine: s.startLine, endLine: s.endLine };
}

/** Reads symbols by id for one query, each once. */
export class SymbolCache {
  readonly #store: IndexStore;
  readonly #byId = new Map<number, SymbolRow | undefined>();

  constructor(store: IndexStore) {
    this.#store = store;
  }

  get(id: number): SymbolRow | undefined {
    if (!this.#byId.has(id)) {
      const row = this.#store.rows(`${SYMBOL_SELECT} WHERE s.id = ?`, [id])[0];
      this.#byId.set(id, row ? toSymbol(row) : undefined);
    }
    return this.#byId.get(id);
  }

  /** Reads the symbols of `ids` not read yet, a few statements for all (before `get`s of many). */
  load(ids: Iterable<number>): void {
    const missing = [...new Set(ids)].filter((id) => !this.#byId.has(id));
    for (let i = 0; i < missing.length; i += 500) {
      const chunk = missing.slice(i, i + 500);
      for (const id of chunk) this.#byId.set(id, undefined);
      for (const row of this.#store.rows(`${SYMBOL_SELECT} WHERE s.id IN (${chunk.map(() => '?').join(', ')})`, chunk)) {
        const symbol = toSymbol(row);
        this.#byId.set(symbol.id, symbol);
      }
    }
  }
}

/**
 * The symbols a user's text names: every symbol of that name, or, for a text with separators
 * (`.`, `::`, `/`, `\\`, `#`), the symbols whose qualified name is it or ends with it at a
 * separator (`Catalog.add` names `shop.catalog.Catalog.add`). A module's name is its full name.
 */
export function symbolsMatching(store: IndexStore, text: string): SymbolRow[] {
  const out = new Map<number, SymbolRow>();
  for (const r of store.rows(`${SYMBOL_SELECT} WHERE s.name = ?`, [text])) {
    const s = toSymbol(r);
    out.set(s.id, s);
  }
  // The name is the text after the last separator: `Foo#bar` is Ruby's method bar, `Cart.#count`
  // JavaScript's private method #count.
  const lasts = new Set([/([^.:/\\#]+)$/.exec(text)?.[1], /(#?[^.:/\\#]+)$/.exec(text)?.[1]]);
  for (const last of lasts) {
    if (last === undefined || last === text) continue;
    for (const r of store.rows(`${SYMBOL_SELECT} WHERE s.name = ?`, [last])) {
      const s = toSymbol(r);
      const q = s.qualifiedName;
      if (q === text || (q.endsWith(text) && /[.:/\\#]/.test(q.charAt(q.length - text.length - 1)))) out.set(s.id, s);
    }
  }
  return [...out.values()];
}
