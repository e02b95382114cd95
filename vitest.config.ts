import { defineConfig } from 'vitest/config';

const conditions = ['@scenaro/source', 'node', 'import', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@scenaro/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/src/**/*.test.tsx',
      'packages/*/test/**/*.test.ts',
      'packages/*/test/**/*.test.tsx',
      'apps/*/test/**/*.test.ts',
    ],
    setupFiles: ['./vitest.setup.ts'],
    // Recognizers at the server's own priority: at their default nice 10, the suite's own work
    // (or a CPU hog beside it) would starve them, and every test that listens would wait.
    // The tests of the nice value itself set theirs.
    env: { SCENARO_RECOGNIZER_NICE: '0' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
