// The stress property, shared by scripts/stress.mjs (50,000 files, run by the bench) and
// test/stress.test.ts (a few hundred files, run by CI): a memfs tree in 8 languages is built,
// then edited at random (rewrites, deletions, additions) in batches, each followed by an
// update, while several callers query without pause. Every answer must be the index before
// or after the running update, never between: each file defines `fn_<i>` and `group_<g>`
// whose bodies carry the file's version, and a group's answer must match one of the two states
// for all of its files at once.
//
// `lib` is the library (`ckg-wasm` from dist/, or the TypeScript sources in tests).

const TEMPLATES = {
  py: (i, g, v) => `def fn_${i}():\n    return "VERSION_${v}"\n\n\ndef group_${g}():\n    return "VERSION_${v}"\n`,
  js: (i, g, v) => `function fn_${i}() {\n  return "VERSION_${v}";\n}\n\nfunction group_${g}() {\n  return "VERSION_${v}";\n}\n`,
  ts: (i, g, v) => `export function fn_${i}(): string {\n  return "VERSION_${v}";\n}\n\nexport function group_${g}(): string {\n  return "VERSION_${v}";\n}\n`,
  go: (i, g, v) => `package p\n\nfunc fn_${i}() string {\n\treturn "VERSION_${v}"\n}\n\nfunc group_${g}() string {\n\treturn "VERSION_${v}"\n}\n`,
  rs: (i, g, v) => `pub fn fn_${i}() -> &'static str {\n    "VERSION_${v}"\n}\n\npub fn group_${g}() -> &'static str {\n    "VERSION_${v}"\n}\n`,
  c: (i, g, v) => `const char *fn_${i}(void) {\n  return "VERSION_${v}";\n}\n\nconst char *group_${g}(void) {\n  return "VERSION_${v}";\n}\n`,
  php: (i, g, v) => `<?php\nfunction fn_${i}() {\n  return "VERSION_${v}";\n}\n\nfunction group_${g}() {\n  return "VERSION_${v}";\n}\n`,
  lua: (i, g, v) => `function fn_${i}()\n  return "VERSION_${v}"\nend\n\nfunction group_${g}()\n  return "VERSION_${v}"\nend\n`,
};
const EXTENSIONS = Object.keys(TEMPLATES);

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

const versionOf = (body) => Number(/VERSION_(\d+)/.exec(body)?.[1] ?? NaN);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * Runs the stress property; throws on the first inconsistent answer. Returns counts and timings.
 * @param {{ lib: any, Volume: any, files: number, edits: number, batch?: number, callers?: number, groupSize?: number, seed?: number, log?: (line: string) => void }} options
 */
export async function runStress(options) {
  const { lib, Volume, files, edits } = options;
  const batch = options.batch ?? 10;
  const callers = options.callers ?? 4;
  const groupSize = options.groupSize ?? 20;
  const random = prng(options.seed ?? 13);
  const log = options.log ?? (() => undefined);
  const root = '/stress';
  const vol = new Volume();
  const groups = Math.ceil(files / groupSize);
  /** File i → its version (undefined when deleted); its path is fixed by i. */
  const version = new Array(files).fill(0);
  const pathOf = (i) => `${root}/d${i % 97}/s${i % 7}/f${i}.${EXTENSIONS[i % EXTENSIONS.length]}`;
  const groupOf = (i) => i % groups;
  const write = (i) => {
    const path = pathOf(i);
    vol.mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
    vol.writeFileSync(path, TEMPLATES[EXTENSIONS[i % EXTENSIONS.length]](i, groupOf(i), version[i]));
  };
  for (let i = 0; i < files; i++) write(i);

  let started = performance.now();
  const db = await lib.CKGDatabase.open({ codebasePath: root, fs: vol, ...(options.processor ? { processor: options.processor } : {}) });
  const buildMs = performance.now() - started;
  if (db.stats().functions !== 2 * files) throw new Error(`built ${db.stats().functions} functions, expected ${2 * files}`);
  log(`built ${files} files in ${(buildMs / 1000).toFixed(1)} s`);

  // Every state the files were in, in order: a query may answer from any state between the one
  // committed when it started and the newest when it ended (it may wait for updates), but from
  // one state only.
  const states = [version.slice()];
  let committed = 0;
  const checkFn = (i, rows, allowed) => {
    const got = rows.length === 0 ? undefined : versionOf(rows[0].body);
    if (rows.length > 1 || !allowed.some((state) => state[i] === got)) throw new Error(`fn_${i}: got ${rows.length} rows, version ${got}; allowed ${[...new Set(allowed.map((s) => s[i]))].join(' or ')}`);
    if (rows.length === 1 && rows[0].filePath !== pathOf(i)) throw new Error(`fn_${i}: from ${rows[0].filePath}`);
  };
  const checkGroup = (g, rows, allowed) => {
    const seen = new Map(rows.map((r) => [r.filePath, versionOf(r.body)]));
    const matches = (state) => {
      let count = 0;
      for (let i = g; i < files; i += groups) {
        if (state[i] === undefined) continue;
        count++;
        if (seen.get(pathOf(i)) !== state[i]) return false;
      }
      return count === seen.size;
    };
    if (!allowed.some(matches)) throw new Error(`group_${g}: ${rows.length} rows match no single state of the index between the query's start and end`);
  };

  let queries = 0;
  let stop = false;
  const caller = async () => {
    while (!stop) {
      const from = committed;
      if (random() < 0.5) {
        const i = Math.floor(random() * files);
        const rows = await db.queryFunction(`fn_${i}`);
        checkFn(i, rows, states.slice(from));
      } else {
        const g = Math.floor(random() * groups);
        const rows = await db.queryFunction(`group_${g}`);
        checkGroup(g, rows, states.slice(from));
      }
      queries++;
    }
  };
  const running = Array.from({ length: callers }, caller);
  const updateMs = [];
  let maxVersion = 0;
  let done = 0;
  started = performance.now();
  const queriesBefore = queries;
  try {
    while (done < edits) {
      const planned = version.slice();
      for (let k = 0; k < batch && done < edits; k++, done++) {
        const i = Math.floor(random() * files);
        const r = random();
        if (planned[i] !== undefined && r < 0.15) {
          planned[i] = undefined; // deleted
        } else {
          planned[i] = ++maxVersion; // rewritten, or added back
        }
      }
      // The files change on disk first (the callers' answers may then meet them), then the update runs.
      states.push(planned);
      for (let i = 0; i < files; i++) {
        if (planned[i] === version[i]) continue;
        version[i] = planned[i];
        if (planned[i] === undefined) vol.rmSync(pathOf(i));
        else write(i);
      }
      const t = performance.now();
      await db.update();
      updateMs.push(performance.now() - t);
      committed = states.length - 1;
      // The index now equals the files.
      const expected = planned.reduce((n, v) => n + (v === undefined ? 0 : 2), 0);
      if (db.stats().functions !== expected) throw new Error(`after an update: ${db.stats().functions} functions, expected ${expected}`);
    }
  } finally {
    stop = true;
  }
  await Promise.all(running);
  const wallMs = performance.now() - started;
  db.close();
  return { files, edits, buildMs, wallMs, updates: updateMs.length, updateMedianMs: median(updateMs), queries: queries - queriesBefore, callers };
}
