/**
 * The offline default speech recognizer: CMU PocketSphinx from Debian
 * (`pocketsphinx` + `pocketsphinx-en-us`), one long-running
 * `pocketsphinx_continuous` process per session fed the whole 16 kHz stream,
 * silence included. Recognition quality depends on that: the recognizer's
 * cepstral normalisation adapts to the speaker over the session, so one
 * process per session beats a process per utterance. Processes are started
 * ahead of the sessions by a {@link RecognizerPool} once the first session
 * has opened, so a new session does not wait for a model load.
 *
 * The process segments speech with its own VAD and prints each segment's
 * words with stream times. Words are assigned to the
 * caller's utterances by those times (checked against the audio fed, see
 * `pocketsphinx-placement.ts`); an ended utterance is final once the
 * recognizer has printed a segment reaching past its end (about 0.3-0.6 s of
 * audio after the speech stopped), or after `finalTimeoutMs` of waiting when
 * it prints nothing and wants no core (the caller's VAD heard speech the
 * recognizer did not, or the stream stopped right after the speech). A
 * recognizer that dies or never loads is replaced, a bounded number of times
 * (`pocketsphinx-session.ts`).
 */
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { SpeechEngineUnavailableError } from '../../engine-errors.js';
import { INPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import { RecognizerProcess } from './pocketsphinx-process.js';
import { PocketsphinxSession } from './pocketsphinx-session.js';
import { RecognizerPool } from './recognizer-pool.js';
import { decodeSpelling } from './pocketsphinx-spelling.js';
import type { SpellingDecoder } from './pocketsphinx-spelling.js';
import type { SpeechToText, SttSession } from '../../stt.js';

const DEBIAN_HINT =
  'install the Debian packages pocketsphinx and pocketsphinx-en-us (apt-get install pocketsphinx pocketsphinx-en-us)';

/** Where Debian's `pocketsphinx-en-us` puts the US English model. */
export const DEBIAN_POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';

/** Options of the PocketSphinx recognizer. */
export interface PocketsphinxOptions {
  /** The recognizer program: a name looked up on PATH or a path (default `pocketsphinx_continuous`). */
  binary?: string;
  /** Acoustic model directory (default Debian's `…/en-us/en-us`). */
  hmm?: string;
  /** Language model (default Debian's `…/en-us/en-us.lm.bin`). */
  lm?: string;
  /** Pronunciation dictionary (default Debian's `…/en-us/cmudict-en-us.dict`). */
  dict?: string;
  /**
   * Extra command-line options, e.g. `['-maxhmmpf', '3000']` (decoder speed/accuracy
   * trade-offs); an option also in {@link DEFAULT_POCKETSPHINX_ARGS} replaces the default.
   */
  extraArgs?: string[];
  /**
   * Recognizer processes kept started and waiting for a session, once a first session has
   * opened (default 2; 0 starts each session's own when it opens).
   */
  poolSize?: number;
  /** Kill the waiting processes after this long without a new session (default 120000 ms). */
  poolIdleMs?: number;
  /** How far outside an utterance's bounds a word may lie and still belong to it (default 300 ms). */
  boundaryMarginMs?: number;
  /**
   * How long an ended utterance waits for the recognizer when it prints
   * nothing at all, before its final is given as is (wall clock, restarted by
   * any output of the recognizer, and extended while the recognizer runs or
   * waits for a core, i.e. still decoding on a busy machine; default 3000 ms).
   */
  finalTimeoutMs?: number;
  /**
   * Kill a recognizer that has not loaded its models after this long and report it (default
   * 30000 ms).
   */
  startTimeoutMs?: number;
  /**
   * The recognizers' CPU priority as a `nice` value, 0-19 (default `$SCENARO_RECOGNIZER_NICE`,
   * else 10): when the cores are short, the server's event loop (control replies, paced audio)
   * runs before a recognizer decoding its backlog. Other work at nice 0 on the host runs first
   * too; 0 runs them at the server's own priority.
   */
  nice?: number;
  /**
   * How many times a minute a session replaces a recognizer that died (default 3); one more
   * death and the session reports that it gave up and hears nothing more.
   */
  maxRestartsPerMinute?: number;
  /**
   * After the bot asks for a spelling, decode an answer heard in the spelling alphabet again with
   * a grammar of its words (`pocketsphinx-spelling.ts`; default true).
   */
  spellingGrammar?: boolean;
}

interface ResolvedOptions {
  binary: string;
  hmm: string;
  lm: string;
  dict: string;
  extraArgs: string[];
  boundaryMarginMs: number;
  finalTimeoutMs: number;
  startTimeoutMs: number;
  nice: number;
  maxRestartsPerMinute: number;
  poolSize: number;
  poolIdleMs: number;
  spellingGrammar: boolean;
}

/** The recognizers' default `nice` value (see {@link PocketsphinxOptions.nice}). */
export const DEFAULT_RECOGNIZER_NICE = 10;

/** The environment variable that sets the recognizers' default `nice` value. */
export const RECOGNIZER_NICE_ENV = 'SCENARO_RECOGNIZER_NICE';

/** The recognizers' `nice` value when none is given: `$SCENARO_RECOGNIZER_NICE`, else 10. */
function defaultNice(): number {
  const value = process.env[RECOGNIZER_NICE_ENV];
  if (value === undefined || value === '') return DEFAULT_RECOGNIZER_NICE;
  if (!/^\d+$/.test(value) || Number(value) > 19)
    throw new Error(`$${RECOGNIZER_NICE_ENV} must be a nice value from 0 to 19, got '${value}'`);
  return Number(value);
}

/**
 * Options every recognizer gets unless `extraArgs` names them (measured with
 * `bench/voice.bench.mjs --part wer` on four Flite voices, as spoken and 20 dB quieter):
 * - `-vad_threshold 3.0` (2.0 in PocketSphinx): at 2.0 the recognizer's own VAD takes the
 *   silence at the start of a stream for speech and calibrates its cepstral mean on it, so the
 *   first utterance costs 2-3 times the CPU and is recognized worse;
 * - `-maxwpf 10` and `-maxhmmpf 5000` (no limit and 30000): fewer word exits and active HMMs
 *   per frame; with the threshold, 17 % fewer instructions than PocketSphinx's defaults for the
 *   same word error rate.
 */
export const DEFAULT_POCKETSPHINX_ARGS: readonly string[] = [
  '-vad_threshold',
  '3.0',
  '-maxwpf',
  '10',
  '-maxhmmpf',
  '5000',
];

/**
 * Noise of half a bit keeps digital silence from skewing the cepstral mean; seeded, so runs
 * repeat. `extraArgs` may replace them (`-dither no`: the words for an utterance then do not
 * depend on how much audio came before it).
 */
const DITHER_ARGS: readonly string[] = ['-dither', 'yes', '-seed', '1'];

/** Options the adapter sets itself (its input, models and output): `extraArgs` may not name them. */
const RESERVED_POCKETSPHINX_ARGS: ReadonlySet<string> = new Set([
  '-infile', '-inmic', '-adcdev', '-samprate', '-time', '-logfn', '-argfile',
  '-hmm', '-lm', '-dict',
]); // prettier-ignore

/**
 * PocketSphinx options written as on its command line (`"-ds 2 -fwdflat no"`), as
 * {@link PocketsphinxOptions.extraArgs}: `-name value` pairs. Throws, naming the problem, on a
 * name without a value, a value without a name, or an option the adapter sets itself (its input,
 * models and output; the models have options of their own). Whether PocketSphinx knows the names
 * and takes the values is checked by the recognizer's `check()`.
 */
export function parsePocketsphinxArgs(text: string): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i += 2) {
    const name = words[i]!;
    if (!/^-[a-z][a-z0-9_]*$/.test(name))
      throw new Error(`PocketSphinx options: expected an option name such as -ds, got '${name}'`);
    if (RESERVED_POCKETSPHINX_ARGS.has(name))
      throw new Error(`PocketSphinx options: ${name} is set by the recognizer itself`);
    const value = words[i + 1];
    if (value === undefined || /^-[a-z]/.test(value))
      throw new Error(`PocketSphinx options: ${name} has no value`);
  }
  return words;
}

