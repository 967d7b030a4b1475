import fs from 'node:fs';
import { CKGDatabase } from './dist/index.js';
const db = await CKGDatabase.open({ codebasePath: process.argv[2], fs });
const kinds = process.argv[3] ? process.argv[3].split(',') : undefined;
for (const e of await db.edges(kinds ? { kind: kinds } : {})) console.log(`${e.filePath.slice(process.argv[2].length + 1)}:${e.line} ${e.kind} ${e.from.qualifiedName} -> ${e.to ? e.to.qualifiedName : '∅'} [${e.toName}] ${e.resolution}${e.reason ? ':' + e.reason : ''}`);
db.close();
