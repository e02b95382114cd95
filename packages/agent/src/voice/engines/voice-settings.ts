/**
 * A bot's voice as data ({@link VoiceSettings}: the engines by name, their options by setting,
 * the VAD's stop window, whether replies are said as a person would) and the voice built from
 * it through the registry. The settings are what `scenaro serve`'s voice flags say (a setting
 * is a flag in camel case), so they can be recorded with an evaluation run and built again when
 * it is resumed.
 */
import { SpeechEngineUnavailableError } from '../engine-errors.js';
import type { VoiceOptions } from '../voice-options.js';
import {
  DEFAULT_SPEECH_ENGINES,
  RESERVED_VOICE_SETTINGS,
  engineSettings,
  getSpeechEngine,
  namedOptionError,
  orList,
  resolveEngineSettings,
  settingOf,
} from './registry.js';
import type {
  AnyEngineSettings,
  AnySpeechEngine,
  SpeechEngineKind,
  SpeechEngineOf,
} from './speech-engine.js';

/** A bot's voice, as data. */
export interface VoiceSettings {
  /** Speech-to-text engine. @default 'pocketsphinx' */
  stt?: string;
  /** Text-to-speech engine. @default 'flite' */
  tts?: string;
  /** Silence that ends an utterance, ms (an integer >= 1). @default the VAD's, 800 */
  vadStopMs?: string | number;
  /** `off`: replies are synthesized as written. @default 'on' (said as a person would) */
  ttsNormalize?: 'on' | 'off';
  /**
   * The engines' options by setting (`ttsVoice`, `sttBaseUrl`, `pocketsphinxArgs`,
   * `espeakNgRate`...): as a command line gives them (strings) or typed.
   */
  [setting: string]: string | number | undefined;
}

/** How {@link buildSpeechVoice} builds the engines, besides what the settings say. */
export interface BuildSpeechVoiceOptions {
  /**
   * A text-to-speech engine speaks at this rate when it is one of its own (its capabilities'
   * `sampleRates`), so its audio is not resampled on the way; otherwise at its usual rate.
   */
  preferredSampleRate?: number;
  /** The pace the audio goes at (see `SpeechEngineContext.clock`). @default 'realtime' */
  clock?: 'realtime' | 'fast';
  /** Options of an engine's own factory, by kind and engine name: `{stt: {pocketsphinx: {...}}}`. */
  tuning?: Partial<Record<SpeechEngineKind, Record<string, unknown>>>;
  /** How messages name a setting (a command line: its flag). @default the setting itself */
  name?: (setting: string) => string;
  /**
   * The voice of an evaluation's local bot: engines only those can use (`evaluationOnly`, the
   * oracle) are allowed. @default false: they are refused, naming why
   */
  evaluation?: boolean;
  /**
   * Check that the engines can run here: a speech-to-text engine that is not installed is
   * reported in `warnings` (and stays in the voice); any other problem is an error. @default true
   */
  check?: boolean;
}

/** A voice built from settings. */
export interface SpeechVoice {
  /** The engines, the VAD's stop window and `spokenForm`; the caller adds the pacing. */
  voice: VoiceOptions;
  /** How a summary names each engine, e.g. `flite(slt)`, `pocketsphinx(not installed)`. */
  labels: Record<SpeechEngineKind, string>;
  /** What the user should know (a speech-to-text engine that is not installed). */
  warnings: string[];
}

/** The engine of `kind` the settings choose. */
function chosenEngine(
  settings: VoiceSettings,
  kind: SpeechEngineKind,
  name: (setting: string) => string,
): AnySpeechEngine {
  const chosen = settings[kind];
  try {
    return getSpeechEngine(kind, chosen === undefined ? DEFAULT_SPEECH_ENGINES[kind] : `${chosen}`);
  } catch (error) {
    throw new Error(`${name(kind)}: ${(error as Error).message}`);
  }
}

/** Refuse settings that the chosen engines do not use, naming those that do. */
function refuseUnused(
  settings: VoiceSettings,
  chosen: readonly AnySpeechEngine[],
  name: (setting: string) => string,
): void {
  const known = engineSettings();
  for (const [setting, value] of Object.entries(settings)) {
    if (value === undefined || RESERVED_VOICE_SETTINGS.includes(setting)) continue;
    const users = known.get(setting);
    if (!users) throw new Error(`${name(setting)}: no speech engine has this setting`);
    if (users.some((u) => chosen.includes(u.engine))) continue;
    if (users.every((u) => u.spec.refuseUnused === false)) continue;
    const names = users.map((u) => `${name(u.engine.kind)} ${u.engine.name}`);
    throw new Error(`${name(setting)} is used by ${orList(names)} only`);
  }
}

/** The option values the settings give `engine`, by option name. */
export function engineValues(engine: AnySpeechEngine, settings: VoiceSettings): AnyEngineSettings {
  const values: AnyEngineSettings = {};
  for (const option of Object.keys(engine.options)) {
    const value = settings[settingOf(engine, option)];
    if (value !== undefined) values[option] = value;
  }
  return values;
}

/**
 * The settings the speakers of a conversation between two bots get: `shared` for both, and for
 * each the values it is given in `own`, else the engines' defaults that tell two speakers apart
 * (Flite: `slt` and `rms`), for the per-speaker options of the engines `shared` chooses.
 */
