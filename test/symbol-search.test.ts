// The near-miss tier of searchSymbols: the bounded typo distance and its cheap pre-filter must
// agree with the plain definition of optimal-string-alignment distance on every input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NearMiss, nameWords, typoDistance } from '../src/query/search.js';

/** Optimal-string-alignment distance by its textbook full table (no early exit, no bound). */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

// Small alphabets make near misses common; `\u0100`-`\u0180` share buckets with ASCII in the pre-filter.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', '_', 'A', '\u0161', '\u00e1', 'é'), maxLength: 14 });

describe('typo distance', () => {
  it('equals the textbook distance when within the bound, and exceeds the bound otherwise', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const want = referenceDistance(a, b);
        const got = typoDistance(a, b, max);
        if (want <= max) expect(got).toBe(want);
        else expect(got).toBeGreaterThan(max);
      }),
      { numRuns: 3000 },
    );
    // Long strings after short ones: the reused rows grow.
    expect(typoDistance('x'.repeat(200), `${'x'.repeat(199)}y`, 2)).toBe(1);
  });

  it('the pre-filtered near-miss test accepts exactly the names within the bound', () => {
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 20 }), fc.integer({ min: 1, max: 2 }), (term, names, max) => {
        const nearMiss = new NearMiss(term, max);
        for (const name of names) expect(nearMiss.matches(name)).toBe(referenceDistance(name, term) <= max);
      }),
      { numRuns: 1000 },
    );
    // A swap is one typo, as is a dropped letter; two substitutions are two.
    expect(new NearMiss('prase', 1).matches('parse')).toBe(true);
    expect(new NearMiss('prse', 1).matches('parse')).toBe(true);
    expect(new NearMiss('pxrxe', 1).matches('parse')).toBe(false);
  });

  it('splits names into words at case, separator and digit boundaries', () => {
    expect(nameWords('parseHTTPConfig2')).toEqual(['parse', 'http', 'config', '2']);
    expect(nameWords('load_json-v2')).toEqual(['load', 'json', 'v', '2']);
  });
});
