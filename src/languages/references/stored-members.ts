import type { Node } from 'web-tree-sitter';
import type { ReferenceSink } from '../../graph/facts.js';
import type { LexicalScopes } from './scopes.js';

/**
 * What a file's functions store over members, where a stored value hides a method of the name
 * (Python, JavaScript, TypeScript): on a class's instances (`self.x = …`, `this.x = …`), reported
 * once per class and name as the class's `field` binding (resolution reads it: LanguageGraph.
 * instanceAttributes); on a local's or parameter's value (`h.x = stub`), kept for the file's own
 * sites: `h.x()` in that scope is no sure call of its class's method, whatever the order (a loop
 * may store after the call).
 *
 * @example
 * ```ts
 * const stored = new StoredMembers(scopes, sink);
 * stored.onInstance(classScope, classNameNode, 'handler'); // self.handler = h
 * stored.onValue(found.scope, 'h', 'process');             // h.process = stub
 * stored.storedOn('h', 'process', at);                    // true for h.process() in that scope
 * ```
 */
export class StoredMembers {
  readonly #scopes: LexicalScopes;
  readonly #sink: ReferenceSink;
  /** Members stored on values, as `scope NUL name NUL member`. */
  readonly #onValues = new Set<string>();
  /** Members stored on instances, by class scope (each reported once). */
  readonly #onInstances = new Map<number, Set<string>>();

  constructor(scopes: LexicalScopes, sink: ReferenceSink) {
    this.#scopes = scopes;
    this.#sink = sink;
  }

  /** `member` stored on the instances of the class whose scope is `classScope` (`at`: its name, where the binding is placed). */
  onInstance(classScope: number, at: Node, member: string): void {
    let members = this.#onInstances.get(classScope);
    if (!members) this.#onInstances.set(classScope, (members = new Set()));
    if (members.has(member)) return;
    members.add(member);
    this.#sink.binding(at, { kind: 'field', name: member });
  }

  /** `member` stored on the value of the local or parameter `name` that scope `scope` binds. */
  onValue(scope: number, name: string, member: string): void {
    this.#onValues.add(`${scope}\u0000${name}\u0000${member}`);
  }

  /** Whether `member` was stored on the value the name `name` has at `at`. */
  storedOn(name: string, member: string, at: number): boolean {
    if (this.#onValues.size === 0) return false;
    const found = this.#scopes.lookup(at, name);
    return found !== undefined && this.#onValues.has(`${found.scope}\u0000${name}\u0000${member}`);
  }
}
