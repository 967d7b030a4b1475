// Lua and Bash graphs stay exact through updates where their rules read another file: a Lua call
// through `require` follows what the module returns (its `<return>` export binding) and the
// functions of that table; a global function or table may appear or go in any file; a Bash
// command follows what a sourced file (and what it sources) defines. Each step is compared with a
// fresh build.
import { describe, it } from 'vitest';
import { checkEditSequence } from './helpers/edit-sequence.js';

describe('the Lua graph after updates equals a fresh build', () => {
  it('when the table a module returns, its functions or a global change', async () => {
    await checkEditSequence(
      'lua',
      ['a.lua', 'b.lua', 'c.lua'],
      ['local M = {}\nfunction M.f() end\nreturn M\n', 'local a = require("a")\nfunction run()\n  a.f()\n  g()\n  T.h()\nend\n', 'function g() end\n'],
      [
        { type: 'write', file: 0, content: 'local M = {}\nlocal N = {}\nfunction N.f() end\nfunction M.f() end\nreturn N\n' },
        { type: 'write', file: 0, content: 'local N = {}\nreturn N\n' },
        { type: 'write', file: 2, content: 'T = {}\nfunction T.h() end\n' },
        { type: 'write', file: 0, content: 'local M = {}\nfunction M.f() end\nfunction g() end\nreturn M\n' },
        { type: 'move', from: 0, to: 2 },
        { type: 'delete', file: 2 },
      ],
      'stored',
    );
  });
});

describe('the Bash graph after updates equals a fresh build', () => {
  it('when a sourced file, or a file it sources, changes what it defines', async () => {
    await checkEditSequence(
      'bash',
      ['bin/run.sh', 'lib/a.sh', 'lib/b.sh'],
      ['source ../lib/a.sh\nmain() {\n  log x\n  helper\n}\nmain\n', 'source ./b.sh\n', 'log() { echo "$@"; }\n'],
      [
        { type: 'write', file: 1, content: 'source ./b.sh\nhelper() { log y; }\n' },
        { type: 'write', file: 2, content: 'warn() { echo "$@"; }\n' },
        { type: 'write', file: 1, content: 'helper() { :; }\nlog() { :; }\n' },
        { type: 'delete', file: 1 },
        { type: 'move', from: 2, to: 1 },
      ],
      'stored',
    );
  });
});
