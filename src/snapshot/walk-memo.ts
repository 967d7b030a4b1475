// A snapshot (the walk of a codebase and its key) depends on nothing but what the file system
// answered while it was computed: the stats it took, the folders it listed, the files it read
// (.gitignore, .git/HEAD, the git index, `#!` lines) and the links it resolved. So the answers are
// recorded with the snapshot, and a later check that gets the same answers again has the same
// snapshot, without walking: one stat per recorded path instead of the walk's decisions per
// folder and entry (Django: 3,300 stats, and none of the listing, ignore-rule and language work).
//
// "The same answer" for a listing or a read is the folder's or file's stat, taken before it was
// listed or read, under the rule the listing cache and the snapshot key already trust: an mtime
// that is unchanged and older than the moment of the read by the racy window (RACY_WINDOW_MS).
// A recording that listed or read anything inside that window, saw two answers for one path, or
// read in a way that cannot be checked is not kept: the next check walks.
import type { FileSystem } from '../fs/types.js';
import type { FileInfo, FsAdapter } from '../fs/adapter.js';
import { ExclusionTally } from '../indexer/gitignored.js';
import { RACY_WINDOW_MS, type SkippedFile, type SourceFile, type WalkResult } from '../indexer/walker.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { Snapshot } from './key.js';

/** What one path answered: `l` lstat, `s` stat (also taken before a listing or a read), `r` realpath. */
type Answer = FileInfo | string | null;

/** A snapshot with the file system answers it was computed from. */
export interface SnapshotMemo {
  /** The codebase root, its place in a repository and the walk options: a memo serves only the same walk. */
  readonly scope: string;
  /** `op + path` → what it answered. */
  readonly answers: ReadonlyMap<string, Answer>;
  readonly snapshot: Snapshot;
}

/**
 * Records what a snapshot's computation asks of the file system. Its `fs` is the adapter seen
 * through the recorder; {@link SnapshotRecorder.finish} returns the memo, or undefined when the
 * recording cannot be trusted later.
 */
export class SnapshotRecorder {
  readonly fs: FsAdapter;
  readonly #answers = new Map<string, Answer>();
  readonly #startedAt: number;
  #untrusted = false;

