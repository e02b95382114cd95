// The Node Pipecat client's microphone, speaker and event log against a plain `ws` server that
// speaks our frames: mic PCM arrives as the real websocket transport's AudioRawFrames, 24 kHz
// frames sent back reach the speaker sample for sample, and events are kept in arrival order.
import type { AddressInfo } from 'node:net';
import {
  botReady,
  decodeFrame,
  encodeFrame,
  encodeRtviFrame,
  serverEvent,
} from '@scenaro/sdk/protocol';
import type { AudioFrameValue, PipecatFrame, ServerToClientType } from '@scenaro/sdk/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { connectPipecatClient, pollUntil } from '../src/testing/index.js';
import type { ConnectedClient, PipecatConnectOptions } from '../src/testing/index.js';

/** A server that answers client-ready and records every audio frame it gets. */
interface EchoServer {
  url: string;
  audio: AudioFrameValue[];
  socket(): WebSocket;
  sendAudio(samples: Int16Array, sampleRate?: number): void;
  sendEvent(type: ServerToClientType, data?: unknown): void;
  close(): Promise<void>;
}

async function startEchoServer(): Promise<EchoServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const audio: AudioFrameValue[] = [];
  let current: WebSocket | undefined;
  wss.on('connection', (ws) => {
    current = ws;
    ws.on('message', (data: Buffer) => {
      const frame: PipecatFrame = decodeFrame(new Uint8Array(data));
      if (frame.kind === 'audio') audio.push(frame);
      if (frame.kind !== 'message') return;
      const message = JSON.parse(frame.data) as { type: string; id: string };
      if (message.type === 'client-ready') ws.send(encodeRtviFrame(botReady(message.id, '2.1.0')));
    });
  });
  const socket = (): WebSocket => {
    if (!current) throw new Error('no client connected');
    return current;
  };
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    audio,
    socket,
    sendAudio(samples, sampleRate = 24_000) {
      const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
      socket().send(encodeFrame({ kind: 'audio', audio: bytes, sampleRate, numChannels: 1 }));
    },
    sendEvent(type, data) {
      socket().send(encodeRtviFrame(serverEvent(type, data as never)));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A ramp that never repeats within 32k samples, so any misplaced sample shows. */
function ramp(length: number, from = 1): Int16Array {
  return Int16Array.from({ length }, (_, i) => ((from + i) % 32_000) - 16_000);
}

function samplesOf(frames: AudioFrameValue[]): Int16Array {
  const bytes = new Uint8Array(frames.reduce((sum, f) => sum + f.audio.length, 0));
  let offset = 0;
  for (const f of frames) {
    bytes.set(f.audio, offset);
    offset += f.audio.length;
  }
  return new Int16Array(bytes.buffer);
}

let server: EchoServer;
let bot: ConnectedClient | undefined;

async function connect(options: PipecatConnectOptions = {}): Promise<ConnectedClient> {
  server = await startEchoServer();
  bot = await connectPipecatClient(server.url, options);
  return bot;
}

afterEach(async () => {
  await bot?.disconnect();
  bot = undefined;
  await server?.close();
});

describe('Node Pipecat client microphone', () => {
  it('sends nothing when no mic is asked for', async () => {
    const client = await connect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.media.isMicEnabled).toBe(false);
    expect(server.audio).toEqual([]);
  });

  it('sends played PCM as the transport frames it: 16 kHz mono, 512-byte chunks', async () => {
    const client = await connect({ mic: { pace: 'fast' } });
    const pcm = ramp(16_000); // 1 s: 62 full chunks and a 128-sample tail
    await client.mic.play(pcm);
    await pollUntil(() => server.audio.length === 62, '62 audio frames');
    for (const frame of server.audio) {
      expect(frame).toMatchObject({
        kind: 'audio',
        name: 'audio',
        sampleRate: 16_000,
        numChannels: 1,
      });
      expect(frame.id).toBeUndefined();
      expect(frame.audio.length).toBe(512);
    }
    expect(samplesOf(server.audio)).toEqual(pcm.subarray(0, 62 * 256));
    expect(client.mic.queuedSamples).toBe(128);
    client.mic.flush();
    await pollUntil(() => server.audio.length === 63, 'the tail');
    expect(server.audio[62]?.audio.length).toBe(256);
    expect(samplesOf(server.audio)).toEqual(pcm);
    expect(client.mic.chunks.every((c) => c.voiced && c.delivered)).toBe(true);
  });

  it('in real time sends silence continuously and paces played audio at 16 ms a chunk', async () => {
    const client = await connect({ mic: { pace: 'realtime' } });
    await pollUntil(() => server.audio.length >= 5, 'idle mic chunks');
    expect(server.audio.every((f) => f.audio.length === 512)).toBe(true);
    expect(samplesOf(server.audio).every((s) => s === 0)).toBe(true);
    const pcm = ramp(16 * 256); // 16 chunks, 256 ms
    // a blocked event loop leaves the mic clock behind; catching up must not speed the audio up
    const blockedUntil = performance.now() + 120;
    while (performance.now() < blockedUntil);
    const started = performance.now();
    await client.mic.play(pcm);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15 * 16);
    await client.mic.silence(64);
    await pollUntil(() => client.mic.sentSamples <= samplesOf(server.audio).length, 'delivery');
    const received = samplesOf(server.audio);
    const first = received.indexOf(pcm[0] as number);
    expect(first % 256).toBe(0);
    expect(received.subarray(first, first + pcm.length)).toEqual(pcm);
    expect(received.subarray(first + pcm.length).every((s) => s === 0)).toBe(true);
    expect(client.mic.chunks.filter((c) => c.voiced)).toHaveLength(16);
  });

  it('drops chunks while the mic is disabled', async () => {
    const client = await connect({ mic: { pace: 'fast' } });
    client.client.enableMic(false);
    await client.mic.play(ramp(512));
    client.client.enableMic(true);
    await client.mic.play(ramp(256, 9));
    await pollUntil(() => server.audio.length === 1, 'one frame');
    expect(samplesOf(server.audio)).toEqual(ramp(256, 9));
    expect(client.mic.chunks.map((c) => c.delivered)).toEqual([false, false, true]);
  });
});

