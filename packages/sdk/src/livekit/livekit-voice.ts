/**
 * The voice surface over a livekit-client `Room`, where LiveKit provides it: connection state
 * (`ConnectionStateChanged`, `Disconnected`), who is speaking (`ActiveSpeakersChanged`: the
 * local participant is the user, a remote one the agent), the user's transcript and the agent's
 * spoken text (`TranscriptionReceived`, by the participant they belong to), the microphone
 * (`localParticipant.setMicrophoneEnabled`) and its mute (the local microphone track's
 * `mute()` / `unmute()`, followed through `TrackMuted` / `TrackUnmuted`). LiveKit has no
 * interruption event: barge-in is inferred (the agent stopped speaking while the user spoke).
 * livekit-client is an optional peer: only its types are imported.
 */
import type { Participant, RoomEventCallbacks, Track, TranscriptionSegment } from 'livekit-client';
import { BaseVoice } from '../voice/base-voice.js';

/** The client events the voice listens to. */
export type LiveKitVoiceEvent =
  | 'connectionStateChanged'
  | 'disconnected'
  | 'activeSpeakersChanged'
  | 'transcriptionReceived'
  | 'trackMuted'
  | 'trackUnmuted';

/** The local microphone track's publication. */
export interface LiveKitMicPublicationLike {
  mute(): Promise<unknown>;
  unmute(): Promise<unknown>;
}

/** The subset of livekit-client's `Room` the voice uses (a real `Room` fits). */
export interface LiveKitVoiceRoomLike {
  readonly localParticipant: {
    readonly identity: string;
    setMicrophoneEnabled(enabled: boolean): Promise<unknown>;
    getTrackPublication(source: Track.Source): LiveKitMicPublicationLike | undefined;
  };
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  on<E extends LiveKitVoiceEvent>(event: E, listener: RoomEventCallbacks[E]): unknown;
  off<E extends LiveKitVoiceEvent>(event: E, listener: RoomEventCallbacks[E]): unknown;
}

/** Options of {@link createLiveKitVoice}. */
export interface LiveKitVoiceOptions {
  /** The LiveKit server URL `connect()` dials. */
  url?: string;
  /** The participant token, or a function fetching a fresh one. */
  token?: string | (() => Promise<string>);
  /** Only this remote participant counts as the agent. @default any remote participant */
  agentIdentity?: string;
}

/** LiveKit's `Track.Source.Microphone`. */
const MICROPHONE = 'microphone' as Track.Source;

/** A {@link Voice} over a LiveKit `Room`. */
export class LiveKitVoice extends BaseVoice {
  readonly #room: LiveKitVoiceRoomLike;
  readonly #options: LiveKitVoiceOptions;
  /** Agent segments already reported as spoken. */
  readonly #spoken = new Set<string>();

  constructor(room: LiveKitVoiceRoomLike, options: LiveKitVoiceOptions = {}) {
    super();
    this.#room = room;
    this.#options = options;
    const on = <E extends LiveKitVoiceEvent>(event: E, listener: RoomEventCallbacks[E]) => {
      room.on(event, listener);
      this.onDispose(() => room.off(event, listener));
    };
    on('connectionStateChanged', (state) => {
      if (String(state) === 'connected') this.setState({ connection: 'connected' });
      else if (String(state) !== 'disconnected') this.setState({ connection: 'connecting' });
    });
    on('disconnected', () => this.closed());
    on('activeSpeakersChanged', (speakers) => {
      this.userSpeaking(speakers.some((p) => p.isLocal));
      this.botSpeaking(speakers.some((p) => this.#isAgent(p)));
    });
    on('transcriptionReceived', (segments, participant) =>
      this.#transcription(segments, participant),
    );
    const muted =
      (value: boolean): RoomEventCallbacks['trackMuted'] =>
      (publication, participant) => {
        if (participant.isLocal && publication.source === MICROPHONE) {
          this.setState({ micMuted: value });
        }
      };
    on('trackMuted', muted(true));
    on('trackUnmuted', muted(false));
  }

  #isAgent(participant: Participant): boolean {
    if (participant.isLocal) return false;
    const agent = this.#options.agentIdentity;
    return agent === undefined || participant.identity === agent;
  }

  #transcription(segments: TranscriptionSegment[], participant: Participant | undefined): void {
    const local =
      participant?.isLocal ?? participant?.identity === this.#room.localParticipant.identity;
    if (local) {
      for (const segment of segments) this.userTranscript(segment.text, segment.final);
      return;
    }
    if (participant && !this.#isAgent(participant)) return;
    for (const segment of segments) {
      if (!segment.final || this.#spoken.has(segment.id)) continue;
      this.#spoken.add(segment.id);
      this.botSpoke(segment.text);
    }
  }

  protected async open(): Promise<void> {
    const { url, token } = this.#options;
    if (url === undefined || token === undefined) {
      throw new Error('createLiveKitVoice needs a url and a token to connect');
    }
    await this.#room.connect(url, typeof token === 'function' ? await token() : token);
  }

  protected async close(): Promise<void> {
    await this.#room.disconnect();
  }

  protected async applyMic(enabled: boolean): Promise<void> {
    await this.#room.localParticipant.setMicrophoneEnabled(enabled);
  }

  protected async applyMute(muted: boolean): Promise<void> {
    const publication = this.#room.localParticipant.getTrackPublication(MICROPHONE);
    if (!publication) return;
    await (muted ? publication.mute() : publication.unmute());
  }
}

/** Wrap a livekit-client `Room` as a {@link Voice}. */
export function createLiveKitVoice(
  room: LiveKitVoiceRoomLike,
  options: LiveKitVoiceOptions = {},
): LiveKitVoice {
  return new LiveKitVoice(room, options);
}
