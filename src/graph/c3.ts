/**
 * C3's merge (Python's method resolution order): `first`, then the heads of `lists` (each base's
 * own order, then the list of the bases themselves) taken in turn, a head only when no list
 * holds it further down. Undefined when no head qualifies: the bases have no consistent order.
 * The lists are consumed.
 *
 * @example
 * ```ts
 * // class C(A, B), A(O), B(O):
 * c3Merge(C, [[A, O], [B, O], [A, B]]); // [C, A, B, O]
 * ```
 */
export function c3Merge(first: number, lists: number[][]): number[] | undefined {
  const out = [first];
  for (;;) {
    const open = lists.filter((l) => l.length > 0);
    if (open.length === 0) return out;
    const next = open.map((l) => l[0]!).find((h) => !open.some((l) => l.indexOf(h) > 0));
    if (next === undefined) return undefined;
    out.push(next);
    for (const l of open) if (l[0] === next) l.shift();
  }
}
