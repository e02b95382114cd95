/**
 * The voice of a bot started by `scenaro serve`, built from the voice flags: the speech
 * engines, the VAD's stop window and the audio pacing, checked before the server binds.
 * PocketSphinx missing is not an error: the server starts, warns, and answers audio with an
 * error saying what to install.
 */
import {
  createFliteTextToSpeech,
  createOpenAISpeechToText,
  createOpenAITextToSpeech,
  createPocketsphinxSpeechToText,
  DEFAULT_VAD_STOP_MS,
  FLITE_VOICES,
  parsePocketsphinxArgs,
  SpeechEngineUnavailableError,
} from '@scenaro/agent';
import type {
  FliteVoice,
  PocketsphinxOptions,
  SpeechToText,
  TextToSpeech,
  VoiceOptions,
} from '@scenaro/agent';
import { parseInteger } from './flags.js';
import {
  DEFAULT_FLITE_VOICE,
  DEFAULT_OPENAI_VOICE,
  DEFAULT_STT_MODEL,
  DEFAULT_TTS_MODEL,
} from './voice-flags.js';
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
  /** The flag that gave `ttsVoice`, as errors name it. @default '--tts-voice' */
  voiceFlag?: string;
  /** Flite's output rate. @default 24000, the bot's usual output rate */
  fliteSampleRate?: number;
}

/** `value` as an http(s) URL, or an error naming `flag`. */
function parseBaseUrl(value: string, flag: string): string {
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL at all
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new Error(
      `${flag} must be an http(s) URL such as http://127.0.0.1:8000/v1, got '${value}'`,
    );
  }
  return value;
}

/** Refuse flags that the chosen engines do not use. */
function refuseUnused(flags: VoiceFlags, voiceFlag: string): void {
  const unused: [string | undefined, string, boolean, string][] = [
    [flags.sttBaseUrl, '--stt-base-url', flags.stt !== 'openai', '--stt openai'],
    [flags.sttModel, '--stt-model', flags.stt !== 'openai', '--stt openai'],
    [
      flags.pocketsphinxArgs,
      '--pocketsphinx-args',
      flags.stt !== undefined && flags.stt !== 'pocketsphinx',
      '--stt pocketsphinx',
    ],
    [flags.ttsBaseUrl, '--tts-base-url', flags.tts !== 'openai', '--tts openai'],
    [flags.ttsModel, '--tts-model', flags.tts !== 'openai', '--tts openai'],
    [flags.ttsVoice, voiceFlag, flags.tts === 'none', '--tts flite or --tts openai'],
  ];
  for (const [value, flag, refused, users] of unused) {
    if (refused && value !== undefined) throw new Error(`${flag} is used by ${users} only`);
  }
}

/** The Flite voice `--tts-voice` names, or an error listing the voices Flite has. */
function fliteVoice(name: string | undefined, voiceFlag: string): FliteVoice {
  const voice = name ?? DEFAULT_FLITE_VOICE;
  if (!(FLITE_VOICES as readonly string[]).includes(voice))
    throw new Error(
      `${voiceFlag}: flite has no voice '${voice}'; its voices: ${FLITE_VOICES.join(', ')}`,
    );
  return voice as FliteVoice;
}

/** Where the engine `--stt openai` or `--tts openai` chose calls, and with which model and key. */
function openAIEndpoint(
  flags: VoiceFlags,
  kind: 'stt' | 'tts',
): { baseURL: string; model: string; apiKeyEnv?: string } {
  const [baseUrl, model] =
    kind === 'stt'
      ? [flags.sttBaseUrl, flags.sttModel ?? DEFAULT_STT_MODEL]
      : [flags.ttsBaseUrl, flags.ttsModel ?? DEFAULT_TTS_MODEL];
  const flag = `--${kind}-base-url`;
  if (baseUrl === undefined)
    throw new Error(`--${kind} openai needs ${flag} <url> (an OpenAI-compatible endpoint)`);
  return {
    baseURL: parseBaseUrl(baseUrl, flag),
    model,
    ...(flags.speechApiKeyEnv ? { apiKeyEnv: flags.speechApiKeyEnv } : {}),
  };
}

