// Dotted paths written in Python strings: settings lists (`'django.contrib.auth.backends.ModelBackend'`),
// `mock.patch('shop.mail.send')`, `import_string('a.b.C')`. Code that imports by name loads what
// they name, so each is a `references` edge to the module or member the path spells out, as an
// absolute import would find it; a path that names nothing in the codebase stays unresolved
// (`external`), and its name (the whole path) never makes another definition's callers a lower
// bound. Exact edges, callers answers, and updates that rename or move what a string names.
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import type { CKGDatabase } from '../src/index.js';
import { expectExactThrough, openGraph } from './helpers/graph.js';

/** The `references` rows of the stored graph (db.edges() lists the kinds of the public interface, not these), as edge lines. */
async function referenceLines(db: CKGDatabase, root: string): Promise<string[]> {
  const SQL = await initSqlJs();
  const raw = new SQL.Database(db.export());
  try {
    const rows = raw.exec(
      `SELECT e.file_path, e.line, s.qualified_name, t.qualified_name, e.to_name, e.resolution, e.reason FROM edge_list e JOIN symbols s ON s.id = e.from_id LEFT JOIN symbols t ON t.id = e.to_id
       WHERE e.kind = 'references' ORDER BY e.file_path, e.line, e.to_name`,
    )[0]?.values ?? [];
    return rows.map(([path, line, from, to, name, resolution, reason]) => `${String(path).slice(root.length + 1)}:${line} references ${from} -> ${to ?? '∅'} [${name}] ${resolution}${reason ? `:${reason}` : ''}`);
  } finally {
    raw.close();
  }
}

const FILES = {
  'shop/__init__.py': '',
  'shop/mail.py': ['def send(to):', '    return to', '', '', 'class Backend:', '    def open(self):', '        return 1', ''].join('\n'),
  'shop/settings.py': [
    "BACKENDS = ['shop.mail.Backend', 'shop.missing.Thing']",
    "MAIL_MODULE = 'shop.mail'",
    "LOGGER = 'shop.requests'",
    "FORMAT = f'shop.mail.{LOGGER}'",
    '',
    '',
    'def backend_path():',
    "    return 'shop.mail.send'",
    '',
  ].join('\n'),
  'tests/test_mail.py': ['from unittest.mock import patch', '', '', "@patch('shop.mail.send')", 'def test_send(send):', '    return send', ''].join('\n'),
};

describe('dotted paths in strings', () => {
  it('are references to the module or member they spell out, or unresolved outside the codebase', async () => {
    const g = await openGraph(FILES);
    try {
      expect(await referenceLines(g.db, g.tree.root)).toEqual([
        'shop/settings.py:1 references shop.settings -> shop.mail.Backend [shop.mail.Backend] qualified',
        'shop/settings.py:1 references shop.settings -> ∅ [shop.missing.Thing] unresolved:external',
        'shop/settings.py:2 references shop.settings -> shop.mail [shop.mail] qualified',
        'shop/settings.py:3 references shop.settings -> ∅ [shop.requests] unresolved:external',
        'shop/settings.py:8 references shop.settings.backend_path -> shop.mail.send [shop.mail.send] qualified',
        'tests/test_mail.py:4 references tests.test_mail -> shop.mail.send [shop.mail.send] qualified',
      ]);
    } finally {
      g.close();
    }
  });

  it('make callers of what they name a lower bound, listing them as uses as a value', async () => {
    const g = await openGraph(FILES);
    try {
      const send = await g.db.callers('shop.mail.send');
      expect(send.groups[0]!.valueUses.sample.map((u) => `${u.filePath.slice(g.tree.root.length + 1)}:${u.line} ${u.symbol.qualifiedName}`)).toEqual([
        'shop/settings.py:8 shop.settings.backend_path',
        'tests/test_mail.py:4 tests.test_mail',
      ]);
      expect(send.complete).toBe(false);
      // An unresolved path carries the whole path as its name: no definition is named so.
      const open = await g.db.callers('Backend.open');
      expect(open.groups[0]!.unresolved.count).toBe(0);
      expect(open.complete).toBe(true);
    } finally {
      g.close();
    }
  });

  it('stay exact through updates: the named function renamed, moved and brought back, the module removed', async () => {
    const edits: ((f: Record<string, string | null>) => void)[] = [
      (f) => {
        f['shop/mail.py'] = f['shop/mail.py']!.replace('def send(', 'def deliver(');
      },
      (f) => {
        f['shop/sending.py'] = 'def send(to):\n    return to\n';
        f['tests/test_mail.py'] = f['tests/test_mail.py']!.replace('shop.mail.send', 'shop.sending.send');
      },
      (f) => {
        f['shop/mail.py'] = f['shop/mail.py']!.replace('def deliver(', 'def send(');
      },
      (f) => {
        f['shop/mail.py'] = null;
      },
    ];
    const seen = await expectExactThrough(FILES, 'memfs', edits, referenceLines);
    // The edits did change what the strings name.
    expect(seen[0]).toContain('tests/test_mail.py:4 references tests.test_mail -> ∅ [shop.mail.send] unresolved:external');
    expect(seen[1]).toContain('tests/test_mail.py:4 references tests.test_mail -> shop.sending.send [shop.sending.send] qualified');
    expect(seen[3]).toContain('shop/settings.py:2 references shop.settings -> ∅ [shop.mail] unresolved:external');
  });
});
