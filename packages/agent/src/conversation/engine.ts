/**
 * The conversation engine: answers user turns with a {@link ChatModel} (an LLM or
 * a scripted policy), runs the tools it calls through the session's tool path,
 * keeps the context, and emits the RTVI events clients and bridges watch.
 *
 * End of turn (text mode): after the last model call of a turn the engine pushes
 * `server-message {type: "turn-complete", turn, text, interrupted, scripted}`.
 * A bridge waits for it to relay the turn to the other bot.
 */
import { finalResponseText, resolveRpcMethodName } from '@scenaro/sdk/protocol';
import { FrontendToolCaller } from '../rpc/frontend-tool-caller.js';
import type { ToolDefinition } from '../scenario/types.js';
import type {
  LLMFunctionCallInProgressData,
  LLMFunctionCallStoppedData,
} from '@scenaro/sdk/protocol';
import { executeToolByName } from '../scenario/tool-executor.js';
import type { ToolCallOutcome } from '../scenario/tool-executor.js';
import {
  argumentsObject,
  frontendOutcome,
  notRunOutcome,
  parseToolArguments,
} from './tool-outcomes.js';
import type { ContextMessage, ContextToolCall } from './context.js';
import type { Conversation, ConversationHost, SendTextOptions, SpeechOutput } from './hook.js';
import type { ChatModel, ChatToolSpec, ChatUsage } from './model.js';

/** How much of a function call the client is told (Pipecat's report levels). */
export type FunctionCallReportLevel = 'DISABLED' | 'NONE' | 'NAME' | 'FULL';

/** A frontend tool runner (the session's RPC caller to the browser). */
export type FrontendToolRunner = (
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<{ ok: boolean; result: unknown }>;

/** Options of the engine. */
export interface ConversationEngineOptions {
  /** Builds the session's model (an LLM, or a scripted policy that reads the session state). */
  model: (host: ConversationHost) => ChatModel;
  /** Most model calls in one turn. @default 10 */
  maxStepsPerTurn?: number;
  /** Report level by function name, `*` for the rest. @default `{'*': 'NAME'}` */
  functionCallReportLevel?: Record<string, FunctionCallReportLevel>;
  /** Runs `frontend` tools in the browser, when one is attached. */
  frontendTools?: (host: ConversationHost) => FrontendToolRunner | undefined;
}

/** The `turn-complete` push that ends every turn. */
export interface TurnCompleteMessage {
  type: 'turn-complete';
  turn: number;
  text: string;
  interrupted: boolean;
  /** Model call count of the turn. */
  calls: number;
  /** True when a scripted policy produced the turn. */
  scripted: boolean;
  /** Set when the turn ended the conversation (an `<exit>` was pushed). */
  exit?: string;
  error?: string;
}

interface RunningTurn {
  controller: AbortController;
  done: Promise<void>;
}

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted ||
    (err instanceof Error && (err.name === 'AbortError' || err.name === 'APIUserAbortError'))
  );
}

/**
 * The default frontend runner: call the tool in the browser over the session's RPC
 * with {@link FrontendToolCaller}; the model gets `response.data` on `SUCCESS`, and
 * the whole `RpcToolResponse` (code and data) otherwise.
 */
export function browserToolRunner(host: ConversationHost): FrontendToolRunner | undefined {
  const rpc = host.rpc;
  if (!rpc) return undefined;
  const caller = new FrontendToolCaller({
    transport: rpc,
    destinationIdentity: rpc.remoteIdentity,
  });
  return async (name, args, signal) => {
    const tool = host.state.tools.get(name)?.tool;
    const response = await caller.call(
      {
        name,
        ...(tool?.frontend?.method ? { frontend_method: tool.frontend.method } : {}),
        ...(tool?.frontend?.timeoutMs ? { timeout_ms: tool.frontend.timeoutMs } : {}),
      },
      args,
      { signal },
    );
    return response.code === 'SUCCESS'
      ? { ok: true, result: response.data ?? null }
      : { ok: false, result: response };
  };
}

/** Build the conversation factory for a session server. */
export function createConversationEngine(
  options: ConversationEngineOptions,
): (host: ConversationHost) => Conversation {
  return (host) => new ConversationEngine(host, options);
}

