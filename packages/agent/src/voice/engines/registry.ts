/**
 * The speech-engine registry: every engine the CLI, the bot server and the evaluation's local
 * bots can use, by kind and name. The built-in engines are in it from the start
 * (`built-in.ts`); {@link registerSpeechEngine} adds another at run time (a plugin, a test).
 * Engines are built from option values checked against their declaration, typed, with the
 * defaults filled in.
 */
import { BUILT_IN_SPEECH_ENGINES } from './built-in.js';
import { SpeechEngineOptionError } from './speech-engine.js';
import type {
  AnyEngineSettings,
  AnySpeechEngine,
  EngineOptionSpec,
  SpeechEngineContext,
  SpeechEngineKind,
  SpeechEngineOf,
} from './speech-engine.js';

/** The engine of each kind when none is named. */
export const DEFAULT_SPEECH_ENGINES = { stt: 'pocketsphinx', tts: 'flite' } as const;

/** How messages name a kind. */
export const SPEECH_ENGINE_KINDS: Record<SpeechEngineKind, string> = {
  stt: 'speech-to-text',
  tts: 'text-to-speech',
};

/** Settings that are the voice's own, not an engine's (see `VoiceSettings`). */
export const RESERVED_VOICE_SETTINGS: readonly string[] = [
  'stt',
  'tts',
  'vadStopMs',
  'ttsNormalize',
  'audioPacing',
];

const engines = new Map<string, AnySpeechEngine>();
const keyOf = (kind: SpeechEngineKind, name: string) => `${kind}:${name}`;

/** `espeak-ng` as the start of a camel-case setting: `espeakNg`. */
function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The voice setting (camel case; its flag is the kebab case) that gives `option` of `engine`. */
export function settingOf(engine: AnySpeechEngine, option: string): string {
  const spec = engine.options[option];
  return spec?.setting ?? camel(engine.name) + option[0]!.toUpperCase() + option.slice(1);
}

function checkDeclaration(engine: AnySpeechEngine): void {
  if (engine.kind !== 'stt' && engine.kind !== 'tts')
    throw new Error(
      `speech engine '${engine.name}': kind must be stt or tts, got '${engine.kind}'`,
    );
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(engine.name))
    throw new Error(
      `speech engine name '${engine.name}': lower-case letters, digits and single dashes only`,
    );
  if (typeof engine.create !== 'function')
    throw new Error(`speech engine '${engine.name}' has no create function`);
  for (const [option, spec] of Object.entries(engine.options)) {
    const setting = settingOf(engine, option);
    if (!/^[a-z][a-zA-Z0-9]*$/.test(setting))
      throw new Error(`speech engine '${engine.name}': setting '${setting}' is not camel case`);
    if (RESERVED_VOICE_SETTINGS.includes(setting))
      throw new Error(`speech engine '${engine.name}': '${setting}' is a setting of the voice`);
    if (spec.choices && spec.type !== 'string')
      throw new Error(
        `speech engine '${engine.name}': option '${option}' has choices: type string`,
      );
  }
}

/**
 * Add `engine` to the registry (after the engines of its kind already there, in `--help` too).
 * Throws when an engine of its kind has its name. Returns the function that removes it again.
 */
export function registerSpeechEngine(engine: AnySpeechEngine): () => void {
  checkDeclaration(engine);
  const key = keyOf(engine.kind, engine.name);
  if (engines.has(key))
    throw new Error(
      `a ${SPEECH_ENGINE_KINDS[engine.kind]} engine named '${engine.name}' is already registered`,
    );
  engines.set(key, engine);
  return () => {
    if (engines.get(key) === engine) engines.delete(key);
  };
}

for (const engine of BUILT_IN_SPEECH_ENGINES) registerSpeechEngine(engine);

/** The engines of `kind` (both kinds when not given), in the order they were registered. */
export function speechEngines(kind?: SpeechEngineKind): AnySpeechEngine[] {
  return [...engines.values()].filter((e) => kind === undefined || e.kind === kind);
}

/** The engine of `kind` named `name`, if registered. */
export function findSpeechEngine(
  kind: SpeechEngineKind,
  name: string,
): AnySpeechEngine | undefined {
  return engines.get(keyOf(kind, name));
}

/** The engine of `kind` named `name`; throws, listing the engines there are, when none is. */
export function getSpeechEngine(kind: SpeechEngineKind, name: string): AnySpeechEngine {
  const engine = findSpeechEngine(kind, name);
  if (!engine)
    throw new Error(
      `no ${SPEECH_ENGINE_KINDS[kind]} engine '${name}'; the engines: ` +
        speechEngines(kind)
          .map((e) => e.name)
          .join(', '),
    );
  return engine;
}

/** An option of a registered engine. */
export interface RegisteredEngineOption {
  engine: AnySpeechEngine;
  /** Its name in the engine's declaration. */
  option: string;
  spec: EngineOptionSpec;
}

/**
 * Every voice setting the registered engines take, each with the engine options it gives (in
 * the order of the engines), in order of first appearance: what the command line's flags are.
 */
