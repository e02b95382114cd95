/**
 * The eight speech-complexity presets of tau2-bench, and the config a task gets under one of
 * them. `control` is the clean baseline (telephony only, a patient caller with an American
 * accent); three feature groups are added to it alone or in pairs, and `regular` has all three:
 *
 * - audio: background noise and noise bursts from an indoor or outdoor environment, muffling
 *   (20 % of utterances), frame drops (0.5 % of frames; 2 % in `regular`);
 * - accents: the caller's persona is drawn from the diverse-accent list;
 * - behavior: vocal tics and non-directed phrases (0.7 a minute), backchannels after 3 s,
 *   interruptions.
 *
 * A task's config comes from a `tasks_voice.json` entry when there is one, else it is sampled
 * from the preset with the task's seed. The seed is the file's `base_seed` (or the one given)
 * plus a stable hash of the task id modulo 1,000,000, the same rule as tau2's but with FNV-1a in
 * place of Python's per-process salted `hash`, so it is the same on every run.
 */
import {
  CallerEffectsError,
  controlEffects,
  parseCallerEffects,
  SPEECH_COMPLEXITIES,
} from './config.js';
import type { CallerEffects, SpeechComplexity } from './config.js';
import { hashString, Prng } from './prng.js';

/** Personas of the control presets (American accents). */
export const CONTROL_PERSONAS: readonly string[] = ['lisa_brenner', 'matt_delaney'];
/** Personas of the accent presets. */
export const ACCENT_PERSONAS: readonly string[] = [
  'arjun_roy',
  'mamadou_diallo',
  'mildred_kaplan',
  'priya_patil',
  'wei_lin',
];

/** The sounds of each environment (names as in tau2's data, without `.wav`). */
export const ENVIRONMENTS = {
  indoor: {
    background: ['people_talking', 'medium_size_room_tv_news_iphone_mic'],
    bursts: ['ringing_phone', 'dog_bark'],
  },
  outdoor: {
    background: ['busy_street_iphone_mic', 'street_and_metro_station_iphone_mic'],
    bursts: ['car_horn', 'engine_idling', 'siren'],
  },
} as const satisfies Record<string, { background: readonly string[]; bursts: readonly string[] }>;

/** The feature groups a preset adds to `control`. */
export interface PresetGroups {
  audio: boolean;
  accents: boolean;
  behavior: boolean;
}

/** Which groups each preset has. */
export const PRESET_GROUPS: Readonly<Record<SpeechComplexity, PresetGroups>> = {
  control: { audio: false, accents: false, behavior: false },
  regular: { audio: true, accents: true, behavior: true },
  control_audio: { audio: true, accents: false, behavior: false },
  control_accents: { audio: false, accents: true, behavior: false },
  control_behavior: { audio: false, accents: false, behavior: true },
  control_audio_accents: { audio: true, accents: true, behavior: false },
  control_audio_behavior: { audio: true, accents: false, behavior: true },
  control_accents_behavior: { audio: false, accents: true, behavior: true },
};

/** Frame-drop rate of the audio group (`regular` uses {@link REGULAR_FRAME_DROP_RATE}). */
export const AUDIO_FRAME_DROP_RATE = 0.005;
export const REGULAR_FRAME_DROP_RATE = 0.02;

/** Whether `name` is one of the eight presets. */
export function isSpeechComplexity(name: string): name is SpeechComplexity {
  return (SPEECH_COMPLEXITIES as readonly string[]).includes(name);
}

function checkPreset(preset: string): SpeechComplexity {
  if (!isSpeechComplexity(preset)) {
    throw new CallerEffectsError(
      'complexity',
      `unknown preset ${JSON.stringify(preset)} (one of ${SPEECH_COMPLEXITIES.join(', ')})`,
    );
  }
  return preset;
}

/**
 * The config of `preset` sampled with `seed`: the persona, the environment (indoor for an even
 * seed, outdoor for an odd one) and its background sound are chosen from it.
 */
