/**
 * The WebRTC voice activity detector (libfvad compiled to WASM, no download
 * at install or run time) behind the {@link Vad} interface: the stream is cut
 * into 10/20/30 ms frames, each classified by WebRTC's GMM, and the
 * {@link SpeechSegmenter} applies the start and stop windows.
 */
import { PcmChunker } from './chunker.js';
import { INPUT_SAMPLE_RATE, msToSamples, pcm16ToInt16 } from './pcm.js';
import { SpeechSegmenter } from './vad.js';
import type { Vad, VadEvent, VadTiming } from './vad.js';

/** The part of the Emscripten module (the package ships no types) used here. */
interface FvadModule {
  HEAP16: Int16Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _fvad_new(): number;
  _fvad_free(handle: number): void;
  _fvad_set_mode(handle: number, mode: number): number;
  _fvad_set_sample_rate(handle: number, rate: number): number;
  _fvad_process(handle: number, framePtr: number, length: number): number;
}

// A specifier in a variable: the package has no type declarations to resolve.
const FVAD_PACKAGE = '@echogarden/fvad-wasm';
let fvad: Promise<FvadModule> | undefined;

function loadFvad(): Promise<FvadModule> {
  fvad ??= (import(FVAD_PACKAGE) as Promise<{ default: () => Promise<FvadModule> }>).then((m) =>
    m.default(),
  );
  return fvad;
}

/** Options of the WebRTC VAD. */
export interface WebRtcVadOptions extends VadTiming {
  /** 8000, 16000, 32000 or 48000 (default 16000). */
  sampleRate?: number;
  /** 0 (least aggressive: more audio counts as speech) to 3 (most aggressive). Default 3. */
  mode?: 0 | 1 | 2 | 3;
  /** Frame length classified at once: 10, 20 or 30 ms (default 20). */
  frameMs?: 10 | 20 | 30;
}

class WebRtcVad implements Vad {
  private handle: number;
  private readonly framePtr: number;
  private readonly chunker: PcmChunker;
  private readonly segmenter: SpeechSegmenter;
  private fed = 0;

  constructor(
    private readonly fvad: FvadModule,
    readonly sampleRate: number,
    private readonly mode: number,
    frameMs: number,
    timing: VadTiming,
  ) {
    const frameSamples = msToSamples(frameMs, sampleRate);
    this.chunker = new PcmChunker(frameSamples * 2);
    this.segmenter = new SpeechSegmenter(frameSamples, sampleRate, timing);
    this.handle = this.open();
    this.framePtr = fvad._malloc(frameSamples * 2);
  }

  get samples(): number {
    return this.fed;
  }

  get speaking(): boolean {
    return this.segmenter.speaking;
  }

  process(pcm: Uint8Array): VadEvent[] {
    if (this.handle === 0) throw new Error('VAD closed');
    this.fed += pcm.length >> 1;
    const events: VadEvent[] = [];
    for (const frame of this.chunker.push(pcm)) {
      const samples = pcm16ToInt16(frame);
      this.fvad.HEAP16.set(samples, this.framePtr >> 1);
      const result = this.fvad._fvad_process(this.handle, this.framePtr, samples.length);
      if (result < 0) throw new Error('fvad_process rejected the frame');
      const event = this.segmenter.push(result === 1);
      if (event) events.push(event);
    }
    return events;
  }

  reset(): void {
    this.fed = 0;
    this.chunker.reset();
    this.segmenter.reset();
    this.fvad._fvad_free(this.handle);
    this.handle = this.open();
  }

  close(): void {
    if (this.handle === 0) return;
    this.fvad._fvad_free(this.handle);
    this.fvad._free(this.framePtr);
    this.handle = 0;
  }

  private open(): number {
    const handle = this.fvad._fvad_new();
    if (handle === 0) throw new Error('fvad_new failed');
    if (this.fvad._fvad_set_mode(handle, this.mode) !== 0) {
      throw new RangeError(`invalid WebRTC VAD mode ${this.mode}`);
    }
    if (this.fvad._fvad_set_sample_rate(handle, this.sampleRate) !== 0) {
      throw new RangeError(
        `WebRTC VAD does not take ${this.sampleRate} Hz (8000/16000/32000/48000)`,
      );
    }
    return handle;
  }
}

/** A WebRTC VAD (the WASM module is loaded once per process). */
export async function createWebRtcVad(options: WebRtcVadOptions = {}): Promise<Vad> {
  const sampleRate = options.sampleRate ?? INPUT_SAMPLE_RATE;
  const frameMs = options.frameMs ?? 20;
  if (![10, 20, 30].includes(frameMs)) {
    throw new RangeError(`WebRTC VAD frames are 10, 20 or 30 ms, got ${frameMs}`);
  }
  return new WebRtcVad(await loadFvad(), sampleRate, options.mode ?? 3, frameMs, options);
}
