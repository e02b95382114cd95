/**
 * What the caller's audio goes through, in the schema of one entry of tau2-bench's per-task
 * voice configs (`tasks_voice.json`, `configs[task].configs[complexity]`), so an entry can be
 * used as it is: the channel (telephony, frame drops), the source (background noise, noise
 * bursts), the speech (muffling, vocal tics, non-directed phrases) and the behaviour knobs the
 * bridge carries to the user bot (backchannels, interruptions, verbosity).
 *
 * {@link parseCallerEffects} checks such an object field by field. Fields left out take the
 * value of a base config (by default the `control` preset, whose parameters are tau2's
 * defaults with every effect off), so a hand-written file lists only what it changes. Unknown
 * fields, wrong types, values out of range and keys such as `__proto__` are refused with the
 * path of the field.
 */

/** The speech complexity presets, named as tau2-bench names them. */
export const SPEECH_COMPLEXITIES = [
  'control',
  'regular',
  'control_audio',
  'control_accents',
  'control_behavior',
  'control_audio_accents',
  'control_audio_behavior',
  'control_accents_behavior',
] as const;
export type SpeechComplexity = (typeof SPEECH_COMPLEXITIES)[number];

/** A sound the caller makes besides answering: a vocal tic or a phrase said to someone else. */
export interface SpeechInsert {
  /** What is said; a tic is written as tags, e.g. `.[cough][cough]`. */
  text: string;
  type: 'vocal_tic' | 'non_directed_phrase';
}

/** Transmission: lost packets (a Gilbert-Elliott model of bursty loss). */
export interface ChannelEffectsConfig {
  enable_frame_drops: boolean;
  /** Long-run fraction of frames lost, [0, 0.2). */
  frame_drop_rate: number;
  /** Mean length of a loss burst (the model's bad state), ms, > 0. */
  frame_drop_burst_duration_ms: number;
  /** Frames silenced per loss, >= 1. */
  frame_drop_count: number;
  /** Length of one dropped frame, ms, >= 1. */
  frame_drop_duration_ms: number;
}

/** The caller's surroundings: background noise and noise bursts. */
export interface SourceEffectsConfig {
  enable_background_noise: boolean;
  /** Mean speech-to-noise ratio of the background, dB. */
  noise_snr_db: number;
  /** How far the ratio drifts either side of the mean, dB, >= 0. */
  noise_snr_drift_db: number;
  /** How fast it drifts: new drift targets per second, >= 0. */
  noise_variation_speed: number;
  enable_burst_noise: boolean;
  /** Mean bursts per minute (Poisson), >= 0. */
  burst_noise_events_per_minute: number;
  /** Each burst's speech-to-burst ratio is drawn uniformly from this range, dB. */
  burst_snr_range_db: [min: number, max: number];
}

/** The caller's voice: muffling and out-of-turn sounds. */
export interface SpeechEffectsConfig {
  enable_dynamic_muffling: boolean;
  /** Chance that an utterance gets muffled segments, [0, 1]. */
  muffle_probability: number;
  /** Muffled segments in such an utterance, >= 1. */
  muffle_segment_count: number;
  /** Length of a muffled segment, ms, >= 1. */
  muffle_segment_duration_ms: number;
  /** Low-pass cutoff while muffled, Hz, >= 100. */
  muffle_cutoff_freq: number;
  /** Fade into and out of muffling, ms, >= 0. */
  muffle_transition_ms: number;
  enable_vocal_tics: boolean;
  vocal_tics: SpeechInsert[];
  /** Text-level tics only go into utterances of at least this many words (for the user bot). */
  min_words_for_vocal_tics: number;
  enable_non_directed_phrases: boolean;
  non_directed_phrases: SpeechInsert[];
  /** Mean tics and phrases per minute of the caller's silence (Poisson), >= 0. */
  speech_insert_events_per_minute: number;
}

/** How the user bot behaves (carried to the bridge, not audio). */
export interface PersonaKnobs {
  verbosity: 'standard' | 'minimal';
  interrupt_tendency: 'waits' | 'interrupts' | null;
}

