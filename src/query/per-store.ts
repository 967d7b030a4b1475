import type { IndexStore } from '../db/store.js';

/**
 * What a query derives from a whole index (a search index, the class graph), kept per store
 * and valid while its generation is the one it was made at: a committed write session makes it
 * again on next use.
 *
 * @example
 * ```ts
 * const classGraphOf = perStore((store) => new ClassGraph(store));
 * classGraphOf(store); // made once per committed state of the store
 * ```
 */
export function perStore<T>(make: (store: IndexStore) => T): (store: IndexStore) => T {
  const kept = new WeakMap<IndexStore, { readonly generation: number; readonly value: T }>();
  return (store) => {
    const known = kept.get(store);
    if (known && known.generation === store.generation) return known.value;
    const value = make(store);
    kept.set(store, { generation: store.generation, value });
    return value;
  };
}
