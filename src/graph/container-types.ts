// Containers of declared element types (Go's `[]T`, `[N]T`, `map[K]V`, `chan T`) as the type
// names bindings carry, shared by the visitor that writes them and the resolver that reads them
// in struct fields declared in other files (`s.items[i].M()`, `for _, it := range s.items`), and
// the parts of receiver paths that read an element or a call's result.

/**
 * A container's shape as a binding's type name: `NUL of|kind|key|value`, with the named types of
 * its keys and elements (empty: none named). No type's name can start with NUL.
 */
export const CONTAINER_TYPE = '\u0000of|';

/**
 * A part of a receiver's path (ReceiverFact `path`) that reads an element of what the part before
 * it holds (`s.items[i].M()` → `Store.items.[].M`): a container of declared element type.
 */
export const ELEMENT_PART = '[]';

/**
 * A part of a receiver's path that reads what the method or function the part before it names
 * returns first (`blk.toGNU().sparse()` → `Block.toGNU.().sparse`), as its declaration says.
 */
export const RESULT_PART = '()';

/**
 * A part of a receiver's path that reads what awaiting the result of the method or function the
 * part before it names gives (`(await repo.find()).save()` → `Repo.find.(await).save`), as its
 * declaration says (an `awaits` binding: TypeScript's `Promise<T>`, Python's `async def … -> T`).
 */
export const AWAIT_PART = '(await)';

/** What {@link CONTAINER_TYPE} says of a container. */
export interface ContainerShape {
  readonly kind: 'slice' | 'map' | 'chan';
  readonly key?: string | undefined;
  readonly value?: string | undefined;
}

/** `shape` as a binding's type name, or undefined when it names no type. */
export function containerTypeName(shape: ContainerShape): string | undefined {
  return shape.key !== undefined || shape.value !== undefined ? `${CONTAINER_TYPE}${shape.kind}|${shape.key ?? ''}|${shape.value ?? ''}` : undefined;
}

/** The shape a binding's type name holds, or undefined for any other name. */
export function containerOf(name: string | undefined): ContainerShape | undefined {
  if (name === undefined || !name.startsWith(CONTAINER_TYPE)) return undefined;
  const [kind, key, value] = name.slice(CONTAINER_TYPE.length).split('|');
  return { kind: kind as ContainerShape['kind'], key: key || undefined, value: value || undefined };
}

/** The named type of what indexing a container gives (`xs[i]`, `m[k]`; a channel has no index), or undefined. */
export function indexedElement(name: string | undefined): string | undefined {
  const shape = containerOf(name);
  return shape === undefined || shape.kind === 'chan' ? undefined : shape.value;
}
