/**
 * The caller's audio on its way to the agent, chunk by chunk, through the effects of a
 * {@link CallerEffects} config, in tau2-bench's order: the voice (muffling), the surroundings
 * (background noise, bursts, the caller's tics and off-axis phrases), then the channel
 * (telephony, frame drops).
 *
 * Decisions are taken every {@link DECISION_MS} of stream time counted from the first sample,
 * from a seeded generator per effect, and every filter keeps its state across chunks, so
 * processing a stream in chunks gives the same bytes and events as processing it at once, and
 * the same seed and input give the same output. Each chunk comes back the same length as it
 * went in; with telephony on, the output lags the input by the channel's fixed delay.
 *
 * Whether the caller is talking (tics and phrases only come in silence; muffling strikes at the
 * start of an utterance) is taken from the `speaking` flag of each chunk when the bridge gives
 * it, else from the chunk's level.
 */
import { int16ToPcm16, pcm16ToInt16 } from '@scenaro/agent/voice';
import type { CallerEffects, SpeechInsert } from './config.js';
import { EventQueue } from './events.js';
import type { CallerEffectEvent, CallerEventDetails, CallerEffectEventKind } from './events.js';
import { FrameDropper } from './frame-drops.js';
import type { DropGap } from './frame-drops.js';
import { MU_LAW_SILENCE } from './g711.js';
import { renderInsert } from './inserts.js';
import type { RenderedInsert } from './inserts.js';
import { clip16, rms, SnrDrift, snrGain, SPEECH_REFERENCE_RMS } from './mixing.js';
import { Muffler, muffleAmount, OFF_AXIS_CUTOFF_HZ, OFF_AXIS_GAIN_DB } from './muffle.js';
import type { MuffleSegment, OffAxisSpec } from './muffle.js';
import { Prng } from './prng.js';
import { soundName } from './sound-bank.js';
import type { CallerSounds, Sound } from './sound-bank.js';
import { TELEPHONY_BAND_HZ, TELEPHONY_RATE, TelephonyChannel } from './telephony.js';

/** How often effects are decided, ms of stream time. */
export const DECISION_MS = 20;
/** Silence after which the caller counts as between utterances, ms. */
export const UTTERANCE_GAP_MS = 300;
/** Level above which a frame counts as the caller talking, when no flag says (16-bit RMS). */
export const ACTIVITY_RMS = 300;
/** Fade applied when a tic or phrase is cut short, ms. */
const CUT_FADE_MS = 10;

export interface CallerEffectsProcessorOptions {
  effects: CallerEffects;
  seed: number;
  /** The sounds to mix in; their rate is the stream's. */
  sounds: CallerSounds;
  /** Speech level the noise SNRs and inserts are set against (default 3000, 16-bit RMS). */
  speechReferenceRms?: number;
  /** Off-axis rendering of non-directed phrases (default -10 dB, 1000 Hz). */
  offAxis?: OffAxisSpec;
}

/** What the bridge knows about a chunk. */
export interface ChunkInfo {
  /** The caller (user bot) is speaking in this chunk. */
  speaking?: boolean;
}

export interface ProcessedChunk {
  pcm: Int16Array;
  /**
   * Events whose end the output reached within this chunk, in order of their end (an event
   * starts earlier, possibly in an earlier chunk).
   */
  events: CallerEffectEvent[];
}

interface Playing {
  samples: Float64Array;
  position: number;
  start: number;
  gain: number;
  fadeLeft?: number;
  onEnd: (end: number, cut: boolean) => void;
}

/** The caller-effects processor of one stream. */
export class CallerEffectsProcessor {
  readonly sampleRate: number;
  /** Samples the output lags the input by (the telephone channel's delay, else 0). */
  readonly delay: number;
  readonly #effects: CallerEffects;
  readonly #sounds: CallerSounds;
  readonly #reference: number;
  readonly #offAxis: Required<OffAxisSpec>;
  readonly #frame: number;
  readonly #gapFrames: number;
  readonly #rng: Record<
    'burst' | 'burstPick' | 'burstSnr' | 'insert' | 'insertPick' | 'muffle',
    Prng
  >;
  readonly #channel: TelephonyChannel | undefined;
  readonly #dropper: FrameDropper | undefined;
  readonly #muffler: Muffler | undefined;
  readonly #background:
    { sound: Sound; gain: (n: number) => number; offset: number; rms: number } | undefined;
  readonly #bursts: Sound[];
  readonly #inserts: SpeechInsert[];
  readonly #emitted: CallerEffectEvent[] = [];
  readonly #queue: EventQueue;
  #position = 0;
  #finished = false;
  // Caller activity, per decision frame.
  #frameEnergy = 0;
  #frameFlag: boolean | undefined;
  #silentFrames: number;
  // What is going on.
  #burst: Playing | undefined;
  #insert: Playing | undefined;
  #segments: MuffleSegment[] = [];
  #dropping = false;
  readonly #muffleTransition: number;

