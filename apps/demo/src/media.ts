/**
 * A media manager for `WebSocketTransport` that touches no device until the shopper turns the
 * microphone on. The transport's default (Daily's) downloads code from the network, and
 * `WavMediaManager` asks for the microphone as soon as the connection opens; this one creates a
 * `WavMediaManager` only when the mic is enabled, so a connection needs no permission at all.
 */
import type { PipecatClientOptions, Tracks } from '@pipecat-ai/client-js';
import { WavMediaManager } from '@pipecat-ai/websocket-transport';

type AudioCallback = (data: ArrayBuffer) => void;

/** Duck-types the transport's `MediaManager` (its base class is not exported). */
export class LazyMicMediaManager {
  #wav: WavMediaManager | undefined;
  #audio: AudioCallback | undefined;
  #options: PipecatClientOptions | undefined;
  #micEnabled = false;
  #connected = false;
  /** Called when capture could not start after the transport enabled the mic. */
  onError: ((error: unknown) => void) | undefined;

  setUserAudioCallback(callback: AudioCallback): void {
    this.#audio = callback;
    this.#wav?.setUserAudioCallback(callback);
  }

  setClientOptions(options: PipecatClientOptions, override?: boolean): void {
    this.#options = options;
    this.#wav?.setClientOptions(options, override);
  }

  /** No devices until the mic is turned on. */
  async initialize(): Promise<void> {}

  async connect(): Promise<void> {
    this.#connected = true;
    if (this.#micEnabled) await this.#start();
  }

  async disconnect(): Promise<void> {
    this.#connected = false;
    const wav = this.#wav;
    this.#wav = undefined;
    await wav?.disconnect();
  }

  async userStartedSpeaking(): Promise<unknown> {
    return this.#wav?.userStartedSpeaking();
  }

  bufferBotAudio(data: ArrayBuffer | Int16Array, id?: string): Int16Array | undefined {
    // Bot audio output is not part of this demo yet.
    void data;
    void id;
    return undefined;
  }

  async getAllMics(): Promise<MediaDeviceInfo[]> {
    return this.#wav ? this.#wav.getAllMics() : [];
  }

  async getAllCams(): Promise<MediaDeviceInfo[]> {
    return [];
  }

  async getAllSpeakers(): Promise<MediaDeviceInfo[]> {
    return [];
  }

  updateMic(micId: string): void {
    void this.#wav?.updateMic(micId).catch((err: unknown) => this.onError?.(err));
  }

  updateCam(): void {}

  updateSpeaker(): void {}

  get selectedMic(): MediaDeviceInfo | Record<string, never> {
    return this.#wav?.selectedMic ?? {};
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

  /** Turn capture on or off (on starts only once connected); rejects when it cannot start. */
  async setMic(enable: boolean): Promise<void> {
    this.#micEnabled = enable;
    if (!enable) {
      await this.#wav?.enableMic(false);
      return;
    }
    if (this.#connected) await this.#start();
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
    return this.#wav?.tracks() ?? { local: {} };
  }

  async #start(): Promise<void> {
    const wav = (this.#wav ??= new WavMediaManager());
    if (this.#audio) wav.setUserAudioCallback(this.#audio);
    if (this.#options) wav.setClientOptions(this.#options, false);
    await wav.connect();
    await wav.enableMic(true);
  }
}
