/**
 * Voice in one bot session: the user's `AudioRawFrame`s go to a
 * {@link UserListener} (VAD, speech to text), each final transcript becomes a
 * user turn, and the reply is spoken by a {@link BotSpeaker}. User speech
 * while the bot speaks or thinks interrupts it (barge-in). The browser's
 * `composer_*_dictation` calls route the stream to the recognizer without
 * taking a turn.
 *
 * The listener starts on the first audio frame after the handshake (a
 * recognizer process per session only when the session hears audio;
 * PocketSphinx hands it one it started ahead, once the server has heard audio),
 * and only while the server has a listening slot free (see {@link VoiceSlots}):
 * audio before `client-ready` is not heard, and a session refused a slot is told
 * once and tries again with its next audio. When the STT cannot run here, the
 * first audio frame is answered with an RTVI `error` that says what to install,
 * once per session. Received audio waits in a bounded {@link AudioIntake}.
 *
 * With the `min-words` interruption strategy (`VoiceOptions.interruption`), speech that starts
 * while the bot speaks does not barge in: once its transcript is in, it interrupts only when it
 * is a turn of its own (see `turn-taking.ts`); a backchannel or a tic is let go without a turn.
 */
import type { RpcTransport } from '@scenaro/sdk';
import type { ServerToClientMessageMap, ServerToClientType } from '@scenaro/sdk/protocol';
import type { SpeechOutput } from '../conversation/hook.js';
import { BotSpeaker, promptingSink } from '../voice/bot-speaker.js';
import type { SpeakerSink, SpeechMarks } from '../voice/bot-speaker.js';
import { createAudioClock } from '../voice/audio/clock.js';
import { createWebRtcVad } from '../voice/audio/fvad-vad.js';
import { InputAudioNormalizer } from '../voice/audio/input-audio.js';
import type { InputAudioFrame } from '../voice/audio/input-audio.js';
import { INPUT_SAMPLE_RATE } from '../voice/audio/pcm.js';
import { InterruptionGate } from '../voice/turn-taking.js';
import { ORACLE_SAID_MESSAGE } from '../voice/stt.js';
import type { OracleSaidData } from '../voice/stt.js';
import { UserListener } from '../voice/user-listener.js';
import type { UtteranceMarks } from '../voice/user-listener.js';
import { DEFAULT_OUTPUT_CHUNK_MS, DEFAULT_OUTPUT_LEAD_MS } from '../voice/voice-options.js';
import type { AudioPacing, VoiceOptions } from '../voice/voice-options.js';
import type { Logger } from './logger.js';
import { AudioIntake, checkAudioFrame } from './audio-intake.js';
import type { AudioBacklogLimits } from './audio-intake.js';
import type { VoiceSlots } from './voice-slots.js';
import type { VoiceEvent } from './metrics.js';
import { registerDictation } from './voice-dictation.js';
import { HeardReports, PlaybackTracker, playedSpeech } from './voice-playback.js';
import type { PlaybackMark } from './voice-playback.js';
import { errorMessage } from '@scenaro/sdk/util';

