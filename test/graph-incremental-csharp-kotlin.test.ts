// The C# and Kotlin code graphs stay exact through updates where syntax cannot tell a base class
// from an interface (a C# base list's first entry, a Kotlin supertype written without a
// constructor call): after random edit sequences over types whose names collide on purpose, and
// that turn from interfaces into classes and back between steps, `update()` leaves exactly the
// graph a fresh build gives: every edge's kind (decided by the base's declaration), target,
// resolution and dependencies, and what `base.M()`, `super.m()`, `: base()` and `super(…)` reach.
// Files also declare extensions of those types (Kotlin extension functions, C# extension methods,
// named like the types' members or not) and call them, in extension bodies and on typed
// parameters: a type that gains a member of the name, a base, or an extension of another type
// changes what those calls reach. Kotlin classes may hold a companion object, whose function the
// class's and its subclasses' plain calls may mean.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkEditSequence, checkRandomEdits } from './helpers/edit-sequence.js';

const NAMES = ['A', 'B', 'C'];
const BASES = [...NAMES, 'Ext'];

const member = fc.record({
  name: fc.constantFrom('F', 'G'),
  calls: fc.array(fc.constantFrom('base', 'this', 'plain', 'new'), { maxLength: 3 }),
  target: fc.constantFrom('F', 'G'),
  made: fc.constantFrom(...NAMES),
});
const typeDecl = fc.record({
  name: fc.constantFrom(...NAMES),
  isInterface: fc.boolean(),
  // C#: a partial type of a name another file declares partial too is one type with it.
  partial: fc.boolean(),
  bases: fc.array(fc.record({ name: fc.constantFrom(...BASES), call: fc.boolean() }), { maxLength: 2 }),
  constructor: fc.boolean(),
  members: fc.array(member, { maxLength: 2 }),
});
const fileArb = fc.array(typeDecl, { minLength: 1, maxLength: 2 });
type TypeDecl = typeof typeDecl extends fc.Arbitrary<infer T> ? T : never;
type Member = TypeDecl['members'][number];

function csharpCall(kind: string, m: Member): string {
  switch (kind) {
    case 'base':
      return `base.${m.target}();`;
    case 'this':
      return `this.${m.target}();`;
    case 'plain':
      return `${m.target}();`;
    default:
      return `new ${m.made}();`;
  }
}

function csharp(types: readonly TypeDecl[]): string {
  const lines = ['namespace N;', ''];
  for (const t of types) {
    const bases = t.bases.map((b) => b.name);
    const head = `public ${t.partial ? 'partial ' : ''}${t.isInterface ? 'interface' : 'class'} ${t.name}${bases.length > 0 ? ` : ${bases.join(', ')}` : ''}`;
    lines.push(head, '{');
    if (!t.isInterface && t.constructor) lines.push(`    public ${t.name}() : base() { }`);
    for (const m of t.members) {
      if (t.isInterface) lines.push(`    void ${m.name}();`);
      else lines.push(`    public void ${m.name}()`, '    {', ...m.calls.map((c) => `        ${csharpCall(c, m)}`), '    }');
    }
    lines.push('}', '');
  }
  return lines.join('\n');
}

function kotlinCall(kind: string, m: Member): string {
  const target = m.target.toLowerCase();
  switch (kind) {
    case 'base':
      return `super.${target}()`;
    case 'this':
      return `this.${target}()`;
    case 'plain':
      return `${target}()`;
    default:
      return `${m.made}()`;
  }
}

function kotlin(types: readonly TypeDecl[], companions: readonly { readonly owner: string; readonly name: string }[] = []): string {
  const lines = ['package n', ''];
  for (const t of types) {
    // A class with a secondary constructor has no primary one: its superclass is written without a call.
    const secondary = !t.isInterface && t.constructor;
    const bases = t.bases.map((b) => (b.call && !t.isInterface && !secondary ? `${b.name}()` : b.name));
    lines.push(`${t.isInterface ? 'interface' : 'open class'} ${t.name}${bases.length > 0 ? ` : ${bases.join(', ')}` : ''} {`);
    if (secondary) lines.push('    constructor() : super()');
    for (const c of companions) if (!t.isInterface && c.owner === t.name) lines.push('    companion object {', `        fun ${c.name}() {}`, '    }');
    for (const m of t.members) {
      const name = m.name.toLowerCase();
      if (t.isInterface) lines.push(`    fun ${name}()`);
      else lines.push(`    open fun ${name}() {`, ...m.calls.map((c) => `        ${kotlinCall(c, m)}`), '    }');
    }
    lines.push('}', '');
  }
  return lines.join('\n');
}

