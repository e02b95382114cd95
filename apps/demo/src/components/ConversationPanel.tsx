import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { ChatEntry, ConversationController, ConversationState } from '../conversation';

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
        <li className="msg user">
          <span className="who">You</span>
          <p>{entry.text}</p>
        </li>
      );
    case 'bot':
      return (
        <li className="msg bot" aria-busy={entry.streaming}>
          <span className="who">Assistant</span>
          <p>{entry.text}</p>
        </li>
      );
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

/** The conversation panel: connection, microphone, the log, and the message box. */
export function ConversationPanel(props: {
  controller: ConversationController;
  state: ConversationState;
  assistant: { label: string; scripted: boolean };
}) {
  const { controller, state } = props;
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
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(draft);
  };

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
        <button
          type="button"
          aria-pressed={state.mic === 'on'}
          onClick={() => void controller.toggleMic()}
          title="Microphone capture, when the browser allows it"
        >
          {state.mic === 'on' ? 'Mic on' : 'Mic off'}
        </button>
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
              ? 'Type a request below, for example “show me headphones under $100”.'
              : 'Press Connect (or just send a message) to talk to the shop assistant. What it finds appears on the page.'}
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
      <form className="composer" onSubmit={onSubmit}>
        <label htmlFor="message" className="sr-only">
          Message to the assistant
        </label>
        <input
          id="message"
          name="message"
          type="text"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="Type a request…"
          autoComplete="off"
          enterKeyHint="send"
        />
        <button type="submit" className="primary">
          Send
        </button>
      </form>
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
