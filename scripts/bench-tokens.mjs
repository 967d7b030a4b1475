#!/usr/bin/env node
// Token economy on Django: 30 structural questions answered by the ckg tool, against a
// grep-and-read procedure (ripgrep, then the lines an agent reads around each hit), with every
// location the tool gives checked against Python's own parser (scripts/python-ast-facts.py).
//
//   node scripts/bench-tokens.mjs [--root /usr/lib/python3/dist-packages/django]
//
// Prints one JSON line (npm run bench puts it in docs/benchmarks.md).
//
// The baseline procedure, per kind of question:
// - where is (function or class) X defined: `rg -n --type py '^\s*(async\s+)?(def|class)\s+X\b'`, then read 30 lines
//   from each hit (the definition's head and the start of its body);
// - who calls Y: `rg -n --type py -w Y`, then read 21 lines around each hit (10 before, 10 after)
//   to see whether it is a call and which function it is in;
// - outline of file Z (the ten largest files: outlines are for files too big to read): read the whole file.
// Files are read as agents' file tools return them: each line numbered like `cat -n`.
import { execFileSync } from 'node:child_process';
import nodeFs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const root = args.includes('--root') ? args[args.indexOf('--root') + 1] : '/usr/lib/python3/dist-packages/django';

// `kind` narrows search_symbols as an agent asking for a class or a function would.
const WHERE = [
  ['slugify', 'function'],
  ['get_object_or_404', 'function'],
  ['QuerySet', 'class'],
  ['render_to_string', 'function'],
  ['cached_property', 'class'],
  ['Paginator', 'class'],
  ['format_html', 'function'],
  ['parse_date', 'function'],
  ['Truncator', 'class'],
  ['get_valid_filename', 'function'],
];
const CALLERS = [
  'django.utils.text.slugify',
  'django.utils.html.format_html',
  'django.utils.dateparse.parse_date',
  'django.utils.text.capfirst',
  'django.utils.text.smart_split',
  'django.shortcuts.get_object_or_404',
  'django.template.loader.render_to_string',
  'django.utils.text.get_text_list',
  'django.utils.html.strip_tags',
  'django.utils.text.normalize_newlines',
];
// Outlines are asked for files too big to read whole: the ten largest Python files of the tree.
const OUTLINES = largestPythonFiles(root, 10);

function largestPythonFiles(dir, n) {
  const out = [];
  const walk = (d) => {
    if (!nodeFs.existsSync(d)) return;
    for (const e of nodeFs.readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.py')) out.push([p.slice(dir.length + 1), nodeFs.statSync(p).size]);
    }
  };
  walk(dir);
  return out.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([p]) => p);
}

if (!nodeFs.existsSync(root)) {
  console.log(JSON.stringify({ absent: true }));
  process.exit(0);
}

const lines = new Map();
const fileLines = (path) => {
  let l = lines.get(path);
  if (!l) lines.set(path, (l = nodeFs.readFileSync(path, 'utf8').split('\n')));
  return l;
};
/**
 * Characters an agent reads: lines [from, to] (1-based, clamped) of a file as agents' file tools
 * return them, numbered like `cat -n` (the number right-aligned in 6 columns, a tab, the line).
 */
const readRange = (path, from, to) => {
  const l = fileLines(path);
  let n = 0;
  for (let i = Math.max(1, from); i <= Math.min(l.length, to); i++) n += Math.max(6, String(i).length) + 1 + l[i - 1].length + 1;
  return n;
};
const rg = (argv) => {
  try {
    return execFileSync('rg', ['-n', '--type', 'py', ...argv, root], { encoding: 'utf8', maxBuffer: 1 << 26 });
  } catch (error) {
    if (error.status === 1) return ''; // no match
    throw error;
  }
};
const hitsOf = (out) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const m = /^(.*?):(\d+):/.exec(l);
      return { path: m[1], line: Number(m[2]) };
    });

const { CKGTool } = await import(join(repoRoot, 'dist/index.js'));
const tool = new CKGTool({ fs: nodeFs, refresh: false });
const ask = async (args) => {
  const r = await tool.execute({ path: root, ...args });
  if ('error' in r) throw new Error(r.error);
  return r.output;
};
await ask({ command: 'search_class', identifier: 'QuerySet', print_body: false }); // the build