export function presetEffects(preset: SpeechComplexity, seed: number): CallerEffects {
  const groups = PRESET_GROUPS[checkPreset(preset)];
  const rng = Prng.stream(seed, `preset:${preset}`);
  const personas = groups.accents ? ACCENT_PERSONAS : CONTROL_PERSONAS;
  const effects = controlEffects(rng.pick(personas));
  effects.complexity = preset;
  if (groups.audio) {
    const environment = seed % 2 === 0 ? 'indoor' : 'outdoor';
    const sounds = ENVIRONMENTS[environment];
    effects.environment = environment;
    effects.background_noise_file = `${rng.pick(sounds.background)}.wav`;
    effects.burst_noise_files = sounds.bursts.map((name) => `${name}.wav`);
    effects.channel_effects_config = {
      ...effects.channel_effects_config,
      enable_frame_drops: true,
      frame_drop_rate: preset === 'regular' ? REGULAR_FRAME_DROP_RATE : AUDIO_FRAME_DROP_RATE,
      frame_drop_burst_duration_ms: 100,
    };
    Object.assign(effects.source_effects_config, {
      enable_background_noise: true,
      enable_burst_noise: true,
      burst_noise_events_per_minute: 1,
    });
    Object.assign(effects.speech_effects_config, {
      enable_dynamic_muffling: true,
      muffle_probability: 0.2,
    });
  }
  if (groups.behavior) {
    Object.assign(effects.speech_effects_config, {
      enable_vocal_tics: true,
      enable_non_directed_phrases: true,
      speech_insert_events_per_minute: 0.7,
    });
    effects.backchannel_min_threshold = 3;
    effects.use_llm_backchannel = true;
    effects.enable_interruptions = true;
    effects.persona_config = { verbosity: 'minimal', interrupt_tendency: 'interrupts' };
  }
  return effects;
}

/** The seed base used when neither a file nor the caller gives one (tau2's default). */
export const DEFAULT_BASE_SEED = 42;

/** A task's seed: `baseSeed` plus a stable hash of its id modulo 1,000,000. */
export function taskSeed(taskId: string, baseSeed = DEFAULT_BASE_SEED): number {
  if (!Number.isSafeInteger(baseSeed)) {
    throw new RangeError(`base seed must be an integer, got ${baseSeed}`);
  }
  return baseSeed + (hashString(taskId) % 1_000_000);
}

/** A task's caller effects under one preset. */
export interface TaskCallerEffects {
  taskId: string;
  complexity: SpeechComplexity;
  /** The seed the effects processor is run with. */
  seed: number;
  effects: CallerEffects;
  /** Taken from the `tasks_voice.json` entry, or sampled from the preset (no entry). */
  from: 'tasks_voice' | 'preset';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The caller effects of `taskId` under `preset`, from a parsed `tasks_voice.json` (`{base_seed,
 * configs: {[task]: {configs: {[preset]: ...}}}}`, or undefined for none). `baseSeed` overrides
 * the file's `base_seed`.
 */
export function presetForTask(
  tasksVoiceJson: unknown,
  taskId: string,
  preset: SpeechComplexity,
  baseSeed?: number,
): TaskCallerEffects {
  const complexity = checkPreset(preset);
  let fileSeed: number | undefined;
  let entry: unknown;
  let entryPath = '';
  if (tasksVoiceJson !== undefined && tasksVoiceJson !== null) {
    if (!isRecord(tasksVoiceJson)) {
      throw new CallerEffectsError('', 'tasks_voice must be an object');
    }
    const { base_seed: seedValue, configs } = tasksVoiceJson;
    if (seedValue !== undefined) {
      if (typeof seedValue !== 'number' || !Number.isSafeInteger(seedValue)) {
        throw new CallerEffectsError('base_seed', `expected an integer, got ${String(seedValue)}`);
      }
      fileSeed = seedValue;
    }
    if (!isRecord(configs)) throw new CallerEffectsError('configs', 'expected an object');
    const task = Object.hasOwn(configs, taskId) ? configs[taskId] : undefined;
    if (task !== undefined) {
      const taskPath = `configs[${JSON.stringify(taskId)}]`;
      if (!isRecord(task) || !isRecord(task.configs)) {
        throw new CallerEffectsError(`${taskPath}.configs`, 'expected an object');
      }
      if (Object.hasOwn(task.configs, complexity)) {
        entry = task.configs[complexity];
        entryPath = `${taskPath}.configs.${complexity}`;
      }
    }
  }
  const seed = taskSeed(taskId, baseSeed ?? fileSeed ?? DEFAULT_BASE_SEED);
  if (entry === undefined) {
    return { taskId, complexity, seed, effects: presetEffects(complexity, seed), from: 'preset' };
  }
  const effects = parseCallerEffects(entry, { path: entryPath });
  if (effects.complexity !== complexity) {
    throw new CallerEffectsError(
      `${entryPath}.complexity`,
      `entry is for ${effects.complexity}, not ${complexity}`,
    );
  }
  return { taskId, complexity, seed, effects, from: 'tasks_voice' };
}
