// examples/agent-loop: a minimal agent loop with a scripted model stand-in, calling the ckg
// tools through the OpenAI-shaped adapter, run as a user runs it (the built package).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../', import.meta.url));
const example = `${repo}examples/python-app`;

describe('examples/agent-loop', () => {
  it('answers from two strict-mode tool calls (null arguments meaning the defaults)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [`${repo}examples/agent-loop/agent.mjs`], { cwd: repo });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('  [model → search_function] {"path":null,"identifier":"parse_config","print_body":false}');
    expect(lines).toContain(`         1. ${example}/app/config.py:15-22`);
    expect(lines.at(-1)).toBe(`parse_config is at ${example}/app/config.py:15-22; Button is at ${example}/app/widgets.py:14-21.`);
  });
});
