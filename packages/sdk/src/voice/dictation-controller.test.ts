import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { FakeVoice } from '../test-support/fake-voice.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import { ComposerDictation } from '../session/composer.js';
import { DictationController, joinDictated } from './dictation-controller.js';

/** An agent answering the dictation calls (`silent` methods never answer). */
function setup(options: { transcript?: string; silent?: string[] } = {}) {
  const { agent, user } = createLoopbackPair();
  const calls: string[] = [];
  for (const action of ['start', 'end', 'cancel']) {
    const method = `composer_${action}_dictation`;
    agent.registerMethod(method, () => {
      calls.push(action);
      if (options.silent?.includes(action)) return new Promise<string>(() => {});
      return action === 'end' ? JSON.stringify({ transcript: options.transcript ?? '' }) : '';
    });
  }
  const composer = new ComposerDictation({ transport: user, agentIdentity: () => 'agent' });
  const voice = new FakeVoice();
  const dictation = new DictationController({ composer, voice });
  const phases: string[] = [];
  dictation.subscribe(() => {
    const phase = dictation.getSnapshot().phase;
    if (phases.at(-1) !== phase) phases.push(phase);
  });
  return { calls, voice, dictation, phases };
}

describe('DictationController', () => {
  useFakeTimersInEachTest();

  it('starts the agent, then the microphone; shows interim words; end gives the text', async () => {
    const { calls, voice, dictation, phases } = setup({ transcript: 'two bottles of chablis' });
    expect(await dictation.start('Please add')).toBe(true);
    // The mic came on only after the agent had started the dictation.
    expect(calls).toEqual(['start']);
    expect(voice.calls).toEqual(['mic on']);
    expect(voice.state.mic).toBe('on');
    voice.hear('two bottles', false);
    expect(dictation.getSnapshot()).toMatchObject({ phase: 'listening', interim: 'two bottles' });
    // Dictated words do not enter the conversation log.
    expect(voice.transcript).toEqual([]);
    expect(await dictation.end()).toBe('Please add two bottles of chablis');
    expect(calls).toEqual(['start', 'end']);
    expect(phases).toEqual(['starting', 'listening', 'ending', 'idle']);
    // The mic goes back off (it was off before), and transcripts go to the log again.
    await Promise.resolve();
    expect(voice.state.mic).toBe('off');
    voice.hear('hello', true);
    expect(voice.transcript).toHaveLength(1);
  });

  it('keeps a microphone that was already on, and cancel restores the text', async () => {
    const { calls, voice, dictation } = setup();
    await voice.setMicEnabled(true);
    await dictation.start('draft');
    voice.hear('never mind', false);
    expect(await dictation.cancel()).toBe('draft');
    expect(calls).toEqual(['start', 'cancel']);
    expect(voice.state.mic).toBe('on');
    expect(dictation.getSnapshot()).toEqual({
      phase: 'idle',
      before: '',
      interim: '',
      error: undefined,
    });
  });

  it('cancel or end asked while starting waits for the start, then goes on', async () => {
    const { calls, dictation } = setup({ transcript: 'ok' });
    const started = dictation.start('');
    const cancelled = dictation.cancel();
    expect(dictation.getSnapshot().phase).toBe('cancelling');
    expect(await cancelled).toBe('');
    expect(await started).toBe(true);
    expect(calls).toEqual(['start', 'cancel']);
    expect(dictation.active).toBe(false);
  });

  it.each([
    [
      'start',
      10_000,
      'Sorry, the assistant did not answer within 10 seconds, so dictation did not start. Please try again, or type your message.',
    ],
    [
      'end',
      15_000,
      'Sorry, the assistant did not send your words within 15 seconds. Your text is as it was; please try again, or type your message.',
    ],
    [
      'cancel',
      8_000,
      'Dictation stopped, but the assistant did not confirm within 8 seconds. Your text is as it was.',
    ],
  ] as const)('a %s that times out (%i ms) says so politely', async (action, ms, message) => {
    const { voice, dictation } = setup({ silent: [action] });
    const started = dictation.start('kept');
    let result: Promise<unknown> = started;
    if (action !== 'start') {
      await started;
      result = action === 'end' ? dictation.end() : dictation.cancel();
    }
    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(dictation.getSnapshot().error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await result;
    expect(dictation.getSnapshot()).toMatchObject({ phase: 'idle', error: message });
    if (action === 'end') expect(await result).toBeUndefined();
    if (action === 'cancel') expect(await result).toBe('kept');
    expect(voice.state.mic).toBe('off');
    dictation.dismissError();
    expect(dictation.getSnapshot().error).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a microphone that cannot start cancels the dictation and says why', async () => {
    const { calls, voice, dictation } = setup();
    voice.micFailure = Object.assign(new Error('no device'), { name: 'NotFoundError' });
    expect(await dictation.start('')).toBe(false);
    expect(calls).toEqual(['start', 'cancel']);
    expect(dictation.getSnapshot()).toMatchObject({
      phase: 'idle',
      error: 'No microphone was found. You can keep typing.',
    });
  });
});

describe('joinDictated', () => {
  it('joins with one space, and keeps the text when nothing was heard', () => {
    expect(joinDictated('', ' hello ')).toBe('hello');
    expect(joinDictated('Add  ', 'two')).toBe('Add two');
    expect(joinDictated('Add', '')).toBe('Add');
  });
});
