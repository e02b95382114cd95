// The relay's last line of defence: when nothing moves (no audio relayed, no bot event) for too
// long while a bot has the turn, the wait fails as timed out, naming what the relay waited for,
// rather than hanging the run; a relay that keeps moving, however slowly, is left alone.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AudioRelay } from './audio-relay.js';
import type { BotConnection } from './bot-connection.js';

const relays: AudioRelay[] = [];
afterEach(() => {
  for (const relay of relays.splice(0)) relay.dispose();
});

/** A bot connection that takes what it is sent and answers no request. */
const bot = {
  sendAudio: () => undefined,
  sendText: () => undefined,
  request: () => new Promise<never>(() => undefined),
} as unknown as BotConnection;

function relay(log: string[]): AudioRelay {
  const made = new AudioRelay({
    clock: 'fast',
    bot: () => bot,
    disconnected: () => undefined,
    log: (line) => log.push(line),
    // No rule of the relay's own would act for a long while.
    responseTimeoutMs: 600_000,
    stillMs: 300,
  });
  relays.push(made);
  return made;
}

/** 40 ms of a 16 kHz tone. */
function frame() {
  const audio = new Uint8Array(1280);
  const view = new DataView(audio.buffer);
  for (let i = 0; i < 640; i++)
    view.setInt16(i * 2, Math.round(3000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), true);
  return { kind: 'audio' as const, audio, sampleRate: 16_000, numChannels: 1 };
}

describe('an audio relay that stands still', () => {
  it('fails the wait as timed out, with the state it was waiting in', async () => {
    const log: string[] = [];
    const r = relay(log);
    const turn = r.exchange('agent', 'Hello', Infinity);
    // The agent starts speaking and never delivers its audio: the fast clock waits for it.
    r.handlers['started-speaking']?.('agent', { kind: 'started-speaking' });
    const started = performance.now();
    await expect(turn).rejects.toThrow(/^timed out: the relay stood still for 0 s/);
    await turn.catch((err: Error) => {
      expect(err.message).toContain("the agent bot's turn under way");
      expect(err.message).toContain('segments since the wait began: agent 0 unplayed');
      expect(err.message).toContain('agent speaking, 0 queued');
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(log.join('\n')).toContain('the relay stood still');
  });

  it('looks again at long intervals, not at once, once the bot has started', async () => {
    vi.useFakeTimers();
    try {
      const r = new AudioRelay({
        clock: 'fast',
        bot: () => bot,
        disconnected: () => undefined,
        log: () => undefined,
        responseTimeoutMs: 100,
        stillMs: 60_000,
      });
      relays.push(r);
      void r.exchange('agent', 'Hello', Infinity).catch(() => undefined);
      // Synthesizing: its turn has started (nothing of it plays, so the timeline is idle).
      r.handlers['tts-started']?.('agent', { kind: 'tts-started' });
      const armed = vi.spyOn(globalThis, 'setTimeout');
      await vi.advanceTimersByTimeAsync(2000);
      // Its time to start (100 ms) is past: one look then, the next at the standing-still limit.
      expect(armed.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      // The spy first: it wraps the fake timer, which useRealTimers then replaces.
      vi.restoreAllMocks();
      vi.useRealTimers();
    }
  });

  it('keeps waiting while the bots move, however slowly', async () => {
    const r = relay([]);
    const turn = r.exchange('agent', 'Hello', Infinity);
    r.handlers['started-speaking']?.('agent', { kind: 'started-speaking' });
    r.handlers['tts-text']?.('agent', { kind: 'tts-text', text: 'Hello there.' });
    // A frame every 100 ms for a second: never still for 300 ms.
    for (let n = 0; n < 10; n++) {
      r.audio('agent', frame());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    r.handlers['stopped-speaking']?.('agent', { kind: 'stopped-speaking' });
    const done = await turn;
    expect(done).toMatchObject({ text: 'Hello there.', interrupted: false });
    expect(done === 'timeout' ? undefined : done.timing?.end).toBeGreaterThan(0.3);
  });

  it('records a segment none of whose audio played as saying nothing', async () => {
    const r = relay([]);
    const turn = r.exchange('agent', 'Hello', Infinity);
    r.handlers['started-speaking']?.('agent', { kind: 'started-speaking' });
    r.handlers['tts-text']?.('agent', { kind: 'tts-text', text: 'Hello there.' });
    r.audio('agent', frame());
    r.handlers['stopped-speaking']?.('agent', { kind: 'stopped-speaking' });
    await expect(turn).resolves.toMatchObject({ text: 'Hello there.' });
    // The user's last words: a stop token's text, whose audio the end of the call cut off.
    r.handlers['started-speaking']?.('user', { kind: 'started-speaking' });
    r.handlers['tts-text']?.('user', { kind: 'tts-text', text: 'STOP' });
    const [played, unplayed] = r.record().segments;
    expect(played).toMatchObject({ role: 'agent', said: 'Hello there.' });
    expect(played?.interrupted).toBeUndefined();
    expect(unplayed).toMatchObject({ role: 'user', said: '', interrupted: true });
  });
});
