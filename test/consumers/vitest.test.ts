// A project that unit-tests its code with vitest on memfs, the README's test as written, run by
// vitest in that project against the installed package (nothing configured).
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, exec, packedPackage, project, snippet } from './package.js';

let dir: string;

beforeAll(async () => {
  const packed = await packedPackage();
  dir = project(packed, 'vitest-memfs', {
    'package.json': JSON.stringify({ name: 'vitest-consumer', private: true, type: 'module' }),
    'test/search.test.ts': snippet('README.md', 'vitest-test'),
  });
}, 600_000);

describe('a vitest + memfs consumer', () => {
  it("passes the README's unit test", async () => {
    const { stdout } = await exec(process.execPath, [bin('vitest'), 'run', '--reporter=json', '--root', dir], dir, { NODE_ENV: 'test' });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { numTotalTests: number; numPassedTests: number; testResults: { assertionResults: { title: string; status: string }[] }[] };
    expect(report.testResults.flatMap((file) => file.assertionResults.map((a) => [a.title, a.status]))).toEqual([
      ['finds functions, methods and classes of an in-memory codebase', 'passed'],
    ]);
    expect(report.numPassedTests).toBe(report.numTotalTests);
  });
});
