// The RTVI voice surface: the real PipecatClient + WebSocketTransport (with the Node shims)
// against a test bot sending the voice events a voice bot sends, and a scripted client double
// for the microphone, mute and barge-in inference paths.
import type { PipecatClient } from '@pipecat-ai/client-js';
import type { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverEvent } from '../protocol/index.js';
import { createPipecatNodeClient } from '../pipecat-node/index.js';
import { usePipecatNodeInEachSuite } from '../test-support/pipecat-suite.js';
import { TestBot } from '../test-support/rtvi-test-bot.js';
import { ScriptedEmitter } from '../test-support/scripted-emitter.js';
import type { VoiceEvents } from '../voice/types.js';
import { tapRtviMessages } from './rtvi-message-tap.js';
import type { RtviTransportLike } from './rtvi-message-tap.js';
import { createRtviVoice } from './rtvi-voice.js';
import type { RtviVoice, RtviVoiceClientLike } from './rtvi-voice.js';

// Compile-time proof that a real PipecatClient and its WebSocket transport fit.
const clientFits: (client: PipecatClient) => RtviVoiceClientLike = (client) => client;
const transportFits: (transport: WebSocketTransport) => RtviTransportLike = (t) => t;
void clientFits;
void transportFits;

/** Record every voice event, as `name` or `name:detail`. */
function record(voice: RtviVoice): string[] {
  const seen: string[] = [];
  const names: (keyof VoiceEvents)[] = [
    'user-speaking',
    'bot-speaking',
    'transcript',
    'bot-speech',
    'bot-interrupted',
    'error',
  ];
  for (const name of names) {
    voice.on(name, (payload) => {
      const p: Record<string, unknown> = { ...payload };
      const detail =
        name === 'transcript'
          ? `${String(p['text'])}${p['final'] ? '' : '…'}`
          : name === 'bot-speech'
            ? String(p['text'])
            : name === 'bot-interrupted'
              ? p['inferred']
                ? 'inferred'
                : 'sent'
              : name === 'error'
                ? String(p['message'])
                : p['speaking']
                  ? 'on'
                  : 'off';
      seen.push(`${name}:${detail}`);
    });
  }
  return seen;
}

