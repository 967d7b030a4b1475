// A reader of git's `.git/index` (versions 2 and 3), just enough to tell which work-tree files
// still match the staged blob: what `git status` does with lstat, without isomorphic-git's
// statusMatrix (which re-hashes every file and needs 22-31 s and 2 GB on the Linux tree).
// Format: https://git-scm.com/docs/index-format

/** One stage-0 entry of the git index, decoded (for tests and diagnostics; the key reads offsets). */
export interface GitIndexEntry {
  /** Modification time in ms since the epoch, as git recorded it (seconds + nanoseconds). */
  readonly mtimeMs: number;
  /** File size modulo 2^32, as git records it. */
  readonly size: number;
  /** The staged blob id, lower-case hex. */
  readonly oid: string;
  /** The file mode (0o100644, 0o100755, 0o120000 symlink, 0o160000 submodule). */
  readonly mode: number;
}

/**
 * The stage-0 entries of an index under a prefix. Entries are kept as offsets into the index
 * bytes and read on demand: the Linux tree has 78k of them and the key needs a few fields of each.
 * They come as parallel arrays in index order (paths relative to the prefix, sorted as git sorts
 * them), which a caller holding a sorted file list joins by merging instead of hashing 78k paths.
 */
export class GitIndex {
  #entries: Map<string, number> | undefined;

  constructor(
    readonly version: number,
    /** The index file's bytes. */
    readonly bytes: Uint8Array,
    /** The prefix the entries were filtered by (`''` for all, else a folder ending in `/`). */
    readonly prefix: string,
    /** Clean-candidate paths relative to {@link GitIndex.prefix}, in index (byte) order. */
    readonly paths: readonly string[],
    /** `offsets[i]`: where the entry of `paths[i]` starts in {@link GitIndex.bytes}. */
    readonly offsets: Uint32Array,
    /** Paths with merge conflicts (stages 1-3) or skip-worktree: never treated as clean. */
    readonly conflicted: ReadonlySet<string>,
  ) {}

  /** Repository-relative path → entry offset (built on first use, for lookups by path). */
  get entries(): ReadonlyMap<string, number> {
    if (this.#entries === undefined) {
      this.#entries = new Map();
      for (let i = 0; i < this.paths.length; i++) this.#entries.set(this.prefix + this.paths[i]!, this.offsets[i]!);
    }
    return this.#entries;
  }

  /** Modification time in ms, as git recorded it (seconds + nanoseconds). */
  mtimeMsAt(offset: number): number {
    return u32(this.bytes, offset + 8) * 1000 + u32(this.bytes, offset + 12) / 1e6;
  }

  /** File size modulo 2^32. */
  sizeAt(offset: number): number {
    return u32(this.bytes, offset + 36);
  }

  /** The file mode. */
  modeAt(offset: number): number {
    return u32(this.bytes, offset + 24);
  }

  /** Where the entry's 20-byte blob id starts in {@link GitIndex.bytes}. */
  oidOffset(offset: number): number {
    return offset + 40;
  }

  /** One entry, decoded. */
  entry(path: string): GitIndexEntry | undefined {
    const offset = this.entries.get(path);
    if (offset === undefined) return undefined;
    return { mtimeMs: this.mtimeMsAt(offset), size: this.sizeAt(offset), oid: hexOf(this.bytes, offset + 40, 20), mode: this.modeAt(offset) };
  }
}

function u32(b: Uint8Array, i: number): number {
  return ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
}

/** Why an index cannot be read by this reader; the caller falls back to a stat-walk key. */
export class UnsupportedGitIndex extends Error {}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const utf8 = new TextDecoder('utf-8', { fatal: false });

function hexOf(bytes: Uint8Array, start: number, length: number): string {
  let out = '';
  for (let i = start; i < start + length; i++) out += HEX[bytes[i]!]!;
  return out;
}

/**
 * Parses `.git/index` bytes. Keeps only entries whose path starts with `prefix` (a
 * repository-relative folder ending in `/`, or `''` for all). Throws
 * {@link UnsupportedGitIndex} for version 4, split or sparse indexes, SHA-256 repositories and
 * damaged bytes.
 */
