"""A toy shop used by the ckg-wasm browser example."""
