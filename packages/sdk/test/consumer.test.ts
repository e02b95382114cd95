// A throwaway consumer package, outside the workspace, that depends on the built
// @scenaro/sdk: it must resolve `@scenaro/sdk/protocol` for types (tsc, NodeNext,
// no source conditions) and at run time (plain node).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const sdkRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(sdkRoot, '../..');
const built = existsSync(join(sdkRoot, 'dist/protocol/index.js'));
if (!built)
  console.warn('consumer test skipped: run `npm run build` first (packages/sdk/dist is missing)');

describe.skipIf(!built)('a consumer of the built package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scenaro-consumer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves @scenaro/sdk/protocol for types and at run time', () => {
    mkdirSync(join(dir, 'node_modules/@scenaro'), { recursive: true });
    symlinkSync(sdkRoot, join(dir, 'node_modules/@scenaro/sdk'), 'dir');
    // The package's own runtime dependencies, as npm would install them beside it.
    for (const dep of ['@bufbuild', 'zod']) {
      symlinkSync(join(repoRoot, 'node_modules', dep), join(dir, 'node_modules', dep), 'dir');
    }
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', type: 'module', dependencies: { '@scenaro/sdk': '*' } }),
    );
    writeFileSync(
      join(dir, 'index.ts'),
      [
        "import { RPC_METHODS, resolveRpcMethodName, type RpcToolResponse } from '@scenaro/sdk/protocol';",
        'const method: string = RPC_METHODS.UI_ACTIVITY_CHECK.method;',
        'const timeout: 3000 = RPC_METHODS.UI_ACTIVITY_CHECK.timeoutMs;',
        "const response: RpcToolResponse = { code: 'SUCCESS', data: resolveRpcMethodName({ name: 'x' }) };",
        'console.log(JSON.stringify({ method, timeout, response }));',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          skipLibCheck: false,
          types: [],
          lib: ['ES2023', 'DOM'],
        },
        files: ['index.ts'],
      }),
    );
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', dir], { cwd: dir, stdio: 'pipe' });
    const out = execFileSync(process.execPath, ['index.js'], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      method: 'scenaro__ui_activity_check',
      timeout: 3000,
      response: { code: 'SUCCESS', data: 'x' },
    });
  });
});
