// Builds the storefront into dist/page, which `scenaro demo` serves at the root of its address
// (any page path gets the app). `npm run build` at the root runs this after `tsc -b`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    // The page gives WebSocketTransport its own media manager, so Daily (the transport's
    // default one) never runs: src/no-daily.ts stands in for it.
    alias: { '@daily-co/daily-js': fileURLToPath(new URL('src/no-daily.ts', import.meta.url)) },
  },
  // `npm run dev -w @scenaro/demo` next to a running `npx scenaro demo` (port 4173): the dev
  // page takes that demo's bot.
  server: { proxy: { '/config.json': 'http://127.0.0.1:4173' } },
  build: {
    outDir: 'dist/page',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
