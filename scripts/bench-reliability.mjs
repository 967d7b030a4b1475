#!/usr/bin/env node
// The reliability figures of docs/benchmarks.md (a script, not a timed test; `npm run bench`
// runs it and copies its "- " lines into the report):
//
//   integrity  the cost of the checks run when stored bytes are opened (checksum, quick_check,
//              schema, row consistency), on the Django and Linux indexes;
//   bitflip    400 single-bit flips of the Django index: detected, harmless, or wrong;
//   soak       RSS over open → update → query → close cycles on a 20-file memfs tree;
//   stress     50,000 files in 8 languages on memfs: build, 500 random edits with updates, and
//              queries from several callers while the updates run, every answer checked.
//
//   node scripts/bench-reliability.mjs [--only integrity,bitflip,soak,stress] [--cycles N] [--files N] [--edits N]
//
// Uses dist/ (run `npm run build` first). Soak and stress run in child processes with
// --expose-gc, so RSS is theirs alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import nodeFs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

const CORPORA = {
  django: '/usr/lib/python3/dist-packages/django',
  linux: process.env.CKG_BENCH_LINUX ?? '/work/corpora/linux-source-6.1',
};

function parseArgs(argv) {
  const args = { only: ['integrity', 'bitflip', 'soak', 'stress'], cycles: 1000, files: 50000, edits: 500, child: undefined, corpora: Object.keys(CORPORA) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--only') args.only = argv[++i].split(',');
    else if (a === '--corpus') args.corpora = argv[++i].split(',');
    else if (a === '--cycles') args.cycles = Number(argv[++i]);
    else if (a === '--files') args.files = Number(argv[++i]);
    else if (a === '--edits') args.edits = Number(argv[++i]);
    else if (a === '--child') args.child = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x >= 100 ? `${x.toFixed(0)} ms` : `${x.toFixed(1)} ms`);
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Debian's linux-source appends "/*" (ignore everything at the top level) to .gitignore. */
function ignoresEverything(root) {
  try {
    return readFileSync(join(root, '.gitignore'), 'utf8').split('\n').some((l) => l.trim() === '/*');
  } catch {
    return false;
  }
}

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function buildIndex(root) {
  const { CKGDatabase, createWorkerPool } = await import(dist('node/index.js'));
  const pool = createWorkerPool();
  try {
    const started = performance.now();
    const db = await CKGDatabase.open({ codebasePath: root, fs: nodeFs, processor: pool, respectGitignore: !ignoresEverything(root) });
    const buildMs = performance.now() - started;
    return { db, buildMs };
  } finally {
    await pool.close();
  }
}

/** The checks of an open, each timed alone (medians), on the bytes of a real index. */
async function integrity(name, root) {
  const { db, buildMs } = await buildIndex(root);
  const bytes = db.export();
  const stats = db.stats();
  db.close();
  const { readSeal, checkDatabase, INTEGRITY_RULES } = await import(dist('db/integrity.js'));
  const { initSql } = await import(dist('db/sql.js'));
  const { CKGDatabase } = await import(dist('index.js'));
  const SQL = await initSql({});
  const time = (fn, runs = 5) => {
    const out = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      fn();
      out.push(performance.now() - t);
    }
    return median(out);
  };
  const withDb = (fn) => () => {
    const raw = new SQL.Database(bytes);
    try {
      fn(raw);
    } finally {
      raw.close();
    }
  };
  const openOnly = time(withDb(() => undefined));
  const seal = time(() => readSeal(bytes));
  const quick = time(withDb((raw) => raw.exec('PRAGMA quick_check'))) - openOnly;
  // Intact sealed bytes get the checksum and the meta keys only; the structure checks below run
  // for unsealed bytes (after quick_check, subtracted).
  const checks = time(withDb((raw) => checkDatabase(SQL, raw, INTEGRITY_RULES, { sealIntact: false }))) - openOnly - quick;
  const rows = time(withDb((raw) => checkDatabase(SQL, raw, { references: INTEGRITY_RULES.references, requiredMeta: [] }, { sealIntact: false }))) - openOnly - quick;
  const fromBytes = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    (await CKGDatabase.fromBytes(bytes)).close();
    fromBytes.push(performance.now() - t);
  }
  return `${name} (${stats.files.toLocaleString('en-US')} files, ${stats.functions.toLocaleString('en-US')} functions, ${mb(bytes.length)} of bytes; built in ${(buildMs / 1000).toFixed(1)} s): opening the bytes in sql.js ${ms(openOnly)}; checks on open of sealed bytes: checksum ${ms(seal)}; of unsealed bytes: \`PRAGMA quick_check\` ${ms(quick)}, schema + meta + row consistency ${ms(checks)} (of which row consistency ${ms(rows)}); \`fromBytes\` of the sealed bytes in all ${ms(median(fromBytes))}. Load ${load()}.`;
}

