import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { glob, grep, type GrepLineEntry } from '../src/index.js';

// ripgrep and ckg-wasm's grep on the same generated trees, for patterns written in the syntax
// both share (ASCII text, where \w, \d, \s and \b mean the same in both).

const WORDS = ['foo', 'bar', 'fooBar', 'FOO', 'a', 'aab', 'x_1', '(x)', 'foo.bar', 'b9', '', ' ', '  ', '\t', '{}', 'ab ab'];
const ATOMS = ['foo', 'bar', 'a', 'b', 'x', '_', '1', '\\.', '\\(', '.', '\\w', '\\d', '\\s', '\\W', '\\S', '[a-c]', '[^a ]', '[0-9_]', '\\bfoo', '(?:o\\b)', '\\{'];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{1,2}', '+?'];

const line = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((ws) => ws.join(''));
const file = fc.array(line, { minLength: 0, maxLength: 8 }).map((ls) => ls.join('\n') + (ls.length > 0 ? '\n' : ''));
const tree = fc.dictionary(fc.constantFrom('a.txt', 'b.py', 'sub/c.txt', 'sub/deep/d.md', 'e.txt'), file, { minKeys: 1, maxKeys: 5 });

const piece = (atom: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(atom, fc.constantFrom(...QUANTIFIERS)).map(([a, q]) => a + q);
const sequence = (atom: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.array(piece(atom), { minLength: 1, maxLength: 3 }).map((ps) => ps.join(''));
const simpleAtom = fc.constantFrom(...ATOMS);
const groupAtom = fc.tuple(sequence(simpleAtom), sequence(simpleAtom)).map(([a, b]) => `(${a}|${b})`);
const atom = fc.oneof({ weight: 4, arbitrary: simpleAtom }, { weight: 1, arbitrary: groupAtom });
const pattern = fc
  .tuple(fc.boolean(), fc.array(sequence(atom), { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([start, alternatives, end]) => `${start ? '^' : ''}${alternatives.join('|')}${end ? '$' : ''}`)
  // An anchor inside an alternation binds differently nowhere: both read `^a|b` as `(^a)|b`.
  .filter((p) => p !== '');

function writeTree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ckg-diff-')));
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

/** ripgrep's matching lines as `path:line`, or [] when nothing matched (exit code 1). */
function rgLines(root: string, p: string, caseInsensitive: boolean): string[] {
  try {
    const out = execFileSync('rg', ['--no-config', '-n', '-H', '--no-heading', '--color', 'never', ...(caseInsensitive ? ['-i'] : []), '-e', p, root], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => /^(.*?:\d+):/.exec(l)![1]!)
      .sort();
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe('grep agrees with ripgrep on generated trees', () => {
  it('on which files and lines match', async () => {
    await fc.assert(
      fc.asyncProperty(tree, pattern, fc.boolean(), async (files, p, caseInsensitive) => {
        const root = writeTree(files);
        try {
          const expected = rgLines(root, p, caseInsensitive);
          const content = await grep({ fs: nodeFs, root, pattern: p, caseInsensitive, outputMode: 'content', headLimit: 100_000 });
          const got = (content.results as GrepLineEntry[]).map((e) => `${e.path}:${e.line}`).sort();
          expect(got, `pattern ${JSON.stringify(p)}${caseInsensitive ? ' (-i)' : ''}`).toEqual(expected);
          const filesWith = await grep({ fs: nodeFs, root, pattern: p, caseInsensitive, headLimit: 100_000 });
          expect(filesWith.results.map((e) => e.path).sort()).toEqual([...new Set(expected.map((l) => l.slice(0, l.lastIndexOf(':'))))].sort());
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('on which files a glob lists, with .gitignore rules', async () => {
    const globs = fc.constantFrom('*.txt', '*.py', 'sub/**', '**/*.md', 'sub/*.txt', '*', '{a,e}.txt');
    const ignores = fc.constantFrom('', '*.md\n', 'sub/\n', 'sub/*\n!sub/c.txt\n', 'e.*\n');
    await fc.assert(
      fc.asyncProperty(tree, globs, ignores, async (files, g, ignoreText) => {
        const root = writeTree({ ...files, ...(ignoreText ? { '.gitignore': ignoreText } : {}) });
        try {
          mkdirSync(join(root, '.git')); // ripgrep reads .gitignore files inside a git repository only
          // ripgrep's -g overrides ignore rules, ckg-wasm's glob does not: the files rg lists
          // under the ignore rules, among those rg's glob matches without them. Run from the root:
          // ripgrep matches -g globs against paths relative to where it runs.
          const rg = (args: string[]): string[] => {
            try {
              return execFileSync('rg', ['--no-config', '--files', ...args], { encoding: 'utf8', cwd: root }).split('\n').filter(Boolean).map((rel) => join(root, rel));
            } catch (error) {
              if ((error as { status?: number }).status === 1) return [];
              throw error;
            }
          };
          const globbed = new Set(rg(['--no-ignore', '-g', g]));
          const out = rg([]).filter((f) => globbed.has(f)).sort();
          const ours = (await glob({ fs: nodeFs, root, pattern: g, limit: 1000 })).results.map((r) => r.path).sort();
          expect(ours, `glob ${g} with .gitignore ${JSON.stringify(ignoreText)}`).toEqual(out);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});

// JavaScript's own RegExp, line by line, is the reference for the syntax ckg-wasm accepts beyond
// ripgrep's: \u escapes, named groups, [^], lazy and counted quantifiers, classes with escapes.
describe('grep agrees with JavaScript RegExp, line by line', () => {
  const JS_ATOMS = ['\\u0061', '\\x62', '(?<n>fo+)', '[^]', '[\\d-x]', '[a-c\\s]', '[^\\w]', '\\W', '\\D', '\\S', 'o{2}', 'a{1,}?', '[\\]]', '\\/', '\\-', '(?:ab|b9)', '\\b', '\\B'];
  const jsAtom = fc.oneof(fc.constantFrom(...ATOMS), fc.constantFrom(...JS_ATOMS));
  const jsPattern = fc
    .tuple(fc.boolean(), fc.array(sequence(jsAtom), { minLength: 1, maxLength: 2 }), fc.boolean())
    .map(([start, alternatives, end]) => `${start ? '^' : ''}${alternatives.join('|')}${end ? '$' : ''}`)
    .filter((p) => {
      try {
        new RegExp(p);
        return !/\\b[*+?{]|\\B[*+?{]/.test(p); // a quantified assertion is a JavaScript syntax error
      } catch {
        return false;
      }
    });
  it('on which lines match', async () => {
    const { Volume } = await import('memfs');
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), jsPattern, fc.boolean(), async (ls, p, caseInsensitive) => {
        const vol = Volume.fromJSON({ '/r/a.txt': `${ls.join('\n')}\n` });
        const re = new RegExp(p, caseInsensitive ? 'i' : '');
        const expected = ls.flatMap((l, i) => (re.test(l) ? [i + 1] : []));
        const r = await grep({ fs: vol as never, root: '/r', pattern: p, caseInsensitive, outputMode: 'content', headLimit: 1000 });
        expect((r.results as GrepLineEntry[]).map((e) => e.line), `pattern ${JSON.stringify(p)}${caseInsensitive ? ' (i)' : ''}`).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
