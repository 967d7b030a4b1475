#!/usr/bin/env node
// glob and grep against ripgrep, in the same run, on the same tree with the same pattern and
// the same ignore rules (called by scripts/bench.mjs; prints one JSON line per corpus).
//
//   node scripts/bench-search.mjs --corpus django|linux [--root DIR] [--runs N]
//
// Both tools run warm (a first untimed run fills the file cache and ckg-wasm's JIT); times are
// medians of N runs, ripgrep's including its process start (about 3 ms). ripgrep uses every
// core; ckg-wasm searches on the calling thread. Each row checks that both found the same files
// (and counts matching lines).
//
// The rules made equal: ckg-wasm honours .gitignore files anywhere, ripgrep only inside a git
// repository unless --no-require-git (given); ckg-wasm skips node_modules, bower_components,
// jspm_packages and __pycache__ folders (given to ripgrep as exclusions); neither searches
// hidden files. ckg-wasm follows symlinked files (not folders): ripgrep gets -L where the tree
// has no symlinked folder; elsewhere the symlinked files are left out of the comparison and
// counted. Debian's linux-source ends its top-level .gitignore with "/*" (ignore everything):
// this script then re-runs itself in a private mount namespace (unshare -m) where a copy of that
// .gitignore without the Debian block is bind-mounted over it, so both tools read the kernel's
// own rules; without unshare both ignore every .gitignore (ckg-wasm respectGitignore: false,
// ripgrep --no-ignore-vcs) and the report says so.
import { execFileSync, spawnSync } from 'node:child_process';
import nodeFs, { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED = ['node_modules', 'bower_components', 'jspm_packages', '__pycache__'];

/** The rows of each corpus: a literal, a case-insensitive literal, an alternation, a files-with-matches run, a glob. */
const CASES = {
  django: {
    root: '/usr/lib/python3/dist-packages/django',
    runs: 7,
    glob: '*.py',
    greps: [
      { name: 'literal', pattern: 'QuerySet', outputMode: 'content' },
      { name: 'literal, case-insensitive', pattern: 'queryset', caseInsensitive: true, outputMode: 'content' },
      { name: 'regex with alternation', pattern: 'def (get|set)_\\w+', outputMode: 'content' },
      { name: 'files with matches (regex)', pattern: '\\w+Error\\(', outputMode: 'files_with_matches' },
    ],
  },
  linux: {
    root: '/work/corpora/linux-source-6.1',
    runs: 3,
    glob: '*.c',
    greps: [
      { name: 'literal', pattern: 'EXPORT_SYMBOL_GPL', outputMode: 'content' },
      { name: 'literal, case-insensitive', pattern: 'spin_lock_irqsave', caseInsensitive: true, outputMode: 'content' },
      { name: 'regex with alternation', pattern: 'static (int|void) \\w+_init\\(', outputMode: 'content' },
      { name: 'files with matches (regex)', pattern: 'MODULE_(AUTHOR|LICENSE)\\(', outputMode: 'files_with_matches' },
    ],
  },
};

function parseArgs(argv) {
  const args = { corpus: undefined, root: undefined, runs: undefined, inNamespace: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--corpus') args.corpus = argv[++i];
    else if (a === '--root') args.root = argv[++i];
    else if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--in-namespace') args.inNamespace = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!CASES[args.corpus]) throw new Error(`--corpus must be one of ${Object.keys(CASES).join(', ')}`);
  return args;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const DEBIAN_BLOCK = /\n#\n# Debian packaging: ignore everything at the top level[^]*$/;

function gitignoreIgnoresEverything(root) {
  try {
    return readFileSync(join(root, '.gitignore'), 'utf8').split('\n').some((l) => l.trim() === '/*');
  } catch {
    return false;
  }
}

/** Symlinks under root (files and folders), as ripgrep would meet them without -L. */
function symlinks(root) {
  const out = execFileSync('find', [root, '-type', 'l'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const links = out.split('\n').filter(Boolean);
  const toFolders = links.filter((l) => {
    try {
      return nodeFs.statSync(l).isDirectory();
    } catch {
      return false;
    }
  });
  // Links out of the tree: ckg-wasm never reads them (docs/security.md), ripgrep -L does.
  const outside = links.filter((l) => {
    try {
      const real = nodeFs.realpathSync(l);
      return real !== root && !real.startsWith(`${nodeFs.realpathSync(root)}/`);
    } catch {
      return false;
    }
  });
  return { links: new Set(links), folders: toFolders.length, outside: new Set(outside) };
}

function rg(args, cwd) {
  const t0 = performance.now();
  const r = spawnSync('rg', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')} failed: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const spec = CASES[args.corpus];
  const root = args.root ?? spec.root;
  if (!existsSync(root)) {
    console.log(JSON.stringify({ corpus: args.corpus, absent: true }));
    return;
  }
  const notes = [];
  let respectGitignore = true;
  if (!args.inNamespace && gitignoreIgnoresEverything(root)) {
    // Re-run in a private mount namespace with the Debian block stripped from the top-level .gitignore.
    const dir = mkdtempSync(join(os.tmpdir(), 'ckg-bench-search-'));
    const stripped = join(dir, 'gitignore');
    writeFileSync(stripped, readFileSync(join(root, '.gitignore'), 'utf8').replace(DEBIAN_BLOCK, '\n'));
    const self = fileURLToPath(import.meta.url);
    const inner = `mount --bind '${stripped}' '${join(root, '.gitignore')}' && exec '${process.execPath}' '${self}' ${process.argv.slice(2).map((a) => `'${a}'`).join(' ')} --in-namespace`;
    const r = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', inner], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
    rmSync(dir, { recursive: true, force: true });
    if (r.status === 0) {
      process.stdout.write(r.stdout);
      return;
    }
    respectGitignore = false;
    notes.push('The top-level .gitignore ends with Debian\'s "/*" and no private mount namespace was available: both tools ignored every .gitignore (ckg-wasm `respectGitignore: false`, ripgrep `--no-ignore-vcs`).');
  }
  if (args.inNamespace) notes.push('Debian\'s "/*" block was stripped from the top-level .gitignore for both tools (a copy without it bind-mounted over it in a private mount namespace): the kernel\'s own .gitignore rules applied.');

  const { links, folders, outside } = symlinks(root);
  const follow = folders === 0;
  const rgBase = ['--no-config', '--no-require-git', '--color', 'never', ...SKIPPED.flatMap((d) => ['-g', `!${d}/`]), ...(respectGitignore ? [] : ['--no-ignore-vcs']), ...(follow ? ['-L'] : [])];
  if (follow) notes.push(`ripgrep ran with -L (the tree's ${links.size} symlinks are all to files, which ckg-wasm follows too).`);
  else notes.push(`The tree has ${links.size} symlinks, ${folders} of them to folders: ripgrep ran without -L (ckg-wasm follows symlinked files, not folders); symlinked files are left out of the same-files check.`);
  if (outside.size > 0) notes.push(`${outside.size} of the symlinks lead out of the tree: ckg-wasm never reads them (nothing outside the root is read), so they are left out of the same-files check.`);
  const comparable = (paths) => (follow ? paths : paths.filter((p) => !links.has(p))).filter((p) => !outside.has(p));

  // The exported functions use an index's default rules; with .gitignore bypassed, the same
  // functions with the rules passed in (what CKGDatabase.glob/grep do with their options).
  const { globWith } = await import(join(repoRoot, 'dist/search/glob.js'));
  const { grepWith, grepStreamWith } = await import(join(repoRoot, 'dist/search/grep.js'));
  const { defaultSearchContext } = await import(join(repoRoot, 'dist/search/walk.js'));
  const context = { ...defaultSearchContext(), respectGitignore };
  const search = {
    glob: (o) => globWith({ fs: nodeFs, root, ...o }, context),
    grep: (o) => grepWith({ fs: nodeFs, root, ...o }, context),
    grepStream: (o) => grepStreamWith({ fs: nodeFs, root, ...o }, context),
  };
  const runs = args.runs ?? spec.runs;
  const rows = [];
  const load0 = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const started = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

  // glob
  {
    const ours = async () => (await search.glob({ pattern: spec.glob, limit: 1e9 })).results.map((r) => r.path);
    const theirs = () => rg([...rgBase, '--files', '-g', spec.glob], root);
    await ours();
    theirs();
    const oursMs = [];
    const rgMs = [];
    let a;
    let b;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      a = await ours();
      oursMs.push(performance.now() - t);
      const r = theirs();
      rgMs.push(r.ms);
      b = r.stdout.split('\n').filter(Boolean).map((rel) => join(root, rel));
    }
    const sa = new Set(comparable(a));
    const sb = new Set(comparable(b));
    const same = sa.size === sb.size && [...sa].every((p) => sb.has(p));
    rows.push({ name: `glob \`${spec.glob}\``, command: `rg --files -g '${spec.glob}'`, oursMs: median(oursMs), rgMs: median(rgMs), files: a.length, rgFiles: b.length, same, onlyOurs: [...sa].filter((p) => !sb.has(p)).slice(0, 5), onlyRg: [...sb].filter((p) => !sa.has(p)).slice(0, 5) });
  }

  for (const c of spec.greps) {
    const options = { pattern: c.pattern, outputMode: c.outputMode, caseInsensitive: c.caseInsensitive === true, headLimit: 1e9 };
    const rgArgs = [...rgBase, ...(c.caseInsensitive ? ['-i'] : []), ...(c.outputMode === 'files_with_matches' ? ['-l'] : ['-n', '-H', '--no-heading']), '-e', c.pattern, '.'];
    const ours = async () => {
      const r = await search.grep(options);
      const files = new Set(r.results.map((e) => e.path));
      return { files, total: r.totalMatches, partial: r.partial };
    };
    const theirs = () => {
      const r = rg(rgArgs, root);
      const out = r.stdout.split('\n').filter(Boolean);
      const files = new Set(out.map((l) => join(root, c.outputMode === 'files_with_matches' ? l : l.slice(0, l.indexOf(':')))));
      return { ms: r.ms, files, lines: c.outputMode === 'files_with_matches' ? undefined : out.length };
    };
    await ours();
    theirs();
    const oursMs = [];
    const rgMs = [];
    let a;
    let b;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      a = await ours();
      oursMs.push(performance.now() - t);
      b = theirs();
      rgMs.push(b.ms);
    }
    const fa = new Set(comparable([...a.files]));
    const fb = new Set(comparable([...b.files]));
    const same = fa.size === fb.size && [...fa].every((p) => fb.has(p));
    // First-result latency of the streaming form (a fresh search each time).
    const firstMs = [];
    if (search.grepStream) {
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        for await (const _ of search.grepStream(options)) {
          firstMs.push(performance.now() - t);
          break;
        }
      }
    }
    const rgFlags = `${c.caseInsensitive ? '-i ' : ''}${c.outputMode === 'files_with_matches' ? '-l' : '-n'}`;
    rows.push({
      name: `grep ${c.name}: \`${c.pattern}\` (${c.outputMode})`,
      command: `rg ${rgFlags} '${c.pattern}'`,
      oursMs: median(oursMs),
      rgMs: median(rgMs),
      firstMs: firstMs.length ? median(firstMs) : undefined,
      files: a.files.size,
      rgFiles: b.files.size,
      lines: c.outputMode === 'content' ? a.total : undefined,
      rgLines: b.lines,
      same: same && !a.partial,
      partial: a.partial,
      onlyOurs: [...fa].filter((p) => !fb.has(p)).slice(0, 5),
      onlyRg: [...fb].filter((p) => !fa.has(p)).slice(0, 5),
    });
  }
  const rgVersion = execFileSync('rg', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  console.log(JSON.stringify({ corpus: args.corpus, root, runs, date: started, loadBefore: load0, loadAfter: os.loadavg().map((x) => x.toFixed(2)).join(' '), rgVersion, notes, rows }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
