// The Go code graph stays exact through updates where receivers are typed by struct fields
// declared in other files: after random edit sequences over one package whose struct, field and
// method names collide on purpose (fields typed by the package's structs, by none, or embedded,
// methods declared in other files than their structs, defined types of a basic kind with
// methods, conversions, type assertions and switches, ranging and indexing, package-level values of declared types, values read from paths, interface methods' results, results of methods of values made in the call, elements of fields' containers, chains of results), `update()` leaves exactly the graph a
// fresh build gives: every edge's target, resolution and dependencies.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkRandomEdits } from './helpers/edit-sequence.js';

const STRUCTS = ['S', 'T', 'U'];
const FIELDS = ['a', 'b'];
const METHODS = ['M', 'N'];

const field = fc.record({
  name: fc.constantFrom(...FIELDS),
  type: fc.constantFrom('*S', 'T', '*U', 'int', 'func()', 'interface{ M() }', 'ext.X', '[]*S', 'map[int]T', 'chan *U'),
});
const struct = fc.record({
  name: fc.constantFrom(...STRUCTS),
  // A defined type of another kind (`type S int`, `type S []*T`) is a class too, without fields.
  defined: fc.boolean(),
  slice: fc.option(fc.constantFrom(...STRUCTS), { nil: undefined }),
  fields: fc.uniqueArray(field, { maxLength: 2, selector: (f) => f.name }),
  embedded: fc.option(fc.constantFrom(...STRUCTS, 'ext.Y'), { nil: undefined }),
});
const call = fc.oneof(
  fc.record({ t: fc.constant('field' as const), f: fc.constantFrom(...FIELDS), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('self' as const), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('param' as const), f: fc.constantFrom(...FIELDS), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('typed' as const), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('convert' as const), to: fc.constantFrom(...STRUCTS) }),
  fc.record({ t: fc.constant('assert' as const), to: fc.constantFrom(...STRUCTS), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('switch' as const), to: fc.constantFrom(...STRUCTS), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('range' as const), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('value' as const), v: fc.constantFrom('g', 'h'), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('read' as const), from: fc.constantFrom('r.a', 'p.b', 'g', 'p'), m: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('result' as const), to: fc.constantFrom('I', 'J'), m: fc.constantFrom(...METHODS), n: fc.constantFrom(...METHODS) }),
  // A method of a value made in the call (`new(S).M()`, `(&S{}).M()`), whose declared result types w.
  // Elements of a field's container (`r.a[0].M()`, `for _, e := range p.b`), declared with the struct.
  fc.record({ t: fc.constant('element' as const), from: fc.constantFrom('r', 'p'), f: fc.constantFrom(...FIELDS), m: fc.constantFrom(...METHODS) }),
  // Along a chain of methods' results, and through a local holding one (`r.M().N().M()`).
  fc.record({ t: fc.constant('chain' as const), m: fc.constantFrom(...METHODS), n: fc.constantFrom(...METHODS) }),
  fc.record({ t: fc.constant('made' as const), to: fc.constantFrom(...STRUCTS), literal: fc.boolean(), m: fc.constantFrom(...METHODS), n: fc.constantFrom(...METHODS) }),
);
const method = fc.record({
  receiver: fc.constantFrom(...STRUCTS),
  name: fc.constantFrom(...METHODS),
  param: fc.constantFrom(...STRUCTS),
  returns: fc.option(fc.constantFrom(...STRUCTS), { nil: undefined }),
  calls: fc.array(call, { maxLength: 3 }),
});
// Package-level values of the package's types, declared in any file (`var g *S`).
const value = fc.record({ name: fc.constantFrom('g', 'h'), type: fc.constantFrom(...STRUCTS, 'int') });
// Interfaces whose methods declare what they return (`type I interface { M() *S }`).
const iface = fc.record({ name: fc.constantFrom('I', 'J'), method: fc.constantFrom(...METHODS), returns: fc.constantFrom(...STRUCTS, 'int') });
const file = fc.record({
  structs: fc.array(struct, { maxLength: 2 }),
  methods: fc.array(method, { maxLength: 2 }),
  values: fc.array(value, { maxLength: 1 }),
  interfaces: fc.array(iface, { maxLength: 1 }),
});
type GoFile = typeof file extends fc.Arbitrary<infer T> ? T : never;

