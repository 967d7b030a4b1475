import type { SqlValue } from 'sql.js';
import { compareCodePoints, type IndexStore } from '../db/store.js';
import { EDGE_KIND_CODES, RESOLUTION_CODES } from '../db/schema.js';
import { CKGError } from '../errors.js';
import { refOf, SymbolCache, symbolsMatching, type SymbolRow } from './symbols.js';
import { AttributeLookups, BaseIndex } from './class-graph.js';
import type { Decorator, Decorators, SourceLocation, SymbolTarget, UnresolvedCalls, ValueUse, ValueUses } from './types.js';
import { SYMBOL_FLAGS } from '../graph/describe.js';
import { DYNAMIC_IMPORT_SITE } from '../graph/site.js';
import { isEcmascript } from './structural-dispatch.js';
import { mayCallSql } from './calling-languages.js';

/** How many unresolved call sites an answer lists by location (the rest are counted). */
export const UNRESOLVED_SAMPLE = 5;

/**
 * The unresolved causes that leave room for a call of a given definition: a value of unknown
 * type, a call of a parameter or local, an ambiguous or unknown name. A builtin, or a module
 * outside the codebase, is never a codebase definition.
 */
export const POSSIBLE_CAUSES: readonly number[] = [
  RESOLUTION_CODES.dynamic,
  RESOLUTION_CODES.parameter,
  RESOLUTION_CODES['local-variable'],
  RESOLUTION_CODES['not-found'],
  RESOLUTION_CODES.ambiguous,
];

/** The definitions a target names, in file and line order (a SymbolRef names exactly one). */
export function symbolsOf(store: IndexStore, target: SymbolTarget): SymbolRow[] {
  if (typeof target === 'string') {
    if (target.trim() === '') throw new CKGError('INVALID_ARGUMENT', 'target must be a non-empty name or qualified name');
    return symbolsMatching(store, target.trim()).sort(bySymbolLocation);
  }
  if (target === null || typeof target !== 'object' || typeof target.qualifiedName !== 'string') {
    throw new CKGError('INVALID_ARGUMENT', 'target must be a name, a qualified name or a SymbolRef');
  }
  return symbolsMatching(store, target.qualifiedName).filter(
    (s) => s.filePath === target.filePath && s.startLine === target.startLine && s.kind === target.kind,
  );
}

/** File (by code point), then line, then id. */
export function bySymbolLocation(a: SymbolRow, b: SymbolRow): number {
  return compareCodePoints(a.filePath, b.filePath) || a.startLine - b.startLine || a.id - b.id;
}

/** Orders locations by file (code point), then line. */
export function byLocation(a: SourceLocation, b: SourceLocation): number {
  return compareCodePoints(a.filePath, b.filePath) || a.line - b.line;
}

/**
 * Calls and lookups the graph could not resolve that may reach `definitions`, counted, with the
 * first few locations: unresolved calls named like one of them whose cause leaves room for a
 * codebase definition, and attribute lookups by computed name that may produce the name
 * (`getattr(node, 'as_' + vendor)` for `as_mysql`; `getattr(self, piece)` for the methods of
 * the class, its bases and subclasses).
 */
export function unresolvedCallsOf(store: IndexStore, definitions: readonly SymbolRow[]): UnresolvedCalls {
  const causes = POSSIBLE_CAUSES.join(', ');
  const found: SourceLocation[] = [];
  let uses = 0;
  for (const name of new Set(definitions.map((d) => d.name))) {
    // Calls, and uses as a value (`callback=other.handle`): what receives the value may call it,
    // in a language that may call a definition of the name.
    const languages = [...new Set(definitions.filter((d) => d.name === name).map((d) => d.language))];
    const rows: SqlValue[][] = store.rows(
      `SELECT f.path, e.line, e.kind FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
       WHERE e.name_id = (SELECT id FROM names WHERE name = ?) AND e.kind IN (${EDGE_KIND_CODES.calls}, ${EDGE_KIND_CODES.references}) AND e.to_id IS NULL AND e.resolution IN (${causes})
         AND (${languages.map(() => mayCallSql('f.language', '?')).join(' OR ')})`,
      [name, ...languages],
    );
    for (const [path, line, kind] of rows) {
      found.push({ filePath: String(path), line: Number(line) });
      if (Number(kind) === EDGE_KIND_CODES.references) uses++;
    }
  }
  const lookups = AttributeLookups.of(store);
  let bases: BaseIndex | undefined;
  const symbols = new SymbolCache(store);
  const seen = new Set<string>();
  for (const d of definitions) {
    const owner = d.kind === 'method' && d.parentId !== null ? symbols.get(d.parentId) : undefined;
    for (const at of lookups.locationsNaming(d.name, d.language, owner?.kind === 'class' ? owner.id : null, () => (bases ??= BaseIndex.of(store)))) {
      const key = `${at.filePath}\u0000${at.line}`;
      if (!seen.has(key)) {
        seen.add(key);
        found.push(at);
      }
    }
  }
  found.sort(byLocation);
  const unresolved = { count: found.length, sample: found.slice(0, UNRESOLVED_SAMPLE) };
  return uses > 0 ? { ...unresolved, uses } : unresolved;
}

/** No use as a value. */
export const NO_VALUE_USES: ValueUses = Object.freeze({ count: 0, sample: Object.freeze([]) });

/**
 * Where `definitions` are used as values (resolved `references` edges: passed, returned,
 * stored, assigned; a function stored in an object literal, where it is defined, by the
 * definition around), counted, with the first few by location and their users: whatever
 * receives such a value may call it, and no edge shows that call.
 */