  constructor(fs: FsAdapter, now: number = Date.now()) {
    this.#startedAt = now;
    const note = (op: string, path: string, answer: Answer): void => this.#note(op, path, answer);
    const statBeforeRead = async (path: string): Promise<void> => {
      // The walker lstats a folder just before it lists it: that answer came first, and for
      // anything but a link it is the stat.
      const seen = this.#answers.get(`l${path}`);
      let info: FileInfo | null;
      if (typeof seen === 'object' && seen !== null && seen.kind !== 'symlink') info = seen;
      else note('s', path, (info = (await fs.stat(path)) ?? null));
      // A read within the racy window may be followed by a change that leaves the stat as it is.
      if (info !== null && info.mtimeMs >= this.#startedAt - RACY_WINDOW_MS) this.#untrusted = true;
    };
    const recorded: Partial<Record<keyof FsAdapter, unknown>> = {
      lstat: async (path: string) => {
        const info = await fs.lstat(path);
        note('l', path, info ?? null);
        return info;
      },
      lstatMany: async (paths: readonly string[]) => {
        const infos = await fs.lstatMany(paths);
        for (let i = 0; i < paths.length; i++) note('l', paths[i]!, infos[i] ?? null);
        return infos;
      },
      stat: async (path: string) => {
        const info = await fs.stat(path);
        note('s', path, info ?? null);
        return info;
      },
      realpath: async (path: string) => {
        const real = await fs.realpath(path);
        note('r', path, real ?? null);
        return real;
      },
      readdir: async (path: string) => {
        await statBeforeRead(path);
        return fs.readdir(path);
      },
      readdirTyped: async (path: string) => {
        await statBeforeRead(path);
        return fs.readdirTyped(path);
      },
      readBytes: async (path: string) => {
        await statBeforeRead(path);
        return fs.readBytes(path);
      },
      // Synchronous: no stat can be taken before it. The walker reads a range (a `#!` line) only
      // of a file it has just stat'ed: that answer stands for the content, if outside the window.
      readRange: (path: string, start: number, end: number) => {
        const known = this.#answers.get(`l${path}`) ?? this.#answers.get(`s${path}`);
        if (typeof known !== 'object' || known === null || known.mtimeMs >= this.#startedAt - RACY_WINDOW_MS) this.#untrusted = true;
        return fs.readRange(path, start, end);
      },
      raw: this.#recordedRaw(fs.raw),
    };
    // Everything else the adapter offers is not asked for by a snapshot; if it ever is, the
    // recording no longer knows every answer and is not kept.
    this.fs = new Proxy(fs, {
      get: (target, property) => {
        if (Object.hasOwn(recorded, property)) return recorded[property as keyof FsAdapter];
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        this.#untrusted = true;
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
  }

  /** isomorphic-git (HEAD, refs) asks the caller's file system directly: its stats and listings are recorded too. */
  #recordedRaw(raw: FileSystem): FileSystem {
    const promises = raw.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const infoOf = (stats: unknown): FileInfo => {
      const s = stats as { isSymbolicLink(): boolean; isFile(): boolean; isDirectory(): boolean; size: number | bigint; mtimeMs: number | bigint };
      const kind = s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
      return { kind, size: Number(s.size), mtimeMs: Number(s.mtimeMs) };
    };
    const statted = (op: 'l' | 's', name: 'lstat' | 'stat') => async (path: string) => {
      try {
        const stats = await promises[name]!.call(raw.promises, path);
        this.#note(op, path, infoOf(stats));
        return stats;
      } catch (error) {
        this.#note(op, path, null);
        throw error;
      }
    };
    const wrapped: Record<string, unknown> = {
      lstat: statted('l', 'lstat'),
      stat: statted('s', 'stat'),
      readdir: async (path: string, ...rest: unknown[]) => {
        await statted('s', 'stat')(path).catch(() => undefined);
        const info = this.#answers.get(`s${path}`);
        if (typeof info === 'object' && info !== null && info.mtimeMs >= this.#startedAt - RACY_WINDOW_MS) this.#untrusted = true;
        return promises.readdir!.call(raw.promises, path, ...rest);
      },
    };
    const untrusted = (): void => {
      this.#untrusted = true;
    };
    return new Proxy(raw, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== 'promises' || typeof value !== 'object' || value === null) {
          untrusted();
          return value;
        }
        return new Proxy(value, {
          get(p, name) {
            if (typeof name === 'string' && Object.hasOwn(wrapped, name)) return wrapped[name];
            const value = Reflect.get(p, name, p) as unknown;
            // Binding a method is not asking: isomorphic-git binds its client's methods up front.
            return typeof value === 'function' ? (...args: unknown[]) => (untrusted(), (value as (...a: unknown[]) => unknown).apply(p, args)) : value;
          },
        });
      },
    });
  }

  #note(op: string, path: string, answer: Answer): void {
    const key = `${op}${path}`;
    if (this.#answers.has(key) && !sameAnswer(this.#answers.get(key)!, answer)) this.#untrusted = true; // changed while walked
    this.#answers.set(key, answer);
  }

  /** The memo of `snapshot`, computed through {@link SnapshotRecorder.fs} for `scope`; undefined when it cannot be trusted later. */
  finish(scope: string, snapshot: Snapshot): SnapshotMemo | undefined {
    if (this.#untrusted) return undefined;
    return { scope, answers: new Map(this.#answers), snapshot };
  }
}

function sameAnswer(a: Answer, b: Answer): boolean {
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  return a.kind === b.kind && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * The memo's snapshot when `fs` answers every recorded question as it did, else undefined.
 * Returns a copy: callers may keep or change the walk's lists.
 */
export async function replaySnapshot(fs: FsAdapter, memo: SnapshotMemo, scope: string): Promise<Snapshot | undefined> {
  if (memo.scope !== scope) return undefined;
  // lstats go in batches (one call each: a promise per path would cost more than the system
  // call), small enough that a changed tree is told after a few of them, not after all.
  const lstats: string[] = [];
  const expected: Answer[] = [];
  const batchAgrees = async (): Promise<boolean> => {
    const infos = await fs.lstatMany(lstats);
    for (let i = 0; i < lstats.length; i++) if (!sameAnswer(infos[i] ?? null, expected[i]!)) return false;
    lstats.length = 0;
    expected.length = 0;
    return true;
  };
  try {
    for (const [key, answer] of memo.answers) {
      const path = key.slice(1);
      if (key.charCodeAt(0) === 108 /* l */) {
        lstats.push(path);
        expected.push(answer);
        if (lstats.length === REPLAY_BATCH && !(await batchAgrees())) return undefined;
      } else if (key.charCodeAt(0) === 115 /* s */) {
        if (!sameAnswer((await fs.stat(path)) ?? null, answer)) return undefined;
      } else if ((await fs.realpath(path)) !== (answer ?? undefined)) {
        return undefined;
      }
    }
    if (!(await batchAgrees())) return undefined;
  } catch {
    return undefined; // a question that now fails: walk, and report what the walk finds
  }
  return copySnapshot(memo.snapshot);
}

/** lstats asked at once by a replay. */
const REPLAY_BATCH = 512;

function copySnapshot(snapshot: Snapshot): Snapshot {
  const walk = snapshot.walk;
  return {
    ...snapshot,
    walk: {
      files: [...walk.files],
      skipped: [...walk.skipped],
      unknownExtensions: new Map(walk.unknownExtensions),
      ...(walk.gitignored !== undefined ? { gitignored: tallyOf(walk.gitignored.rules()) } : {}),
    },
  };
}

/** A tally holding these rules' counts, in their order (a copy, or one read back from a memo). */
function tallyOf(rules: readonly { readonly gitignore: string; readonly rule: string; readonly files: number; readonly folders: readonly string[] }[]): ExclusionTally {
  const tally = new ExclusionTally();
  for (const r of rules) {
    for (const folder of r.folders) tally.add(r.gitignore, r.rule, folder, true);
    for (let i = 0; i < r.files; i++) tally.add(r.gitignore, r.rule, '', false);
  }
  return tally;
}

// Kept between processes beside the index (as the folder listings are): plain JSON.
const FORMAT = 'ckg-snapshot-memo-1';

interface SavedMemo {
  readonly format: string;
  readonly scope: string;
  /** `[op + path, answer]`; an answer is null, a string (realpath) or `[kind, size, mtimeMs]`. */
  readonly answers: readonly [string, null | string | readonly [FileInfo['kind'], number, number]][];
  readonly key: string;
  readonly mode: Snapshot['mode'];
  readonly fallbackReason?: string;
  /** `[path, size, mtimeMs, language id]`. */
  readonly files: readonly [string, number, number, string][];
  readonly skipped: readonly SkippedFile[];
  readonly unknownExtensions: readonly [string, number][];
  /** `[gitignore, rule, files, folders]`. */
  readonly gitignored?: readonly [string, string, number, readonly string[]][];
}

/** A memo as JSON text. */
export function encodeSnapshotMemo(memo: SnapshotMemo): string {
  const { snapshot } = memo;
  const short = shortener(memo.scope);
  const saved: SavedMemo = {
    format: FORMAT,
    scope: memo.scope,
    answers: [...memo.answers].map(([key, a]) => [key[0]! + short(key.slice(1)), a === null || typeof a === 'string' ? a : [a.kind, a.size, a.mtimeMs]]),
    key: snapshot.key,
    mode: snapshot.mode,
    ...(snapshot.fallbackReason !== undefined ? { fallbackReason: snapshot.fallbackReason } : {}),
    files: snapshot.walk.files.map((f) => [short(f.path), f.size, f.mtimeMs, f.language.id]),
    skipped: snapshot.walk.skipped,
    unknownExtensions: [...snapshot.walk.unknownExtensions],
    ...(snapshot.walk.gitignored !== undefined ? { gitignored: snapshot.walk.gitignored.rules().map((r) => [r.gitignore, r.rule, r.files, r.folders]) } : {}),
  };
  return JSON.stringify(saved);
}

/** The codebase root a scope was made for (its first field). */
function rootOf(scope: string): string {
  const root = (JSON.parse(scope) as unknown[])[0];
  if (typeof root !== 'string') throw new Error('no root in the memo scope');
  return root.endsWith('/') ? root : `${root}/`;
}

/** Paths below the root saved as `./rest` (an absolute path never starts with `./`): a third of the bytes. */
function shortener(scope: string): (path: string) => string {
  const prefix = rootOf(scope);
  return (path) => (path.startsWith(prefix) ? `./${path.slice(prefix.length)}` : path);
}

function lengthener(scope: string): (path: string) => string {
  const prefix = rootOf(scope);
  return (path) => (path.startsWith('./') ? prefix + path.slice(2) : path);
}

const KINDS: ReadonlySet<string> = new Set(['file', 'directory', 'symlink', 'other']);
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/**
 * The memo saved as `text` (from {@link encodeSnapshotMemo}), with its files' languages from
 * `registry`; undefined for text that is not a well-formed memo or names a language the registry
 * lacks (the next check then walks).
 */
export function decodeSnapshotMemo(text: string, registry: LanguageRegistry): SnapshotMemo | undefined {
  let saved: SavedMemo;
  try {
    saved = JSON.parse(text) as SavedMemo;
  } catch {
    return undefined;
  }
  if (typeof saved !== 'object' || saved === null || saved.format !== FORMAT || typeof saved.scope !== 'string' || typeof saved.key !== 'string') return undefined;
  if ((saved.mode !== 'git' && saved.mode !== 'files') || !Array.isArray(saved.answers) || !Array.isArray(saved.files)) return undefined;
  if (!Array.isArray(saved.skipped) || !Array.isArray(saved.unknownExtensions)) return undefined;
  let long: (path: string) => string;
  try {
    long = lengthener(saved.scope);
  } catch {
    return undefined;
  }
  const answers = new Map<string, Answer>();
  for (const entry of saved.answers) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !/^[lsr]/.test(entry[0])) return undefined;
    const key = entry[0][0]! + long(entry[0].slice(1));
    const a = entry[1];
    if (a === null || typeof a === 'string') answers.set(key, a);
    else if (Array.isArray(a) && KINDS.has(a[0] as string) && isCount(a[1]) && typeof a[2] === 'number') answers.set(key, { kind: a[0], size: a[1], mtimeMs: a[2] });
    else return undefined;
  }
  const files: SourceFile[] = [];
  for (const f of saved.files) {
    const language = Array.isArray(f) && typeof f[3] === 'string' ? registry.get(f[3]) : undefined;
    if (language === undefined || typeof f[0] !== 'string' || !isCount(f[1]) || typeof f[2] !== 'number') return undefined;
    files.push({ path: long(f[0]), size: f[1], mtimeMs: f[2], language });
  }
  const skipped: SkippedFile[] = [];
  for (const s of saved.skipped) {
    if (typeof s !== 'object' || s === null || typeof s.path !== 'string' || typeof s.reason !== 'string') return undefined;
    skipped.push({ path: s.path, reason: s.reason, ...(typeof s.detail === 'string' ? { detail: s.detail } : {}) });
  }
  const unknownExtensions = new Map<string, number>();
  for (const u of saved.unknownExtensions) {
    if (!Array.isArray(u) || typeof u[0] !== 'string' || !isCount(u[1])) return undefined;
    unknownExtensions.set(u[0], u[1]);
  }
  let gitignored: ExclusionTally | undefined;
  if (saved.gitignored !== undefined) {
    if (!Array.isArray(saved.gitignored)) return undefined;
    const rules = [];
    for (const r of saved.gitignored) {
      if (!Array.isArray(r) || typeof r[0] !== 'string' || typeof r[1] !== 'string' || !isCount(r[2]) || !Array.isArray(r[3]) || !r[3].every((f) => typeof f === 'string')) return undefined;
      rules.push({ gitignore: r[0], rule: r[1], files: r[2], folders: r[3] });
    }
    gitignored = tallyOf(rules);
  }
  const walk: WalkResult = { files, skipped, unknownExtensions, ...(gitignored !== undefined ? { gitignored } : {}) };
  return {
    scope: saved.scope,
    answers,
    snapshot: { key: saved.key, mode: saved.mode, walk, ...(typeof saved.fallbackReason === 'string' ? { fallbackReason: saved.fallbackReason } : {}) },
  };
}
