import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/generated/**',
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'test-artifacts/**',
      'eval-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        queueMicrotask: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Type-aware rules for every TypeScript file: an unhandled promise is a bug (a lost
    // rejection, or a test that ends before what it started). The packages' sources and tests
    // are typed by tsconfig.test.json; the demo by its three tsconfigs (the page under src,
    // the server with shared, and the tests with vite.config.ts). Plain JS (bench, scripts,
    // configuration) stays on the untyped rules above.
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.test.json',
          './apps/demo/tsconfig.json',
          './apps/demo/server/tsconfig.json',
          './apps/demo/test/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // CommonJS configuration files (.dependency-cruiser.cjs).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly' },
    },
  },
  {
    // A module stays small enough to read whole: split one that grows past 500 lines. Tests
    // (lists of cases) and generated code (ignored above) are not held to it.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.d.ts'],
    rules: {
      'max-lines': ['error', { max: 500 }],
    },
  },
);