const until = async (check: () => boolean, what: string): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('RTVI voice with the real PipecatClient', () => {
  let bot: TestBot;
  let client: PipecatClient;
  let voice: RtviVoice;

  usePipecatNodeInEachSuite();
  afterEach(async () => {
    voice?.dispose();
    await client?.disconnect().catch(() => {});
    await bot?.stop();
  });

  async function start(tap: boolean): Promise<string[]> {
    bot = await TestBot.start(() => undefined);
    let messages: ReturnType<typeof tapRtviMessages> | undefined;
    client = createPipecatNodeClient({
      beforeClient: (transport) => {
        if (tap) messages = tapRtviMessages(transport);
      },
    }).client;
    voice = createRtviVoice(client, {
      connectParams: () => ({ wsUrl: bot.url }),
      // Node has no microphone: the switch only records what it was asked.
      mic: { setMic: async () => {} },
      ...(messages ? { messages } : {}),
    });
    const seen = record(voice);
    await voice.connect({ mic: true });
    expect(voice.state).toMatchObject({ connection: 'connected', mic: 'on', micMuted: false });
    return seen;
  }

  it('turns speaking, transcript, spoken text and barge-in into state, events and a log', async () => {
    const seen = await start(true);
    const send = (...messages: Parameters<TestBot['send']>[0][]) => {
      for (const m of messages) bot.send(m);
    };
    send(
      serverEvent('user-started-speaking'),
      serverEvent('user-transcription', {
        text: 'show me',
        final: false,
        user_id: 'user',
        timestamp: '',
      }),
    );
    await until(() => voice.transcript.length === 1, 'the interim transcript');
    expect(voice.state.userSpeaking).toBe(true);
    expect(voice.transcript).toEqual([{ id: 1, role: 'user', text: 'show me', final: false }]);

    send(
      serverEvent('user-stopped-speaking'),
      serverEvent('user-transcription', {
        text: 'show me headphones',
        final: true,
        user_id: 'user',
        timestamp: '',
      }),
      serverEvent('bot-started-speaking'),
      serverEvent('bot-tts-text', { text: 'I found 2 products.' }),
      serverEvent('bot-tts-text', { text: ' Here they are.' }),
    );
    await until(() => voice.transcript[1]?.text === 'I found 2 products. Here they are.', 'speech');
    expect(voice.state).toMatchObject({ userSpeaking: false, botSpeaking: true });
    send(serverEvent('bot-stopped-speaking'));
    await until(() => !voice.state.botSpeaking, 'the end of the reply');

    // Barge-in: the user speaks over the next reply; the bot says it was interrupted.
    send(
      serverEvent('bot-started-speaking'),
      serverEvent('bot-tts-text', { text: 'Your cart holds' }),
      serverEvent('user-started-speaking'),
      serverEvent('bot-interrupted'),
      serverEvent('bot-stopped-speaking'),
    );
    await until(() => seen.includes('bot-speaking:off') && !voice.state.botSpeaking, 'the cut');
    await until(() => seen.filter((s) => s === 'bot-speaking:off').length === 2, 'the cut');

    expect(voice.transcript).toEqual([
      { id: 1, role: 'user', text: 'show me headphones', final: true },
      {
        id: 2,
        role: 'bot',
        text: 'I found 2 products. Here they are.',
        final: true,
        interrupted: false,
      },
      { id: 3, role: 'bot', text: 'Your cart holds', final: true, interrupted: true },
    ]);
    expect(seen).toEqual([
      'user-speaking:on',
      'transcript:show me…',
      'user-speaking:off',
      'transcript:show me headphones',
      'bot-speaking:on',
      'bot-speech:I found 2 products.',
      'bot-speech: Here they are.',
      'bot-speaking:off',
      'bot-speaking:on',
      'bot-speech:Your cart holds',
      'user-speaking:on',
      'bot-interrupted:sent',
      'bot-speaking:off',
    ]);

    // A voice error from the bot, then the disconnect settles everything.
    send({
      label: 'rtvi-ai',
      type: 'error',
      data: { error: 'Speech input is unavailable', fatal: false },
    });
    await until(() => seen.some((s) => s.startsWith('error:')), 'the error');
    expect(seen.at(-1)).toBe('error:Speech input is unavailable');
    await voice.disconnect();
    expect(voice.state).toMatchObject({
      connection: 'disconnected',
      mic: 'off',
      userSpeaking: false,
      botSpeaking: false,
    });
  });

  it('infers barge-in without a tap: the bot went quiet while the user spoke', async () => {
    const seen = await start(false);
    bot.send(serverEvent('bot-started-speaking'));
    bot.send(serverEvent('bot-tts-text', { text: 'Hello there.' }));
    bot.send(serverEvent('user-started-speaking'));
    bot.send(serverEvent('bot-interrupted'));
    bot.send(serverEvent('bot-stopped-speaking'));
    await until(() => seen.includes('bot-speaking:off'), 'the cut');
    expect(seen).toEqual([
      'bot-speaking:on',
      'bot-speech:Hello there.',
      'user-speaking:on',
      'bot-interrupted:inferred',
      'bot-speaking:off',
    ]);
    expect(voice.transcript.at(-1)).toMatchObject({ role: 'bot', interrupted: true });
  });
});

/** A client double: records what the voice asked of it, emits what the test says. */
class ScriptedClient extends ScriptedEmitter implements RtviVoiceClientLike {
  readonly calls: string[] = [];
  async connect(params?: unknown): Promise<unknown> {
    this.calls.push(`connect ${JSON.stringify(params)}`);
    this.emit('botReady', {});
    return {};
  }
  async disconnect(): Promise<void> {
    this.calls.push('disconnect');
    this.emit('disconnected');
  }
  enableMic(enable: boolean): void {
    this.calls.push(`enableMic ${enable}`);
  }
}