/** Everything the caller's audio and behaviour are configured with. */
export interface CallerEffects {
  /** The preset this config came from. */
  complexity: SpeechComplexity;
  /** The caller's persona (voice and accent) as tau2 names it. */
  persona_name: string;
  /** The continuous background sound (a name from the sound bank, `.wav` optional). */
  background_noise_file: string | null;
  /** The burst sounds to draw from. */
  burst_noise_files: string[];
  environment: 'indoor' | 'outdoor' | null;
  /** Seconds of agent speech before the caller may backchannel; null: never. */
  backchannel_min_threshold: number | null;
  /** Backchannels decided by the user bot's model (else by a Poisson policy). */
  use_llm_backchannel: boolean;
  enable_interruptions: boolean;
  /** The audio goes through the 8 kHz mu-law telephone channel. */
  telephony_enabled: boolean;
  channel_effects_config: ChannelEffectsConfig;
  source_effects_config: SourceEffectsConfig;
  speech_effects_config: SpeechEffectsConfig;
  persona_config: PersonaKnobs;
}

/** A caller-effects config that could not be read; `path` names the bad field. */
export class CallerEffectsError extends Error {
  override readonly name = 'CallerEffectsError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path || '(root)'}: ${reason}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Field specs: what each field accepts.

type Spec =
  | { kind: 'boolean' }
  | { kind: 'string'; nonEmpty?: boolean }
  | { kind: 'number'; min?: number; max?: number; above?: number; below?: number; int?: boolean }
  | { kind: 'enum'; values: readonly (string | null)[] }
  | { kind: 'nullable'; of: Spec }
  | { kind: 'pair' }
  | { kind: 'list'; of: Spec }
  | { kind: 'object'; fields: Record<string, Spec> };

const bool: Spec = { kind: 'boolean' };
const num = (limits: Omit<Extract<Spec, { kind: 'number' }>, 'kind'> = {}): Spec => ({
  kind: 'number',
  ...limits,
});
const insert = (type: SpeechInsert['type']): Spec => ({
  kind: 'object',
  fields: { text: { kind: 'string', nonEmpty: true }, type: { kind: 'enum', values: [type] } },
});

const SCHEMA: Spec = {
  kind: 'object',
  fields: {
    complexity: { kind: 'enum', values: SPEECH_COMPLEXITIES },
    persona_name: { kind: 'string', nonEmpty: true },
    background_noise_file: { kind: 'nullable', of: { kind: 'string', nonEmpty: true } },
    burst_noise_files: { kind: 'list', of: { kind: 'string', nonEmpty: true } },
    environment: { kind: 'enum', values: ['indoor', 'outdoor', null] },
    backchannel_min_threshold: { kind: 'nullable', of: num({ min: 0 }) },
    use_llm_backchannel: bool,
    enable_interruptions: bool,
    telephony_enabled: bool,
    channel_effects_config: {
      kind: 'object',
      fields: {
        enable_frame_drops: bool,
        frame_drop_rate: num({ min: 0, below: 0.2 }),
        frame_drop_burst_duration_ms: num({ above: 0 }),
        frame_drop_count: num({ min: 1, max: 100, int: true }),
        frame_drop_duration_ms: num({ min: 1, max: 10_000, int: true }),
      },
    },
    source_effects_config: {
      kind: 'object',
      fields: {
        enable_background_noise: bool,
        noise_snr_db: num({ min: -60, max: 120 }),
        noise_snr_drift_db: num({ min: 0, max: 60 }),
        noise_variation_speed: num({ min: 0, max: 100 }),
        enable_burst_noise: bool,
        burst_noise_events_per_minute: num({ min: 0, max: 600 }),
        burst_snr_range_db: { kind: 'pair' },
      },
    },
    speech_effects_config: {
      kind: 'object',
      fields: {
        enable_dynamic_muffling: bool,
        muffle_probability: num({ min: 0, max: 1 }),
        muffle_segment_count: num({ min: 1, max: 100, int: true }),
        muffle_segment_duration_ms: num({ min: 1, max: 60_000, int: true }),
        muffle_cutoff_freq: num({ min: 100, max: 20_000 }),
        muffle_transition_ms: num({ min: 0, max: 10_000, int: true }),
        enable_vocal_tics: bool,
        vocal_tics: { kind: 'list', of: insert('vocal_tic') },
        min_words_for_vocal_tics: num({ min: 1, int: true }),
        enable_non_directed_phrases: bool,
        non_directed_phrases: { kind: 'list', of: insert('non_directed_phrase') },
        speech_insert_events_per_minute: num({ min: 0, max: 600 }),
      },
    },
    persona_config: {
      kind: 'object',
      fields: {
        verbosity: { kind: 'enum', values: ['standard', 'minimal'] },
        interrupt_tendency: { kind: 'enum', values: ['waits', 'interrupts', null] },
      },
    },
  },
};

/** Keys that could reach an object's prototype: refused wherever they appear. */
const HOSTILE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;

const join = (path: string, key: string): string =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? path
      ? `${path}.${key}`
      : key
    : `${path}[${JSON.stringify(key)}]`;

function checkNumber(value: unknown, spec: Extract<Spec, { kind: 'number' }>, path: string) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new CallerEffectsError(path, `expected a finite number, got ${describe(value)}`);
  }
  if (spec.int && !Number.isInteger(value)) {
    throw new CallerEffectsError(path, `expected an integer, got ${value}`);
  }
  const fail = (bound: string) => new CallerEffectsError(path, `must be ${bound}, got ${value}`);
  if (spec.min !== undefined && value < spec.min) throw fail(`>= ${spec.min}`);
  if (spec.max !== undefined && value > spec.max) throw fail(`<= ${spec.max}`);
  if (spec.above !== undefined && value <= spec.above) throw fail(`> ${spec.above}`);
  if (spec.below !== undefined && value >= spec.below) throw fail(`< ${spec.below}`);
  return value;
}

