import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CKGDatabase, CKGTool } from '../src/index.js';
import { CLI_COMMANDS } from '../src/cli/subcommands.js';
import { findCommand, TOOL_COMMANDS } from '../src/tool/commands.js';

// The `ckg-wasm` command as users run it: the built CLI (`npm test` builds dist/ first), with
// its index cache in a temp folder (XDG_CACHE_HOME) instead of the user's.
const run = promisify(execFile);
const repo = fileURLToPath(new URL('../', import.meta.url));
const main = `${repo}dist/cli/main.js`;
const example = `${repo}examples/python-app`;
let scratch: string;
let cache: string;
const env = (): NodeJS.ProcessEnv => ({ ...process.env, XDG_CACHE_HOME: cache });
const cli = (...args: string[]) => run(process.execPath, [main, ...args], { cwd: repo, env: env() });
/** Exit code, stdout and stderr of a run that may fail. */
async function outcome(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await cli(...args);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ckg-cli-'));
  cache = join(scratch, 'cache');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('ckg-wasm CLI', () => {
  it('search prints the ckg tool output for each name', async () => {
    const { stdout } = await cli('search', 'examples/python-app', 'parse_config', 'Button', '--no-body', '--workers', '1');
    expect(stdout).toContain(`$ ckg search_function parse_config\nFound 1 function named parse_config:\n1. ${example}/app/config.py:15-22\n`);
    expect(stdout).toContain(`$ ckg search_class Button\nFound 1 class named Button:\n1. ${example}/app/widgets.py:14-21\n`);
    // Misses of the other kinds are left out when searching every kind.
    expect(stdout).not.toContain('No classes named parse_config');
  });

  it('index reports counts and the extensions no language covers, then reuses its stored index', async () => {
    const fresh = join(scratch, 'index-cache');
    const first = await run(process.execPath, [main, 'index', example, '--no-progress', '--workers', '0', '--cache-dir', fresh]);
    expect(first.stdout).toMatch(new RegExp(`^Indexed ${example}: 4 files, 9 functions, 3 classes in [0-9.]+ s\\nNot covered \\(extension: files\\): \\.md 1\\n$`));
    // The index, and beside it the folder listings a later call's freshness walk reuses (and the
    // snapshot memo, kept when the files are older than the racy window: a fresh checkout's are not).
    const kept = readdirSync(fresh).filter((n) => n.endsWith('.db'));
    expect(kept.filter((n) => n.endsWith('.folders.db'))).toHaveLength(1);
    expect(kept.filter((n) => !n.endsWith('.folders.db') && !n.endsWith('.walk.db'))).toHaveLength(1);
    expect(kept.length).toBeLessThanOrEqual(3);
    const second = await run(process.execPath, [main, 'index', example, '--workers', '0', '--cache-dir', fresh]);
    expect(second.stdout).toMatch(/^Indexed .*: 4 files, 9 functions, 3 classes in [0-9.]+ s, reused from the cache\n/);
    const none = join(scratch, 'no-cache');
    await run(process.execPath, [main, 'index', example, '--workers', '0', '--no-cache', '--cache-dir', none]);
    expect(() => readdirSync(none)).toThrow();
  });

  it('tool runs one JSON call; errors print once, prefixed, with their code', async () => {
    const { stdout } = await cli('tool', JSON.stringify({ command: 'search_class_method', path: example, identifier: 'click', print_body: false }));
    expect(JSON.parse(stdout)).toEqual({ output: `Found 1 class method named click:\n1. ${example}/app/widgets.py:20-21 within class Button\n` });
    const missing = await outcome('index', `${repo}does-not-exist`, '--workers', '0');
    expect(missing).toMatchObject({ code: 2, stderr: `ckg-wasm: Codebase path ${repo}does-not-exist does not exist [NOT_FOUND]\n` });
    // One message for a bad path, however many names and kinds were asked.
    const search = await outcome('search', `${repo}does-not-exist`, 'a', 'b');
    expect(search).toMatchObject({ code: 2, stderr: `ckg-wasm: Codebase path ${repo}does-not-exist does not exist [NOT_FOUND]\n` });
    const bad = await outcome('tool', 'not json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^ckg-wasm: the tool arguments are not JSON: .* \[INVALID_ARGUMENT\]\n$/);
    const toolError = await outcome('tool', JSON.stringify({ command: 'nope', path: example, identifier: 'x' }));
    expect(toolError.code).toBe(2);
    expect(JSON.parse(toolError.stdout)).toEqual({ error: 'Invalid command: nope' });
  });

  it('exits like grep: 0 found, 1 nothing found, 2 usage error', async () => {
    expect(await outcome('function', 'parse_config', example, '--no-body', '--workers', '0')).toMatchObject({
      code: 0,
      stdout: `Found 1 function named parse_config:\n1. ${example}/app/config.py:15-22\n\n`,
    });
    expect(await outcome('class', 'NoSuchClass', example, '--workers', '0')).toMatchObject({ code: 1, stdout: 'No classes named NoSuchClass found.\n' });
    expect((await outcome('search', example, 'nothing_here')).code).toBe(1);
    const usage = await outcome('index', example, '--max-file-size', 'abc');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("option '--max-file-size <bytes>' argument 'abc' is invalid");
    expect((await outcome('index', example, '--max-file-size', '-1')).code).toBe(2);
    expect((await outcome('index', example, '--bodies', 'zipped')).code).toBe(2);
    expect(await outcome('--version')).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(`${repo}package.json`, 'utf8')).version}\n` });
  });

  it('has one subcommand per command of the table, answering as the tool does', async () => {
    const { stdout: help } = await cli('--help');
    const tool = new CKGTool({ fs: nodeFs, refresh: false });
    try {
      for (const { cli: name, command } of CLI_COMMANDS) {
        const registered = new RegExp(`^  ${name} `, 'm').test(help);
        expect(registered, name).toBe(findCommand(command) !== undefined);
      }
      // Every command of the table has a subcommand.
      for (const command of TOOL_COMMANDS) expect(CLI_COMMANDS.map((c) => c.command)).toContain(command.name);
      for (const { cli: name, command } of CLI_COMMANDS.filter((c) => findCommand(c.command))) {
        const spec = findCommand(command)!;
        const result = await outcome(name, 'parse_config', example, '--json', ...(spec.printsBodies ? ['--no-body'] : []), '--workers', '0');
        const expected = await tool.call({ command, path: example, identifier: 'parse_config', print_body: false });
        expect('output' in expected).toBe(true);
        if (!('output' in expected)) continue;
        expect(JSON.parse(result.stdout)).toEqual({ output: expected.output, found: expected.found, ...(expected.structured ? { structured: expected.structured } : {}) });
        expect(result.code).toBe(expected.found ? 0 : 1);
      }
    } finally {
      await tool.close();
    }
  });

  it('index -o writes atomically: a failed write (file size limit) keeps the previous good file', async () => {
    const out = join(scratch, 'out.db');
    await cli('index', example, '-o', out, '--workers', '0', '--no-cache');
    const good = join(scratch, 'good.db');
    copyFileSync(out, good);
    // 8 KiB of file size allowed: writing the database fails with EFBIG part-way.
    const limited = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile('/bin/sh', ['-c', `ulimit -f 8; exec "${process.execPath}" "${main}" index "${example}" -o "${out}" --workers 0 --no-cache --bodies stored`], { env: env() }, (error, _stdout, stderr) =>
        resolve({ code: error ? (error as { code: number }).code : 0, stderr }),
      );
    });
    expect(limited.code).toBe(2);
    expect(limited.stderr).toMatch(new RegExp(`^ckg-wasm: Cannot write ${out}: EFBIG.* \\[FS_ERROR\\]\\n$`));
    expect(readFileSync(out).equals(readFileSync(good))).toBe(true);
    expect(readdirSync(scratch).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // Bad -o paths fail at once, before any indexing, with one line.
    expect(await outcome('index', example, '-o', join(scratch, 'no/such/folder/x.db'))).toMatchObject({
      code: 2,
      stderr: `ckg-wasm: Cannot write ${join(scratch, 'no/such/folder/x.db')}: folder ${join(scratch, 'no/such/folder')} does not exist [FS_ERROR]\n`,
    });
    expect(await outcome('index', example, '-o', scratch)).toMatchObject({ code: 2, stderr: `ckg-wasm: Cannot write ${scratch}: it is a folder [FS_ERROR]\n` });
  });

  it('--bodies compressed writes bytes that answer with bodies without the codebase', async () => {
    const out = join(scratch, 'compressed.db');
    await cli('index', example, '-o', out, '--bodies', 'compressed', '--workers', '0', '--no-cache');
    const db = await CKGDatabase.fromBytes(new Uint8Array(readFileSync(out)));
    try {
      const [entry] = await db.queryFunction('parse_config');
      expect(entry!.body).toBe(readFileSync(`${example}/app/config.py`, 'utf8').split('\n').slice(14, 22).join('\n'));
    } finally {
      db.close();
    }
  });

  it('--db reads and writes one exported database file', async () => {
    const file = join(scratch, 'shared.db');
    expect((await outcome('class', 'Button', example, '--db', file, '--workers', '0')).code).toBe(0);
    const written = readFileSync(file);
    const again = await outcome('index', example, '--db', file, '--workers', '0');
    expect(again.stdout).toContain('reused from the cache');
    expect(readFileSync(file).equals(written)).toBe(true);
  });

  it('draws a progress bar on a terminal, and nothing on a pipe', async () => {
    const tty = await run('/usr/bin/script', ['-qec', `"${process.execPath}" "${main}" index "${example}" --workers 0 --no-cache`, '/dev/null'], { env: env() });
    expect(tty.stdout).toMatch(/(scan|parse|write) +\[[#.]{24}\] \d+\/\d+\+? files, [0-9.]+ MB\/s, ETA /);
    const piped = await cli('index', example, '--workers', '0', '--no-cache');
    expect(piped.stderr).toBe('');
  });
});
