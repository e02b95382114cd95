import { describe, expect, it } from 'vitest';
import { TranscriptLog } from './transcript-log.js';

describe('TranscriptLog', () => {
  it('replaces interim user words, fixes them with the final, grows the bot reply', () => {
    const log = new TranscriptLog();
    log.user('show', false);
    log.user('show me head', false);
    expect(log.entries).toEqual([{ id: 1, role: 'user', text: 'show me head', final: false }]);
    log.user('show me headphones', true);
    log.botSpoke('I found 2.');
    log.botSpoke(' Here.');
    log.botStopped();
    expect(log.entries).toEqual([
      { id: 1, role: 'user', text: 'show me headphones', final: true },
      { id: 2, role: 'bot', text: 'I found 2. Here.', final: true, interrupted: false },
    ]);
  });

  it('drops an interim line whose final is empty, and marks a cut reply', () => {
    const log = new TranscriptLog();
    log.user('uh', false);
    log.user('', true);
    expect(log.entries).toEqual([]);
    expect(log.botInterrupted()).toBe(false); // nothing was being spoken
    log.botSpoke('Your cart');
    log.user('stop', false);
    expect(log.botInterrupted()).toBe(true);
    expect(log.settle()).toBe(true);
    expect(log.entries).toEqual([
      { id: 2, role: 'bot', text: 'Your cart', final: true, interrupted: true },
      { id: 3, role: 'user', text: 'stop', final: true },
    ]);
  });

  it('keeps the newest lines only', () => {
    const log = new TranscriptLog(2);
    for (const word of ['a', 'b', 'c']) log.user(word, true);
    expect(log.entries.map((e) => e.text)).toEqual(['b', 'c']);
  });
});
