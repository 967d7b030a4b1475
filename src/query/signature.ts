import type { IndexStore, StaleBodyPolicy } from '../db/store.js';

/** The longest signature line an answer shows (longer ones end with `…`). */
export const MAX_SIGNATURE = 160;

/**
 * A definition's signature line: the first line of its body that is not an annotation,
 * attribute, decorator or comment (`@Override`, `#[test]`, `// …`), with runs of space folded.
 */
export function signatureLine(body: string): string {
  for (const raw of body.split('\n', 40)) {
    const line = raw.trim();
    if (line === '' || /^(@|#\[|\/\/|\/\*|\*)/.test(line)) continue;
    const folded = line.replace(/\s+/g, ' ');
    return folded.length > MAX_SIGNATURE ? `${folded.slice(0, MAX_SIGNATURE - 1)}…` : folded;
  }
  return '';
}

/**
 * How much of a body a signature line is looked for in: past decorators and comments, the
 * first line of code starts well within it.
 */
const SIGNATURE_HEAD = 4000;

/** Signature lines of symbols by id (from the heads of their bodies, read as queries read them). */
export async function signaturesOf(store: IndexStore, ids: readonly number[], onStale: StaleBodyPolicy = 'marker'): Promise<string[]> {
  return (await store.symbolHeads(ids, SIGNATURE_HEAD, onStale)).map(signatureLine);
}

/** The longest signature an outline line shows. */
export const MAX_OUTLINE_SIGNATURE = 100;

/**
 * A signature line as an outline shows it, without what the outline already says: the opening
 * `:` / `{` / `=> {`, Python's `def` and a method's `self` / `cls`, JavaScript's `export`,
 * `function`, and Go's `func`; cut at {@link MAX_OUTLINE_SIGNATURE} characters. A class keeps
 * its keyword (`class Product(Model)`), so classes stand out from functions.
 */
export function outlineSignature(signature: string, language: string, method: boolean): string {
  let s = signature.trim().replace(/\s*(=>\s*)?[{:]\s*$/, '');
  if (language === 'python') {
    s = s.replace(/^async\s+def\s+/, 'async ').replace(/^def\s+/, '');
    if (method) s = s.replace(/^((?:async )?[\w]+)\((?:self|cls)\s*(?:,\s*|(?=\)))/, '$1(');
  } else if (language === 'javascript' || language === 'typescript' || language === 'tsx') {
    s = s.replace(/^export\s+(default\s+)?/, '').replace(/^(async\s+)?function\*?\s+/, '$1');
  } else if (language === 'go') {
    s = s.replace(/^func\s+/, '');
  }
  return s.length > MAX_OUTLINE_SIGNATURE ? `${s.slice(0, MAX_OUTLINE_SIGNATURE - 1)}…` : s;
}
