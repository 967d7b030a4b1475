// The Bash code graph on a few scripts (test/fixtures/graph/bash): every edge, exactly. Each rule
// shows here and would change a line if it broke: functions of the file, of a file it sources
// (`source ../lib/common.sh` from bin/, relative to the script) and of what that file sources in
// turn (`source "$(dirname "${BASH_SOURCE[0]}")/log.sh"`: the script's folder), recursion, and
// what stays unresolved: builtins (`set`, `echo`), programs (`make`, `curl`: no Bash function of
// the codebase has their name), a function defined in a script nothing here sources
// (`notify_team`: not found, a caller may source it), every name outside the file where a
// sourced path is computed or outside the codebase (`source "$CONFIG"`, `. /etc/os-release`: the
// file may define anything, even `log`), and commands named by a value (`"$@"`: the callback
// `retry` runs; `"$HOOK"`).
import { describe, expect, it } from 'vitest';
import { BACKENDS } from './helpers/fixtures.js';
import { graphFixture, openGraph } from './helpers/graph.js';

const EXPECTED = [
  'bin/deploy.sh:2 calls bin/deploy.sh -> ∅ [set] unresolved:builtin',
  'bin/deploy.sh:3 imports bin/deploy.sh -> lib/common.sh [../lib/common.sh] import',
  'bin/deploy.sh:5 calls bin/deploy.sh -> ∅ [trap] unresolved:builtin',
  'bin/deploy.sh:8 calls bin/deploy.sh:build -> ∅ [make] unresolved:external',
  'bin/deploy.sh:9 calls bin/deploy.sh:build -> lib/log.sh:log [log] import',
  'bin/deploy.sh:14 calls bin/deploy.sh:upload -> lib/common.sh:die [die] import',
  'bin/deploy.sh:14 calls bin/deploy.sh:upload -> ∅ [scp] unresolved:external',
  'bin/deploy.sh:18 calls bin/deploy.sh:main -> bin/deploy.sh:build [build] local',
  'bin/deploy.sh:19 calls bin/deploy.sh:main -> lib/common.sh:retry [retry] import',
  'bin/deploy.sh:20 calls bin/deploy.sh:main -> ∅ [notify_team] unresolved:not-found',
  'bin/deploy.sh:21 calls bin/deploy.sh:main -> ∅ ["$HOOK"] unresolved:local-variable',
  'bin/deploy.sh:24 calls bin/deploy.sh -> bin/deploy.sh:main [main] local',
  'bin/other.sh:1 imports bin/other.sh -> ∅ [/etc/os-release] unresolved:external',
  'bin/other.sh:2 imports bin/other.sh -> ∅ ["$CONFIG"] unresolved:external',
  'bin/other.sh:5 calls bin/other.sh:report -> ∅ [log] unresolved:external',
  'bin/other.sh:6 calls bin/other.sh:report -> ∅ [notify_team] unresolved:external',
  'bin/other.sh:9 calls bin/other.sh -> bin/other.sh:report [report] local',
  'lib/common.sh:1 calls lib/common.sh -> ∅ [dirname] unresolved:external',
  'lib/common.sh:1 imports lib/common.sh -> lib/log.sh [./log.sh] import',
  'lib/common.sh:5 calls lib/common.sh:retry -> ∅ [shift] unresolved:builtin',
  'lib/common.sh:6 calls lib/common.sh:retry -> ∅ ["$@"] unresolved:parameter',
  'lib/common.sh:7 calls lib/common.sh:retry -> lib/common.sh:retry [retry] local',
  'lib/common.sh:12 calls lib/common.sh:die -> lib/log.sh:warn [warn] import',
  'lib/common.sh:13 calls lib/common.sh:die -> ∅ [exit] unresolved:builtin',
  'lib/common.sh:17 calls lib/common.sh:cleanup -> ∅ [rm] unresolved:external',
  'lib/log.sh:2 calls lib/log.sh:log -> ∅ [date] unresolved:external',
  'lib/log.sh:2 calls lib/log.sh:log -> ∅ [echo] unresolved:builtin',
  'lib/log.sh:6 calls lib/log.sh:warn -> lib/log.sh:log [log] local',
  'scripts/notify.sh:2 calls scripts/notify.sh:notify_team -> ∅ [curl] unresolved:external',
];

describe.each(BACKENDS)('bash code graph on %s', (backend) => {
  it('has exactly the expected edges', async () => {
    const graph = await openGraph(graphFixture('bash'), backend);
    try {
      expect(await graph.lines()).toEqual(EXPECTED);
    } finally {
      graph.close();
    }
  });
});