/** Single-bit flips of a real index's bytes: detected on open, harmless, or a wrong answer. */
async function bitflips(root, flips = 400) {
  const { CKGDatabase, CKGError } = await import(dist('index.js'));
  const { db } = await buildIndex(root);
  const bytes = db.export();
  // The answers to check: 60 names of each kind drawn from the index.
  const names = await import(dist('db/integrity.js')).then(async () => {
    const { initSql } = await import(dist('db/sql.js'));
    const SQL = await initSql({});
    const raw = new SQL.Database(bytes);
    try {
      return {
        functions: raw.exec('SELECT DISTINCT name FROM functions WHERE parent_class IS NULL ORDER BY random() LIMIT 60')[0].values.map((r) => r[0]),
        methods: raw.exec('SELECT DISTINCT name FROM functions WHERE parent_class IS NOT NULL ORDER BY random() LIMIT 60')[0].values.map((r) => r[0]),
        classes: raw.exec('SELECT DISTINCT name FROM classes ORDER BY random() LIMIT 60')[0].values.map((r) => r[0]),
      };
    } finally {
      raw.close();
    }
  });
  const answers = async (d) => {
    const out = [];
    for (const n of names.functions) out.push(await d.queryFunction(n));
    for (const n of names.methods) out.push(await d.queryFunction(n, 'class_method'));
    for (const n of names.classes) out.push(await d.queryClass(n));
    out.push(d.stats());
    return JSON.stringify(out);
  };
  const expected = await answers(db);
  db.close();
  const random = prng(13);
  const tally = async (label, prepare) => {
    const counts = { detected: 0, harmless: 0, wrong: 0, raw: 0 };
    for (let i = 0; i < flips; i++) {
      const damaged = prepare(bytes.slice());
      const bit = Math.floor(random() * damaged.length * 8);
      damaged[bit >>> 3] ^= 1 << (bit & 7);
      let opened;
      try {
        opened = await CKGDatabase.fromBytes(damaged, { fs: nodeFs });
      } catch (error) {
        if (error instanceof CKGError && error.code === 'CORRUPT_DATABASE') counts.detected++;
        else counts.raw++;
        continue;
      }
      try {
        (await answers(opened)) === expected ? counts.harmless++ : counts.wrong++;
      } catch (error) {
        error instanceof CKGError ? counts.detected++ : counts.raw++;
      } finally {
        opened.close();
      }
    }
    return `${label}: of ${flips} single-bit flips, ${counts.detected} detected (${((100 * counts.detected) / flips).toFixed(1)} %, CORRUPT_DATABASE: rebuilt when opened with the codebase), ${counts.harmless} harmless (every answer unchanged), ${counts.wrong} wrong answers, ${counts.raw} raw errors.`;
  };
  const sealed = await tally(`Django index (${mb(bytes.length)}, sealed as exported)`, (b) => b);
  // The same bytes without their seal: what the structural checks alone catch.
  const unsealed = await tally('The same bytes unsealed (checks alone: quick_check, schema, rows)', (b) => {
    b[68] = b[69] = b[70] = b[71] = 0;
    return b;
  });
  return [sealed, unsealed];
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(join(repoRoot, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const lines = [];
  if (args.only.includes('integrity')) {
    for (const name of args.corpora) {
      if (!existsSync(CORPORA[name])) continue;
      const line = await integrity(name, CORPORA[name]);
      console.log(`- integrity: ${line}`);
      lines.push(line);
    }
  }
  if (args.only.includes('bitflip') && existsSync(CORPORA.django)) {
    for (const line of await bitflips(CORPORA.django)) console.log(`- bitflip: ${line}`);
  }
  for (const what of ['soak', 'stress']) {
    if (!args.only.includes(what)) continue;
    const out = execFileSync(process.execPath, ['--expose-gc', join(repoRoot, `scripts/${what}.mjs`), ...(what === 'soak' ? ['--cycles', String(args.cycles)] : ['--files', String(args.files), '--edits', String(args.edits)])], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    for (const line of out.split('\n').filter((l) => l.startsWith('- '))) console.log(line.replace(/^- /, `- ${what}: `));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
