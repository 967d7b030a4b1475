import type { FsAdapter } from '../fs/adapter.js';
import { foldersUp } from './manifest-names.js';

export { folderOf, foldersUp, manifestNamesOf, readsManifests } from './manifest-names.js';

// Module names of some languages depend on project files that are not indexed themselves: Go's
// import paths on the nearest `go.mod`, Rust's crate names on the nearest `Cargo.toml`. They are
// read here, once per folder and sync, for the folders that hold files of those languages and
// every folder above them up to the codebase root.

/** Larger manifests are not read (a real go.mod or Cargo.toml is a few KiB). */
const MAX_MANIFEST_BYTES = 1 << 20;

/**
 * Reads the manifests of one sync. {@link ManifestReader.found} is the map a `NamingContext`
 * holds; {@link ManifestReader.load} must have completed for a file's folder before the file's
 * module is named. A manifest that cannot be read counts as absent (its language then names
 * modules by path alone).
 */
export class ManifestReader {
  readonly #fs: FsAdapter;
  readonly #root: string;
  readonly #names: readonly string[];
  readonly #loading = new Map<string, Promise<void>>();
  readonly #loaded = new Set<string>();
  /** Manifests found so far, by path relative to the root, with their text. */
  readonly found = new Map<string, string>();

  constructor(fs: FsAdapter, root: string, names: readonly string[]) {
    this.#fs = fs;
    this.#root = root === '/' ? '' : root.replace(/\/+$/, '');
    this.#names = names;
  }

  /** Whether {@link ManifestReader.load} has completed for this folder (relative to the root). */
  loaded(relativeDir: string): boolean {
    return this.#names.length === 0 || this.#loaded.has(relativeDir);
  }

  /** Reads the manifests of `relativeDir` and of every folder above it (each folder once). */
  async load(relativeDir: string): Promise<void> {
    if (this.loaded(relativeDir)) return;
    await Promise.all(foldersUp(relativeDir).map((dir) => this.#loadFolder(dir)));
    this.#loaded.add(relativeDir);
  }

  #loadFolder(dir: string): Promise<void> {
    let p = this.#loading.get(dir);
    if (p === undefined) {
      p = Promise.all(this.#names.map((name) => this.#read(dir === '' ? name : `${dir}/${name}`))).then(() => undefined);
      this.#loading.set(dir, p);
    }
    return p;
  }

  async #read(relative: string): Promise<void> {
    const path = `${this.#root}/${relative}`;
    try {
      const info = await this.#fs.stat(path);
      if (info?.kind !== 'file' || info.size > MAX_MANIFEST_BYTES) return;
      this.found.set(relative, new TextDecoder().decode(await this.#fs.readBytes(path)));
    } catch {
      // Unreadable: as if absent (module names then follow paths alone).
    }
  }
}
