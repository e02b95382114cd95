import type { Voice } from '@scenaro/sdk';
import { useTranscript, useVoice } from '@scenaro/sdk/react';
import type { ConversationState } from '../conversation';
import { MicIcon } from './MicIcon';

/** The microphone switch, who is speaking, the words being heard, and what to announce. */
export function VoiceControls(props: {
  voice: Voice;
  state: ConversationState;
  onToggleMic: () => void;
}) {
  const { state } = props;
  const voice = useVoice(props.voice);
  const { hearing } = useTranscript(props.voice);
  const micOn = state.mic === 'on';
  const connected = voice.connection === 'connected';
  return (
    <>
      <button
        type="button"
        className="mic-toggle"
        aria-pressed={micOn}
        onClick={props.onToggleMic}
        title="Talk to the assistant (the browser asks for the microphone)"
      >
        <MicIcon />
        Microphone
        <span className="toggle-state" aria-hidden="true">
          {micOn ? 'on' : 'off'}
        </span>
      </button>
      {connected ? (
        <div className="speaking" aria-label="Who is speaking">
          <span
            className="speaker user"
            data-testid="user-speaking"
            data-active={voice.userSpeaking}
          >
            <span className="level" aria-hidden="true" />
            {voice.userSpeaking ? 'You are speaking' : 'You'}
          </span>
          <span className="speaker bot" data-testid="bot-speaking" data-active={voice.botSpeaking}>
            <span className="level" aria-hidden="true" />
            {voice.botSpeaking ? 'Assistant speaking' : 'Assistant'}
          </span>
        </div>
      ) : null}
      {hearing ? (
        <p className="hearing" data-testid="hearing">
          <span className="sr-only">Hearing: </span>“{hearing}…”
        </p>
      ) : null}
      <p className="sr-only" role="status" data-testid="voice-announcement">
        {state.announcement?.text}
        {/* A repeated announcement differs by one invisible space, so it is read again. */}
        {(state.announcement?.n ?? 0) % 2 ? '\u00a0' : ''}
      </p>
    </>
  );
}
