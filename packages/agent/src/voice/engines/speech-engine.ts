/**
 * What a speech engine declares to the registry: its kind (speech to text or text to speech),
 * its capabilities, the options it takes (a schema the command line's flags and `--help` are
 * derived from) and a factory that builds it from typed settings. A declaration loads no engine
 * code: its factory imports the engine's module when it runs, so listing the engines (the CLI's
 * `--help`) stays cheap.
 */
import type { SpeechToText } from '../stt.js';
import type { TextToSpeech } from '../tts.js';

/** `stt`: speech to text (a recognizer); `tts`: text to speech (a synthesizer). */
export type SpeechEngineKind = 'stt' | 'tts';

/** The engine interface of a kind. */
export type SpeechEngineOf<K extends SpeechEngineKind> = K extends 'stt'
  ? SpeechToText
  : TextToSpeech;

/** What an engine can do, as listed in `--help` and read by whoever picks rates. */
export interface SpeechEngineCapabilities {
  /**
   * STT: interim transcripts while the user is still speaking. TTS: audio is yielded while the
   * sentence is still being synthesized (not only once it is whole).
   */
  streaming: boolean;
  /**
   * The rates the engine itself hears (STT: its sessions' input) or speaks at (TTS: its voices,
   * before the audio is resampled to the rate asked for). Empty for an engine with no audio.
   */
  sampleRates: readonly number[];
  /** Runs on this machine (true) or calls a remote endpoint (false). */
  offline: boolean;
}

/**
 * The type of an option's value: `string`, `integer` and `number` (as typed, or parsed from the
 * text of a command line), `url` (an http(s) URL).
 */
export type EngineOptionType = 'string' | 'integer' | 'number' | 'url';

/** One option of an engine. */
export interface EngineOptionSpec {
  /** What it sets, a few words (`voice`, `model`): `--help` and error messages use them. */
  readonly description: string;
  readonly type: EngineOptionType;
  /** The values taken, in words for `--help` (`any voice the endpoint has`); choices list themselves. */
  readonly values?: string;
  /** The only values taken (a `string` option). */
  readonly choices?: readonly string[];
  /** Smallest value (`integer`, `number`). */
  readonly min?: number;
  /** Largest value (`integer`, `number`). */
  readonly max?: number;
  /** The value when none is given. */
  readonly default?: string | number;
  /** A value must be given (an option with a default never needs one). */
  readonly required?: boolean;
  /**
   * The voice setting that gives it, in camel case; its command-line flag is the kebab case
   * (`ttsVoice` is `--tts-voice`). Options of several engines that mean the same share one.
   * @default the engine's name and the option's, `pocketsphinxArgs` for `args` of `pocketsphinx`
   */
  readonly setting?: string;
  /** The word for the value in `--help`: `--tts-voice <name>`. @default 'value' */
  readonly valueName?: string;
  /**
   * Two bots talking to each other (an evaluation's local bots) each have their own value, so a
   * recording tells them apart: a voice.
   */
  readonly perSpeaker?: boolean;
  /** With `perSpeaker`: the first speaker's default and the second's, which sound apart. */
  readonly speakerDefaults?: readonly [string, string];
  /**
   * A value given while no chosen engine reads this option is refused, naming the engines that
   * do (default); false accepts it silently (one API-key setting shared by a family).
   */
  readonly refuseUnused?: boolean;
}

/** The options of an engine by name. */
export type EngineOptions = Readonly<Record<string, EngineOptionSpec>>;

type ValueOfType<T> = T extends 'integer' | 'number' ? number : string;
type OptionValue<O extends EngineOptionSpec> = ValueOfType<O['type']>;
type AlwaysSet<O> = O extends { default: string | number }
  ? true
  : O extends { required: true }
    ? true
    : false;

/**
 * The settings a factory gets, typed from its options: numbers for `integer` and `number`,
 * strings otherwise; set whenever the option has a default or is required.
 */
export type EngineSettings<S extends EngineOptions> = {
  -readonly [K in keyof S as AlwaysSet<S[K]> extends true ? K : never]: OptionValue<S[K]>;
} & {
  -readonly [K in keyof S as AlwaysSet<S[K]> extends true ? never : K]?: OptionValue<S[K]>;
};

/** Settings of any engine, by option name. */
export type AnyEngineSettings = Record<string, string | number | undefined>;

/** How an engine is being used, beyond its own options. */
export interface SpeechEngineContext<T = unknown> {
  /** TTS: the rate to speak at. @default the engine's usual one, 24000 */
  sampleRate?: number;
  /**
   * `fast`: the audio reaches the engine as fast as it is made, not at the pace it plays (an
   * evaluation's fast clock), so a recognizer may get a long utterance at once. @default 'realtime'
   */
  clock?: 'realtime' | 'fast';
  /** Options of the engine's own factory that are not command-line options (program paths...). */
  tuning?: T;
}

/** A speech engine as the registry holds it. */
export interface SpeechEngine<
  K extends SpeechEngineKind = SpeechEngineKind,
  S extends EngineOptions = EngineOptions,
  T = unknown,
> {
  /** What `--stt` / `--tts` names it: lower case letters, digits and dashes. */
  readonly name: string;
  readonly kind: K;
  /** One line for `--help`: what it is and where it runs. */
  readonly description: string;
  readonly capabilities: SpeechEngineCapabilities;
  /**
   * Why only an evaluation's local bots can use the engine (e.g. it is told what the other bot
   * said by the evaluation's bridge): any other voice (`scenaro serve`, `scenaro demo`) refuses
   * it with this reason. Unset: any bot can use it.
   */
  readonly evaluationOnly?: string;
  readonly options: S;
  /**
   * Build the engine. Undefined means no engine at all (`none`: the bot does not listen, or
   * answers in text only). An option the engine refuses is a {@link SpeechEngineOptionError}.
   */
  create(
    settings: EngineSettings<S>,
    context: SpeechEngineContext<T>,
  ): Promise<SpeechEngineOf<K> | undefined>;
  /** How a voice summary names the engine with these settings, e.g. `flite(slt)`. @default its name */
  label?(settings: EngineSettings<S>): string;
}

/** Any registered engine. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySpeechEngine = SpeechEngine<SpeechEngineKind, EngineOptions, any>;

/**
 * Declare an engine: the identity, with the settings its factory gets typed from its options.
 * Give the options `as const` or inline so their defaults type the settings.
 */
export function defineSpeechEngine<
  K extends SpeechEngineKind,
  const S extends EngineOptions,
  T = unknown,
>(engine: SpeechEngine<K, S, T>): SpeechEngine<K, S, T> {
  return engine;
}

/** An option value an engine refuses; the registry names the option as its caller does. */
export class SpeechEngineOptionError extends Error {
  override readonly name = 'SpeechEngineOptionError';

  constructor(
    /** The option's name in the engine's declaration. */
    readonly option: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
