/**
 * A device-less media manager for the real `@pipecat-ai/websocket-transport` in Node: the
 * surface the transport calls (`setUserAudioCallback`, `bufferBotAudio`, `userStartedSpeaking`,
 * device getters...), with a {@link NodeMicrophone} fed from PCM we give it and a
 * {@link NodeSpeaker} that records the bot audio.
 *
 * As in the browser's media managers, the mic records from `connect()` to `disconnect()` while
 * it is enabled (client option `enableMic`, then `enableMic(...)`), and `userStartedSpeaking()`
 * drops the audio not played yet. The WebSocket transport itself never calls
 * `userStartedSpeaking()`; a test that wants browser-side barge-in asks for it (see
 * `flushSpeakerOn` of `connectPipecatClient`) or calls it.
 */
import type { PipecatClientOptions } from '@pipecat-ai/client-js';
import type { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { NodeMicrophone } from './mic.js';
import type { MicOptions } from './mic.js';
import { NodeSpeaker } from './speaker.js';
import type { WireAudioFormat } from './speaker.js';

/** The media manager type `WebSocketTransport`'s constructor takes. */
export type TransportMediaManager = NonNullable<
  NonNullable<ConstructorParameters<typeof WebSocketTransport>[0]>['mediaManager']
>;

/** Options of {@link NodeMediaManager}. */
export interface NodeMediaOptions {
  /** Rate of the mic audio; must match the transport's `recorderSampleRate`. @default 16000 */
  recorderSampleRate?: number;
  /** Rate the speaker plays at (the browser player's `playerSampleRate`). @default 24000 */
  playerSampleRate?: number;
  mic?: MicOptions;
  /** The clock every timestamp is read from, in ms. @default performance.now */
  now?: () => number;
}

const none = async (): Promise<never[]> => [];

/** The media manager; hand it to the transport with {@link asTransportMediaManager}. */
export class NodeMediaManager {
  readonly mic: NodeMicrophone;
  readonly speaker: NodeSpeaker;
  readonly selectedMic = {};
  readonly selectedCam = {};
  readonly selectedSpeaker = {};
  readonly isCamEnabled = false;
  readonly isSharingScreen = false;
  readonly supportsScreenShare = false;

  private options: PipecatClientOptions | undefined;
  private micEnabled = true;
  private connected = false;
  private readonly wireFormats = new WeakMap<Int16Array, WireAudioFormat>();

  constructor(options: NodeMediaOptions = {}) {
    const now = options.now ?? (() => performance.now());
    this.mic = new NodeMicrophone(options.recorderSampleRate ?? 16_000, now, options.mic);
    this.speaker = new NodeSpeaker(options.playerSampleRate ?? 24_000, now);
  }

  get isMicEnabled(): boolean {
    return this.micEnabled;
  }

  setUserAudioCallback(callback: (data: ArrayBuffer) => void): void {
    this.mic.attach(callback);
  }

  setClientOptions(options: PipecatClientOptions, override = false): void {
    if (this.options && !override) return;
    this.options = options;
    this.micEnabled = options.enableMic ?? true;
    this.mic.enabled = this.micEnabled;
  }

  async initialize(): Promise<void> {}

  async connect(): Promise<void> {
    this.connected = true;
    if (this.micEnabled) this.mic.start();
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    this.mic.stop();
  }

  /** Drop the bot audio not played yet (what the browser's managers do on barge-in). */
  async userStartedSpeaking(reason = 'user-started-speaking'): Promise<{ droppedSamples: number }> {
    return { droppedSamples: this.speaker.flush(reason) };
  }

  bufferBotAudio(data: ArrayBuffer | Int16Array, _id?: string): Int16Array {
    const samples = data instanceof Int16Array ? data : new Int16Array(data);
    this.speaker.write(samples, this.wireFormats.get(samples));
    return samples;
  }

  /** Note the frame format of samples about to reach {@link bufferBotAudio}. */
  noteWireFormat(samples: Int16Array, format: WireAudioFormat): void {
    this.wireFormats.set(samples, format);
  }

  enableMic(enable: boolean): void {
    this.micEnabled = enable;
    this.mic.enabled = enable;
    if (enable && this.connected) this.mic.start();
  }

  getAllMics = none;
  getAllCams = none;
  getAllSpeakers = none;
  updateMic(_micId: string): void {}
  updateCam(_camId: string): void {}
  updateSpeaker(_speakerId: string): void {}
  enableCam(_enable: boolean): void {}
  enableScreenShare(_enable: boolean): void {}
  tracks(): { local: Record<string, never> } {
    return { local: {} };
  }
}

/** The manager typed as the transport's (its abstract base class is not exported). */
export function asTransportMediaManager(manager: NodeMediaManager): TransportMediaManager {
  return manager as unknown as TransportMediaManager;
}
