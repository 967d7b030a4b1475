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
 */
export class GitIndex {
  constructor(
    readonly version: number,
    /** The index file's bytes. */
    readonly bytes: Uint8Array,
    /** Repository-relative path → offset of its entry in {@link GitIndex.bytes}. */
    readonly entries: Map<string, number>,
    /** Paths with merge conflicts (stages 1-3) or skip-worktree: never treated as clean. */
    readonly conflicted: Set<string>,
  ) {}

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

function decodePath(bytes: Uint8Array, start: number, end: number): string {
  return utf8.decode(bytes.subarray(start, end));
}

/**
 * Parses `.git/index` bytes. Keeps only entries whose path starts with `prefix` (a
 * repository-relative folder ending in `/`, or `''` for all). Throws
 * {@link UnsupportedGitIndex} for version 4, split or sparse indexes, SHA-256 repositories and
 * damaged bytes.
 */
export function parseGitIndex(bytes: Uint8Array, prefix = ''): GitIndex {
  if (bytes.length < 12) throw new UnsupportedGitIndex('index too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0x44495243) throw new UnsupportedGitIndex('no DIRC signature');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new UnsupportedGitIndex(`index version ${version}`);
  const count = view.getUint32(8);
  const prefixBytes = new TextEncoder().encode(prefix);
  const entries = new Map<string, number>();
  const conflicted = new Set<string>();
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
      const path = decodePath(bytes, nameStart, nameEnd);
      const stage = (flags >> 12) & 3;
      const extraFlags = extended ? (bytes[offset + 62]! << 8) | bytes[offset + 63]! : 0;
      // skip-worktree (sparse checkout) entries are not in the work tree: never clean.
      if (stage !== 0 || (extraFlags & 0x4000) !== 0) {
        conflicted.add(path);
        entries.delete(path);
      } else if (!conflicted.has(path)) {
        entries.set(path, offset);
      }
    }
    offset += entryLength;
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
  return new GitIndex(version, bytes, entries, conflicted);
}
