// The clients of bench/voice-fuzz.bench.mjs: a connection that times every request until its
// answer (a request unanswered after 2 x ANSWER_MS is given up on and counted late), counts the
// errors and closes it gets, and floods audio on demand; `stats` sums it up over all connections.
import { setImmediate } from 'node:timers';
import { WebSocket } from 'ws';
import { clientReady, decodeRtviFrame, encodeRtviFrame } from '@scenaro/sdk/protocol';
import { disconnectBot, validFrame } from './voice-fuzz-input.mjs';

/** Each control request must be answered within this, ms. */
export const ANSWER_MS = 2000;
/** Unanswered requests a connection keeps at most before it waits. */
const MAX_OUTSTANDING = 8;
/** 16 kHz mono PCM16. */
export const BYTES_PER_SECOND = 16_000 * 2;
/** A request sent this soon after its connection began a flood is counted apart. */
const AFTER_FLOOD_MS = 15_000;

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const ERROR_KINDS = [
  ['voice_limit', /listening to as many sessions/],
  ['bad_audio', /^Audio frame not heard/],
  ['shed', /^Audio arrives faster than real time/],
  ['recognizer', /^Speech recognition failed|^Speech input is unavailable/],
  ['bad_frame', /^Undecodable frame|^Invalid RTVI/],
];
/** What the connections saw, all together. */
export const stats = {
  latencies: [],
  late: [],
  lateIds: [],
  answered: 0,
  errors: Object.fromEntries([...ERROR_KINDS.map(([k]) => [k, 0]), ['other', 0]]),
  otherErrors: new Set(),
  /** Most errors of each kind one connection got. */
  maxPerConnection: {},
  closes: {},
  connections: 0,
  /** Requests (answered or given up on) and late ones, sent soon after a flood on their connection or not. */
  byFlood: { after: { requests: 0, late: 0 }, other: { requests: 0, late: 0 } },
  /** Frames of the bot's speech received, final user transcripts received. */
  botAudio: 0,
  finals: 0,
};
let requestId = 0;
let connectionCount = 0;

/** The next number of the requests' ids (one sequence for the whole run). */
export const nextRequestId = () => ++requestId;

