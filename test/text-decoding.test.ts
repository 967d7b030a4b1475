// Text that tree-sitter would misread is made safe at decoding, offsets unchanged: a NUL past the
// binary check no longer ends the file, and lone CRs (old Mac files) are line breaks.
import { describe, expect, it } from 'vitest';
import { BODY_MODES, CKGDatabase } from '../src/index.js';
import { makeTree } from './helpers/fixtures.js';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

describe.each(BODY_MODES)('decoding (%s bodies)', (bodies) => {
  it('indexes the Python definitions after a NUL byte past the first 8 KiB', async () => {
    const head = `${'# filler line of comment text\n'.repeat(300)}`; // 9,000 bytes: past the binary check
    const bytes = enc(`${head}def before():\n    return 1\n# stray \0 byte\ndef after_nul():\n    return "x\0y"\n\nclass AfterToo:\n    pass\n`);
    const tree = makeTree('memfs', { 'nul.py': bytes });
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies });
    try {
      expect(db.report!.skipped).toEqual([]);
      const [after] = await db.queryFunction('after_nul');
      expect(after).toMatchObject({ startLine: 304, endLine: 305, body: 'def after_nul():\n    return "x\uFFFDy"' });
      expect((await db.queryClass('AfterToo')).map((c) => c.startLine)).toEqual([307]);
    } finally {
      db.close();
    }
  });

  it('reads lone CRs as line breaks (Python and JavaScript), and leaves CRLF alone', async () => {
    const tree = makeTree('memfs', {
      'mac.py': 'import os\r\rdef first():\r    return 1\r\rclass Second:\r    def third(self):\r        pass\r',
      'mac.js': 'const a = 1;\rfunction one() {\r  return a;\r}\rclass Two {\r  three() {}\r}\r',
      'dos.py': 'def crlf():\r\n    return 1\r\n',
    });
    const db = await CKGDatabase.open({ codebasePath: tree.root, fs: tree.fs, bodies });
    try {
      expect((await db.queryFunction('first')).map((f) => [f.startLine, f.endLine, f.body])).toEqual([[3, 4, 'def first():\n    return 1']]);
      expect((await db.queryClass('Second')).map((c) => [c.startLine, c.endLine])).toEqual([[6, 8]]);
      expect((await db.queryFunction('third', 'class_method')).map((f) => f.startLine)).toEqual([7]);
      expect((await db.queryFunction('one')).map((f) => [f.startLine, f.endLine])).toEqual([[2, 4]]);
      expect((await db.queryFunction('three', 'class_method')).map((f) => f.startLine)).toEqual([6]);
      expect((await db.queryFunction('crlf')).map((f) => [f.startLine, f.endLine, f.body])).toEqual([[1, 2, 'def crlf():\r\n    return 1']]);
    } finally {
      db.close();
    }
  });
});
