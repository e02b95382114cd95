/**
 * Voice in one bot session: the user's `AudioRawFrame`s go to a
 * {@link UserListener} (VAD, speech to text), each final transcript becomes a
 * user turn, and the reply is spoken by a {@link BotSpeaker}. User speech
 * while the bot speaks or thinks interrupts it (barge-in). The browser's
 * `composer_*_dictation` calls route the stream to the recognizer without
 * taking a turn.
 *
 * The listener starts on the first audio frame (a recognizer process per
 * session only when the session hears audio; PocketSphinx hands it one it
 * started ahead, once the server has heard audio). When the STT cannot run here,
 * the first audio frame is answered with an RTVI `error` that says what to
 * install, once per session.
 */
import { RpcError } from '@scenaro/sdk';
import type { RpcTransport } from '@scenaro/sdk';
import type { ServerToClientMessageMap, ServerToClientType } from '@scenaro/sdk/protocol';
import { FrontendToolCaller } from '../rpc/frontend-tool-caller.js';
import type { SpeechOutput } from '../conversation/hook.js';
import { BotSpeaker } from '../voice/bot-speaker.js';
import type { SpeechMarks } from '../voice/bot-speaker.js';
import { createAudioClock } from '../voice/clock.js';
import { createWebRtcVad } from '../voice/fvad-vad.js';
import { InputAudioNormalizer } from '../voice/input-audio.js';
import type { InputAudioFrame } from '../voice/input-audio.js';
import { INPUT_SAMPLE_RATE } from '../voice/pcm.js';
import { UserListener } from '../voice/user-listener.js';
import type { UtteranceMarks } from '../voice/user-listener.js';
import { DEFAULT_OUTPUT_CHUNK_MS, DEFAULT_OUTPUT_LEAD_MS } from '../voice/voice-options.js';
import type { AudioPacing, VoiceOptions } from '../voice/voice-options.js';
import type { Logger } from './logger.js';

/** What a voice session needs of its bot session. */
export interface VoiceSessionHost {
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
  /** Send one frame of the bot's audio; may return a promise to wait on (back-pressure). */
  sendAudio(pcm: Uint8Array, sampleRate: number): void | Promise<void>;
  /** The user said `text`: a turn answered in speech. */
  userSpeech(text: string): void;
  /**
   * Stop the running turn and the speech (sending `bot-interrupted` when there was either); true
   * when something was stopped, undefined when the session's conversation cannot be interrupted.
   */
  interruptTurn(): boolean | undefined;
  /** The session's browser RPC (the dictation methods are registered on it). */
  readonly rpc: RpcTransport;
  readonly log: Logger;
}

/** Most audio frames waiting to be heard before new ones are dropped. */
const MAX_INPUT_BACKLOG = 2000;

/** Timing of the last answered utterance (for latency measurements). */
export interface VoiceTurnTiming extends UtteranceMarks, SpeechMarks {}

/** One session's voice. */
export class VoiceSession {
  readonly #options: VoiceOptions;
  readonly #host: VoiceSessionHost;
  readonly #normalizer = new InputAudioNormalizer(INPUT_SAMPLE_RATE);
  readonly #speaker: BotSpeaker | undefined;
  #pacing: AudioPacing;
  #listener: Promise<UserListener | undefined> | undefined;
  #input: Promise<void> = Promise.resolve();
  #backlog = 0;
  #warnedBacklog = false;
  #warnedInput = false;
  #closed = false;
  #lastUtterance: UtteranceMarks | undefined;
  #unregisterDictation: (() => void) | undefined;
  /** Called with each answered utterance's timing once its first audio frame is sent. */
  onTurnTiming: ((timing: VoiceTurnTiming) => void) | undefined;

