import { EDGE_KIND_CODES } from '../db/schema.js';
import type { BindingRow, EdgeRow } from './describe.js';
import { PRELOAD_SYMBOLS, type GraphBinding, type GraphFile, type GraphSymbol } from './reader.js';
import { FIXED_SITE } from './site.js';

/**
 * Bindings a build keeps in memory for its resolution pass, at most (about 100 bytes each):
 * beyond, the pass reads them back from the database file by file, as an update does.
 */
const KNOWN_BINDINGS = 250_000;

/** Sites per chunk of a column (see PendingSites). */
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;
/** Bytes a site takes in its chunk: kind and resolution one each, from, line, name and site four each. */
const SITE_BYTES = 18;
/**
 * Chunks allocated together, in one buffer, once a build has more than one chunk of sites: 32
 * chunks are 37.7 MB, above the size from which the C allocator under Node (glibc) always maps
 * a block of its own (32 MB at most) and unmaps it when the block is freed. Smaller blocks come
 * from its heap, and once freed, stay in the process's memory: the kernel's 100 MB of sites,
 * allocated a chunk at a time, kept its build 100 MB larger through index creation and after.
 * In slabs, collected as the pass writes their sites (resolveGraph), the build's peak went from
 * 1,085 to 957 MB. Pages of a slab that no site reached are never touched: they take no memory.
 */
const SLAB_CHUNKS = 32;
/**
 * Strings a build interns before {@link PendingSites.doneAdding} packs them: below, the list is
 * a few MB at most, and reading a packed string back (a new string per read, several reads per
 * site) cost Django's pass more than the memory it saved.
 */
const PACK_STRINGS = 1 << 17;

/**
 * Interned strings, as a list while they are added and packed into one typed array after
 * ({@link StringTable.pack}): the kernel's 800,000 names were 36 MB of JS strings live through
 * its whole resolution pass, and V8 sizes its heap at up to four times what is live. Packed, a
 * string is read back (exactly: UTF-16 code units, or one byte each when every unit fits) as a
 * new JS string, which the pass drops as soon as it has resolved the site.
 */
class StringTable {
  #list: string[] | undefined = [];
  #units: Uint8Array | Uint16Array | undefined;
  #offsets: Int32Array | undefined;

  get length(): number {
    return this.#list ? this.#list.length : this.#offsets!.length - 1;
  }

  get(k: number): string {
    if (this.#list) return this.#list[k]!;
    const units = this.#units!;
    const start = this.#offsets![k]!;
    const end = this.#offsets![k + 1]!;
    if (end - start <= 1024) return String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[]);
    let out = '';
    for (let at = start; at < end; at += 1024) out += String.fromCharCode.apply(null, units.subarray(at, Math.min(end, at + 1024)) as unknown as number[]);
    return out;
  }

  push(text: string): number {
    const list = this.#unpacked();
    list.push(text);
    return list.length - 1;
  }

  forEach(fn: (text: string, k: number) => void): void {
    for (let k = 0; k < this.length; k++) fn(this.get(k), k);
  }

  /** Packs the strings into one typed array (a later push unpacks them again). */
  pack(): void {
    const list = this.#list;
    if (!list) return;
    let total = 0;
    let wide = false;
    for (const s of list) {
      total += s.length;
      if (!wide) for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) wide = true;
    }
    const units = wide ? new Uint16Array(total) : new Uint8Array(total);
    const offsets = new Int32Array(list.length + 1);
    let at = 0;
    list.forEach((s, k) => {
      offsets[k] = at;
      for (let i = 0; i < s.length; i++) units[at++] = s.charCodeAt(i);
    });
    offsets[list.length] = at;
    this.#units = units;
    this.#offsets = offsets;
    this.#list = undefined;
  }

  #unpacked(): string[] {
    if (!this.#list) {
      const list: string[] = [];
      for (let k = 0; k < this.length; k++) list.push(this.get(k));
      this.#list = list;
      this.#units = undefined;
      this.#offsets = undefined;
    }
    return this.#list;
  }
}

