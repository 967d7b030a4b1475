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

/** Signature lines of symbols by id (bodies read as queries read them). */
export async function signaturesOf(store: IndexStore, ids: readonly number[], onStale: StaleBodyPolicy = 'marker'): Promise<string[]> {
  return (await store.symbolBodies(ids, onStale)).map(signatureLine);
}
