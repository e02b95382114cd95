/**
 * The voice flags of `scenaro serve` and `scenaro demo` (and of `scenaro eval`'s local bots in
 * audio mode): which speech engines a bot hears and speaks with, their options, the VAD's stop
 * window and the pacing of its audio. The engines, their options and the help text come from the
 * speech-engine registry (`@scenaro/agent/voice-engines`: declarations only, no engine code, so
 * `scenaro --help` stays fast); an engine registered before the command is made has its flags
 * too. The engines the flags choose are built in `voice.ts`.
 */
import { Option } from 'commander';
import type { Command } from 'commander';
import {
  DEFAULT_SPEECH_ENGINES,
  engineSettings,
  speechEngines,
} from '@scenaro/agent/voice-engines';
import type {
  RegisteredEngineOption,
  SpeechEngineKind,
  VoiceSettings,
} from '@scenaro/agent/voice-engines';

/** The voice flags, as commander parses them; each engine option is its setting (`ttsVoice`). */
export interface VoiceFlags {
  /** Unset: pocketsphinx (the server starts without voice input when it is not installed). */
  stt?: string;
  tts?: string;
  vadStopMs?: string;
  /** `off`: replies are synthesized as written (default `on`: said as a person would). */
  ttsNormalize?: 'on' | 'off';
  audioPacing?: 'realtime' | 'fast';
  /** `any` or `min-words:N` (see `parseInterruptionStrategy`). */
  interruption?: string;
}

/**
 * Who the voice options are for: `bot`, the one bot of `scenaro serve`; `local-bots`, the two
 * local bots of `scenaro eval --mode audio` (per-speaker options such as the voice once per bot,
 * `--agent-tts-voice` and `--user-tts-voice`, and no `--audio-pacing`: the run's clock paces them).
 */
export type VoiceFlagScope = 'bot' | 'local-bots';

/** The settings of the voice itself, not of an engine. */
const VOICE_OWN_SETTINGS = ['stt', 'tts', 'vadStopMs', 'ttsNormalize'] as const;

