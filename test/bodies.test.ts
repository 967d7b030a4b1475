// The three body modes ('stored', 'compressed', 'lazy') keep bodies differently but must answer
// every query, and every tool call, with exactly the same text (docs/bodies.md).
import { Volume } from 'memfs';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_MODES, CKGDatabase, CKGTool, DEFAULT_BODY_MODE, type BodyMode, type FileSystem } from '../src/index.js';

type SqlJs = Awaited<ReturnType<typeof initSqlJs>>;
let SQL: SqlJs;

const ROOT = '/proj';
// Written for this test: non-ASCII text before and inside bodies (surrogate pairs shift UTF-16
// offsets away from byte offsets), CRLF line ends, an invalid UTF-8 byte, nesting, and one name
// defined in several files and languages.
const FILES: Record<string, string | Uint8Array> = {
  [`${ROOT}/app/models.py`]: [
    '# -*- coding: utf-8 -*-',
    '"""Modèles — 模型 😀"""',
    '',
    'class Widget:',
    '    """A widget ✓."""',
    '    size = 3',
    '',
    '    def render(self, emoji="🎉"):',
    '        def inner():',
    '            return "ünïcödé"',
    '        return inner() + emoji',
    '',
    '    def close(self):',
    '        pass',
    '',
    '',
    'def render(template):',
    '    return template.format(x="𝔁")',
    '',
  ].join('\n'),
  [`${ROOT}/app/crlf.py`]: 'def crlf_fn(a):\r\n    return a\r\n\r\nclass Crlf:\r\n    def render(self):\r\n        return 1\r\n',
  [`${ROOT}/app/bad_bytes.py`]: new Uint8Array([
    ...new TextEncoder().encode('x = "'),
    0xff,
    0xfe,
    ...new TextEncoder().encode('"\ndef after_bad_bytes():\n    return "é"\n'),
  ]),
  [`${ROOT}/web/ui.js`]: [
    '// ui — ☃',
    'export function render(node) {',
    '  return `<b>${node}</b> 😀`;',
    '}',
    '',
    'export class Widget {',
    '  render() {',
    "    return 'ω';",
    '  }',
    '}',
    '',
    'const helper = (x) => x * 2;',
    '',
  ].join('\n'),
  // ASCII plus lone invalid bytes (each read as one U+FFFD): one UTF-16 unit per byte still.
  [`${ROOT}/app/lone_bytes.py`]: new Uint8Array([
    ...new TextEncoder().encode('def lone_bytes():\n    return "'),
    0x80,
    0xc3,
    0x41,
    0xff,
    ...new TextEncoder().encode('"\n'),
  ]),
  // A byte-order mark is dropped by decoding: offsets are no longer byte offsets.
  [`${ROOT}/app/bom.py`]: '\uFEFFdef with_bom():\n    return 1\n',
  [`${ROOT}/empty.py`]: '',
};

function volume(): FileSystem {
  const vol = new Volume();
  for (const [path, content] of Object.entries(FILES)) {
    vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    vol.writeFileSync(path, content);
  }
  return vol as unknown as FileSystem;
}

const languages = ['python', 'javascript'];
const dbs = new Map<BodyMode, CKGDatabase>();
let fs: FileSystem;

beforeAll(async () => {
  SQL = await initSqlJs();
  fs = volume();
  for (const bodies of BODY_MODES) dbs.set(bodies, await CKGDatabase.open({ codebasePath: ROOT, fs, languages, bodies }));
});

afterAll(() => {
  for (const db of dbs.values()) db.close();
});

function rawAll(db: CKGDatabase, sql: string): unknown[][] {
  const raw = new SQL.Database(db.export());
  try {
    return raw.exec(sql)[0]?.values ?? [];
  } finally {
    raw.close();
  }
}

function allNames(): string[] {
  const db = dbs.get('stored')!;
  return rawAll(db, 'SELECT name FROM functions UNION SELECT name FROM classes ORDER BY 1').map(([n]) => String(n));
}