/**
 * The sites of a build from nothing, held in memory until the resolution pass: resolving them
 * there and inserting each edge once, with its target, is cheaper than inserting pending rows,
 * reading them back and updating every one (the kernel has 5.8 million). Columns are typed
 * arrays and names are interned, 18 bytes a site. Each column is a list of fixed-size chunks
 * rather than one array that doubles: a doubling array holds up to twice the sites (the
 * kernel's 5.8 million in room for 8.4 million: 46 MB unused) and copies itself at each
 * growth, while both copies are alive; chunks are allocated as needed and never copied. The
 * chunks of a large build are cut from slabs of 32 (see SLAB_CHUNKS): a slab is freed with its
 * last chunk.
 */
export class PendingSites {
  readonly #kind: (Uint8Array | undefined)[] = [];
  readonly #resolution: (Uint8Array | undefined)[] = [];
  readonly #from: (Int32Array | undefined)[] = [];
  readonly #line: (Int32Array | undefined)[] = [];
  readonly #name: (Int32Array | undefined)[] = [];
  readonly #site: (Int32Array | undefined)[] = [];
  #length = 0;
  /** Chunks below this one were freed (see {@link PendingSites.releaseBefore}). */
  #released = 0;
  /** The buffer new chunks are cut from, and how many chunks of it are taken. */
  #slab: ArrayBuffer | undefined;
  #slabUsed = 0;
  readonly #strings = new StringTable();
  /** The interning map, while sites are added (see {@link PendingSites.doneAdding}). */
  #ids: Map<string, number> | undefined = new Map();
  /** The interned number of FIXED_SITE, once a fixed site is added (-2: none yet, matching no site). */
  #fixedSite = -2;
  /** Strings interned from which {@link PendingSites.doneAdding} packs them. */
  readonly #packFrom: number;

  /** `packStringsFrom`: how many interned strings make doneAdding pack them (default 131,072; tests pack small builds with 0). */
  constructor(options: { readonly packStringsFrom?: number } = {}) {
    this.#packFrom = options.packStringsFrom ?? PACK_STRINGS;
  }
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
  /**
   * The symbols written, by file id (ids ascending, as files are written), for the pass's
   * reader (GraphReader.knowSymbols). Undefined once there are more than the reader would
   * read at once (PRELOAD_SYMBOLS).
   */
  #symbols: Map<number, readonly GraphSymbol[]> | undefined = new Map();
  #symbolCount = 0;

  /** Whether {@link PendingSites.addSymbols} still keeps symbols. */
  get keepsSymbols(): boolean {
    return this.#symbols !== undefined;
  }

