/**
 * The voice server under hostile audio, over real sockets: a frame no audio can be (no channels,
 * no rate) is answered with an error and ends nothing; an exception while handling one session's
 * frame is answered, counted and ends nothing; listening sessions are capped and none starts
 * before its handshake; a flood of audio is bounded (a real-time client loses its oldest audio,
 * said once; a fast-clock client is held back and loses nothing).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '@scenaro/sdk/protocol';
import { createPocketsphinxSpeechToText } from '../src/voice/index.js';
import type { BotServer, BotServerOptions } from '../src/index.js';
import type { SpeechToText, SttSession } from '../src/voice/index.js';
import { RtviClient, metricValue, scrapeMetrics } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';
import { execFileSync } from 'node:child_process';
import {
  echoConversation,
  finalTranscripts,
  pocketsphinxMissing,
  sendStream,
  silence,
  speak,
  userTts,
} from './voice-fixtures.js';

const missing = await pocketsphinxMissing('the hostile-audio tests');
const runs = missing === undefined || process.env['CI'] === 'true';

function errors(client: RtviClient): string[] {
  return client.messages
    .filter((m) => m.type === 'error')
    .map((m) => (m.data as { error: string }).error);
}

async function metric(server: BotServer, name: string, labels: Record<string, string> = {}) {
  const { text } = await scrapeMetrics(server.metricsUrl);
  return metricValue(text, name, labels) ?? 0;
}

/**
 * The real recognizer, counting the sessions it opens; `readMs` makes it a recognizer that takes
 * that long to read each piece of audio (a slow machine), so its back-pressure reaches the queue.
 */
function countingStt(readMs = 0): { stt: SpeechToText; opened: () => number } {
  const real = createPocketsphinxSpeechToText({ poolSize: 0 });
  let opened = 0;
  return {
    opened: () => opened,
    stt: {
      ...real,
      openSession: async () => {
        opened++;
        const session = await real.openSession();
        if (readMs === 0) return session;
        const slow: SttSession = {
          sampleRate: session.sampleRate,
          get samples() {
            return session.samples;
          },
          write: async (pcm) => {
            await new Promise((resolve) => setTimeout(resolve, readMs));
            await session.write(pcm);
          },
          startUtterance: (sample) => session.startUtterance(sample),
          endUtterance: (sample) => session.endUtterance(sample),
          onTranscript: (listener) => session.onTranscript(listener),
          close: () => session.close(),
        };
        return slow;
      },
    },
  };
}