/** One session's conversation. */
export class ConversationEngine implements Conversation {
  readonly #host: ConversationHost;
  readonly #model: ChatModel;
  readonly #options: ConversationEngineOptions;
  readonly #frontend: FrontendToolRunner | undefined;
  #running: RunningTurn | undefined;
  #turn = 0;
  #toolCallsInFlight = 0;
  #idleWaiters: (() => void)[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(host: ConversationHost, options: ConversationEngineOptions) {
    this.#host = host;
    this.#options = options;
    this.#model = options.model(host);
    this.#frontend = options.frontendTools ? options.frontendTools(host) : browserToolRunner(host);
    if (this.#model.scripted) {
      host.log.info(
        { model: this.#model.model },
        'conversation driven by a SCRIPTED policy, not a language model',
      );
    }
  }

  get model(): ChatModel {
    return this.#model;
  }

  onUserText(content: string, options: SendTextOptions): Promise<void> {
    if (options.runImmediately) this.#interrupt();
    this.#host.context.append({ role: 'user', content });
    this.#host.emit('user-llm-text', { text: content });
    if (!options.runImmediately) return Promise.resolve();
    const run = this.#queue.then(() => this.#runTurn(options));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async onReset(): Promise<void> {
    this.#interrupt();
    await this.#queue;
    this.#turn = 0;
  }

  async onScenarioStart(): Promise<void> {
    await this.onReset();
  }

  whenIdle(timeoutMs: number): Promise<void> {
    if (this.#toolCallsInFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  interrupt(): boolean {
    return this.#interrupt();
  }

  takesTurn(heard: string): boolean {
    return this.#model.takesTurn?.(heard) ?? true;
  }

  onUnheard(): Promise<void> | undefined {
    if (this.#running) return undefined;
    const text = this.#model.unheard?.();
    if (!text) return undefined;
    // Said as it is, as a voice menu's "no match" prompt: in the context, never a model call.
    this.#host.context.append({ role: 'assistant', content: text });
    const speech = this.#host.speech;
    speech?.text(text);
    speech?.end();
    return Promise.resolve();
  }

  close(): void {
    this.#interrupt();
  }

  #interrupt(): boolean {
    const running = this.#running;
    const speech = this.#host.speech;
    const speaking = speech?.active ?? false;
    // As Pipecat orders it: the interruption first, then the speech stops.
    if (running || speaking) this.#host.emit('bot-interrupted');
    speech?.interrupt();
    running?.controller.abort(new Error('interrupted'));
    return running !== undefined || speaking;
  }

  #reportLevel(name: string): FunctionCallReportLevel {
    const levels = this.#options.functionCallReportLevel ?? { '*': 'NAME' };
    return levels[name] ?? levels['*'] ?? 'NAME';
  }

