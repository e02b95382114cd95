/**
 * The voice flags of `scenaro serve` (and of `scenaro eval`'s local bots in audio mode): which
 * speech engines a bot hears and speaks with, the VAD's stop window and the pacing of its audio.
 * Defining them loads no engine code, so `scenaro --help` stays fast; the engines they choose
 * are built in `voice.ts`.
 */
import { Option } from 'commander';
import type { Command } from 'commander';

/** Speech-to-text engines `--stt` names. */
export const STT_ENGINES = ['pocketsphinx', 'openai', 'none'] as const;
export type SttEngineName = (typeof STT_ENGINES)[number];

/** Text-to-speech engines `--tts` names. */
export const TTS_ENGINES = ['flite', 'openai', 'none'] as const;
export type TtsEngineName = (typeof TTS_ENGINES)[number];

/** Models and voices the CLI asks for when the flags name none. */
export const DEFAULT_STT_MODEL = 'whisper-1';
export const DEFAULT_TTS_MODEL = 'tts-1';
export const DEFAULT_OPENAI_VOICE = 'alloy';
export const DEFAULT_FLITE_VOICE = 'slt';

/** The voice flags, as commander parses them. */
export interface VoiceFlags {
  /** Unset: pocketsphinx (the server starts without voice input when it is not installed). */
  stt?: SttEngineName;
  tts?: TtsEngineName;
  sttBaseUrl?: string;
  sttModel?: string;
  /** PocketSphinx options as on its command line, e.g. `-ds 2 -fwdflat no`. */
  pocketsphinxArgs?: string;
  ttsBaseUrl?: string;
  ttsModel?: string;
  ttsVoice?: string;
  speechApiKeyEnv?: string;
  vadStopMs?: string;
  /** `off`: replies are synthesized as written (default `on`: said as a person would). */
  ttsNormalize?: 'on' | 'off';
  audioPacing?: 'realtime' | 'fast';
}

/**
 * Who the voice options are for: `bot`, the one bot of `scenaro serve`; `local-bots`, the two
 * local bots of `scenaro eval --mode audio` (a voice each, `--agent-tts-voice` and
 * `--user-tts-voice`, and no `--audio-pacing`: the run's clock paces them).
 */
export type VoiceFlagScope = 'bot' | 'local-bots';

const VOICE_NAMES =
  `for flite one of slt, rms, awb, kal16, kal (default ${DEFAULT_FLITE_VOICE}); ` +
  `for openai any the endpoint has (default ${DEFAULT_OPENAI_VOICE})`;

/** Add the voice options to `command`. */
export function addVoiceOptions(command: Command, scope: VoiceFlagScope = 'bot'): Command {
  const bot = scope === 'bot';
  command
    .addOption(
      new Option(
        '--stt <engine>',
        bot
          ? 'speech to text (default pocketsphinx; when it is not installed the server still ' +
              'starts, warns, and answers audio with an error saying what to install; none: ' +
              'the bot does not listen)'
          : 'audio mode: speech to text of the local bots (default pocketsphinx, which must be ' +
              'installed; none: the bots do not listen)',
      ).choices(STT_ENGINES),
    )
    .addOption(
      new Option('--tts <engine>', 'text to speech (none: replies in text only)')
        .choices(TTS_ENGINES)
        .default('flite'),
    )
    .option('--stt-base-url <url>', 'OpenAI-compatible endpoint for --stt openai (required by it)')
    .option('--stt-model <name>', `model for --stt openai (default ${DEFAULT_STT_MODEL})`)
    .option(
      '--pocketsphinx-args <options>',
      'options for PocketSphinx as on its command line, replacing the defaults of the same ' +
        'name, e.g. "-ds 2 -fwdflat no" (faster, fewer words right: see BENCHMARKS.md)',
    )
    .option('--tts-base-url <url>', 'OpenAI-compatible endpoint for --tts openai (required by it)')
    .option('--tts-model <name>', `model for --tts openai (default ${DEFAULT_TTS_MODEL})`);
  if (bot) command.option('--tts-voice <name>', `voice: ${VOICE_NAMES}`);
  else
    command
      .option(
        '--agent-tts-voice <name>',
        'voice of the agent bot (flite: default slt; openai: default alloy)',
      )
      .option(
        '--user-tts-voice <name>',
        "voice of the user bot, another than the agent's so a recording tells them apart " +
          '(flite: default rms; openai: default echo)',
      );
  command
    .option(
      '--speech-api-key-env <name>',
      'environment variable holding the API key of the speech endpoints (default OPENAI_API_KEY)',
    )
    .option('--vad-stop-ms <ms>', 'silence that ends an utterance (default 800)')
    .addOption(
      new Option(
        '--tts-normalize <on|off>',
        'say replies as a person would: no markup, code or JSON read out; numbers, money, ' +
          'dates, codes and ids in words (default on; off: synthesize the text as written)',
      ).choices(['on', 'off']),
    );
  if (bot)
    command.addOption(
      new Option(
        '--audio-pacing <pacing>',
        "send the bot's audio at the pace it plays (realtime) or as soon as it is made (fast)",
      )
        .choices(['realtime', 'fast'])
        .default('realtime'),
    );
  return command;
}
