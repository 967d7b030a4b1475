// Reading a prepared statement's rows: one loop for every reader of the store, the graph reader
// and the write session, the statement reset for its next use whatever happens.
import type { SqlValue, Statement } from 'sql.js';

/** Every row `stmt` gives for `params`; the statement is reset (not freed) afterwards. */
export function allRows(stmt: Statement, params: SqlValue[]): SqlValue[][] {
  const out: SqlValue[][] = [];
  try {
    stmt.bind(params);
    while (stmt.step()) out.push(stmt.get());
  } finally {
    stmt.reset();
  }
  return out;
}
