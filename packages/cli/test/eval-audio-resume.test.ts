// `scenaro eval --mode audio --audio-clock fast` SIGKILLed mid-run, then `--resume RUN` alone:
// every scenario ends with exactly one complete result folder (metrics, stereo WAV, segments),
// none ran twice, no half-written file is left, and the summaries count each scenario once.
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '@scenaro/agent/voice';
import { startOpenAIAudioTestServer } from '@scenaro/agent/testing';
import type { OpenAIAudioTestServer } from '@scenaro/agent/testing';
import { commerceEvalDomain } from '@scenaro/domains';
import { cliBuilt, killCliChildren, runCli, runCliToEnd } from './built-cli.js';

const built = cliBuilt('packages/cli/test/eval-audio-resume.test.ts');

/** Scenario folders of `runDir` holding a finished result. */
function finished(runDir: string): string[] {
  if (!existsSync(runDir)) return [];
  return readdirSync(runDir)
    .filter((name) => !name.includes('.killed.') && existsSync(join(runDir, name, 'metrics.json')))
    .sort();
}

/** Every file under `dir`, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    statSync(join(dir, f)).isFile(),
  );
}

let audio: OpenAIAudioTestServer;
beforeAll(async () => {
  audio = await startOpenAIAudioTestServer();
  audio.transcribe = () => 'I would like to buy something.';
});
afterAll(async () => {
  killCliChildren();
  await audio?.close();
});

describe.skipIf(!built)('scenaro eval --mode audio killed and resumed', () => {
  it('loses and repeats no scenario, and leaves each one complete result folder', async () => {
    const output = mkdtempSync(join(tmpdir(), 'scenaro-audio-resume-'));
    const runDir = join(output, 'audio');
    const all = (await commerceEvalDomain.loadScenarios('')).map((s) => s.name).sort();
    const chosen = all.slice(3, 11);
    // The local bots speak and hear through the test endpoint: a tone per sentence and a fixed
    // transcript per utterance, so the run needs no speech engine installed.
    const first = runCli([
      ...['eval', '--mode', 'audio', '--audio-clock', 'fast'],
      ...['--stt', 'openai', '--stt-base-url', audio.baseURL],
      ...['--tts', 'openai', '--tts-base-url', audio.baseURL],
      ...['--scenarios', chosen.join(','), '--concurrency', '2'],
      ...['--output-dir', output, '--run-id', 'audio', '--data-root', join(output, 'none')],
    ]);
    const deadline = Date.now() + 60_000;
    while (finished(runDir).length < 2) {
      if (Date.now() > deadline)
        throw new Error(`the first run made no progress: ${first.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const done = finished(runDir);
    expect(done.length).toBeLessThan(chosen.length);
    const mtimes = new Map(done.map((n) => [n, statSync(join(runDir, n, 'metrics.json')).mtimeMs]));

    // The run's own arguments: audio mode, the fast clock and the same voices, from run_args.json.
    const resumed = await runCliToEnd(
      ['eval', '--resume', 'audio', '--output-dir', output],
      90_000,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const ran = chosen.length - done.length;
    expect(resumed.stdout).toContain(
      `${chosen.length} scenarios (${ran} run, ${done.length} resumed)`,
    );
    const args = JSON.parse(readFileSync(join(runDir, 'run_args.json'), 'utf8')) as {
      invocations: { parsed_args: Record<string, unknown> }[];
    };
    expect(args.invocations).toHaveLength(2);
    expect(args.invocations[0]!.parsed_args).toMatchObject({
      mode: 'audio',
      audioClock: 'fast',
      speech: { agent: { stt: 'openai', ttsVoice: 'alloy' }, user: { ttsVoice: 'echo' } },
    });

    // Exactly one complete folder per scenario; the interrupted ones were set aside and redone.
    expect(finished(runDir)).toEqual(chosen);
    for (const [name, mtime] of mtimes)
      expect(statSync(join(runDir, name, 'metrics.json')).mtimeMs, `${name} ran twice`).toBe(mtime);
    const setAside = readdirSync(runDir).filter((n) => n.includes('.killed.'));
    for (const name of setAside) expect(chosen).toContain(name.split('.killed.')[0]);
    for (const name of chosen) {
      const dir = join(runDir, name);
      expect(
        files(dir).filter((f) => f.endsWith('.tmp')),
        name,
      ).toEqual([]);
      const metrics = JSON.parse(readFileSync(join(dir, 'metrics.json'), 'utf8')) as {
        audio: { clock: string; audio_seconds: number; segments: { heard: string }[] };
      };
      expect(metrics.audio.clock).toBe('fast');
      expect(metrics.audio.segments.length, name).toBeGreaterThan(1);
      const wav = decodeWav(readFileSync(join(dir, 'conversation_log.wav')));
      expect(wav.channels).toBe(2);
      expect(wav.pcm.length / 4 / wav.sampleRate).toBeCloseTo(metrics.audio.audio_seconds, 3);
    }
    expect(files(runDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // The run-level files count each scenario once.
    const summary = JSON.parse(readFileSync(join(runDir, 'all_metrics.json'), 'utf8')) as {
      scenario_name: string;
    }[];
    expect(summary.map((m) => m.scenario_name).sort()).toEqual(chosen);
    const csv = readFileSync(join(runDir, 'all_latencies.csv'), 'utf8').trim().split('\n');
    const scenariosInCsv = new Set(csv.slice(1).map((line) => line.split(',')[0]));
    expect([...scenariosInCsv].every((s) => chosen.includes(String(s)))).toBe(true);
  }, 150_000);
});
