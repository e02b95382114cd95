import { afterAll, describe, expect, it } from 'vitest';
import { BotSpeaker } from './bot-speaker.js';
import type { SpeakerSink } from './bot-speaker.js';
import { FastAudioClock, RealtimeAudioClock } from './audio/clock.js';
import { createFliteTextToSpeech } from './engines/flite/flite-tts.js';
import type { TextToSpeech } from './tts.js';

interface Recorded {
  events: { type: string; data?: unknown }[];
  frames: { bytes: number; afterEvents: number }[];
}

function recordingSink(): SpeakerSink & Recorded {
  const events: Recorded['events'] = [];
  const frames: Recorded['frames'] = [];
  return {
    events,
    frames,
    emit: (type, data) => events.push(data === undefined ? { type } : { type, data }),
    audio: (pcm) => {
      frames.push({ bytes: pcm.byteLength, afterEvents: events.length });
    },
  };
}

const flite = createFliteTextToSpeech({ voice: 'slt' });
afterAll(() => flite.close());

/** The types of the events the sink got, in order, metrics aside. */
function eventTypes(sink: Recorded): string[] {
  return sink.events.map((e) => e.type).filter((t) => t !== 'metrics');
}

function texts(sink: Recorded, type: string): string[] {
  return sink.events.filter((e) => e.type === type).map((e) => (e.data as { text: string }).text);
}

describe('BotSpeaker', () => {
  it('speaks streamed text sentence by sentence, with the events in order', async () => {
    const sink = recordingSink();
    const speaker = new BotSpeaker({
      tts: flite,
      sink,
      clock: new FastAudioClock(flite.sampleRate),
    });
    for (const piece of ['Your flight ', 'is booked. Would', ' you like ', 'a seat', '?'])
      speaker.text(piece);
    expect(speaker.active).toBe(true);
    speaker.end();
    await speaker.idle();
    expect(speaker.active).toBe(false);
    const order = eventTypes(sink);
    expect(order).toEqual([
      'bot-tts-started',
      'bot-started-speaking',
      'bot-output',
      'bot-tts-text',
      'bot-output',
      'bot-tts-text',
      'bot-tts-stopped',
      'bot-stopped-speaking',
    ]);
    expect(texts(sink, 'bot-tts-text')).toEqual([
      'Your flight is booked.',
      ' Would you like a seat?',
    ]);
    // 40 ms frames of 24 kHz PCM16, the last one padded; all inside the speaking span.
    expect(sink.frames.length).toBeGreaterThan(40);
    expect(sink.frames.every((f) => f.bytes === 1920)).toBe(true);
    const started = order.indexOf('bot-started-speaking') + 1;
    const stopped = sink.events.findIndex((e) => e.type === 'bot-stopped-speaking');
    expect(sink.frames.every((f) => f.afterEvents >= started && f.afterEvents <= stopped)).toBe(
      true,
    );
    const characters = sink.events
      .filter((e) => e.type === 'metrics' && (e.data as { characters?: unknown }).characters)
      .map((e) => (e.data as { characters: { value: number }[] }).characters[0]!.value);
    expect(characters).toEqual([22, 22]);
  });

  it('paces frames in real time and stops at once when interrupted', async () => {
    const sink = recordingSink();
    const speaker = new BotSpeaker({
      tts: flite,
      sink,
      clock: new RealtimeAudioClock(flite.sampleRate, { leadMs: 0 }),
    });
    const t0 = performance.now();
    speaker.say('This is a long answer that takes a few seconds to say out loud.');
    while (sink.frames.length < 10) await new Promise((r) => setTimeout(r, 5));
    // Ten 40 ms frames: the tenth is due 360 ms after the first.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    expect(speaker.interrupt()).toBe(true);
    const frames = sink.frames.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.frames.length).toBe(frames);
    expect(eventTypes(sink)).toEqual([
      'bot-tts-started',
      'bot-started-speaking',
      'bot-tts-stopped',
      'bot-stopped-speaking',
    ]);
    expect(speaker.interrupt()).toBe(false);

    // The speaker speaks again after an interruption.
    speaker.setClock(new FastAudioClock(flite.sampleRate));
    speaker.say('Okay.');
    await speaker.idle();
    expect(texts(sink, 'bot-tts-text')).toEqual(['Okay.']);
  });

  it('skips the audio of a sentence the engine fails on, sends its text, reports it, and goes on', async () => {
    const failing: TextToSpeech = {
      name: 'flaky',
      sampleRate: flite.sampleRate,
      async *synthesize(text, options) {
        if (text.includes('fail')) throw new Error('engine down');
        yield* flite.synthesize(text, options);
      },
      close: () => Promise.resolve(),
    };
    const sink = recordingSink();
    const failures: string[] = [];
    const speaker = new BotSpeaker({
      tts: failing,
      sink,
      clock: new FastAudioClock(failing.sampleRate),
      onError: (err, sentence) => failures.push(`${sentence}: ${(err as Error).message}`),
    });
    speaker.say('First one. This will fail. Last one.');
    await speaker.idle();
    expect(failures).toEqual(['This will fail.: engine down']);
    expect(texts(sink, 'bot-tts-text')).toEqual(['First one.', ' Last one.']);
    // The failed sentence still reaches the client, as text not spoken.
    const outputs = sink.events.filter((e) => e.type === 'bot-output').map((e) => e.data);
    expect(outputs).toMatchObject([
      { text: 'First one.', spoken: true },
      { text: 'This will fail.', spoken: false, will_be_spoken: false },
      { text: 'Last one.', spoken: true },
    ]);
    expect(sink.events.at(-1)?.type).toBe('bot-stopped-speaking');
  });

  it('refuses a clock that counts another rate', () => {
    expect(
      () =>
        new BotSpeaker({ tts: flite, sink: recordingSink(), clock: new FastAudioClock(16_000) }),
    ).toThrow(/counts 16000 Hz but the TTS speaks 24000 Hz/);
  });
});
