// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode, useMemo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopbackPair } from '../rpc/loopback.js';
import { ComposerDictation } from '../session/composer.js';
import { FakeVoice } from '../test-support/fake-voice.js';
import { DictationController } from '../voice/dictation-controller.js';
import type { Voice } from '../voice/types.js';
import { useDictation } from './use-dictation.js';
import { useTranscript, useVoice, useVoiceEvent } from './use-voice.js';

function VoicePanel(props: { voice: Voice | null; announce: (text: string) => void }) {
  const voice = useVoice(props.voice);
  const { entries, hearing } = useTranscript(props.voice);
  useVoiceEvent(props.voice, 'bot-interrupted', () => props.announce('interrupted'));
  return (
    <div>
      <button
        type="button"
        aria-pressed={voice.mic === 'on'}
        onClick={() => void voice.setMicEnabled(voice.mic !== 'on')}
      >
        Microphone
      </button>
      <p data-testid="state">
        {voice.connection}/{voice.mic}/{voice.userSpeaking ? 'user' : '-'}/
        {voice.botSpeaking ? 'bot' : '-'}
      </p>
      <p data-testid="hearing">{hearing ?? ''}</p>
      <ol>
        {entries.map((e) => (
          <li key={e.id}>
            {e.role}:{e.text}
            {e.final ? '' : '…'}
            {e.role === 'bot' && e.interrupted ? ' (cut)' : ''}
          </li>
        ))}
      </ol>
    </div>
  );
}

describe('voice hooks (jsdom)', () => {
  afterEach(() => cleanup());

  it('render the voice state, the forming transcript and barge-in', async () => {
    const voice = new FakeVoice();
    const announced: string[] = [];
    render(
      <StrictMode>
        <VoicePanel voice={voice} announce={(t) => announced.push(t)} />
      </StrictMode>,
    );
    const state = screen.getByTestId('state');
    expect(state.textContent).toBe('disconnected/off/-/-');
    await act(async () => {
      await voice.connect();
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Microphone' }));
    });
    expect(screen.getByRole('button', { name: 'Microphone' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    act(() => {
      voice.userTalks(true);
      voice.hear('show me', false);
    });
    expect(state.textContent).toBe('connected/on/user/-');
    expect(screen.getByTestId('hearing').textContent).toBe('show me');
    act(() => {
      voice.userTalks(false);
      voice.hear('show me kettles', true);
      voice.botTalks(true);
      voice.botSays('Here are three.');
      voice.userTalks(true);
      voice.interrupted();
      voice.botTalks(false);
    });
    expect(screen.getByTestId('hearing').textContent).toBe('');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'user:show me kettles',
      'bot:Here are three. (cut)',
    ]);
    expect(announced).toEqual(['interrupted']);
  });

  it('are inert without a voice', () => {
    render(<VoicePanel voice={null} announce={() => {}} />);
    expect(screen.getByTestId('state').textContent).toBe('disconnected/off/-/-');
  });

  it('useDictation shows the phase and the interim words, and ends with the text', async () => {
    const { agent, user } = createLoopbackPair();
    agent.registerMethod('composer_start_dictation', () => '');
    agent.registerMethod('composer_end_dictation', () => JSON.stringify({ transcript: 'hello' }));
    const voice = new FakeVoice();
    const composer = new ComposerDictation({ transport: user, agentIdentity: () => 'agent' });
    let result: string | undefined;
    function Composer() {
      const controller = useMemo(() => new DictationController({ composer, voice }), []);
      const dictation = useDictation(controller);
      return (
        <div>
          <p data-testid="phase">{dictation.phase}</p>
          <input aria-label="Message" readOnly value={dictation.interim} />
          <button type="button" onClick={() => void dictation.start('')}>
            Dictate
          </button>
          <button type="button" onClick={() => void dictation.end().then((t) => (result = t))}>
            Done
          </button>
        </div>
      );
    }
    render(<Composer />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Dictate' }));
    });
    expect(screen.getByTestId('phase').textContent).toBe('listening');
    act(() => voice.hear('hel', false));
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement).value).toBe(
      'hel',
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    });
    expect(screen.getByTestId('phase').textContent).toBe('idle');
    expect(result).toBe('hello');
  });
});
