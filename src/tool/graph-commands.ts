import type { SymbolKind } from '../db/entries.js';
import { CKGError } from '../errors.js';
import type { CallsAnswer } from '../query/types.js';
import { integerArgument, type JsonSchema, type ToolCommand, type ToolParameter } from './commands.js';
import { formatCalls, formatDeadCode, formatHierarchy, formatOutline, formatPath, formatSymbolSearch, relativeTo } from './graph-format.js';

// The code-graph commands of the `ckg` tool. Their schemas and summaries are short on purpose:
// an agent pays for the tool definition on every call (README: the whole definition's size).

const LIMIT: ToolParameter = { type: 'integer', description: 'Max entries.' };
const OFFSET: ToolParameter = { type: 'integer', description: 'Skip entries.' };
const DEPTH: ToolParameter = { type: 'integer', description: 'Levels, 1-10.' };
const TARGET = { description: 'Symbol name' };

function kindArgument(raw: Readonly<Record<string, unknown>>): SymbolKind | undefined {
  const kind = raw.kind ?? undefined;
  if (kind === undefined || kind === '') return undefined;
  if (kind === 'function' || kind === 'method' || kind === 'class' || kind === 'module') return kind;
  throw new CKGError('INVALID_ARGUMENT', `kind must be function, method, class or module, got ${JSON.stringify(kind)}`);
}

// Every client pays for each schema on every request: the shape is documented (docs/), the
// schema only says "an object".
const OBJECT: JsonSchema = { type: 'object' };

function callsOutput(answer: CallsAnswer, text: string): { text: string; structured: Record<string, unknown>; found: boolean } {
  return { text, structured: { complete: answer.complete, total: answer.total, groups: answer.groups }, found: answer.groups.length > 0 };
}

/** The graph commands, in the order of the tool's enum. */
export const GRAPH_COMMANDS: readonly ToolCommand[] = [
  {
    name: 'find_callers',
    summary: '`find_callers`: call sites of `identifier` with their callers; says if a lower bound',
    identifier: TARGET,
    parameters: { depth: DEPTH, limit: LIMIT, offset: OFFSET },
    output: OBJECT,
    run: async (db, { identifier, raw }) => {
      const answer = await db.callers(identifier, { depth: integerArgument(raw, 'depth') ?? 1, limit: integerArgument(raw, 'limit'), offset: integerArgument(raw, 'offset') ?? 0 });
      return callsOutput(answer, formatCalls(identifier, answer, 'in', db.codebasePath).text);
    },
  },
  {
    name: 'find_callees',
    summary: '`find_callees`: calls made by `identifier`, each with its callee',
    identifier: TARGET,
    parameters: { depth: DEPTH, limit: LIMIT, offset: OFFSET },
    output: OBJECT,
    run: async (db, { identifier, raw }) => {
      const answer = await db.callees(identifier, { depth: integerArgument(raw, 'depth') ?? 1, limit: integerArgument(raw, 'limit'), offset: integerArgument(raw, 'offset') ?? 0 });
      return callsOutput(answer, formatCalls(identifier, answer, 'out', db.codebasePath).text);
    },
  },
  {
    name: 'trace_path',
    summary: '`trace_path`: call paths out of `identifier` (or into it: `direction` inbound)',
    identifier: TARGET,
    parameters: { direction: { type: 'string', description: 'outbound (default) or inbound.', enum: ['outbound', 'inbound'] }, depth: DEPTH },
    output: OBJECT,
    run: async (db, { identifier, raw }) => {
      const direction = raw.direction === 'inbound' ? 'inbound' : raw.direction === undefined || raw.direction === null || raw.direction === '' || raw.direction === 'outbound' ? 'outbound' : undefined;
      if (direction === undefined) throw new CKGError('INVALID_ARGUMENT', `direction must be outbound or inbound, got ${JSON.stringify(raw.direction)}`);
      const answer = await db.tracePath(identifier, { direction, depth: integerArgument(raw, 'depth') ?? 3 });
      return { text: formatPath(identifier, answer, db.codebasePath).text, structured: { complete: answer.complete, roots: answer.roots, hops: answer.hops }, found: answer.roots.length > 0 };
    },
  },
  {
    name: 'class_hierarchy',
    summary: '`class_hierarchy`: bases and subclasses of class `identifier`, transitive',
    identifier: TARGET,
    output: OBJECT,
    run: async (db, { identifier }) => {
      const answer = await db.classHierarchy(identifier);
      return { text: formatHierarchy(identifier, answer, db.codebasePath).text, structured: { classes: answer }, found: answer.length > 0 };
    },
  },
  {
    name: 'dead_code',
    summary: '`dead_code`: functions nothing calls or uses (`identifier`: path prefix or empty)',
    identifier: { description: 'Path prefix, or empty', optional: true },
    parameters: { limit: LIMIT, offset: OFFSET },
    output: OBJECT,
    run: async (db, { identifier, raw }) => {
      const limit = integerArgument(raw, 'limit');
      const answer = await db.deadCode({ ...(identifier.trim() === '' ? {} : { path: identifier.trim() }), offset: integerArgument(raw, 'offset') ?? 0, ...(limit === undefined ? {} : { limit }) });
      const text = formatDeadCode(identifier.trim(), answer, db.codebasePath).text;
      return { text, structured: { total: answer.total, entries: answer.entries }, found: answer.total > 0 };
    },
  },
  {
    name: 'search_symbols',
    summary: '`search_symbols`: ranked symbol search (words, typos, `+must -not`, `/regex/`, `pkg.mod.` prefixes)',
    identifier: { description: 'Search query' },
    parameters: { kind: { type: 'string', description: 'Symbol kind.', enum: ['function', 'method', 'class', 'module'] }, limit: LIMIT, offset: OFFSET },
    output: OBJECT,
    run: async (db, { identifier, raw }) => {
      const kind = kindArgument(raw);
      const answer = await db.searchSymbols(identifier, { ...(kind ? { kind } : {}), limit: integerArgument(raw, 'limit') ?? 20, offset: integerArgument(raw, 'offset') ?? 0 });
      return { text: formatSymbolSearch(identifier, answer, db.codebasePath).text, structured: { total: answer.total, results: answer.results }, found: answer.total > 0 };
    },
  },
  {
    name: 'file_outline',
    summary: '`file_outline`: definitions of file `identifier`, nested, with lines and signatures',
    identifier: { description: 'File path' },
    output: OBJECT,
    run: async (db, { identifier }) => {
      const outline = await db.fileOutline(identifier);
      const text = formatOutline(identifier, outline, db.codebasePath).text;
      return { text, structured: { file: outline ? relativeTo(db.codebasePath)(outline.filePath) : identifier, entries: outline?.entries ?? [] }, found: outline !== undefined };
    },
  },
];