describe('RTVI voice (scripted client)', () => {
  it('connects with the mic off when the browser refuses it, and says why', async () => {
    const client = new ScriptedClient();
    const denied = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    const voice = createRtviVoice(client, {
      connectParams: { wsUrl: 'ws://bot' },
      mic: { setMic: async (on) => (on ? Promise.reject(denied) : undefined) },
    });
    const states: string[] = [];
    voice.on('state', (s) => states.push(`${s.connection}/${s.mic}`));
    await voice.connect({ mic: true });
    expect(client.calls).toEqual(['connect {"wsUrl":"ws://bot"}']);
    expect(voice.state).toMatchObject({ connection: 'connected', mic: 'error' });
    expect(voice.state.micError).toEqual({
      reason: 'denied',
      message:
        'Microphone access was denied, so the assistant cannot hear you. You can keep typing.',
    });
    expect(states).toEqual([
      'connecting/off',
      'connecting/starting',
      'connecting/error',
      'connected/error',
    ]);
    // Turning it off clears the error.
    await voice.setMicEnabled(false);
    expect(voice.state).toMatchObject({ mic: 'off', micError: undefined });
    voice.dispose();
    expect(client.listenerTotal()).toBe(0);
  });

  it('uses the client for the microphone by default, after asking the browser', async () => {
    const client = new ScriptedClient();
    const voice = createRtviVoice(client);
    const stop = vi.fn();
    const getUserMedia = vi.fn(async () => ({ getTracks: () => [{ stop }] }));
    vi.stubGlobal('navigator', { mediaDevices: { getUserMedia } });
    try {
      expect(await voice.setMicEnabled(true)).toBe(true);
      expect(getUserMedia).toHaveBeenCalledWith({ audio: true });
      expect(stop).toHaveBeenCalled();
      await voice.setMicMuted(true);
      expect(voice.state).toMatchObject({ mic: 'on', micMuted: true });
      await voice.setMicMuted(false);
      await voice.setMicEnabled(false);
      expect(client.calls).toEqual([
        'enableMic true',
        'enableMic false',
        'enableMic true',
        'enableMic false',
      ]);
      // Without mediaDevices (plain http on another host), the mic is unsupported.
      vi.stubGlobal('navigator', {});
      expect(await voice.setMicEnabled(true)).toBe(false);
      expect(voice.state.micError?.reason).toBe('unsupported');
    } finally {
      vi.unstubAllGlobals();
      voice.dispose();
    }
  });

  it('routes transcripts to a capture (dictation) instead of the log', async () => {
    const client = new ScriptedClient();
    const voice = createRtviVoice(client);
    const captured: string[] = [];
    const release = voice.captureTranscripts((t) => captured.push(`${t.text}:${t.final}`));
    const events: boolean[] = [];
    voice.on('transcript', (t) => events.push(t.captured));
    client.emit('userTranscript', { text: 'send it', final: false });
    release();
    client.emit('userTranscript', { text: 'to my phone', final: true });
    expect(captured).toEqual(['send it:false']);
    expect(events).toEqual([true, false]);
    expect(voice.transcript).toEqual([{ id: 1, role: 'user', text: 'to my phone', final: true }]);
    voice.dispose();
  });

  it('a connection that fails leaves everything off', async () => {
    const client = new ScriptedClient();
    client.connect = async () => {
      throw new Error('refused');
    };
    const voice = createRtviVoice(client, { mic: { setMic: async () => {} } });
    await expect(voice.connect({ mic: true })).rejects.toThrow('refused');
    expect(voice.state).toMatchObject({ connection: 'disconnected', mic: 'off' });
    voice.dispose();
  });
});
