// The stress property of scripts/stress.mjs (50,000 files, run by the bench), on a tree small
// enough for CI: random edits and updates while several callers query; every answer must be
// the whole index before or after an update. CKG_STRESS_FILES runs it larger.
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import * as lib from '../src/index.js';
import { runStress } from '../scripts/stress-core.mjs';

const files = Number(process.env['CKG_STRESS_FILES'] ?? 400);

describe('stress', () => {
  it(`${files} files in 8 languages: random edits with updates while 4 callers query, answers always consistent`, async () => {
    const result = await runStress({ lib, Volume, files, edits: files >= 400 ? 60 : 30, batch: 6, callers: 4, groupSize: 10, seed: 7 });
    expect(result.updates).toBeGreaterThanOrEqual(5);
    expect(result.queries).toBeGreaterThan(result.updates);
  }, 600_000);
});
