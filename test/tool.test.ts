import { afterEach, describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool, CKG_TOOL_PARAMETERS, MAX_OUTPUT_CHARS } from '../src/index.js';
import { clipEntries } from '../src/tool/format.js';
import { BACKENDS, makeTree, type FixtureTree } from './helpers/fixtures.js';

const CONFIG_PY = `import json


def parse_config(text):
    return json.loads(text)


class Widget:
    size = 3

    def render(self) -> str:
        return "w"
`;

const OTHER_PY = `def parse_config(text, strict=False):
    pass
`;

describe.each(BACKENDS)('ckg tool on %s', (backend) => {
  let tree: FixtureTree;
  let tool: CKGTool;
  afterEach(async () => {
    await tool?.close();
    tree?.cleanup();
  });
  const setup = (files: Record<string, string | Uint8Array> = { 'app/config.py': CONFIG_PY, 'lib/other.py': OTHER_PY }): void => {
    tree = makeTree(backend, files);
    tool = new CKGTool({ fs: tree.fs });
  };

  it('exposes the reference tool surface', () => {
    setup();
    expect(tool.name).toBe('ckg');
    expect(tool.parameters).toBe(CKG_TOOL_PARAMETERS);
    expect(tool.parameters.required).toEqual(['command', 'path', 'identifier']);
    expect(tool.parameters.properties.command.enum).toEqual([
      'search_function', 'search_class', 'search_class_method',
      'find_callers', 'find_callees', 'trace_path', 'class_hierarchy', 'dead_code', 'search_symbols', 'file_outline',
      'glob', 'grep',
    ]);
    expect(tool.parameters.properties.print_body.type).toBe('boolean');
    expect(tool.description).toContain('<response clipped>');
  });

  it('checks arguments in the reference order, treating null as absent', async () => {
    setup();
    const p = tree.root;
    expect(await tool.execute({ path: p, identifier: 'x' })).toEqual({ error: 'No command provided for the ckg tool' });
    expect(await tool.execute({ command: null, path: p, identifier: 'x' })).toEqual({ error: 'No command provided for the ckg tool' });
    expect(await tool.execute({ command: 'search_class', identifier: 'x' })).toEqual({ error: 'No path provided for the ckg tool' });
    expect(await tool.execute({ command: 'search_class', path: p })).toEqual({ error: 'No identifier provided for the ckg tool' });
    expect(await tool.execute({ command: 'search_class', path: p, identifier: null })).toEqual({ error: 'No identifier provided for the ckg tool' });
    expect(await tool.execute({ command: 'search_class', path: `${p}/missing`, identifier: 'x' })).toEqual({
      error: `Codebase path ${p}/missing does not exist`,
    });
  });

  it('validates the command before looking at the path or indexing', async () => {
    setup();
    // A missing path would be reported if the path were looked at first.
    expect(await tool.execute({ command: 'search_everything', path: '/definitely/missing', identifier: 'x' })).toEqual({ error: 'Invalid command: search_everything' });
    expect(await tool.execute({ command: 42, path: tree.root, identifier: 'x' })).toEqual({ error: 'Invalid command: 42' });
  });

  it('formats search_function like the reference, ordered by path then line', async () => {
    setup();
    const result = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'parse_config' });
    expect(result).toEqual({
      output:
        `Found 2 functions named parse_config:\n` +
        `1. ${tree.root}/app/config.py:4-5\ndef parse_config(text):\n    return json.loads(text)\n\n` +
        `2. ${tree.root}/lib/other.py:1-2\ndef parse_config(text, strict=False):\n    pass\n\n`,
    });
  });

  it('formats search_class with fields and methods, and search_class_method with its class', async () => {
    setup();
    expect(await tool.execute({ command: 'search_class', path: tree.root, identifier: 'Widget', print_body: false })).toEqual({
      output: `Found 1 class named Widget:\n1. ${tree.root}/app/config.py:8-12\nFields:\n- size = 3\nMethods:\n- render(self) -> str\n`,
    });
    expect(await tool.execute({ command: 'search_class_method', path: tree.root, identifier: 'render' })).toEqual({
      output: `Found 1 class method named render:\n1. ${tree.root}/app/config.py:11-12 within class Widget\ndef render(self) -> str:\n        return "w"\n\n`,
    });
  });

  it('reports misses with the reference messages', async () => {
    setup();
    const p = tree.root;
    expect(await tool.execute({ command: 'search_function', path: p, identifier: 'nope' })).toEqual({ output: 'No functions named nope found.' });
    expect(await tool.execute({ command: 'search_class', path: p, identifier: 'nope' })).toEqual({ output: 'No classes named nope found.' });
    expect(await tool.execute({ command: 'search_class_method', path: p, identifier: 'nope' })).toEqual({ output: 'No class methods named nope found.' });
    // A method is not a function, a function is not a method.
    expect(await tool.execute({ command: 'search_function', path: p, identifier: 'render' })).toEqual({ output: 'No functions named render found.' });
    expect(await tool.execute({ command: 'search_class_method', path: p, identifier: 'parse_config' })).toEqual({ output: 'No class methods named parse_config found.' });
  });

  it('hides bodies only for print_body false or "false"', async () => {
    setup();
    const run = async (print_body: unknown): Promise<boolean> => {
      const r = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'parse_config', print_body });
      if (!('output' in r)) throw new Error(r.error);
      return r.output.includes('return json.loads');
    };
    expect(await run(false)).toBe(false);
    expect(await run('false')).toBe(false);
    expect(await run(true)).toBe(true);
    expect(await run('true')).toBe(true);
    expect(await run(null)).toBe(true);
    expect(await run(undefined)).toBe(true);
  });

  it('accepts a file path: its folder (or git root) is the codebase', async () => {
    setup();
    const r = await tool.execute({ command: 'search_function', path: `${tree.root}/lib/other.py`, identifier: 'parse_config', print_body: false });
    expect(r).toEqual({ output: `Found 1 function named parse_config:\n1. ${tree.root}/lib/other.py:1-2\n` });
    tree.write('.git/HEAD', 'ref: refs/heads/main\n');
    const tool2 = new CKGTool({ fs: tree.fs });
    try {
      const r2 = await tool2.execute({ command: 'search_function', path: `${tree.root}/lib/other.py`, identifier: 'parse_config', print_body: false });
      expect('output' in r2 && r2.output.startsWith('Found 2 functions')).toBe(true);
    } finally {
      await tool2.close();
    }
  });

  it('sees edits made between two queries', async () => {
    setup();
    const first = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'fresh' });
    expect(first).toEqual({ output: 'No functions named fresh found.' });
    tree.write('lib/new.py', 'def fresh():\n    return 1\n');
    const second = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'fresh', print_body: false });
    expect(second).toEqual({ output: `Found 1 function named fresh:\n1. ${tree.root}/lib/new.py:1-2\n` });
    tree.remove('lib/new.py');
    expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'fresh' })).toEqual({ output: 'No functions named fresh found.' });
  });

  it('glob lists files newest first with a note for the rest', async () => {
    setup({ 'app/config.py': CONFIG_PY, 'lib/other.py': OTHER_PY, 'README.md': '# r\n' });
    const fs = tree.fs as unknown as { utimesSync(p: string, a: number, m: number): void };
    fs.utimesSync(`${tree.root}/app/config.py`, 2000, 2000);
    fs.utimesSync(`${tree.root}/lib/other.py`, 1000, 1000);
    expect(await tool.execute({ command: 'glob', path: tree.root, identifier: '*.py' })).toEqual({
      output: `Found 2 files matching *.py:\n${tree.root}/app/config.py\n${tree.root}/lib/other.py\n`,
    });
    expect(await tool.execute({ command: 'glob', path: tree.root, identifier: '*.py', head_limit: 1 })).toEqual({
      output: `Found 2 files matching *.py:\n${tree.root}/app/config.py\n\n(1 more not shown: use offset 1)`,
    });
    expect(await tool.execute({ command: 'glob', path: tree.root, identifier: '*.py', head_limit: '1', offset: 1 })).toEqual({
      output: `Found 2 files matching *.py:\n${tree.root}/lib/other.py\n`,
    });
    expect(await tool.execute({ command: 'glob', path: tree.root, identifier: '*.rs' })).toEqual({ output: 'No files found matching *.rs.' });
  });

  it('grep prints files, counts, or lines with context and the enclosing definition', async () => {
    setup();
    const fs = tree.fs as unknown as { utimesSync(p: string, a: number, m: number): void };
    fs.utimesSync(`${tree.root}/app/config.py`, 2000, 2000);
    fs.utimesSync(`${tree.root}/lib/other.py`, 1000, 1000);
    expect(await tool.execute({ command: 'grep', path: tree.root, identifier: 'def parse_config' })).toEqual({
      output: `Found 2 files with matches for def parse_config:\n${tree.root}/app/config.py\n${tree.root}/lib/other.py\n`,
    });
    expect(await tool.execute({ command: 'grep', path: tree.root, identifier: 'RETURN', case_insensitive: true, output_mode: 'count' })).toEqual({
      output: `Found 2 matching lines for RETURN:\n${tree.root}/app/config.py:2\n`,
    });
    expect(await tool.execute({ command: 'grep', path: tree.root, identifier: 'return', output_mode: 'content', context: 1, glob: 'app/**' })).toEqual({
      output:
        `Found 2 matching lines for return:\n` +
        `${tree.root}/app/config.py-4-def parse_config(text):  (in parse_config)\n` +
        `${tree.root}/app/config.py:5:    return json.loads(text)  (in parse_config)\n` +
        `${tree.root}/app/config.py-6-\n` +
        `--\n` +
        `${tree.root}/app/config.py-11-    def render(self) -> str:  (in Widget.render)\n` +
        `${tree.root}/app/config.py:12:        return "w"  (in Widget.render)\n`,
    });
    expect(await tool.execute({ command: 'grep', path: tree.root, identifier: 'nothing here' })).toEqual({ output: 'No matches found for nothing here.' });
    const bad = await tool.execute({ command: 'grep', path: tree.root, identifier: '(a)\\1' });
    expect('error' in bad && bad.error).toMatch(/backreferences/);
    const badMode = await tool.execute({ command: 'grep', path: tree.root, identifier: 'a', output_mode: 'lines' });
    expect('error' in badMode && badMode.error).toMatch(/outputMode must be one of/);
  });

  it('grep names no definition in a file changed since it was indexed', async () => {
    setup();
    expect(await tool.execute({ command: 'search_function', path: tree.root, identifier: 'parse_config', print_body: false })).toMatchObject({ output: expect.stringContaining('Found 2') });
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs });
    try {
      const hit = await db.grep({ pattern: 'json.loads', outputMode: 'content' });
      expect(hit.results).toMatchObject([{ line: 5, enclosing: 'parse_config' }]);
      tree.write('app/config.py', `# a new first line\n${CONFIG_PY}`);
      const moved = await db.grep({ pattern: 'json.loads', outputMode: 'content' });
      expect(moved.results).toMatchObject([{ line: 6 }]);
      expect(moved.results[0]).not.toHaveProperty('enclosing');
      expect((await db.glob({ pattern: '*.py' })).totalMatches).toBe(2);
    } finally {
      db.close();
    }
    await expect(db.grep({ pattern: 'x' })).rejects.toMatchObject({ code: 'CLOSED', caller: 'CKGDatabase.grep' });
  });

  it('clips long outputs at whole entries and counts what was not shown', async () => {
    // 300 functions named dup, each body 100 characters long: entries are about 150 characters.
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) {
      files[`m/f${String(i).padStart(3, '0')}.py`] = `def dup():\n    return "${'x'.repeat(84)}"\n`;
    }
    setup(files);
    const r = await tool.execute({ command: 'search_function', path: tree.root, identifier: 'dup' });
    if (!('output' in r)) throw new Error(r.error);
    const [body, marker] = r.output.split('\n<response clipped> ');
    expect(body!.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
    const shown = body!.match(/^\d+\. .*:1-2$/gm)!.length;
    // Every shown entry is whole: its body and the blank line after it are present.
    expect(body!.endsWith(`"${'x'.repeat(84)}"\n\n`)).toBe(true);
    expect(marker).toBe(`${300 - shown} more entries not shown`);
    // The next entry would not have fitted.
    const entryLength = (body!.length - 'Found 300 functions named dup:\n'.length) / shown;
    expect(body!.length + entryLength).toBeGreaterThan(MAX_OUTPUT_CHARS - 4);
  });
});

