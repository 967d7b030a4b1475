// A strict TypeScript consumer in Node (compiled, not run, by typescript.test.ts): the public
// types of both entries, used the way the docs show, with what the compiler must refuse.
import fs from 'node:fs';
import { Volume } from 'memfs';
import { LanguageRegistry, builtinLanguages, type LanguageDefinition } from 'ckg-wasm';
import {
  CKGDatabase,
  CKGError,
  CKGTool,
  DirectoryStorage,
  createWorkerPool,
  memoryFileSystem,
  type CKGToolCall,
  type CKGToolResult,
  type ClassEntry,
  type FileSystem,
  type FunctionEntry,
  type IndexReport,
  type WasmOptions,
} from 'ckg-wasm/node';

export async function search(root: string, name: string): Promise<readonly FunctionEntry[]> {
  await using pool = createWorkerPool({ size: 2, wasm: { load: async () => undefined } });
  using db = await CKGDatabase.open({ codebasePath: root, fs, processor: pool, storage: new DirectoryStorage() });
  const report: IndexReport | undefined = db.report;
  const workers: number | undefined = report?.workers;
  void workers;
  const classes: ClassEntry[] = await db.queryClass(name);
  void classes;
  return [...(await db.queryFunction(name)), ...(await db.queryFunction(name, 'class_method'))];
}

export async function inMemory(): Promise<CKGToolResult> {
  // memfs volumes and memoryFileSystem are FileSystems without a cast.
  const vol: FileSystem = Volume.fromJSON({ '/repo/a.py': 'def f():\n    pass\n' });
  const mem: FileSystem = memoryFileSystem({ '/repo/a.py': 'def f():\n    pass\n' });
  void mem;
  // A registry made from the main entry is the class the Node entry's open() takes.
  const python = builtinLanguages.find((l: LanguageDefinition) => l.id === 'python');
  const languages = new LanguageRegistry(python ? [python] : []);
  try {
    const db = await CKGDatabase.open({ codebasePath: '/repo', fs: vol, languages, processor: 'this-thread', bodies: 'compressed' });
    db.close();
  } catch (error) {
    if (error instanceof CKGError && error.code === 'WASM_LOAD_FAILED') console.error(error.data.file);
    throw error;
  }
  const tool = new CKGTool({ fs: vol });
  const call: CKGToolCall = { command: 'search_function', path: '/repo', identifier: 'f', print_body: false };
  const fromModel: unknown = JSON.parse('{"command":"search_class","path":"/repo","identifier":"K"}');
  await tool.execute(fromModel as Record<string, unknown>);
  return await tool.execute(call);
}

export function refused(root: string): void {
  // @ts-expect-error -- not a command of the ckg tool
  const typo: CKGToolCall = { command: 'search_fucntion', path: root, identifier: 'f' };
  // @ts-expect-error -- sql.js's instance is typed (not `any`): a number is no sql.js
  const wasm: WasmOptions = { sqlJs: 42 };
  // @ts-expect-error -- the processor is a FileProcessor or 'this-thread'
  void CKGDatabase.open({ codebasePath: root, fs, processor: 'workers' });
  // @ts-expect-error -- the second argument of queryFunction is a kind
  void CKGDatabase.fromBytes(new Uint8Array()).then((db) => db.queryFunction('f', 'method'));
  void typo;
  void wasm;
}
