// Runs one ckg-wasm operation on node:fs in a child process and prints its outcome as JSON, so a
// test can bound it with a timeout: a blocking read (a FIFO) would otherwise hang the test
// process itself, out of reach of any test timeout. Runs the TypeScript sources.
//   node read-in-child.mjs <build|update|query> <codebase root>
import { register } from 'node:module';
import nodeFs from 'node:fs';

register('./workers/ts-hooks.mjs', import.meta.url);
const { CKGDatabase } = await import('../../src/index.ts');
const [what, root] = process.argv.slice(2);
const out = {};
try {
  const db = await CKGDatabase.open({ codebasePath: root, fs: nodeFs });
  out.skipped = db.report.skipped.map((s) => [s.path.slice(root.length + 1), s.reason]);
  out.functions = db.stats().functions;
  if (what === 'update' || what === 'query') {
    // The test's hook swaps files now (signalled through a marker file it waits for).
    nodeFs.writeFileSync(`${root}.ready`, '');
    while (!nodeFs.existsSync(`${root}.go`)) await new Promise((r) => setTimeout(r, 20));
    if (what === 'update') {
      const report = await db.update();
      out.skipped = report.skipped.map((s) => [s.path.slice(root.length + 1), s.reason]);
      out.functions = db.stats().functions;
    } else {
      out.bodies = (await db.queryFunction('victim')).map((f) => f.body);
    }
  }
  db.close();
} catch (error) {
  out.error = { code: error.code, message: error.message };
}
console.log(JSON.stringify(out));
