// Text answers of the graph commands: short lines, paths relative to the codebase root, the
// honesty note (complete or lower bound) in the header so clipping never drops it.
import type { SymbolRef } from '../db/entries.js';
import type { CallsAnswer, ClassHierarchy, DeadCodeAnswer, Decorators, DispatchCalls, FileOutline, OutlineEntry, PathAnswer, SourceLocation, SymbolSearchAnswer, UnresolvedCalls, ValueUses } from '../query/types.js';
import { clipEntriesShown, type FormattedEntries } from './format.js';
import { outlineSignature } from '../query/signature.js';

/** Paths as answers print them: relative to the codebase root. */
export function relativeTo(root: string): (path: string) => string {
  const prefix = root === '/' ? '/' : `${root}/`;
  return (path) => (path.startsWith(prefix) ? path.slice(prefix.length) : path);
}

function where(s: SymbolRef, rel: (p: string) => string): string {
  return `${rel(s.filePath)}:${s.startLine}-${s.endLine}`;
}

function locations(sample: readonly SourceLocation[], rel: (p: string) => string): string {
  return sample.map((l) => `${rel(l.filePath)}:${l.line}`).join(', ');
}

/** Unresolved calls that may be calls of the asked definition (a clause of a callers answer's lower-bound note). */
function unresolvedClause(u: UnresolvedCalls, name: string, rel: (p: string) => string): string | undefined {
  if (u.count === 0) return undefined;
  const more = u.count > u.sample.length ? ', …' : '';
  if (u.uses === u.count) return `${u.count} unresolved ${u.count === 1 ? 'use' : 'uses'} as a value named ${name} may lead to calls of it (${locations(u.sample, rel)}${more})`;
  if (u.uses) return `${u.count} unresolved calls and uses as a value named ${name} may also be (or lead to) calls of it (${locations(u.sample, rel)}${more})`;
  return `${u.count} unresolved ${u.count === 1 ? 'call' : 'calls'} named ${name} may also be ${u.count === 1 ? 'a call' : 'calls'} of it (${locations(u.sample, rel)}${more})`;
}

/**
 * Calls that may run a method by dispatch: `in`, calls of a method the asked one overrides
 * (`file:line caller via Base.m`); `out`, the asked function's calls that may run an override.
 */
function dispatchClause(d: DispatchCalls, direction: 'in' | 'out', rel: (p: string) => string): string | undefined {
  if (d.count === 0) return undefined;
  const more = d.count > d.sample.length ? ', …' : '';
  const one = d.count === 1;
  if (direction === 'in') {
    const shown = d.sample.map((c) => `${rel(c.filePath)}:${c.line} ${c.symbol.qualifiedName} via ${c.via.qualifiedName}`).join(', ');
    return `${d.count} ${one ? 'call' : 'calls'} of ${one ? 'a method' : 'methods'} it overrides or implements may run it by dispatch (${shown}${more})`;
  }
  const shown = d.sample.map((c) => `${rel(c.filePath)}:${c.line} ${c.via.name} -> ${c.symbol.qualifiedName}`).join(', ');
  return `${d.count} ${one ? 'override or implementation' : 'overrides or implementations'} may run instead by dispatch (${shown}${more})`;
}

/** Uses of the asked definition (or of the path's) as a value, whose receivers may call it. */
function valueUseClause(u: ValueUses, rel: (p: string) => string, what: string): string | undefined {
  if (u.count === 0) return undefined;
  const more = u.count > u.sample.length ? ', …' : '';
  const shown = u.sample.map((v) => `${rel(v.filePath)}:${v.line} ${v.symbol.qualifiedName}`).join(', ');
  return `${u.count} ${u.count === 1 ? 'use' : 'uses'} of ${what} as a value may lead to calls no edge shows (${shown}${more})`;
}

/** A decorator that makes its definition an attribute whose reads (or writes) run it: `property`, `cached_property`, `x.setter`. */
function isPropertyDecorator(name: string): boolean {
  return /(?:^|[._])property$|\.(?:setter|getter|deleter)$/i.test(name);
}