describe('Node Pipecat client speaker', () => {
  it('records 24 kHz frames sample for sample, with the wire format and arrival times', async () => {
    const client = await connect();
    const chunks = [ramp(960), ramp(960, 961), ramp(480, 1921)];
    for (const chunk of chunks) server.sendAudio(chunk);
    await pollUntil(() => client.speaker.chunks.length === 3, 'three chunks');
    expect(client.speaker.sampleRate).toBe(24_000);
    expect(client.speaker.pcm()).toEqual(ramp(2400));
    expect(client.speaker.durationMs()).toBeCloseTo(100);
    const [a, b, c] = client.speaker.chunks;
    for (const chunk of client.speaker.chunks) {
      expect(chunk.wire).toEqual({ sampleRate: 24_000, numChannels: 1 });
      expect(chunk.segment).toBe(0);
    }
    expect(a!.at).toBeLessThanOrEqual(b!.at);
    expect(b!.at).toBeLessThanOrEqual(c!.at);
    // played back to back: each chunk starts when the one before it ends
    expect(b!.startsAt).toBeCloseTo(a!.endsAt);
    expect(c!.endsAt - a!.startsAt).toBeCloseTo(100);
  });

  it('keeps the frame rate it was told next to the rate it plays at', async () => {
    const client = await connect();
    server.sendAudio(ramp(320), 16_000);
    await pollUntil(() => client.speaker.chunks.length === 1, 'one chunk');
    expect(client.speaker.chunks[0]?.wire).toEqual({ sampleRate: 16_000, numChannels: 1 });
    expect(client.speaker.durationMs()).toBeCloseTo((320 * 1000) / 24_000);
  });

  it('does not flush on user-started-speaking unless asked (the transport never does)', async () => {
    const client = await connect();
    server.sendAudio(ramp(24_000));
    server.sendEvent('user-started-speaking');
    await client.waitForMessage('user-started-speaking');
    expect(client.speaker.flushes).toEqual([]);
    expect(client.speaker.queuedSamples()).toBeGreaterThan(0);
  });
});