describe.skipIf(!runs)('voice under hostile audio', () => {
  const servers: BotServer[] = [];
  const clients: RtviClient[] = [];
  let counting: ReturnType<typeof countingStt>;

  async function serve(options: BotServerOptions = {}, readMs = 0): Promise<BotServer> {
    counting = countingStt(readMs);
    const server = await listenTestServer({
      conversation: echoConversation,
      voice: { stt: counting.stt, pacing: 'realtime', vad: { stopMs: 600 } },
      ...options,
    });
    servers.push(server);
    return server;
  }

  async function connect(server: BotServer, handshake = true): Promise<RtviClient> {
    const client = await RtviClient.connect(server.url);
    clients.push(client);
    if (handshake) await client.handshake();
    return client;
  }

  beforeAll(() => {
    if (missing) throw missing; // under CI the engine must be installed
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const server of servers.splice(0)) {
      await server.close();
      await counting.stt.close?.();
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('answers frames no audio can be, before and after the handshake, and keeps serving', async () => {
    const server = await serve();
    const other = await connect(server);
    const hostile = await connect(server, false);
    const bad = [
      { audio: new Uint8Array(512), sampleRate: 16_000, numChannels: 0 },
      { audio: new Uint8Array(512), sampleRate: 0, numChannels: 1 },
      { audio: new Uint8Array(511), sampleRate: 16_000, numChannels: 1 },
      { audio: new Uint8Array(512), sampleRate: 16_000, numChannels: 4096 },
    ];
    for (const frame of bad) hostile.sendRaw(encodeFrame({ kind: 'audio', ...frame }));
    await hostile.handshake();
    for (const frame of bad) hostile.sendRaw(encodeFrame({ kind: 'audio', ...frame }));
    await hostile.until(() => errors(hostile).length > 0, 'an error');
    await hostile.request('ping-unknown').catch(() => undefined); // a round trip: all frames read
    expect(errors(hostile)).toEqual([
      'Audio frame not heard: audio frame num_channels must be 1 to 8, got 0',
    ]);
    expect(hostile.isOpen).toBe(true);
    expect(other.isOpen).toBe(true);
    await other.request('get-db-hash').catch(() => undefined);
    expect(await metric(server, 'scenaro_errors_total', { kind: 'bad_audio' })).toBe(4);
    expect(await metric(server, 'scenaro_audio_before_ready_frames_total')).toBe(4);
    expect(counting.opened()).toBe(0);
  });

  it('answers a frame whose handling throws, counts it and keeps the process and sessions', async () => {
    const server = await serve({
      onSession: (session) => {
        session.audio = () => {
          throw new Error('a fault in the audio path');
        };
      },
    });
    const other = await connect(server);
    const client = await connect(server);
    client.sendAudio(new Uint8Array(512));
    await client.until(() => errors(client).length > 0, 'an error');
    expect(errors(client)).toEqual(['The server failed to handle that frame; it was dropped.']);
    expect(client.isOpen && other.isOpen).toBe(true);
    expect(await metric(server, 'scenaro_errors_total', { kind: 'internal' })).toBe(1);
    const again = await connect(server);
    expect(again.isOpen).toBe(true);
  });

  it('caps listening sessions, starts none before the handshake, and frees a place when one ends', async () => {
    // A session that loses its connection ends at once (no wait for a resume), giving its place back.
    const server = await serve({ maxVoiceSessions: 2, resumeGraceMs: 0 });
    const silent = await connect(server, false);
    sendStream(silent, silence(320));
    const listeners = [await connect(server), await connect(server), await connect(server)];
    for (const client of listeners) sendStream(client, silence(320));
    const refused = listeners[2]!;
    await refused.until(() => errors(refused).length > 0, 'the refusal');
    expect(errors(refused)[0]).toMatch(/listening to as many sessions as it can \(2\)/);
    for (const client of listeners.slice(0, 2)) {
      await client.request('get-db-hash').catch(() => undefined);
      expect(errors(client)).toEqual([]);
    }
    expect(counting.opened()).toBe(2);
    sendStream(refused, silence(320)); // still no place: not told again
    await refused.request('get-db-hash').catch(() => undefined);
    expect(errors(refused)).toHaveLength(1);
    expect(await metric(server, 'scenaro_voice_sessions', { state: 'listening' })).toBe(2);
    expect(await metric(server, 'scenaro_errors_total', { kind: 'voice_limit' })).toBe(1);

    await listeners[0]!.close();
    await waitUntil(
      async () => (await metric(server, 'scenaro_voice_sessions', { state: 'listening' })) < 2,
    );
    sendStream(refused, silence(320));
    await waitUntil(() => counting.opened() === 3);
    expect(await metric(server, 'scenaro_voice_sessions', { state: 'max' })).toBe(2);
  });

  it('replaces a recognizer killed mid-utterance, says so once, and keeps hearing', async () => {
    const tts = userTts();
    try {
      const server = await serve();
      const client = await connect(server);
      const first = await speak(tts, 'I would like to cancel my reservation.');
      sendStream(client, silence(500), first, silence(1500));
      await client.until(
        () => finalTranscripts(client).length === 1,
        'the first transcript',
        30_000,
      );
      const [pid] = recognizerPids();
      expect(pid).toBeDefined();
      sendStream(client, silence(300), first.subarray(0, first.length / 2));
      await server.sessions[0]!.voice!.heard();
      process.kill(pid!, 'SIGKILL');
      sendStream(client, first.subarray(first.length / 2), silence(1500));
      const again = await speak(tts, 'What is the status of my order?');
      sendStream(client, again, silence(1500));
      // Hearing again: a transcript with words after the first (what PocketSphinx makes of the
      // words is not the point here, and it varies with its dither).
      await client.until(
        () =>
          finalTranscripts(client)
            .slice(1)
            .some((text) => text.trim() !== ''),
        'hearing again',
        30_000,
      );
      expect(errors(client).filter((e) => /recogni|PocketSphinx/i.test(e))).toHaveLength(1);
      expect(recognizerPids()).toHaveLength(1);
      expect(recognizerPids()[0]).not.toBe(pid);
    } finally {
      await tts.close();
    }
  });

  it('ends the utterance a lost connection broke off, so the resumed session does not glue it to the next', async () => {
    const tts = userTts();
    try {
      const server = await serve();
      const first = await connect(server);
      const token = (first.botReady as { session?: { resume_token?: string } } | undefined)?.session
        ?.resume_token;
      expect(token).toBeDefined();
      sendStream(first, silence(500), await speak(tts, 'I want to change'));
      await first.request('get-db-hash').catch(() => undefined); // every frame before it is read
      const session = server.sessions[0]!;
      await session.voice!.heard();
      first.terminate();
      const again = await RtviClient.connect(`${server.url}/?resume=${encodeURIComponent(token!)}`);
      clients.push(again);
      await again.handshake();
      sendStream(again, await speak(tts, 'What is the status of my order?'), silence(1500));
      const said = () =>
        session.context
          .messages()
          .filter((m) => m.role === 'user')
          .map((m) => m.content);
      await waitUntil(() => said().some((t) => /status|order/.test(t)), 30_000);
      expect(said()).toHaveLength(2);
      expect(said()[0]).toMatch(/change/);
      expect(said()[0]).not.toMatch(/status|order/);
      expect(said()[1]).not.toMatch(/change/);
    } finally {
      await tts.close();
    }
  });

  it('drops the oldest audio of a real-time client that floods, and says so once', async () => {
    const server = await serve({ audioBacklog: { maxMs: 2000 } }, 2);
    const client = await connect(server);
    sendStream(client, silence(30_000));
    await client.until(() => errors(client).length > 0, 'the flood notice', 20_000);
    await server.sessions[0]!.voice!.heard();
    sendStream(client, silence(30_000));
    await client.request('get-db-hash').catch(() => undefined);
    await server.sessions[0]!.voice!.heard();
    expect(errors(client)).toEqual([
      'Audio arrives faster than real time, more than the bot can hear: the oldest audio is dropped (said once).',
    ]);
    const dropped = await metric(server, 'scenaro_audio_dropped_seconds_total');
    expect(dropped).toBeGreaterThan(0);
    expect(dropped).toBeLessThanOrEqual(60);
  });

  it('holds back a fast-clock client that floods and hears all of its audio', async () => {
    const server = await serve({ audioBacklog: { maxMs: 2000 } }, 2);
    const client = await connect(server);
    server.sessions[0]!.voice!.setPacing('fast');
    sendStream(client, silence(30_000));
    await client.request('get-db-hash', undefined, { timeoutMs: 60_000 }).catch(() => undefined);
    await server.sessions[0]!.voice!.heard();
    expect(errors(client)).toEqual([]);
    expect(await metric(server, 'scenaro_audio_dropped_seconds_total')).toBe(0);
    expect(await metric(server, 'scenaro_audio_received_seconds_total')).toBeCloseTo(30, 1);
  });
});

/** Pids of the processes whose parent is one of `parents` and whose command line matches. */
function childPids(parents: number[], pattern?: string): number[] {
  if (parents.length === 0) return [];
  const args = ['-P', parents.join(','), ...(pattern ? ['-f', pattern] : [])];
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Pids of the recognizers this process had started (by its launcher: the pool is off). */
function recognizerPids(): number[] {
  return childPids(childPids([process.pid]), 'pocketsphinx_continuous');
}

async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
