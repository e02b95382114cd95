import type { DictationController, Voice } from '@scenaro/sdk';
import { useEffect, useRef, useState } from 'react';
import type { ChatEntry, ConversationController, ConversationState } from '../conversation';
import type { DemoVoice } from '../types';
import { Composer } from './Composer';
import { VoiceControls } from './VoiceControls';

const SUGGESTIONS = [
  'show me headphones under $100',
  'show the first one',
  'compare the first two',
  'add the first one to my cart',
  "what's in my cart",
  'help',
];

const STATUS_LABEL: Record<ConversationState['status'], string> = {
  disconnected: 'Disconnected',
  connecting: 'Connecting…',
  connected: 'Connected',
  error: 'Connection failed',
};

const TOOL_LABEL = {
  running: 'running…',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
} as const;

/** The connection indicator: a dot and a word (never color alone). */
export function ConnectionIndicator(props: { status: ConversationState['status'] }) {
  return (
    <p className={`connection ${props.status}`} role="status" data-testid="connection">
      <span className="dot" aria-hidden="true" />
      <span className="sr-only">Connection: </span>
      {STATUS_LABEL[props.status]}
    </p>
  );
}

function argsText(args: Record<string, unknown> | undefined): string {
  if (!args) return '';
  const text = Object.entries(args)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : JSON.stringify(v)}`)
    .join('; ');
  return text.length > 90 ? `${text.slice(0, 87)}…` : text;
}

function Entry(props: { entry: ChatEntry }) {
  const { entry } = props;
  switch (entry.kind) {
    case 'user':
      return (
        <li
          className={`msg user${entry.interim ? ' interim' : ''}`}
          data-voice={entry.voice ? 'true' : undefined}
          aria-busy={entry.interim ? true : undefined}
        >
          <span className="who">You{entry.voice ? ' (spoken)' : ''}</span>
          <p>{entry.interim ? `${entry.text}…` : entry.text}</p>
        </li>
      );
    case 'bot':
      return <BotEntry entry={entry} />;
    case 'tool':
      return (
        <li className={`tool ${entry.status}`} data-tool={entry.name} data-status={entry.status}>
          <span className="tool-icon" aria-hidden="true" />
          <span className="tool-text">
            <span className="tool-name">{entry.name}</span>{' '}
            <span className="tool-status">{TOOL_LABEL[entry.status]}</span>
            {entry.args ? <span className="tool-args">{argsText(entry.args)}</span> : null}
            {entry.detail ? <span className="tool-detail">{entry.detail}</span> : null}
          </span>
        </li>
      );
    case 'notice':
      return <li className={`notice ${entry.tone}`}>{entry.text}</li>;
  }
}

/** A reply: while it is spoken, the part said so far stands out; a cut reply says so. */
function BotEntry(props: { entry: Extract<ChatEntry, { kind: 'bot' }> }) {
  const { entry } = props;
  const spoken = entry.voiced ? (entry.spoken ?? 0) : entry.text.length;
  const rest = entry.text.slice(spoken);
  return (
    <li
      className={`msg bot${entry.speaking ? ' speaking' : ''}${entry.interrupted ? ' interrupted' : ''}`}
      aria-busy={entry.streaming}
      data-speaking={entry.speaking ? 'true' : undefined}
      data-interrupted={entry.interrupted ? 'true' : undefined}
    >
      <span className="who">
        Assistant
        {entry.speaking ? <span className="speaking-tag"> · speaking</span> : null}
        {entry.interrupted ? <span className="interrupted-tag"> · interrupted</span> : null}
      </span>
      <p>
        {entry.voiced ? <span className="spoken">{entry.text.slice(0, spoken)}</span> : entry.text}
        {entry.voiced && rest ? <span className="unspoken">{rest}</span> : null}
      </p>
    </li>
  );
}

/** The conversation panel: connection, microphone, the log, and the message box. */
export function ConversationPanel(props: {
  controller: ConversationController;
  state: ConversationState;
  assistant: { label: string; scripted: boolean };
  voice: Voice;
  voiceConfig: DemoVoice;
  dictation: DictationController | null;
}) {
  const { controller, state, voiceConfig } = props;
  const [draft, setDraft] = useState('');
  const logRef = useRef<HTMLDivElement>(null);
  const connected = state.status === 'connected';
  const connecting = state.status === 'connecting';

  // Follow the newest message while the log is scrolled to the bottom (also when a resize
  // reflows it); leave it alone while the shopper reads older messages.
  const pinned = useRef(true);
  useEffect(() => {
    const log = logRef.current;
    if (!log) return undefined;
    const onScroll = () => {
      pinned.current = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
    };
    const observer = new ResizeObserver(() => {
      if (pinned.current) log.scrollTop = log.scrollHeight;
    });
    observer.observe(log);
    log.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      observer.disconnect();
      log.removeEventListener('scroll', onScroll);
    };
  }, []);
  useEffect(() => {
    const log = logRef.current;
    if (log && pinned.current) log.scrollTop = log.scrollHeight;
  }, [state.entries, state.thinking]);

  const send = (text: string) => {
    if (!text.trim()) return;
    setDraft('');
    void controller.send(text);
  };
  const ensureConnected = async () => {
    if (controller.status !== 'connected') await controller.connect();
    return controller.status === 'connected';
  };
  const dictationUnavailable = !voiceConfig.listens
    ? 'Dictation needs speech recognition, which this demo was started without. You can keep typing.'
    : voiceConfig.problem
      ? `Dictation is not available: the assistant's speech recognition is missing (${voiceConfig.problem}). You can keep typing.`
      : undefined;

  return (
    <section className="panel chat" aria-labelledby="chat-title">
      <div className="chat-head">
        <h2 id="chat-title">Shop assistant</h2>
        <ConnectionIndicator status={state.status} />
      </div>
      <p className="assistant-kind">
        {props.assistant.scripted ? (
          <>
            <span className="badge">Scripted</span>A simple script, not a language model: it
            understands a few kinds of requests (say “help”).
          </>
        ) : (
          <>
            <span className="badge">LLM</span>
            {props.assistant.label}
          </>
        )}
      </p>
      <div className="chat-controls">
        {connected || connecting ? (
          <button type="button" onClick={() => void controller.disconnect()}>
            Disconnect
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => void controller.connect()}>
            Connect
          </button>
        )}
        <VoiceControls
          voice={props.voice}
          state={state}
          onToggleMic={() => void controller.toggleMic()}
        />
      </div>
      {state.micMessage ? (
        <p className="mic-note" role="status">
          {state.micMessage}
        </p>
      ) : null}
      <div
        className="chat-log"
        ref={logRef}
        role="log"
        aria-label="Conversation"
        aria-live="polite"
        tabIndex={0}
      >
        {state.entries.length === 0 ? (
          <p className="empty">
            {connected
              ? 'Type a request below, for example “show me headphones under $100”, or say it with the microphone on.'
              : 'Press Connect (or just send a message, or turn the microphone on and speak) to talk to the shop assistant. What it finds appears on the page.'}
          </p>
        ) : (
          <ol>
            {state.entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
        {state.thinking ? (
          <p className="thinking" role="status">
            <span className="spinner" aria-hidden="true" /> The assistant is working…
          </p>
        ) : null}
      </div>
      <Composer
        draft={draft}
        setDraft={setDraft}
        onSend={send}
        dictation={props.dictation}
        dictationUnavailable={dictationUnavailable}
        ensureConnected={ensureConnected}
      />
      <div className="suggestions" role="group" aria-label="Example requests">
        {SUGGESTIONS.map((text) => (
          <button type="button" key={text} className="chip" onClick={() => send(text)}>
            {text}
          </button>
        ))}
      </div>
    </section>
  );
}