/** `defaults` with the options of `extra` (`-name value` pairs) replacing those of the same name. */
export function mergeRecognizerArgs(
  defaults: readonly string[],
  extra: readonly string[],
): string[] {
  const named = new Set(extra.filter((arg) => arg.startsWith('-')));
  const kept: string[] = [];
  for (let i = 0; i < defaults.length; i += 2) {
    if (!named.has(defaults[i]!)) kept.push(defaults[i]!, defaults[i + 1]!);
  }
  return [...kept, ...extra];
}

async function findExecutable(name: string): Promise<string | undefined> {
  const candidates = name.includes('/')
    ? [name]
    : (process.env['PATH'] ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function checkInstalled(options: ResolvedOptions): Promise<string> {
  const binary = await findExecutable(options.binary);
  if (!binary) {
    throw new SpeechEngineUnavailableError(
      `PocketSphinx is not installed (no ${options.binary} on PATH): ${DEBIAN_HINT}`,
      { engine: 'pocketsphinx' },
    );
  }
  for (const file of [options.hmm, options.lm, options.dict]) {
    try {
      await access(file, constants.R_OK);
    } catch {
      throw new SpeechEngineUnavailableError(
        `PocketSphinx model file ${file} is missing: ${DEBIAN_HINT}`,
        { engine: 'pocketsphinx' },
      );
    }
  }
  if (options.extraArgs.length > 0) await checkArgs(binary, options);
  return binary;
}

/**
 * Have PocketSphinx parse the recognizer's options (it stops at once on an unknown name or a bad
 * value, before loading its models), so a bad option is an error when the engine is checked, not
 * a recognizer that dies with every session.
 */
async function checkArgs(binary: string, options: ResolvedOptions): Promise<void> {
  // On no input: with good options it loads its models, reads nothing and exits.
  const probe = new RecognizerProcess(binary, recognizerArgs(options, '/dev/null'));
  probe.end();
  await probe.exited;
  const errors = probe
    .errorLines(Number.POSITIVE_INFINITY)
    .filter((line) => line.startsWith('ERROR: "cmd_ln.c"'))
    .map((line) => line.replace(/^ERROR: "cmd_ln\.c", line \d+: /, ''));
  if (errors.length > 0)
    throw new Error(
      `PocketSphinx refused its options (${options.extraArgs.join(' ')}): ${errors.join('; ')}`,
    );
}

/** The command line of a recognizer fed 16 kHz PCM on its standard input (or from `infile`). */
function recognizerArgs(options: ResolvedOptions, infile = '/dev/stdin'): string[] {
  return [
    '-infile', infile,
    '-samprate', String(INPUT_SAMPLE_RATE),
    '-time', 'yes',
    '-hmm', options.hmm,
    '-lm', options.lm,
    '-dict', options.dict,
    ...mergeRecognizerArgs([...DITHER_ARGS, ...DEFAULT_POCKETSPHINX_ARGS], options.extraArgs),
  ]; // prettier-ignore
}

/**
 * The PocketSphinx recognizer; `check()` says whether the Debian packages are installed,
 * `close()` stops the processes waiting for a session (sessions keep theirs until they close).
 */
export function createPocketsphinxSpeechToText(options: PocketsphinxOptions = {}): SpeechToText {
  const resolved: ResolvedOptions = {
    binary: options.binary ?? 'pocketsphinx_continuous',
    hmm: options.hmm ?? `${DEBIAN_POCKETSPHINX_MODEL}/en-us`,
    lm: options.lm ?? `${DEBIAN_POCKETSPHINX_MODEL}/en-us.lm.bin`,
    dict: options.dict ?? `${DEBIAN_POCKETSPHINX_MODEL}/cmudict-en-us.dict`,
    extraArgs: options.extraArgs ?? [],
    boundaryMarginMs: options.boundaryMarginMs ?? 300,
    finalTimeoutMs: options.finalTimeoutMs ?? 3000,
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
    nice: options.nice ?? defaultNice(),
    maxRestartsPerMinute: options.maxRestartsPerMinute ?? 3,
    poolSize: options.poolSize ?? 2,
    poolIdleMs: options.poolIdleMs ?? 120_000,
    spellingGrammar: options.spellingGrammar ?? true,
  };
  let installed: Promise<string> | undefined;
  const check = (): Promise<string> => (installed ??= checkInstalled(resolved));
  let pool: RecognizerPool | undefined;
  let closed = false;
  return {
    name: 'pocketsphinx',
    sampleRate: INPUT_SAMPLE_RATE,
    check: async () => {
      await check();
    },
    openSession: async (): Promise<SttSession> => {
      const binary = await check();
      pool ??= new RecognizerPool({
        size: closed ? 0 : resolved.poolSize,
        idleMs: resolved.poolIdleMs,
        start: () =>
          new RecognizerProcess(binary, recognizerArgs(resolved), {
            startTimeoutMs: resolved.startTimeoutMs,
            nice: resolved.nice,
          }),
      });
      const recognizers = pool;
      const speller: SpellingDecoder = {
        binary,
        args: [
          '-samprate', String(INPUT_SAMPLE_RATE),
          '-hmm', resolved.hmm,
          '-dict', resolved.dict,
        ], // prettier-ignore
        dict: resolved.dict,
        nice: resolved.nice,
      };
      return new PocketsphinxSession(
        () => recognizers.take(),
        {
          boundaryMarginMs: resolved.boundaryMarginMs,
          finalTimeoutMs: resolved.finalTimeoutMs,
          maxRestarts: resolved.maxRestartsPerMinute,
          restartWindowMs: 60_000,
          ...(resolved.spellingGrammar
            ? { spelling: (pcm: Uint8Array) => decodeSpelling(speller, pcm) }
            : {}),
        },
        INPUT_SAMPLE_RATE,
      );
    },
    close: async () => {
      closed = true;
      await pool?.close();
    },
  };
}
