import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CallerEffectsError,
  controlEffects,
  parseCallerEffects,
  SPEECH_COMPLEXITIES,
} from './config.js';
import type { CallerEffects } from './config.js';
import { presetEffects, presetForTask, taskSeed } from './presets.js';

const DATA = '/work/shared/eval-data';
const DOMAINS = ['tau2_airline', 'tau2_retail', 'tau2_telecom'];
const voiceFile = (domain: string) => `${DATA}/${domain}/tasks_voice.json`;
const haveData = DOMAINS.every((domain) => existsSync(voiceFile(domain)));

function errorOf(run: () => unknown): CallerEffectsError {
  try {
    run();
  } catch (error) {
    if (error instanceof CallerEffectsError) return error;
    throw error;
  }
  throw new Error('expected a CallerEffectsError');
}

describe('parseCallerEffects', () => {
  it('fills left-out fields from the control preset', () => {
    const effects = parseCallerEffects({
      source_effects_config: { enable_background_noise: true },
    });
    const expected = controlEffects();
    expected.source_effects_config.enable_background_noise = true;
    expect(effects).toEqual(expected);
  });

  it('names the path of the bad field', () => {
    const cases: [unknown, string, RegExp][] = [
      [
        { channel_effects_config: { frame_drop_rate: 0.2 } },
        'channel_effects_config.frame_drop_rate',
        /< 0.2/,
      ],
      [
        { channel_effects_config: { frame_drop_count: 1.5 } },
        'channel_effects_config.frame_drop_count',
        /integer/,
      ],
      [
        { source_effects_config: { burst_snr_range_db: [10, -5] } },
        'source_effects_config.burst_snr_range_db',
        /above max/,
      ],
      [
        { source_effects_config: { burst_snr_range_db: [0, 'x'] } },
        'source_effects_config.burst_snr_range_db[1]',
        /number/,
      ],
      [
        { speech_effects_config: { vocal_tics: [{ text: 'x', type: 'tic' }] } },
        'speech_effects_config.vocal_tics[0].type',
        /vocal_tic/,
      ],
      [{ telephony_enabled: 'yes' }, 'telephony_enabled', /true or false/],
      [{ complexity: 'loud' }, 'complexity', /one of/],
      [
        { source_effects_config: { noise_snr_db: Number.NaN } },
        'source_effects_config.noise_snr_db',
        /finite/,
      ],
      [{ persona_config: { verbosity: 'chatty' } }, 'persona_config.verbosity', /one of/],
      [{ speach_effects_config: {} }, 'speach_effects_config', /unknown field/],
      [[], '', /object/],
    ];
    for (const [json, path, reason] of cases) {
      const error = errorOf(() => parseCallerEffects(json));
      expect(error.path).toBe(path);
      expect(error.message).toMatch(reason);
    }
  });

  it('refuses keys that reach the prototype, at any depth', () => {
    for (const text of [
      '{"__proto__": {"telephony_enabled": false}}',
      '{"source_effects_config": {"__proto__": {"x": 1}}}',
      '{"persona_config": {"constructor": {}}}',
    ]) {
      const error = errorOf(() => parseCallerEffects(JSON.parse(text)));
      expect(error.message).toMatch(/key not allowed/);
    }
    expect(({} as Record<string, unknown>).telephony_enabled).toBeUndefined();
  });

  it('does not share lists with its base', () => {
    const base = controlEffects();
    const effects = parseCallerEffects({}, { base });
    effects.burst_noise_files.push('x');
    effects.speech_effects_config.vocal_tics.pop();
    expect(base.burst_noise_files).toEqual([]);
    expect(base.speech_effects_config.vocal_tics).toHaveLength(3);
  });
});

describe('presets', () => {
  it('gives each task a stable seed (FNV-1a of the id modulo 1e6, plus the base)', () => {
    expect(taskSeed('24')).toBe(376029);
    expect(taskSeed('0', 42)).toBe(22105);
    expect(taskSeed('0', 7)).toBe(22070);
    expect(taskSeed('[mms_issue]airplane_mode_on|bad_network_preference[PERSONA:Easy]')).toBe(
      288768,
    );
  });

  it('samples the same config for the same seed and differs across seeds', () => {
    expect(presetEffects('regular', 1234)).toEqual(presetEffects('regular', 1234));
    const environments = new Set<string | null>();
    for (let seed = 0; seed < 20; seed++)
      environments.add(presetEffects('control_audio', seed).environment);
    expect(environments).toEqual(new Set(['indoor', 'outdoor']));
    expect(presetEffects('control', 3).environment).toBeNull();
  });

  it('samples from the preset when the task has no entry', () => {
    const result = presetForTask({ base_seed: 7, configs: {} }, 'missing', 'regular');
    expect(result).toMatchObject({ from: 'preset', seed: taskSeed('missing', 7) });
    expect(result.effects).toEqual(presetEffects('regular', result.seed));
    expect(presetForTask(undefined, '__proto__', 'control').from).toBe('preset');
    expect(() => presetForTask(undefined, '1', 'loud' as 'control')).toThrow(/unknown preset/);
  });

  it.skipIf(!haveData)(
    'reads every tasks_voice.json entry and matches the presets field by field',
    () => {
      // The sampled choices (persona, environment, background) differ from tau2's draws; every
      // other field of every entry equals the preset's.
      const sampled = new Set([
        'persona_name',
        'environment',
        'background_noise_file',
        'burst_noise_files',
      ]);
      let entries = 0;
      for (const domain of DOMAINS) {
        const json = JSON.parse(readFileSync(voiceFile(domain), 'utf8')) as {
          base_seed: number;
          configs: Record<string, unknown>;
        };
        for (const taskId of Object.keys(json.configs)) {
          for (const preset of SPEECH_COMPLEXITIES) {
            const result = presetForTask(json, taskId, preset);
            expect(result.from).toBe('tasks_voice');
            expect(result.seed).toBe(taskSeed(taskId, json.base_seed));
            const ours = presetEffects(preset, result.seed);
            for (const key of Object.keys(ours) as (keyof CallerEffects)[]) {
              if (!sampled.has(key))
                expect([preset, key, result.effects[key]]).toEqual([preset, key, ours[key]]);
            }
            expect(result.effects.environment === null).toBe(ours.environment === null);
            expect(result.effects.burst_noise_files.length > 0).toBe(
              ours.burst_noise_files.length > 0,
            );
            entries++;
          }
        }
      }
      expect(entries).toBe((50 + 114 + 114) * 8);
    },
  );

  it('names the entry in errors from a tasks_voice file', () => {
    const json = {
      base_seed: 1,
      configs: { '7': { configs: { regular: { telephony_enabled: 1 } } } },
    };
    const error = errorOf(() => presetForTask(json, '7', 'regular'));
    expect(error.path).toBe('configs["7"].configs.regular.telephony_enabled');
    expect(errorOf(() => presetForTask({ base_seed: 1.5, configs: {} }, '7', 'regular')).path).toBe(
      'base_seed',
    );
  });
});
