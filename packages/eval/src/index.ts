/**
 * `@scenaro/eval`: the evaluation harness. Scenarios come from `@scenaro/domains`;
 * the bridge drives an agent bot and a user bot through each one; gold replay
 * computes the expected end states; scoring, result files and the report follow.
 */
export * from './replay/index.js';
export * from './bridge/bot-connection.js';
export type { BotEvent, TokenMetric, TtfbMetric } from './bridge/bot-events.js';
export type { RelayClock } from './bridge/audio-timeline.js';
export * from './bridge/bridge.js';
export * from './bridge/types.js';
export * from './scoring/index.js';
export * from './report/index.js';
export * from './compare/index.js';
export * from './interaction/index.js';
export * from './runner/audio-files.js';
export * from './runner/bots.js';
export {
  LOCAL_OUTPUT_LEAD_MS,
  LOCAL_SPEECH_SAMPLE_RATE,
  localSpeechSettings,
  localVoices,
} from './runner/voices.js';
export type { BotSide, SpeechSettings } from './runner/voices.js';
export * from './scenario/expected.js';
export * from './scenario/select.js';
export { writeFileAtomic, writeJsonAtomic } from './results/files.js';
export * from './results/finished.js';
export * from './results/run-files.js';
export * from './results/scenario-files.js';
export * from './runner/merge.js';
export * from './runner/progress.js';
export { runEvaluation } from './runner/runner.js';
export type { EvaluationOptions, EvaluationResult, PresetRun } from './runner/options.js';
export { checkCallerOptions, hasCallers, isDuplex } from './runner/caller-run.js';
export { PERSONA_VOICES, personaVoiceSettings } from './runner/persona-voices.js';
export type { PersonaVoice } from './runner/persona-voices.js';
export { BACKCHANNEL_TEXTS, CallerLine } from './bridge/caller-line.js';
export type {
  CallerBehaviourEvent,
  CallerLineEvent,
  CallerLineOptions,
} from './bridge/caller-line.js';
export * from './caller/index.js';
