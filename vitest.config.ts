import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [{ find: '#platform', replacement: fileURLToPath(new URL('./src/platform/node.ts', import.meta.url)) }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // CLIs the tests spawn answer in their own process: a test of the answer server turns it on
    // with its own runtime folder, and stops it.
    env: { CKG_WASM_DAEMON: '0' },
  },
});
