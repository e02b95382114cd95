/**
 * Where the built page is: `dist/page` of the installed `@scenaro/demo` package, found
 * through package resolution, so it is the same from the repository and from an install.
 */
import { createRequire } from 'node:module';
import * as path from 'node:path';

/** The folder `vite build` writes the page to, inside the package. */
export const PAGE_DIR_IN_PACKAGE = 'dist/page';

/** The built page of the `@scenaro/demo` package that `from` (a file URL or path) resolves. */
export function demoPageDir(from: string | URL = import.meta.url): string {
  const manifest = createRequire(from).resolve('@scenaro/demo/package.json');
  return path.join(path.dirname(manifest), PAGE_DIR_IN_PACKAGE);
}
