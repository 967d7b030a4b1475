// Go build constraints (src/graph/languages/go-build.ts): which two files of a package some build
// compiles together. The graph keeps apart only what no build takes together.
import { describe, expect, it } from 'vitest';
import { builtTogether, parseBuildExpression } from '../src/graph/languages/go-build.js';

const file = (path: string, buildConstraint?: string) => (buildConstraint === undefined ? { path } : { path, buildConstraint });

describe('Go build constraints', () => {
  it('parses the //go:build grammar: !, &&, ||, parentheses, and nothing else', () => {
    expect(parseBuildExpression('linux && (amd64 || arm64) && !cgo')).toEqual({
      and: [{ and: [{ tag: 'linux' }, { or: [{ tag: 'amd64' }, { tag: 'arm64' }] }] }, { not: { tag: 'cgo' } }],
    });
    for (const bad of ['linux &&', '(linux', 'linux amd64', 'linux,amd64', '']) expect(parseBuildExpression(bad)).toBeUndefined();
  });

  it('keeps apart files for other systems or architectures, by name or by build line', () => {
    expect(builtTogether(file('p/a_linux.go'), file('p/b.go', 'plan9'))).toBe(false);
    expect(builtTogether(file('p/a.go', 'linux && arm64'), file('p/b_amd64.go'))).toBe(false);
    expect(builtTogether(file('p/a.go', 'unix'), file('p/b_windows.go'))).toBe(false);
    expect(builtTogether(file('p/a.go', 'unix && !darwin'), file('p/b_ios.go'))).toBe(false); // ios builds darwin's files: it is darwin too
    expect(builtTogether(file('p/a.go', 'go1.8'), file('p/b.go', '!go1.8'))).toBe(false);
  });

  it('takes files together whenever some build does', () => {
    expect(builtTogether(file('p/a_linux.go'), file('p/b_android.go'))).toBe(true); // android builds linux's files
    expect(builtTogether(file('p/a.go', 'unix'), file('p/b_darwin.go'))).toBe(true);
    expect(builtTogether(file('p/a.go', 'cgo && linux'), file('p/b.go', '!purego'))).toBe(true); // tags of their own: either way
    expect(builtTogether(file('p/a.go', 'linux &&'), file('p/b.go', 'windows'))).toBe(true); // unreadable: nothing kept apart
    expect(builtTogether(file('p/a.go'), file('p/b.go', 'go1.8'))).toBe(true);
  });

  it('keeps an ignored file apart from the files every build takes, not from other tagged ones', () => {
    expect(builtTogether(file('p/gen.go', 'ignore'), file('p/lib.go'))).toBe(false);
    expect(builtTogether(file('p/gen.go', 'ignore'), file('p/rules.go', 'gen'))).toBe(true);
    expect(builtTogether(file('p/gen.go', 'ignore'), file('p/other.go', 'ignore'))).toBe(true);
    // The packages it imports are built as for any program: fmt's files are fmt's.
    expect(builtTogether(file('p/gen.go', 'ignore'), file('fmt/print.go'))).toBe(true);
    expect(builtTogether(file('fmt/print.go'), file('p/gen.go', 'ignore'))).toBe(true);
    expect(builtTogether(file('gen.go', 'ignore'), file('lib.go'))).toBe(false); // the root folder is a package too
    expect(builtTogether(file('p/gen.go', 'ignore'), file('fmt/print_windows.go'))).toBe(true); // on windows
  });
});