function render(f: GoFile): string {
  const lines = ['package m', '', 'import "example.com/ext"', '', 'var _ = ext.Z'];
  for (const s of f.structs) {
    if (s.defined) {
      lines.push(s.slice ? `type ${s.name} []*${s.slice}` : `type ${s.name} int`, '');
      continue;
    }
    lines.push(`type ${s.name} struct {`);
    if (s.embedded) lines.push(`\t${s.embedded}`);
    for (const x of s.fields) lines.push(`\t${x.name} ${x.type}`);
    lines.push('}', '');
  }
  for (const v of f.values) lines.push(`var ${v.name} *${v.type}`, '');
  for (const i of f.interfaces) lines.push(`type ${i.name} interface {`, `\t${i.method}() *${i.returns}`, '}', '');
  for (const m of f.methods) {
    lines.push(`func (r *${m.receiver}) ${m.name}(p *${m.param}, q any, ps []*${m.param})${m.returns ? ` *${m.returns}` : ''} {`);
    for (const c of m.calls) {
      if (c.t === 'field') lines.push(`\tr.${c.f}.${c.m}()`);
      else if (c.t === 'self') lines.push(`\tr.${c.m}()`);
      else if (c.t === 'param') lines.push(`\tp.${c.f}.${c.m}()`);
      else if (c.t === 'typed') lines.push(`\tp.${c.m}()`);
      else if (c.t === 'convert') lines.push(`\t_ = ${c.to}(0)`);
      else if (c.t === 'assert') lines.push(`\tif x, ok := q.(*${c.to}); ok {`, `\t\tx.${c.m}()`, '\t}');
      else if (c.t === 'switch') lines.push('\tswitch y := q.(type) {', `\tcase ${c.to}:`, `\t\ty.${c.m}()`, '\t}');
      else if (c.t === 'range') lines.push('\tfor _, e := range ps {', `\t\te.${c.m}()`, '\t}', `\tps[0].${c.m}()`);
      else if (c.t === 'value') lines.push(`\t${c.v}.${c.m}()`);
      else if (c.t === 'read') lines.push(`\tif v := ${c.from}; v != nil {`, `\t\tv.${c.m}()`, '\t}');
      else if (c.t === 'element') lines.push(`\t${c.from}.${c.f}[0].${c.m}()`, `\tfor _, e := range ${c.from}.${c.f} {`, `\t\te.${c.m}()`, '\t}', `\t(*${c.from})[0].${c.m}()`, `\tif v := p; v != nil {`, `\t\tv[0].${c.m}()`, '\t}');
      else if (c.t === 'chain') lines.push(`\tr.${c.m}().${c.n}().${c.m}()`, `\tif v := r.${c.m}(); v != nil {`, `\t\tv.${c.n}().${c.m}()`, '\t}');
      else if (c.t === 'made') lines.push(`\tif w := ${c.literal ? `(&${c.to}{})` : `new(${c.to})`}.${c.m}(); w != nil {`, `\t\tw.${c.n}()`, '\t}');
      else lines.push(`\tif i, ok := q.(${c.to}); ok {`, `\t\tw := i.${c.m}()`, `\t\tw.${c.n}()`, '\t}');
    }
    lines.push('}', '');
  }
  return lines.join('\n');
}

describe('the Go code graph after updates equals a fresh build', () => {
  it('random structs and defined types, fields typed across files, embedded structs, methods declared apart, conversions', async () => {
    const files = ['m/a.go', 'm/b.go', 'm/c.go'];
    const content = file.map(render);
    await checkRandomEdits("go", files, content, 30);
  });
});