  constructor(options: CallerEffectsProcessorOptions) {
    const { effects, seed, sounds } = options;
    this.#effects = effects;
    this.#sounds = sounds;
    this.sampleRate = sounds.sampleRate;
    this.#queue = new EventQueue(this.sampleRate);
    this.#reference = options.speechReferenceRms ?? SPEECH_REFERENCE_RMS;
    this.#offAxis = {
      gainDb: options.offAxis?.gainDb ?? OFF_AXIS_GAIN_DB,
      cutoffHz: options.offAxis?.cutoffHz ?? OFF_AXIS_CUTOFF_HZ,
    };
    this.#frame = Math.round((DECISION_MS * this.sampleRate) / 1000);
    this.#gapFrames = Math.ceil(UTTERANCE_GAP_MS / DECISION_MS);
    this.#silentFrames = this.#gapFrames;
    const stream = (name: string) => Prng.stream(seed, name);
    this.#rng = {
      burst: stream('burst-trigger'),
      burstPick: stream('burst-pick'),
      burstSnr: stream('burst-snr'),
      insert: stream('insert-trigger'),
      insertPick: stream('insert-pick'),
      muffle: stream('muffle'),
    };
    const channel = effects.channel_effects_config;
    this.#channel = effects.telephony_enabled ? new TelephonyChannel(this.sampleRate) : undefined;
    this.delay = this.#channel?.delay ?? 0;
    const drops = channel.enable_frame_drops && channel.frame_drop_rate > 0;
    const dropRate = this.#channel ? TELEPHONY_RATE : this.sampleRate;
    const frameMs = channel.frame_drop_duration_ms;
    const onGap = ({ start, end, frames }: DropGap) =>
      this.#emit('frame_drop', start, end, { frames, frameMs });
    this.#dropper = drops ? new FrameDropper(channel, dropRate, seed, onGap) : undefined;
    const speech = effects.speech_effects_config;
    const muffling = speech.enable_dynamic_muffling && speech.muffle_probability > 0;
    this.#muffler = muffling ? new Muffler(this.sampleRate, speech.muffle_cutoff_freq) : undefined;
    this.#muffleTransition = Math.round((speech.muffle_transition_ms * this.sampleRate) / 1000);
    const source = effects.source_effects_config;
    if (source.enable_background_noise && effects.background_noise_file) {
      const sound = this.#sound(effects.background_noise_file, 'background_noise_file');
      const drift = new SnrDrift(
        {
          snrDb: source.noise_snr_db,
          driftDb: source.noise_snr_drift_db,
          speed: source.noise_variation_speed,
        },
        this.sampleRate,
        seed,
      );
      const level = rms(sound.samples);
      this.#background = {
        sound,
        rms: level,
        gain: (n) => snrGain(drift.at(n), level, this.#reference),
        offset: stream('background').int(sound.samples.length),
      };
    }
    this.#bursts =
      source.enable_burst_noise && source.burst_noise_events_per_minute > 0
        ? effects.burst_noise_files.map((file, i) => this.#sound(file, `burst_noise_files[${i}]`))
        : [];
    this.#inserts = [
      ...(speech.enable_vocal_tics ? speech.vocal_tics : []),
      ...(speech.enable_non_directed_phrases ? speech.non_directed_phrases : []),
    ];
  }

  #sound(file: string, field: string): Sound {
    const name = soundName(file);
    const sound = this.#sounds.sounds.get(name);
    if (!sound) {
      const have = [...this.#sounds.sounds.keys()].join(', ');
      throw new RangeError(
        `${field}: sound ${JSON.stringify(name)} is not in the sound bank (${have})`,
      );
    }
    return sound;
  }

  /** Samples processed so far. */
  get position(): number {
    return this.#position;
  }

  /** Every event emitted so far, in order. */
  get events(): readonly CallerEffectEvent[] {
    return this.#emitted;
  }

  /** Process the next chunk of the caller's audio (mono 16-bit at the stream's rate). */
  process(chunk: Int16Array, info: ChunkInfo = {}): ProcessedChunk {
    if (this.#finished) throw new Error('the processor has finished');
    const out = new Int16Array(chunk.length);
    for (let i = 0; i < chunk.length; i++) {
      const n = this.#position;
      if (n % this.#frame === 0) this.#decide(n);
      const x = chunk[i]!;
      this.#frameEnergy += x * x;
      if (info.speaking !== undefined)
        this.#frameFlag = (this.#frameFlag ?? false) || info.speaking;
      out[i] = this.#sample(n, x);
      this.#position++;
    }
    return { pcm: out, events: this.#flushEvents() };
  }

  /** {@link process} on PCM16 little-endian bytes. */
  processPcm16(
    pcm: Uint8Array,
    info: ChunkInfo = {},
  ): { pcm: Uint8Array; events: CallerEffectEvent[] } {
    const result = this.process(pcm16ToInt16(pcm), info);
    return { pcm: int16ToPcm16(result.pcm), events: result.events };
  }

  /**
   * End the stream: events still going on (the background, the channel, a burst or gap in
   * progress) end at the last sample. Returns the events this closed.
   */
  finish(): CallerEffectEvent[] {
    if (this.#finished) return [];
    this.#finished = true;
    const end = this.#position;
    // Sounds still playing end with the stream (not cut by the caller).
    this.#burst?.onEnd(end, false);
    this.#insert?.onEnd(end, false);
    for (const segment of this.#segments) this.#emitMuffle(segment, end);
    this.#segments = [];
    this.#dropper?.finish(end);
    if (this.#background) {
      const source = this.#effects.source_effects_config;
      this.#emit('background_noise', 0, end, {
        sound: this.#background.sound.name,
        snrDb: source.noise_snr_db,
        driftDb: source.noise_snr_drift_db,
        speed: source.noise_variation_speed,
      });
    }
    if (this.#channel) {
      this.#emit('telephony', 0, end, {
        codec: 'G.711 mu-law',
        sampleRate: TELEPHONY_RATE,
        bandHz: [TELEPHONY_BAND_HZ[0], TELEPHONY_BAND_HZ[1]],
        delayMs: (this.delay * 1000) / this.sampleRate,
      });
    }
    return this.#flushEvents(true);
  }

  /** One sample through every stage. */
  #sample(n: number, x: number): number {
    let voice = x;
    if (this.#muffler) {
      let amount = 0;
      const transition = this.#muffleTransition;
      for (const segment of this.#segments)
        amount = Math.max(amount, muffleAmount(n, segment, transition));
      voice = this.#muffler.step(x, amount);
      while (this.#segments.length > 0 && n >= this.#segments[0]!.end + transition - 1) {
        this.#emitMuffle(this.#segments.shift()!, n + 1);
      }
    }
    let mixed = voice;
    const background = this.#background;
    if (background) {
      const samples = background.sound.samples;
      mixed += background.gain(n) * samples[(background.offset + n) % samples.length]!;
    }
    mixed += this.#play(this.#burst, n, () => (this.#burst = undefined));
    mixed += this.#play(this.#insert, n, () => (this.#insert = undefined));
    const source = clip16(mixed);
    if (this.#channel) {
      return clip16(this.#channel.step(source, (code, k) => this.#dropChannel(code, k)));
    }
    const dropper = this.#dropper;
    if (dropper && n % dropper.frameSamples === 0) {
      this.#dropping = dropper.frameAt(n, n + dropper.frameSamples);
    }
    return this.#dropping ? 0 : source;
  }

  /** The next sample of a playing sound (0 when none); ends it after its last sample. */
  #play(playing: Playing | undefined, n: number, clear: () => void): number {
    if (!playing) return 0;
    if (playing.samples.length === 0) {
      playing.onEnd(n, false);
      clear();
      return 0;
    }
    let value = playing.gain * playing.samples[playing.position]!;
    if (playing.fadeLeft !== undefined) {
      const fade = Math.round((CUT_FADE_MS * this.sampleRate) / 1000);
      value *= playing.fadeLeft / fade;
      playing.fadeLeft--;
    }
    playing.position++;
    const done = playing.position >= playing.samples.length || playing.fadeLeft === 0;
    if (done) {
      playing.onEnd(n + 1, playing.fadeLeft !== undefined);
      clear();
    }
    return value;
  }

  /** Frame drops inside the telephone channel, on its 8 kHz mu-law codes. */
  #dropChannel(code: number, k: number): number {
    const dropper = this.#dropper;
    if (!dropper) return code;
    if (k % dropper.frameSamples === 0) {
      // Channel sample k is heard at output sample k * factor, plus the interpolator's delay.
      const channel = this.#channel!;
      const at = k * channel.factor + channel.outputDelay;
      this.#dropping = dropper.frameAt(at, at + dropper.frameSamples * channel.factor);
    }
    return this.#dropping ? MU_LAW_SILENCE : code;
  }

  /** Decisions at the start of a decision frame, from what the previous frame held. */
  #decide(n: number): void {
    if (n > 0) {
      const level = Math.sqrt(this.#frameEnergy / this.#frame);
      const active = this.#frameFlag ?? level > ACTIVITY_RMS;
      const onset = active && this.#silentFrames >= this.#gapFrames;
      this.#silentFrames = active ? 0 : this.#silentFrames + 1;
      if (onset) this.#maybeMuffle(n);
      if (active && this.#insert && this.#insert.fadeLeft === undefined) {
        this.#insert.fadeLeft = Math.round((CUT_FADE_MS * this.sampleRate) / 1000);
      }
    }
    this.#frameEnergy = 0;
    this.#frameFlag = undefined;
    const frameSeconds = this.#frame / this.sampleRate;
    const source = this.#effects.source_effects_config;
    if (this.#bursts.length > 0 && !this.#burst) {
      const p = 1 - Math.exp((-source.burst_noise_events_per_minute / 60) * frameSeconds);
      if (this.#rng.burst.chance(p)) this.#startBurst(n);
    }
    const speech = this.#effects.speech_effects_config;
    const silent = this.#silentFrames >= this.#gapFrames;
    if (
      this.#inserts.length > 0 &&
      !this.#insert &&
      silent &&
      speech.speech_insert_events_per_minute > 0
    ) {
      const p = 1 - Math.exp((-speech.speech_insert_events_per_minute / 60) * frameSeconds);
      if (this.#rng.insert.chance(p)) this.#startInsert(n);
    }
  }

  #startBurst(n: number): void {
    const sound = this.#rng.burstPick.pick(this.#bursts);
    const [low, high] = this.#effects.source_effects_config.burst_snr_range_db;
    const snrDb = this.#rng.burstSnr.uniform(low, high);
    const samples = Float64Array.from(sound.samples);
    this.#burst = {
      samples,
      position: 0,
      start: n,
      gain: snrGain(snrDb, rms(sound.samples), this.#reference),
      onEnd: (end) =>
        this.#emitSource('noise_burst', n, Math.min(end, n + samples.length), {
          sound: sound.name,
          snrDb,
        }),
    };
  }

  #startInsert(n: number): void {
    const item = this.#rng.insertPick.pick(this.#inserts);
    const rendered: RenderedInsert = renderInsert(
      item,
      this.#sounds,
      this.#rng.insertPick,
      this.#reference,
      this.#offAxis,
    );
    this.#insert = {
      samples: rendered.samples,
      position: 0,
      start: n,
      gain: 1,
      onEnd: (end, cut) => {
        if (item.type === 'vocal_tic') {
          this.#emitSource('vocal_tic', n, end, { text: item.text, sounds: rendered.sounds, cut });
        } else {
          this.#emitSource('non_directed_phrase', n, end, {
            text: item.text,
            gainDb: this.#offAxis.gainDb,
            cutoffHz: this.#offAxis.cutoffHz,
            rendering: rendered.rendering,
            cut,
          });
        }
      },
    };
  }

  #maybeMuffle(n: number): void {
    const speech = this.#effects.speech_effects_config;
    // One utterance's segments at a time: a new utterance while they last is left clear.
    if (!this.#muffler || this.#segments.length > 0) return;
    if (!this.#rng.muffle.chance(speech.muffle_probability)) return;
    const transition = this.#muffleTransition;
    const length = Math.max(
      1,
      Math.round((speech.muffle_segment_duration_ms * this.sampleRate) / 1000),
    );
    let at = n + transition;
    for (let i = 0; i < speech.muffle_segment_count; i++) {
      const start = at + Math.round(this.#rng.muffle.uniform(0, 1) * this.sampleRate);
      this.#segments.push({ start, end: start + length });
      at = start + length + 2 * transition;
    }
  }

  #emitMuffle(segment: MuffleSegment, limit: number): void {
    const speech = this.#effects.speech_effects_config;
    const transition = this.#muffleTransition;
    this.#emitSource(
      'muffled_segment',
      segment.start - transition,
      Math.min(segment.end + transition, limit),
      {
        cutoffHz: speech.muffle_cutoff_freq,
        transitionMs: speech.muffle_transition_ms,
        segmentMs: speech.muffle_segment_duration_ms,
      },
    );
  }

  /** An event of the voice or surroundings, at input positions: shifted by the channel delay. */
  #emitSource<K extends CallerEffectEventKind>(
    kind: K,
    start: number,
    end: number,
    detail: CallerEventDetails[K],
  ) {
    this.#emit(kind, start + this.delay, end + this.delay, detail);
  }

  /** An event at output positions. */
  #emit<K extends CallerEffectEventKind>(
    kind: K,
    start: number,
    end: number,
    detail: CallerEventDetails[K],
  ): void {
    this.#queue.add(kind, start, end, detail);
  }

  /** Hand over the events the output has reached the end of (at the end, all of them). */
  #flushEvents(final = false): CallerEffectEvent[] {
    const events = this.#queue.release(this.#position, final);
    this.#emitted.push(...events);
    return events;
  }
}
