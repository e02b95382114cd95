/**
 * The voice of a bot started by `scenaro serve` or `scenaro demo`, built from the voice flags
 * through the speech-engine registry: the engines, the VAD's stop window and the audio pacing,
 * checked before the server binds. PocketSphinx missing is not an error: the server starts,
 * warns, and answers audio with an error saying what to install.
 */
import {
  buildSpeechVoice,
  DEFAULT_VAD_STOP_MS,
  formatInterruptionStrategy,
  parseInterruptionStrategy,
} from '@scenaro/agent/voice';
import type { PocketsphinxOptions, VoiceOptions } from '@scenaro/agent/voice';
import { flagOf, voiceSettingsOf } from './voice-flags.js';
import type { VoiceFlags } from './voice-flags.js';

/** A bot server's voice, ready to start. */
export interface VoiceSetup {
  voice: VoiceOptions;
  /** One line naming what runs, e.g. `voice: stt=pocketsphinx tts=flite(slt) vad-stop=800ms pacing=realtime`. */
  summary: string;
  /** What the user should know before talking to the bot (an engine that is not installed). */
  warnings: string[];
}

/** How the engines are built, for what the flags do not say. */
export interface VoiceEngineSettings {
  /** Options of the PocketSphinx recognizer (its program and model files). */
  pocketsphinx?: PocketsphinxOptions;
}

/**
 * Check the voice flags and build the voice they describe. An STT engine that is not installed
 * stays in the voice (the server then tells a client sending audio what to install) and is
 * reported in `warnings`; every other problem is an error naming the flag.
 */
export async function buildVoiceOptions(
  flags: VoiceFlags,
  settings: VoiceEngineSettings = {},
): Promise<VoiceSetup> {
  const pacing = flags.audioPacing ?? 'realtime';
  const interruption = parseInterruptionFlag(flags.interruption);
  const built = await buildSpeechVoice(voiceSettingsOf(flags), {
    name: flagOf,
    ...(settings.pocketsphinx ? { tuning: { stt: { pocketsphinx: settings.pocketsphinx } } } : {}),
  });
  const voice: VoiceOptions = { pacing, ...built.voice, ...(interruption ? { interruption } : {}) };
  const summary =
    `voice: stt=${built.labels.stt} tts=${built.labels.tts} ` +
    `vad-stop=${voice.vad?.stopMs ?? DEFAULT_VAD_STOP_MS}ms pacing=${pacing}` +
    (voice.spokenForm === false ? ' tts-normalize=off' : '') +
    (interruption ? ` interruption=${formatInterruptionStrategy(interruption)}` : '');
  return { voice, summary, warnings: built.warnings };
}

/** `--interruption`, checked (undefined when not given). */
export function parseInterruptionFlag(value: string | undefined) {
  if (value === undefined) return undefined;
  try {
    return parseInterruptionStrategy(value);
  } catch (error) {
    throw new Error(`--interruption: ${(error as Error).message}`);
  }
}

/** Release the engines of `voice`. */
export async function closeVoice(voice: VoiceOptions): Promise<void> {
  await Promise.allSettled([voice.stt?.close(), voice.tts?.close()]);
}

/** Make `server.close()` close the engines of `voice` too, once the server has closed. */
export function closeVoiceWithServer<T extends { close(): Promise<void> }>(
  server: T,
  voice: VoiceOptions,
): T {
  const closeServer = server.close.bind(server);
  server.close = async () => {
    try {
      await closeServer();
    } finally {
      await closeVoice(voice);
    }
  };
  return server;
}
