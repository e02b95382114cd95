/**
 * The voice surface: state, typed events and the transcript log of a voice connection, the
 * microphone helpers, and composer dictation. Adapters live with their transports
 * (`createRtviVoice` in `@scenaro/sdk/rtvi`, `createLiveKitVoice` in `@scenaro/sdk/livekit`).
 */
export * from './types.js';
export * from './microphone.js';
export { TranscriptLog } from './transcript-log.js';
export { BaseVoice, VOICE_OFF } from './base-voice.js';
export * from './dictation-controller.js';
