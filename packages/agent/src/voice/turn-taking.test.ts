import { describe, expect, it } from 'vitest';
import {
  InterruptionGate,
  formatInterruptionStrategy,
  interruptsBot,
  isBackchannelOrTic,
  isNonDirectedPhrase,
  parseInterruptionStrategy,
} from './turn-taking.js';

describe('interruption strategy', () => {
  it('parses any and min-words:N, and refuses anything else', () => {
    expect(parseInterruptionStrategy('any')).toEqual({ kind: 'any' });
    expect(parseInterruptionStrategy('min-words:3')).toEqual({ kind: 'min-words', words: 3 });
    expect(formatInterruptionStrategy({ kind: 'min-words', words: 3 })).toBe('min-words:3');
    for (const bad of ['', 'all', 'min-words', 'min-words:0', 'min-words:x', 'min-words:21'])
      expect(() => parseInterruptionStrategy(bad), bad).toThrow(/any or min-words:N/);
  });

  it('tells backchannels and tics from turns, as a recognizer writes them', () => {
    for (const text of ['mm-hmm', 'Mm hmm.', 'okay', 'okay okay', 'right', 'uh huh', 'i see', 'um'])
      expect(isBackchannelOrTic(text), text).toBe(true);
    for (const text of ['okay book it', 'no', 'my name is Lisa', 'right the second one'])
      expect(isBackchannelOrTic(text), text).toBe(false);
  });

  it('knows the non-directed phrases, misheard by a word at most in three', () => {
    expect(isNonDirectedPhrase('Hold on a second.')).toBe(true);
    expect(isNonDirectedPhrase('hold on a sec')).toBe(true);
    expect(isNonDirectedPhrase("i'm on the phone")).toBe(true);
    expect(isNonDirectedPhrase('I want to change my flight')).toBe(false);
    expect(isNonDirectedPhrase('')).toBe(false);
  });

  it('min-words lets backchannels, tics, non-directed phrases and short turns go', () => {
    const minWords = parseInterruptionStrategy('min-words:3');
    expect(interruptsBot('mm-hmm', minWords)).toBe(false);
    expect(interruptsBot('one second', minWords)).toBe(false);
    expect(interruptsBot('no wait', minWords)).toBe(false);
    expect(interruptsBot('no wait that is wrong', minWords)).toBe(true);
    expect(interruptsBot('mm-hmm', { kind: 'any' })).toBe(true);
  });
});

describe('interruption gate', () => {
  it('tells speech that began over the bot from an answer, with either strategy', () => {
    for (const strategy of [{ kind: 'any' as const }, parseInterruptionStrategy('min-words:3')]) {
      const gate = new InterruptionGate(strategy);
      expect(gate.started(100, true)).toBe(strategy.kind === 'any');
      expect(gate.started(900, false)).toBe(true);
      // Heard as nothing: the one over the bot is let go, the answer may be asked for again.
      expect(gate.answered(100)).toBe(false);
      expect(gate.answered(900)).toBe(true);
      // A later utterance forgets the earlier ones.
      gate.started(1_000, true);
      gate.started(2_000, true);
      expect(gate.heard('mm-hmm', 2_000)).toBe(strategy.kind === 'any' ? 'turn' : 'let-go');
      expect(gate.answered(1_000)).toBe(true);
    }
  });
});
