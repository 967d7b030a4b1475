/**
 * The project files each language's module names depend on (`LanguageGraph.manifests`), by
 * language id: Go's import paths on the nearest `go.mod`, Rust's crate names on the nearest
 * `Cargo.toml`. A table of its own, apart from the graph rules that read the files, because the
 * snapshot key stats these files on every check, and a check must not load the graph rules.
 */
export const MANIFEST_FILES: Readonly<Record<string, readonly string[]>> = {
  go: ['go.mod'],
  rust: ['Cargo.toml'],
};