describe('body modes', () => {
  it('defaults to the documented mode and records it', () => {
    expect(DEFAULT_BODY_MODE).toBe('lazy');
    for (const [mode, db] of dbs) expect(rawAll(db, "SELECT value FROM meta WHERE key = 'bodies'")).toEqual([[mode]]);
  });

  it('keeps bodies where each mode says: text, deflated sources, or offsets only', () => {
    const count = (mode: BodyMode, sql: string): number => Number(rawAll(dbs.get(mode)!, sql)[0]![0]);
    const withText = "SELECT (SELECT count(*) FROM functions WHERE body != '') + (SELECT count(*) FROM classes WHERE body != '')";
    const sources = 'SELECT count(*) FROM sources';
    expect(count('stored', withText)).toBeGreaterThan(10);
    expect(count('stored', sources)).toBe(0);
    expect(count('compressed', withText)).toBe(0);
    expect(count('compressed', sources)).toBe(6); // empty.py has no rows, so no source
    expect(count('lazy', withText)).toBe(0);
    expect(count('lazy', sources)).toBe(0);
  });

  it('answers every query identically in every mode', async () => {
    const names = allNames();
    expect(names).toEqual(expect.arrayContaining(['render', 'Widget', 'inner', 'after_bad_bytes', 'crlf_fn', 'helper']));
    for (const name of names) {
      const answers = await Promise.all(
        BODY_MODES.map(async (mode) => {
          const db = dbs.get(mode)!;
          return { f: await db.queryFunction(name), m: await db.queryFunction(name, 'class_method'), c: await db.queryClass(name) };
        }),
      );
      for (const other of answers.slice(1)) expect(other).toEqual(answers[0]);
    }
    // Spot checks that the shared answer is the real text, not a shared mistake.
    const [method] = await dbs.get('lazy')!.queryFunction('render', 'class_method');
    expect(method).toMatchObject({ filePath: `${ROOT}/app/crlf.py`, parentClass: 'Crlf', body: 'def render(self):\r\n        return 1', startLine: 5, endLine: 6 });
    const top = await dbs.get('compressed')!.queryFunction('render');
    expect(top.map((f) => f.body)).toEqual(['def render(template):\n    return template.format(x="𝔁")', 'function render(node) {\n  return `<b>${node}</b> 😀`;\n}']);
    const [bad] = await dbs.get('lazy')!.queryFunction('after_bad_bytes');
    expect(bad!.body).toBe('def after_bad_bytes():\n    return "é"');
    const [lone] = await dbs.get('lazy')!.queryFunction('lone_bytes');
    expect(lone!.body).toBe('def lone_bytes():\n    return "\uFFFD\uFFFDA\uFFFD"');
    const [bom] = await dbs.get('lazy')!.queryFunction('with_bom');
    expect(bom!.body).toBe('def with_bom():\n    return 1');
  });

  it("'lazy' rows carry a body hash, other modes none", () => {
    // Every lazy row has a body hash, other modes none.
    const hashes = (mode: BodyMode): unknown[][] => rawAll(dbs.get(mode)!, 'SELECT count(body_hash), count(*) FROM functions');
    expect(hashes('lazy')[0]![0]).toBe(hashes('lazy')[0]![1]);
    expect(hashes('stored')[0]![0]).toBe(0);
  });

  it('gives byte-identical tool output in every mode', async () => {
    const tools = BODY_MODES.map((bodies) => new CKGTool({ fs, languages, bodies, refresh: false }));
    try {
      for (const name of allNames()) {
        for (const command of ['search_function', 'search_class', 'search_class_method'] as const) {
          const outputs = await Promise.all(tools.map((t) => t.execute({ command, path: ROOT, identifier: name })));
          expect(outputs[0]).toHaveProperty('output');
          for (const other of outputs.slice(1)) expect(other).toEqual(outputs[0]);
        }
      }
    } finally {
      await Promise.all(tools.map((t) => t.close()));
    }
  });

  it("'compressed' bytes answer with bodies without any file system; 'lazy' ones need it", async () => {
    const compressed = await CKGDatabase.fromBytes(dbs.get('compressed')!.export());
    const lazy = await CKGDatabase.fromBytes(dbs.get('lazy')!.export(), { fs });
    try {
      expect(await compressed.queryClass('Widget')).toEqual(await dbs.get('stored')!.queryClass('Widget'));
      expect(await lazy.queryClass('Widget')).toEqual(await dbs.get('stored')!.queryClass('Widget'));
    } finally {
      compressed.close();
      lazy.close();
    }
  });

  it('rebuilds given bytes of another body mode, and rejects an unknown mode', async () => {
    const rebuilt = await CKGDatabase.fromBytes(dbs.get('lazy')!.export(), { fs, codebasePath: ROOT, languages, bodies: 'stored' });
    try {
      expect(rebuilt.rebuildReason).toContain("keeps bodies 'lazy', not 'stored'");
      expect(rawAll(rebuilt, "SELECT value FROM meta WHERE key = 'bodies'")).toEqual([['stored']]);
      expect(rebuilt.report?.filesParsed).toBe(7);
    } finally {
      rebuilt.close();
    }
    await expect(CKGDatabase.open({ codebasePath: ROOT, fs, languages, bodies: 'zipped' as BodyMode })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
