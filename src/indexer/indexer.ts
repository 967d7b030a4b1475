import { CKGError } from '../errors.js';
import { EventLoopTurns } from '../event-loop.js';
import type { FsAdapter } from '../fs/adapter.js';
import type { FileRecord, IndexStore } from '../db/store.js';
import { beginWrite } from '../db/write-session.js';
import type { ExtractedFile } from '../parser/extract.js';
import type { ExtractionOptions, LanguageDefinition } from '../languages/types.js';
import { extractorVersionOf } from '../languages/registry.js';
import { describeFile } from '../graph/describe.js';
import { LARGE_BUILD_SITES } from '../graph/run.js';
import { graphStrategyFor } from '../graph/languages/index.js';
import type { LanguageGraph, NamingContext } from '../graph/strategy.js';
import { folderOf, type ManifestReader } from '../graph/manifests.js';
import { relativeInside } from '../fs/path.js';
import { contentHash, decodeSource, looksBinary, looksMinified } from './decode.js';
import { RACY_WINDOW_MS, type SkippedFile, type SourceFile, type WalkResult } from './walker.js';
import type { FileProcessor, IndexReport, ProcessOptions, ProgressEvent } from './report.js';

export type { FileProcessor, IndexReport, ProcessOptions, ProgressEvent } from './report.js';

/**
 * A sync parsing at most this many files keeps their syntax trees (see
 * {@link ProcessOptions.keepTree}): an edit-and-query loop touches a few files at a time and
 * often the same ones again; a full build keeps none.
 */
export const KEEP_TREES_UP_TO_FILES = 8;

/**
 * The files of a walk still in progress, for a build that parses while the tree is walked: the
 * walker pushes each file it selects (`WalkOptions.onFile`), then finishes with its result (or
 * fails). {@link syncIndex} starts on the files pushed so far and takes the rest as they come.
 */
export class WalkFeed {
  /** Files pushed so far, in walk order. */
  readonly found: SourceFile[] = [];
  #result: WalkResult | undefined;
  #failure: { readonly error: unknown } | undefined;
  #listener: (() => void) | undefined;
  #waiting: (() => void) | undefined;

  /** Adds a file the walk selected. */
  readonly push = (file: SourceFile): void => {
    this.found.push(file);
    this.#notify();
  };

  /** The walk ended; its result holds every pushed file (sorted) plus skips and unknown extensions. */
  finish(result: WalkResult): void {
    this.#result = result;
    this.#notify();
  }

  /** The walk failed: the sync consuming this feed fails with the same error. */
  fail(error: unknown): void {
    this.#failure = { error };
    this.#notify();
  }

  /** Throws the walk's error if it failed. */
  throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }

  /** The finished walk's result; undefined while it runs (or if it failed). */
  get result(): WalkResult | undefined {
    return this.#result;
  }

  /** Called (synchronously) on every push, finish and failure. */
  listen(listener: (() => void) | undefined): void {
    this.#listener = listener;
  }

  /** Resolves at the next push, finish or failure. */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  #notify(): void {
    this.#listener?.();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }
}

