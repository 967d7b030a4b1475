// The glob and .gitignore matchers agree with `ignore` and picomatch on ordinary patterns, and
// answer hostile ones (exponential for backtracking regexes) at once.
import fc from 'fast-check';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { Volume } from 'memfs';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, type FileSystem } from '../src/index.js';
import { compileGlobs, segmentMatcher } from '../src/glob/glob.js';
import { gitignoreRules } from '../src/glob/gitignore.js';
import { ignorePrefilter } from '../src/indexer/ignore-prefilter.js';
import { pathMatcher } from '../src/search/glob.js';

const segmentChars = fc.constantFrom('a', 'b', '.', 'x');
// Real paths never hold the segments '.' and '..'.
const segment = fc.array(segmentChars, { minLength: 1, maxLength: 4 }).map((c) => c.join('')).filter((s) => s !== '.' && s !== '..');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const globUnit = fc.constantFrom('a', 'b', '.', '*', '?', '[ab]', '[!a]', '[a-b]');
const globSegment = fc.oneof(
  { weight: 5, arbitrary: fc.array(globUnit, { minLength: 1, maxLength: 4 }).map((u) => u.join('')).filter((s) => s !== '.' && s !== '..') },
  { weight: 1, arbitrary: fc.constant('**') },
);
const glob = fc.array(globSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));

describe('segment and path globs', () => {
  it('agree with picomatch (dot: true) on ordinary globs', () => {
    // `[!a]` negates as in git and shells; picomatch reads it as the class {!, a}: compared with `[^a]`.
    fc.assert(
      fc.property(glob.map((g) => g.replaceAll('[!a]', '[^a]')), path, (g, p) => {
        // A final `/**` also matches the folder itself (picomatch does so only after a literal: `a/**`, not `*/**`).
        const expected = picomatch(g, { dot: true })(p) || (g.endsWith('/**') && picomatch(g.replace(/(\/\*\*)+$/, ''), { dot: true })(p));
        expect(compileGlobs([g])(p)).toBe(expected);
      }),
      { numRuns: 3000, seed: 1 },
    );
  });

  it('expand braces and refuse extglobs', () => {
    const test = compileGlobs(['src/{a,b/{c,d}}/*.py', 'docs/**']);
    expect(['src/a/x.py', 'src/b/c/x.py', 'src/b/d/y.py', 'docs', 'docs/a/b.md'].map(test)).toEqual([true, true, true, true, true]);
    expect(['src/b/x.py', 'src/c/x.py', 'doc'].map(test)).toEqual([false, false, false]);
    expect(() => compileGlobs(['+(a|b).py'])).toThrow(/Extglob/);
    expect(() => compileGlobs(['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}'])).toThrow(/more than 256 alternatives/);
  });

  it("the search glob (an agent's pattern) answers a hostile pattern at once, and names at any depth without a slash", () => {
    const test = pathMatcher(`**/${'a*'.repeat(14)}c`, '/r');
    expect(test(`x/${'a'.repeat(40)}b.py`)).toBe(false);
    expect(pathMatcher('*.py', '/r')('deep/down/a.py')).toBe(true);
    expect(pathMatcher('src/*.py', '/r')('deep/src/a.py')).toBe(false);
    expect(pathMatcher('/r/src/{a,b}.py', '/r')('src/b.py')).toBe(true);
  });

  it('answer hostile patterns at once (bounded by pattern × path length)', () => {
    const hostile = 'a*'.repeat(40) + 'c';
    const name = `${'a'.repeat(5000)}b.py`;
    expect(segmentMatcher(hostile)(name)).toBe(false);
    expect(compileGlobs([`**/${hostile}`, `a/${'**/'.repeat(30)}c`])(`${'a/'.repeat(200)}b`)).toBe(false);
    expect(compileGlobs([`${'*a'.repeat(30)}*`])(name)).toBe(true);
  });
});

describe('.gitignore rules', () => {
  const ruleLine = fc.oneof(
    glob,
    glob.map((g) => `/${g}`),
    glob.map((g) => `${g}/`),
    glob.map((g) => `!${g}`),
    fc.constantFrom('# comment', '', '  ', 'a\\ ', '\\#a', 'x   '),
  );
  it('agree with the ignore package on ordinary rules (files and folders)', () => {
    fc.assert(
      fc.property(fc.array(ruleLine, { maxLength: 5 }), path, fc.boolean(), (lines, p, dir) => {
        const text = lines.join('\n');
        const reference = ignore({ ignorecase: false }).add(text);
        const ours = gitignoreRules(text);
        const asked = dir ? `${p}/` : p;
        expect(ours.ignores(asked)).toBe(reference.ignores(asked));
      }),
      { numRuns: 3000, seed: 2 },
    );
  });

  it('the prefilter never says no where the rules say ignored', () => {
    fc.assert(
      fc.property(fc.array(ruleLine, { maxLength: 5 }), path, (lines, p) => {
        const text = lines.join('\n');
        const parts = p.split('/');
        const name = parts.pop()!;
        if (gitignoreRules(text).ignores(p)) expect(ignorePrefilter(text).folder(parts.join('/'))(name)).toBe(true);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });

  it('a hostile .gitignore line does not hang a build', async () => {
    const files: Record<string, string> = { '/r/.gitignore': `${'a*'.repeat(12)}c\na/${'**/'.repeat(12)}c\n${' '.repeat(20000)}x\n`, '/r/ok.py': 'def ok(): pass\n' };
    files[`/r/${'a'.repeat(50)}b.py`] = 'def long_name(): pass\n';
    files[`/r/${'a/'.repeat(40)}b.py`] = 'def deep(): pass\n';
    const db = await CKGDatabase.open({ codebasePath: '/r', fs: Volume.fromJSON(files) as unknown as FileSystem, exclude: [`**/${'a*'.repeat(20)}c`] });
    try {
      expect(db.stats().functions).toBe(3);
    } finally {
      db.close();
    }
  });
});
