import { EDGE_KIND_CODES } from '../db/schema.js';
import type { ReceiverFact, SiteFact } from './facts.js';

// What resolution needs of a site beyond its name, as the compact `edges.site` text: most
// sites are plain names (NULL), so the kernel's millions of call rows cost nothing here.
//
//   [~k][!][^][@][&]["][?][#n ][R payload]
//                               ~k = a base whose kind the declaration decides (SiteFact.kindFromTarget),
//                               k the edge kind code as written (2 inherits, 3 implements),
//                               ! = constructs (`new Foo()`), ^ = `super(...)`, @ = only module
//                               scope binds the name (SiteFact.moduleScope), & = an import in the
//                               class body around the site binds it (SiteFact.classBody), " = a dotted
//                               path in a string (SiteFact.dotted), ? = an import done at run time
//                               (SiteFact.dynamicImport), #n = n arguments,
//   R: S = self (S <attribute>: an attribute of self a base declares), P = super, T <type> = typed, C <type> = constructed by a call of <type>,
//      N <a> <b> … = a path of free names (space-separated: names never hold spaces).

/**
 * `edges.site` of a site the file alone shows cannot be resolved (a call of a parameter, a
 * method of an untyped value): resolution never looks at it again.
 */
export const FIXED_SITE = 'X';

/** The decoded form of `edges.site`. */
export interface SiteShape {
  readonly receiver?: ReceiverFact | undefined;
  readonly construct: boolean;
  readonly superConstructor: boolean;
  readonly moduleScope?: boolean | undefined;
  readonly classBody?: boolean | undefined;
  readonly dotted?: boolean | undefined;
  readonly dynamicImport?: boolean | undefined;
  readonly arity?: number | undefined;
  /**
   * For a base whose kind its declaration decides (SiteFact.kindFromTarget): the edge kind code
   * as written, which an unresolved base keeps (the row's own kind is the decided one).
   */
  readonly writtenKind?: number | undefined;
}

/** `edges.site` of an import done at run time (SiteFact.dynamicImport): such an import has no other mark. */
export const DYNAMIC_IMPORT_SITE = '?';

/** Encodes a site's receiver and flags; null for a plain name. */
export function encodeSite(site: Pick<SiteFact, 'kind' | 'receiver' | 'construct' | 'superConstructor' | 'moduleScope' | 'classBody' | 'dotted' | 'dynamicImport' | 'arity' | 'kindFromTarget'>): string | null {
  let out = '';
  if (site.kindFromTarget === true && (site.kind === 'inherits' || site.kind === 'implements')) out += `~${EDGE_KIND_CODES[site.kind]}`;
  if (site.construct === true) out += '!';
  if (site.superConstructor === true) out += '^';
  if (site.moduleScope === true) out += '@';
  if (site.classBody === true) out += '&';
  if (site.dotted === true) out += '"';
  if (site.dynamicImport === true) out += '?';
  if (site.arity !== undefined) out += `#${site.arity} `;
  const r = site.receiver;
  if (r) {
    switch (r.kind) {
      case 'self':
        out += r.attribute === undefined ? 'S' : `S ${r.attribute}`;
        break;
      case 'super':
        out += r.type === undefined ? 'P' : `P ${r.type}`;
        break;
      case 'type':
        out += `${r.constructed === true ? 'C' : 'T'} ${r.type}`;
        break;
      case 'path':
        out += `N ${r.path.join(' ')}`;
        break;
    }
  }
  return out === '' ? null : out;
}

const PLAIN: SiteShape = Object.freeze({ construct: false, superConstructor: false });
const SELF: ReceiverFact = Object.freeze({ kind: 'self' });

/** Decodes `edges.site`. */
export function decodeSite(text: string | null): SiteShape {
  if (text === null || text === '') return PLAIN;
  let i = 0;
  let writtenKind: number | undefined;
  if (text[i] === '~') {
    writtenKind = Number(text[i + 1]);
    i += 2;
  }
  // The one-character marks, in their order (see the format above): each, where present, is
  // read and passed (`++i > 0` is always true), without a closure on this path of every build.
  const construct = text[i] === '!' && ++i > 0;
  const superConstructor = text[i] === '^' && ++i > 0;
  const moduleScope = text[i] === '@' && ++i > 0;
  const classBody = text[i] === '&' && ++i > 0;
  const dotted = text[i] === '"' && ++i > 0;
  const dynamicImport = text[i] === '?' && ++i > 0;
  let arity: number | undefined;
  if (text[i] === '#') {
    const space = text.indexOf(' ', i);
    arity = Number(text.slice(i + 1, space));
    i = space + 1;
  }
  const tag = text[i];
  const payload = text.slice(i + 2);
  let receiver: ReceiverFact | undefined;
  switch (tag) {
    case 'S':
      receiver = payload === '' ? SELF : { kind: 'self', attribute: payload };
      break;
    case 'P':
      receiver = payload === '' ? { kind: 'super' } : { kind: 'super', type: payload };
      break;
    case 'T':
      receiver = { kind: 'type', type: payload };
      break;
    case 'C':
      receiver = { kind: 'type', type: payload, constructed: true };
      break;
    case 'N':
      receiver = { kind: 'path', path: payload.split(' ') };
      break;
  }
  return { receiver, construct, superConstructor, ...(moduleScope ? { moduleScope } : {}), ...(classBody ? { classBody } : {}), ...(dotted ? { dotted } : {}), ...(dynamicImport ? { dynamicImport } : {}), ...(arity !== undefined ? { arity } : {}), ...(writtenKind !== undefined ? { writtenKind } : {}) };
}

/** The kind a base site was written with: its `~k` mark's (see SiteShape.writtenKind), else `kind` (the row's). */
export function writtenKindOf(kind: number, site: string | null): number {
  return site !== null && site[0] === '~' ? Number(site[1]) : kind;
}

/** The first name a site's receiver depends on (a type's or path's head), for invalidation. */
export function receiverHead(shape: SiteShape): string | undefined {
  const r = shape.receiver;
  if (r?.kind === 'type' || (r?.kind === 'super' && r.type !== undefined)) return r.type!.split('.')[0];
  if (r?.kind === 'path') return r.path[0];
  if (r?.kind === 'self') return r.attribute;
  return undefined;
}
