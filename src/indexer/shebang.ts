// Scripts without an extension (`bin/deploy`, `tools/sync`) are recognised by their `#!` line:
// only the first bytes of such a file are read, and only for names that could be a script.
import type { FsAdapter } from '../fs/adapter.js';
import type { LanguageRegistry } from '../languages/registry.js';
import type { LanguageDefinition } from '../languages/types.js';

/** How many bytes of a file are read for its `#!` line. */
export const SHEBANG_BYTES = 256;

/** Extensionless names that are never scripts: build files, notices (the Linux tree has thousands). */
const NEVER_SCRIPTS = new Set([
  'Makefile', 'GNUmakefile', 'makefile', 'Kconfig', 'Kbuild', 'README', 'LICENSE', 'LICENCE', 'COPYING', 'CREDITS',
  'MAINTAINERS', 'AUTHORS', 'CHANGELOG', 'NEWS', 'NOTICE', 'TODO', 'VERSION', 'INSTALL', 'CODEOWNERS', 'OWNERS',
  'Dockerfile', 'Containerfile', 'Jenkinsfile', 'Vagrantfile', 'Gemfile', 'Rakefile', 'Procfile', 'Brewfile', 'Pipfile',
]);

/** True for a file name without an extension (nor a leading dot) that may be a script worth reading the first bytes of. */
export function mayBeScript(name: string): boolean {
  return !name.includes('.') && !NEVER_SCRIPTS.has(name);
}

/**
 * The interpreter names a `#!` line gives, most specific first: `#!/usr/bin/env -S python3.11 -u`
 * → `python3.11`, `python3`, `python`; `#!/bin/sh` → `sh`. Empty when the bytes do not start
 * with `#!`.
 *
 * @example
 * ```ts
 * interpreterNames(new TextEncoder().encode('#!/usr/bin/env node\n')); // ['node']
 * ```
 */
export function interpreterNames(head: Uint8Array): string[] {
  if (head[0] !== 0x23 || head[1] !== 0x21) return [];
  let end = head.indexOf(0x0a);
  if (end < 0) end = head.length;
  const line = new TextDecoder().decode(head.subarray(2, end)).trim();
  const words = line.split(/\s+/);
  let program = words.shift() ?? '';
  let base = program.slice(program.lastIndexOf('/') + 1);
  if (base === 'env') {
    // `env [-S] [-i] [-u NAME] [NAME=value]… program`
    for (;;) {
      const next = words.shift();
      if (next === undefined) return [];
      if (next === '-u' || next === '--unset') words.shift();
      else if (!next.startsWith('-') && !next.includes('=')) {
        program = next;
        break;
      }
    }
    base = program.slice(program.lastIndexOf('/') + 1);
  }
  const names = [base];
  // python3.11 → python3 → python
  for (let name = base; /[\d.]$/.test(name); ) {
    name = /\.\d+$/.test(name) ? name.replace(/\.\d+$/, '') : name.replace(/[\d.]+$/, '');
    if (name === '' || names.includes(name)) break;
    names.push(name);
  }
  return names;
}

/** The language a file's first bytes name through their `#!` line, if one is registered. */
export function languageOfShebang(registry: LanguageRegistry, head: Uint8Array): LanguageDefinition | undefined {
  for (const name of interpreterNames(head)) {
    const language = registry.forInterpreter(name);
    if (language) return language;
  }
  return undefined;
}

/**
 * The languages of extensionless files found by their `#!` line, kept between walks by path
 * with the size and mtime the file had: a re-check reads the first bytes again only of files
 * that changed (under the racy-mtime rule the indexer uses).
 */
export class ShebangCache {
  /** See `RACY_WINDOW_MS` (walker.ts): a file changed within this margin of its read is read again. */
  readonly #racyWindowMs: number;
  readonly #entries = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly readAt: number; readonly languageId: string | undefined }>();

  constructor(racyWindowMs: number) {
    this.#racyWindowMs = racyWindowMs;
  }

  /** The language of `path` (size and mtime as just stat'ed), reading its first bytes when not known. */
  async languageOf(fs: FsAdapter, registry: LanguageRegistry, path: string, size: number, mtimeMs: number): Promise<LanguageDefinition | undefined> {
    const known = this.#entries.get(path);
    if (known !== undefined && known.size === size && known.mtimeMs === mtimeMs && mtimeMs < known.readAt - this.#racyWindowMs) {
      return known.languageId === undefined ? undefined : registry.get(known.languageId);
    }
    const readAt = Date.now();
    const language = await sniff(fs, registry, path, size);
    this.#entries.set(path, { size, mtimeMs, readAt, languageId: language?.id });
    return language;
  }

  /** Forgets the entries of files whose folder `keep` rejects (folders gone or no longer walked). */
  retainFolders(keep: (dir: string) => boolean): void {
    for (const path of this.#entries.keys()) if (!keep(path.slice(0, Math.max(1, path.lastIndexOf('/'))))) this.#entries.delete(path);
  }
}

/** Reads the first bytes of a file and maps its `#!` line to a language. An unreadable file is no script. */
export async function sniff(fs: FsAdapter, registry: LanguageRegistry, path: string, size: number): Promise<LanguageDefinition | undefined> {
  if (size < 3) return undefined;
  try {
    // Without positioned reads, small files are read whole; larger ones are not worth it.
    const head = fs.readRange(path, 0, SHEBANG_BYTES) ?? (size <= 64 * 1024 ? (await fs.readBytes(path)).subarray(0, SHEBANG_BYTES) : undefined);
    return head === undefined ? undefined : languageOfShebang(registry, head);
  } catch {
    return undefined;
  }
}
