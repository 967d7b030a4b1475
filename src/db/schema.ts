/**
 * The schema version stored inside every database (`meta.schema_version`). Bytes of another
 * version are rebuilt, never read.
 */
export const SCHEMA_VERSION = '3';

/** Marks a database as ckg-wasm's (`meta.format`). */
export const FORMAT_NAME = 'ckg-wasm';

// Table and column names of `functions` and `classes` follow the reference CKG, so tools that
// read its databases read ours; `files`, `sources` and `meta` are ours. Version 2 added
// `body_start`/`body_end` (UTF-16 offsets of the body in the decoded file) and `sources`: with
// `meta.bodies` = 'compressed' or 'lazy' the `body` column holds '' and the text is sliced from
// the file's deflated bytes (`sources`) or from the file itself (see docs/bodies.md). Version 3
// added `body_hash` (a hash of the body text, set with 'lazy' bodies: a query checks only the
// bodies it returns, not whole files).
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
CREATE TABLE functions (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  file_path TEXT NOT NULL,
  body TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  parent_function TEXT,
  parent_class TEXT,
  file_id INTEGER NOT NULL,
  body_start INTEGER NOT NULL,
  body_end INTEGER NOT NULL,
  body_hash INTEGER
);
CREATE TABLE classes (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  file_path TEXT NOT NULL,
  body TEXT NOT NULL,
  fields TEXT,
  methods TEXT,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  file_id INTEGER NOT NULL,
  body_start INTEGER NOT NULL,
  body_end INTEGER NOT NULL,
  body_hash INTEGER
);
CREATE TABLE sources (
  file_id INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);
`;

// Created after a bulk load (faster than maintaining them row by row), kept during updates.
export const INDEXES_SQL = `
CREATE INDEX IF NOT EXISTS functions_name ON functions(name);
CREATE INDEX IF NOT EXISTS classes_name ON classes(name);
CREATE INDEX IF NOT EXISTS functions_file ON functions(file_id);
CREATE INDEX IF NOT EXISTS classes_file ON classes(file_id);
`;
