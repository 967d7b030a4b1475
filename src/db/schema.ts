/**
 * The schema version stored inside every database (`meta.schema_version`). Bytes of another
 * version are rebuilt, never read. docs/schema.md documents each version's tables.
 */
export const SCHEMA_VERSION = '5';

/** Marks a database as ckg-wasm's (`meta.format`). */
export const FORMAT_NAME = 'ckg-wasm';

/**
 * Edge kinds as stored in `edges.kind` (small integers keep the kernel's millions of rows
 * small); the `edge_kinds` table names them for SQL readers. `member_of` is internal: a method
 * declared outside its class's body (a Go method, a C++ `Shape::rename`, a Rust `impl` item)
 * points at its class; readers see it as a `contains` edge from the class.
 */
export const EDGE_KIND_CODES = {
  calls: 0,
  imports: 1,
  inherits: 2,
  implements: 3,
  contains: 4,
  references: 5,
  member_of: 6,
} as const;

/** How an edge's target was found (`edges.resolution`); names in the `resolutions` table. */
export const RESOLUTION_CODES = {
  // Resolved.
  local: 1,
  import: 2,
  self: 3,
  super: 4,
  typed: 5,
  package: 6,
  qualified: 7,
  include: 8,
  global: 9,
  // Not resolved, with the cause.
  pending: 20, // internal: written before resolution runs, never committed
  parameter: 21,
  'local-variable': 22,
  dynamic: 23,
  builtin: 24,
  external: 25,
  'not-found': 26,
  ambiguous: 27,
  macro: 28, // C/C++: the name is a function-like macro visible at the site, not a function
} as const;

/** The first unresolved code: codes from here on mean `edges.to_id IS NULL`. */
export const FIRST_UNRESOLVED_CODE = 20;

const lookupRows = (codes: Record<string, number>): string =>
  Object.entries(codes)
    .map(([name, code]) => `(${code}, '${name}')`)
    .join(', ');

