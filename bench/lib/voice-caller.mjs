// One simulated caller of a voice bot, as a browser microphone and speaker would be: it sends
// 16 kHz mono PCM in 16 ms AudioRawFrames paced in real time (chunk k leaves at t0 + (k+1) x
// 16 ms, once it has been "recorded"), silence included: a silent lead, then each spoken turn
// followed by silence until the bot's reply has finished (bot-stopped-speaking) plus a short gap.
// It timestamps every event and audio frame on arrival (performance.now() of this process) and
// plays the bot's audio into a model of a playout buffer to find late frames.
import { INPUT_CHUNK_MS, INPUT_SAMPLE_RATE } from '@scenaro/agent/voice';
import { RtviClient } from '@scenaro/agent/testing';

const CHUNK_SAMPLES = (INPUT_SAMPLE_RATE * INPUT_CHUNK_MS) / 1000;
const CHUNK_BYTES = CHUNK_SAMPLES * 2;
const SILENCE = new Uint8Array(CHUNK_BYTES);
const samplesToMs = (samples) => (samples * 1000) / INPUT_SAMPLE_RATE;

/** A frame arriving this much after the buffered audio ran out is an underrun (late audio). */
export const UNDERRUN_MS = 20;
/** A final transcript arriving this much after user-stopped-speaking (or never) is late. */
export const LATE_TRANSCRIPT_MS = 1000;
/** Samples quieter than this (about -40 dBFS) after the last louder one are not speech. */
const SPEECH_LEVEL = 328;

/** A turn to speak: 16 kHz PCM padded to whole chunks, and the sample where its speech ends. */
export function spokenTurn(text, pcm16k) {
  const samples = new Int16Array(pcm16k.buffer, pcm16k.byteOffset, pcm16k.byteLength >> 1);
  let end = samples.length;
  while (end > 0 && Math.abs(samples[end - 1]) <= SPEECH_LEVEL) end--;
  const padded = new Uint8Array(Math.ceil(pcm16k.byteLength / CHUNK_BYTES) * CHUNK_BYTES);
  padded.set(pcm16k);
  return { text, pcm: padded, speechEndSample: end, durationMs: samplesToMs(samples.length) };
}

/** One real-time voice session. */
export class VoiceCaller {
  /** Per spoken turn: its text, arrival times (ms) and the server's marks. */
  utterances = [];
  /** Per audio frame of a reply but its first: how late it came after the buffer ran dry (ms, 0 on time). */
  lateness = [];
  /** Frames that arrived more than UNDERRUN_MS after the buffer ran dry. */
  underruns = 0;
  /** Of those, the first frames of a sentence after the reply's first (synthesized after the previous one was sent). */
  sentenceUnderruns = 0;
  /** Per chunk sent: how long after its due time it left (ms). */
  sendLag = [];
  /** Audio frames received, and outside bot-started/stopped-speaking. */
  frames = 0;
  strayFrames = 0;
  errors = [];
  bargeIns = 0;
  /** How the server closed the connection, if it did. */
  disconnected;
  #client;
  #turns;
  #options;
  #state = 'lead';
  #current;
  #offset = 0;
  #sent = 0;
  #gapEnd = 0;
  #t0 = 0;
  #k = 0;
  #timer;
  #done;
  #reply;

