/**
 * One direction of the audio timeline (`audio-timeline.ts`): the speech of one bot on its way to
 * the other bot's microphone, cut into 16 ms chunks, with the counts the timeline steps by.
 *
 * @module
 */
import { Resampler, downmixPcm16ToMono } from '@scenaro/agent/voice';
import type { AudioFrameValue } from '@scenaro/sdk/protocol';
import type { Chunk } from './step-filter.js';
import type { BotRole } from './types.js';

/** The relayed streams' sample rate. */
export const RELAY_SAMPLE_RATE = 16_000;
/** Samples per relayed chunk (16 ms). */
export const CHUNK_SAMPLES = 256;
/** Bytes per relayed chunk (PCM16). */
export const CHUNK_BYTES = CHUNK_SAMPLES * 2;

/** The speech of one bot on its way to the other bot's microphone. */
export class Stream {
  readonly chunks: Chunk[] = [];
  /** What was relayed, one entry per step (silence shared). */
  readonly recording: Uint8Array[] = [];
  /** Queued chunks per segment, and the segments that have ended. */
  readonly pending = new Map<number, number>();
  readonly ended = new Set<number>();
  partial = new Uint8Array(0);
  /** Chunks queued and chunks sent, since the start. */
  queuedCount = 0;
  sentCount = 0;
  /** Calls due once so many chunks have been sent (see `AudioTimeline.whenRelayed`). */
  readonly marks: { count: number; call: () => void }[] = [];
  tag: number | undefined;
  /** Between the segment's start and its end (after its audio is converted). */
  speaking = false;
  /** Frames being converted. */
  inFlight = 0;
  /** The last segment whose first audio has arrived. */
  arrivedTag: number | undefined;
  bursting = false;
  underflows = 0;
  /** Fast clock: chunks of silence still owed after speech. */
  owed = 0;
  /** With a filter: silence owed once the speech queued has played (not when it arrived). */
  tailDue: number | undefined;
  /** Chunks queued per segment, ever. */
  readonly appended = new Map<number, number>();
  /** Segments whose speech was cut: audio of theirs that still arrives is dropped. */
  readonly dropped = new Set<number>();
  /** Segments up to `through` are dropped once the timeline reaches `at`. */
  cut: { at: number; through: number } | undefined;
  chain: Promise<void> = Promise.resolve();
  resampler: { rate: number; resampler: Promise<Resampler> } | undefined;

  constructor(
    readonly source: BotRole,
    /** Chunks a speaking bot must have queued for the fast clock to step. */
    readonly lookahead = 1,
  ) {}

  /** The calls of the marks the chunks sent so far have reached, taken off the list. */
  dueMarks(): (() => void)[] {
    const due: (() => void)[] = [];
    while (this.marks[0] && this.marks[0].count <= this.sentCount)
      due.push(this.marks.shift()!.call);
    return due;
  }

  /** No speech left to relay: none queued, none on its way in. */
  get silent(): boolean {
    return this.chunks.length === 0 && this.inFlight === 0 && this.partial.length === 0;
  }

  /** What the stream holds, in a few words (for a diagnostic). */
  describe(): string {
    const pending = [...this.pending].map(([tag, n]) => `${tag}:${n}`).join(' ');
    return [
      `${this.source} ${this.speaking ? 'speaking' : 'quiet'}`,
      `${this.chunks.length} queued`,
      ...(this.inFlight > 0 ? [`${this.inFlight} converting`] : []),
      ...(this.owed > 0 ? [`${this.owed} owed`] : []),
      ...(this.tailDue !== undefined ? [`tail ${this.tailDue} due`] : []),
      ...(this.cut ? [`cut at ${this.cut.at}`] : []),
      ...(pending ? [`pending ${pending}`] : []),
    ].join(', ');
  }

  /** A frame of the bot's speech as 16 kHz mono PCM16. */
  async convert(frame: AudioFrameValue): Promise<Uint8Array> {
    let pcm = frame.audio;
    if (pcm.length % 2 === 1) pcm = pcm.subarray(0, pcm.length - 1);
    if (frame.numChannels > 1) pcm = downmixPcm16ToMono(pcm, frame.numChannels);
    if (frame.sampleRate === RELAY_SAMPLE_RATE) return pcm;
    if (this.resampler?.rate !== frame.sampleRate) {
      this.resampler = {
        rate: frame.sampleRate,
        resampler: Resampler.create({ inputRate: frame.sampleRate, outputRate: RELAY_SAMPLE_RATE }),
      };
    }
    return (await this.resampler.resampler).processPcm16(pcm);
  }

  get starved(): boolean {
    return (this.speaking || this.inFlight > 0) && this.chunks.length < this.lookahead;
  }

  append(pcm: Uint8Array): void {
    let data = pcm;
    if (this.partial.length > 0) {
      data = new Uint8Array(this.partial.length + pcm.length);
      data.set(this.partial);
      data.set(pcm, this.partial.length);
    }
    let offset = 0;
    for (; offset + CHUNK_BYTES <= data.length; offset += CHUNK_BYTES)
      this.#queue(data.slice(offset, offset + CHUNK_BYTES));
    this.partial = data.slice(offset);
  }

  /** Pad the partial chunk with silence and queue it. */
  flush(): void {
    if (this.partial.length === 0) return;
    const chunk = new Uint8Array(CHUNK_BYTES);
    chunk.set(this.partial);
    this.partial = new Uint8Array(0);
    this.#queue(chunk);
  }

  #queue(pcm: Uint8Array): void {
    if (this.tag !== undefined && this.dropped.has(this.tag)) return;
    if (this.tag !== undefined) this.appended.set(this.tag, (this.appended.get(this.tag) ?? 0) + 1);
    this.queuedCount++;
    this.chunks.push({ pcm, tag: this.tag });
    if (this.tag !== undefined) this.pending.set(this.tag, (this.pending.get(this.tag) ?? 0) + 1);
  }
}
