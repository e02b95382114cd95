/**
 * The microphone as the bot wants it: mono 16-bit PCM at 16 kHz in 512-byte chunks (16 ms), what
 * Pipecat's own recorder sends. Captured with echo cancellation (the bot's voice from the
 * speakers must not sound like the shopper talking over it) and noise suppression, but without
 * automatic gain control, whose ramp at the start of speech swallows the first word for an
 * offline recognizer. An AudioWorklet converts each render quantum; a browser whose
 * AudioContext cannot run at 16 kHz on a microphone (Firefox) runs at the device rate and the
 * worklet resamples.
 */

/** The rate and chunk size the bot takes. */
export const MIC_SAMPLE_RATE = 16_000;
export const MIC_CHUNK_BYTES = 512;

/** Audio processing asked of the browser. */
export const MIC_CONSTRAINTS: MediaTrackConstraints = {
  channelCount: 1,
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: false,
};

// The worklet: average the channels, resample to the target rate (linear) when the context
// runs at another, convert to PCM16 and post each quantum.
const WORKLET = `
class PcmCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.step = sampleRate / options.processorOptions.targetRate;
    this.position = 0;
  }
  process(inputs) {
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true;
    const frames = channels[0].length;
    const mono = new Float32Array(frames);
    for (const channel of channels) for (let i = 0; i < frames; i++) mono[i] += channel[i] / channels.length;
    const out = [];
    for (; this.position < frames; this.position += this.step) {
      const i = Math.floor(this.position);
      const next = i + 1 < frames ? mono[i + 1] : mono[i];
      out.push(mono[i] + (next - mono[i]) * (this.position - i));
    }
    this.position -= frames;
    const pcm = new Int16Array(out.length);
    for (let i = 0; i < out.length; i++) {
      const s = Math.max(-1, Math.min(1, out[i]));
      pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
    }
    this.port.postMessage(pcm.buffer, [pcm.buffer]);
    return true;
  }
}
registerProcessor('pcm-capture', PcmCapture);
`;

let workletUrl: string | undefined;

/** A running capture; {@link MicCapture.start} makes one. */
export class MicCapture {
  readonly #stream: MediaStream;
  readonly #context: AudioContext;
  readonly #node: AudioWorkletNode;
  #pending = new Uint8Array(0);
  #muted = false;

  private constructor(stream: MediaStream, context: AudioContext, node: AudioWorkletNode) {
    this.#stream = stream;
    this.#context = context;
    this.#node = node;
  }

  /**
   * Ask for the microphone and start sending chunks to `onChunk`. Rejects with what
   * `getUserMedia` threw (a `NotAllowedError`, `NotFoundError`...) when it cannot start.
   */
  static async start(onChunk: (chunk: ArrayBuffer) => void): Promise<MicCapture> {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: MIC_CONSTRAINTS });
    try {
      const context = await MicCapture.#openContext(stream);
      workletUrl ??= URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
      await context.audioWorklet.addModule(workletUrl);
      const node = new AudioWorkletNode(context, 'pcm-capture', {
        processorOptions: { targetRate: MIC_SAMPLE_RATE },
      });
      const capture = new MicCapture(stream, context, node);
      node.port.onmessage = (event: MessageEvent<ArrayBuffer>) =>
        capture.#take(event.data, onChunk);
      context.createMediaStreamSource(stream).connect(node);
      if (context.state === 'suspended') await context.resume();
      return capture;
    } catch (error) {
      for (const track of stream.getTracks()) track.stop();
      throw error;
    }
  }

  /** A context at 16 kHz when the browser can feed it from the microphone, else at its own rate. */
  static async #openContext(stream: MediaStream): Promise<AudioContext> {
    const context = new AudioContext({ sampleRate: MIC_SAMPLE_RATE });
    try {
      context.createMediaStreamSource(stream).disconnect();
      return context;
    } catch {
      await context.close();
      return new AudioContext();
    }
  }

  /** The microphone track (for the transport's `tracks()`). */
  get track(): MediaStreamTrack | undefined {
    return this.#stream.getAudioTracks()[0];
  }

  /** Stop or resume sending (the device stays open). */
  setMuted(muted: boolean): void {
    this.#muted = muted;
    this.#pending = new Uint8Array(0);
  }

  /** Release the microphone. */
  async stop(): Promise<void> {
    this.#node.port.onmessage = null;
    this.#node.disconnect();
    for (const track of this.#stream.getTracks()) track.stop();
    await this.#context.close().catch(() => undefined);
  }

  #take(buffer: ArrayBuffer, onChunk: (chunk: ArrayBuffer) => void): void {
    if (this.#muted) return;
    const bytes = new Uint8Array(buffer);
    const joined = new Uint8Array(this.#pending.length + bytes.length);
    joined.set(this.#pending);
    joined.set(bytes, this.#pending.length);
    let offset = 0;
    for (; offset + MIC_CHUNK_BYTES <= joined.length; offset += MIC_CHUNK_BYTES) {
      onChunk(joined.slice(offset, offset + MIC_CHUNK_BYTES).buffer);
    }
    this.#pending = joined.slice(offset);
  }
}