export function speakerVoiceSettings(
  shared: VoiceSettings,
  own: readonly [VoiceSettings?, VoiceSettings?] = [],
): [VoiceSettings, VoiceSettings] {
  const engines = (['stt', 'tts'] as const).map((kind) =>
    getSpeechEngine(kind, `${shared[kind] ?? DEFAULT_SPEECH_ENGINES[kind]}`),
  );
  const speaker = (index: 0 | 1): VoiceSettings => {
    const settings: VoiceSettings = { ...shared };
    for (const engine of engines)
      for (const [option, spec] of Object.entries(engine.options)) {
        const value = spec.perSpeaker ? spec.speakerDefaults?.[index] : undefined;
        if (value !== undefined) settings[settingOf(engine, option)] = value;
      }
    for (const [setting, value] of Object.entries(own[index] ?? {}))
      if (value !== undefined) settings[setting] = value;
    return settings;
  };
  return [speaker(0), speaker(1)];
}

/** Close what was built before a later step failed. */
async function release(...engines: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  await Promise.allSettled(engines.map((e) => e?.close()));
}

/**
 * Check `settings` and build the voice they describe through the registry. Errors name the
 * setting at fault (with `options.name`): an engine that is not registered, a setting the chosen
 * engines do not use, a value an engine does not take, a required one missing.
 */
export async function buildSpeechVoice(
  settings: VoiceSettings,
  options: BuildSpeechVoiceOptions = {},
): Promise<SpeechVoice> {
  const name = options.name ?? ((setting: string) => setting);
  const sttEngine = chosenEngine(settings, 'stt', name);
  const ttsEngine = chosenEngine(settings, 'tts', name);
  for (const engine of [sttEngine, ttsEngine])
    if (engine.evaluationOnly !== undefined && options.evaluation !== true)
      throw new Error(`${name(engine.kind)} ${engine.name}: ${engine.evaluationOnly}`);
  refuseUnused(settings, [sttEngine, ttsEngine], name);
  let stopMs: number | undefined;
  if (settings.vadStopMs !== undefined) {
    stopMs = Number(settings.vadStopMs);
    if (!Number.isInteger(stopMs) || stopMs < 1)
      throw new Error(`${name('vadStopMs')} must be an integer >= 1, got '${settings.vadStopMs}'`);
  }
  const normalize = settings.ttsNormalize;
  if (normalize !== undefined && normalize !== 'on' && normalize !== 'off')
    throw new Error(`${name('ttsNormalize')} must be on or off, got '${String(normalize)}'`);

  const prepare = (engine: AnySpeechEngine) => {
    const optionName = (option: string) => name(settingOf(engine, option));
    const values = engineValues(engine, settings);
    const resolved = resolveEngineSettings(engine, values, optionName, name);
    const preferred = options.preferredSampleRate;
    const context = {
      ...(options.clock ? { clock: options.clock } : {}),
      ...(engine.kind === 'tts' &&
      preferred !== undefined &&
      engine.capabilities.sampleRates.includes(preferred)
        ? { sampleRate: preferred }
        : {}),
      tuning: options.tuning?.[engine.kind]?.[engine.name],
    };
    return {
      label: engine.label?.(resolved as never) ?? engine.name,
      optionName,
      /** The settings given to the engine, named: what a failed check is blamed on. */
      given: Object.keys(values).map(optionName),
      create: async <K extends SpeechEngineKind>() => {
        try {
          return (await engine.create(resolved as never, context)) as SpeechEngineOf<K> | undefined;
        } catch (error) {
          throw namedOptionError(error, optionName);
        }
      },
    };
  };
  // Both checked before either exists, so that a bad setting fails before an engine starts.
  const ttsPlan = prepare(ttsEngine);
  const sttPlan = prepare(sttEngine);
  const tts = await ttsPlan.create<'tts'>();
  let stt: SpeechEngineOf<'stt'> | undefined;
  try {
    stt = await sttPlan.create<'stt'>();
  } catch (error) {
    await release(tts);
    throw error;
  }

  const warnings: string[] = [];
  const labels = { stt: sttPlan.label, tts: ttsPlan.label };
  if (options.check !== false) {
    try {
      await tts?.check?.();
    } catch (error) {
      await release(tts, stt);
      if (error instanceof SpeechEngineUnavailableError)
        throw new Error(`${name('tts')} ${ttsEngine.name}: ${error.message}`, { cause: error });
      throw namedOptionError(error, ttsPlan.optionName);
    }
    try {
      await stt?.check();
    } catch (error) {
      if (error instanceof SpeechEngineUnavailableError) {
        warnings.push(`voice input is off: ${error.message}`);
        labels.stt += '(not installed)';
      } else {
        await release(tts, stt);
        const named = namedOptionError(error, sttPlan.optionName);
        if (named !== error || sttPlan.given.length === 0) throw named;
        throw new Error(`${sttPlan.given.join(', ')}: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  }
  const voice: VoiceOptions = {
    ...(stt ? { stt } : {}),
    ...(tts ? { tts } : {}),
    ...(stopMs === undefined ? {} : { vad: { stopMs } }),
    ...(normalize === 'off' ? { spokenForm: false } : {}),
  };
  return { voice, labels, warnings };
}
