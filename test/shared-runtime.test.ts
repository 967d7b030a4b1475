// ckg-wasm depends on web-tree-sitter with a caret range, so a host app that uses it too gets
// one copy (deduplicated by the package manager) and one runtime: this checks that the host's
// parsers, made before ckg-wasm initialises and parses, keep working.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Volume } from 'memfs';
import { Language, Parser } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { CKGDatabase, type FileSystem } from '../src/index.js';

describe('a web-tree-sitter runtime shared with the host', () => {
  it("keeps the host's parsers working after ckg-wasm parses", async () => {
    await Parser.init();
    const host = new Parser();
    try {
      host.setLanguage(await Language.load(new Uint8Array(readFileSync(fileURLToPath(new URL('../wasm/tree-sitter-python.wasm', import.meta.url))))));
      const fs = Volume.fromJSON({ '/repo/a.py': 'def main():\n    return 1\n' }) as unknown as FileSystem;
      const db = await CKGDatabase.open({ codebasePath: '/repo', fs });
      try {
        expect((await db.queryFunction('main'))[0]?.body).toBe('def main():\n    return 1');
      } finally {
        db.close();
      }
      const tree = host.parse('def host_function(x):\n    return x\n');
      try {
        expect(tree?.rootNode.toString()).toBe('(module (function_definition name: (identifier) parameters: (parameters (identifier)) body: (block (return_statement (identifier)))))');
      } finally {
        tree?.delete();
      }
    } finally {
      host.delete();
    }
  });
});
