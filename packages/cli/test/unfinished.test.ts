// A command that waits for something that can never happen (here a speech engine, added as a
// plugin, whose start never settles) is not passed off as done: when Node runs out of work
// before the command has finished, `scenaro` says so and exits 2, never 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliBuilt, killCliChildren, repoRoot, runCliToEnd } from './built-cli.js';

const built = cliBuilt('packages/cli/test/unfinished.test.ts');
afterAll(() => killCliChildren());

describe.skipIf(!built)('a scenaro command left waiting for nothing', () => {
  it('exits 2 with a message, not 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenaro-unfinished-'));
    const voice = pathToFileURL(join(repoRoot, 'packages/agent/dist/voice/index.js')).href;
    const plugin = join(dir, 'never-ready.mjs');
    writeFileSync(
      plugin,
      `import { defineSpeechEngine, registerSpeechEngine } from ${JSON.stringify(voice)};
registerSpeechEngine(defineSpeechEngine({
  name: 'never-ready', kind: 'stt', description: 'a start that never settles',
  capabilities: { streaming: true, sampleRates: [16000], offline: true }, options: {},
  create: () => new Promise(() => {}),
}));
`,
    );
    const run = await runCliToEnd(
      ['eval', '--mode', 'audio', '--stt', 'never-ready', '--output-dir', join(dir, 'out')],
      30_000,
      { NODE_OPTIONS: `--import ${pathToFileURL(plugin).href}` },
    );
    expect(run.stderr).toMatch(/the command stopped before it finished/);
    expect(run.code).toBe(2);
  });
});
