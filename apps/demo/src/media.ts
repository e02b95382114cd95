/**
 * The media manager the page gives `WebSocketTransport`: the microphone ({@link MicCapture},
 * touched only when the shopper turns it on, so a connection needs no permission) and the bot's
 * voice ({@link BotAudioPlayer}). The transport's default (Daily's) downloads code from the
 * network, and `WavMediaManager` asks for the microphone as soon as the connection opens and
 * records with automatic gain control.
 */
import type { PipecatClientOptions, Tracks } from '@pipecat-ai/client-js';
import type { RtviMicrophone } from '@scenaro/sdk/rtvi';
import { BotAudioPlayer } from './bot-audio';
import { MicCapture } from './mic-capture';

type AudioCallback = (data: ArrayBuffer) => void;

/** Duck-types the transport's `MediaManager` (its base class is not exported). */
export class VoiceMediaManager implements RtviMicrophone {
  readonly player = new BotAudioPlayer();
  #mic: MicCapture | undefined;
  #starting: Promise<MicCapture> | undefined;
  #audio: AudioCallback | undefined;
  #micEnabled = false;
  #muted = false;
  #connected = false;
  /** Called when capture failed to start after the transport enabled the mic. */
  onError: ((error: unknown) => void) | undefined;

  setUserAudioCallback(callback: AudioCallback): void {
    this.#audio = callback;
  }

  setClientOptions(_options: PipecatClientOptions, _override?: boolean): void {}

  /** No devices until the mic is turned on. */
  async initialize(): Promise<void> {}

  async connect(): Promise<void> {
    this.#connected = true;
  }

  async disconnect(): Promise<void> {
    this.#connected = false;
    this.player.flush();
  }

  /** The shopper spoke over the bot: what was queued of its voice stops. */
  async userStartedSpeaking(): Promise<unknown> {
    this.player.flush();
    return undefined;
  }

  bufferBotAudio(data: ArrayBuffer | Int16Array): Int16Array | undefined {
    const pcm = data instanceof Int16Array ? data : new Int16Array(data);
    if (this.#connected) this.player.play(pcm);
    return pcm;
  }

  async getAllMics(): Promise<MediaDeviceInfo[]> {
    return [];
  }

  async getAllCams(): Promise<MediaDeviceInfo[]> {
    return [];
  }

  async getAllSpeakers(): Promise<MediaDeviceInfo[]> {
    return [];
  }

  updateMic(): void {}

  updateCam(): void {}

  updateSpeaker(): void {}

  get selectedMic(): Record<string, never> {
    return {};
  }

  get selectedCam(): Record<string, never> {
    return {};
  }

  get selectedSpeaker(): Record<string, never> {
    return {};
  }

  /** What the transport calls; failures go to {@link onError}. */
  enableMic(enable: boolean): void {
    this.setMic(enable).catch((err: unknown) => this.onError?.(err));
  }

  /**
   * Start or stop capture. The audio goes to the transport, which sends it once connected (and
   * queues it until then). Rejects with what `getUserMedia` threw when capture cannot start.
   */
  async setMic(enable: boolean): Promise<void> {
    this.#micEnabled = enable;
    if (!enable) {
      const mic = this.#mic ?? (await this.#starting?.catch(() => undefined));
      this.#mic = undefined;
      await mic?.stop();
      return;
    }
    if (this.#mic) return;
    this.#starting ??= MicCapture.start((chunk) => this.#audio?.(chunk));
    try {
      const mic = await this.#starting;
      if (!this.#micEnabled) {
        await mic.stop();
        return;
      }
      mic.setMuted(this.#muted);
      this.#mic = mic;
    } finally {
      this.#starting = undefined;
    }
  }

  /** Stop or resume sending while keeping the microphone. */
  async setMuted(muted: boolean): Promise<void> {
    this.#muted = muted;
    this.#mic?.setMuted(muted);
  }

  enableCam(): void {}

  enableScreenShare(): void {}

  get isCamEnabled(): boolean {
    return false;
  }

  get isMicEnabled(): boolean {
    return this.#micEnabled;
  }

  get isSharingScreen(): boolean {
    return false;
  }

  get supportsScreenShare(): boolean {
    return false;
  }

  tracks(): Tracks {
    const audio = this.#mic?.track;
    return { local: audio ? { audio } : {} };
  }
}