/** `--kebab-case` of a setting's camel-case name. */
export const flagOf = (setting: string): string =>
  `--${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A setting of one speaker in `scenaro eval`: `agentTtsVoice`. */
export const speakerSetting = (side: 'agent' | 'user', setting: string): string =>
  side + setting[0]!.toUpperCase() + setting.slice(1);

/** The engine settings the flags can give, and whether each is per speaker. */
export function engineFlagSettings(): { setting: string; perSpeaker: boolean }[] {
  return [...engineSettings()].map(([setting, users]) => ({
    setting,
    perSpeaker: users.some((u) => u.spec.perSpeaker),
  }));
}

/** The voice settings the flags give (the engine options among them found in the registry). */
export function voiceSettingsOf(flags: object): VoiceSettings {
  const values = flags as Record<string, unknown>;
  const settings: VoiceSettings = {};
  const keys = [...VOICE_OWN_SETTINGS, ...engineFlagSettings().map((s) => s.setting)];
  for (const key of keys) {
    const value = values[key];
    if (typeof value === 'string' || typeof value === 'number') settings[key] = value;
  }
  return settings;
}

const KIND_WORDS: Record<SpeechEngineKind, string> = {
  stt: 'speech to text',
  tts: 'text to speech',
};

/** `--stt`/`--tts` help: every registered engine of the kind, with what it is and where it runs. */
function enginesHelp(kind: SpeechEngineKind): string {
  const engines = speechEngines(kind).map((engine) => {
    const where =
      engine.capabilities.sampleRates.length === 0
        ? ''
        : engine.capabilities.offline
          ? '; offline'
          : '; remote';
    return `${engine.name} (${engine.description}${where})`;
  });
  return `${KIND_WORDS[kind]}: ${engines.join('; ')}`;
}

/** What an option takes, in words: its choices, its range, or what its declaration says. */
function valuesWords({ spec }: RegisteredEngineOption): string | undefined {
  if (spec.choices) return `one of ${spec.choices.join(', ')}`;
  if (spec.values) return spec.values;
  if (spec.min !== undefined && spec.max !== undefined) return `${spec.min}-${spec.max}`;
  return undefined;
}

/** ` (default X)`, ` (required by it)` or nothing. */
function defaultWords({ spec }: RegisteredEngineOption): string {
  if (spec.default !== undefined) return ` (default ${spec.default})`;
  return spec.required ? ' (required by it)' : '';
}

const engineFlag = ({ engine }: RegisteredEngineOption) => `--${engine.kind} ${engine.name}`;

/** The help of an engine-option flag, from the declarations of the engines that take it. */
function settingHelp(users: RegisteredEngineOption[]): string {
  const first = users[0]!;
  const part = (u: RegisteredEngineOption) => {
    const values = valuesWords(u);
    return `${u.spec.description}${values ? `, ${values}` : ''}${defaultWords(u)}`;
  };
  if (new Set(users.map(part)).size === 1)
    return `${users.map(engineFlag).join(', ')}: ${part(first)}`;
  const each = users.map(
    (u) => `for ${engineFlag(u)} ${valuesWords(u) ?? 'any'}${defaultWords(u)}`,
  );
  return `${first.spec.description}: ${each.join('; ')}`;
}

/** The help of a per-speaker flag of `scenaro eval`: each engine's default for that bot. */
function speakerHelp(users: RegisteredEngineOption[], side: 'agent' | 'user'): string {
  const index = side === 'agent' ? 0 : 1;
  const defaults = users.map((u) => {
    const value = u.spec.speakerDefaults?.[index] ?? u.spec.default;
    return `${engineFlag(u)}: ${value === undefined ? 'no default' : `default ${value}`}`;
  });
  const apart = side === 'user' ? ", another than the agent's so a recording tells them apart" : '';
  return `${users[0]!.spec.description} of the ${side} bot${apart} (${defaults.join('; ')})`;
}

/**
 * The engine settings in the order their flags are listed: those of speech-to-text engines,
 * those of text-to-speech engines, then those both kinds take.
 */
function orderedSettings(): [string, RegisteredEngineOption[]][] {
  const kindsOf = (users: RegisteredEngineOption[]) => new Set(users.map((u) => u.engine.kind));
  const rank = (users: RegisteredEngineOption[]) => {
    const kinds = kindsOf(users);
    return kinds.size > 1 ? 2 : kinds.has('stt') ? 0 : 1;
  };
  return [...engineSettings()].sort(([, a], [, b]) => rank(a) - rank(b));
}

/** Add the voice options to `command`. */
export function addVoiceOptions(command: Command, scope: VoiceFlagScope = 'bot'): Command {
  const bot = scope === 'bot';
  const sttNames = speechEngines('stt').map((e) => e.name);
  const ttsNames = speechEngines('tts').map((e) => e.name);
  command
    .addOption(
      new Option(
        '--stt <engine>',
        `${enginesHelp('stt')}. Default ${DEFAULT_SPEECH_ENGINES.stt}` +
          (bot
            ? '; when it is not installed the server still starts, warns, and answers audio ' +
              'with an error saying what to install'
            : ', which must be installed (audio mode: the local bots)'),
      ).choices(sttNames),
    )
    .addOption(
      new Option('--tts <engine>', enginesHelp('tts'))
        .choices(ttsNames)
        .default(DEFAULT_SPEECH_ENGINES.tts),
    );
  for (const [setting, users] of orderedSettings()) {
    const valueName = users[0]!.spec.valueName ?? 'value';
    const perSpeaker = users.some((u) => u.spec.perSpeaker);
    if (bot || !perSpeaker) {
      command.option(`${flagOf(setting)} <${valueName}>`, settingHelp(users));
      continue;
    }
    for (const side of ['agent', 'user'] as const)
      command.option(
        `${flagOf(speakerSetting(side, setting))} <${valueName}>`,
        speakerHelp(users, side),
      );
  }
  command
    .option('--vad-stop-ms <ms>', 'silence that ends an utterance (default 800)')
    .addOption(
      new Option(
        '--tts-normalize <on|off>',
        'say replies as a person would: no markup, code or JSON read out; numbers, money, ' +
          'dates, codes and ids in words (default on; off: synthesize the text as written)',
      ).choices(['on', 'off']),
    );
  command.option(
    '--interruption <strategy>',
    `${bot ? 'when user speech interrupts the bot while it speaks' : 'audio mode: when caller speech interrupts the agent bot while it speaks'}: ` +
      'any (at once, the default) or min-words:N (only a turn of at least N words that is not ' +
      'a backchannel such as "mm-hmm", a tic or a phrase said to someone else; the rest is let go)',
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
