import type { Node } from 'web-tree-sitter';
import type { ReferenceSink } from '../../graph/facts.js';

// Bash: every command is a call of its name (a function of the file or of a file it sources, a
// builtin, or a program); `source file` and `. file` import a file and everything it defines (a
// star import: a sourced file's functions, and what it sources, are the sourcing file's). A path
// is followed when it is a literal (`lib/common.sh`, `"./lib.sh"`) or the script's own folder
// followed by one (`"$(dirname "$0")/lib.sh"`, `"${BASH_SOURCE%/*}/lib.sh"`); any other source
// (`source "$CONFIG"`) may define any name, which leaves what the file does not define itself
// unresolved. A command named by an expansion (`"$@"`, `$handler`) is a call of a value.

const SOURCES = new Set(['source', '.']);

/** The text of a literal word or string without expansions, or undefined. */
function literal(node: Node): string | undefined {
  switch (node.type) {
    case 'word':
      return /[$`*?[\]{}\\]/.test(node.text) ? undefined : node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string': {
      const parts = node.namedChildren;
      if (parts.length === 0) return '';
      return parts.every((p) => p?.type === 'string_content') ? parts.map((p) => p!.text).join('') : undefined;
    }
    default:
      return undefined;
  }
}

/** Whether an expansion is the script's folder: `$(dirname "$0")`, `$(dirname "${BASH_SOURCE[0]}")`, `${BASH_SOURCE%/*}`, `${0%/*}`. */
function isScriptFolder(node: Node): boolean {
  const text = node.text.replace(/\s+/g, ' ');
  return /^\$\( ?dirname "?\$\{?(0|BASH_SOURCE(\[0\])?)\}?"? ?\)$/.test(text) || /^\$\{(0|BASH_SOURCE(\[0\])?)%\/\*\}$/.test(text);
}

/** What `source <arg>` names: a path as written (relative to the script for the script-folder forms), or undefined when it is computed. */
function sourcedPath(arg: Node): string | undefined {
  const plain = literal(arg);
  if (plain !== undefined) return plain;
  if (arg.type !== 'string' && arg.type !== 'concatenation') return undefined;
  const parts = arg.namedChildren.filter((p): p is Node => p !== null);
  const [first, ...rest] = parts;
  if (!first || !isScriptFolder(first)) return undefined;
  const tail = rest.map((p) => (p.type === 'string_content' || p.type === 'word' ? p.text : p.type === 'string' ? literal(p) : undefined));
  if (tail.some((t) => t === undefined)) return undefined;
  const path = tail.join('');
  return path.startsWith('/') ? `.${path}` : undefined;
}

/** A function name `trap` or a callback argument may name. */
const FUNCTION_NAME = /^[A-Za-z_][\w:.-]*$/;

function visit(root: Node, sink: ReferenceSink): void {
  // The file's own function names: an argument naming one is a function passed on
  // (`retry 3 upload`, `xargs -n1 process_item`, `timeout 5 wait_ready`), run by the command
  // through `"$@"` or by name. Other words are data, and never sites.
  const own = new Set<string>();
  for (const fn of root.descendantsOfType('function_definition')) {
    const name = fn?.childForFieldName('name')?.text;
    if (name) own.add(name);
  }
  for (const command of root.descendantsOfType('command')) {
    if (!command) continue;
    const nameNode = command.childForFieldName('name');
    const head = nameNode?.namedChildren[0];
    if (!nameNode || !head) continue;
    if (head.type !== 'word') {
      // `"$@"`, `$handler`, `${cmd}`: a call of whatever the value holds.
      const positional = /^"?\$\{?[0-9@*#]/.test(nameNode.text);
      sink.site(head, { kind: 'call', name: nameNode.text, fixed: positional ? 'parameter' : 'local-variable' });
      continue;
    }
    const name = head.text;
    const args = command.childrenForFieldName('argument').filter((a): a is Node => a !== null);
    if (SOURCES.has(name)) {
      const arg = args[0];
      if (arg) {
        const path = sourcedPath(arg);
        // A computed path may be any file: a star import of a module no file is.
        const module = path ?? arg.text;
        sink.site(arg, { kind: 'import', name: module });
        sink.binding(arg, { kind: 'star', name: '*', module });
      }
      continue;
    }
    sink.site(head, { kind: 'call', name });
    if (name === 'trap' && args.length > 1) {
      // `trap cleanup EXIT`: the function runs on the signal.
      const handler = literal(args[0]!);
      if (handler !== undefined && FUNCTION_NAME.test(handler)) sink.site(args[0]!, { kind: 'reference', name: handler });
    } else {
      for (const arg of args) if (arg.type === 'word' && own.has(arg.text)) sink.site(arg, { kind: 'reference', name: arg.text });
    }
  }
}

/**
 * The Bash reference visitor: commands as calls, `source`/`.` of literal (or script-relative)
 * paths as star imports, `trap` handlers as function uses.
 *
 * @example
 * ```ts
 * const lang: LanguageDefinition = { ...bash, references: bashReferences };
 * ```
 */
export const bashReferences = visit;
