#!/usr/bin/env node
// The public API of every package entry, from the built declarations (run `npm run build` first):
//
// - an API report per entry, docs/api/<entry>.api.md (api-extractor), committed and reviewed
//   like code; test/api-report.test.ts fails when one is stale;
// - the API reference, docs/api/reference/ (api-documenter: a page per export and member),
//   generated from the TSDoc comments.
//
// The entries are the `exports` of package.json that have a `types` condition: a new entry is
// documented by its line there, nothing else. An entry that re-exports another entry
// (`export * from '../index.js'` in ckg-wasm/node) is documented for its own additions; the
// re-exported names are documented once, under the entry that owns them.
//
//   node scripts/api.mjs           check: fails when a report differs from the declarations
//   node scripts/api.mjs --local   update: rewrites the reports and the reference
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const REPORTS = join(root, 'docs', 'api');
const REFERENCE = join(REPORTS, 'reference');
const TEMP = join(root, 'temp', 'api');

/** `ckg-wasm`, `ckg-wasm/node`, … for the `exports` keys `.`, `./node`, … with a `types` condition. */
export function typedEntries(pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))) {
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target !== null && typeof target.types === 'string')
    .map(([key, target]) => {
      const name = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
      return { name, key, types: join(root, target.types), file: name.replace(/\//g, '-') };
    });
}

/**
 * The declarations api-extractor reads for an entry: its types file without the `export *`
 * lines that re-export another entry (written beside it, so relative imports still resolve).
 */
function ownDeclarations(entry, entries) {
  const text = readFileSync(entry.types, 'utf8');
  const others = new Set(entries.filter((e) => e !== entry).map((e) => e.types));
  const reexported = [];
  const kept = text.split('\n').filter((line) => {
    const match = /^export \* from '([^']+)';$/.exec(line.trim());
    if (!match) return true;
    const target = resolve(dirname(entry.types), match[1].replace(/\.js$/, '.d.ts'));
    if (!others.has(target)) return true;
    reexported.push(entries.find((e) => e.types === target).name);
    return false;
  });
  if (reexported.length === 0) return { path: entry.types, reexported, cleanup: () => undefined };
  const path = entry.types.replace(/\.d\.ts$/, '.api-entry.d.ts');
  writeFileSync(path, kept.join('\n'));
  return { path, reexported, cleanup: () => rmSync(path, { force: true }) };
}

/** The names a report's entry exports: `export interface X`, and `export { X_2 as X }` for renamed ones. */
function exportedNames(report) {
  const names = new Set([...report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/gm)].map((m) => m[1]));
  for (const [, list] of report.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const part of list.split(',')) names.add(part.trim().split(/\s+as\s+/).pop());
  }
  return names;
}

/**
 * Runs api-extractor for every entry. Returns, per entry, whether its report changed, the
 * messages worth failing for, and the undocumented items the report lists.
 */