describe('Node Pipecat client events and barge-in', () => {
  it('records RTVI messages and callbacks in order and splits audio at the flush', async () => {
    const client = await connect({ flushSpeakerOn: ['user-started-speaking'] });
    const from = client.messages.length;
    server.sendEvent('bot-started-speaking');
    server.sendEvent('bot-tts-started');
    server.sendEvent('bot-tts-text', { text: 'Hello' });
    server.sendAudio(ramp(24_000)); // 1 s, far more than plays before the cut
    await pollUntil(() => client.speaker.chunks.length === 1, 'bot audio');
    server.sendEvent('user-started-speaking');
    server.sendEvent('bot-interrupted');
    await client.waitForMessage('bot-interrupted', { from });
    server.sendAudio(ramp(480, 5));
    server.sendEvent('bot-tts-stopped');
    server.sendEvent('bot-stopped-speaking');
    server.sendEvent('user-stopped-speaking');
    server.sendEvent('user-transcription', {
      text: 'wait',
      final: true,
      timestamp: '2026-01-01T00:00:00.000Z',
      user_id: 'user',
    });
    server.sendEvent('bot-output', { text: 'Hello', spoken: true, aggregated_by: 'sentence' });
    server.sendEvent('metrics', { ttfb: [{ processor: 'tts', value: 0.1 }] });
    await client.waitForMessage('metrics', { from });

    expect(client.messages.slice(from).map((m) => m.type)).toEqual([
      'bot-started-speaking',
      'bot-tts-started',
      'bot-tts-text',
      'user-started-speaking',
      'bot-interrupted',
      'bot-tts-stopped',
      'bot-stopped-speaking',
      'user-stopped-speaking',
      'user-transcription',
      'bot-output',
      'metrics',
    ]);
    const times = client.messages.map((m) => m.at);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    const names = client.timeline.map((c) => c.name).filter((n) => n !== 'onBotReady');
    expect(names).toEqual([
      'onBotStartedSpeaking',
      'onBotTtsStarted',
      'onBotTtsText',
      'onUserStartedSpeaking',
      'onBotTtsStopped',
      'onBotStoppedSpeaking',
      'onUserStoppedSpeaking',
      'onUserTranscript',
      'onBotOutput',
      'onMetrics',
    ]);
    expect(client.timeline.find((c) => c.name === 'onUserTranscript')?.data).toMatchObject({
      text: 'wait',
      final: true,
    });

    const { speaker } = client;
    expect(speaker.flushes).toHaveLength(1);
    expect(speaker.flushes[0]?.reason).toBe('user-started-speaking');
    expect(speaker.flushes[0]?.droppedSamples).toBeGreaterThan(12_000);
    expect(speaker.pcm(0)).toEqual(ramp(24_000));
    expect(speaker.pcm(1)).toEqual(ramp(480, 5));
    expect(speaker.chunksOf(1)[0]?.startsAt).toBeGreaterThanOrEqual(speaker.flushes[0]!.at);
  });

  it('flushes on bot-interrupted when asked', async () => {
    const client = await connect({ flushSpeakerOn: ['bot-interrupted'] });
    server.sendAudio(ramp(24_000));
    server.sendEvent('user-started-speaking');
    server.sendEvent('bot-interrupted');
    await client.waitForMessage('bot-interrupted');
    expect(client.speaker.flushes.map((f) => f.reason)).toEqual(['bot-interrupted']);
  });

  it('times out waiting for a message that never comes', async () => {
    const client = await connect();
    await expect(client.waitForMessage('bot-output', { timeoutMs: 50 })).rejects.toThrow(
      /bot-output/,
    );
  });
});
