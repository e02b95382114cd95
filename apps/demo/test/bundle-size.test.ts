// The page's size budget: no JavaScript file of the built page over 400 kB (minified, before
// gzip), the limit the demo was brought under (BENCHMARKS.md, "Demo page bundle").
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoPageDir } from '@scenaro/demo/server';

const BUDGET_BYTES = 400_000;
const assets = join(demoPageDir(), 'assets');
const built = existsSync(assets);
if (!built) {
  console.warn(
    '\n*** SKIPPING apps/demo/test/bundle-size.test.ts: apps/demo/dist/page is missing. Run `npm run build` first. ***\n',
  );
}

describe.skipIf(!built)('the built demo page', () => {
  it(`has no JavaScript file over ${BUDGET_BYTES / 1000} kB`, () => {
    const sizes = Object.fromEntries(
      readdirSync(assets)
        .filter((name) => name.endsWith('.js'))
        .map((name) => [name, statSync(join(assets, name)).size]),
    );
    expect(Object.keys(sizes).length).toBeGreaterThan(0);
    const over = Object.entries(sizes).filter(([, size]) => size > BUDGET_BYTES);
    expect(over, JSON.stringify(sizes)).toEqual([]);
  });
});
