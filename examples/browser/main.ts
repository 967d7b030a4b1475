// The ckg-wasm browser example: index an in-memory codebase (bundled sample files, or files
// the user drops), answer searches, and keep the database in IndexedDB so a reload reuses it.
import {
  CKGDatabase,
  IndexedDBStorage,
  createWebWorkerPool,
  droppedFiles,
  expireStorage,
  memoryFileSystem,
  pickedFiles,
  type ClassEntry,
  type FunctionEntry,
  type MemoryFile,
} from 'ckg-wasm';
import { registerPageTools } from './webmcp.js';

// The sample codebase ships inside the bundle as text (Vite inlines each file's contents).
const sampleSources = import.meta.glob<string>('./sample/**/*', { query: '?raw', import: 'default', eager: true });
const SAMPLE_ROOT = '/sample';
const DROPPED_ROOT = '/dropped';
// A fixed mtime: the bundled files never change between reloads, so the stored index stays valid.
const SAMPLE_MTIME = Date.UTC(2026, 0, 1);

// The wasm files: Vite emits each of the package's wasm/ files as an asset and gives its URL
// (a dropped file may be of any language; only those met are fetched). The tree-sitter
// runtime is emitted by Vite from web-tree-sitter itself.
const wasm = { files: import.meta.glob<string>('../../wasm/*.wasm', { query: '?url', import: 'default', eager: true }) };
const storage = new IndexedDBStorage({ databaseName: 'ckg-wasm-example' });

// Files are parsed in Web Workers. The pool starts them when files need parsing, so a page
// that reuses its stored index never starts a worker nor fetches the tree-sitter runtime.
const pool = createWebWorkerPool({ size: Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)), wasm });

const $ = <T extends HTMLElement>(selector: string): T => {
  const element = document.querySelector<T>(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return element;
};
const status = $<HTMLOutputElement>('#status');
const form = $<HTMLFormElement>('#search');
const query = $<HTMLInputElement>('#query');
const results = $<HTMLOListElement>('#results');
const stored = $<HTMLUListElement>('#stored');
const dropZone = $<HTMLElement>('#drop');
const picker = $<HTMLInputElement>('#picker');
const folderPicker = $<HTMLInputElement>('#folder');
const forget = $<HTMLButtonElement>('#forget');
const textForm = $<HTMLFormElement>('#text-search');
const pattern = $<HTMLInputElement>('#pattern');
const mode = $<HTMLSelectElement>('#mode');
const textResults = $<HTMLOListElement>('#text-results');

let db: CKGDatabase | undefined;

function sampleFiles(): Map<string, MemoryFile> {
  const files = new Map<string, MemoryFile>();
  for (const [path, content] of Object.entries(sampleSources)) {
    files.set(`${SAMPLE_ROOT}/${path.slice('./sample/'.length)}`, { content, mtimeMs: SAMPLE_MTIME });
  }
  return files;
}

/** Sums the wasm this page has fetched so far (Resource Timing sees cache hits as 0 bytes). */
function wasmFetched(): { files: string[]; bytes: number } {
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const wasmEntries = entries.filter((e) => new URL(e.name).pathname.endsWith('.wasm'));
  return {
    files: wasmEntries.map((e) => new URL(e.name).pathname.split('/').pop() ?? e.name),
    bytes: wasmEntries.reduce((sum, e) => sum + e.encodedBodySize, 0),
  };
}

function setStatus(state: 'indexing' | 'ready' | 'error', text: string, data: Record<string, string> = {}): void {
  status.textContent = text;
  status.dataset.state = state;
  for (const [key, value] of Object.entries(data)) status.dataset[key] = value;
  document.body.dataset.state = state;
}

async function showStored(): Promise<void> {
  const entries = await storage.list();
  stored.replaceChildren(
    ...entries.map(({ key, lastUsed }) => {
      const li = document.createElement('li');
      li.textContent = `${key} — last used ${new Date(lastUsed).toLocaleString()}`;
      return li;
    }),
  );
  if (entries.length === 0) stored.replaceChildren(Object.assign(document.createElement('li'), { textContent: '(none)' }));
}

async function load(root: string, files: Map<string, MemoryFile>): Promise<void> {
  setStatus('indexing', `Indexing ${files.size} files…`);
  db?.close();
  db = undefined;
  results.replaceChildren();
  delete results.dataset.query;
  searches++;
  const started = performance.now();
  const fs = memoryFileSystem(files);
  try {
    db = await CKGDatabase.open({ codebasePath: root, fs, storage, wasm, processor: pool });
  } catch (error) {
    setStatus('error', `Failed: ${String(error)}`);
    throw error;
  }
  const ms = Math.round(performance.now() - started);
  // Browser agents get the ckg commands as page tools (WebMCP), when the browser has it.
  document.body.dataset.pageTools = registerPageTools({ root, fs, storage, wasm, processor: pool }).join(',');
  const { files: indexed, functions, classes } = db.stats();
  const parsed = db.report?.filesParsed ?? 0;
  const fetched = wasmFetched();
  // git:<HEAD>:… inside a git work tree (HEAD and the index decide), files:… elsewhere.
  const snapshot = await db.snapshotKey();
  // Results and the stored list are refreshed before the status says ready, so whoever waits
  // for "ready" never sees answers from the previous codebase.
  if (query.value) await search();
  await showStored();
  const how = db.origin === 'storage' ? 'reused from IndexedDB' : db.origin === 'updated' ? 'updated from IndexedDB' : 'built';
  setStatus(
    'ready',
    `${root}: ${indexed} files, ${functions} functions, ${classes} classes — ${how} in ${ms} ms, ` +
      `${parsed} files parsed; snapshot ${snapshot.slice(0, snapshot.indexOf(':') + 13)}…; ` +
      `wasm fetched: ${fetched.files.join(', ') || 'none'} (${(fetched.bytes / 1024).toFixed(0)} KiB)`,
    { root, origin: db.origin, filesParsed: String(parsed), filesIndexed: String(indexed), ms: String(ms), snapshot, workers: String(pool.started) },
  );
}

function resultItem(kind: string, entry: FunctionEntry | ClassEntry): HTMLLIElement {
  const li = document.createElement('li');
  const owner = 'parentClass' in entry && entry.parentClass ? `${entry.parentClass}.` : '';
  const head = document.createElement('div');
  head.className = 'head';
  head.textContent = `${kind} ${owner}${entry.name} — ${entry.filePath}:${entry.startLine}-${entry.endLine}`;
  const body = document.createElement('pre');
  body.textContent = entry.body;
  li.dataset.kind = kind;
  li.dataset.location = `${entry.filePath}:${entry.startLine}-${entry.endLine}`;
  li.append(head, body);
  return li;
}

let searches = 0;

async function search(): Promise<void> {
  if (!db) return;
  const name = query.value.trim();
  const mine = ++searches;
  const [functions, methods, classes] = await Promise.all([
    db.queryFunction(name, 'function'),
    db.queryFunction(name, 'class_method'),
    db.queryClass(name),
  ]);
  // A newer search (or a codebase switch) started meanwhile: its answer wins.
  if (mine !== searches) return;
  const items = [
    ...classes.map((e) => resultItem('class', e)),
    ...functions.map((e) => resultItem('function', e)),
    ...methods.map((e) => resultItem('method', e)),
  ];
  results.replaceChildren(...items);
  results.dataset.query = name;
  results.dataset.count = String(items.length);
  if (items.length === 0) results.replaceChildren(Object.assign(document.createElement('li'), { textContent: `No definition named ${name}.`, className: 'empty' }));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void search();
});

