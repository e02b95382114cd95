/**
 * The sounds the caller effects mix in, by name: the synthetic stand-ins (see `stand-ins.ts`),
 * optionally with babble, TV and phrases made by a speech synthesizer (`babble.ts`), and, when a
 * noise directory is given, WAV files named like tau2-bench's recordings in their place.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeWav, pcm16ToInt16, resamplePcm16, WavFormatError } from '@scenaro/agent/voice';
import { DEFAULT_NON_DIRECTED_PHRASES } from './config.js';
import type { Speaker } from './babble.js';
import { speechBabble, speechPhrases, speechTelevision } from './babble.js';
import { rms } from './mixing.js';
import { hashString, Prng } from './prng.js';
import { CONTINUOUS_SOUNDS, MURMUR_VOICES, STAND_IN_NAMES, standInSound } from './stand-ins.js';
import type { StandInName } from './stand-ins.js';
import { murmur, toPcm } from './synth.js';

/** One sound of the bank. */
export interface Sound {
  name: string;
  /** Mono 16-bit samples at the bank's rate. */
  samples: Int16Array;
  /** Synthesized here, spoken by the synthesizer, or read from a file. */
  origin: 'stand-in' | 'speech' | 'file';
  /** The file it was read from. */
  path?: string;
}

/** The sounds available to the caller effects. */
export interface CallerSounds {
  readonly sampleRate: number;
  /** Background loops, bursts and tic sounds by name (no `.wav`). */
  readonly sounds: ReadonlyMap<string, Sound>;
  /** The caller's non-directed phrases by text (`origin` `stand-in`: wordless murmur). */
  readonly phrases: ReadonlyMap<string, Sound>;
}

/** The bank name of a file name from a config: `dog_bark.wav` -> `dog_bark`. */
export function soundName(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.toLowerCase().endsWith('.wav') ? base.slice(0, -4) : base;
}

/** Options of {@link createStandInSounds}. */
export interface StandInOptions {
  /** Rate of every sound (default 16000). */
  sampleRate?: number;
  /**
   * A speech synthesizer (e.g. {@link createFliteSpeaker}): `people_talking`, the TV and the
   * phrases are then made of real words; without one they are murmur.
   */
  speaker?: Speaker;
  /** Phrases to prepare (default tau2's ten non-directed phrases). */
  phrases?: readonly string[];
  /** Only these stand-ins (default all). */
  names?: readonly StandInName[];
}

/**
 * A wordless rendering of `text`: murmur of about the length the words would take (a fallback
 * for phrases when no synthesizer is given).
 */
export function murmurPhrase(text: string, sampleRate: number): Int16Array {
  const rng = new Prng(hashString(text), 'murmur-phrase');
  const syllables = Math.max(1, text.split(/\s+/).filter(Boolean).length * 1.4);
  const voice = MURMUR_VOICES[0]!;
  return toPcm(murmur(syllables / voice.syllableRate, voice, rng, sampleRate, false));
}

/** The stand-in sounds (deterministic; with a speaker, some are spoken). */
export async function createStandInSounds(options: StandInOptions = {}): Promise<CallerSounds> {
  const sampleRate = options.sampleRate ?? 16000;
  const speaker = options.speaker;
  if (speaker && speaker.sampleRate !== sampleRate) {
    throw new RangeError(`speaker rate ${speaker.sampleRate} differs from ${sampleRate}`);
  }
  const sounds = new Map<string, Sound>();
  for (const name of options.names ?? STAND_IN_NAMES) {
    if (speaker && name === 'people_talking') {
      sounds.set(name, { name, samples: await speechBabble(speaker), origin: 'speech' });
    } else if (speaker && name === 'medium_size_room_tv_news_iphone_mic') {
      sounds.set(name, { name, samples: await speechTelevision(speaker), origin: 'speech' });
    } else {
      sounds.set(name, { name, samples: standInSound(name, sampleRate), origin: 'stand-in' });
    }
  }
  const texts = options.phrases ?? DEFAULT_NON_DIRECTED_PHRASES;
  const phrases = new Map<string, Sound>();
  if (speaker) {
    for (const [text, samples] of await speechPhrases(speaker, texts)) {
      phrases.set(text, { name: text, samples, origin: 'speech' });
    }
  } else {
    for (const text of texts) {
      phrases.set(text, {
        name: text,
        samples: murmurPhrase(text, sampleRate),
        origin: 'stand-in',
      });
    }
  }
  return { sampleRate, sounds, phrases };
}