export function extractApi({ local = false, docModel = false } = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = typedEntries(pkg);
  const base = JSON.parse(readFileSync(join(root, 'api-extractor.json'), 'utf8'));
  mkdirSync(REPORTS, { recursive: true });
  mkdirSync(join(TEMP, 'model'), { recursive: true });
  const results = [];
  /** Names each entry's report declares, for entries that re-export it. */
  const declared = new Map();
  for (const entry of entries) {
    if (!existsSync(entry.types)) throw new Error(`${relative(root, entry.types)} is missing: run \`npm run build\` first`);
    const own = ownDeclarations(entry, entries);
    try {
      const configObject = {
        ...base,
        projectFolder: root,
        mainEntryPointFilePath: own.path,
        // Analysed without the DOM lib: its globals (FileSystem, Storage, ProgressEvent) would
        // clash with exports of the same names, which api-extractor then renames (`FileSystem_2`).
        compiler: {
          overrideTsconfig: {
            compilerOptions: { target: 'ES2022', lib: ['ES2022'], types: ['node'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true },
            files: [own.path],
          },
        },
        apiReport: { enabled: true, reportFileName: entry.file, reportFolder: REPORTS, reportTempFolder: join(TEMP, 'reports') },
        docModel: { enabled: docModel, apiJsonFilePath: join(TEMP, 'model', `${entry.file}.api.json`) },
        messages: {
          ...base.messages,
          extractorMessageReporting: {
            ...base.messages?.extractorMessageReporting,
            // Reported here instead (below), where a name another entry exports is not forgotten.
            'ae-forgotten-export': { logLevel: 'warning', addToApiReportFile: false },
          },
        },
      };
      // api-extractor names a report and a doc model after the package: entries other than the
      // main one get their own (package names cannot contain `/`; the model is renamed below).
      const config = ExtractorConfig.prepare({
        configObject,
        configObjectFullPath: join(root, 'api-extractor.json'),
        packageJsonFullPath: join(root, 'package.json'),
        packageJson: { ...pkg, name: entry.file },
      });
      const messages = [];
      const result = Extractor.invoke(config, {
        localBuild: local,
        messageCallback: (message) => {
          message.handled = true;
          if (message.logLevel !== 'error' && message.logLevel !== 'warning') return;
          // Whether the report changed is reported below, from the result.
          if (message.messageId.startsWith('console-api-report-')) return;
          const forgotten = message.messageId === 'ae-forgotten-export' ? /"(\w+?)(?:_\d+)?"/.exec(message.text)?.[1] : undefined;
          messages.push({ text: `${message.messageId}: ${message.text}`, forgotten });
        },
      });
      const report = readFileSync(join(local ? REPORTS : join(TEMP, 'reports'), `${entry.file}.api.md`), 'utf8');
      const undocumented = report.split('\n').filter((line) => line.includes('(undocumented)')).length;
      declared.set(entry.name, exportedNames(report));
      results.push({ entry: entry.name, reexported: own.reexported, changed: result.apiReportChanged, succeeded: result.succeeded, messages, undocumented });
    } finally {
      own.cleanup();
    }
  }
  // A forgotten export is fine when another entry exports that name (`ckg-wasm/mcp` naming
  // `CKGTool`, `ckg-wasm/node` extending `FileProcessor`): it is documented there.
  return results.map((r) => {
    const elsewhere = new Set([...declared].filter(([name]) => name !== r.entry).flatMap(([, names]) => [...names]));
    return { ...r, messages: r.messages.filter((m) => m.forgotten === undefined || !elsewhere.has(m.forgotten)).map((m) => m.text) };
  });
}

/**
 * Writes the reference pages with api-documenter from the doc models `extractApi` wrote
 * (`results` says which entries re-export which).
 */
export function writeReference(results, outputFolder = REFERENCE) {
  const entries = typedEntries();
  const documenter = join(dirname(require.resolve('@microsoft/api-documenter/package.json')), 'bin', 'api-documenter');
  execFileSync(process.execPath, [documenter, 'markdown', '--input-folder', join(TEMP, 'model'), '--output-folder', outputFolder], { stdio: ['ignore', 'ignore', 'inherit'] });
  // Pages name an entry as its model does (`ckg-wasm-node`: package names cannot hold `/`);
  // readers import `ckg-wasm/node`. An entry that re-exports another says so on its page.
  for (const name of readdirSync(outputFolder)) {
    const path = join(outputFolder, name);
    let text = readFileSync(path, 'utf8').replace(/\r\n/g, '\n');
    for (const entry of entries.filter((e) => e.file !== e.name)) {
      text = text.replaceAll(`[${entry.file}]`, `[${entry.name}]`).replaceAll(`${entry.file} package`, `${entry.name} package`);
      const reexported = results.find((r) => r.entry === entry.name)?.reexported ?? [];
      if (name === `${entry.file}.md` && reexported.length > 0) {
        const links = reexported.map((other) => `[${other}](./${other.replace(/\//g, '-')}.md)`).join(', ');
        text = text.replace(/(## .* package\n)/, `$1\nEverything of ${links}, plus the exports below.\n`);
      }
    }
    writeFileSync(path, text);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const local = process.argv.includes('--local');
  const results = extractApi({ local, docModel: local });
  let failed = false;
  for (const r of results) {
    const problems = [...r.messages, ...(r.undocumented > 0 ? [`${r.undocumented} undocumented items (see docs/api/${r.entry.replace(/\//g, '-')}.api.md)`] : [])];
    if (!local && r.changed) problems.push('the API report is out of date: run `npm run api:update`');
    console.log(`${r.entry}${r.reexported.length ? ` (plus everything of ${r.reexported.join(', ')})` : ''}: ${problems.length === 0 ? 'ok' : problems.join('\n  ')}`);
    failed ||= problems.length > 0;
  }
  if (local) {
    writeReference(results);
    console.log(`wrote ${relative(root, REFERENCE)}/`);
  }
  if (failed) process.exit(1);
}