/**
 * Text search beside the graph, over the same in-memory files: `grep` lines (with the function
 * or class each one is in, from the index) or `glob` file names.
 */
async function textSearch(): Promise<void> {
  if (!db) return;
  const text = pattern.value;
  const how = mode.value;
  const line = (content: string, className = ''): HTMLLIElement => Object.assign(document.createElement('li'), { textContent: content, className });
  let items: HTMLLIElement[];
  try {
    if (how === 'glob') {
      const found = await db.glob({ pattern: text });
      items = found.results.map((r) => line(r.path));
    } else {
      const found = await db.grep({ pattern: text, outputMode: 'content', context: 1 });
      items = found.results.map((e) =>
        e.type === 'line' ? line(`${e.path}${e.match ? ':' : '-'}${e.line}${e.match ? ':' : '-'}${e.text}${e.enclosing ? `  (in ${e.enclosing})` : ''}`, e.match ? 'match' : 'context') : line(e.path),
      );
    }
  } catch (error) {
    items = [line(String(error instanceof Error ? error.message : error), 'error')];
  }
  textResults.replaceChildren(...items);
  if (items.length === 0) textResults.replaceChildren(line(`Nothing found for ${text}.`, 'empty'));
  textResults.dataset.pattern = `${how}:${text}`;
}

textForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void textSearch();
});

dropZone.addEventListener('dragover', (event) => {
  event.preventDefault();
  dropZone.classList.add('over');
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('over'));
/**
 * Indexes user files. A single dropped folder becomes the codebase root itself, so that its
 * `.git` (if any) is found and the snapshot key follows git HEAD and the git index.
 */
async function loadUserFiles(files: Map<string, MemoryFile>): Promise<void> {
  const tops = new Set([...files.keys()].map((path) => path.slice(DROPPED_ROOT.length + 1).split('/')[0]));
  const [top] = tops;
  const single = tops.size === 1 && top !== undefined && [...files.keys()].some((path) => path.startsWith(`${DROPPED_ROOT}/${top}/`));
  await load(single ? `${DROPPED_ROOT}/${top}` : DROPPED_ROOT, files);
}

dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  dropZone.classList.remove('over');
  if (event.dataTransfer) void droppedFiles(event.dataTransfer, DROPPED_ROOT).then(loadUserFiles);
});
for (const input of [picker, folderPicker]) {
  input.addEventListener('change', () => {
    if (input.files?.length) void pickedFiles(input.files, DROPPED_ROOT).then(loadUserFiles);
  });
}
forget.addEventListener('click', () => {
  void (async () => {
    for (const { key } of await storage.list()) await storage.delete(key);
    await showStored();
  })();
});

query.value = new URLSearchParams(location.search).get('q') ?? 'parse_price';
void (async () => {
  // Drop indexes of codebases not opened for a week (by last use, so daily use keeps them).
  await expireStorage(storage);
  await load(SAMPLE_ROOT, sampleFiles());
})();