/** The asked definition's decorators, which may have it called where no edge shows. */
function decoratorClause(d: Decorators, rel: (p: string) => string): string | undefined {
  if (d.count === 0) return undefined;
  const more = d.count > d.sample.length ? ', …' : '';
  const shown = d.sample.map((x) => `@${x.name} ${rel(x.filePath)}:${x.line}`).join(', ');
  if (d.sample.some((x) => isPropertyDecorator(x.name))) return `it is a property (${shown}${more}): reading the attribute runs it, and attribute reads are no edges`;
  return `decorated (${shown}${more}): the decorator receives it and may have it called where no edge shows`;
}

/** The first five names, then `…` for the rest. */
function firstNames(names: readonly string[]): string {
  return names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
}

/** A method whose class has bases outside the codebase (CallGroup.outsideBases). */
function outsideBasesClause(bases: readonly string[]): string | undefined {
  if (bases.length === 0) return undefined;
  const shown = firstNames(bases);
  return `its class has ${bases.length === 1 ? 'a base' : 'bases'} outside the codebase (${shown}): if it overrides one of ${bases.length === 1 ? 'its' : 'their'} methods, that code calls it where no edge shows`;
}

/** A method the language calls where no call is written (CallGroup.implicit). */
const IMPLICIT_CLAUSE = 'the language or its runtime calls it where no call is written (an operator, a loop, a conversion to text, an entry point, a test, …)';

/** `find_callers` / `find_callees`. */
export function formatCalls(target: string, answer: CallsAnswer, direction: 'in' | 'out', root: string): FormattedEntries {
  const rel = relativeTo(root);
  if (answer.groups.length === 0) return { text: `No function, method or class named ${target} found.`, shown: 0 };
  const parts: string[] = [];
  const entries: string[] = [];
  let n = answer.offset;
  const deep = answer.groups.some((g) => g.calls.some((c) => c.depth > 1));
  for (const g of answer.groups) {
    const what = direction === 'in' ? 'caller' : 'call';
    const unresolvedCallees = direction === 'out' ? g.unresolved.count : 0;
    let tail: string;
    if (direction === 'in') {
      const clauses = [unresolvedClause(g.unresolved, g.symbol.name, rel), dispatchClause(g.dispatch, 'in', rel), valueUseClause(g.valueUses, rel, 'it'), decoratorClause(g.decorators, rel), g.implicit ? IMPLICIT_CLAUSE : undefined, outsideBasesClause(g.outsideBases)].filter(
        (c) => c !== undefined,
      );
      tail = clauses.length > 0 ? ` Lower bound: ${clauses.join('; ')}.` : g.total > 0 ? ' Complete.' : ' Complete: nothing calls it.';
      // A class only ever subclassed is used all the same.
      if (g.subclasses > 0) tail += ` ${g.subclasses} ${g.subclasses === 1 ? 'class derives' : 'classes derive'} from it (class_hierarchy lists them).`;
      // Its users outside the codebase are never among the callers.
      if (g.exported) tail += ' Exported: code outside the codebase may call it.';
    } else {
      const dispatch = dispatchClause(g.dispatch, 'out', rel);
      tail = `${unresolvedCallees > 0 ? ` ${unresolvedCallees} unresolved here.` : ''}${dispatch ? ` ${dispatch}.` : ''}`;
    }
    parts.push(`${direction === 'in' ? 'Callers of' : 'Calls made by'} ${g.symbol.qualifiedName} (${g.symbol.kind}, ${where(g.symbol, rel)}): ${g.total} ${g.total === 1 ? what : `${what}s`}.${tail}`);
    for (const c of g.calls) {
      n++;
      const depth = deep ? `[${c.depth}] ` : '';
      // A caller sits in the site's file: its name within the file says it all.
      if (direction === 'in') entries.push(`${n}. ${depth}${rel(c.filePath)}:${c.line} ${c.local ?? c.symbol?.qualifiedName ?? '?'}\n`);
      else entries.push(`${n}. ${depth}${rel(c.filePath)}:${c.line} ${c.name} -> ${c.symbol ? c.symbol.qualifiedName : `? (${c.reason ?? 'unresolved'})`}\n`);
    }
  }
  const shownAll = answer.offset === 0 && entries.length === answer.total;
  const paging = shownAll ? '' : `Showing ${answer.offset + 1}-${answer.offset + entries.length} of ${answer.total}.\n`;
  return clipEntriesShown(`${parts.join('\n')}\n${paging}`, entries);
}

