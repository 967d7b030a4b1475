import { SYMBOL_FLAGS } from '../describe.js';
import type { FallbackLookup, FallbackOutcome, FallbackSite, LanguageGraph } from '../strategy.js';
import { cGraph } from './c.js';

// C++: C's modules and includes (the same family: a `.cpp` file includes `.h` files, which are
// parsed as C), plus namespaces and classes. A name is looked up the way the compiler does,
// without overloads and argument-dependent lookup: the enclosing class and its bases for a
// plain name in a method (`implicitMembers`), then the enclosing namespaces from the innermost
// out to the global one, the namespaces of `using namespace` directives and `using ns::f`
// declarations, and type aliases (`using A = ns::B`, `typedef ns::B A`). A qualified name
// (`geo::util::log`, `geo::Circle::area`) names a namespace member or a class member; `std::`
// and other namespaces with no definition in the codebase are outside it. Like C, a candidate
// must be defined in a visible file (the file itself or one it includes), or declared there and
// defined anywhere without `static`; several candidates (overloads too) leave the call ambiguous.

const STATIC = SYMBOL_FLAGS.static;
const BUILTINS = cGraph.builtins;

/** Namespaces of libraries a codebase uses but does not define. */
const EXTERNAL_NAMESPACES = new Set(['std', '__gnu_cxx', 'boost', 'absl', 'testing']);

/** `geo::Circle` → `['geo::Circle', 'geo', '']`: where a plain name is looked up from, innermost first. */
function enclosingScopes(scope: string): string[] {
  const out: string[] = [];
  for (let s = scope; s !== ''; s = s.includes('::') ? s.slice(0, s.lastIndexOf('::')) : '') out.push(s);
  out.push('');
  return out;
}

/** The scope part of a qualified name (`geo::Circle::area` → `geo::Circle`). */
function scopeOfName(qualifiedName: string): string {
  const at = qualifiedName.lastIndexOf('::');
  return at < 0 ? '' : qualifiedName.slice(0, at);
}

const join = (prefix: string, name: string): string => (prefix === '' ? name : `${prefix}::${name}`);

function fallback(name: string, site: FallbackSite, lookup: FallbackLookup | undefined, depth = 0): FallbackOutcome | undefined {
  if (name.startsWith('__builtin_')) return { toId: null, reason: 'builtin' };
  const { files, external } = site.visible();
  const scope = lookup?.scope ?? '';
  const qualifier = lookup?.qualifier;
  const scopes = enclosingScopes(scope);
  // Namespaces `using namespace` brings in, from the visible files.
  const usedNamespaces: string[] = [];
  let externalNamespaceUsed = false;
  for (const d of site.declarations('*')) {
    if (d.kind !== 'using' || d.module === null || !files.has(d.fileId)) continue;
    usedNamespaces.push(d.module);
    if (EXTERNAL_NAMESPACES.has(d.module.split('::')[0]!)) externalNamespaceUsed = true;
  }
  // The qualified names the site may mean.
  const wanted = new Set<string>();
  if (qualifier) {
    const q = qualifier.join('::');
    if (q === '' || EXTERNAL_NAMESPACES.has(qualifier[0]!)) {
      if (q !== '') return { toId: null, reason: 'external' };
      wanted.add(name); // `::f`
    } else {
      for (const s of scopes) wanted.add(join(join(s, q), name));
      for (const u of usedNamespaces) wanted.add(join(join(u, q), name));
    }
  } else {
    for (const s of scopes) wanted.add(join(s, name));
    for (const u of usedNamespaces) wanted.add(join(u, name));
  }
  let declared = false;
  let macro = false;
  const declarations = site.declarations(name).filter((d) => files.has(d.fileId));
  // `using ns::f;` first: the names it brings in decide which prototypes count.
  for (const d of declarations) {
    if (d.kind !== 'using' || qualifier || d.module === null) continue;
    if (EXTERNAL_NAMESPACES.has(d.module.split('::')[0]!)) externalNamespaceUsed = true;
    wanted.add(join(d.module, name));
  }
  // `using Alias = ns::Class;` (or a typedef) names that class: every visible alias must agree.
  const aliases = qualifier ? [] : declarations.filter((d) => d.kind === 'alias' && d.module !== null);
  if (aliases.length > 0 && depth < 4) {
    const targets = aliases.map((d) => {
      const parts = d.module!.split('::');
      const target = parts.pop()!;
      if (EXTERNAL_NAMESPACES.has(parts[0] ?? '')) return { toId: null, reason: 'external' } as const;
      return fallback(target, site, { scope, ...(lookup?.want ? { want: lookup.want } : {}), ...(parts.length > 0 ? { qualifier: parts } : {}) }, depth + 1);
    });
    const key = (t: FallbackOutcome | undefined): string => (t === undefined ? '' : t.toId !== null ? `#${t.toId}` : t.reason);
    return targets.every((t) => key(t) === key(targets[0])) ? targets[0] : { toId: null, reason: 'ambiguous' };
  }
  for (const d of declarations) {
    if (d.kind === 'macro' && !qualifier) macro = true;
    else if (d.kind === 'declare' && d.member !== 'static' && wanted.has(join(d.module ?? '', name))) declared = true;
  }
  const types = lookup?.want === 'type';
  // A constructor (`geo::Circle::Circle`) is reached through its class, never by its own name.
  const matching = site
    .symbolsNamed(name)
    .filter((s) => (types ? s.kind === 'class' : s.kind !== 'module' && !(s.kind === 'method' && s.qualifiedName.endsWith(`${name}::${name}`))) && wanted.has(s.qualifiedName) && site.inFamily(s.fileId));
  const candidates = new Set<number>();
  let local = false;
  for (const s of matching) {
    if (!files.has(s.fileId)) continue;
    candidates.add(s.id);
    if (s.fileId === site.file.id) local = true;
    if (s.kind !== 'class' && (s.flags & STATIC) === 0) declared = true;
  }
  if (declared) for (const s of matching) if (s.kind !== 'class' && (s.flags & STATIC) === 0) candidates.add(s.id);
  if (macro && !types) return candidates.size > 0 ? { toId: null, reason: 'ambiguous' } : { toId: null, reason: 'macro' };
  if (candidates.size > 1) return { toId: null, reason: 'ambiguous' };
  if (candidates.size === 1) {
    const [id] = candidates;
    const symbol = matching.find((s) => s.id === id)!;
    const resolution = qualifier ? 'qualified' : local && symbol.fileId === site.file.id ? 'local' : files.has(symbol.fileId) ? 'include' : 'global';
    return { toId: id!, resolution };
  }
  if (declared) return { toId: null, reason: 'not-found' };
  if ((external || externalNamespaceUsed) && !BUILTINS.has(name)) return { toId: null, reason: 'external' };
  return undefined;
}

/**
 * The graph rules of C++ (see the comment above).
 *
 * @example
 * ```ts
 * cppGraph.lookupScope!({ kind: 'method', name: 'area', qualifiedName: 'geo::Circle::area' }); // 'geo::Circle'
 * ```
 */
export const cppGraph: LanguageGraph = {
  ...cGraph,
  constructorNames: (className) => [className],
  callableClasses: true,
  implicitMembers: true,
  qualifiedNames: true,
  fallbackFirst: true,
  lookupScope: (caller) => (caller.kind === 'module' ? '' : scopeOfName(caller.qualifiedName)),
  fallback: (name, site, lookup) => fallback(name, site, lookup),
};
