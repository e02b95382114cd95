/**
 * A speaker for the real `@pipecat-ai/websocket-transport` in Node: it records the bot audio the
 * transport hands its media manager (`bufferBotAudio`), with arrival times, and models playback
 * the way the browser's stream player does it.
 *
 * - The transport passes only the PCM (an `Int16Array`): the frame's `sample_rate` and
 *   `num_channels` never reach the media manager, and the player plays everything at the rate it
 *   was built with (24 kHz by default). {@link sampleRate} is that rate; what the frame said is
 *   kept per chunk in `wire` when known.
 * - Playback: a chunk starts when it arrives or when the audio before it ends, whichever is later,
 *   and lasts `samples / sampleRate`.
 * - {@link flush} is what the browser's media managers do in `userStartedSpeaking()`: the audio
 *   not yet played is dropped and what arrives afterwards belongs to the next segment, so a
 *   barge-in test can tell the audio before and after the cut apart.
 */

/** What the audio frame said, next to what the player was given. */
export interface WireAudioFormat {
  sampleRate: number;
  numChannels: number;
}

/** One `bufferBotAudio` call. */
export interface SpeakerChunk {
  /** Arrival, in ms on the client's clock. */
  at: number;
  samples: Int16Array;
  /** Flushes before it arrived. */
  segment: number;
  /** Modelled playback start and end, in ms on the client's clock. */
  startsAt: number;
  endsAt: number;
  /** The frame's own `sample_rate` / `num_channels`, when the transport's frame was seen. */
  wire?: WireAudioFormat;
}

/** One flush of the playback queue. */
export interface SpeakerFlush {
  at: number;
  /** What asked for it (`'user-started-speaking'`, `'bot-interrupted'` or the caller's word). */
  reason: string;
  /** Samples that were buffered but not yet played, now dropped. */
  droppedSamples: number;
}

/** The speaker; the media manager owns it. */
export class NodeSpeaker {
  /** Every chunk received, in order. */
  readonly chunks: SpeakerChunk[] = [];
  /** Every flush, in order; chunks of segment `n` arrived after flush `n - 1`. */
  readonly flushes: SpeakerFlush[] = [];
  private playheadEnd = 0;

  constructor(
    /** The rate the player plays at (the transport never says another). */
    readonly sampleRate: number,
    private readonly now: () => number,
  ) {}

  /** The current segment (number of flushes so far). */
  get segment(): number {
    return this.flushes.length;
  }

  /** Record one chunk handed over by the transport. */
  write(samples: Int16Array, wire?: WireAudioFormat): SpeakerChunk {
    const at = this.now();
    const startsAt = Math.max(at, this.playheadEnd);
    const endsAt = startsAt + (samples.length * 1000) / this.sampleRate;
    this.playheadEnd = endsAt;
    const chunk: SpeakerChunk = { at, samples, segment: this.segment, startsAt, endsAt };
    if (wire) chunk.wire = wire;
    this.chunks.push(chunk);
    return chunk;
  }

  /** Samples received but not played yet at `at` (default: now). */
  queuedSamples(at = this.now()): number {
    return Math.max(0, Math.round(((this.playheadEnd - at) * this.sampleRate) / 1000));
  }

  /** Drop the audio not played yet and start a new segment. Returns the samples dropped. */
  flush(reason = 'flush'): number {
    const at = this.now();
    const droppedSamples = this.queuedSamples(at);
    this.playheadEnd = Math.min(this.playheadEnd, at);
    this.flushes.push({ at, reason, droppedSamples });
    return droppedSamples;
  }

  /** Chunks of one segment, or all of them. */
  chunksOf(segment?: number): SpeakerChunk[] {
    return segment === undefined ? this.chunks : this.chunks.filter((c) => c.segment === segment);
  }

  /** Samples received in one segment, or in all of them, concatenated. */
  pcm(segment?: number): Int16Array {
    const chunks = this.chunksOf(segment);
    const out = new Int16Array(chunks.reduce((sum, c) => sum + c.samples.length, 0));
    let offset = 0;
    for (const c of chunks) {
      out.set(c.samples, offset);
      offset += c.samples.length;
    }
    return out;
  }

  /** Milliseconds of audio received in one segment, or in all of them. */
  durationMs(segment?: number): number {
    const samples = this.chunksOf(segment).reduce((sum, c) => sum + c.samples.length, 0);
    return (samples * 1000) / this.sampleRate;
  }
}
