#!/usr/bin/env node
// Recall of ckg-wasm against Universal Ctags on a real corpus: of the definitions ctags finds
// (functions, methods, classes, structs, unions, enums, interfaces), how many have a ckg-wasm
// row of the same kind and name in the same file whose line range covers ctags' line.
//
//   node scripts/recall-vs-ctags.mjs --lang c|cpp|typescript|lua [--limit N] [--misses N]
//        [--dist path/to/dist] [--json] <corpus folder>
//
// The corpus's files are chosen by extension (the language's own plus those ckg-wasm may not
// cover yet, such as `.ipp`), sorted by path, the first N with --limit; ctags is forced to the
// language on exactly those files. ckg-wasm indexes the folder with default options (its
// `.gitignore` files are not honoured, so vendored corpora index as they are).
// Also reported: methods whose class ckg-wasm names like ctags (ctags' scope, last component),
// ckg-wasm rows ctags has no tag of that name for, and ctags tags that are ctags' own misparses
// (counted apart: see `realTag`). Needs a build (`npm run build`) and `ctags` on the PATH.
import nodeFs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Per language: ctags' name for it, the extensions to take, and ctags kinds → ckg row kind. */
const LANGUAGES = {
  c: {
    ckg: ['c'],
    ctags: 'C',
    extensions: ['.c', '.h'],
    kinds: { function: 'function', struct: 'class', union: 'class', enum: 'class' },
  },
  cpp: {
    ckg: ['cpp'],
    ctags: 'C++',
    extensions: ['.cpp', '.hpp', '.cc', '.cxx', '.c++', '.hh', '.ipp', '.tpp', '.hxx', '.inl'],
    kinds: { function: 'function', class: 'class', struct: 'class', union: 'class', enum: 'class' },
  },
  typescript: {
    ckg: ['typescript'],
    ctags: 'TypeScript',
    extensions: ['.ts', '.mts', '.cts'],
    kinds: { function: 'function', generator: 'function', method: 'function', class: 'class', interface: 'class', enum: 'class' },
  },
  lua: {
    ckg: ['lua'],
    ctags: 'Lua',
    extensions: ['.lua'],
    kinds: { function: 'function' },
  },
};

/** Scope kinds whose members are methods of a class-like definition. */
const CLASS_SCOPES = new Set(['class', 'struct', 'union', 'interface']);

function parseArgs(argv) {
  const args = { limit: Infinity, misses: 15, dist: new URL('../dist/', import.meta.url).pathname, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--lang') args.lang = argv[++i];
    else if (a === '--limit') args.limit = Number(argv[++i]);
    else if (a === '--misses') args.misses = Number(argv[++i]);
    else if (a === '--dist') args.dist = resolve(argv[++i]);
    else if (a === '--json') args.json = true;
    else args.root = resolve(a);
  }
  if (!LANGUAGES[args.lang] || !args.root || !nodeFs.existsSync(args.root)) {
    console.error('usage: node scripts/recall-vs-ctags.mjs --lang c|cpp|typescript|lua [--limit N] [--misses N] [--dist DIR] [--json] <corpus folder>');
    process.exit(2);
  }
  return args;
}

function listFiles(root, extensions) {
  const out = [];
  const walk = (dir) => {
    for (const entry of nodeFs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && extensions.some((e) => entry.name.endsWith(e))) out.push(path);
    }
  };
  walk(root);
  return out.sort();
}

