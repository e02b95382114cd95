/**
 * The speech-engine registry and the engine declarations (`@scenaro/agent/voice-engines`): what
 * engines there are, what they can do and which options they take, without loading any engine
 * (each one's code loads when it is built). Also in `@scenaro/agent/voice`.
 */
export {
  DEFAULT_SPEECH_ENGINES,
  RESERVED_VOICE_SETTINGS,
  SPEECH_ENGINE_KINDS,
  createSpeechEngine,
  engineSettings,
  findSpeechEngine,
  getSpeechEngine,
  registerSpeechEngine,
  resolveEngineSettings,
  settingOf,
  speechEngines,
} from './registry.js';
export type { CreateSpeechEngineOptions, OptionNamer, RegisteredEngineOption } from './registry.js';
export { defineSpeechEngine, SpeechEngineOptionError } from './speech-engine.js';
export type {
  AnyEngineSettings,
  AnySpeechEngine,
  EngineOptions,
  EngineOptionSpec,
  EngineOptionType,
  EngineSettings,
  SpeechEngine,
  SpeechEngineCapabilities,
  SpeechEngineContext,
  SpeechEngineKind,
  SpeechEngineOf,
} from './speech-engine.js';
export { buildSpeechVoice, engineValues, speakerVoiceSettings } from './voice-settings.js';
export type { BuildSpeechVoiceOptions, SpeechVoice, VoiceSettings } from './voice-settings.js';
export { BUILT_IN_SPEECH_ENGINES } from './built-in.js';
export { espeakNgEngine } from './espeak-ng/engine.js';
export { fliteEngine } from './flite/engine.js';
export { noneSttEngine, noneTtsEngine } from './none/engine.js';
export { openaiSttEngine, openaiTtsEngine } from './openai/engine.js';
export { ORACLE_FAULTS, oracleEngine } from './oracle/engine.js';
export { FAST_CLOCK_FINAL_TIMEOUT_MS, pocketsphinxEngine } from './pocketsphinx/engine.js';
