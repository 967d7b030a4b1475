#!/usr/bin/env node
// The `ckg-wasm` command: index a folder and search it from a terminal (Node only).
import nodeFs from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CKGDatabase, CKGError, CKGTool, createWorkerPool, type IndexReport, type ParsePool, type ProgressEvent } from '../node/index.js';

const program = new Command()
  .name('ckg-wasm')
  .description('A code knowledge graph for coding agents: index a codebase, then find functions and classes by name.')
  .showHelpAfterError();

function languages(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (ids.length === 0) throw new InvalidArgumentError('give at least one language id');
  return ids;
}

function workerCount(value: string): number {
  const n = Number.parseInt(value, 10);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('give a whole number ≥ 0');
  return n;
}

/** A worker pool unless `--workers 0` asked for in-thread parsing. */
function poolFor(workers: number | undefined): ParsePool | undefined {
  return workers === 0 ? undefined : createWorkerPool(workers === undefined ? {} : { size: workers });
}

function progressPrinter(enabled: boolean): ((e: ProgressEvent) => void) | undefined {
  if (!enabled || !process.stderr.isTTY) return undefined;
  let last = 0;
  return (e) => {
    const now = Date.now();
    if (e.phase === 'parse' && now - last < 100 && (e.filesDone !== e.filesTotal || e.walking === true)) return;
    last = now;
    process.stderr.write(`\r${e.phase} ${e.filesDone}/${e.filesTotal}${e.walking ? '+' : ''} files, ${(e.bytesDone / 1048576).toFixed(1)} MB   `);
    if (e.phase === 'done') process.stderr.write('\n');
  };
}

function summary(report: IndexReport | undefined, path: string): string {
  if (!report) return '';
  const skipped = report.skipped.length > 0 ? `, ${report.skipped.length} skipped` : '';
  const unknown = Object.entries(report.unknownExtensions)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([ext, n]) => `${ext} ${n}`)
    .join(', ');
  return (
    `Indexed ${path}: ${report.filesIndexed} files, ${report.functions} functions, ${report.classes} classes ` +
    `in ${(report.durationMs / 1000).toFixed(2)} s${skipped}` +
    (unknown ? `\nNot covered (extension: files): ${unknown}` : '')
  );
}

program
  .command('index')
  .description('Index a codebase and print what was found')
  .argument('<path>', 'codebase folder')
  .option('-l, --languages <ids>', 'comma-separated language ids to index (default: all)', languages)
  .option('--max-file-size <bytes>', 'skip larger files', (v) => Number.parseInt(v, 10))
  .option('--no-gitignore', 'do not honour .gitignore files')
  .option('--no-progress', 'do not print progress')
  .option('--skipped', 'list skipped files with their reasons')
  .option('-o, --output <file>', 'write the SQLite database to this file')
  .option('-w, --workers <n>', 'parse workers (default: one per core; 0 = parse in this thread)', workerCount)
  .action(async (path: string, opts: { languages?: string[]; maxFileSize?: number; gitignore: boolean; progress: boolean; skipped?: boolean; output?: string; workers?: number }) => {
    const codebasePath = resolve(path);
    const pool = poolFor(opts.workers);
    const db = await CKGDatabase.open({
      codebasePath,
      fs: nodeFs,
      processor: pool ?? 'this-thread',
      ...(opts.languages ? { languages: opts.languages } : {}),
      ...(opts.maxFileSize ? { maxFileSize: opts.maxFileSize } : {}),
      respectGitignore: opts.gitignore,
      ...(progressPrinter(opts.progress) ? { onProgress: progressPrinter(opts.progress)! } : {}),
    });
    try {
      console.log(summary(db.report, codebasePath));
      if (opts.skipped) for (const s of db.report?.skipped ?? []) console.log(`skipped ${s.path}: ${s.reason}${s.detail ? ` (${s.detail})` : ''}`);
      if (opts.output) {
        nodeFs.writeFileSync(opts.output, db.export());
        console.log(`Wrote ${opts.output}`);
      }
    } finally {
      db.close();
      await pool?.close();
    }
  });

program
  .command('search')
  .description('Search a codebase for functions, class methods or classes named <identifier> (the ckg tool\'s output)')
  .argument('<path>', 'codebase folder (or a file inside it)')
  .argument('<identifier...>', 'names to search for')
  .addOption(new Option('-k, --kind <kind>', 'what to search').choices(['function', 'class_method', 'class', 'all']).default('all'))
  .option('--no-body', 'print locations only')
  .option('-w, --workers <n>', 'parse workers (default: one per core; 0 = parse in this thread)', workerCount)
  .action(async (path: string, identifiers: string[], opts: { kind: string; body: boolean; workers?: number }) => {
    const pool = poolFor(opts.workers);
    const tool = new CKGTool({ fs: nodeFs, refresh: false, processor: pool ?? 'this-thread' });
    const commands =
      opts.kind === 'all'
        ? ['search_function', 'search_class_method', 'search_class']
        : [opts.kind === 'class' ? 'search_class' : `search_${opts.kind}`];
    let failed = false;
    try {
      for (const identifier of identifiers) {
        for (const command of commands) {
          const result = await tool.execute({ command, path: resolve(path), identifier, print_body: opts.body });
          if ('error' in result) {
            console.error(result.error);
            failed = true;
          } else if (opts.kind !== 'all' || !result.output.startsWith('No ')) {
            console.log(`$ ckg ${command} ${identifier}\n${result.output}\n`);
          }
        }
      }
    } finally {
      await tool.close();
      await pool?.close();
    }
    if (failed) process.exitCode = 1;
  });

program
  .command('tool')
  .description('Run one ckg tool call given as JSON arguments and print the result as JSON')
  .argument('<json>', 'e.g. \'{"command":"search_class","path":"/repo","identifier":"Widget"}\'')
  .action(async (json: string) => {
    const tool = new CKGTool({ fs: nodeFs, refresh: false });
    try {
      console.log(JSON.stringify(await tool.execute(JSON.parse(json) as Record<string, unknown>), null, 2));
    } finally {
      await tool.close();
    }
  });

// Output piped into a reader that stops early (`ckg-wasm search … | head`): stop quietly, as
// Unix tools do, instead of dying with an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CKGError) console.error(`ckg-wasm: ${error.message} [${error.code}]`);
  else console.error(error);
  process.exitCode = 1;
});