const facts = JSON.parse(
  execFileSync('python3', [join(repoRoot, 'scripts/python-ast-facts.py')], {
    input: JSON.stringify({ root, defs: WHERE.map(([n]) => n), calls: CALLERS.map((q) => q.split('.').pop()), outlines: OUTLINES }),
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  }),
);

const rows = [];
const relOf = (p) => (p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p);
for (const [name, kind] of WHERE) {
  const out = rg(['-e', `^\\s*(async\\s+)?(def|class)\\s+${name}\\b`]);
  const baseline = out.length + hitsOf(out).reduce((n, h) => n + readRange(h.path, h.line, h.line + 29), 0);
  // A function by its exact name, without bodies; a class by search_symbols (the class command
  // would list every method), where exact matches rank first.
  const answer = kind === 'function' ? await ask({ command: 'search_function', identifier: name, print_body: false }) : await ask({ command: 'search_symbols', identifier: name, kind, limit: 2 });
  const claimed =
    kind === 'function'
      ? [...answer.matchAll(/^\d+\. (\/\S+?):(\d+)-\d+/gm)].map((m) => `${m[1]}:${m[2]}`)
      : [...answer.matchAll(/^\d+\. \w+ \S+ (\S+?):(\d+)-\d+ \[exact/gm)].map((m) => `${join(root, m[1])}:${m[2]}`);
  // Functions (module-level or nested, not methods) or classes of that name, as Python's parser sees them.
  const truth = new Set(facts.defs[name].filter(([, , k]) => k === kind).map(([p, l]) => `${p}:${l}`));
  const wrong = claimed.filter((c) => !truth.has(c));
  rows.push({ kind: 'where', question: name, ckgChars: answer.length, baselineChars: baseline, locations: claimed.length, wrong: wrong.length, missed: [...truth].filter((t) => !claimed.includes(t)).length });
}
for (const qname of CALLERS) {
  const name = qname.split('.').pop();
  const out = rg(['-w', name]);
  const baseline = out.length + hitsOf(out).reduce((n, h) => n + readRange(h.path, h.line - 10, h.line + 10), 0);
  const answer = await ask({ command: 'find_callers', identifier: qname });
  // Every location the answer gives: its callers, and the unresolved calls it counts.
  const claimed = [...answer.matchAll(/^\d+\. (\S+?):(\d+) /gm), ...[...answer.matchAll(/\(([^()]*?)\)\.?$/gm)].flatMap((m) => [...m[1].matchAll(/([\w./-]+\.py):(\d+)/g)])].map((m) => `${join(root, m[1])}:${m[2]}`);
  const truth = new Set(facts.calls[name].map(([p, l]) => `${p}:${l}`));
  const wrong = claimed.filter((c) => !truth.has(c));
  rows.push({ kind: 'callers', question: qname, ckgChars: answer.length, baselineChars: baseline, locations: claimed.length, wrong: wrong.length, wrongSample: wrong.slice(0, 3).map(relOf) });
}
for (const rel of OUTLINES) {
  const path = join(root, rel);
  const baseline = readRange(path, 1, fileLines(path).length);
  const answer = await ask({ command: 'file_outline', identifier: rel });
  const claimed = [...answer.matchAll(/^\s*(\d+)-(\d+) /gm)].map((m) => `${m[1]}-${m[2]}`);
  const truth = new Set(facts.outlines[rel].map(([, , l, e]) => `${l}-${e}`));
  const wrong = claimed.filter((c) => !truth.has(c));
  rows.push({ kind: 'outline', question: rel, ckgChars: answer.length, baselineChars: baseline, locations: claimed.length, wrong: wrong.length, missed: [...truth].filter((t) => !claimed.includes(t)).length });
}
await tool.close();
const sum = (k, f = () => true) => rows.filter(f).reduce((n, r) => n + r[k], 0);
const byKind = Object.fromEntries(
  ['where', 'callers', 'outline'].map((k) => [k, { ckgChars: sum('ckgChars', (r) => r.kind === k), baselineChars: sum('baselineChars', (r) => r.kind === k), wrong: sum('wrong', (r) => r.kind === k) }]),
);
console.log(JSON.stringify({ root, questions: rows.length, ckgChars: sum('ckgChars'), baselineChars: sum('baselineChars'), share: sum('ckgChars') / sum('baselineChars'), locations: sum('locations'), wrong: sum('wrong'), byKind, rows }));
