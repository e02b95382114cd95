import { describe, expect, it } from 'vitest';
import { BotSpeaker } from './bot-speaker.js';
import { FastAudioClock } from './audio/clock.js';
import type { TextToSpeech } from './tts.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TTS that logs when each synthesis starts and gives 120 ms of audio per sentence, after 5 ms
 * for the first sentence and `laterMs` for the others.
 */
function loggingTts(log: string[], laterMs = 5): TextToSpeech {
  return {
    name: 'logging',
    sampleRate: 24_000,
    async *synthesize(text: string) {
      log.push(`synthesize ${text}`);
      await sleep(text.startsWith('First') ? 5 : laterMs);
      yield new Uint8Array(24 * 120 * 2).fill(1);
    },
    close: () => Promise.resolve(),
  };
}

describe('BotSpeaker', () => {
  it('synthesizes the next sentence while the one before it is sent', async () => {
    const log: string[] = [];
    const speaker = new BotSpeaker({
      tts: loggingTts(log),
      clock: new FastAudioClock(24_000),
      sink: {
        audio: (pcm) => void (pcm.some((b) => b !== 0) && log.push('frame')),
        emit: (type, data) => {
          if (type === 'bot-tts-text') log.push(`spoken ${(data as { text: string }).text.trim()}`);
        },
      },
    });
    speaker.say('First sentence. Second sentence. Third sentence.');
    await speaker.idle();
    // Each sentence's synthesis starts before the previous sentence's first frame goes out.
    expect(log.filter((l) => !l.startsWith('frame'))).toEqual([
      'synthesize First sentence.',
      'synthesize Second sentence.',
      'spoken First sentence.',
      'synthesize Third sentence.',
      'spoken Second sentence.',
      'spoken Third sentence.',
    ]);
    expect(log.indexOf('synthesize Second sentence.')).toBeLessThan(log.indexOf('frame'));
    expect(log.filter((l) => l === 'frame')).toHaveLength(9); // 3 frames of speech per sentence
  });

  it('drops the sentence synthesized ahead when interrupted', async () => {
    const log: string[] = [];
    const spoken: string[] = [];
    let frames = 0;
    const speaker = new BotSpeaker({
      tts: loggingTts(log, 40),
      clock: new FastAudioClock(24_000),
      sink: {
        audio: (pcm) => void (pcm.some((b) => b !== 0) && frames++),
        emit: (type, data) => {
          if (type === 'bot-tts-text') spoken.push((data as { text: string }).text.trim());
        },
      },
    });
    speaker.say('First sentence. Second sentence.');
    while (!spoken.includes('First sentence.')) await sleep(0);
    expect(log).toEqual(['synthesize First sentence.', 'synthesize Second sentence.']);
    expect(speaker.interrupt()).toBe(true);
    speaker.say('After.');
    await speaker.idle();
    await sleep(60); // the dropped synthesis has finished by now
    expect(spoken).toEqual(['First sentence.', 'After.']);
    expect(log.at(-1)).toBe('synthesize After.');
    expect(frames).toBe(6); // speech frames of the first sentence and of the last
  });
});