export interface SyncOptions {
  readonly fs: FsAdapter;
  /** The codebase root (module names are relative to it). */
  readonly root: string;
  /** What module names depend on beyond a file's path (see {@link NamingContext}). */
  readonly naming: NamingContext;
  /**
   * Fills `naming.manifests` (the same map) with the manifests of each file's folder before the
   * file is classified or named; without it no manifest is read.
   */
  readonly manifests?: ManifestReader | undefined;
  /** Build the code graph (default true); without it files get symbols but no edges. */
  readonly graph?: boolean;
  readonly store: IndexStore;
  /** The walked files: a finished walk, or one in progress (a build that parses as it walks). */
  readonly walk: WalkResult | WalkFeed;
  readonly processor: FileProcessor;
  readonly onProgress?: ((event: ProgressEvent) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** How many files are read ahead of the parser (I/O overlaps parsing). */
  readonly readAhead?: number;
  /** Paths to re-hash even when their size and mtime match the record (a body read back did not match). */
  readonly recheck?: ReadonlySet<string> | undefined;
  /** Limits the sync to these paths: records of other files are left as they are. */
  readonly scope?: ReadonlySet<string> | undefined;
  /** How many files are processed at once (the worker count, for a worker pool). */
  readonly concurrency?: number;
  /**
   * Files skipped for their content (binary, minified) by earlier syncs, by path, with the size
   * and mtime they had: while those still match (and are not racy), the file is reported skipped
   * again without being read. The sync updates the map.
   */
  readonly contentSkips?: Map<string, { readonly size: number; readonly mtimeMs: number; readonly skip: SkippedFile }> | undefined;
  /** The index's extraction options: handed to the processor, part of every file's extractor version. */
  readonly extraction?: ExtractionOptions | undefined;
  /** Pending sites from which a build releases its idle parse workers before resolving; default {@link LARGE_BUILD_SITES}. */
  readonly largeBuildSites?: number;
}

/**
 * `meta` key: when the last successful sync started (`Date.now()`), for the racy check.
 *
 * @example
 * ```ts
 * const last = Number(store.getMeta(SYNC_STARTED_META) ?? -Infinity);
 * ```
 */
export const SYNC_STARTED_META = 'sync_started_ms';

/** The rows of a file its language rules out without parsing (`LanguageDefinition.mayDefine`). */
function nothingDefined(): ExtractedFile {
  return { functions: [], classes: [], hasSyntaxErrors: false };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CKGError('ABORTED', 'The operation was aborted', { reason: String(signal.reason) });
}

interface Prepared {
  readonly file: SourceFile;
  readonly record?: FileRecord;
  readonly source?: string;
  /** The file's bytes, kept only when the store compresses sources into the index. */
  readonly bytes?: Uint8Array;
  readonly skip?: SkippedFile;
  /** Unchanged content (same hash) under a new mtime: only the files row is refreshed. */
  readonly touchOnly?: boolean;
}

/**
 * Brings the store in line with the walked files, in one transaction: files whose size, mtime
 * and extractor version match their record are kept; others are read, and re-parsed when
 * their content hash changed; records of files that are gone are removed. On an empty store
 * this is a full build. On error or abort the transaction is rolled back: the index is left as
 * it was.
 */
export async function syncIndex(options: SyncOptions): Promise<IndexReport> {
  const started = Date.now();
  const { fs, store, processor, onProgress, signal } = options;
  const feed = options.walk instanceof WalkFeed ? options.walk : undefined;
  // Files in walk order: all of them for a finished walk, those found so far for a feed.
  const walkedFiles = feed ? feed.found : (options.walk as WalkResult).files;
  // Files are read only after this instant; the next sync compares mtimes against it.
  const lastSyncStarted = Number(store.getMeta(SYNC_STARTED_META) ?? Number.NEGATIVE_INFINITY);
  const keepBytes = store.bodies === 'compressed';
  // The store's own map of records (live: this sync's writes update it). A path's record is
  // read before that path is written, so it is still the one from before this sync.
  const existing = store.fileRecords();
  const recordsBefore = existing.size;
  let recordsWalked = 0; // walked files that had a record: all of them means nothing was removed
  const todo: SourceFile[] = [];
  const skipped: SkippedFile[] = [];
  const contentSkips = options.contentSkips;
  const extraction = options.extraction ?? {};
  // A file's rows depend on its extractor (with the extraction options, hashed once per
  // language) and on what its module name depends on (per file: the go.mod or Cargo.toml above it).
  const versions = new Map<LanguageDefinition, string>();
  const strategies = new Map<string, LanguageGraph>();
  const strategyOf = (language: LanguageDefinition): LanguageGraph => {
    let strategy = strategies.get(language.id);
    if (strategy === undefined) strategies.set(language.id, (strategy = graphStrategyFor(language.id)));
    return strategy;
  };
  const relativeOf = (file: SourceFile): string => relativeInside(options.root, file.path) ?? file.path;
  const versionOf = (file: SourceFile): string => {
    let version = versions.get(file.language);
    if (version === undefined) versions.set(file.language, (version = extractorVersionOf(file.language, extraction)));
    const key = options.graph === false ? 'no-graph' : (strategyOf(file.language).namingKey?.(options.naming, relativeOf(file)) ?? '');
    return key === '' ? version : `${version}+${key}`;
  };
  // Languages whose module names read manifests (go.mod, Cargo.toml): a file's folder is read first.
  const manifestReader = options.graph === false ? undefined : options.manifests;
  const needsManifests = (file: SourceFile): boolean => manifestReader !== undefined && (strategyOf(file.language).manifests?.length ?? 0) > 0;
  const manifestsReady = (file: SourceFile): boolean => !needsManifests(file) || manifestReader!.loaded(folderOf(relativeOf(file)));
  let reused = 0;
  let bytesTotal = 0;
  let classified = 0; // walkedFiles[0, classified) are sorted into reused / todo / skipped
  const classify = (): void => {
    for (; classified < walkedFiles.length; classified++) {
      const file = walkedFiles[classified]!;
      const old = existing.get(file.path);
      if (old !== undefined) recordsWalked++;
      const known = contentSkips?.get(file.path);
      if (known !== undefined) {
        const unchanged = known.size === file.size && known.mtimeMs === file.mtimeMs && known.mtimeMs < lastSyncStarted - RACY_WINDOW_MS;
        if (unchanged && options.recheck?.has(file.path) !== true) {
          skipped.push(known.skip); // same bytes as when it was found binary or minified
          continue;
        }
        contentSkips!.delete(file.path); // changed: read it again
      }
      // Size + mtime equality is trusted (as git does) unless the mtime is racy: see RACY_WINDOW_MS.
      if (
        old &&
        old.size === file.size &&
        old.mtimeMs === file.mtimeMs &&
        old.mtimeMs < lastSyncStarted - RACY_WINDOW_MS &&
        options.recheck?.has(file.path) !== true &&
        old.language === file.language.id &&
        // A file whose manifests are not read yet (a walk in progress) is read again to be sure.
        manifestsReady(file) &&
        old.extractorVersion === versionOf(file)
      ) {
        reused++;
      } else {
        todo.push(file);
        bytesTotal += file.size;
      }
    }
  };
  // A finished walk: every folder's manifests are read before files are compared with their records.
  if (feed === undefined && manifestReader !== undefined) {
    const folders = new Set<string>();
    for (const file of walkedFiles) if (needsManifests(file)) folders.add(folderOf(relativeOf(file)));
    await Promise.all([...folders].map((dir) => manifestReader.load(dir)));
  }
  classify();
  // Small updates keep their trees (decided on the whole walk: a feed's files are not all known yet).
  const keepTrees = feed === undefined && todo.length <= KEEP_TREES_UP_TO_FILES;
  const hasExtraction = extraction.functionMacros !== undefined && extraction.functionMacros.length > 0;
  const processOptions: ProcessOptions | undefined =
    keepTrees || options.graph === false || hasExtraction
      ? { ...(keepTrees ? { keepTree: true } : {}), ...(options.graph === false ? { graph: false } : {}), ...(hasExtraction ? { extraction } : {}) }
      : undefined;
  let filesDone = 0;
  let bytesDone = 0;
  let parsed = 0;
  let withErrors = 0;
  onProgress?.({ phase: 'parse', filesDone, filesTotal: todo.length, bytesDone, bytesTotal, ...(feed !== undefined ? { walking: true } : {}) });

  const prepare = async (file: SourceFile): Promise<Prepared> => {
    if (needsManifests(file)) await manifestReader!.load(folderOf(relativeOf(file)));
    let bytes: Uint8Array;
    try {
      bytes = await fs.readBytes(file.path);
    } catch (error) {
      return { file, skip: { path: file.path, reason: 'unreadable', detail: error instanceof Error ? error.message : String(error) } };
    }
    if (looksBinary(bytes)) return { file, skip: { path: file.path, reason: 'binary' } };
    if (looksMinified(bytes)) return { file, skip: { path: file.path, reason: 'minified' } };
    const record: FileRecord = {
      path: file.path,
      size: bytes.length,
      mtimeMs: file.mtimeMs,
      contentHash: contentHash(bytes),
      language: file.language.id,
      extractorVersion: versionOf(file),
    };
    const old = existing.get(file.path);
    if (old && old.contentHash === record.contentHash && old.language === record.language && old.extractorVersion === record.extractorVersion) {
      return { file, record, touchOnly: true };
    }
    return keepBytes ? { file, record, source: decodeSource(bytes), bytes } : { file, record, source: decodeSource(bytes) };
  };

  const writer = beginWrite(store);
  let stopped = false; // set when the write loop ends (done, error or abort): start nothing more
  let removed: string[] = [];
  let unknownExtensions = new Map<string, number>();
  try {
    const readAhead = Math.max(1, options.readAhead ?? 8);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    // Rows are written in walk order, but a new file is started as soon as ANY file finishes:
    // waiting for the oldest one (a large file) would leave the other workers without work.
    // Finished files wait in `inFlight` until those before them are written; the window is
    // bounded so a very slow file cannot make the others pile up without limit.
    const maxWindow = concurrency * 4;
    const pending: Promise<Prepared>[] = [];
    let next = 0;
    let active = 0; // launched and not finished
    const fill = (): void => {
      while (pending.length < readAhead + concurrency && next < todo.length) pending.push(prepare(todo[next++]!));
    };
    const inFlight: Promise<{ prepared: Prepared; extracted?: ExtractedFile; error?: unknown }>[] = [];
    const launch = (): void => {
      fill();
      const p = pending.shift();
      if (!p) return;
      active++;
      inFlight.push(
        p
          .then(async (prepared) => {
            if (prepared.source === undefined) return { prepared };
            if (prepared.file.language.mayDefine?.(prepared.source) === false) return { prepared, extracted: nothingDefined() };
            try {
              const extracted = await processor.process(prepared.file.language, prepared.source, prepared.file.path, processOptions);
              return { prepared, extracted };
            } catch (error) {
              return { prepared, error };
            }
          })
          .finally(() => {
            active--;
            pump();
          }),
      );
    };
    const pump = (): void => {
      while (!stopped && active < concurrency && inFlight.length < maxWindow && (pending.length > 0 || next < todo.length)) launch();
    };
    pump();
    // Files the walk finds from now on start at once (the walk runs in this thread, between awaits).
    feed?.listen(() => {
      classify();
      pump();
    });
    // Writing rows is synchronous too: the loop gives the event loop a turn every 16 ms.
    const turns = new EventLoopTurns();
    for (;;) {
      await turns.maybeYield();
      throwIfAborted(signal);
      feed?.throwIfFailed();
      if (inFlight.length === 0) {
        if (feed === undefined || feed.result !== undefined) break;
        await feed.changed();
        classify();
        pump();
        continue;
      }
      const { prepared, extracted, error } = await inFlight.shift()!;
      pump();
      const { file } = prepared;
      if (error !== undefined) {
        if (error instanceof CKGError && (error.code === 'WASM_LOAD_FAILED' || error.code === 'CLOSED')) throw error;
        skipped.push({ path: file.path, reason: 'parse-failed', detail: error instanceof Error ? error.message : String(error) });
        writer.removeFile(file.path);
      } else if (prepared.skip) {
        skipped.push(prepared.skip);
        writer.removeFile(file.path);
        if (prepared.skip.reason === 'binary' || prepared.skip.reason === 'minified') {
          contentSkips?.set(file.path, { size: file.size, mtimeMs: file.mtimeMs, skip: prepared.skip });
        }
      } else if (prepared.touchOnly && prepared.record) {
        writer.touchFile(prepared.record);
        reused++;
      } else if (prepared.record && extracted) {
        writer.putFile(prepared.record, extracted, describeFile(relativeOf(file), extracted, graphStrategyFor(file.language.id), options.naming), prepared.bytes);
        parsed++;
        if (extracted.hasSyntaxErrors) withErrors++;
      }
      filesDone++;
      bytesDone += file.size;
      onProgress?.({ phase: 'parse', filesDone, filesTotal: todo.length, bytesDone, bytesTotal, currentFile: file.path, ...(feed !== undefined && feed.result === undefined ? { walking: true } : {}) });
    }
    throwIfAborted(signal);
    // The walk is complete: records of files it did not find go (a partial sync removes only
    // records among its paths).
    const walk = feed ? feed.result! : (options.walk as WalkResult);
    // When every record was walked (the usual re-check of a big tree), there is nothing to remove
    // and no need for a set of every walked path.
    const pruneSkips = contentSkips !== undefined && contentSkips.size > 0 && options.scope === undefined;
    if (recordsWalked < recordsBefore || pruneSkips) {
      const walked = new Set(walk.files.map((f) => f.path));
      if (recordsWalked < recordsBefore) {
        removed = [...existing.keys()].filter((p) => !walked.has(p) && (options.scope === undefined || options.scope.has(p)));
        for (const path of removed) writer.removeFile(path);
      }
      if (pruneSkips) {
        for (const path of contentSkips.keys()) if (!walked.has(path)) contentSkips.delete(path); // gone or no longer walked
      }
    }
    skipped.unshift(...walk.skipped);
    unknownExtensions = walk.unknownExtensions;
    // What remains runs in steps (a build's resolution pass in chunks of sites, its indexes one
    // at a time): the event loop gets a turn every 16 ms, and an abort stops the build.
    const turn = async (): Promise<void> => {
      await turns.maybeYield();
      throwIfAborted(signal);
    };
    if (options.graph !== false) {
      // Every file is parsed: a large build's workers would only hold memory through the pass.
      if (writer.pendingSites >= (options.largeBuildSites ?? LARGE_BUILD_SITES)) await processor.releaseIdle?.();
      const sites = writer.pendingSites;
      let done = -1;
      const graphProgress = (graphDone: number): void => {
        done = graphDone;
        onProgress?.({ phase: 'graph', filesDone, filesTotal: todo.length, bytesDone, bytesTotal, graphDone, ...(sites > 0 ? { sites } : {}) });
      };
      graphProgress(0);
      await writer.resolveGraph({ onProgress: graphProgress, turn });
      // An update's pass (a few sites, run whole) reports no chunk of its own.
      if (done < 1) graphProgress(1);
    }
    onProgress?.({ phase: 'write', filesDone, filesTotal: todo.length, bytesDone, bytesTotal });
    // The indexes a commit would create (each a run of seconds on the kernel), with turns between them.
    await writer.createIndexes(undefined, turn);
    writer.commit();
  } catch (error) {
    writer.rollback();
    throw error;
  } finally {
    stopped = true;
    feed?.listen(undefined);
  }
  // A partial sync keeps the older instant: files outside its scope were not re-examined.
  if (options.scope === undefined) store.setMeta({ [SYNC_STARTED_META]: String(started) });
  const counts = store.counts();
  onProgress?.({ phase: 'done', filesDone, filesTotal: todo.length, bytesDone, bytesTotal });
  return {
    filesParsed: parsed,
    filesReused: reused,
    filesRemoved: removed.length,
    filesIndexed: counts.files,
    functions: counts.functions,
    classes: counts.classes,
    filesWithSyntaxErrors: withErrors,
    skipped,
    unknownExtensions: Object.fromEntries([...unknownExtensions].sort(([a], [b]) => (a < b ? -1 : 1))),
    durationMs: Date.now() - started,
  };
}
