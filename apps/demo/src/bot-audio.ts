/**
 * The bot's voice in the page: the 24 kHz PCM16 frames the WebSocket transport hands over are
 * scheduled back to back on a Web Audio clock (a short lead absorbs network jitter) and can be
 * cut at once when the shopper talks over the bot. The AudioContext is made and resumed on a
 * click (`unlock`), as browsers let pages play sound only after a user gesture.
 */

/** The rate the bot's frames are played at (the transport does not carry the frame's rate). */
export const BOT_SAMPLE_RATE = 24_000;
/** How far ahead of now playback starts after a gap. */
const LEAD_SECONDS = 0.06;

/** Plays the bot's audio. */
export class BotAudioPlayer {
  #context: AudioContext | undefined;
  #output: GainNode | undefined;
  #next = 0;
  readonly #sources = new Set<AudioBufferSourceNode>();

  /** Make (or resume) the audio context; call from a click handler. */
  unlock(): void {
    const context = this.#ensure();
    if (context?.state === 'suspended') void context.resume().catch(() => undefined);
  }

  /** Queue one frame of PCM16 mono at {@link BOT_SAMPLE_RATE}. */
  play(pcm: Int16Array): void {
    const context = this.#ensure();
    if (!context || !this.#output || pcm.length === 0) return;
    const buffer = context.createBuffer(1, pcm.length, BOT_SAMPLE_RATE);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) channel[i] = (pcm[i] as number) / 0x8000;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.#output);
    const at = Math.max(this.#next, context.currentTime + LEAD_SECONDS);
    source.start(at);
    this.#next = at + buffer.duration;
    this.#sources.add(source);
    source.onended = () => this.#sources.delete(source);
  }

  /** True while frames are queued or playing. */
  get playing(): boolean {
    return this.#sources.size > 0;
  }

  /** Stop everything queued now (barge-in, disconnect). */
  flush(): void {
    for (const source of this.#sources) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // not started yet in some browsers: disconnecting silences it
      }
      source.disconnect();
    }
    this.#sources.clear();
    this.#next = 0;
  }

  /** Release the audio context. */
  async close(): Promise<void> {
    this.flush();
    const context = this.#context;
    this.#context = undefined;
    this.#output = undefined;
    await context?.close().catch(() => undefined);
  }

  #ensure(): AudioContext | undefined {
    if (this.#context) return this.#context;
    if (typeof AudioContext === 'undefined') return undefined;
    const context = new AudioContext({ sampleRate: BOT_SAMPLE_RATE });
    const output = context.createGain();
    output.connect(context.destination);
    this.#context = context;
    this.#output = output;
    return context;
  }
}
