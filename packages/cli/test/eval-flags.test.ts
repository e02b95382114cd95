// `scenaro eval` flags as runner options: numbers checked with the flag named, defaults kept.
import { resolve } from 'node:path';
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
