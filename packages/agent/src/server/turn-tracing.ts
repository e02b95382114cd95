/**
 * OpenTelemetry spans of a session's turns, built from the RTVI messages the session exchanges
 * with its client, in one place: `scenaro.turn` (from `send-text`, or the end of the user's
 * speech, to `turn-complete`) with its children `scenaro.stt` (end of speech to the final
 * transcript), `scenaro.llm` (one per model call), `scenaro.tool` (one per tool call) and
 * `scenaro.tts` (the reply's speech). Spans go through `@opentelemetry/api`: nothing is recorded
 * unless the process registered a tracer provider (`scenaro serve` does when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set).
 */
import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

const TRACER = '@scenaro/agent';

/** What a span needs to know of its session. */
export interface TracedSession {
  readonly sessionId: string;
}

interface OpenSpans {
  turn?: { span: Span; ctx: Context };
  stt?: Span;
  llm?: Span;
  /** The model call ended at this time; its `metrics` event (model, tokens) may follow. */
  llmEndedAt?: number;
  tts?: Span;
  tools: Map<string, Span>;
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

function dataOf(message: RTVIMessage): Record<string, unknown> {
  const data = message.data;
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
}

/** The turn spans of a server's sessions. */
export class TurnTracer {
  readonly #open = new WeakMap<TracedSession, OpenSpans>();

  /** `session`'s client sent `message`. */
  received(session: TracedSession, message: RTVIMessage): void {
    if (message.type === 'send-text') this.#turn(session, 'text');
  }

  /** `session` sent `message` to its client. */
  sent(session: TracedSession | undefined, message: RTVIMessage): void {
    if (!session) return;
    const data = dataOf(message);
    switch (message.type) {
      case 'user-stopped-speaking': {
        const open = this.#turn(session, 'speech');
        open.stt ??= this.#start('scenaro.stt', open);
        return;
      }
      case 'user-transcription':
        if (data['final'] !== true) return;
        this.#end(session, 'stt');
        // Nothing was heard: no turn follows.
        if (String(data['text'] ?? '').trim() === '') this.#turnComplete(session, {});
        return;
      case 'bot-llm-started': {
        const open = this.#turn(session, 'text');
        this.#finishLlm(open);
        open.llm = this.#start('scenaro.llm', open);
        return;
      }
      case 'bot-llm-stopped': {
        const open = this.#open.get(session);
        if (open?.llm) open.llmEndedAt = now();
        return;
      }
      case 'metrics':
        this.#llmMetrics(session, data);
        return;
      case 'llm-function-call-in-progress': {
        const open = this.#turn(session, 'text');
        const id = String(data['tool_call_id']);
        const attributes: Attributes = { 'gen_ai.tool.call.id': id };
        if (typeof data['function_name'] === 'string')
          attributes['gen_ai.tool.name'] = data['function_name'];
        open.tools.get(id)?.end();
        open.tools.set(id, this.#start('scenaro.tool', open, attributes));
        return;
      }
      case 'llm-function-call-stopped': {
        const open = this.#open.get(session);
        const id = String(data['tool_call_id']);
        const span = open?.tools.get(id);
        if (!span) return;
        if (data['cancelled'] === true) span.setAttribute('scenaro.cancelled', true);
        span.end();
        open?.tools.delete(id);
        return;
      }
      case 'bot-tts-started': {
        const open = this.#turn(session, 'text');
        open.tts ??= this.#start('scenaro.tts', open);
        return;
      }
      case 'bot-tts-stopped':
        this.#end(session, 'tts');
        return;
      case 'bot-interrupted':
        this.#open.get(session)?.turn?.span.setAttribute('scenaro.interrupted', true);
        return;
      case 'server-message':
        if (data['type'] === 'turn-complete') this.#turnComplete(session, data);
        return;
      default:
    }
  }

  /** `session` ended: end whatever it left open. */
  forget(session: TracedSession): void {
    const open = this.#open.get(session);
    if (!open) return;
    this.#finishLlm(open);
    for (const span of [open.stt, open.tts, ...open.tools.values(), open.turn?.span]) span?.end();
    this.#open.delete(session);
  }

  /** The session's open turn, started (by `trigger`) when it has none. */
  #turn(session: TracedSession, trigger: 'text' | 'speech'): OpenSpans & { turn: object } {
    let open = this.#open.get(session);
    if (!open) this.#open.set(session, (open = { tools: new Map() }));
    if (!open.turn) {
      const span = trace.getTracer(TRACER).startSpan('scenaro.turn', {
        attributes: { 'scenaro.session.id': session.sessionId, 'scenaro.turn.trigger': trigger },
      });
      open.turn = { span, ctx: trace.setSpan(context.active(), span) };
    }
    return open as OpenSpans & { turn: object };
  }

  #start(name: string, open: OpenSpans, attributes: Attributes = {}): Span {
    return trace.getTracer(TRACER).startSpan(name, { attributes }, open.turn?.ctx);
  }

  #end(session: TracedSession, stage: 'stt' | 'tts'): void {
    const open = this.#open.get(session);
    open?.[stage]?.end();
    if (open) delete open[stage];
  }

  /** The model call's `metrics` event: its model, ttfb and tokens, then the span ends. */
  #llmMetrics(session: TracedSession, data: Record<string, unknown>): void {
    const open = this.#open.get(session);
    if (!open?.llm || open.llmEndedAt === undefined) return;
    const ttfb = (data['ttfb'] as { model?: unknown; processor?: unknown; value?: unknown }[])?.[0];
    if (!ttfb || ttfb.model === undefined) return;
    open.llm.setAttributes({
      'gen_ai.request.model': String(ttfb.model),
      'scenaro.processor': String(ttfb.processor),
      'scenaro.ttfb_seconds': Number(ttfb.value),
    });
    const tokens = (data['tokens'] as Record<string, unknown>[] | undefined)?.[0];
    if (tokens)
      open.llm.setAttributes({
        'gen_ai.usage.input_tokens': Number(tokens['prompt_tokens']),
        'gen_ai.usage.output_tokens': Number(tokens['completion_tokens']),
      });
    this.#finishLlm(open);
  }

  #finishLlm(open: OpenSpans): void {
    if (!open.llm) return;
    open.llm.end(open.llmEndedAt);
    delete open.llm;
    delete open.llmEndedAt;
  }

  #turnComplete(session: TracedSession, data: Record<string, unknown>): void {
    const open = this.#open.get(session);
    if (!open?.turn) return;
    this.#finishLlm(open);
    for (const span of open.tools.values()) span.end();
    open.tools.clear();
    const { span } = open.turn;
    if (data['turn'] !== undefined)
      span.setAttributes({
        'scenaro.turn': Number(data['turn']),
        'scenaro.turn.model_calls': Number(data['calls']),
        'scenaro.interrupted': data['interrupted'] === true,
        'scenaro.scripted': data['scripted'] === true,
      });
    if (typeof data['error'] === 'string')
      span.setStatus({ code: SpanStatusCode.ERROR, message: data['error'] });
    span.end();
    delete open.turn;
  }
}
