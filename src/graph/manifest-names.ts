// Which project files (go.mod, Cargo.toml) module names depend on, and the folders they are
// looked up in: what the snapshot key needs of manifests, without the graph rules that read them.
import { MANIFEST_FILES } from './languages/manifest-files.js';

/** The manifest file names the graph rules of these languages read (see `LanguageGraph.manifests`). */
export function manifestNamesOf(languageIds: Iterable<string>): readonly string[] {
  const out = new Set<string>();
  for (const id of languageIds) for (const name of MANIFEST_FILES[id] ?? []) out.add(name);
  return [...out].sort();
}

/** Whether files of this language have module names that read manifests. */
export function readsManifests(languageId: string): boolean {
  return (MANIFEST_FILES[languageId]?.length ?? 0) > 0;
}

/** The folders from `relativeDir` up to the root (`''`), nearest first. */
export function foldersUp(relativeDir: string): string[] {
  const out = [relativeDir];
  for (let dir = relativeDir; dir !== ''; ) {
    dir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    out.push(dir);
  }
  return out;
}

/** The folder part of a relative path (`''` for a file at the root). */
export function folderOf(relativePath: string): string {
  return relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
}