function read(value: unknown, base: unknown, spec: Spec, path: string): unknown {
  switch (spec.kind) {
    case 'boolean':
      if (typeof value !== 'boolean') {
        throw new CallerEffectsError(path, `expected true or false, got ${describe(value)}`);
      }
      return value;
    case 'string':
      if (typeof value !== 'string') {
        throw new CallerEffectsError(path, `expected a string, got ${describe(value)}`);
      }
      if (spec.nonEmpty && value.trim() === '') throw new CallerEffectsError(path, 'is empty');
      return value;
    case 'number':
      return checkNumber(value, spec, path);
    case 'enum':
      if (!spec.values.includes(value as string | null)) {
        const allowed = spec.values.map((v) => JSON.stringify(v)).join(', ');
        throw new CallerEffectsError(
          path,
          `expected one of ${allowed}, got ${JSON.stringify(value)}`,
        );
      }
      return value;
    case 'nullable':
      return value === null ? null : read(value, base, spec.of, path);
    case 'pair': {
      if (!Array.isArray(value) || value.length !== 2) {
        throw new CallerEffectsError(path, `expected [min, max], got ${describe(value)}`);
      }
      const lo = checkNumber(value[0], { kind: 'number', min: -60, max: 120 }, `${path}[0]`);
      const hi = checkNumber(value[1], { kind: 'number', min: -60, max: 120 }, `${path}[1]`);
      if (lo > hi) throw new CallerEffectsError(path, `min ${lo} is above max ${hi}`);
      return [lo, hi];
    }
    case 'list':
      if (!Array.isArray(value)) {
        throw new CallerEffectsError(path, `expected a list, got ${describe(value)}`);
      }
      return value.map((item, i) => read(item, undefined, spec.of, `${path}[${i}]`));
    case 'object':
      return readObject(value, base, spec.fields, path);
  }
}

