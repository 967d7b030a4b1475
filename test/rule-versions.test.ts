// A stored index is reused while each language's `version` is the one it was built with: a change
// to a language's definitions visitor, reference visitor or graph rules that can alter rows or
// edges must bump that version, or indexes built before it keep the old rows and edges (a stale
// index nobody is told about). Nothing in the build can tell a behaviour change from a comment
// fix, so this test makes the choice explicit: it records a digest of each language's rule
// sources (its files under src/languages/ and src/graph/languages/, and what they import there)
// with the version they were recorded at, and fails when the sources move while the version
// stays. Then either bump the version, or, for a change no row or edge can see, record the new
// digests: `UPDATE_RULE_DIGESTS=1 npx vitest run test/rule-versions.test.ts`.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../src/index.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RECORD = join(repo, 'test/rule-digests.json');
const RULE_FOLDERS = ['src/languages/', 'src/graph/languages/'].map((folder) => join(repo, folder));
const BUILTIN_DATA = join(repo, 'src/languages/builtin.ts');

/** The file of a language's definition (`c_sharp` → csharp.ts) and of its graph rules. */
const DEFINITION_FILE: Record<string, string> = { c_sharp: 'csharp', tsx: 'typescript' };
const GRAPH_FILE: Record<string, string> = {
  javascript: 'ecmascript',
  typescript: 'ecmascript',
  tsx: 'ecmascript',
  java: 'package-scoped',
  kotlin: 'package-scoped',
  scala: 'package-scoped',
  c_sharp: 'package-scoped',
};

/** `start` and the files it imports, transitively, inside the rule folders. */
function ruleSources(start: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s*'(\.[^']+)'/gm)) {
      const target = resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts'));
      // builtin.ts holds every built-in language's plain data, versions included: not rules.
      if (target === BUILTIN_DATA) continue;
      if (RULE_FOLDERS.some((folder) => target.startsWith(folder)) && existsSync(target)) visit(target);
    }
  };
  visit(start);
  return [...seen].sort();
}

/** A digest of a language's rule sources (paths and texts). */
function digestOf(id: string): string {
  const starts = [join(repo, 'src/languages', `${DEFINITION_FILE[id] ?? id}.ts`)];
  const graph = join(repo, 'src/graph/languages', `${GRAPH_FILE[id] ?? id}.ts`);
  if (existsSync(graph)) starts.push(graph);
  const files = [...new Set(starts.flatMap(ruleSources))].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${relative(repo, file).replaceAll('\\', '/')}\0${readFileSync(file, 'utf8').replaceAll('\r\n', '\n')}\0`); // the same on a Windows checkout
  return hash.digest('hex').slice(0, 16);
}

describe('language versions follow their rule sources', () => {
  const current = Object.fromEntries(
    createDefaultRegistry()
      .list()
      .map((language) => [language.id, { version: language.version, digest: digestOf(language.id) }]),
  );

  it('each language whose rule sources changed has a new version (or the change is recorded as invisible)', () => {
    if (process.env.UPDATE_RULE_DIGESTS === '1') writeFileSync(RECORD, `${JSON.stringify(current, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(RECORD, 'utf8')) as Record<string, { version: string; digest: string }>;
    const problems: string[] = [];
    for (const [id, now] of Object.entries(current)) {
      const then = recorded[id];
      if (then === undefined) problems.push(`${id}: not recorded`);
      else if (then.version === now.version && then.digest !== now.digest)
        problems.push(`${id}: rule sources changed at version ${now.version}: bump its version, or record a change no row or edge can see`);
      else if (then.version !== now.version) problems.push(`${id}: version ${then.version} → ${now.version}: record the new digest`);
    }
    for (const id of Object.keys(recorded)) if (!(id in current)) problems.push(`${id}: recorded but no longer a language`);
    expect(problems, 'UPDATE_RULE_DIGESTS=1 npx vitest run test/rule-versions.test.ts records the current digests').toEqual([]);
  });

  it('a language digest covers the files its rules import (shared C-family and ECMAScript code)', () => {
    const c = ruleSources(join(repo, 'src/languages/c.ts')).map((file) => relative(repo, file));
    expect(c).toContain('src/languages/c-family.ts');
    expect(c).toContain('src/languages/references/c.ts');
    const ts = ruleSources(join(repo, 'src/graph/languages/ecmascript.ts')).map((file) => relative(repo, file));
    expect(ts).toContain('src/graph/languages/ecmascript.ts');
    // JavaScript and TypeScript share their graph rules: one digest moves with the other's.
    expect(current.javascript!.digest).not.toBe('');
    expect(new Set(Object.values(current).map((entry) => entry.digest)).size).toBeGreaterThan(10);
  });
});
