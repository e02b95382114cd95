/**
 * A transport with no wire, for tests: each client lives in the same process, sends RTVI
 * envelopes as JSON text (as a data channel carries them) and frames of audio, and records what
 * the server sends it. It implements the same interfaces as the WebSocket transport, so a
 * BotServer runs real sessions over it.
 */
import { readClientMessage } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import type * as server from '../src/index.js';

/** A transport whose clients are {@link MemoryClient}s. */
export class MemoryTransport implements server.Transport {
  #host: server.TransportHost | undefined;
  /** What the server asked of the transport, in order. */
  readonly calls: string[] = [];

  start(host: server.TransportHost): void {
    this.#host = host;
    this.calls.push('start');
  }

  drain(): void {
    this.calls.push('drain');
  }

  close(): void {
    this.calls.push('close');
  }

  /** Open a connection (`url` as a WebSocket client would give it, e.g. `/?resume=<token>`). */
  connect(url = '/'): MemoryClient {
    if (!this.#host) throw new Error('the transport has not started');
    const client = new MemoryClient(url);
    this.#host.accept(client.connection);
    return client;
  }
}

/** The client end of one in-memory connection. */
export class MemoryClient {
  /** Messages the server sent, in order (each a JSON copy, as over a wire). */
  readonly received: RTVIMessage[] = [];
  /** Frames of audio the server sent. */
  readonly audio: { pcm: Uint8Array; sampleRate: number }[] = [];
  /** How the server closed the connection, once it did. */
  closed: { code: number; reason: string } | undefined;
  readonly connection: server.TransportConnection;
  #receiver: server.ConnectionReceiver | undefined;
  #paused = false;
  readonly #waiting: server.InboundFrame[] = [];
  readonly #listeners = new Set<() => void>();

  constructor(url: string) {
    const info: server.ConnectionInfo = {
      url,
      remoteAddress: 'memory',
      requestId: `memory-${url}`,
    };
    this.connection = {
      info,
      bind: (receiver) => {
        this.#receiver = receiver;
        this.#flush();
      },
      send: (message) => {
        if (this.closed) return false;
        this.received.push(JSON.parse(JSON.stringify(message)) as RTVIMessage);
        this.#notify();
        return true;
      },
      sendAudio: (pcm, sampleRate) => {
        if (!this.closed) this.audio.push({ pcm: pcm.slice(), sampleRate });
        return undefined;
      },
      whenWritable: () => undefined,
      pauseInput: (paused) => {
        this.#paused = paused;
        this.#flush();
      },
      close: (code, reason) => this.#close(code, reason),
      terminate: () => this.#close(1006, ''),
    };
  }

  /** Send one RTVI envelope, as JSON text. */
  send(message: RTVIMessage): void {
    this.#deliver(readClientMessage(JSON.stringify(message)));
  }

  /** Send one frame of audio. */
  sendAudio(audio: Uint8Array, sampleRate: number, numChannels = 1): void {
    this.#deliver({ kind: 'audio', frame: { kind: 'audio', audio, sampleRate, numChannels } });
  }

  /** The first message received (now or later) that `match` accepts. */
  async next(match: (message: RTVIMessage) => boolean, timeoutMs = 5000): Promise<RTVIMessage> {
    return new Promise<RTVIMessage>((resolve, reject) => {
      const check = () => {
        const found = this.received.find(match);
        if (!found) return;
        this.#listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(new Error(`no matching message within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#listeners.add(check);
      check();
    });
  }

  /** The reply (or error) addressed to request `id`. */
  reply(id: string): Promise<RTVIMessage> {
    return this.next((m) => m.id === id && m.type !== 'client-ready');
  }

  #deliver(frame: server.InboundFrame): void {
    if (this.closed) throw new Error('the connection is closed');
    this.#waiting.push(frame);
    this.#flush();
  }

  #flush(): void {
    const receiver = this.#receiver;
    while (receiver && !this.#paused && this.#waiting.length > 0) {
      receiver.frame(this.#waiting.shift()!);
    }
  }

  #close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = { code, reason };
    this.#notify();
    const receiver = this.#receiver;
    // As a socket reports its close: after the call that closed it.
    if (receiver) queueMicrotask(() => receiver.closed(code));
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
