import { EDGE_KIND_CODES } from '../db/schema.js';
import type { BindingRow, EdgeRow } from './describe.js';
import type { GraphBinding, GraphFile } from './reader.js';

/**
 * Bindings a build keeps in memory for its resolution pass, at most (about 100 bytes each):
 * beyond, the pass reads them back from the database file by file, as an update does.
 */
const KNOWN_BINDINGS = 250_000;

/**
 * The sites of a build from nothing, held in memory until the resolution pass: resolving them
 * there and inserting each edge once, with its target, is cheaper than inserting pending rows,
 * reading them back and updating every one (the kernel has 4.4 million). Columns are typed
 * arrays and names are interned, about 20 bytes a site.
 */
export class PendingSites {
  #kind = new Uint8Array(1024);
  #resolution = new Uint8Array(1024);
  #from = new Int32Array(1024);
  #line = new Int32Array(1024);
  #name = new Int32Array(1024);
  #site = new Int32Array(1024);
  #length = 0;
  readonly #strings: string[] = [];
  readonly #ids = new Map<string, number>();
  /**
   * Each module's import specifiers (its top-level `imports` sites), by module symbol id: C's
   * include closures read them before any edge is written.
   */
  readonly moduleImports = new Map<number, string[]>();
  /**
   * The files written and their bindings, by file id, exactly as the resolution pass would read
   * them back (GraphReader.file, GraphReader.bindings): the pass need not query them. Undefined
   * once the build has more than KNOWN_BINDINGS bindings.
   */
  #files: Map<number, GraphFile> | undefined = new Map();
  #bindings: Map<number, GraphBinding[]> | undefined = new Map();
  #bindingCount = 0;

  /** Records a written file (`base`: the id of its first symbol, its module; none: 0) and its bindings rows. */
  addFile(id: number, path: string, language: string, symbolCount: number, base: number, bindings: readonly BindingRow[]): void {
    if (this.#files === undefined || this.#bindings === undefined) return;
    this.#bindingCount += bindings.length;
    if (this.#bindingCount > KNOWN_BINDINGS) {
      this.#files = undefined;
      this.#bindings = undefined;
      return;
    }
    // The module is a file's first symbol (describeFile); min(id) of no symbol reads as 0.
    this.#files.set(id, { id, path, language, moduleId: symbolCount > 0 ? base : 0 });
    this.#bindings.set(
      id,
      bindings.map((b) => ({ scopeId: b.scope >= 0 ? base + b.scope : null, kind: b.kind, name: b.name, module: b.module, member: b.member })),
    );
  }

  /** Forgets a file removed again (its rows are gone). */
  removeFile(id: number): void {
    this.#files?.delete(id);
    this.#bindings?.delete(id);
  }

  /** The recorded files and their bindings (see addFile), unless there were too many to keep. */
  get files(): { readonly files: ReadonlyMap<number, GraphFile>; readonly bindings: ReadonlyMap<number, readonly GraphBinding[]> } | undefined {
    return this.#files && this.#bindings ? { files: this.#files, bindings: this.#bindings } : undefined;
  }

  get length(): number {
    return this.#length;
  }

  /** Adds a file's edge rows; `base` is the id of the file's first symbol. */
  add(rows: readonly EdgeRow[], base: number): void {
    for (const e of rows) {
      if (this.#length === this.#kind.length) this.#grow();
      const i = this.#length++;
      this.#kind[i] = e.kind;
      this.#resolution[i] = e.resolution;
      this.#from[i] = base + e.from;
      this.#line[i] = e.line;
      this.#name[i] = this.#intern(e.toName);
      this.#site[i] = e.site === null ? -1 : this.#intern(e.site);
      if (e.kind === EDGE_KIND_CODES.imports && e.from === 0) {
        let list = this.moduleImports.get(base);
        if (!list) this.moduleImports.set(base, (list = []));
        list.push(e.toName);
      }
    }
  }

  kind(i: number): number {
    return this.#kind[i]!;
  }

  resolution(i: number): number {
    return this.#resolution[i]!;
  }

  from(i: number): number {
    return this.#from[i]!;
  }

  line(i: number): number {
    return this.#line[i]!;
  }

  name(i: number): string {
    return this.#strings[this.#name[i]!]!;
  }

  /** The interned number of site `i`'s name (sites of one name share it), below {@link PendingSites.stringCount}. */
  nameNumber(i: number): number {
    return this.#name[i]!;
  }

  /** How many strings (names and site texts) are interned. */
  get stringCount(): number {
    return this.#strings.length;
  }

  site(i: number): string | null {
    const s = this.#site[i]!;
    return s < 0 ? null : this.#strings[s]!;
  }

  #intern(text: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.#strings.length;
      this.#strings.push(text);
      this.#ids.set(text, id);
    }
    return id;
  }

  #grow(): void {
    const grow = <T extends Uint8Array | Int32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.#kind = grow(this.#kind);
    this.#resolution = grow(this.#resolution);
    this.#from = grow(this.#from);
    this.#line = grow(this.#line);
    this.#name = grow(this.#name);
    this.#site = grow(this.#site);
  }
}
