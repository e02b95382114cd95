/**
 * What the bot says is the spoken form of what it wrote: the TTS is given words (no markup, code,
 * JSON or tool-call syntax; amounts, dates and codes in words), `bot-tts-text` carries them and
 * `bot-output` keeps the written text. `spokenForm: false` synthesizes the text as written.
 */
import { describe, expect, it } from 'vitest';
import { BotSpeaker } from './bot-speaker.js';
import type { SpeakerSink } from './bot-speaker.js';
import { FastAudioClock } from './audio/clock.js';
import type { TextToSpeech } from './tts.js';

/** A TTS that records what it was asked to say and answers with a little silence. */
function recordingTts(): TextToSpeech & { said: string[] } {
  const said: string[] = [];
  return {
    name: 'recording',
    sampleRate: 16_000,
    said,
    async *synthesize(text) {
      said.push(text);
      yield new Uint8Array(640);
    },
    close: async () => {},
  };
}

function run(written: string, spokenForm?: boolean) {
  const tts = recordingTts();
  const events: { type: string; data?: unknown }[] = [];
  const sink: SpeakerSink = { emit: (type, data) => events.push({ type, data }), audio: () => {} };
  const speaker = new BotSpeaker({
    tts,
    sink,
    clock: new FastAudioClock(tts.sampleRate),
    ...(spokenForm === undefined ? {} : { spokenForm }),
  });
  speaker.say(written);
  const texts = (type: string) =>
    events.filter((e) => e.type === type).map((e) => (e.data as { text: string }).text);
  return speaker.idle().then(() => ({
    said: tts.said,
    ttsText: texts('bot-tts-text').join(''),
    output: texts('bot-output'),
  }));
}

describe('BotSpeaker: the spoken form', () => {
  it('says amounts, dates and codes in words, and keeps the written text in bot-output', async () => {
    const r = await run(
      'Your refund of $2,580 is confirmed. Reservation M05KNL flies on 2024-05-24.',
    );
    expect(r.said).toEqual([
      'Your refund of two thousand five hundred eighty dollars is confirmed.',
      'Reservation M, zero, five, K, N, L flies on May twenty-fourth, twenty twenty-four.',
    ]);
    expect(r.ttsText).toBe(r.said.join(' '));
    expect(r.output).toEqual([
      'Your refund of $2,580 is confirmed.',
      'Reservation M05KNL flies on 2024-05-24.',
    ]);
  });

  it('never reads tool-call syntax, JSON or markup aloud', async () => {
    const r = await run(
      '**Done.** I called update_reservation_flights(reservation_id="M05KNL", cabin="economy"). Result: {"status": "ok"}.',
    );
    for (const line of r.said) expect(line).not.toMatch(/[{}[\]_"*()]/);
    expect(r.said.join(' ')).toMatch(/\bM, zero, five, K, N, L\b/);
  });

  it('drops a code block that spans sentences', async () => {
    const r = await run('Here it is. ```js\nconst a = 1. const b = 2.\n``` That is all.');
    expect(r.said.join(' ')).not.toMatch(/const|js\b/);
    expect(r.said.join(' ')).toMatch(/That is all/);
  });

  it.each([true, false])(
    'never says a stop token: it stays in bot-output only (spokenForm %s)',
    async (spokenForm) => {
      const glued = await run('No, that is all. Thank you, goodbye. ###STOP###', spokenForm);
      expect(glued.said.join(' ')).not.toMatch(/stop/i);
      expect(glued.said.join(' ')).toMatch(/goodbye/);
      expect(glued.output.join(' ')).toMatch(/###STOP###/);
      const alone = await run('###TRANSFER###', spokenForm);
      expect(alone.said).toEqual([]);
      expect(alone.ttsText).toBe('');
      expect(alone.output).toEqual(['###TRANSFER###']);
    },
  );

  it('synthesizes the written text with spokenForm off', async () => {
    const r = await run('Your refund of $2,580 is confirmed.', false);
    expect(r.said).toEqual(['Your refund of $2,580 is confirmed.']);
    expect(r.ttsText).toBe('Your refund of $2,580 is confirmed.');
  });
});
