// What an update's resolution pass looks at: the sites of the files it wrote, and the sites
// elsewhere that a change can reach (through a name whose definitions or bindings changed, or a
// structure edge that now resolves otherwise). A rewritten file's own structure edges (its
// imports, bases) are new rows, but when they resolve as before nothing another file sees
// through them changed: the files importing it are not looked at again. Written through the
// write session with real parses, so the pass's own count of sites is asserted.
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { IndexStore } from '../src/db/store.js';
import { beginWrite } from '../src/db/write-session.js';
import { describeFile } from '../src/graph/describe.js';
import { graphStrategyFor } from '../src/graph/languages/index.js';
import { createDefaultRegistry } from '../src/index.js';
import { extractSource } from '../src/parser/extract.js';
import { ParserPool } from '../src/parser/runtime.js';

const python = createDefaultRegistry().get('python')!;
const naming = { rootName: 'repo', rootIsPythonPackage: false, manifests: new Map<string, string>() };

/** Writes `files` (path → text) in one write session and returns its resolution pass's counts. */
async function write(store: IndexStore, parsers: ParserPool, files: Record<string, string>) {
  const writer = beginWrite(store);
  for (const [path, text] of Object.entries(files)) {
    const extracted = await extractSource(parsers, python, text);
    const rows = describeFile(path, extracted, graphStrategyFor('python'), naming);
    writer.putFile({ path: `/repo/${path}`, size: text.length, mtimeMs: 1, contentHash: String(text.length), language: 'python', extractorVersion: 'test' }, extracted, rows);
  }
  const stats = await writer.resolveGraph();
  writer.commit();
  return stats;
}

describe('an update re-resolves what a change can reach, and no more', () => {
  const lib = 'import os\n\nclass Base:\n    def run(self):\n        return os.getcwd()\n\ndef helper():\n    return 1\n';
  const user = (i: number) => `from lib import helper, Base\n\nclass Job${i}(Base):\n    def go(self):\n        return helper() + self.run()\n`;

  it('an edit that keeps a module\'s imports, bases and definitions looks at that file\'s sites only', async () => {
    const store = IndexStore.create(await initSqlJs());
    const parsers = new ParserPool({});
    try {
      const files: Record<string, string> = { 'lib.py': lib };
      for (let i = 0; i < 20; i++) files[`user${i}.py`] = user(i);
      await write(store, parsers, files);
      const resolvedBefore = store.rows("SELECT count(*) FROM edges WHERE to_id IS NOT NULL")[0]![0];
      // A function appended to lib.py: its imports (`os`), its class's bases and every definition
      // the users reach stay as they were.
      const edited = await write(store, parsers, { 'lib.py': `${lib}\ndef added():\n    return helper()\n` });
      // lib.py's own sites: `import os`, `os.getcwd()` and the new `helper()`; not the users' 60.
      expect(edited.sites).toBe(3);
      expect(store.rows("SELECT count(*) FROM edges WHERE to_id IS NOT NULL")[0]![0]).toBe(Number(resolvedBefore) + 1);
      // A change the users can see still reaches them: Base's method renamed.
      const renamed = await write(store, parsers, { 'lib.py': lib.replace('def run', 'def start') });
      expect(renamed.sites).toBeGreaterThanOrEqual(20);
      expect(store.rows("SELECT count(*) FROM edges e JOIN names n ON n.id = e.name_id WHERE n.name = 'run' AND e.to_id IS NULL")[0]![0]).toBe(20);
    } finally {
      parsers.delete();
      store.close();
    }
  });
});
