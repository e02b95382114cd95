/**
 * `@scenaro/sdk/react`: React bindings (React is a peer dependency).
 */
export { useScenaroSession } from './use-scenaro-session.js';
export type { UseScenaroSessionOptions } from './use-scenaro-session.js';
export { FeatureProvider } from './feature-provider.js';
export type { FeatureProviderProps } from './feature-provider.js';
export { useFeature } from './use-feature.js';
export type { FeatureView } from './use-feature.js';
export { useCollection } from './use-collection.js';
export { useScenaroContext } from './context.js';
export type { ScenaroContextValue } from './context.js';
export { useVoice, useTranscript, useVoiceEvent } from './use-voice.js';
export type { VoiceView, TranscriptView } from './use-voice.js';
export { useDictation } from './use-dictation.js';
export type { DictationView } from './use-dictation.js';
