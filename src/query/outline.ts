import type { IndexStore, StaleBodyPolicy } from '../db/store.js';
import { CKGError } from '../errors.js';
import { isAbsolute, join, normalize } from '../fs/path.js';
import { signaturesOf } from './signature.js';
import { refOf, SymbolCache, type SymbolRow } from './symbols.js';
import type { FileOutline, OutlineEntry } from './types.js';

/** The indexed file a path names: absolute, or relative to the codebase root. */
export function indexedFile(store: IndexStore, root: string, path: string): { id: number; path: string; language: string } | undefined {
  if (typeof path !== 'string' || path.trim() === '') throw new CKGError('INVALID_ARGUMENT', 'path must be a non-empty file path');
  const absolute = isAbsolute(path.trim()) ? normalize(path.trim()) : join(root, path.trim());
  const row = store.rows('SELECT id, path, language FROM files WHERE path = ?', [absolute])[0];
  return row ? { id: Number(row[0]), path: String(row[1]), language: String(row[2]) } : undefined;
}

/** The definitions of one file, nested as in the source, with line ranges and signature lines. */
export async function fileOutline(store: IndexStore, root: string, path: string, onStale: StaleBodyPolicy = 'marker'): Promise<FileOutline | undefined> {
  const file = indexedFile(store, root, path);
  if (!file) return undefined;
  const symbols = new SymbolCache(store);
  const rows = store
    .rows('SELECT id FROM symbols WHERE file_id = ? ORDER BY start_line, id', [file.id])
    .map((r) => symbols.get(Number(r[0])))
    .filter((s): s is SymbolRow => s !== undefined);
  const module = rows.find((s) => s.kind === 'module');
  if (!module) return undefined;
  const definitions = rows.filter((s) => s.kind !== 'module');
  const signatures = await signaturesOf(store, definitions.map((s) => s.id), onStale);
  const entries = new Map<number, { entry: OutlineEntry; children: OutlineEntry[] }>();
  const top: OutlineEntry[] = [];
  definitions.forEach((s, i) => {
    const children: OutlineEntry[] = [];
    const entry: OutlineEntry = { kind: s.kind, name: s.name, qualifiedName: s.qualifiedName, startLine: s.startLine, endLine: s.endLine, signature: signatures[i]!, children };
    entries.set(s.id, { entry, children });
    const parent = s.parentId === null ? undefined : entries.get(s.parentId);
    (parent ? parent.children : top).push(entry);
  });
  return { filePath: file.path, language: file.language, module: refOf(module), entries: top };
}