  /**
   * `turns` from {@link spokenTurn}; options: `firstTurn` (index to start at), `leadMs`
   * (silence first), `gapMs` (silence after a reply), `maxTurns`, `replyTimeoutMs` (give up
   * waiting for a reply after the speech ended).
   */
  constructor(url, turns, options = {}) {
    this.url = url;
    this.#turns = turns;
    this.#options = {
      firstTurn: 0,
      leadMs: 1000,
      gapMs: 300,
      maxTurns: Infinity,
      replyTimeoutMs: 12_000,
      ...options,
    };
  }

  async open() {
    this.#client = await RtviClient.ready(this.url, {
      record: false,
      perMessageDeflate: false,
      onMessage: (m) => this.#event(m),
      onAudio: (f) => this.#audio(f),
    });
  }

  /** Seconds of audio sent so far. */
  get audioSeconds() {
    return samplesToMs(this.#sent) / 1000;
  }

  /** Stream until `maxTurns` turns have been answered (or `stop()`). */
  run() {
    this.#t0 = performance.now();
    return new Promise((resolve) => {
      this.#done = resolve;
      this.#tick();
    });
  }

  /** Stop the microphone now. */
  stop() {
    clearTimeout(this.#timer);
    this.#state = 'done';
    this.#done?.();
  }

  close() {
    this.stop();
    return this.#client?.close();
  }

  /** The server's marks of the turn being answered (from onTurnTiming). */
  serverTiming(timing) {
    const u = this.#current ?? this.utterances.at(-1);
    if (u && u.finalT !== undefined && !u.server) u.server = timing;
  }

  #tick = () => {
    const now = performance.now();
    while (this.#state !== 'done' && this.#t0 + (this.#k + 1) * INPUT_CHUNK_MS <= now) {
      const chunk = this.#next(now);
      if (!chunk) break;
      this.sendLag.push(now - (this.#t0 + (this.#k + 1) * INPUT_CHUNK_MS));
      if (!this.#client.isOpen) {
        this.disconnected = this.#client.closed ?? { code: 0, reason: 'not open' };
        this.stop();
        return;
      }
      this.#client.sendAudio(chunk);
      this.#sent += CHUNK_SAMPLES;
      this.#k++;
    }
    if (this.#state === 'done') {
      this.#done?.();
      return;
    }
    const due = this.#t0 + (this.#k + 1) * INPUT_CHUNK_MS;
    this.#timer = setTimeout(this.#tick, Math.max(0, due - performance.now()));
  };

  #next(now) {
    if (this.#state === 'lead' && this.#sent >= (this.#options.leadMs * INPUT_SAMPLE_RATE) / 1000) {
      this.#beginTurn();
    } else if (
      this.#state === 'wait' &&
      now - this.#current.speechEndT > this.#options.replyTimeoutMs
    ) {
      this.#current.timedOut = true;
      this.#toGap();
    } else if (this.#state === 'gap' && this.#sent >= this.#gapEnd) {
      if (this.utterances.length < this.#options.maxTurns) this.#beginTurn();
      else this.#state = 'done';
    }
    if (this.#state === 'done') return undefined;
    if (this.#state !== 'speak') return SILENCE;
    const turn = this.#current.turn;
    const chunk = turn.pcm.subarray(this.#offset, this.#offset + CHUNK_BYTES);
    this.#offset += CHUNK_BYTES;
    if (this.#offset >= turn.pcm.byteLength) this.#state = 'wait';
    return chunk;
  }

  #beginTurn() {
    const index = (this.#options.firstTurn + this.utterances.length) % this.#turns.length;
    const turn = this.#turns[index];
    this.#current = {
      turn,
      text: turn.text,
      speechStartT: this.#t0 + samplesToMs(this.#sent),
      speechEndSample: this.#sent + turn.speechEndSample,
      speechEndT: this.#t0 + samplesToMs(this.#sent + turn.speechEndSample),
      finals: [],
      earlyStops: 0,
    };
    this.utterances.push(this.#current);
    this.#offset = 0;
    this.#state = 'speak';
  }

  #toGap() {
    this.#state = 'gap';
    this.#current = undefined;
    this.#gapEnd = this.#sent + (this.#options.gapMs * INPUT_SAMPLE_RATE) / 1000;
  }

  #event(m) {
    const t = performance.now();
    const u = this.#current;
    switch (m.type) {
      case 'user-stopped-speaking':
        if (!u) return;
        if (t < u.speechEndT) u.earlyStops++;
        else u.vadStopT ??= t;
        return;
      case 'user-transcription': {
        if (!u || m.data?.final !== true) return;
        u.finals.push(m.data.text ?? '');
        if (u.vadStopT === undefined || u.finalT !== undefined) return;
        u.finalT = t;
        // An empty final takes no turn: no reply is coming.
        if (!String(m.data.text ?? '').trim() && this.#state === 'wait') this.#toGap();
        return;
      }
      case 'bot-llm-text':
        if (u?.finalT !== undefined) u.firstLlmT ??= t;
        return;
      case 'bot-tts-started':
        if (u?.finalT !== undefined) u.ttsStartedT ??= t;
        return;
      case 'bot-started-speaking':
        this.#reply = { playEnd: undefined, sentenceStart: false };
        return;
      case 'bot-tts-text':
        // Sent once a sentence's audio has all been sent: the next frame starts the next sentence.
        if (this.#reply) this.#reply.sentenceStart = true;
        return;
      case 'bot-stopped-speaking':
        this.#reply = undefined;
        if (u && this.#state === 'wait' && u.firstAudioT !== undefined) {
          u.botStoppedT = t;
          this.#toGap();
        }
        return;
      case 'bot-interrupted':
        this.bargeIns++;
        return;
      case 'error':
        this.errors.push(m.data?.error);
        return;
      default:
    }
  }

  #audio(frame) {
    const t = performance.now();
    this.frames++;
    const ms = (frame.audio.byteLength * 1000) / 2 / frame.numChannels / frame.sampleRate;
    const reply = this.#reply;
    if (!reply) {
      this.strayFrames++;
      return;
    }
    if (reply.playEnd === undefined) {
      reply.playEnd = t + ms;
      const u = this.#current;
      if (u?.finalT !== undefined) u.firstAudioT ??= t;
      return;
    }
    const late = t - reply.playEnd;
    this.lateness.push(Math.max(0, late));
    if (late > UNDERRUN_MS) {
      this.underruns++;
      if (reply.sentenceStart) this.sentenceUnderruns++;
    }
    reply.sentenceStart = false;
    reply.playEnd = Math.max(t, reply.playEnd) + ms;
  }

  /**
   * Transcripts at `now`: `late` = finals that came more than LATE_TRANSCRIPT_MS after
   * user-stopped-speaking or not at all (once that long has passed), `unheard` = turns the VAD
   * never closed though their speech ended more than `stopMs` + LATE_TRANSCRIPT_MS ago.
   */
  transcripts(now, stopMs) {
    let late = 0;
    let unheard = 0;
    const details = [];
    this.utterances.forEach((u, turn) => {
      if (u.vadStopT === undefined) {
        if (now - u.speechEndT > stopMs + LATE_TRANSCRIPT_MS) {
          unheard++;
          details.push({ turn, text: u.text, unheard: true });
        }
        return;
      }
      const waited = (u.finalT ?? now) - u.vadStopT;
      if (waited > LATE_TRANSCRIPT_MS) {
        late++;
        details.push({
          turn,
          text: u.text,
          waited_ms: Math.round(waited),
          final: u.finalT !== undefined,
        });
      }
    });
    return { late, unheard, details };
  }
}
