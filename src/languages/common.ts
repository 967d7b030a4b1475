import type { Node } from 'web-tree-sitter';

// Helpers shared by the language visitors. Everything walks parent links or direct children:
// only a few nodes per definition, so the cost stays far below a full-tree JavaScript walk.

/** The text of a field child, or undefined. */
export function fieldText(node: Node, field: string): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** The nearest proper ancestor whose type is in `types`. */
export function nearestAncestor(node: Node, types: ReadonlySet<string>): Node | undefined {
  for (let p = node.parent; p; p = p.parent) if (types.has(p.type)) return p;
  return undefined;
}

/** Nodes of one walk, in document order, with their types. */
export interface TypedNodes {
  readonly nodes: Node[];
  readonly types: string[];
}

/** A walk a reference visitor kept for the definitions visitor of the same tree (see {@link definitionDescendants}). */
interface KeptWalk extends TypedNodes {
  readonly root: number;
  readonly searched: ReadonlySet<string>;
}

/** Keyed by tree: a tree is parsed, walked by both visitors, then freed. */
const keptWalks = new WeakMap<object, KeptWalk>();

/**
 * The descendants of `root` whose type is one of `types`, in document order, with each one's
 * type read once (every read of `node.type` crosses into wasm): what a reference pass walks.
 *
 * `shareWith`: the types the definitions visitor of the same tree walks for. Then one walk
 * finds both, and is kept for that visitor, which runs next and takes its part with
 * {@link definitionDescendants}: a walk in wasm visits every node of the tree whatever it
 * collects, so one walk costs about half as much as two. The reference pass still gets exactly
 * the nodes of `types`.
 */
export function typedDescendants(root: Node, types: readonly string[], shareWith?: readonly string[]): TypedNodes {
  const own = shareWith === undefined ? undefined : new Set(types);
  const searched = own === undefined || shareWith!.every((t) => own.has(t)) ? types : [...new Set([...types, ...shareWith!])];
  const nodes = root.descendantsOfType(searched as string[]).filter((n): n is Node => n !== null);
  const walk = { nodes, types: nodes.map((n) => n.type) };
  if (own === undefined) return walk;
  keptWalks.set(root.tree, { ...walk, root: root.id, searched: new Set(searched) });
  return searched === types ? walk : only(walk, own);
}

/** The nodes of a walk whose type is in `wanted`, in the walk's order. */
function only(walk: TypedNodes, wanted: ReadonlySet<string>): TypedNodes {
  const nodes: Node[] = [];
  const types: string[] = [];
  for (let i = 0; i < walk.nodes.length; i++) {
    const type = walk.types[i]!;
    if (!wanted.has(type)) continue;
    nodes.push(walk.nodes[i]!);
    types.push(type);
  }
  return { nodes, types };
}

/**
 * What `typedDescendants(root, types)` returns, taken from the walk the reference visitor kept
 * of the same tree when that walk searched every type of `types` (see {@link typedDescendants});
 * else a walk of its own. A kept walk is taken once, whether it fits or not.
 */
export function definitionDescendants(root: Node, types: readonly string[]): TypedNodes {
  const kept = keptWalks.get(root.tree);
  if (kept === undefined) return typedDescendants(root, types);
  keptWalks.delete(root.tree);
  if (kept.root !== root.id || !types.every((t) => kept.searched.has(t))) return typedDescendants(root, types);
  return only(kept, new Set(types));
}

/** The named children of a node (skips null entries some bindings return). */
export function namedChildren(node: Node | null | undefined): Node[] {
  if (!node) return [];
  return node.namedChildren.filter((c): c is Node => c !== null);
}

/** All children of a node, named and anonymous. */
export function allChildren(node: Node | null | undefined): Node[] {
  if (!node) return [];
  return node.children.filter((c): c is Node => c !== null);
}

/**
 * The text of a node's children before the first child whose type is in `stopTypes`, joined by
 * one space: a signature line such as `async load(id: string): Promise<string>`.
 */
export function signatureBefore(node: Node, stopTypes: ReadonlySet<string>): string {
  const parts: string[] = [];
  for (const child of allChildren(node)) {
    if (stopTypes.has(child.type)) break;
    parts.push(child.text);
  }
  return collapseSpaces(parts.join(' '));
}

/** The node's source text up to (not including) the start of `stop`. */
export function textBefore(node: Node, stop: Node | null | undefined): string {
  const text = node.text;
  if (!stop) return text.trim();
  return text.slice(0, stop.startIndex - node.startIndex).trim();
}

/** Folds runs of white space (newlines included) into single spaces. */
export function collapseSpaces(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/ ([)\]])/g, '$1')
    .trim();
}

/**
 * How a base that no declaration names is written (`namedtuple('P', 'x y')`, `make_mixin(B)`),
 * on one line and at most 60 characters: the name of its edge, which stays unresolved.
 */
export function writtenBase(base: Node): string {
  const text = collapseSpaces(base.text);
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}

/**
 * A decorator (annotation, attribute) as written without its arguments: its dotted `path` when
 * it has one (`app.route` for `@app.route('/')`), else its text on one line, at most 60
 * characters: the name of its `decorator` binding.
 */
export function writtenDecorator(expr: Node, path: readonly string[] | undefined): string {
  return path ? path.join('.') : writtenBase(expr);
}

/** `Set` of strings, for node-type lookups. */
export function typeSet(...types: string[]): ReadonlySet<string> {
  return new Set(types);
}

/** A field's summary line; a multi-line initializer is left out (`map = mapOf(\n…)` → `map`). */
export function fieldLine(raw: string): string {
  const text = raw.trim();
  const eq = text.includes('\n') ? text.search(/=(?![=>])/) : -1;
  return collapseSpaces(eq > 0 ? text.slice(0, eq) : text);
}

/**
 * Replaces every character but line breaks in the `[start, end)` ranges with spaces, and
 * single characters as `chars` says (index → one replacement character): the offset-keeping
 * edits of a source rewrite (`LanguageDefinition.rewriteSource`). Returns `text` itself when
 * there is nothing to do.
 */
export function applyTextEdits(text: string, ranges: readonly (readonly [number, number])[], chars?: ReadonlyMap<number, string>): string {
  const edits: [number, number, string | undefined][] = ranges.map(([start, end]) => [start, end, undefined]);
  for (const [at, c] of chars ?? []) edits.push([at, at + 1, c]);
  if (edits.length === 0) return text;
  edits.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end, replacement] of edits) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    parts.push(text.slice(at, from), replacement ?? text.slice(from, end).replace(/[^\r\n]/g, ' '));
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
