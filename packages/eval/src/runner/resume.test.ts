// A resumed run keeps its mode and audio clock; passing another one is refused, naming the flag.
import { describe, expect, it } from 'vitest';
import { resumedOptions } from './resume.js';

const runArgs = {
  invocations: [
    {
      parsed_args: { dataRoot: '/data', mode: 'audio', audioClock: 'fast' },
      resolved_scenario_names: ['a'],
    },
  ],
};

describe('resuming an audio run', () => {
  it('keeps the mode and clock the run was started with', () => {
    const { options } = resumedOptions('/runs/x', runArgs, { resume: 'x' });
    expect(options).toMatchObject({ mode: 'audio', audioClock: 'fast', dataRoot: '/data' });
  });

  it('refuses another clock', () => {
    expect(() =>
      resumedOptions('/runs/x', runArgs, { resume: 'x', audioClock: 'realtime' }),
    ).toThrow(/--audio-clock/);
  });
});
