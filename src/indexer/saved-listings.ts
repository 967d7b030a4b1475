// Folder listings kept between processes. A process that answers from a stored index (the CLI's
// second call, an MCP server's restart) must still prove the codebase unchanged, which costs a
// walk; with the listings an earlier process saw, an unchanged folder costs one `lstat` instead
// of a `readdir` (Django's 2,364 folders: the walk takes about a third of the time). They are
// kept in the index's storage beside its bytes, and trusted under the in-process rule
// (ListingCache): the folder's mtime is the one seen when it was listed, and older than that
// listing by the racy window. Damaged or foreign bytes are ignored: the walk then lists folders.
// The snapshot memo (snapshot/walk-memo.ts) is kept the same way, under its own key.
import { checksum } from '../db/integrity.js';
import type { FileInfo } from '../fs/adapter.js';
import type { Listing, ListingCache } from './walker.js';
import type { LanguageRegistry } from '../languages/registry.js';
import { decodeSnapshotMemo, encodeSnapshotMemo, type SnapshotMemo } from '../snapshot/walk-memo.js';
import type { Storage } from '../storage/types.js';

const FORMAT = 'ckg-listings-1';
/** Entry kinds as one character each (`f` file, `d` directory, `l` symlink, `o` other). */
const KIND_CODES: Record<FileInfo['kind'], string> = { file: 'f', directory: 'd', symlink: 'l', other: 'o' };
const KINDS: Record<string, FileInfo['kind']> = { f: 'file', d: 'directory', l: 'symlink', o: 'other' };

/** A saved folder: path, mtime, when it was listed, entry names, their kinds (one code each). */
type SavedFolder = [string, number, number, string[], string];

/**
 * The storage key of the listings kept beside the index stored under `key`.
 *
 * @example
 * ```ts
 * listingsKeyOf('ckg-django-0b82'); // 'ckg-django-0b82.folders'
 * ```
 */
export function listingsKeyOf(key: string): string {
  return `${key}.folders`;
}

/**
 * The listings of `cache` as bytes: a 32-bit checksum (4 bytes, little-endian) then JSON.
 *
 * @example
 * ```ts
 * await storage.set(listingsKeyOf(key), encodeListings(cache));
 * ```
 */
export function encodeListings(cache: ListingCache): Uint8Array {
  const folders: SavedFolder[] = [];
  for (const [dir, mtimeMs, listedAt, entries] of cache.listings()) {
    let kinds = '';
    for (const entry of entries) if (entry.kind !== undefined) kinds += KIND_CODES[entry.kind];
    if (kinds.length !== entries.length) continue; // names-only listings are not kept anyway
    folders.push([dir, mtimeMs, listedAt, entries.map((e) => e.name), kinds]);
  }
  return framed(new TextEncoder().encode(JSON.stringify({ format: FORMAT, folders })));
}

/**
 * Adopts the listings saved in `bytes` (from {@link encodeListings}) into `cache`. Returns the
 * number adopted; bytes that are damaged, of another format or malformed adopt nothing.
 *
 * @example
 * ```ts
 * const saved = await storage.get(listingsKeyOf(key));
 * if (saved) restoreListings(cache, saved);
 * ```
 */
export function restoreListings(cache: ListingCache, bytes: Uint8Array): number {
  const json = unframed(bytes);
  if (json === undefined) return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    return 0;
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { format?: unknown }).format !== FORMAT) return 0;
  const folders = (parsed as { folders?: unknown }).folders;
  if (!Array.isArray(folders) || !folders.every(isSavedFolder)) return 0;
  for (const [dir, mtimeMs, listedAt, names, kinds] of folders) {
    const entries: Listing = names.map((name, i) => ({ name, kind: KINDS[kinds[i]!] }));
    cache.adopt(dir, mtimeMs, listedAt, entries);
  }
  return folders.length;
}