export function valueUsesOf(store: IndexStore, symbols: SymbolCache, definitions: readonly SymbolRow[]): ValueUses {
  const ids = definitions.map((d) => d.id);
  if (ids.length === 0) return NO_VALUE_USES;
  const found: { filePath: string; line: number; fromId: number }[] = [];
  // A function stored in an object literal (`{ onClick() {} }`, `o.handler = function () {}`)
  // is a value held by the object where it is defined: calls through the object are no edges.
  for (const d of definitions) {
    if ((d.flags & SYMBOL_FLAGS['member-value']) !== 0 && d.parentId !== null) found.push({ filePath: d.filePath, line: d.startLine, fromId: d.parentId });
  }
  found.push(...dynamicImportsOf(store, definitions));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = store.rows(
      `SELECT e.from_id, e.line, f.path FROM edges e JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
       WHERE e.to_id IN (${chunk.map(() => '?').join(', ')}) AND e.kind = ${EDGE_KIND_CODES.references}`,
      chunk,
    );
    for (const [from, line, path] of rows) found.push({ filePath: String(path), line: Number(line), fromId: Number(from) });
  }
  if (found.length === 0) return NO_VALUE_USES;
  found.sort((a, b) => byLocation(a, b) || a.fromId - b.fromId);
  const first = found.slice(0, UNRESOLVED_SAMPLE);
  symbols.load(first.map((f) => f.fromId));
  const sample: ValueUse[] = [];
  for (const f of first) {
    const user = symbols.get(f.fromId);
    if (user) sample.push({ filePath: f.filePath, line: f.line, symbol: refOf(user) });
  }
  return { count: found.length, sample };
}

/**
 * Where the modules exporting `definitions` are imported at run time (`import('./page')`): the
 * module object may use each export where no edge shows (`React.lazy` renders its default
 * export), one use per import and exported definition.
 */
function dynamicImportsOf(store: IndexStore, definitions: readonly SymbolRow[]): { filePath: string; line: number; fromId: number }[] {
  const exported = definitions.filter((d) => (d.flags & SYMBOL_FLAGS.exported) !== 0 && isEcmascript(d.language));
  if (exported.length === 0) return [];
  const files = [...new Set(exported.map((d) => d.fileId))];
  const out: { filePath: string; line: number; fromId: number }[] = [];
  for (let i = 0; i < files.length; i += 500) {
    const chunk = files.slice(i, i + 500);
    const rows = store.rows(
      `SELECT m.file_id, e.from_id, e.line, f.path FROM symbols m JOIN edges e ON e.to_id = m.id JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
       WHERE m.kind = 'module' AND m.file_id IN (${chunk.map(() => '?').join(', ')}) AND e.kind = ${EDGE_KIND_CODES.imports} AND e.site = '${DYNAMIC_IMPORT_SITE}'`,
      chunk,
    );
    for (const [fileId, from, line, path] of rows) {
      for (const d of exported) if (d.fileId === Number(fileId)) out.push({ filePath: String(path), line: Number(line), fromId: Number(from) });
    }
  }
  return out;
}

/** No decorator. */
export const NO_DECORATORS: Decorators = Object.freeze({ count: 0, sample: Object.freeze([]) });

/**
 * The decorators of `definitions` that may have them called where no edge shows (their
 * `decorator` bindings), counted, with the first few by location. Only definitions flagged
 * decorated can have any: the others cost no query.
 */
export function decoratorsOf(store: IndexStore, symbols: SymbolCache, definitions: readonly SymbolRow[]): Decorators {
  const decorated = definitions.filter((d) => (d.flags & SYMBOL_FLAGS.decorated) !== 0);
  if (decorated.length === 0) return NO_DECORATORS;
  const found: { filePath: string; line: number; name: string; scopeId: number }[] = [];
  for (let i = 0; i < decorated.length; i += 500) {
    const chunk = decorated.slice(i, i + 500);
    const files = [...new Set(chunk.map((d) => d.fileId))];
    const ids = chunk.map((d) => d.id);
    const rows = store.rows(
      `SELECT b.scope_id, b.name, b.line, f.path FROM bindings b JOIN files f ON f.id = b.file_id
       WHERE b.file_id IN (${files.map(() => '?').join(', ')}) AND b.kind = 'decorator' AND b.scope_id IN (${ids.map(() => '?').join(', ')})`,
      [...files, ...ids],
    );
    for (const [scope, name, line, path] of rows) found.push({ filePath: String(path), line: Number(line), name: String(name), scopeId: Number(scope) });
  }
  if (found.length === 0) return NO_DECORATORS;
  found.sort((a, b) => byLocation(a, b) || a.scopeId - b.scopeId || compareCodePoints(a.name, b.name));
  const sample: Decorator[] = [];
  for (const f of found.slice(0, UNRESOLVED_SAMPLE)) {
    const symbol = symbols.get(f.scopeId);
    if (symbol) sample.push({ filePath: f.filePath, line: f.line, name: f.name, symbol: refOf(symbol) });
  }
  return { count: found.length, sample };
}

/**
 * A class's own constructors (its methods named like a constructor in some language:
 * `__init__`, `constructor`, the class's own name, `__construct`, `new`, `initialize`): a call of
 * the class resolves to one of these when the class defines it.
 */
export function constructorsOf(store: IndexStore, symbols: SymbolCache, cls: SymbolRow): SymbolRow[] {
  if (cls.kind !== 'class') return [];
  const names = ['__init__', 'constructor', cls.name, '__construct', 'new', 'initialize'];
  const rows = store.rows(`SELECT id FROM symbols WHERE parent_id = ? AND kind = 'method' AND name IN (${names.map(() => '?').join(', ')}) ORDER BY id`, [cls.id, ...names]);
  return rows.map((r) => symbols.get(Number(r[0]))).filter((s): s is SymbolRow => s !== undefined);
}

export { refOf };