export function engineSettings(kind?: SpeechEngineKind): Map<string, RegisteredEngineOption[]> {
  const settings = new Map<string, RegisteredEngineOption[]>();
  for (const engine of speechEngines(kind)) {
    for (const [option, spec] of Object.entries(engine.options)) {
      const setting = settingOf(engine, option);
      settings.set(setting, [...(settings.get(setting) ?? []), { engine, option, spec }]);
    }
  }
  return settings;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** `value` of an option as its type wants it; throws a message starting with `label`. */
function parseOptionValue(
  engine: AnySpeechEngine,
  spec: EngineOptionSpec,
  value: string | number,
  label: string,
): string | number {
  const text = String(value);
  if (spec.type === 'string') {
    if (spec.choices && !spec.choices.includes(text))
      throw new Error(
        `${label}: ${engine.name} has no ${spec.description} '${text}'; ` +
          `its ${spec.description}s: ${spec.choices.join(', ')}`,
      );
    return text;
  }
  if (spec.type === 'url') {
    let protocol = '';
    try {
      protocol = new URL(text).protocol;
    } catch {
      // not a URL at all
    }
    if (protocol !== 'http:' && protocol !== 'https:')
      throw new Error(
        `${label} must be an http(s) URL such as http://127.0.0.1:8000/v1, got '${text}'`,
      );
    return text;
  }
  const integer = spec.type === 'integer';
  const shape = integer ? /^\s*[-+]?\d+\s*$/ : /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;
  const n = typeof value === 'number' ? value : shape.test(text) ? Number(text) : NaN;
  const { min, max } = spec;
  const fits =
    Number.isFinite(n) &&
    (!integer || Number.isInteger(n)) &&
    (min === undefined || n >= min) &&
    (max === undefined || n <= max);
  if (!fits) {
    const what = integer ? 'an integer' : 'a number';
    const range =
      min !== undefined && max !== undefined
        ? ` from ${min} to ${max}`
        : min !== undefined
          ? ` >= ${min}`
          : max !== undefined
            ? ` <= ${max}`
            : '';
    throw new Error(`${label} must be ${what}${range}, got '${text}'`);
  }
  return n;
}

/** How messages name an option of an engine: by default `espeak-ng rate`. */
export type OptionNamer = (option: string) => string;

/**
 * The settings of `engine` from `values` (by option name; strings of a command line or typed
 * values): each checked and typed, the defaults filled in. Throws, naming the option with
 * `name`, on a value it does not take, a required one missing, or an option it does not have.
 */
export function resolveEngineSettings(
  engine: AnySpeechEngine,
  values: AnyEngineSettings,
  name: OptionNamer = (option) => `${engine.name} ${option}`,
  kindName = (kind: SpeechEngineKind): string => kind,
): AnyEngineSettings {
  const settings: AnyEngineSettings = {};
  for (const option of Object.keys(values)) {
    if (values[option] !== undefined && !Object.hasOwn(engine.options, option))
      throw new Error(
        `${engine.name} has no option '${option}'; its options: ` +
          (Object.keys(engine.options).join(', ') || 'none'),
      );
  }
  for (const [option, spec] of Object.entries(engine.options)) {
    const given = values[option];
    if (given !== undefined) {
      settings[option] = parseOptionValue(engine, spec, given, name(option));
    } else if (spec.default !== undefined) {
      settings[option] = spec.default;
    } else if (spec.required) {
      throw new Error(
        `${kindName(engine.kind)} ${engine.name} needs ${name(option)} ` +
          `<${spec.valueName ?? 'value'}> (${spec.description})`,
      );
    }
  }
  return settings;
}

/** What {@link createSpeechEngine} needs besides the option values. */
export interface CreateSpeechEngineOptions extends SpeechEngineContext {
  /** How messages name an option. @default `<engine> <option>` */
  name?: OptionNamer;
  /** How messages name a kind (`--stt` on a command line). @default the kind */
  kindName?: (kind: SpeechEngineKind) => string;
}

/**
 * Build the registered engine of `kind` named `name` from option values (by option name);
 * undefined for an engine that is no engine (`none`). Errors name the option at fault.
 */
export async function createSpeechEngine<K extends SpeechEngineKind>(
  kind: K,
  name: string,
  values: AnyEngineSettings = {},
  options: CreateSpeechEngineOptions = {},
): Promise<SpeechEngineOf<K> | undefined> {
  const engine = getSpeechEngine(kind, name);
  const { name: namer, kindName, ...context } = options;
  const optionName = namer ?? ((option: string) => `${engine.name} ${option}`);
  const settings = resolveEngineSettings(engine, values, optionName, kindName);
  try {
    return (await engine.create(settings as never, context)) as SpeechEngineOf<K> | undefined;
  } catch (error) {
    throw namedOptionError(error, optionName);
  }
}

/** A {@link SpeechEngineOptionError} as an error naming its option with `name`; others as they are. */
export function namedOptionError(error: unknown, name: OptionNamer): unknown {
  if (!(error instanceof SpeechEngineOptionError)) return error;
  return new Error(`${name(error.option)}: ${error.message}`, { cause: error });
}
