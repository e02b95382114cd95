/**
 * What a bot server's voice is made of: the speech engines, the VAD's timing
 * and the audio clock. Every session of the server shares the engines and
 * opens its own STT stream.
 */
import type { SpeechToText } from './stt.js';
import type { TextToSpeech } from './tts.js';
import type { VadTiming } from './audio/vad.js';
import type { InterruptionStrategy } from './turn-taking.js';

/** How a session's outgoing audio is timed. */
export type AudioPacing = 'realtime' | 'fast';

/** Voice of a bot server. */
export interface VoiceOptions {
  /**
   * Speech to text. Without one the bot does not listen: audio it receives is answered once per
   * session with an RTVI `error` (saying what to install when the engine's `check()` failed).
   */
  stt?: SpeechToText;
  /** Text to speech. Without one the bot answers in text only (`bot-output`, no audio). */
  tts?: TextToSpeech;
  /** VAD start/stop windows. @default start 200 ms, stop 800 ms */
  vad?: VadTiming;
  /**
   * `realtime` sends the bot's audio at the pace it plays (what a listener needs); `fast` sends
   * it as soon as it is synthesized and counts audio time in samples (evaluation between bots).
   * A session can change it. @default 'realtime'
   */
  pacing?: AudioPacing;
  /**
   * Say replies as a person would: markup, code and JSON are not read out; numbers, money, dates,
   * times, codes, ids, phone numbers and emails are said in words (`toSpokenForm`). `bot-output`
   * keeps the written text, `bot-tts-text` carries what was said. @default true
   */
  spokenForm?: boolean;
  /** Duration of each outgoing audio frame. @default 40 */
  outputChunkMs?: number;
  /**
   * In real-time pacing, how far ahead of its play time a frame may be sent, so the listener's
   * buffer does not run dry on network jitter. @default 80
   */
  outputLeadMs?: number;
  /**
   * When user speech during the bot's speech interrupts it (see `turn-taking.ts`): `any` speech
   * at once (barge-in), or only speech of at least N words that is not a backchannel, a tic or a
   * phrase said to someone else. @default { kind: 'any' }
   */
  interruption?: InterruptionStrategy;
  /**
   * Fast pacing: report, as `server-message {type: 'audio-heard', samples}`, how much of the
   * user's stream has been heard with every decision it led to taken (an utterance counts once
   * its final transcript is in). A relay between two bots steps in lockstep with these reports,
   * so an interruption lands at the same place on every run. @default false
   */
  reportHeard?: boolean;
}

export const DEFAULT_OUTPUT_CHUNK_MS = 40;
export const DEFAULT_OUTPUT_LEAD_MS = 80;
