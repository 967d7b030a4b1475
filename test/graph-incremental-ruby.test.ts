// The Ruby code graph stays exact through updates: classes and modules are reopened across files
// (one class, its first definition by path standing for it, its methods every reopening's), so an
// edit in one file changes what calls in another resolve to. After random edit sequences over
// files that reopen the same classes and modules, with mixins, superclasses, top-level methods
// and colliding method names, `update()` leaves exactly the graph a fresh build gives.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkEditSequence, checkRandomEdits } from './helpers/edit-sequence.js';

const FILES = ['a.rb', 'lib/b.rb', 'lib/c.rb', 'z.rb'];
const CLS = ['A', 'B', 'M'];
const FN = ['f', 'g'];

const call = fc.oneof(
  fc.record({ t: fc.constant('self' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('super' as const) }),
  fc.record({ t: fc.constant('new' as const), c: fc.constantFrom(...CLS, 'N::A') }),
  fc.record({ t: fc.constant('class' as const), c: fc.constantFrom(...CLS, 'N::A'), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('local' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const rubyFile = fc.record({
  requires: fc.array(fc.constantFrom('./b', 'lib/c', 'c', 'json'), { maxLength: 1 }),
  nest: fc.boolean(),
  topLevel: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(call, { maxLength: 2 }) }), { maxLength: 1 }),
  classes: fc.array(
    fc.record({
      kind: fc.constantFrom('class', 'module'),
      n: fc.constantFrom(...CLS),
      base: fc.option(fc.constantFrom(...CLS, 'Ext'), { nil: undefined }),
      mixin: fc.option(fc.constantFrom(...CLS), { nil: undefined }),
      methods: fc.array(fc.record({ n: fc.constantFrom(...FN, 'initialize'), calls: fc.array(call, { maxLength: 3 }) }), { maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 2 },
  ),
});
type RubyFile = typeof rubyFile extends fc.Arbitrary<infer T> ? T : never;

function callLine(c: Call): string {
  switch (c.t) {
    case 'self':
      return c.n;
    case 'super':
      return 'super';
    case 'new':
      return `${c.c}.new`;
    case 'class':
      return `${c.c}.${c.n}`;
    case 'local':
      return `x = ${c.c}.new; x.${c.n}`;
  }
}

function render(file: RubyFile): string {
  const lines = file.requires.map((r) => (r.startsWith('./') ? `require_relative '${r.slice(2)}'` : `require '${r}'`));
  for (const f of file.topLevel) lines.push(`def ${f.n}`, ...f.calls.map(callLine), 'end');
  if (file.nest) lines.push('module N');
  for (const c of file.classes) {
    const base = c.kind === 'class' && c.base ? ` < ${c.base}` : '';
    lines.push(`${c.kind} ${c.n}${base}`);
    if (c.mixin) lines.push(`  include ${c.mixin}`);
    for (const m of c.methods) lines.push(`  def ${m.n}`, ...m.calls.map((x) => `    ${callLine(x)}`), '  end');
    lines.push('end');
  }
  if (file.nest) lines.push('end');
  return `${lines.join('\n')}\n`;
}

describe('the Ruby code graph after updates equals a fresh build', () => {
  it('random reopened classes and modules, mixins, bases, requires and calls over colliding names', async () => {
    const content = rubyFile.map(render);
    await checkRandomEdits('ruby', FILES, content, 40);
  });

  it('a reopening in a file that sorts first becomes the class; a method moved between reopenings is followed', async () => {
    await checkEditSequence(
      'ruby',
      FILES,
      ['class A\n  def f\n    g\n  end\nend\n', 'class A\n  def g\n  end\nend\n', 'class B < A\n  def h\n    f\n    A.new\n  end\nend\n', 'x = A.new\nx.g\n'],
      [
        { type: 'move', from: 0, to: 3 },
        { type: 'write', file: 0, content: 'class A\n  include M\nend\nmodule M\n  def g\n  end\nend\n' },
        { type: 'write', file: 1, content: 'class A\nend\n' },
        { type: 'delete', file: 0 },
      ],
      'stored',
    );
  });
});
