// Every page the code and the documentation send a reader to exists: `docs/…` paths named in
// TSDoc, the README and the docs, and the relative links of the Markdown pages. (A TSDoc comment
// once sent readers of `db.deadCode()` to a page that was never written.)
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function filesUnder(dir: string, ending: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path, ending));
    else if (entry.name.endsWith(ending)) out.push(path);
  }
  return out;
}

const SOURCES = [...filesUnder('src', '.ts'), ...filesUnder('docs', '.md'), 'README.md'];
const PAGES = [...filesUnder('docs', '.md'), 'README.md'];

describe('references to documentation', () => {
  it('names only pages that exist (`docs/…`)', () => {
    const missing: string[] = [];
    for (const file of SOURCES) {
      // A path in quotes is data (a glob's example), not a reference.
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/(?<!['"\w/.-])docs\/[\w./-]*\w\.(?:md|json)/g)) {
        if (!existsSync(join(ROOT, m[0]))) missing.push(`${file}: ${m[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('links the Markdown pages to files that exist', () => {
    const missing: string[] = [];
    for (const page of PAGES) {
      // Code (fenced blocks, inline spans) holds no links: `F[int](x)` is a call.
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        const path = resolve(ROOT, dirname(page), decodeURIComponent(target));
        if (!existsSync(path)) missing.push(`${page}: ${relative(ROOT, path)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
