// The Scala code graph stays exact through updates: after random edit sequences over classes,
// traits and objects whose names collide on purpose, mixed in with `extends … with …` in either
// order, `update()` leaves exactly the graph a fresh build gives, in every body mode. The edits
// move what Scala's rules read across files: a trait mixed in later that overrides a member an
// earlier base defines (the call becomes ambiguous, and back), `super.m()` and `super[T].m()`, a
// base outside the codebase, `private` members (not inherited), companion objects, a class turned
// into a trait, a file moved or deleted.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkRandomEdits } from './helpers/edit-sequence.js';

const NAMES = ['A', 'B', 'C'];
const BASES = [...NAMES, 'Ext'];

const call = fc.oneof(
  fc.record({ t: fc.constant('plain' as const), n: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('this' as const), n: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('super' as const), n: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('superOf' as const), base: fc.constantFrom(...NAMES), n: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('new' as const), c: fc.constantFrom(...NAMES), n: fc.constantFrom('m', 'n') }),
  fc.record({ t: fc.constant('object' as const), c: fc.constantFrom(...NAMES), n: fc.constantFrom('m', 'n') }),
);
type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

const typeDecl = fc.record({
  kind: fc.constantFrom('class', 'trait', 'object'),
  name: fc.constantFrom(...NAMES),
  bases: fc.array(fc.constantFrom(...BASES), { maxLength: 2 }),
  members: fc.array(
    fc.record({ name: fc.constantFrom('m', 'n'), isPrivate: fc.boolean(), isOverride: fc.boolean(), calls: fc.array(call, { maxLength: 2 }) }),
    { maxLength: 2 },
  ),
});
type TypeDecl = typeof typeDecl extends fc.Arbitrary<infer T> ? T : never;

function scalaCall(c: Call): string {
  switch (c.t) {
    case 'plain':
      return `${c.n}()`;
    case 'this':
      return `this.${c.n}()`;
    case 'super':
      return `super.${c.n}()`;
    case 'superOf':
      return `super[${c.base}].${c.n}()`;
    case 'new':
      return `new ${c.c}().${c.n}()`;
    case 'object':
      return `${c.c}.${c.n}()`;
  }
}

function scala(types: readonly TypeDecl[]): string {
  const lines = ['package s', ''];
  for (const t of types) {
    const [first, ...rest] = t.bases;
    const bases = first === undefined ? '' : ` extends ${first}${rest.map((b) => ` with ${b}`).join('')}`;
    lines.push(`${t.kind} ${t.name}${bases} {`);
    for (const m of t.members) {
      const modifiers = `${m.isPrivate ? 'private ' : ''}${m.isOverride ? 'override ' : ''}`;
      const body = m.calls.length === 0 ? '0' : m.calls.map(scalaCall).join(' + ');
      lines.push(`  ${modifiers}def ${m.name}(): Int = ${body}`);
    }
    lines.push('}', '');
  }
  return lines.join('\n');
}

describe('the Scala code graph after updates equals a fresh build', () => {
  it('random classes, traits and objects over colliding names, mixed in either order', async () => {
    const content = fc.array(typeDecl, { minLength: 1, maxLength: 2 }).map(scala);
    await checkRandomEdits('scala', ['s/A.scala', 's/B.scala', 's/C.scala'], content, 30);
  });
});
