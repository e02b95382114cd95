/**
 * Prometheus metrics of a bot server (prom-client), every name prefixed `scenaro_`. The server
 * reports what crosses its sockets (frames, audio, connections, refusals) and the messages it
 * sends and receives; the rest is read from those messages in one place: control-plane latency
 * from a request to its reply, the STT / LLM / TTS time to first byte from the RTVI `metrics`
 * events the session sends, turn outcomes from `turn-complete` pushes.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LabelValues } from 'prom-client';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

/** What a voice session reports to the server's metrics. */
export type VoiceEvent = 'voice_limit' | 'bad_audio' | 'audio_shed_seconds' | 'early_audio';

/** What the server tells its metrics about itself when they are scraped. */
export interface MetricsSource {
  /** Sessions with a connection. */
  connectedSessions(): number;
  /** Sessions waiting for their client to come back. */
  waitingSessions(): number;
  /** True once the server has begun to shut down. */
  draining(): boolean;
  /** Listening sessions and their cap (servers with a voice). */
  voiceSessions?(): { used: number; max: number };
}

/** Why an upgrade was refused (the `reason` label of `scenaro_connections_refused_total`). */
export type RefusalReason = 'draining' | 'connection_limit' | 'origin' | 'unauthorized';

/** The `kind` label of `scenaro_errors_total`. */
export type ErrorKind =
  | 'request_failed'
  | 'error_event'
  | 'bad_frame'
  | 'socket'
  | 'slow_reader'
  | 'session_limit'
  | 'session_setup'
  | 'internal'
  | 'voice_limit'
  | 'bad_audio';

/** The `kind` label of the frame counters. */
export type FrameKind = 'message' | 'audio' | 'other';

const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TTFB_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];
/** Requests timed per session at once; older ones stop being timed past this. */
const MAX_TIMED_REQUESTS = 1024;
/** Replies that end a timed request without an error. */
const REPLIES = new Set(['server-response', 'bot-ready']);

/** A metric's name, help text and label names. */
interface MetricSpec<L extends string = string> {
  name: string;
  help: string;
  labelNames: readonly L[];
}

/**
 * The server's metrics, in the order they are exposed; the time-to-first-byte histograms
 * (`scenaro_<stage>_ttfb_seconds`) come after `audioOut`.
 */
const METRICS = {
  sessions: {
    name: 'scenaro_sessions',
    help: 'Sessions, by state: connected, or waiting for their client to reconnect',
    labelNames: ['state'],
  },
  draining: {
    name: 'scenaro_draining',
    help: '1 while the server is shutting down (not ready), else 0',
    labelNames: [],
  },
  connections: {
    name: 'scenaro_connections_total',
    help: 'WebSocket connections accepted, by outcome: new session, or resumed session',
    labelNames: ['outcome'],
  },
  refused: {
    name: 'scenaro_connections_refused_total',
    help: 'WebSocket upgrades refused, by reason',
    labelNames: ['reason'],
  },
  requests: {
    name: 'scenaro_control_requests_total',
    help: 'Control-plane requests answered, by message type and outcome (ok, error)',
    labelNames: ['type', 'outcome'],
  },
  requestSeconds: {
    name: 'scenaro_control_request_duration_seconds',
    help: 'Time from a control-plane request to its reply, by message type',
    labelNames: ['type'],
  },
  framesIn: {
    name: 'scenaro_frames_received_total',
    help: 'Frames received, by kind (message, audio, other)',
    labelNames: ['kind'],
  },
  framesOut: {
    name: 'scenaro_frames_sent_total',
    help: 'Frames sent, by kind (message, audio)',
    labelNames: ['kind'],
  },
  audioIn: {
    name: 'scenaro_audio_received_seconds_total',
    help: "Seconds of the users' audio received",
    labelNames: [],
  },
  audioOut: {
    name: 'scenaro_audio_sent_seconds_total',
    help: "Seconds of the bots' speech sent",
    labelNames: [],
  },
  turns: {
    name: 'scenaro_turns_total',
    help: 'Bot turns ended, by outcome (completed, interrupted, failed)',
    labelNames: ['outcome'],
  },
  errors: { name: 'scenaro_errors_total', help: 'Errors, by kind', labelNames: ['kind'] },
  audioShed: {
    name: 'scenaro_audio_dropped_seconds_total',
    help: "Seconds of the users' audio dropped because it arrived faster than it could be heard",
    labelNames: [],
  },
  earlyAudio: {
    name: 'scenaro_audio_before_ready_frames_total',
    help: 'Audio frames received before the handshake (not heard)',
    labelNames: [],
  },
  voiceSessions: {
    name: 'scenaro_voice_sessions',
    help: 'Sessions listening (each with its own recognizer), and the most allowed at once',
    labelNames: ['state'],
  },
} as const satisfies Record<string, MetricSpec>;

