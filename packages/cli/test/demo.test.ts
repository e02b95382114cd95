// `scenaro demo`: the flags, where the CLI finds the built page (through package resolution
// of `@scenaro/demo`, as an installed CLI does), and the built command serving that page.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoPageDir } from '@scenaro/demo/server';
import { demoOptions } from '../src/demo-options.js';

const cliDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(cliDir, 'bin/scenaro.js');
/** The page as the CLI package resolves it: `dist/page` of its `@scenaro/demo` dependency. */
const pageDir = join(
  dirname(createRequire(join(cliDir, 'package.json')).resolve('@scenaro/demo/package.json')),
  'dist/page',
);
const built = existsSync(join(pageDir, 'index.html')) && existsSync(join(cliDir, 'dist/bin.js'));
if (!built) {
  console.warn(
    '\n*** SKIPPING the served-page tests of packages/cli/test/demo.test.ts: the demo page or the CLI is not built. Run `npm run build` first. ***\n',
  );
}

const stops: (() => void)[] = [];
afterAll(() => {
  for (const stop of stops) stop();
});

describe('scenaro demo flags', () => {
  const flags = { host: '127.0.0.1', port: '0', botPort: '0' };

  it('refuses bad options', () => {
    const refused: [Partial<typeof flags> & { llmBaseUrl?: string }, string][] = [
      [{ llmBaseUrl: 'http://127.0.0.1:9/v1' }, '--llm-base-url and --llm-model go together'],
      [{ port: '99999' }, "--port must be an integer from 0 to 65535, got '99999'"],
      [{ botPort: 'x' }, "--bot-port must be an integer from 0 to 65535, got 'x'"],
    ];
    for (const [bad, message] of refused) {
      expect(() => demoOptions({ ...flags, ...bad })).toThrow(message);
    }
  });

  it('answers with the scripted shop assistant unless an LLM is configured', () => {
    expect(demoOptions({ ...flags, dataRoot: 'data' })).toEqual({
      host: '127.0.0.1',
      port: 0,
      botPort: 0,
      dataRoot: 'data',
    });
    const options = demoOptions({
      ...flags,
      llmBaseUrl: 'http://127.0.0.1:9/v1',
      llmModel: 'test-model',
      llmTimeoutMs: '5000',
    });
    expect(options.assistant?.label).toBe('LLM test-model at http://127.0.0.1:9/v1');
    expect(options.assistant?.scripted).toBeUndefined();
  });
});

describe('the demo page of an installed CLI', () => {
  it('is the built page of the @scenaro/demo package the CLI resolves', () => {
    expect(demoPageDir()).toBe(pageDir);
    expect(demoPageDir(join(cliDir, 'package.json'))).toBe(pageDir);
    // The package ships it.
    const manifest = JSON.parse(readFileSync(join(pageDir, '../../package.json'), 'utf8')) as {
      name: string;
      files: string[];
    };
    expect(manifest.name).toBe('@scenaro/demo');
    expect(manifest.files).toContain('dist/page');
  });

  it.skipIf(!built)(
    'is served by the built `scenaro demo`: the page, its assets and the config',
    async () => {
      const { url, out, stop } = await startBuiltDemo([]);
      const page = await fetch(url);

      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toBe(readFileSync(join(pageDir, 'index.html'), 'utf8'));
      const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const response = await fetch(new URL(asset as string, url));

        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toContain('immutable');
        const body = Buffer.from(await response.arrayBuffer());
        expect(body.equals(readFileSync(join(pageDir, asset as string)))).toBe(true);
      }
      const config = (await (await fetch(new URL('/config.json', url))).json()) as {
        wsUrl: string;
        storeName: string;
        voice: { listens: boolean; speaks: boolean };
      };
      expect(config.storeName).toBe('Scenaro Demo Store');
      expect(config.wsUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
      // The offline engines by default: PocketSphinx hears, Flite speaks.
      expect(config.voice).toMatchObject({ listens: true, speaks: true });
      expect(out()).toMatch(/voice: stt=pocketsphinx(\(not installed\))? tts=flite\(slt\)/);
      await stop();
    },
    30_000,
  );

  it.skipIf(!built)(
    "takes the serve command's voice flags",
    async () => {
      const { url, out, stop } = await startBuiltDemo(['--stt', 'none', '--tts', 'none']);
      const config = (await (await fetch(new URL('/config.json', url))).json()) as {
        voice: unknown;
      };
      expect(config.voice).toEqual({ listens: false, speaks: false });
      expect(out()).toContain('voice: stt=none tts=none');
      await stop();
      const refused = spawnSync(
        process.execPath,
        [bin, 'demo', '--port', '0', '--tts-voice', 'zz'],
        { encoding: 'utf8' },
      );
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain("--tts-voice: flite has no voice 'zz'");
    },
    30_000,
  );
});

/** Run the built `scenaro demo --port 0 ARGS` until its page is ready. */
async function startBuiltDemo(
  args: string[],
): Promise<{ url: string; out: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [bin, 'demo', '--port', '0', ...args], {
    env: { ...process.env, SCENARO_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  stops.push(() => child.kill('SIGKILL'));
  let out = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /demo ready at (\S+)[\s\S]*press Ctrl\+C/.exec(out);
      if (match?.[1]) resolveUrl(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`scenaro demo exited with ${code}`)));
  });
  return {
    url,
    out: () => out,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
