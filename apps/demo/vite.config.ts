// Builds the storefront into dist/, which `scenaro demo` serves (relative asset URLs, so the
// page works from any path). `npm run build` at the root runs this after `tsc -b`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    reportCompressedSize: false,
    // @pipecat-ai/websocket-transport brings daily-js (about 800 kB): one chunk is fine for a demo.
    chunkSizeWarningLimit: 1500,
  },
});