/**
 * A counter counted on every frame (frames, seconds of audio): the counts are summed in plain
 * numbers and added to the counter when the metrics are read, so a frame costs a map update,
 * not prom-client's label hashing (a client flooding audio sends tens of thousands of frames a
 * second). Its one label's value is given with each count ('' for a counter without labels).
 */
class Tally<L extends string = never> {
  readonly #pending = new Map<string, number>();

  constructor(spec: MetricSpec<L>, registers: Registry[]) {
    const pending = this.#pending;
    const [label] = spec.labelNames;
    new Counter<L>({
      ...spec,
      registers,
      collect() {
        for (const [value, n] of pending) {
          if (label === undefined) this.inc(n);
          else this.inc({ [label]: value } as LabelValues<L>, n);
        }
        pending.clear();
      },
    });
  }

  /** Count `n` (1 unless given) under the label value `value`. */
  add(value: string, n = 1): void {
    this.#pending.set(value, (this.#pending.get(value) ?? 0) + n);
  }
}

let processRegistry: Registry | undefined;

/** Process metrics (CPU, memory, event loop, GC), collected once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'scenaro_' });
  }
  return processRegistry;
}

interface TimedRequest {
  type: string;
  started: number;
}

/** One server's metrics. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #timed = new WeakMap<object, Map<string, TimedRequest>>();
  readonly #connections: Counter<'outcome'>;
  readonly #refused: Counter<'reason'>;
  readonly #requests: Counter<'type' | 'outcome'>;
  readonly #requestSeconds: Histogram<'type'>;
  readonly #framesIn: Tally<'kind'>;
  readonly #framesOut: Tally<'kind'>;
  readonly #audioIn: Tally;
  readonly #audioOut: Tally;
  readonly #ttfb: Record<'stt' | 'llm' | 'tts', Histogram<'processor'>>;
  readonly #turns: Counter<'outcome'>;
  readonly #errors: Counter<'kind'>;
  readonly #audioShed: Tally;
  readonly #earlyAudio: Tally;

  constructor(source: MetricsSource) {
    const registers = [this.registry];
    const counter = <L extends string>(spec: MetricSpec<L>) =>
      new Counter<L>({ ...spec, registers });
    new Gauge({
      ...METRICS.sessions,
      registers,
      collect() {
        this.set({ state: 'connected' }, source.connectedSessions());
        this.set({ state: 'waiting' }, source.waitingSessions());
      },
    });
    new Gauge({
      ...METRICS.draining,
      registers,
      collect() {
        this.set(source.draining() ? 1 : 0);
      },
    });
    this.#connections = counter(METRICS.connections);
    this.#refused = counter(METRICS.refused);
    this.#requests = counter(METRICS.requests);
    this.#requestSeconds = new Histogram({
      ...METRICS.requestSeconds,
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#framesIn = new Tally(METRICS.framesIn, registers);
    this.#framesOut = new Tally(METRICS.framesOut, registers);
    this.#audioIn = new Tally(METRICS.audioIn, registers);
    this.#audioOut = new Tally(METRICS.audioOut, registers);
    const ttfb = (stage: string, what: string) =>
      new Histogram({
        name: `scenaro_${stage}_ttfb_seconds`,
        help: `${what} time to first byte, by processor`,
        labelNames: ['processor'] as const,
        buckets: TTFB_BUCKETS,
        registers,
      });
    this.#ttfb = {
      stt: ttfb('stt', 'Speech to text (end of speech to final transcript)'),
      llm: ttfb('llm', 'LLM (request to first streamed token)'),
      tts: ttfb('tts', 'Text to speech (sentence to first audio)'),
    };
    this.#turns = counter(METRICS.turns);
    this.#errors = counter(METRICS.errors);
    this.#audioShed = new Tally(METRICS.audioShed, registers);
    this.#earlyAudio = new Tally(METRICS.earlyAudio, registers);
    if (source.voiceSessions) {
      const voiceSessions = source.voiceSessions;
      new Gauge({
        ...METRICS.voiceSessions,
        registers,
        collect() {
          const { used, max } = voiceSessions();
          this.set({ state: 'listening' }, used);
          this.set({ state: 'max' }, Number.isFinite(max) ? max : -1);
        },
      });
    }
  }

  /** The Prometheus text exposition: this server's metrics, then the process's. */
  async text(): Promise<string> {
    return (await this.registry.metrics()) + (await processMetrics().metrics());
  }

  /** The content type of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  connectionAccepted(resumed: boolean): void {
    this.#connections.inc({ outcome: resumed ? 'resumed' : 'new' });
  }

  connectionRefused(reason: RefusalReason): void {
    this.#refused.inc({ reason });
  }

  error(kind: ErrorKind): void {
    this.#errors.inc({ kind });
  }

  /** A frame arrived (`audio`: its samples, to count seconds of audio). */
  frameReceived(
    kind: FrameKind,
    audio?: { audio: Uint8Array; sampleRate: number; numChannels: number },
  ): void {
    this.#framesIn.add(kind);
    if (!audio) return;
    // Counted as declared: a frame that declares no channels or no rate counts as no audio.
    const seconds = audio.audio.byteLength / 2 / audio.sampleRate / audio.numChannels;
    if (Number.isFinite(seconds) && seconds > 0) this.#audioIn.add('', seconds);
  }

  /**
   * A voice session's event: audio dropped (`amount` seconds, it came faster than it could be
   * heard), audio before the handshake, a refused listener or a frame that cannot be audio.
   */
  voice(event: VoiceEvent, amount = 1): void {
    if (event === 'audio_shed_seconds') {
      if (Number.isFinite(amount) && amount > 0) this.#audioShed.add('', amount);
    } else if (event === 'early_audio') this.#earlyAudio.add('');
    else this.error(event);
  }

  /** A mono PCM16 frame of speech was sent. */
  audioSent(bytes: number, sampleRate: number): void {
    this.#framesOut.add('audio');
    if (sampleRate > 0) this.#audioOut.add('', bytes / 2 / sampleRate);
  }

  /** `session` was sent request `id` of `type` (a control message, `client-ready`): time it. */
  requestReceived(session: object, id: string, type: string): void {
    let timed = this.#timed.get(session);
    if (!timed) this.#timed.set(session, (timed = new Map()));
    if (timed.size >= MAX_TIMED_REQUESTS) {
      const oldest = timed.keys().next().value;
      if (oldest !== undefined) timed.delete(oldest);
    }
    timed.set(id, { type, started: performance.now() });
  }

  /** `session` (if any) sent `message` to its client. */
  messageSent(session: object | undefined, message: RTVIMessage): void {
    this.#framesOut.add('message');
    const { type, id } = message;
    if (type === 'error') this.error('error_event');
    else if (type === 'metrics') this.#observeTtfb(message.data);
    else if (type === 'server-message') this.#observeTurn(message.data);
    if (session === undefined || id === undefined) return;
    const timed = this.#timed.get(session);
    const request = timed?.get(id);
    if (!request || !(REPLIES.has(type) || type === 'error-response')) return;
    timed?.delete(id);
    const outcome = type === 'error-response' ? 'error' : 'ok';
    if (outcome === 'error') this.error('request_failed');
    this.#requests.inc({ type: request.type, outcome });
    this.#requestSeconds.observe(
      { type: request.type },
      (performance.now() - request.started) / 1000,
    );
  }

  #observeTtfb(data: unknown): void {
    const entries = (data as { ttfb?: unknown } | undefined)?.ttfb;
    if (!Array.isArray(entries)) return;
    for (const entry of entries as { processor?: unknown; model?: unknown; value?: unknown }[]) {
      const { processor, value } = entry;
      if (typeof processor !== 'string' || typeof value !== 'number') continue;
      const stage = processor.endsWith('-stt')
        ? 'stt'
        : processor.endsWith('-tts')
          ? 'tts'
          : entry.model !== undefined
            ? 'llm'
            : undefined;
      if (stage) this.#ttfb[stage].observe({ processor }, value);
    }
  }

  #observeTurn(data: unknown): void {
    const push = data as { type?: unknown; interrupted?: unknown; error?: unknown } | undefined;
    if (push?.type !== 'turn-complete') return;
    const outcome = push.error ? 'failed' : push.interrupted ? 'interrupted' : 'completed';
    this.#turns.inc({ outcome });
  }
}