/** What a voice session needs of its bot session. */
export interface VoiceSessionHost {
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
  /** Push a `server-message` with an app payload. */
  push(data: unknown): void;
  /**
   * Send one frame of the bot's audio; may return a promise to wait on (back-pressure). Called
   * detached (the speaker writes through it directly).
   */
  readonly sendAudio: (pcm: Uint8Array, sampleRate: number) => void | Promise<void>;
  /** The user said `text`: a turn answered in speech; may resolve once the turn has run. */
  userSpeech(text: string): void | Promise<void>;
  /**
   * The user spoke and nothing was made out of it (see `ListenerSink.unheard`): the conversation
   * may ask them to say it again. Resolves once that reply has run; undefined: no reply.
   */
  userUnheard?(): Promise<void> | undefined;
  /**
   * Stop the running turn and the speech (sending `bot-interrupted` when there was either); true
   * when something was stopped, undefined when the session's conversation cannot be interrupted.
   */
  interruptTurn(): boolean | undefined;
  /** The session's browser RPC (the dictation methods are registered on it). */
  readonly rpc: RpcTransport;
  readonly log: Logger;
  /** True once the client's `client-ready` was answered (audio before it is not heard). */
  ready(): boolean;
  /** Stop (true) or resume (false) reading the client (a full audio queue on the fast clock). */
  pauseAudio(paused: boolean): void;
  /** The server's listening places (unbounded when absent). */
  readonly slots?: VoiceSlots;
  /** Bounds of the queue of received audio. */
  readonly backlog?: AudioBacklogLimits;
  /** Count a voice event in the server's metrics. */
  count?(event: VoiceEvent, amount?: number): void;
}

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
  readonly #intake: AudioIntake;
  /** Gives the session's listening slot back. */
  #releaseSlot: (() => void) | undefined;
  #refused = false;
  #warnedShed = false;
  #warnedInput = false;
  #closed = false;
  #lastUtterance: UtteranceMarks | undefined;
  /** Fast pacing with `reportHeard`: where the replies play in the input stream. */
  readonly #playback: PlaybackTracker | undefined;
  /** The speech as the conversation sees it (with `#playback`: active while heard). */
  readonly #output: SpeechOutput | undefined;
  /** The listener once started (its position in the input stream). */
  #ear: UserListener | undefined;
  readonly #interruptions: InterruptionGate;
  /** Fast pacing with `reportHeard`: the `audio-heard` reports. */
  readonly #reports: HeardReports | undefined;
  #unregisterDictation: (() => void) | undefined;
  /** Called with each answered utterance's timing once its first audio frame is sent. */
  onTurnTiming: ((timing: VoiceTurnTiming) => void) | undefined;

  constructor(options: VoiceOptions, host: VoiceSessionHost) {
    this.#options = options;
    this.#host = host;
    this.#pacing = options.pacing ?? 'realtime';
    this.#interruptions = new InterruptionGate(options.interruption);
    if (options.reportHeard) {
      this.#playback = new PlaybackTracker(INPUT_SAMPLE_RATE);
      this.#reports = new HeardReports((data) => host.push(data), INPUT_SAMPLE_RATE);
    }
    const { tts } = options;
    if (tts) {
      this.#speaker = new BotSpeaker({
        tts,
        clock: this.#clock(this.#pacing, tts.sampleRate),
        chunkMs: options.outputChunkMs ?? DEFAULT_OUTPUT_CHUNK_MS,
        ...(options.spokenForm === false ? { spokenForm: false } : {}),
        leadMs: options.outputLeadMs ?? DEFAULT_OUTPUT_LEAD_MS,
        sink: promptingSink(
          (speech) => this.#ear?.expect(speech),
          this.#playback
            ? this.#trackedSink(this.#playback)
            : {
                emit: (type, data) => host.emit(type, data),
                audio: host.sendAudio,
              },
        ),
        onError: (err, sentence) => {
          host.log.warn({ err, sentence }, 'speech synthesis failed; sentence skipped');
          host.emit('error', {
            error: `Speech synthesis failed: ${errorMessage(err)}`,
            fatal: false,
          });
        },
        onFirstFrame: (marks) => {
          const utterance = this.#lastUtterance;
          this.#lastUtterance = undefined;
          if (utterance) this.onTurnTiming?.({ ...utterance, ...marks });
        },
      });
    }
    const speaker = this.#speaker;
    const tracker = this.#playback;
    this.#output =
      speaker && tracker ? playedSpeech(speaker, tracker, () => this.#ear?.samples ?? 0) : speaker;
    if (options.stt)
      this.#unregisterDictation = registerDictation({
        rpc: host.rpc,
        ears: () => this.#ears(),
        drained: () => this.#intake.drained(),
      });
    this.#intake = new AudioIntake(
      {
        hear: (frame) => this.#hear(frame),
        overflow: () => (this.#pacing === 'fast' ? 'pause' : 'shed'),
        pause: (paused) => host.pauseAudio(paused),
        shed: (ms) => this.#shed(ms),
        error: (err) => this.#inputError(err),
      },
      host.backlog,
    );
  }

  /** True when the recognizer is told what was said (the oracle) rather than hearing it. */
  get toldText(): boolean {
    return this.#options.stt?.toldText === true;
  }

  /** The reply's speech output, when the bot has a voice. */
  get speech(): SpeechOutput | undefined {
    return this.#output;
  }

  /** A client's mark: where one of the bot's replies started playing in its input stream. */
  playback(mark: PlaybackMark): void {
    this.#playback?.mark(mark);
  }

  /** The speaker's sink with what it sends counted in `tracker`. */
  #trackedSink(tracker: PlaybackTracker): SpeakerSink {
    const host = this.#host;
    return {
      emit: (type, data) => {
        if (type === 'bot-stopped-speaking') tracker.stopped();
        if (type !== 'bot-started-speaking') {
          host.emit(type, data);
          return;
        }
        tracker.started();
        // The start first, then the report it releases: a relay that reads them in that order
        // knows the report moved on because a reply started, not because the turn gave up.
        host.emit(type, data);
        const ear = this.#ear;
        if (ear) this.#reports?.replyStarted(() => this.#reportHeard(ear));
      },
      audio: (pcm, rate) => {
        tracker.sent(pcm.length, rate);
        return host.sendAudio(pcm, rate);
      },
    };
  }

  /** Selective turn-taking (`min-words`): speech not meant for the bot is let go. */
  get selective(): boolean {
    return this.#options.interruption !== undefined && this.#options.interruption.kind !== 'any';
  }

  get pacing(): AudioPacing {
    return this.#pacing;
  }

  /** Real-time or sample-counted output from the next frame on. */
  setPacing(pacing: AudioPacing): void {
    this.#pacing = pacing;
    if (this.#speaker) this.#speaker.setClock(this.#clock(pacing, this.#speaker.sampleRate));
  }

  /**
   * Hear one received audio frame (frames are heard in the order they arrive). A frame that
   * cannot be audio is answered with an RTVI `error` (once per session) and dropped.
   */
  audio(frame: InputAudioFrame): void {
    if (this.#closed) return;
    if (!this.#host.ready()) {
      this.#host.count?.('early_audio');
      return;
    }
    let pieces;
    try {
      pieces = checkAudioFrame(frame);
    } catch (err) {
      this.#host.count?.('bad_audio');
      this.#inputError(err);
      return;
    }
    this.#intake.push(pieces);
  }

  /** Resolves once every frame received so far has been heard. */
  async heard(): Promise<void> {
    await this.#intake.drained();
  }

  /**
   * The other side said `text` (an evaluation bridge's `oracle-said`, sent once that speech's
   * audio has been sent): the recognizer is told it after the audio received before it is heard,
   * so it lands on the audio's timeline. False, and nothing done, when the recognizer hears for
   * itself (it is not the oracle).
   */
  told(text: string): boolean {
    if (this.#closed || !this.toldText) return false;
    this.#intake.after(async () => {
      const listener = await this.#listener?.catch(() => undefined);
      listener?.told(text);
    });
    return true;
  }

  /**
   * An `oracle-said` message's `d`: its text told to the recognizer (see {@link told}). The
   * error to answer with when `d` is not `{text: string}` or the recognizer is not told text.
   */
  toldMessage(d: unknown): string | undefined {
    const text = (d as Partial<OracleSaidData> | null | undefined)?.text;
    if (typeof text !== 'string') return `${ORACLE_SAID_MESSAGE} needs d.text, a string`;
    return this.told(text) ? undefined : `this bot's speech to text is not told what was said`;
  }

  /**
   * The client's connection is gone: once the audio it sent is heard, the utterance it broke off
   * ends (a turn when it has words), so speech on its next connection starts a new one.
   */
  connectionLost(): void {
    this.#intake.after(async () => {
      const listener = await this.#listener?.catch(() => undefined);
      listener?.streamBroken();
    });
  }

  async #hear(frame: InputAudioFrame): Promise<void> {
    const listener = await this.#ears();
    if (!listener || this.#closed) return;
    const pcm = await this.#normalizer.convert(frame);
    await listener.write(pcm);
    this.#reportHeard(listener);
  }

  /** Fast pacing: tell the client how much of its stream is heard and settled (`reportHeard`). */
  #reportHeard(listener: UserListener): void {
    if (this.#pacing === 'fast' && !this.#closed) this.#reports?.report(listener);
  }

  /** The listener, started on first use; undefined while the server has no slot free. */
  async #ears(): Promise<UserListener | undefined> {
    const listener = await (this.#listener ??= this.#startListener());
    if (!listener && this.#releaseSlot === undefined && this.#refused) this.#listener = undefined;
    return listener;
  }

  /** Take a listening slot; false (the client told once) when the server has none free. */
  #takeSlot(): boolean {
    const { slots } = this.#host;
    if (!slots) return true;
    const release = slots.take();
    if (release) {
      this.#releaseSlot = release;
      this.#refused = false;
      return true;
    }
    if (!this.#refused) {
      this.#refused = true;
      this.#host.count?.('voice_limit');
      this.#host.log.warn({ max: slots.max }, 'no listening slot free; audio is not heard');
      this.#host.emit('error', {
        error: `This server is listening to as many sessions as it can (${slots.max}); your audio is not heard. Try again later, or send text.`,
        fatal: false,
      });
    }
    return false;
  }

  #shed(ms: number): void {
    this.#host.count?.('audio_shed_seconds', ms / 1000);
    if (this.#warnedShed) return;
    this.#warnedShed = true;
    this.#host.log.warn(
      { droppedMs: Math.round(ms) },
      'audio arrives faster than it is heard; dropping the oldest',
    );
    this.#host.emit('error', {
      error:
        'Audio arrives faster than real time, more than the bot can hear: the oldest audio is dropped (said once).',
      fatal: false,
    });
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
    if (!this.#takeSlot()) return undefined;
    try {
      await stt.check();
      session = await stt.openSession();
    } catch (err) {
      this.#giveSlotBack();
      host.log.warn({ err }, 'speech to text is unavailable; audio is not heard');
      host.emit('error', {
        error: `Speech input is unavailable: ${errorMessage(err)}`,
        fatal: false,
      });
      return undefined;
    }
    const vad = await createWebRtcVad({ ...this.#options.vad, sampleRate: INPUT_SAMPLE_RATE });
    if (this.#closed) {
      vad.close();
      await session.close();
      this.#giveSlotBack();
      return undefined;
    }
    const listener: UserListener = new UserListener({
      logger: host.log,
      vad,
      stt: session,
      sttName: `${stt.name}-stt`,
      onSettled: () => this.#reportHeard(listener),
      sink: {
        emit: (type, data) => host.emit(type, data),
        speechStarted: (sample) => {
          if (this.#interruptions.started(sample, this.#output?.active ?? false)) this.#bargeIn();
        },
        utterance: (text, marks) => {
          if (!this.#takesTurn(text, marks)) return;
          this.#answer(listener, marks, () => host.userSpeech(text));
        },
        unheard: (marks) => {
          // Only an answer: speech that began over the bot (noise, a backchannel) is let go.
          if (!this.#interruptions.answered(marks.startSample) || this.#output?.active) return;
          const reply = host.userUnheard?.();
          if (!reply) return;
          host.log.info(
            { seconds: (marks.endSample - marks.startSample) / INPUT_SAMPLE_RATE },
            'speech heard as nothing: asked again',
          );
          // Only a reply holds the heard reports (see turn-taking.md): no reply, no turn.
          this.#answer(listener, marks, () => reply);
        },
        error: (err) => {
          host.log.warn({ err }, 'speech recognition failed');
          host.emit('error', {
            error: `Speech recognition failed: ${errorMessage(err)}`,
            fatal: false,
          });
        },
      },
    });
    this.#ear = listener;
    return listener;
  }

  /** Answer the utterance that ended at `marks` with `reply` (a turn, or a request to repeat). */
  #answer(listener: UserListener, marks: UtteranceMarks, reply: () => void | Promise<void>): void {
    this.#lastUtterance = marks;
    const release = this.#reports?.turn(marks.endSample, () => this.#reportHeard(listener));
    const turn = reply();
    // The reports go on once the turn's reply has started, or the turn ended without one.
    if (release)
      void Promise.resolve(turn)
        .then(() => this.#speaker?.idle())
        .finally(release);
  }

  /** Whether an utterance is a turn (see {@link InterruptionGate}); it may interrupt the bot. */
  #takesTurn(text: string, marks: UtteranceMarks): boolean {
    const kind = this.#interruptions.heard(text, marks.startSample);
    if (kind === 'interruption') this.#bargeIn();
    if (kind === 'let-go') this.#host.log.info({ text }, 'speech during the bot speaking let go');
    return kind !== 'let-go';
  }

  /** The user started speaking: stop the bot's speech and its running turn. */
  #bargeIn(): void {
    let stopped = this.#host.interruptTurn();
    if (stopped === undefined && this.#output?.active) {
      this.#host.emit('bot-interrupted');
      stopped = this.#output.interrupt();
    }
    if (stopped) this.#host.log.info({}, 'barge-in');
  }

  #giveSlotBack(): void {
    this.#releaseSlot?.();
    this.#releaseSlot = undefined;
  }

  #inputError(err: unknown): void {
    if (this.#warnedInput) return;
    this.#warnedInput = true;
    this.#host.log.warn({ err }, 'an audio frame could not be heard');
    this.#host.emit('error', {
      error: `Audio frame not heard: ${errorMessage(err)}`,
      fatal: false,
    });
  }

  #clock(pacing: AudioPacing, sampleRate: number) {
    return createAudioClock(sampleRate, pacing === 'realtime', {
      leadMs: this.#options.outputLeadMs ?? DEFAULT_OUTPUT_LEAD_MS,
    });
  }

  /** Stop listening and speaking. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unregisterDictation?.();
    this.#speaker?.interrupt();
    this.#intake.close();
    this.#normalizer.close();
    const listener = await this.#listener?.catch(() => undefined);
    await listener?.close();
    this.#giveSlotBack();
  }
}

export type { VoiceEvent } from './metrics.js';
