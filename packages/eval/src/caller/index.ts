/**
 * Caller effects: what the caller's (user bot's) audio goes through before the agent hears it,
 * following tau2-bench's speech-complexity model: telephony and frame drops, background noise
 * and bursts, muffling, vocal tics and off-axis phrases, seeded and deterministic, with a
 * timeline of every injected sound and effect.
 *
 * @module
 */
export {
  CallerEffectsError,
  controlEffects,
  DEFAULT_NON_DIRECTED_PHRASES,
  DEFAULT_VOCAL_TICS,
  parseCallerEffects,
  SPEECH_COMPLEXITIES,
} from './config.js';
export type {
  CallerEffects,
  ChannelEffectsConfig,
  ParseCallerEffectsOptions,
  PersonaKnobs,
  SourceEffectsConfig,
  SpeechComplexity,
  SpeechEffectsConfig,
  SpeechInsert,
} from './config.js';
export {
  ACCENT_PERSONAS,
  AUDIO_FRAME_DROP_RATE,
  CONTROL_PERSONAS,
  DEFAULT_BASE_SEED,
  ENVIRONMENTS,
  isSpeechComplexity,
  PRESET_GROUPS,
  presetEffects,
  presetForTask,
  REGULAR_FRAME_DROP_RATE,
  taskSeed,
} from './presets.js';
export type { PresetGroups, TaskCallerEffects } from './presets.js';
export { hashString, Prng } from './prng.js';
export * from './g711.js';
export {
  bandPass,
  Biquad,
  BiquadCascade,
  biquad,
  butterworth,
  designLowPassFir,
  FirFilter,
} from './filters.js';
export type { LowPassFirSpec } from './filters.js';
export {
  TELEPHONY_BAND_HZ,
  TELEPHONY_RATE,
  TelephonyChannel,
  telephonyBandLimit,
} from './telephony.js';
export {
  clip16,
  driftingSnrEnvelope,
  mixAtSnr,
  mixWithDriftingSnr,
  rms,
  SnrDrift,
  snrGain,
  SPEECH_REFERENCE_RMS,
} from './mixing.js';
export type { DriftSpec } from './mixing.js';
export { applyFrameDrops, BAD_STATE_LOSS, FrameDropper, GilbertElliott } from './frame-drops.js';
export type { DropGap } from './frame-drops.js';
export {
  lowPass,
  muffleAmount,
  Muffler,
  muffleSegments,
  OFF_AXIS_CUTOFF_HZ,
  OFF_AXIS_GAIN_DB,
  renderOffAxis,
} from './muffle.js';
export type { MuffleSegment, OffAxisSpec } from './muffle.js';
export {
  BURST_SOUNDS,
  CONTINUOUS_SOUNDS,
  LOOP_SECONDS,
  STAND_IN_NAMES,
  standInSound,
  TIC_SOUNDS,
} from './stand-ins.js';
export type { BurstSound, ContinuousSound, StandInName, TicSound } from './stand-ins.js';
export {
  BABBLE_SENTENCES,
  createFliteSpeaker,
  FLITE_TALKERS,
  speechBabble,
  speechPhrases,
  speechTelevision,
} from './babble.js';
export type { BabbleOptions, Speaker } from './babble.js';
export {
  createStandInSounds,
  loadNoiseDir,
  murmurPhrase,
  NoiseDirError,
  soundName,
} from './sound-bank.js';
export type { CallerSounds, NoiseDirResult, Sound, StandInOptions } from './sound-bank.js';
export { renderInsert, ticSounds } from './inserts.js';
export type { RenderedInsert } from './inserts.js';
export { eventsOf } from './events.js';
export type { CallerEffectEvent, CallerEventDetails, CallerEffectEventKind } from './events.js';
export {
  ACTIVITY_RMS,
  CallerEffectsProcessor,
  DECISION_MS,
  UTTERANCE_GAP_MS,
} from './processor.js';
export type { CallerEffectsProcessorOptions, ChunkInfo, ProcessedChunk } from './processor.js';