  #toolSpecs(): ChatToolSpec[] {
    return [...this.#host.state.tools.values()].map(({ tool, options }) => {
      const shown = tool.describe?.(options) ?? tool;
      return { name: tool.name, description: shown.description, parameters: shown.parameters };
    });
  }

  async #runTurn(options: SendTextOptions): Promise<void> {
    const controller = new AbortController();
    const onSessionEnd = () => controller.abort(new Error('session closed'));
    this.#host.signal.addEventListener('abort', onSessionEnd, { once: true });
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    this.#running = { controller, done };
    const turn = ++this.#turn;
    const { signal } = controller;
    const texts: string[] = [];
    let calls = 0;
    let exit: string | undefined;
    let error: string | undefined;
    const maxSteps = this.#options.maxStepsPerTurn ?? 10;
    const speech = options.audioResponse ? this.#host.speech : undefined;
    try {
      for (let step = 1; step <= maxSteps; step++) {
        if (signal.aborted) break;
        calls++;
        const result = await this.#modelCall(turn, step, signal, options, speech);
        if (result.text) texts.push(result.text);
        speech?.flush();
        if (result.toolCalls.length === 0) break;
        const outcomes = await this.#runTools(result.toolCalls, signal);
        for (const { outcome } of outcomes) {
          if (outcome.finalResponse !== undefined)
            this.#host.push({ text: finalResponseText(outcome.finalResponse) });
        }
        const exitOutcome = outcomes.find((o) => o.outcome.exitReason !== undefined);
        if (exitOutcome) {
          exit = exitOutcome.outcome.exitReason;
          // The result has been delivered to the model's context: now end the conversation.
          this.#host.push({ text: `<exit>${exit}</exit>` });
          break;
        }
        if (step === maxSteps) error = `stopped after ${maxSteps} model calls in one turn`;
      }
    } catch (err) {
      if (!isAbort(err, signal)) {
        error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        this.#host.log.error({ err, turn }, 'turn failed');
        this.#host.emit('error', { error: `The model call failed: ${error}`, fatal: false });
      }
    } finally {
      this.#host.signal.removeEventListener('abort', onSessionEnd);
      this.#running = undefined;
      if (!signal.aborted) speech?.end();
      resolveDone();
    }
    const message: TurnCompleteMessage = {
      type: 'turn-complete',
      turn,
      text: texts.join('\n').trim(),
      interrupted: signal.aborted,
      calls,
      scripted: this.#model.scripted,
    };
    if (exit !== undefined) message.exit = exit;
    if (error !== undefined) message.error = error;
    this.#host.push(message);
  }

  async #modelCall(
    turn: number,
    step: number,
    signal: AbortSignal,
    options: SendTextOptions,
    speech: SpeechOutput | undefined,
  ): Promise<{ text: string; toolCalls: ContextToolCall[] }> {
    const { context } = this.#host;
    const started = performance.now();
    let ttfb: number | undefined;
    let text = '';
    const toolCalls: ContextToolCall[] = [];
    let usage: ChatUsage | undefined;
    this.#host.emit('bot-llm-started');
    try {
      const stream = this.#model.stream({
        messages: context.messages(),
        tools: this.#toolSpecs(),
        signal,
        turn,
        step,
      });
      for await (const event of stream) {
        if (signal.aborted) break;
        ttfb ??= (performance.now() - started) / 1000;
        if (event.type === 'text-delta') {
          text += event.text;
          this.#host.emit('bot-llm-text', { text: event.text });
          speech?.text(event.text);
        } else if (event.type === 'tool-call') {
          toolCalls.push({
            id: event.id,
            type: 'function',
            function: { name: event.name, arguments: event.arguments },
          });
        } else {
          usage = event.usage;
        }
      }
    } finally {
      this.#host.emit('bot-llm-stopped');
    }
    // An interrupted call's partial output never reaches the context (it is appended only once
    // complete); completed steps stay, their effects are real.
    if (signal.aborted) return { text: '', toolCalls: [] };
    const metrics: {
      ttfb: { processor: string; model: string; value: number }[];
      tokens?: unknown[];
    } = {
      ttfb: [{ processor: this.#model.processor, model: this.#model.model, value: ttfb ?? 0 }],
    };
    if (usage) {
      metrics.tokens = [
        {
          processor: this.#model.processor,
          model: this.#model.model,
          prompt_tokens: usage.promptTokens,
          completion_tokens: usage.completionTokens,
          total_tokens: usage.totalTokens,
        },
      ];
    }
    this.#host.emit('metrics', metrics as never);
    const message: ContextMessage = { role: 'assistant', content: text.length > 0 ? text : null };
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    if (text.length > 0 || toolCalls.length > 0) context.append(message);
    // Spoken text is reported sentence by sentence as it is spoken.
    if (text.length > 0 && !speech) {
      this.#host.emit('bot-output', {
        text,
        aggregated_by: 'sentence',
        spoken: false,
        will_be_spoken: options.audioResponse,
      } as never);
    }
    return { text, toolCalls };
  }

  /**
   * Run one model response's tool calls: together when every tool may run concurrently, else
   * one after another. Once the turn is interrupted, the calls not started yet do not run.
   */
  async #runTools(
    calls: ContextToolCall[],
    signal: AbortSignal,
  ): Promise<{ call: ContextToolCall; outcome: ToolCallOutcome }[]> {
    const parallel = calls.every((call) => {
      const tool = this.#host.state.tools.get(call.function.name)?.tool;
      return tool ? (tool.concurrent ?? tool.kind === 'read') : true;
    });
    if (calls.length > 0)
      this.#host.emit('llm-function-call-started', { function_name: calls[0]?.function.name });
    const run = (call: ContextToolCall) => this.#runTool(call, signal);
    const outcomes: ToolCallOutcome[] = [];
    if (parallel) outcomes.push(...(await Promise.all(calls.map(run))));
    else for (const call of calls) outcomes.push(await run(call));
    calls.forEach((call, i) => {
      const outcome = outcomes[i] as ToolCallOutcome;
      this.#host.context.append({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(outcome.modelResult ?? null),
      });
    });
    return calls.map((call, i) => ({ call, outcome: outcomes[i] as ToolCallOutcome }));
  }

  /**
   * Run one tool call and report it. A call reached after the turn was interrupted does not run
   * and is reported cancelled; a call that ran is reported cancelled only when the interruption
   * stopped it before it changed anything.
   */
  async #runTool(call: ContextToolCall, signal: AbortSignal): Promise<ToolCallOutcome> {
    const name = call.function.name;
    const level = this.#reportLevel(name);
    const parsed = parseToolArguments(call);
    if (!parsed.ok) {
      this.#reportStopped(call, level, parsed.outcome.modelResult, false);
      return parsed.outcome;
    }
    const { args } = parsed;
    const argsObject = argumentsObject(args) ?? {};
    this.#reportInProgress(call, level, args);
    if (signal.aborted) {
      const outcome = notRunOutcome(signal, argsObject);
      this.#reportStopped(call, level, outcome.modelResult, true);
      return outcome;
    }
    this.#toolCallsInFlight++;
    try {
      const bound = this.#host.state.tools.get(name);
      if (bound?.tool.kind === 'frontend' && this.#frontend && this.#browserHas(bound.tool)) {
        const answer = await this.#frontend(name, argsObject, signal);
        // The browser's answer to an interrupted call is its cancellation.
        this.#reportStopped(call, level, answer.result, !answer.ok && signal.aborted);
        return frontendOutcome(answer, argsObject);
      }
      let actions = 0;
      const outcome = await executeToolByName(this.#host.state, name, args, {
        signal,
        onAction: (action, domain) => {
          actions++;
          this.#host.actionApplied(action, domain);
        },
        onServerMessage: (data) => this.#host.push(data),
      });
      // A tool that completed, or recorded an action before failing, ran: it is not cancelled.
      const stopped = signal.aborted && !outcome.ok && actions === 0;
      this.#reportStopped(call, level, outcome.modelResult, stopped);
      return outcome;
    } finally {
      this.#toolCallsInFlight--;
      if (this.#toolCallsInFlight === 0) {
        const waiters = this.#idleWaiters;
        this.#idleWaiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  #reportInProgress(call: ContextToolCall, level: FunctionCallReportLevel, args: unknown): void {
    if (level === 'DISABLED') return;
    const data: LLMFunctionCallInProgressData = { tool_call_id: call.id };
    if (level === 'NAME' || level === 'FULL') data.function_name = call.function.name;
    const shown = argumentsObject(args);
    if (level === 'FULL' && shown) data.arguments = shown;
    this.#host.emit('llm-function-call-in-progress', data);
  }

  /** Run a frontend tool in the browser only when the browser announced its method. */
  #browserHas(tool: ToolDefinition): boolean {
    const rpc = this.#host.rpc;
    if (!rpc) return this.#options.frontendTools !== undefined;
    return rpc.hasRemoteMethod(
      resolveRpcMethodName({ name: tool.name, frontend_method: tool.frontend?.method }),
    );
  }

  #reportStopped(
    call: ContextToolCall,
    level: FunctionCallReportLevel,
    result: unknown,
    cancelled: boolean,
  ): void {
    if (level === 'DISABLED') return;
    const data: LLMFunctionCallStoppedData = { tool_call_id: call.id, cancelled };
    if (level === 'NAME' || level === 'FULL') data.function_name = call.function.name;
    if (level === 'FULL') data.result = result;
    this.#host.emit('llm-function-call-stopped', data);
  }
}