function isSavedFolder(value: unknown): value is SavedFolder {
  if (!Array.isArray(value) || value.length !== 5) return false;
  const [dir, mtimeMs, listedAt, names, kinds] = value as unknown[];
  return (
    typeof dir === 'string' &&
    typeof mtimeMs === 'number' &&
    typeof listedAt === 'number' &&
    Array.isArray(names) &&
    names.every((name) => typeof name === 'string' && name !== '' && !name.includes('/')) &&
    typeof kinds === 'string' &&
    kinds.length === names.length &&
    [...kinds].every((code) => code in KINDS)
  );
}

/**
 * The storage key of the snapshot memo (snapshot/walk-memo.ts) kept beside the index stored
 * under `key`.
 *
 * @example
 * ```ts
 * snapshotMemoKeyOf('ckg-django-0b82'); // 'ckg-django-0b82.walk'
 * ```
 */
export function snapshotMemoKeyOf(key: string): string {
  return `${key}.walk`;
}

/** A snapshot memo as bytes: a 32-bit checksum (4 bytes, little-endian) then its JSON. */
export function encodeMemo(memo: SnapshotMemo): Uint8Array {
  return framed(new TextEncoder().encode(encodeSnapshotMemo(memo)));
}

/** The memo saved in `bytes` (from {@link encodeMemo}); undefined for damaged, foreign or malformed bytes. */
export function decodeMemo(bytes: Uint8Array, registry: LanguageRegistry): SnapshotMemo | undefined {
  const json = unframed(bytes);
  if (json === undefined) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(json);
  } catch {
    return undefined;
  }
  return decodeSnapshotMemo(text, registry);
}

function framed(json: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(4 + json.length);
  bytes.set(json, 4);
  new DataView(bytes.buffer).setUint32(0, checksum(json), true);
  return bytes;
}

/** The payload of {@link framed} bytes, or undefined when they are short or damaged. */
function unframed(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length < 4) return undefined;
  const json = bytes.subarray(4);
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === checksum(json) ? json : undefined;
}

/**
 * Takes what an earlier process saved beside the index stored under `key`: the snapshot memo at
 * once, the folder listings when a walk first needs them (a check whose memo replays never
 * walks). Listings only save work: anything unreadable is ignored and the walk lists folders.
 *
 * @example
 * ```ts
 * await adoptSavedListings(listings, storage, storageKey, registry);
 * ```
 */
export async function adoptSavedListings(listings: ListingCache, storage: Storage, key: string, registry: LanguageRegistry): Promise<void> {
  try {
    const [memo, saved] = await Promise.all([storage.get(snapshotMemoKeyOf(key)), storage.get(listingsKeyOf(key))]);
    const decoded = memo instanceof Uint8Array ? decodeMemo(memo, registry) : undefined;
    if (decoded !== undefined) listings.adoptSnapshotMemo(decoded);
    if (saved instanceof Uint8Array) listings.beforeNextWalk(() => restoreListings(listings, saved));
  } catch {
    // Without them the walk lists every folder.
  }
}

/**
 * Saves the folder listings and the snapshot memo beside the index stored under `key`, each only
 * when it changed since last saved or adopted. A failed save costs the next process a full
 * listing, never a wrong answer, so it is not reported.
 *
 * @example
 * ```ts
 * await saveListings(listings, storage, storageKey);
 * ```
 */
export async function saveListings(listings: ListingCache, storage: Storage, key: string): Promise<void> {
  if (!listings.changed && !listings.memoChanged) return;
  const folders = listings.changed ? encodeListings(listings) : undefined;
  const memo = listings.memoChanged ? listings.snapshotMemo : undefined;
  const memoChanged = listings.memoChanged;
  listings.markSaved();
  try {
    if (folders !== undefined) await storage.set(listingsKeyOf(key), folders);
    // A memo that could not be trusted replaces none: the saved one is dropped (an old memo
    // could never give a wrong snapshot, every answer is checked, but it would cost a replay).
    if (memoChanged) await (memo !== undefined ? storage.set(snapshotMemoKeyOf(key), encodeMemo(memo)) : storage.delete(snapshotMemoKeyOf(key)));
  } catch {
    // As above.
  }
}
