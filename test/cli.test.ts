import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The `ckg-wasm` command as users run it: the built CLI (`npm test` builds dist/ first).
const run = promisify(execFile);
const repo = fileURLToPath(new URL('../', import.meta.url));
const cli = (...args: string[]) => run(process.execPath, [`${repo}dist/cli/main.js`, ...args], { cwd: repo });
const example = `${repo}examples/python-app`;

describe('ckg-wasm CLI', () => {
  it('search prints the ckg tool output for each name', async () => {
    const { stdout } = await cli('search', 'examples/python-app', 'parse_config', 'Button', '--no-body', '--workers', '1');
    expect(stdout).toContain(`$ ckg search_function parse_config\nFound 1 function named parse_config:\n1. ${example}/app/config.py:15-22\n`);
    expect(stdout).toContain(`$ ckg search_class Button\nFound 1 class named Button:\n1. ${example}/app/widgets.py:14-21\n`);
    // Misses of the other kinds are left out when searching every kind.
    expect(stdout).not.toContain('No classes named parse_config');
  });

  it('index reports counts and the extensions no language covers', async () => {
    const { stdout } = await cli('index', example, '--no-progress', '--workers', '0');
    expect(stdout).toMatch(new RegExp(`^Indexed ${example}: 4 files, 9 functions, 3 classes in [0-9.]+ s\\nNot covered \\(extension: files\\): \\.md 1\\n$`));
  });

  it('tool runs one JSON call, and errors exit non-zero', async () => {
    const { stdout } = await cli('tool', JSON.stringify({ command: 'search_class_method', path: example, identifier: 'click', print_body: false }));
    expect(JSON.parse(stdout)).toEqual({ output: `Found 1 class method named click:\n1. ${example}/app/widgets.py:20-21 within class Button\n` });
    await expect(cli('index', `${repo}does-not-exist`, '--workers', '0')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('NOT_FOUND') });
  });
});
