// The PHP code graph stays exact through updates: after random edit sequences over two namespaces
// and the global one, whose class and function names collide on purpose, `update()` leaves exactly
// the graph a fresh build gives — every symbol, edge, resolution, dependency and binding — in
// every body mode. The edits move the edges PHP's rules make: a class or function added to or
// removed from a namespace (its files share one module), a `use` of a class, alias or function
// changed, a base or trait changed, a function that appears in the global namespace (the fallback
// of unqualified calls), fully qualified names, a file moved or deleted.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkEditSequence, checkRandomEdits } from './helpers/edit-sequence.js';

const FILES = ['p/A.php', 'p/B.php', 'q/C.php', 'q/D.php', 'g.php'];
const CLS = ['A', 'B', 'C'];
const FN = ['f', 'g'];
const NS = ['N\\P', 'N\\Q', ''];

const call = fc.oneof(
  fc.record({ t: fc.constant('plain' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('this' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('self' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('parent' as const), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('new' as const), c: fc.constantFrom(...CLS) }),
  fc.record({ t: fc.constant('static' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('typed' as const), c: fc.constantFrom(...CLS), n: fc.constantFrom(...FN) }),
  fc.record({ t: fc.constant('full' as const), ns: fc.constantFrom(...NS, 'Ext'), n: fc.constantFrom(...FN, ...CLS) }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const phpFile = fc.record({
  ns: fc.constantFrom(...NS),
  uses: fc.array(
    fc.oneof(
      fc.record({ t: fc.constant('class' as const), ns: fc.constantFrom(...NS, 'Ext'), c: fc.constantFrom(...CLS), alias: fc.option(fc.constantFrom(...CLS), { nil: undefined }) }),
      fc.record({ t: fc.constant('function' as const), ns: fc.constantFrom(...NS, 'Ext'), n: fc.constantFrom(...FN) }),
    ),
    { maxLength: 2 },
  ),
  functions: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(call, { maxLength: 2 }) }), { maxLength: 1 }),
  classes: fc.array(
    fc.record({
      kind: fc.constantFrom('class', 'trait'),
      n: fc.constantFrom(...CLS),
      base: fc.option(fc.constantFrom(...CLS, '\\Ext\\X'), { nil: undefined }),
      trait: fc.option(fc.constantFrom(...CLS), { nil: undefined }),
      methods: fc.array(fc.record({ n: fc.constantFrom(...FN), calls: fc.array(call, { maxLength: 3 }) }), { maxLength: 2 }),
    }),
    { maxLength: 2 },
  ),
});
type PhpFile = typeof phpFile extends fc.Arbitrary<infer T> ? T : never;

function callLine(c: Call, inClass: boolean): string {
  switch (c.t) {
    case 'plain':
      return `${c.n}();`;
    case 'this':
      return inClass ? `$this->${c.n}();` : `${c.n}();`;
    case 'self':
      return inClass ? `self::${c.n}();` : `${c.n}();`;
    case 'parent':
      return inClass ? `parent::${c.n}();` : `${c.n}();`;
    case 'new':
      return `new ${c.c}();`;
    case 'static':
      return `${c.c}::${c.n}();`;
    case 'typed':
      return `(function (${c.c} $v) { $v->${c.n}(); })(null);`;
    case 'full': {
      const prefix = c.ns === '' ? '\\' : `\\${c.ns}\\`;
      return CLS.includes(c.n) ? `new ${prefix}${c.n}();` : `${prefix}${c.n}();`;
    }
  }
}

function render(file: PhpFile): string {
  const lines = ['<?php'];
  if (file.ns !== '') lines.push(`namespace ${file.ns};`);
  for (const u of file.uses) {
    const prefix = u.ns === '' ? '' : `${u.ns}\\`;
    if (u.t === 'class') lines.push(`use ${prefix}${u.c}${u.alias ? ` as ${u.alias}` : ''};`);
    else lines.push(`use function ${prefix}${u.n};`);
  }
  for (const f of file.functions) lines.push(`function ${f.n}() {`, ...f.calls.map((c) => `  ${callLine(c, false)}`), '}');
  for (const c of file.classes) {
    const extendsClause = c.kind === 'class' && c.base ? ` extends ${c.base}` : '';
    lines.push(`${c.kind} ${c.n}${extendsClause} {`);
    if (c.trait) lines.push(`  use ${c.trait};`);
    for (const m of c.methods) lines.push(`  public function ${m.n}() {`, ...m.calls.map((x) => `    ${callLine(x, true)}`), '  }');
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}

describe('the PHP code graph after updates equals a fresh build', () => {
  it('random namespaces, uses, bases, traits and calls over colliding names', async () => {
    const content = phpFile.map(render);
    await checkRandomEdits('php', FILES, content, 40);
  });

  it('a function added to the global namespace becomes the target of unqualified calls in a namespace', async () => {
    await checkEditSequence(
      'php',
      FILES,
      ['<?php\nnamespace N\\P;\nfunction g() { f(); }\n', '<?php\n', '<?php\n', '<?php\n', '<?php\nfunction h() {}\n'],
      [
        { type: 'write', file: 4, content: '<?php\nfunction f() {}\n' },
        { type: 'write', file: 1, content: '<?php\nnamespace N\\P;\nfunction f() {}\n' },
        { type: 'delete', file: 1 },
        { type: 'write', file: 4, content: '<?php\nfunction h() {}\n' },
      ],
      'stored',
    );
  });
});