/** `trace_path`. */
export function formatPath(target: string, answer: PathAnswer, root: string): FormattedEntries {
  const rel = relativeTo(root);
  if (answer.roots.length === 0) return { text: `No function, method or class named ${target} found.`, shown: 0 };
  const from = answer.roots.map((r) => `${r.qualifiedName} (${where(r, rel)})`).join(', ');
  let honesty: string;
  if (answer.direction === 'inbound') {
    const u = answer.unresolved;
    const clauses = [
      u.count > 0
        ? `${u.count === 1 ? '1 unresolved call' : `${u.count} unresolved calls`}${u.uses ? ' and uses as a value' : ''} ${u.count === 1 && !u.uses ? 'carries a name' : 'carry names'} on the path (${locations(u.sample, rel)}${u.count > u.sample.length ? ', …' : ''})`
        : undefined,
      pathDispatchClause(answer, rel),
      valueUseClause(answer.valueUses, rel, 'symbols on the path'),
      pathDecoratorClause(answer.decorators, rel),
      answer.implicit.length > 0
        ? `the language or its runtime calls ${answer.implicit.length === 1 ? 'a definition' : `${answer.implicit.length} definitions`} on the path where no call is written (${firstNames(answer.implicit.map((s) => s.qualifiedName))})`
        : undefined,
      answer.overridable.length > 0
        ? `${answer.overridable.length === 1 ? 'a method' : `${answer.overridable.length} methods`} on the path ${answer.overridable.length === 1 ? 'has' : 'have'} a class with bases outside the codebase, whose code may call ${answer.overridable.length === 1 ? 'it' : 'them'} (${firstNames(answer.overridable.map((s) => s.qualifiedName))})`
        : undefined,
    ].filter((c) => c !== undefined);
    honesty = clauses.length > 0 ? ` Lower bound: ${clauses.join('; ')}.` : ' Complete.';
  } else {
    const dispatch = pathDispatchClause(answer, rel);
    const open = answer.hops.some((h) => h.to === null);
    honesty = open || dispatch ? `${open ? ' Paths end at unresolved calls (?).' : ''}${dispatch ? ` ${dispatch}.` : ''}` : ' Complete.';
  }
  const header = `${answer.direction === 'inbound' ? 'Calls into' : 'Calls out of'} ${from}, depth ${answer.depth}: ${answer.hops.length} hops.${honesty}\n`;
  const entries = answer.hops.map((h, i) => `${i + 1}. [${h.depth}] ${h.from.qualifiedName} -> ${h.to?.qualifiedName ?? `? ${h.name}`} (${rel(h.filePath)}:${h.line})\n`);
  return clipEntriesShown(header, entries);
}

/** Decorators of the path's symbols, which may have them called where no hop shows. */
function pathDecoratorClause(d: Decorators, rel: (p: string) => string): string | undefined {
  if (d.count === 0) return undefined;
  const more = d.count > d.sample.length ? ', …' : '';
  const shown = d.sample.map((x) => `${rel(x.filePath)}:${x.line} @${x.name} on ${x.symbol.qualifiedName}`).join(', ');
  return `${d.count} ${d.count === 1 ? 'decorator' : 'decorators'} of symbols on the path may have them called where no hop shows (${shown}${more})`;
}

/** The dispatch calls a trace did not follow (a clause of its header's note). */
function pathDispatchClause(answer: PathAnswer, rel: (p: string) => string): string | undefined {
  const d = answer.dispatch;
  if (d.count === 0) return undefined;
  const more = d.count > d.sample.length ? ', …' : '';
  if (answer.direction === 'inbound') {
    const shown = d.sample.map((c) => `${rel(c.filePath)}:${c.line} ${c.symbol.qualifiedName} via ${c.via.qualifiedName}`).join(', ');
    return `${d.count} ${d.count === 1 ? 'call' : 'calls'} of overridden or implemented methods may run methods on the path by dispatch, not followed (${shown}${more})`;
  }
  const shown = d.sample.map((c) => `${rel(c.filePath)}:${c.line} ${c.via.qualifiedName} -> ${c.symbol.qualifiedName}`).join(', ');
  return `${d.count} ${d.count === 1 ? 'call' : 'calls'} on the path may run an override or implementation by dispatch, not followed (${shown}${more})`;
}