// Version 4 (the code graph): one `symbols` table holds every definition plus one `module`
// symbol per file; `functions` and `classes` are views over it with the reference CKG's columns
// (and the body columns of versions 2-3), so readers of earlier databases keep working. `edges`
// holds calls, imports, bases and value uses with their resolution; `bindings` the names each
// file's imports and module-level assignments bind (what resolution reads). docs/schema.md.
// Version 5: an edge's name as written is a row of `names` (the Linux kernel's 5.8 million
// sites write 0.8 million names: its database is 557 MB instead of 639 MB with the text in
// every row and its index, Django's 7.8 MB instead of 8.3 MB); `edge_list` shows it as `to_name`.
export const SCHEMA_SQL = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  content_hash TEXT NOT NULL,
  language TEXT NOT NULL,
  extractor_version TEXT NOT NULL
);
CREATE TABLE symbols (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  file_id INTEGER NOT NULL,
  parent_id INTEGER,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  parent_function TEXT,
  parent_class TEXT,
  fields TEXT,
  methods TEXT,
  body TEXT NOT NULL,
  body_start INTEGER NOT NULL,
  body_end INTEGER NOT NULL,
  body_hash INTEGER,
  flags INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE names (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE edges (
  id INTEGER PRIMARY KEY,
  kind INTEGER NOT NULL,
  from_id INTEGER NOT NULL,
  to_id INTEGER,
  name_id INTEGER NOT NULL,
  line INTEGER NOT NULL,
  resolution INTEGER NOT NULL,
  site TEXT,
  deps TEXT
);
CREATE TABLE bindings (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  scope_id INTEGER,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  module TEXT,
  member TEXT,
  line INTEGER NOT NULL
);
CREATE TABLE sources (
  file_id INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);
CREATE TABLE edge_kinds (
  code INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
CREATE TABLE resolutions (
  code INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
INSERT INTO edge_kinds (code, name) VALUES ${lookupRows(EDGE_KIND_CODES)};
INSERT INTO resolutions (code, name) VALUES ${lookupRows(RESOLUTION_CODES)};
CREATE VIEW functions AS
  SELECT s.id, s.name, f.path AS file_path, s.body, s.start_line, s.end_line, s.parent_function, s.parent_class,
         s.file_id, s.body_start, s.body_end, s.body_hash
  FROM symbols s JOIN files f ON f.id = s.file_id
  WHERE s.kind IN ('function', 'method');
CREATE VIEW classes AS
  SELECT s.id, s.name, f.path AS file_path, s.body, s.fields, s.methods, s.start_line, s.end_line,
         s.file_id, s.body_start, s.body_end, s.body_hash
  FROM symbols s JOIN files f ON f.id = s.file_id
  WHERE s.kind = 'class';
CREATE VIEW edge_list AS
  SELECT e.id, k.name AS kind, e.from_id, e.to_id, (SELECT name FROM names WHERE id = e.name_id) AS to_name, s.file_id, f.path AS file_path, e.line,
         CASE WHEN e.resolution >= ${FIRST_UNRESOLVED_CODE} THEN 'unresolved' ELSE r.name END AS resolution,
         CASE WHEN e.resolution >= ${FIRST_UNRESOLVED_CODE} THEN r.name END AS reason
  FROM edges e JOIN edge_kinds k ON k.code = e.kind JOIN resolutions r ON r.code = e.resolution
  JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
  WHERE e.kind <> ${EDGE_KIND_CODES.member_of}
  UNION ALL
  SELECT -e.id, 'contains', e.to_id, e.from_id, s.name, s.file_id, f.path, s.start_line, r.name, NULL
  FROM edges e JOIN resolutions r ON r.code = e.resolution JOIN symbols s ON s.id = e.from_id JOIN files f ON f.id = s.file_id
  WHERE e.kind = ${EDGE_KIND_CODES.member_of} AND e.to_id IS NOT NULL
  UNION ALL
  SELECT -1000000000 - s.id, 'contains', s.parent_id, s.id, s.name, s.file_id, f.path, s.start_line, 'local', NULL
  FROM symbols s JOIN symbols p ON p.id = s.parent_id JOIN files f ON f.id = s.file_id
  WHERE p.kind <> 'module';
`;

/**
 * An edge's name (`edges e`), as a column: a subquery, which sql.js runs in about half the time
 * of a join with `names`.
 */
export const NAME_OF_EDGE = '(SELECT name FROM names WHERE id = e.name_id)';

/**
 * The binding kinds C and C++ files declare with (prototypes, function-like macros, type
 * aliases, `using`), as an SQL list: what an included file makes visible, read by name. The
 * index on them is partial (other languages' imports are read by file), so a lookup must say
 * the same `kind IN (...)` list word for word for SQLite to use it.
 */
export const DECLARATION_KINDS_SQL = "'declare', 'macro', 'alias', 'using'";

/**
 * SQL for the last part of a module symbol's name (`include/linux/fs.h` → `fs.h`): modules are
 * found by the end of their path (C `#include <linux/fs.h>`) through an index on it.
 */
export const MODULE_FILE_NAME_SQL = "replace(name, rtrim(name, replace(name, '/', '')), '')";

/**
 * The index of {@link MODULE_FILE_NAME_SQL}, created by the first resolution pass that looks an
 * include up (GraphReader.modulesWithFileName): indexes without C or C++ files never pay for it.
 */
export const MODULE_FILE_NAME_INDEX_SQL = `CREATE INDEX IF NOT EXISTS symbols_module_file_name ON symbols(${MODULE_FILE_NAME_SQL}) WHERE kind = 'module'`;

// Created after a bulk load (faster than maintaining them row by row), kept during updates.
// The lookup indexes come first (resolution reads symbols and bindings by name and file); the
// edge indexes after a build's resolution pass has written every edge's target.
// One statement each: a build creates them one at a time, with a turn of the event loop between
// two (the kernel's take seconds each).
export const LOOKUP_INDEXES: readonly string[] = [
  'CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name)',
  'CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id)',
  'CREATE INDEX IF NOT EXISTS symbols_parent ON symbols(parent_id)',
  'CREATE INDEX IF NOT EXISTS bindings_file ON bindings(file_id)',
  `CREATE INDEX IF NOT EXISTS bindings_declared ON bindings(name) WHERE kind IN (${DECLARATION_KINDS_SQL})`,
  'CREATE INDEX IF NOT EXISTS bindings_module ON bindings(module) WHERE module IS NOT NULL',
];

export const INDEXES: readonly string[] = [
  ...LOOKUP_INDEXES,
  'CREATE INDEX IF NOT EXISTS edges_from ON edges(from_id)',
  'CREATE INDEX IF NOT EXISTS edges_to ON edges(to_id) WHERE to_id IS NOT NULL',
  'CREATE INDEX IF NOT EXISTS edges_name ON edges(name_id)',
  'CREATE INDEX IF NOT EXISTS edges_deps ON edges(id) WHERE deps IS NOT NULL',
];

export const INDEXES_SQL = INDEXES.map((s) => `${s};`).join('\n');
