import { joinDictated } from '@scenaro/sdk';
import type { DictationController } from '@scenaro/sdk';
import { useDictation } from '@scenaro/sdk/react';
import { MicIcon } from './MicIcon';
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';

/** What dictation says while it runs, for the status line (announced). */
const PHASE_NOTE = {
  idle: '',
  starting: 'Starting dictation…',
  listening:
    'Listening: speak your message. Press Dictate again (or Enter) to put the words in the box; Esc cancels.',
  ending: 'Getting your words…',
  cancelling: 'Cancelling dictation…',
} as const;

/** The message box: type, or dictate (the words land in the box to edit and send). */
export function Composer(props: {
  draft: string;
  setDraft: (text: string) => void;
  onSend: (text: string) => void;
  dictation: DictationController | null;
  /** Why dictation cannot run here, if it cannot (the bot does not listen). */
  dictationUnavailable: string | undefined;
  /** Connect first when needed; resolves false when the bot cannot be reached. */
  ensureConnected: () => Promise<boolean>;
}) {
  const { draft, setDraft, onSend } = props;
  const dictation = useDictation(props.dictation);
  const [note, setNote] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const active = dictation.phase !== 'idle';
  const listening = dictation.phase === 'listening';

  const cancel = async () => {
    setDraft(await dictation.cancel());
    setNote('Dictation cancelled; your text is as it was.');
    input.current?.focus();
  };

  const finish = async () => {
    const text = await dictation.end();
    if (text !== undefined) {
      setDraft(text);
      setNote(
        text
          ? 'Your words are in the box: edit them if needed, then send.'
          : 'No words were heard.',
      );
    }
    input.current?.focus();
  };

  const toggle = async () => {
    if (listening || dictation.phase === 'starting') return finish();
    if (active) return undefined;
    dictation.dismissError();
    if (props.dictationUnavailable) {
      setNote(props.dictationUnavailable);
      return undefined;
    }
    setNote('');
    if (!(await props.ensureConnected())) return undefined;
    await dictation.start(draft);
    return undefined;
  };

  // Esc cancels a dictation wherever the focus is.
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      void cancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (active) {
      void finish();
      return;
    }
    if (!draft.trim()) return;
    onSend(draft);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && active) event.preventDefault();
  };

  const shown = active ? joinDictated(dictation.before, dictation.interim) : draft;
  const status = dictation.error ?? (PHASE_NOTE[dictation.phase] || note);

  return (
    <>
      <form className="composer" onSubmit={onSubmit}>
        <label htmlFor="message" className="sr-only">
          Message to the assistant
        </label>
        <input
          ref={input}
          id="message"
          name="message"
          type="text"
          value={shown}
          readOnly={active}
          aria-describedby="composer-status"
          className={active ? 'dictating' : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={active ? 'Listening…' : 'Type a request…'}
          autoComplete="off"
          enterKeyHint="send"
        />
        <button type="submit" className="primary" disabled={active}>
          Send
        </button>
        <button
          type="button"
          className="dictate"
          aria-pressed={active}
          aria-busy={dictation.phase === 'starting' || dictation.phase === 'ending'}
          onClick={() => void toggle()}
          title="Dictate into the message box (Esc cancels)"
        >
          <MicIcon />
          <span className="sr-only">Dictate</span>
        </button>
      </form>
      <p
        id="composer-status"
        className={`composer-status${dictation.error ? ' error' : ''}`}
        role="status"
        data-phase={dictation.phase}
      >
        {status}
      </p>
    </>
  );
}