/** The name a user searches for: Lua's `a.b:c` is `c`; ctags' `operator ==` is ckg's `operator==`. */
function plainName(lang, name) {
  if (lang === 'lua') return name.split(/[.:]/).pop();
  return name.replace(/^operator\s+(?=[^\w\s])/, 'operator');
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * False for a ctags tag that is not a definition of that name: ctags' regex-based Lua parser
 * tags `local T = { f = function() end }` as a function `T`.
 */
function realTag(lang, tag) {
  // C/C++: a line that is only a macro invocation (`JSON_HEDLEY_DEPRECATED_FOR(3.1.0, items())`
  // before the real function) tagged with a name from inside its arguments.
  const macroLine = /^\/\^\s*([A-Z_][A-Z0-9_]*)\s*\((.*)\)\s*\$?\/$/.exec(tag.pattern ?? '');
  if (macroLine && macroLine[1] !== tag.name && new RegExp(`\\b${escapeRegExp(tag.name)}\\b`).test(macroLine[2])) return false;
  // TypeScript: an anonymous class expression (`= class extends Base {`) tagged as `extends`.
  if (lang === 'typescript' && tag.kind === 'class' && tag.name === 'extends') return false;
  if (lang !== 'lua') return true;
  const line = tag.pattern ?? '';
  const name = escapeRegExp(tag.name);
  return new RegExp(`function\\s+${name}\\s*\\(`).test(line) || new RegExp(`${name}\\s*=\\s*function\\b`).test(line);
}

/** Names a ctags tag may have in ckg: macro-made functions (`SYSCALL_DEFINE3(open, …)`) are named after their first identifier argument. */
function candidateNames(lang, tag) {
  const names = [plainName(lang, tag.name)];
  const first = /^\(\s*([A-Za-z_]\w*)\s*[,)]/.exec(tag.signature ?? '');
  if (/^[A-Z][A-Z0-9_]*$/.test(tag.name) && first) names.push(first[1]);
  return names;
}

async function ckgRows(distDir, root, languages) {
  const dist = pathToFileURL(distDir.endsWith('/') ? distDir : `${distDir}/`);
  const { CKGDatabase } = await import(new URL('index.js', dist).href);
  const { default: initSqlJs } = await import('sql.js');
  const db = await CKGDatabase.open({ codebasePath: root, fs: nodeFs, languages, respectGitignore: false });
  const bytes = db.export();
  const report = db.report;
  db.close();
  const SQL = await initSqlJs();
  const raw = new SQL.Database(bytes);
  const rows = [];
  try {
    for (const [name, path, s, e, pc] of raw.exec('SELECT name, file_path, start_line, end_line, parent_class FROM functions')[0]?.values ?? []) {
      rows.push({ kind: 'function', name, path, start: s, end: e, parentClass: pc });
    }
    for (const [name, path, s, e] of raw.exec('SELECT name, file_path, start_line, end_line FROM classes')[0]?.values ?? []) {
      rows.push({ kind: 'class', name, path, start: s, end: e, parentClass: null });
    }
  } finally {
    raw.close();
  }
  return { rows, report };
}

function ctagsTags(language, files) {
  const out = execFileSync('ctags', ['--output-format=json', '--fields=+nKzS', `--language-force=${language}`, '-L', '-', '-o', '-'], {
    input: files.join('\n'),
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((t) => t._type === 'tag');
}

const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)} %`);

const args = parseArgs(process.argv.slice(2));
const spec = LANGUAGES[args.lang];
const files = listFiles(args.root, spec.extensions).slice(0, args.limit);
const fileSet = new Set(files);
const { rows, report } = await ckgRows(args.dist, args.root, spec.ckg);
const byFileName = new Map();
for (const row of rows) {
  if (!fileSet.has(row.path)) continue;
  const key = `${row.path}\u0000${row.name}`;
  if (!byFileName.has(key)) byFileName.set(key, []);
  byFileName.get(key).push(row);
}

// Files ckg leaves out by design (over its size limit, minified, binary) are left out here too.
const skippedByDesign = new Set((report?.skipped ?? []).filter((s) => ['too-large', 'minified', 'binary'].includes(s.reason)).map((s) => s.path));
const tags = ctagsTags(spec.ctags, files).filter((t) => spec.kinds[t.kind] !== undefined && !/^__anon/.test(t.name) && !skippedByDesign.has(t.path));
const byKind = {};
const misses = [];
const falsePositives = [];
let total = 0;
let overloads = 0;
let macroNamed = 0;
const rowsByFile = new Map();
for (const row of rows) {
  if (!rowsByFile.has(row.path)) rowsByFile.set(row.path, []);
  rowsByFile.get(row.path).push(row);
}
for (const list of rowsByFile.values()) list.sort((a, b) => a.start - b.start || b.end - a.end);
/** The first ckg row of `path` starting after `line`, if no row starting earlier still covers `line`. */
const nextRow = (path, line) => {
  const list = rowsByFile.get(path) ?? [];
  return list.find((r) => r.start > line);
};
let found = 0;
let scoped = 0;
let scopedRight = 0;
const tagNames = new Set();
for (const tag of tags) {
  for (const n of candidateNames(args.lang, tag)) tagNames.add(`${tag.path}\u0000${n}`);
  if (!realTag(args.lang, tag)) {
    falsePositives.push(tag);
    continue;
  }
  const kind = spec.kinds[tag.kind];
  const stat = (byKind[tag.kind] ??= { total: 0, found: 0 });
  stat.total++;
  total++;
  let match;
  for (const name of candidateNames(args.lang, tag)) {
    match = (byFileName.get(`${tag.path}\u0000${name}`) ?? []).find((r) => r.kind === kind && r.start <= tag.line && tag.line <= r.end);
    if (match) break;
  }
  if (!match && kind === 'function' && /^[A-Z][A-Z0-9_]*$/.test(tag.name)) {
    // ctags names a function after the macro it starts with (a return-type macro:
    // `BOOST_BEAST_ASYNC_RESULT1(Handler)` ⏎ `stream::async_read(…)`): the ckg function that
    // starts on that line, whatever its name.
    match = (rowsByFile.get(tag.path) ?? []).find((r) => r.kind === 'function' && r.start === tag.line);
    if (match) macroNamed++;
  }
  if (!match) {
    // An overloaded function or method: ckg keeps the implementation only, ctags tags the first
    // signature. Matched when the next ckg row after the tag's line in this file has the name.
    const next = nextRow(tag.path, tag.line);
    if (next && next.kind === kind && candidateNames(args.lang, tag).includes(next.name)) {
      match = next;
      overloads++;
    }
  }
  if (match) {
    stat.found++;
    found++;
  } else {
    misses.push(tag);
  }
  if (kind === 'function' && CLASS_SCOPES.has(tag.scopeKind) && tag.scope) {
    scoped++;
    const owner = tag.scope.split(/::|\./).pop();
    if (match?.parentClass === owner) scopedRight++;
  }
}
const ckgOnly = rows.filter((r) => fileSet.has(r.path) && !tagNames.has(`${r.path}\u0000${r.name}`));

const result = {
  corpus: args.root,
  language: args.lang,
  files: files.length,
  ckgFilesIndexed: report?.filesIndexed,
  ckgFilesWithSyntaxErrors: report?.filesWithSyntaxErrors,
  ckgFilesSkippedByDesign: files.filter((f) => skippedByDesign.has(f)).length,
  ctagsDefinitions: total,
  found,
  recall: pct(found, total),
  matchedAsOverload: overloads,
  matchedMacroNamed: macroNamed,
  byKind: Object.fromEntries(Object.entries(byKind).map(([k, s]) => [k, `${s.found}/${s.total} (${pct(s.found, s.total)})`])),
  methodsWithCtagsClass: `${scopedRight}/${scoped} (${pct(scopedRight, scoped)})`,
  ckgRowsCtagsLacks: ckgOnly.length,
  ctagsMisparsesLeftOut: falsePositives.length,
};
if (args.json) {
  console.log(JSON.stringify(result));
} else {
  for (const [k, v] of Object.entries(result)) console.log(`${k.padEnd(26)} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  const rel = (p) => p.slice(args.root.length + 1);
  if (args.misses > 0 && misses.length > 0) {
    console.log(`\nmissed (first ${Math.min(args.misses, misses.length)} of ${misses.length}):`);
    for (const t of misses.slice(0, args.misses)) console.log(`  ${rel(t.path)}:${t.line} ${t.kind} ${t.scope ? `${t.scope}::` : ''}${t.name}`);
  }
  if (args.misses > 0 && ckgOnly.length > 0) {
    console.log(`\nckg rows without a ctags tag of that name (first ${Math.min(args.misses, ckgOnly.length)} of ${ckgOnly.length}):`);
    for (const r of ckgOnly.slice(0, args.misses)) console.log(`  ${rel(r.path)}:${r.start}-${r.end} ${r.kind} ${r.parentClass ? `${r.parentClass}.` : ''}${r.name}`);
  }
}
