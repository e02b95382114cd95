// `scenaro eval` flags as runner options: numbers checked with the flag named, defaults kept.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluationOptions } from '../src/eval-flags.js';
import type { EvalFlags } from '../src/eval-flags.js';

const flags: EvalFlags = {
  outputDir: 'out',
  dataRoot: 'data',
  concurrency: '4',
  trials: '1',
  judgeThreshold: '0.9',
  scorer: 'nemo',
  retries: '2',
  minAgentTurns: '3',
  mode: 'text',
  audioClock: 'realtime',
};

describe('scenaro eval flags', () => {
  it('turns the flags into runner options', () => {
    const options = evaluationOptions({ ...flags, duration: '60', maxTurns: '10' }, ['node', 'x']);
    expect(options).toMatchObject({
      dataRoot: resolve('data'),
      outputDir: resolve('out'),
      concurrency: 4,
      trials: 1,
      retries: 2,
      minAgentTurns: 3,
      durationSeconds: 60,
      maxTurns: 10,
      scorer: 'nemo',
      domains: ['commerce'],
      argv: ['node', 'x'],
    });
  });

  it('refuses numbers out of range, naming the flag', () => {
    expect(() => evaluationOptions({ ...flags, concurrency: '0' })).toThrow(
      "--concurrency must be an integer >= 1, got '0'",
    );
    expect(() => evaluationOptions({ ...flags, retries: '-1' })).toThrow(
      "--retries must be an integer >= 0, got '-1'",
    );
    expect(() => evaluationOptions({ ...flags, maxTurns: 'x' })).toThrow(
      "--max-turns must be an integer >= 1, got 'x'",
    );
  });
});

describe('scenaro eval --mode', () => {
  it('records nothing for text mode, the mode and clock for audio mode', () => {
    const text = evaluationOptions(flags, ['node', 'x']);
    expect(text.mode).toBeUndefined();
    expect(text.audioClock).toBeUndefined();
    const audio = evaluationOptions({ ...flags, mode: 'audio', audioClock: 'fast' }, ['node', 'x']);
    expect(audio).toMatchObject({ mode: 'audio', audioClock: 'fast' });
  });

  it('refuses --audio-clock without --mode audio', () => {
    expect(() => evaluationOptions({ ...flags, audioClock: 'fast' }, ['node', 'x'])).toThrow(
      /--audio-clock needs --mode audio/,
    );
  });
});

describe('scenaro eval caller flags', () => {
  const audio: EvalFlags = { ...flags, mode: 'audio', audioClock: 'fast' };

  it('records the presets, the caller config, the noise folder and the strategy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenaro-caller-flags-'));
    const file = join(dir, 'noisy.json');
    writeFileSync(file, JSON.stringify({ source_effects_config: { noise_snr_db: 5 } }));
    const presets = evaluationOptions({ ...audio, speechComplexity: ['control', 'regular'] });
    expect(presets.speechComplexity).toEqual(['control', 'regular']);
    const options = evaluationOptions({
      ...audio,
      callerEffects: file,
      noiseDir: dir,
      interruption: 'min-words:3',
    });
    expect(options).toMatchObject({
      callerEffectsFile: file,
      noiseDir: dir,
      interruption: 'min-words:3',
    });
    // Fields left out are the control preset's.
    expect(options.callerEffects?.source_effects_config.noise_snr_db).toBe(5);
    expect(options.callerEffects?.telephony_enabled).toBe(true);
  });

  it('refuses them outside audio mode and with bots given by URL', () => {
    expect(() => evaluationOptions({ ...flags, speechComplexity: ['regular'] })).toThrow(
      '--speech-complexity needs --mode audio',
    );
    expect(() =>
      evaluationOptions({
        ...audio,
        interruption: 'min-words:2',
        agentUrl: 'ws://a',
        userUrl: 'ws://u',
      }),
    ).toThrow('--interruption is for the local bots');
  });

  it('refuses unknown presets, bad strategies, both configs at once and a lone noise folder', () => {
    expect(() => evaluationOptions({ ...audio, speechComplexity: ['regular', 'loud'] })).toThrow(
      "unknown preset 'loud'",
    );
    expect(() => evaluationOptions({ ...audio, interruption: 'some' })).toThrow(
      '--interruption: an interruption strategy is any or min-words:N',
    );
    expect(() => evaluationOptions({ ...audio, noiseDir: '.' })).toThrow(
      '--noise-dir needs --speech-complexity or --caller-effects',
    );
    expect(() => evaluationOptions({ ...audio, speechComplexity: ['regular', 'regular'] })).toThrow(
      'a preset is given twice',
    );
  });

  it('leaves a resumed run to check them against its own arguments', () => {
    const resumed = evaluationOptions(
      { ...flags, resume: 'run', speechComplexity: ['regular'] },
      ['node', 'x'],
      (flag) => flag === 'speechComplexity' || flag === 'resume',
    );
    expect(resumed.speechComplexity).toEqual(['regular']);
  });
});
