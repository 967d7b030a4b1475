import { EDGE_KIND_CODES } from '../db/schema.js';
import type { BindingRow, EdgeRow } from './describe.js';
import type { GraphBinding, GraphFile } from './reader.js';

/**
 * Bindings a build keeps in memory for its resolution pass, at most (about 100 bytes each):
 * beyond, the pass reads them back from the database file by file, as an update does.
 */
const KNOWN_BINDINGS = 250_000;

/** Sites per chunk of a column (see PendingSites). */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/**
 * The sites of a build from nothing, held in memory until the resolution pass: resolving them
 * there and inserting each edge once, with its target, is cheaper than inserting pending rows,
 * reading them back and updating every one (the kernel has 5.8 million). Columns are typed
 * arrays and names are interned, 18 bytes a site. Each column is a list of fixed-size chunks
 * rather than one array that doubles: a doubling array holds up to twice the sites (the
 * kernel's 5.8 million in room for 8.4 million: 46 MB unused) and copies itself at each
 * growth, while both copies are alive; chunks are allocated as needed and never copied.
 */
export class PendingSites {
  readonly #kind: Uint8Array[] = [];
  readonly #resolution: Uint8Array[] = [];
  readonly #from: Int32Array[] = [];
  readonly #line: Int32Array[] = [];
  readonly #name: Int32Array[] = [];
  readonly #site: Int32Array[] = [];
  #length = 0;
  readonly #strings: string[] = [];
  /** The interning map, while sites are added (see {@link PendingSites.doneAdding}). */
  #ids: Map<string, number> | undefined = new Map();
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
      const i = this.#length;
      const c = i >>> CHUNK_BITS;
      if (c === this.#kind.length) this.#addChunk();
      const j = i & IN_CHUNK;
      this.#length++;
      this.#kind[c]![j] = e.kind;
      this.#resolution[c]![j] = e.resolution;
      this.#from[c]![j] = base + e.from;
      this.#line[c]![j] = e.line;
      const name = this.#intern(e.toName);
      this.#name[c]![j] = name;
      this.#site[c]![j] = e.site === null ? -1 : this.#intern(e.site);
      if (e.kind === EDGE_KIND_CODES.imports && e.from === 0) {
        let list = this.moduleImports.get(base);
        if (!list) this.moduleImports.set(base, (list = []));
        // The interned copy: the kernel's 354,000 includes name a few thousand headers.
        list.push(this.#strings[name]!);
      }
    }
  }

  /**
   * Drops the map that interns strings (a build's names: 0.8 million entries on the kernel),
   * which only {@link PendingSites.add} reads: the resolution pass calls it before it starts.
   * A later add builds it again.
   */
  doneAdding(): void {
    this.#ids = undefined;
  }

  kind(i: number): number {
    return this.#kind[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  resolution(i: number): number {
    return this.#resolution[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  from(i: number): number {
    return this.#from[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  line(i: number): number {
    return this.#line[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  name(i: number): string {
    return this.#strings[this.nameNumber(i)]!;
  }

  /** The interned number of site `i`'s name (sites of one name share it), below {@link PendingSites.stringCount}. */
  nameNumber(i: number): number {
    return this.#name[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  /** How many strings (names and site texts) are interned. */
  get stringCount(): number {
    return this.#strings.length;
  }

  site(i: number): string | null {
    const s = this.#site[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
    return s < 0 ? null : this.#strings[s]!;
  }

  #intern(text: string): number {
    let ids = this.#ids;
    if (ids === undefined) {
      this.#ids = ids = new Map();
      this.#strings.forEach((s, k) => ids!.set(s, k));
    }
    let id = ids.get(text);
    if (id === undefined) {
      id = this.#strings.length;
      this.#strings.push(text);
      ids.set(text, id);
    }
    return id;
  }

  #addChunk(): void {
    this.#kind.push(new Uint8Array(CHUNK));
    this.#resolution.push(new Uint8Array(CHUNK));
    this.#from.push(new Int32Array(CHUNK));
    this.#line.push(new Int32Array(CHUNK));
    this.#name.push(new Int32Array(CHUNK));
    this.#site.push(new Int32Array(CHUNK));
  }
}