export function parseGitIndex(input: Uint8Array, prefix = ''): GitIndex {
  // A plain Uint8Array view: Node hands in a Buffer, whose `subarray` builds a Buffer object
  // (costly 78k times) and whose element reads are slower at sites that also see plain arrays.
  const bytes = input.constructor === Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length < 12) throw new UnsupportedGitIndex('index too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x44495243) throw new UnsupportedGitIndex('no DIRC signature');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new UnsupportedGitIndex(`index version ${version}`);
  const count = view.getUint32(8);
  const prefixBytes = new TextEncoder().encode(prefix);
  // First pass: where each kept entry and its path are. ASCII paths (nearly all) are copied into
  // one buffer and decoded by a single TextDecoder call, then sliced: one decode call per path
  // cost more than the rest of the parse on Linux's 78k entries.
  const kept = new Uint32Array(count); // entry offsets
  const pathStart = new Uint32Array(count + 1); // into `joined`, or the path's own decode when ASCII is false
  const ascii = new Uint8Array(count);
  const joined = new Uint8Array(Math.max(0, bytes.length - 12));
  let joinedLength = 0;
  let keptCount = 0;
  const single: string[] = []; // decoded non-ASCII paths, by kept index (sparse)
  // The trailing checksum is 20 bytes (SHA-1); entries must end before it.
  const limit = bytes.length - 20;
  let offset = 12;
  for (let n = 0; n < count; n++) {
    if (offset + 62 > limit) throw new UnsupportedGitIndex('truncated entry');
    const flags = (bytes[offset + 60]! << 8) | bytes[offset + 61]!;
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) throw new UnsupportedGitIndex('extended flag in a version 2 index');
    const nameStart = offset + 62 + (extended ? 2 : 0);
    let nameEnd = nameStart + (flags & 0xfff);
    if ((flags & 0xfff) === 0xfff || bytes[nameEnd] !== 0) {
      // Long names store 0xfff: the path runs to the NUL.
      nameEnd = bytes.indexOf(0, nameStart);
      if (nameEnd < 0 || nameEnd > limit) throw new UnsupportedGitIndex('unterminated path');
    }
    const entryLength = (nameEnd - offset + 8) & ~7; // 1-8 NULs pad each entry to a multiple of 8
    let matches = prefixBytes.length <= nameEnd - nameStart;
    for (let i = 0; matches && i < prefixBytes.length; i++) matches = bytes[nameStart + i] === prefixBytes[i];
    if (matches) {
      const mode = u32(bytes, offset + 24);
      if ((mode & 0o170000) === 0o040000) throw new UnsupportedGitIndex('sparse directory entry');
      let isAscii = 1;
      for (let i = nameStart; i < nameEnd; i++) if (bytes[i]! >= 0x80) isAscii = 0;
      kept[keptCount] = offset;
      ascii[keptCount] = isAscii;
      pathStart[keptCount] = joinedLength;
      if (isAscii) for (let i = nameStart; i < nameEnd; i++) joined[joinedLength++] = bytes[i]!;
      else single[keptCount] = utf8.decode(bytes.subarray(nameStart, nameEnd));
      keptCount++;
    }
    offset += entryLength;
  }
  pathStart[keptCount] = joinedLength;
  const text = utf8.decode(joined.subarray(0, joinedLength)); // ASCII: one character per byte
  const skip = prefix.length; // the prefix is in every kept path; ASCII or not, it is `prefix`
  const paths: string[] = [];
  const offsets = new Uint32Array(keptCount);
  const conflicted = new Set<string>();
  for (let k = 0; k < keptCount; k++) {
    const at = kept[k]!;
    const flags = (bytes[at + 60]! << 8) | bytes[at + 61]!;
    const stage = (flags >> 12) & 3;
    const extraFlags = (flags & 0x4000) !== 0 ? (bytes[at + 62]! << 8) | bytes[at + 63]! : 0;
    const path = ascii[k] ? text.slice(pathStart[k]! + skip, pathStart[k + 1]!) : single[k]!.slice(skip);
    // skip-worktree (sparse checkout) entries are not in the work tree: never clean.
    if (stage !== 0 || (extraFlags & 0x4000) !== 0) conflicted.add(prefix + path);
    else {
      offsets[paths.length] = at;
      paths.push(path);
    }
  }
  // Extensions: a split index ("link") keeps most entries in another file.
  while (offset + 8 <= limit) {
    const signature = String.fromCharCode(bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!);
    const size = view.getUint32(offset + 4);
    if (signature === 'link') throw new UnsupportedGitIndex('split index');
    if (signature === 'sdir') throw new UnsupportedGitIndex('sparse index');
    offset += 8 + size;
  }
  if (offset !== limit) throw new UnsupportedGitIndex('unexpected index length (SHA-256 repository or damaged index)');
  if (conflicted.size === 0) return new GitIndex(version, bytes, prefix, paths, offsets.subarray(0, paths.length), conflicted);
  // Rare: drop every stage-0 entry of a conflicted path (a valid index has none, a damaged may).
  const cleanPaths: string[] = [];
  const cleanOffsets = new Uint32Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    if (conflicted.has(prefix + paths[i]!)) continue;
    cleanOffsets[cleanPaths.length] = offsets[i]!;
    cleanPaths.push(paths[i]!);
  }
  return new GitIndex(version, bytes, prefix, cleanPaths, cleanOffsets.subarray(0, cleanPaths.length), conflicted);
}