  constructor(options: VoiceOptions, host: VoiceSessionHost) {
    this.#options = options;
    this.#host = host;
    this.#pacing = options.pacing ?? 'realtime';
    const { tts } = options;
    if (tts) {
      this.#speaker = new BotSpeaker({
        tts,
        clock: this.#clock(this.#pacing, tts.sampleRate),
        chunkMs: options.outputChunkMs ?? DEFAULT_OUTPUT_CHUNK_MS,
        leadMs: options.outputLeadMs ?? DEFAULT_OUTPUT_LEAD_MS,
        sink: {
          emit: (type, data) => host.emit(type, data),
          audio: (pcm, rate) => host.sendAudio(pcm, rate),
        },
        onError: (err, sentence) => {
          host.log.warn({ err, sentence }, 'speech synthesis failed; sentence skipped');
          host.emit('error', { error: `Speech synthesis failed: ${messageOf(err)}`, fatal: false });
        },
        onFirstFrame: (marks) => {
          const utterance = this.#lastUtterance;
          this.#lastUtterance = undefined;
          if (utterance) this.onTurnTiming?.({ ...utterance, ...marks });
        },
      });
    }
    if (options.stt) this.#registerDictation();
  }

  /** The reply's speech output, when the bot has a voice. */
  get speech(): SpeechOutput | undefined {
    return this.#speaker;
  }

  get pacing(): AudioPacing {
    return this.#pacing;
  }

  /** Real-time or sample-counted output from the next frame on. */
  setPacing(pacing: AudioPacing): void {
    this.#pacing = pacing;
    if (this.#speaker) this.#speaker.setClock(this.#clock(pacing, this.#speaker.sampleRate));
  }

  /** Hear one received audio frame (frames are heard in the order they arrive). */
  audio(frame: InputAudioFrame): void {
    if (this.#closed) return;
    if (this.#backlog >= MAX_INPUT_BACKLOG) {
      if (!this.#warnedBacklog) {
        this.#warnedBacklog = true;
        this.#host.log.warn(
          { backlog: this.#backlog },
          'audio arrives faster than it is heard; dropping frames',
        );
      }
      return;
    }
    this.#backlog++;
    this.#input = this.#input
      .then(() => this.#hear(frame))
      .catch((err: unknown) => this.#inputError(err))
      .finally(() => this.#backlog--);
  }

  /** Resolves once every frame received so far has been heard. */
  async heard(): Promise<void> {
    await this.#input;
  }

  async #hear(frame: InputAudioFrame): Promise<void> {
    const listener = await (this.#listener ??= this.#startListener());
    if (!listener || this.#closed) return;
    const pcm = await this.#normalizer.convert(frame);
    listener.write(pcm);
  }

  async #startListener(): Promise<UserListener | undefined> {
    const { stt } = this.#options;
    const host = this.#host;
    let session;
    if (!stt) {
      host.emit('error', {
        error:
          'This bot does not listen: it was started without speech to text (send text instead).',
        fatal: false,
      });
      return undefined;
    }
    try {
      await stt.check();
      session = await stt.openSession();
    } catch (err) {
      host.log.warn({ err }, 'speech to text is unavailable; audio is not heard');
      host.emit('error', { error: `Speech input is unavailable: ${messageOf(err)}`, fatal: false });
      return undefined;
    }
    const vad = await createWebRtcVad({ ...this.#options.vad, sampleRate: INPUT_SAMPLE_RATE });
    if (this.#closed) {
      vad.close();
      await session.close();
      return undefined;
    }
    return new UserListener({
      vad,
      stt: session,
      sttName: `${stt.name}-stt`,
      sink: {
        emit: (type, data) => host.emit(type, data),
        speechStarted: () => this.#bargeIn(),
        utterance: (text, marks) => {
          this.#lastUtterance = marks;
          host.userSpeech(text);
        },
        error: (err) => {
          host.log.warn({ err }, 'speech recognition failed');
          host.emit('error', {
            error: `Speech recognition failed: ${messageOf(err)}`,
            fatal: false,
          });
        },
      },
    });
  }

  /** The user started speaking: stop the bot's speech and its running turn. */
  #bargeIn(): void {
    let stopped = this.#host.interruptTurn();
    if (stopped === undefined && this.#speaker?.active) {
      this.#host.emit('bot-interrupted');
      stopped = this.#speaker.interrupt();
    }
    if (stopped) this.#host.log.info({}, 'barge-in');
  }

  #inputError(err: unknown): void {
    if (this.#warnedInput) return;
    this.#warnedInput = true;
    this.#host.log.warn({ err }, 'an audio frame could not be heard');
    this.#host.emit('error', { error: `Audio frame not heard: ${messageOf(err)}`, fatal: false });
  }

  #clock(pacing: AudioPacing, sampleRate: number) {
    return createAudioClock(sampleRate, pacing === 'realtime', {
      leadMs: this.#options.outputLeadMs ?? DEFAULT_OUTPUT_LEAD_MS,
    });
  }

  #registerDictation(): void {
    const caller = new FrontendToolCaller({
      transport: this.#host.rpc,
      destinationIdentity: () => undefined,
    });
    const listener = async (): Promise<UserListener> => {
      const ready = await (this.#listener ??= this.#startListener());
      if (!ready) {
        throw RpcError.builtIn('APPLICATION_ERROR', 'speech input is unavailable on this bot');
      }
      return ready;
    };
    const guard = <T>(run: () => T): T => {
      try {
        return run();
      } catch (err) {
        throw RpcError.builtIn('APPLICATION_ERROR', messageOf(err));
      }
    };
    this.#unregisterDictation = caller.registerComposerMethods({
      start: async ({ dictationId }) => {
        const ears = await listener();
        await this.#input;
        guard(() => ears.startDictation(dictationId));
      },
      end: async ({ dictationId }) => {
        const ears = await listener();
        await this.#input;
        const transcript = await guard(() => ears.endDictation(dictationId)).catch(
          (err: unknown) => {
            throw RpcError.isInstance(err)
              ? err
              : RpcError.builtIn('APPLICATION_ERROR', messageOf(err));
          },
        );
        return { transcript };
      },
      cancel: async ({ dictationId }) => {
        const ears = await listener();
        await this.#input;
        guard(() => ears.cancelDictation(dictationId));
      },
    });
  }

  /** Stop listening and speaking. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unregisterDictation?.();
    this.#speaker?.interrupt();
    this.#normalizer.close();
    const listener = await this.#listener?.catch(() => undefined);
    await listener?.close();
  }
}

/**
 * Say at start whether the bot can hear (the STT's `check()`), and warm the TTS so the first
 * reply is not slowed by the engine starting.
 */
export async function prepareVoice(voice: VoiceOptions, log: Logger): Promise<void> {
  const { stt, tts } = voice;
  if (!stt) log.warn({}, 'voice: no speech to text; audio sent to the bot is not heard');
  else {
    await stt.check().then(
      () => log.info({ stt: stt.name }, 'voice: speech to text ready'),
      (err: unknown) =>
        log.warn(
          { stt: stt.name, error: messageOf(err) },
          'voice: speech to text is unavailable; audio sent to the bot is answered with an error',
        ),
    );
  }
  if (!tts) return;
  try {
    await tts.warm?.();
    log.info({ tts: tts.name }, 'voice: text to speech ready');
  } catch (err) {
    log.warn({ tts: tts.name, err }, 'voice: text to speech failed to warm up');
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