/** The engine `--stt` chose (undefined for none) and how the summary names it. */
function speechToText(
  flags: VoiceFlags,
  settings: VoiceEngineSettings,
): { stt?: SpeechToText; label: string } {
  if (flags.stt === 'none') return { label: 'none' };
  if (flags.stt === 'openai') {
    const endpoint = openAIEndpoint(flags, 'stt');
    const stt = createOpenAISpeechToText(endpoint);
    return { stt, label: `openai(${endpoint.model} at ${endpoint.baseURL})` };
  }
  if (flags.pocketsphinxArgs === undefined)
    return { stt: createPocketsphinxSpeechToText(settings.pocketsphinx), label: 'pocketsphinx' };
  let extraArgs: string[];
  try {
    extraArgs = parsePocketsphinxArgs(flags.pocketsphinxArgs);
  } catch (error) {
    throw new Error(`--pocketsphinx-args: ${(error as Error).message}`);
  }
  const stt = createPocketsphinxSpeechToText({ ...settings.pocketsphinx, extraArgs });
  return { stt, label: `pocketsphinx(${extraArgs.join(' ')})` };
}

/** The engine `--tts` chose (undefined for none) and how the summary names it. */
function textToSpeech(
  flags: VoiceFlags,
  voiceFlag: string,
  fliteSampleRate: number | undefined,
): { tts?: TextToSpeech; label: string } {
  if (flags.tts === 'none') return { label: 'none' };
  if (flags.tts === 'openai') {
    const endpoint = openAIEndpoint(flags, 'tts');
    const voice = flags.ttsVoice ?? DEFAULT_OPENAI_VOICE;
    const tts = createOpenAITextToSpeech({ ...endpoint, voice });
    return { tts, label: `openai(${endpoint.model}, ${voice} at ${endpoint.baseURL})` };
  }
  const voice = fliteVoice(flags.ttsVoice, voiceFlag);
  const rate = fliteSampleRate === undefined ? {} : { sampleRate: fliteSampleRate };
  return { tts: createFliteTextToSpeech({ voice, ...rate }), label: `flite(${voice})` };
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
  const voiceFlag = settings.voiceFlag ?? '--tts-voice';
  refuseUnused(flags, voiceFlag);
  const stopMs =
    flags.vadStopMs === undefined ? undefined : parseInteger(flags.vadStopMs, '--vad-stop-ms', 1);
  const pacing = flags.audioPacing ?? 'realtime';
  // Built in this order so that a bad flag fails before an engine exists.
  const tts = textToSpeech(flags, voiceFlag, settings.fliteSampleRate);
  const stt = speechToText(flags, settings);
  const warnings: string[] = [];
  let sttLabel = stt.label;
  try {
    await stt.stt?.check();
  } catch (error) {
    if (!(error instanceof SpeechEngineUnavailableError)) {
      if (flags.pocketsphinxArgs === undefined) throw error;
      throw new Error(`--pocketsphinx-args: ${(error as Error).message}`, { cause: error });
    }
    warnings.push(`voice input is off: ${error.message}`);
    sttLabel += '(not installed)';
  }
  const voice: VoiceOptions = {
    pacing,
    ...(stt.stt ? { stt: stt.stt } : {}),
    ...(tts.tts ? { tts: tts.tts } : {}),
    ...(stopMs === undefined ? {} : { vad: { stopMs } }),
    ...(flags.ttsNormalize === 'off' ? { spokenForm: false } : {}),
  };
  const summary =
    `voice: stt=${sttLabel} tts=${tts.label} ` +
    `vad-stop=${stopMs ?? DEFAULT_VAD_STOP_MS}ms pacing=${pacing}` +
    (flags.ttsNormalize === 'off' ? ' tts-normalize=off' : '');
  return { voice, summary, warnings };
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
