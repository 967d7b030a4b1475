// Global declarations the public types need, so that they compile with `skipLibCheck: false`
// in any TypeScript project: Node (no DOM lib), browser (no Node types), and a `lib` without
// `esnext.disposable`. Each one merges with the real declaration where the project has it.
// Reached from the entries through `export type {} from './globals.js'` (types only: nothing
// of this module exists at run time).

declare global {
  // `using db = …` / `await using pool = …` (the public types name both symbols); declared as
  // TypeScript's lib.esnext.disposable declares them.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
  // web-tree-sitter's declarations (the `Node` of a custom language's visitor) name these
  // without declaring them: `EmscriptenModule` (from @types/emscripten, which it does not
  // depend on) and `WebAssembly.Module` (from the DOM lib).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface EmscriptenModule {}
  namespace WebAssembly {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Module {}
  }
}

export {};
