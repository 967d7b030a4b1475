import { Volume } from 'memfs';
import { CKGDatabase, type FileSystem, type IndexOptions } from '../../src/index.js';

/** A compact, comparable form of every row a language yields for one source file. */
export interface Row {
  kind: 'function' | 'method' | 'class';
  name: string;
  lines: string;
  parent?: string;
}

/** Indexes one file (in memfs) and returns its rows, sorted by start line then kind. */
export async function extractRows(fileName: string, source: string, options: IndexOptions = {}): Promise<{ rows: Row[]; db: CKGDatabase }> {
  const vol = Volume.fromJSON({ [`/src/${fileName}`]: source });
  const db = await CKGDatabase.open({ ...options, codebasePath: '/src', fs: vol as unknown as FileSystem });
  const rows: Row[] = [];
  const bytes = db.export();
  const { default: initSqlJs } = await import('sql.js');
  const SQL = await initSqlJs();
  const raw = new SQL.Database(bytes);
  try {
    for (const [name, s, e, pf, pc] of raw.exec('SELECT name, start_line, end_line, parent_function, parent_class FROM functions ORDER BY start_line, id')[0]?.values ?? []) {
      const row: Row = { kind: pc === null ? 'function' : 'method', name: String(name), lines: `${s}-${e}` };
      if (pc !== null) row.parent = String(pc);
      else if (pf !== null) row.parent = String(pf);
      rows.push(row);
    }
    for (const [name, s, e] of raw.exec('SELECT name, start_line, end_line FROM classes ORDER BY start_line, id')[0]?.values ?? []) {
      rows.push({ kind: 'class', name: String(name), lines: `${s}-${e}` });
    }
  } finally {
    raw.close();
  }
  rows.sort((a, b) => Number(a.lines.split('-')[0]) - Number(b.lines.split('-')[0]) || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  return { rows, db };
}