function readObject(
  value: unknown,
  base: unknown,
  fields: Record<string, Spec>,
  path: string,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CallerEffectsError(path, `expected an object, got ${describe(value)}`);
  }
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (HOSTILE_KEYS.has(key)) throw new CallerEffectsError(join(path, key), 'key not allowed');
    if (!Object.hasOwn(fields, key)) {
      throw new CallerEffectsError(join(path, key), 'unknown field');
    }
  }
  const fallback = (base ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(fields)) {
    const fieldPath = join(path, key);
    if (Object.hasOwn(input, key)) {
      out[key] = read(input[key], fallback[key], spec, fieldPath);
    } else if (Object.hasOwn(fallback, key)) {
      out[key] = structuredClone(fallback[key]);
    } else {
      throw new CallerEffectsError(fieldPath, 'missing');
    }
  }
  return out;
}

/** Options of {@link parseCallerEffects}. */
export interface ParseCallerEffectsOptions {
  /** Where left-out fields come from (default: the `control` preset). */
  base?: CallerEffects;
  /** Prefix of error paths, e.g. `configs["24"].configs.regular`. */
  path?: string;
}

/** tau2's default vocal tics (audio tags). */
export const DEFAULT_VOCAL_TICS: readonly string[] = [
  '.[cough][cough][cough]',
  '.[sneeze][sneeze][sneeze]',
  '.[sniffle][sniffle][sniffle]',
];

/** tau2's default phrases said to someone in the caller's room. */
export const DEFAULT_NON_DIRECTED_PHRASES: readonly string[] = [
  'Not now.',
  'Hold on a second.',
  "I'm on the phone.",
  'Just a minute.',
  "I don't know.",
  'Give me a moment.',
  'One second.',
  "I'll be right with you.",
  'Can you wait?',
  'Shh, quiet.',
];

/**
 * The `control` config: tau2's default parameters with every effect off, telephony on, a patient
 * caller (a fresh object each call).
 */
export function controlEffects(personaName = 'matt_delaney'): CallerEffects {
  return {
    complexity: 'control',
    persona_name: personaName,
    background_noise_file: null,
    burst_noise_files: [],
    environment: null,
    backchannel_min_threshold: null,
    use_llm_backchannel: false,
    enable_interruptions: false,
    telephony_enabled: true,
    channel_effects_config: {
      enable_frame_drops: false,
      frame_drop_rate: 0,
      frame_drop_burst_duration_ms: 200,
      frame_drop_count: 1,
      frame_drop_duration_ms: 150,
    },
    source_effects_config: {
      enable_background_noise: false,
      noise_snr_db: 15,
      noise_snr_drift_db: 3,
      noise_variation_speed: 0.5,
      enable_burst_noise: false,
      burst_noise_events_per_minute: 0,
      burst_snr_range_db: [-5, 10],
    },
    speech_effects_config: {
      enable_dynamic_muffling: false,
      muffle_probability: 0,
      muffle_segment_count: 1,
      muffle_segment_duration_ms: 500,
      muffle_cutoff_freq: 1500,
      muffle_transition_ms: 100,
      enable_vocal_tics: false,
      vocal_tics: DEFAULT_VOCAL_TICS.map((text) => ({ text, type: 'vocal_tic' })),
      min_words_for_vocal_tics: 3,
      enable_non_directed_phrases: false,
      non_directed_phrases: DEFAULT_NON_DIRECTED_PHRASES.map((text) => ({
        text,
        type: 'non_directed_phrase',
      })),
      speech_insert_events_per_minute: 0,
    },
    persona_config: { verbosity: 'minimal', interrupt_tendency: 'waits' },
  };
}

/**
 * A checked {@link CallerEffects} from parsed JSON; throws {@link CallerEffectsError} naming the
 * first bad field.
 */
export function parseCallerEffects(
  json: unknown,
  options: ParseCallerEffectsOptions = {},
): CallerEffects {
  return read(json, options.base ?? controlEffects(), SCHEMA, options.path ?? '') as CallerEffects;
}
