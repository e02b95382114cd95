// The built `scenaro serve` with its voice flags: listed in --help, engines named in the start
// log, a missing PocketSphinx warned about without stopping the server, bad flags refused
// before anything binds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpJson, pollUntil, startOpenAIAudioTestServer } from '@scenaro/agent/testing';
import type { OpenAIAudioTestServer } from '@scenaro/agent/testing';
import { cliBuilt, killCliChildren, runCli, runCliToEnd } from './built-cli.js';
import type { CliRun } from './built-cli.js';

const built = cliBuilt('packages/cli/test/serve-voice.test.ts');

let audio: OpenAIAudioTestServer;

beforeAll(async () => {
  audio = await startOpenAIAudioTestServer();
});

afterAll(async () => {
  killCliChildren();
  await audio?.close();
});

/** Start `scenaro serve --port 0 ARGS` logging at info; resolves once it listens. */
async function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun & { url: string }> {
  const server = runCli(['serve', '--port', '0', ...args], { SCENARO_LOG_LEVEL: 'info', ...env });
  await pollUntil(
    () => server.stdout().includes('\n') || server.child.exitCode !== null,
    'the listening line',
    30_000,
  );
  expect(server.child.exitCode, `serve exited early: ${server.stderr()}`).toBeNull();
  const match = /^listening on (ws:\/\/127\.0\.0\.1:\d+)\n$/.exec(server.stdout());
  expect(match, `stdout was ${JSON.stringify(server.stdout())}`).not.toBeNull();
  // The voice summary is logged just before the listening line, but the log writes to stderr
  // asynchronously: it may arrive after stdout's line.
  await pollUntil(
    () => logMessages(server.stderr()).some((m) => m.startsWith('voice: stt=')),
    'the voice summary log line',
    10_000,
  );
  return { ...server, url: (match as RegExpExecArray)[1] as string };
}

/** The `msg` of every JSON log line the server wrote to stderr. */
function logMessages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

async function stop(server: CliRun): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

// Each CLI start takes ~1 s of CPU; on a busy machine much longer, hence generous timeouts.
describe.skipIf(!built)('scenaro serve voice (built CLI)', { timeout: 45_000 }, () => {
  it('lists the voice flags in serve --help', async () => {
    const { code, stdout } = await runCliToEnd(['serve', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--stt <engine>',
      '--tts <engine>',
      '--stt-base-url <url>',
      '--stt-model <name>',
      '--tts-base-url <url>',
      '--tts-model <name>',
      '--tts-voice <name>',
      '--speech-api-key-env <name>',
      '--vad-stop-ms <ms>',
      '--audio-pacing <pacing>',
    ])
      expect(stdout).toContain(flag);
    expect(stdout.replace(/\s+/g, ' ')).toContain('the server still starts');
  });

  it('serve --stt none --tts flite starts, logs its voice and answers /healthz', async () => {
    const server = await serve(['--stt', 'none', '--tts', 'flite', '--tts-voice', 'awb']);
    try {
      expect(await httpJson(`${server.url}/healthz`, 'GET')).toMatchObject({ status: 200 });
      // The log is written asynchronously: it may trail the `listening on` line.
      await expect
        .poll(() => logMessages(server.stderr()))
        .toContain('voice: stt=none tts=flite(awb) vad-stop=800ms pacing=realtime');
      await stop(server);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('serve with OpenAI-compatible speech endpoints starts with both engines', async () => {
    const server = await serve([
      '--stt', 'openai', '--stt-base-url', audio.baseURL,
      '--tts', 'openai', '--tts-base-url', audio.baseURL, '--tts-voice', 'nova',
      '--vad-stop-ms', '600', '--audio-pacing', 'fast',
    ]); // prettier-ignore
    try {
      expect(await httpJson(`${server.url}/healthz`, 'GET')).toMatchObject({ status: 200 });
      // The log is written asynchronously: it may trail the `listening on` line.
      await expect
        .poll(() => logMessages(server.stderr()))
        .toContain(
          `voice: stt=openai(whisper-1 at ${audio.baseURL}) ` +
            `tts=openai(tts-1, nova at ${audio.baseURL}) vad-stop=600ms pacing=fast`,
        );
      await stop(server);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('starts without PocketSphinx, warning that voice input is off and what to install', async () => {
    // No PATH: `pocketsphinx_continuous` cannot be found, whether it is installed or not.
    const server = await serve([], { PATH: '' });
    try {
      expect(server.stderr()).toContain(
        'scenaro: warning: voice input is off: PocketSphinx is not installed',
      );
      expect(server.stderr()).toContain('apt-get install pocketsphinx pocketsphinx-en-us');
      // The log is written asynchronously: it may trail the `listening on` line.
      await expect
        .poll(() => logMessages(server.stderr()))
        .toContain(
          'voice: stt=pocketsphinx(not installed) tts=flite(slt) vad-stop=800ms pacing=realtime',
        );
      expect(await httpJson(`${server.url}/healthz`, 'GET')).toMatchObject({ status: 200 });
      await stop(server);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('refuses --stt openai without --stt-base-url before binding, with exit code 2', async () => {
    const { code, stdout, stderr } = await runCliToEnd(['serve', '--port', '0', '--stt', 'openai']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^scenaro: --stt openai needs --stt-base-url <url>/);
  });
});