/** `class_hierarchy`. */
export function formatHierarchy(target: string, answer: readonly ClassHierarchy[], root: string): FormattedEntries {
  const rel = relativeTo(root);
  if (answer.length === 0) return { text: `No class named ${target} found.`, shown: 0 };
  const entries: string[] = [];
  for (const h of answer) {
    const lines = [`${h.symbol.qualifiedName} (${where(h.symbol, rel)})`];
    lines.push(h.bases.length === 0 ? 'Bases: none' : 'Bases:');
    for (const b of h.bases) lines.push(`${'  '.repeat(b.depth)}${b.relation} ${b.symbol ? `${b.symbol.qualifiedName} (${where(b.symbol, rel)})` : `${b.name} (outside the codebase)`}${b.depth > 1 ? ` via ${b.of.name}` : ''}`);
    lines.push(h.subclasses.length === 0 ? 'Subclasses: none' : 'Subclasses:');
    for (const s of h.subclasses) lines.push(`${'  '.repeat(s.depth)}${s.symbol ? `${s.symbol.qualifiedName} (${where(s.symbol, rel)})` : s.name} ${s.relation}${s.depth > 1 ? ` ${s.of.name}` : ''}`);
    entries.push(`${lines.join('\n')}\n`);
  }
  return clipEntriesShown('', entries);
}

/** `dead_code`. */
export function formatDeadCode(scope: string, answer: DeadCodeAnswer, root: string): FormattedEntries {
  const rel = relativeTo(root);
  const where_ = scope === '' ? '' : ` under ${scope}`;
  if (answer.total === 0) return { text: `No dead functions or methods found${where_}.`, shown: 0 };
  const paging = answer.offset === 0 && answer.entries.length === answer.total ? '' : ` Showing ${answer.offset + 1}-${answer.offset + answer.entries.length}.`;
  const header = `${answer.total} ${answer.total === 1 ? 'function or method' : 'functions and methods'}${where_} that nothing calls or uses (entry points, tests, exports, overrides and names of unresolved calls excluded).${paging}\n`;
  const entries = answer.entries.map((e, i) => `${answer.offset + i + 1}. ${where(e.symbol, rel)} ${e.symbol.qualifiedName}: ${e.signature}\n`);
  return clipEntriesShown(header, entries);
}

/** `search_symbols`. */
export function formatSymbolSearch(query: string, answer: SymbolSearchAnswer, root: string): FormattedEntries {
  const rel = relativeTo(root);
  if (answer.total === 0) return { text: `No symbols match ${query}.`, shown: 0 };
  const shown = answer.results.length;
  const paging = answer.offset === 0 && shown === answer.total ? '' : ` Showing ${answer.offset + 1}-${answer.offset + shown}.`;
  const header = `${answer.total} ${answer.total === 1 ? 'symbol matches' : 'symbols match'} ${query}.${paging}\n`;
  const entries = answer.results.map(
    (r, i) => `${answer.offset + i + 1}. ${r.symbol.kind} ${r.symbol.qualifiedName} ${where(r.symbol, rel)} [${r.match}${r.calls > 0 ? `, ${r.calls} ${r.calls === 1 ? 'call' : 'calls'}` : ''}] ${r.signature}\n`,
  );
  return clipEntriesShown(header, entries);
}

/** `file_outline`. */
export function formatOutline(path: string, outline: FileOutline | undefined, root: string): FormattedEntries {
  const rel = relativeTo(root);
  if (!outline) return { text: `No indexed file ${path}.`, shown: 0 };
  const entries: string[] = [];
  const walk = (e: OutlineEntry, depth: number): void => {
    const signature = e.signature === '' ? `${e.kind} ${e.name}` : outlineSignature(e.signature, outline.language, e.kind === 'method');
    entries.push(`${'  '.repeat(depth)}${e.startLine}-${e.endLine} ${signature}\n`);
    for (const c of e.children) walk(c, depth + 1);
  };
  for (const e of outline.entries) walk(e, 0);
  const header = `${rel(outline.filePath)}: ${entries.length} definitions, ${outline.module.endLine} lines.\n`;
  return clipEntriesShown(header, entries);
}