/** One WebSocket connection to `url` with its unanswered requests. */
export class Connection {
  constructor(url, latencies = stats.latencies) {
    this.latencies = latencies;
    this.outstanding = new Map();
    this.closed = false;
    this.errorCounts = {};
    /** Frames sent; the frames before the last answered request; when it last flooded. */
    this.frames = 0;
    this.framesAnswered = 0;
    this.floodedAt = undefined;
    this.n = ++connectionCount;
    /** Messages received from the server. */
    this.received = 0;
    this.ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    this.ws.on('message', (data) => this.#receive(new Uint8Array(data)));
    this.ws.on('error', () => {});
    this.ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
      stats.closes[code] = (stats.closes[code] ?? 0) + 1;
    });
  }

  async open() {
    stats.connections++;
    if (this.ws.readyState !== WebSocket.CONNECTING) return this.ws.readyState === WebSocket.OPEN;
    await new Promise((resolve) => {
      this.ws.once('open', resolve);
      this.ws.once('close', resolve);
    });
    return !this.closed;
  }

  #receive(bytes) {
    this.received++;
    const decoded = decodeRtviFrame(bytes);
    if (!decoded.ok) {
      if (decoded.reason === 'not-a-message' && decoded.frame.kind === 'audio') stats.botAudio++;
      return;
    }
    if (decoded.message.type === 'user-transcription' && decoded.message.data?.final) {
      stats.finals++;
    }
    const { id, type, data } = decoded.message;
    if (type === 'error') {
      const text = String(data?.error);
      const kind = ERROR_KINDS.find(([, re]) => re.test(text))?.[0] ?? 'other';
      stats.errors[kind]++;
      if (kind === 'other' && stats.otherErrors.size < 10) stats.otherErrors.add(text);
      this.errorCounts[kind] = (this.errorCounts[kind] ?? 0) + 1;
      stats.maxPerConnection[kind] = Math.max(
        stats.maxPerConnection[kind] ?? 0,
        this.errorCounts[kind],
      );
      return;
    }
    const entry = this.outstanding.get(id);
    if (
      entry !== undefined &&
      (type === 'server-response' || type === 'error-response' || type === 'bot-ready')
    ) {
      this.outstanding.delete(id);
      this.framesAnswered = Math.max(this.framesAnswered, entry.frame);
      const ms = performance.now() - entry.at;
      this.latencies.push(ms);
      stats.answered++;
      stats.byFlood[entry.afterFlood ? 'after' : 'other'].requests++;
      if (ms > ANSWER_MS) {
        stats.late.push(ms);
        stats.byFlood[entry.afterFlood ? 'after' : 'other'].late++;
      }
    }
  }

  send(frame) {
    if (this.closed) return;
    this.ws.send(frame, { binary: true });
    this.frames++;
  }

  request([frame, what], id) {
    const at = performance.now();
    const afterFlood = this.floodedAt !== undefined && at - this.floodedAt < AFTER_FLOOD_MS;
    const entry = { at, what, received: this.received, frame: this.frames, afterFlood };
    this.outstanding.set(id, entry);
    this.send(frame);
  }

  handshake() {
    const id = `ready${nextRequestId()}`;
    this.request([encodeRtviFrame(clientReady(id, { library: 'voice-fuzz' })), 'client-ready'], id);
  }

  /** Wait until the socket has sent most of what is queued. */
  async drain(bytes = 512 * 1024) {
    while (!this.closed && this.ws.bufferedAmount > bytes) await sleep(2);
  }

  /** Wait (at most 2 x ANSWER_MS) for what is owed; count what never came. */
  async settle() {
    const deadline = performance.now() + ANSWER_MS * 2;
    while (!this.closed && this.outstanding.size > 0 && performance.now() < deadline) {
      await sleep(5);
    }
    this.#giveUp(0);
  }

  /** Requests unanswered for longer than `ms` count as late and are forgotten. */
  #giveUp(ms) {
    for (const [id, { at, what, received, frame, afterFlood }] of this.outstanding) {
      if (performance.now() - at > ms) {
        stats.late.push(performance.now() - at);
        stats.byFlood[afterFlood ? 'after' : 'other'].requests++;
        stats.byFlood[afterFlood ? 'after' : 'other'].late++;
        // What was ahead of it on its connection, and whether the server still wrote to it.
        const flooded = afterFlood
          ? `sent ${Math.round(at - this.floodedAt)} ms after a flood began on it`
          : 'no flood before it';
        const closed = this.closed ? `, closed ${this.closeCode}` : '';
        stats.lateIds.push(
          `${id} (${what}, connection ${this.n}, ${flooded}, ${frame - this.framesAnswered} ` +
            `frames sent before it since the last answered request, ${this.received - received} ` +
            `messages received since${closed})`,
        );
        this.outstanding.delete(id);
      }
    }
  }

  /** Wait while MAX_OUTSTANDING requests are unanswered (giving up on any after 2 x ANSWER_MS). */
  async room() {
    while (!this.closed && this.outstanding.size >= MAX_OUTSTANDING) {
      await sleep(1);
      this.#giveUp(ANSWER_MS * 2);
    }
  }

  async leave(how) {
    if (this.closed) return;
    if (how === 'disconnect-bot') this.send(disconnectBot);
    if (how === 'terminate') this.ws.terminate();
    else this.ws.close();
    while (!this.closed) await sleep(5);
  }
}

/**
 * Send `seconds` of audio at once (512-byte frames), as fast as the socket takes it; this
 * process's other connections are read every 32 frames (their latencies are not this loop's).
 */
export async function flood(conn, seconds, count) {
  conn.floodedAt = performance.now();
  const frames = Math.round((seconds * BYTES_PER_SECOND) / 512);
  for (let i = 0; i < frames && !conn.closed; i++) {
    conn.send(validFrame());
    count();
    if (i % 32 === 31) {
      await conn.drain(4 * 1024 * 1024);
      await new Promise((r) => setImmediate(r));
    }
  }
}
