// The compact `edges.site` text, and how a base whose kind its declaration decides (C#'s first
// base-list entry, a Kotlin supertype written without a call) keeps the kind it was written with
// for the comparisons of a rewritten file: the stored row may carry the decided kind.
import { describe, expect, it } from 'vitest';
import { EDGE_KIND_CODES } from '../src/db/schema.js';
import { baseFact, structureKey } from '../src/graph/changes.js';
import { decodeSite, encodeSite, writtenKindOf } from '../src/graph/site.js';

describe('edges.site', () => {
  it('round-trips a base whose kind its declaration decides, with the kind as written and its qualifier', () => {
    const text = encodeSite({ kind: 'implements', kindFromTarget: true, receiver: { kind: 'path', path: ['Acme', 'Model'] } });
    expect(text).toBe('~3N Acme Model');
    expect(decodeSite(text)).toEqual({ writtenKind: EDGE_KIND_CODES.implements, receiver: { kind: 'path', path: ['Acme', 'Model'] }, construct: false, superConstructor: false });
    expect(encodeSite({ kind: 'inherits', kindFromTarget: true })).toBe('~2');
    expect(decodeSite('~2')).toEqual({ writtenKind: EDGE_KIND_CODES.inherits, receiver: undefined, construct: false, superConstructor: false });
  });

  it('marks only bases: a call never carries the mark, nor a base the syntax settles', () => {
    expect(encodeSite({ kind: 'call', kindFromTarget: true, arity: 1 })).toBe('#1 ');
    expect(encodeSite({ kind: 'inherits' })).toBeNull();
    expect(decodeSite(null)).not.toHaveProperty('writtenKind');
  });

  it('compares a stored base by the kind it was written with, whatever kind resolution gave its row', () => {
    // Stored: `class Tag : INamed` resolved to an interface (implements); written again: inherits, as the syntax guesses.
    expect(writtenKindOf(EDGE_KIND_CODES.implements, '~2')).toBe(EDGE_KIND_CODES.inherits);
    expect(baseFact(EDGE_KIND_CODES.implements, 'INamed', '~2')).toBe(baseFact(EDGE_KIND_CODES.inherits, 'INamed', '~2'));
    expect(structureKey(EDGE_KIND_CODES.implements, 'Acme.Tag', 'INamed', '~2')).toBe(structureKey(EDGE_KIND_CODES.inherits, 'Acme.Tag', 'INamed', '~2'));
    // A base the syntax settles keeps its own kind: implements and inherits differ.
    expect(writtenKindOf(EDGE_KIND_CODES.implements, 'N Acme')).toBe(EDGE_KIND_CODES.implements);
    expect(baseFact(EDGE_KIND_CODES.implements, 'INamed', null)).not.toBe(baseFact(EDGE_KIND_CODES.inherits, 'INamed', null));
  });
});