/** A noise directory that cannot be used; names the file and what is wrong with it. */
export class NoiseDirError extends Error {
  override readonly name = 'NoiseDirError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** What {@link loadNoiseDir} did. */
export interface NoiseDirResult {
  sounds: CallerSounds;
  /** Names replaced by files. */
  loaded: string[];
  /** WAV files whose names are not sounds of the bank (left unused). */
  ignored: string[];
}

/** Longest burst or tic file, seconds. */
const MAX_BURST_SECONDS = 30;
/** Shortest continuous file, seconds. */
const MIN_LOOP_SECONDS = 1;

async function wavFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.wav'))
      .map((e) => join(dir, e.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Read and check one WAV file as mono 16-bit audio at `sampleRate`. */
async function readSound(path: string, name: string, sampleRate: number): Promise<Int16Array> {
  let audio;
  try {
    audio = decodeWav(new Uint8Array(await readFile(path)));
  } catch (error) {
    if (error instanceof WavFormatError) throw new NoiseDirError(path, error.message);
    throw new NoiseDirError(path, `cannot read: ${(error as Error).message}`);
  }
  if (audio.channels !== 1) {
    throw new NoiseDirError(path, `must be mono, has ${audio.channels} channels`);
  }
  const pcm = await resamplePcm16(audio.pcm, audio.sampleRate, sampleRate);
  const samples = pcm16ToInt16(pcm);
  const seconds = samples.length / sampleRate;
  const continuous = (CONTINUOUS_SOUNDS as readonly string[]).includes(name);
  if (continuous && seconds < MIN_LOOP_SECONDS) {
    throw new NoiseDirError(
      path,
      `a background loop must last at least ${MIN_LOOP_SECONDS} s, lasts ${seconds.toFixed(2)} s`,
    );
  }
  if (!continuous && seconds > MAX_BURST_SECONDS) {
    throw new NoiseDirError(
      path,
      `a burst must last at most ${MAX_BURST_SECONDS} s, lasts ${seconds.toFixed(1)} s`,
    );
  }
  if (samples.length === 0 || rms(samples) < 1) throw new NoiseDirError(path, 'is silent');
  return samples;
}

/**
 * `base` with its sounds replaced by the WAV files of `dir` that bear their names
 * (`dog_bark.wav`), read from `dir` itself and from tau2's `continuous/` and `bursts/`
 * subfolders. Files must be mono 16-bit PCM WAV (any rate: resampled to the bank's); a bad file
 * or a name found twice is a {@link NoiseDirError}.
 */
export async function loadNoiseDir(dir: string, base: CallerSounds): Promise<NoiseDirResult> {
  const files = [
    ...(await wavFiles(dir)),
    ...(await wavFiles(join(dir, 'continuous'))),
    ...(await wavFiles(join(dir, 'bursts'))),
  ];
  if (files.length === 0) throw new NoiseDirError(dir, 'holds no .wav files');
  const known = new Set<string>([...STAND_IN_NAMES, ...base.sounds.keys()]);
  const sounds = new Map(base.sounds);
  const found = new Map<string, string>();
  const ignored: string[] = [];
  for (const path of files.sort()) {
    const name = soundName(path);
    if (!known.has(name)) {
      ignored.push(path);
      continue;
    }
    const earlier = found.get(name);
    if (earlier) throw new NoiseDirError(path, `${name} is also at ${earlier}`);
    found.set(name, path);
    sounds.set(name, {
      name,
      samples: await readSound(path, name, base.sampleRate),
      origin: 'file',
      path,
    });
  }
  return {
    sounds: { sampleRate: base.sampleRate, sounds, phrases: base.phrases },
    loaded: [...found.keys()].sort(),
    ignored,
  };
}
