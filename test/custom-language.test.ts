import { readFile } from 'node:fs/promises';
import nodeFs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CKGDatabase,
  CKGError,
  LanguageRegistry,
  createDefaultRegistry,
  type FileSystem,
  type LanguageDefinition,
  type Visitor,
} from '../src/index.js';
import { makeTree } from './helpers/fixtures.js';

// The grammar bytes "the user supplies": the Bash grammar as its npm package ships it, read from
// node_modules (not through ckg-wasm's own wasm folder), standing in for any grammar.
const grammarPath = new URL('../node_modules/tree-sitter-bash/tree-sitter-bash.wasm', import.meta.url);

const ZSHRC = `autoload -Uz compinit

prompt_setup() {
  git_branch() { git branch --show-current; }
  PROMPT="%n $(git_branch) %# "
}

function reload {
  source ~/.zshrc
}
`;

async function worked(fs: FileSystem, codebasePath: string): Promise<{ db: CKGDatabase; zsh: LanguageDefinition }> {
  // #region worked-example
  // A visitor reports definitions: here every function, with the function it is nested in.
  const visitor: Visitor = (root, sink) => {
    for (const node of root.descendantsOfType('function_definition')) {
      const name = node.childForFieldName('name')?.text;
      if (!name) continue;
      let outer = node.parent;
      while (outer && outer.type !== 'function_definition') outer = outer.parent;
      sink.addFunction(node, { name, parentFunction: outer?.childForFieldName('name')?.text });
    }
  };

  const zsh: LanguageDefinition = {
    id: 'zsh',
    extensions: ['.zsh'],
    // A function is called once, the first time a .zsh file is parsed.
    grammar: async () => new Uint8Array(await readFile(grammarPath)),
    version: '1',
    visitor,
  };

  const db = await CKGDatabase.open({
    codebasePath,
    fs,
    languages: createDefaultRegistry().register(zsh),
  });
  const [prompt] = await db.queryFunction('git_branch');
  // prompt.parentFunction === 'prompt_setup', prompt.startLine === 4
  // #endregion worked-example
  expect(prompt?.parentFunction).toBe('prompt_setup');
  expect(prompt?.startLine).toBe(4);
  return { db, zsh };
}

/** The text between the region markers of this file, dedented. */
function regionOfThisFile(): string {
  const source = nodeFs.readFileSync(new URL(import.meta.url), 'utf8');
  const body = source.split('// #region worked-example\n')[1]?.split('  // #endregion worked-example')[0] ?? '';
  return body
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trim();
}

function toyVisitor(): Visitor {
  return (root, sink) => {
    for (const node of root.descendantsOfType('function_definition')) {
      const name = node.childForFieldName('name')?.text;
      if (name) sink.addFunction(node, { name });
    }
  };
}

describe('a language whose grammar the user supplies', () => {
  it('runs the worked example of docs/adding-a-language.md on memfs', async () => {
    const tree = makeTree('memfs', { 'shell/prompt.zsh': ZSHRC, 'app/main.py': 'def main():\n    pass\n' });
    const { db } = await worked(tree.fs, tree.root);
    try {
      // Built-in languages still work beside the custom one.
      expect((await db.queryFunction('main')).map((f) => f.filePath)).toEqual([`${tree.root}/app/main.py`]);
      const [reload] = await db.queryFunction('reload');
      expect(reload?.body).toBe('function reload {\n  source ~/.zshrc\n}');
      expect(reload?.parentFunction).toBeUndefined();
      expect(db.languages.forPath('/x/shell/prompt.zsh')?.id).toBe('zsh');
    } finally {
      db.close();
    }
  });

  it('keeps the docs example identical to the code the test runs', () => {
    const doc = nodeFs.readFileSync(new URL('../docs/adding-a-language.md', import.meta.url), 'utf8');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const region = regionOfThisFile();
    expect(region.length).toBeGreaterThan(200);
    expect(blocks.some((block) => block.includes(region))).toBe(true);
  });

  it('loads a grammar given as a function lazily: only once a file of the language exists', async () => {
    let loads = 0;
    const toy: LanguageDefinition = {
      id: 'toy_shell',
      extensions: ['.toy'],
      grammar: async () => {
        loads += 1;
        return new Uint8Array(await readFile(grammarPath));
      },
      version: '1',
      visitor: toyVisitor(),
    };
    for (const backend of ['memfs', 'node'] as const) {
      loads = 0;
      const tree = makeTree(backend, { 'lib/util.py': 'def util():\n    return 1\n' });
      // A fresh definition object per backend: loaded grammars are cached per definition.
      const language = { ...toy };
      const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, languages: createDefaultRegistry().register(language) });
      try {
        expect(db.stats().functions).toBe(1);
        expect(loads).toBe(0);
        tree.write('bin/run.toy', 'start() { echo go; }\n');
        await db.update();
        expect(loads).toBe(1);
        expect((await db.queryFunction('start')).map((f) => f.startLine)).toEqual([1]);
        tree.write('bin/stop.toy', 'stop() { :; }\n');
        await db.update();
        expect(loads).toBe(1);
        expect(await db.queryFunction('stop')).toHaveLength(1);
      } finally {
        db.close();
        tree.cleanup();
      }
    }
  });

  it('indexes only the given languages with `new LanguageRegistry([...])` and grammar bytes', async () => {
    const bytes = new Uint8Array(await readFile(grammarPath));
    const only: LanguageDefinition = { id: 'toy_bytes', extensions: ['.tb'], grammar: bytes, version: '1', visitor: toyVisitor() };
    const tree = makeTree('memfs', { 'a.tb': 'one() { :; }\ntwo() { :; }\n', 'b.py': 'def three():\n    pass\n' });
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, languages: new LanguageRegistry([only]) });
    try {
      expect((await db.queryFunction('two')).map((f) => [f.startLine, f.endLine])).toEqual([[2, 2]]);
      expect(await db.queryFunction('three')).toEqual([]);
      expect(db.report?.unknownExtensions).toEqual({ '.py': 1 });
    } finally {
      db.close();
    }
  });

  it('rejects a language that claims a built-in extension, and reports an unloadable grammar', async () => {
    const clash: LanguageDefinition = { id: 'my_bash', extensions: ['.sh'], grammar: new Uint8Array(), version: '1', visitor: toyVisitor() };
    expect(() => createDefaultRegistry().register(clash)).toThrow(CKGError);
    // Replacing a built-in is explicit: unregister it first.
    const registry = createDefaultRegistry();
    expect(registry.unregister('bash')).toBe(true);
    expect(registry.register(clash).forPath('/x/run.sh')?.id).toBe('my_bash');

    const broken: LanguageDefinition = { id: 'not_wasm', extensions: ['.nw'], grammar: new Uint8Array([1, 2, 3]), version: '1', visitor: toyVisitor() };
    const tree = makeTree('memfs', { 'x.nw': 'f() { :; }\n' });
    const opened = CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, languages: new LanguageRegistry([broken]) });
    await expect(opened).rejects.toMatchObject({ code: 'WASM_LOAD_FAILED' });
  });
});