  /** Records the symbols written for a file, exactly as rows of `symbols` hold them. */
  addSymbols(fileId: number, symbols: readonly GraphSymbol[]): void {
    if (this.#symbols === undefined) return;
    this.#symbolCount += symbols.length;
    if (this.#symbolCount > PRELOAD_SYMBOLS) this.#symbols = undefined;
    else this.#symbols.set(fileId, symbols);
  }

  /** Every symbol written (in id order), unless there were too many to keep (see addSymbols). */
  get symbols(): Iterable<GraphSymbol> | undefined {
    const byFile = this.#symbols;
    if (byFile === undefined) return undefined;
    return (function* () {
      for (const list of byFile.values()) yield* list;
    })();
  }

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
    const symbols = this.#symbols?.get(id);
    if (symbols) {
      this.#symbols!.delete(id);
      this.#symbolCount -= symbols.length;
    }
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
    if (this.#released > 0) throw new Error('PendingSites.add after releaseBefore');
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
      const site = e.site === null ? -1 : this.#intern(e.site);
      this.#site[c]![j] = site;
      if (e.site === FIXED_SITE) this.#fixedSite = site;
      if (e.kind === EDGE_KIND_CODES.imports && e.from === 0) {
        let list = this.moduleImports.get(base);
        if (!list) this.moduleImports.set(base, (list = []));
        // The interned copy: the kernel's 354,000 includes name a few thousand headers.
        list.push(this.#strings.get(name));
      }
    }
  }

  /**
   * Drops the map that interns strings (a build's names: 0.8 million entries on the kernel),
   * which only {@link PendingSites.add} reads, and packs the strings (see StringTable): the
   * resolution pass calls it before it starts. A later add builds the map again.
   */
  doneAdding(): void {
    this.#ids = undefined;
    if (this.#strings.length >= this.#packFrom) this.#strings.pack();
  }

  /**
   * Frees the columns of the sites below `end`, a chunk at a time (a chunk is freed once every
   * one of its sites is below `end`): a build's last loop reads each site once, in order, while
   * it writes the edges, and the kernel's 5.8 million sites are 100 MB of columns that would
   * otherwise stay alive while the database grows. A freed site may not be read again, and no
   * site may be added after.
   */
  releaseBefore(end: number): void {
    const upTo = Math.min(Math.floor(Math.min(end, this.#length) / CHUNK), this.#kind.length);
    for (let c = this.#released; c < upTo; c++) {
      this.#kind[c] = undefined;
      this.#resolution[c] = undefined;
      this.#from[c] = undefined;
      this.#line[c] = undefined;
      this.#name[c] = undefined;
      this.#site[c] = undefined;
    }
    this.#released = Math.max(this.#released, upTo);
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
    return this.#strings.get(this.nameNumber(i));
  }

  /** The interned number of site `i`'s name (sites of one name share it), below {@link PendingSites.stringCount}. */
  nameNumber(i: number): number {
    return this.#name[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  /** How many strings (names and site texts) are interned. */
  get stringCount(): number {
    return this.#strings.length;
  }

  /** The interned number of site `i`'s `site` text (-1: none): sites of one text share it. */
  siteNumber(i: number): number {
    return this.#site[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
  }

  /** Whether site `i` is fixed (its `site` is FIXED_SITE: resolution never looks at it), without reading its text. */
  isFixed(i: number): boolean {
    return this.#site[i >>> CHUNK_BITS]![i & IN_CHUNK]! === this.#fixedSite;
  }

  site(i: number): string | null {
    const s = this.#site[i >>> CHUNK_BITS]![i & IN_CHUNK]!;
    return s < 0 ? null : this.#strings.get(s);
  }

  #intern(text: string): number {
    let ids = this.#ids;
    if (ids === undefined) {
      this.#ids = ids = new Map();
      this.#strings.forEach((s, k) => ids!.set(s, k));
    }
    let id = ids.get(text);
    if (id === undefined) {
      id = this.#strings.push(text);
      ids.set(text, id);
    }
    return id;
  }

  /** The columns of the next chunk, views of a slab (see SLAB_CHUNKS); the first chunk is a slab of its own. */
  #addChunk(): void {
    if (this.#slab === undefined || this.#slabUsed * CHUNK * SITE_BYTES === this.#slab.byteLength) {
      this.#slab = new ArrayBuffer((this.#kind.length === 0 ? 1 : SLAB_CHUNKS) * CHUNK * SITE_BYTES);
      this.#slabUsed = 0;
    }
    const at = this.#slabUsed++ * CHUNK * SITE_BYTES;
    const slab = this.#slab;
    this.#kind.push(new Uint8Array(slab, at, CHUNK));
    this.#resolution.push(new Uint8Array(slab, at + CHUNK, CHUNK));
    this.#from.push(new Int32Array(slab, at + 2 * CHUNK, CHUNK));
    this.#line.push(new Int32Array(slab, at + 6 * CHUNK, CHUNK));
    this.#name.push(new Int32Array(slab, at + 10 * CHUNK, CHUNK));
    this.#site.push(new Int32Array(slab, at + 14 * CHUNK, CHUNK));
  }

  /** @internal The sizes of the buffers that hold the columns still alive, in bytes, first to last (for tests). */
  get slabSizes(): number[] {
    const buffers = new Set<ArrayBufferLike>();
    for (const column of this.#from) if (column) buffers.add(column.buffer);
    return [...buffers].map((b) => b.byteLength);
  }
}