const EXTENDED = ['f', 'g', 'h'];
const extension = fc.record({
  receiver: fc.constantFrom(...BASES),
  name: fc.constantFrom(...EXTENDED),
  calls: fc.array(fc.record({ self: fc.boolean(), target: fc.constantFrom(...EXTENDED) }), { maxLength: 2 }),
});
const extendedFileArb = fc.record({
  types: fileArb,
  extensions: fc.array(extension, { maxLength: 2 }),
  uses: fc.array(fc.record({ type: fc.constantFrom(...NAMES), target: fc.constantFrom(...EXTENDED) }), { maxLength: 2 }),
  // Kotlin: a companion object's function, which calls in the class's and its subclasses' bodies may mean.
  companions: fc.array(fc.record({ owner: fc.constantFrom(...NAMES), name: fc.constantFrom(...EXTENDED) }), { maxLength: 1 }),
});

function kotlinWithExtensions(file: typeof extendedFileArb extends fc.Arbitrary<infer T> ? T : never): string {
  const lines = [kotlin(file.types, file.companions)];
  for (const e of file.extensions) lines.push(`fun ${e.receiver}.${e.name}() {`, ...e.calls.map((c) => `    ${c.self ? 'this.' : ''}${c.target}()`), '}', '');
  file.uses.forEach((u, i) => lines.push(`fun use${i}(x: ${u.type}) {`, `    x.${u.target}()`, '}', ''));
  return lines.join('\n');
}

function csharpWithExtensions(file: typeof extendedFileArb extends fc.Arbitrary<infer T> ? T : never): string {
  const lines = [csharp(file.types)];
  const name = (n: string): string => n.toUpperCase();
  if (file.extensions.length > 0) {
    lines.push('public static class Extensions', '{');
    for (const e of file.extensions) {
      lines.push(`    public static void ${name(e.name)}(this ${e.receiver} x)`, '    {', ...e.calls.map((c) => `        x.${name(c.target)}();`), '    }');
    }
    lines.push('}', '');
  }
  if (file.uses.length > 0) {
    lines.push('public class Uses', '{');
    file.uses.forEach((u, i) => lines.push(`    public void Use${i}(${u.type} x)`, '    {', `        x.${name(u.target)}();`, '    }'));
    lines.push('}', '');
  }
  return lines.join('\n');
}

describe('the C# and Kotlin code graphs after updates equal a fresh build', () => {
  it('c_sharp: a class that stops being partial re-resolves the calls another part made of its members', async () => {
    // Found by the property below: `this.F()` in the other part of B stayed ambiguous (three F's of one class).
    const partial = 'namespace N;\n\npublic partial class B\n{\n    public void F()\n    {\n    }\n    public void F()\n    {\n    }\n}\n';
    const other = 'namespace N;\n\npublic partial class B\n{\n    public void F()\n    {\n        this.F();\n    }\n}\n';
    await checkEditSequence('c_sharp', ['n/B.cs', 'n/C.cs'], [partial, other], [{ type: 'write', file: 0, content: partial.replace('partial ', '') }], 'stored');
    await checkEditSequence('c_sharp', ['n/B.cs', 'n/C.cs'], [partial.replace('partial ', ''), other], [{ type: 'write', file: 0, content: partial }], 'stored');
  });

  it('c_sharp: random interfaces and classes over colliding names, bases written either way, and their extension methods', async () => {
    await checkRandomEdits('c_sharp', ['n/A.cs', 'n/B.cs', 'n/C.cs'], extendedFileArb.map(csharpWithExtensions), 30);
  });

  it('kotlin: random interfaces and classes over colliding names, bases written either way, and their extensions', async () => {
    await checkRandomEdits('kotlin', ['n/A.kt', 'n/B.kt', 'n/C.kt'], extendedFileArb.map(kotlinWithExtensions), 30);
  });
});