describe('clipEntries arithmetic', () => {
  it('keeps whole entries while they fit and counts the rest', () => {
    const header = 'H'.repeat(10);
    const entries = Array.from({ length: 20 }, () => 'e'.repeat(1000));
    const out = clipEntries(header, entries);
    // 10 + 15 × 1000 = 15,010 ≤ 16,000; a 16th entry would reach 16,010.
    expect(out).toBe(`${header}${'e'.repeat(15000)}\n<response clipped> 5 more entries not shown`);
  });

  it('does not clip when everything fits exactly', () => {
    const out = clipEntries('', ['a'.repeat(8000), 'b'.repeat(8000)]);
    expect(out.length).toBe(16000);
    expect(out.includes('<response clipped>')).toBe(false);
  });

  it('cuts a first entry that alone is too long, and counts it', () => {
    const out = clipEntries('Found:\n', ['z'.repeat(20000), 'y']);
    expect(out).toBe(`Found:\n${'z'.repeat(16000 - 7)}\n<response clipped> 2 more entries not shown`);
  });

  it('never splits a surrogate pair', () => {
    const out = clipEntries('', [`${'a'.repeat(15999)}😀tail`]);
    expect(out).toBe(`${'a'.repeat(15999)}\n<response clipped> 1 more entries not shown`);
  });
});
