/**
 * The LLM judge: an interface the scorers call, and an implementation for any OpenAI-compatible
 * chat-completions endpoint (OpenAI, vLLM, NIM, Ollama...).
 *
 * The judge is OFF unless configured: {@link createJudge} returns `undefined` without a base URL
 * and a model, and the scorers then report scenarios that need it as not scored (never failed).
 *
 * One call per scenario: the user message carries `<reference>`, `<prediction>`, optional
 * `<conversation>`, `<nl_assertions>` (numbered), `<agent_context_history>` and
 * `<user_context_history>` blocks, like the NeMo harness; the answer is a JSON object
 * `{score, reason, nl_assertion_verdicts?: [{index, passed, reason}]}`. A judge that cannot answer
 * (HTTP error, timeout, unparseable text) returns a result with `error` set instead of throwing.
 *
 * @module
 */
import { createOpenAIClient } from '@scenaro/agent';
import type { OpenAIEndpointOptions } from '@scenaro/agent';
import type OpenAI from 'openai';
import { isJsonObject } from '@scenaro/sdk/util';
import { errorMessage } from '@scenaro/sdk/util';

/** `judge_passed = judge_score >= threshold`. */
export const DEFAULT_JUDGE_THRESHOLD = 0.9;
/** Seconds the reference waits for its judge. */
export const DEFAULT_JUDGE_TIMEOUT_MS = 120_000;
/** Environment variable the API key is read from by default (the reference's `--judge-api-key-name`). */
export const DEFAULT_JUDGE_API_KEY_ENV = 'JUDGE_API_KEY';

/** What the judge is shown about one scenario. */
export interface JudgeRequest {
  scenarioName: string;
  /** The reference answer, shape-normalised (`{"actions": [...]}` for gold actions). */
  reference: unknown;
  /** The agent's answer, shape-normalised (final responses, or the pulled actions); `undefined` when none. */
  prediction: unknown;
  /** The transcript; judges may leave it out (the reference does by default). */
  conversation: readonly { role: string; text: string }[];
  agentContext?: unknown;
  userContext?: unknown;
  /** Natural-language assertions to give one verdict each. */
  nlAssertions: readonly string[];
}

/** One per-assertion verdict, `index` 1-based. */
export interface JudgeAssertionVerdict {
  index: number;
  passed: boolean;
  reason: string;
}

/** What a judge answers. */
export interface JudgeResult {
  /** 0..1. */
  score: number;
  reason: string;
  /** Exactly one verdict per assertion, in order, when the request had assertions. */
  nl_assertion_verdicts?: JudgeAssertionVerdict[];
  /** Set when the judge could not give a verdict; `score` is then 0 and must not be trusted. */
  error?: string;
  model?: string;
}

/** A judge the scorers can call. */
export interface Judge {
  /** `judge_passed` threshold. */
  readonly threshold: number;
  /** For the record (`metrics.judge.model`). */
  readonly model?: string;
  judge(request: JudgeRequest, options?: { signal?: AbortSignal }): Promise<JudgeResult>;
}

/**
 * Options of {@link OpenAIJudge}. `baseURL` may also be a full `.../chat/completions` URL (the
 * reference's `--judge-url`). Defaults: `apiKeyEnv` `JUDGE_API_KEY`; `timeoutMs` 120000, the
 * deadline of one attempt; `maxRetries` 2, on retryable HTTP errors.
 */
export interface OpenAIJudgeOptions extends OpenAIEndpointOptions {
  /** @default 0.9 */
  threshold?: number;
  /** @default 0 */
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Server-specific body fields, e.g. `{chat_template_kwargs: {enable_thinking: true}}`. */
  extraBody?: Record<string, unknown>;
  /** Include the transcript (`<conversation>`). @default false, as the reference */
  includeConversation?: boolean;
  /** Keep only the last 40 context messages and cut long strings (for small-context judges). @default false */
  compactContext?: boolean;
  /** Replace the system prompt. */
  systemPrompt?: string;
  /** Environment to read the key from. @default process.env */
  env?: Record<string, string | undefined>;
}

/** The system prompt of {@link OpenAIJudge}. */
export const JUDGE_SYSTEM_PROMPT = `You grade how well a customer-service agent handled one scripted conversation.
The user message contains some of these XML-tagged blocks:
- <reference>: the expected outcome (for example the actions the agent should have taken);
- <prediction>: what the agent actually produced (its final answer, or the actions it recorded);
- <conversation>: the transcript, one line per turn;
- <nl_assertions>: numbered statements about the conversation to check one by one;
- <agent_context_history>: the agent's own model context, with its tool calls and their results;
- <user_context_history>: the simulated user's model context, with the user's own tool calls.

An action with side "agent" must be done by the agent with its own tool; check the agent context for the call and its arguments.
An action with side "user" is done by the simulated user on their own device; the agent cannot call it and is graded on diagnosing the problem and guiding the user to do it. Calls in the user context were made by the user, never by the agent.

Score from 0 (complete failure) to 1 (the outcome is right and every assertion holds). Small wording, formatting or farewell issues must not cost more than 0.05 in total when the task itself was done.

Answer with ONLY a JSON object, no other text:
{"score": <number 0..1>, "reason": "<concrete explanation quoting the evidence>"}
When <nl_assertions> is present, add one verdict per assertion, in order:
{"score": ..., "reason": "...", "nl_assertion_verdicts": [{"index": <1-based>, "passed": <true|false>, "reason": "<evidence>"}]}
"passed" is true only when the evidence clearly shows the assertion holds.`;

const COMPACT_MESSAGES = 40;
const COMPACT_STRING = 2_500;

function compact(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > COMPACT_STRING
      ? `${value.slice(0, COMPACT_STRING)}... [${value.length - COMPACT_STRING} more characters]`
      : value;
  }
  if (Array.isArray(value)) return value.map(compact);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  }
  return value;
}

function compactHistory(history: unknown): unknown {
  if (!Array.isArray(history)) return compact(history);
  const kept =
    history.length > COMPACT_MESSAGES ? history.slice(history.length - COMPACT_MESSAGES) : history;
  return kept.map(compact);
}

function hasContent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value) || typeof value === 'string') return value.length > 0;
  return true;
}

/** The user message of a judge call. */
export function buildJudgeUserContent(
  request: JudgeRequest,
  options: { includeConversation?: boolean; compactContext?: boolean } = {},
): string {
  const json = (value: unknown): string => JSON.stringify(value ?? null, null, 2);
  const sections = [
    `<reference>\n${json(request.reference)}\n</reference>`,
    `<prediction>\n${json(request.prediction)}\n</prediction>`,
  ];
  if (options.includeConversation && request.conversation.length > 0) {
    const lines = request.conversation.map((t) => `[${t.role}]: ${t.text}`).join('\n');
    sections.push(`<conversation>\n${lines}\n</conversation>`);
  }
  if (request.nlAssertions.length > 0) {
    const numbered = request.nlAssertions.map((a, i) => `${i + 1}. ${a}`).join('\n');
    sections.push(`<nl_assertions>\n${numbered}\n</nl_assertions>`);
  }
  const prepare = options.compactContext ? compactHistory : (v: unknown) => v;
  if (hasContent(request.agentContext)) {
    sections.push(
      `<agent_context_history>\n${json(prepare(request.agentContext))}\n</agent_context_history>`,
    );
  }
  if (hasContent(request.userContext)) {
    sections.push(
      `<user_context_history>\n${json(prepare(request.userContext))}\n</user_context_history>`,
    );
  }
  return sections.join('\n\n');
}

/** The first balanced `{...}` in `text` that parses as JSON with a `score`, if any. */
function findJsonObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) {
          try {
            const parsed: unknown = JSON.parse(text.slice(start, i + 1));
            if (
              typeof parsed === 'object' &&
              parsed !== null &&
              !Array.isArray(parsed) &&
              'score' in parsed
            ) {
              return parsed as Record<string, unknown>;
            }
          } catch {
            // not JSON; try the next opening brace
          }
          break;
        }
      }
    }
  }
  return undefined;
}

/**
 * Normalise verdicts to exactly one per assertion, in order: by `index` (1-based) when given,
 * else by position; a missing or malformed verdict counts as failed.
 */
export function normalizeVerdicts(raw: unknown, count: number): JudgeAssertionVerdict[] {
  const byIndex = new Map<number, JudgeAssertionVerdict>();
  if (Array.isArray(raw)) {
    raw.forEach((entry: unknown, position) => {
      if (typeof entry !== 'object' || entry === null) return;
      const v = entry as Record<string, unknown>;
      const index =
        typeof v['index'] === 'number'
          ? v['index']
          : Number.parseInt(String(v['index'] ?? position + 1), 10);
      if (!Number.isInteger(index) || index < 1 || index > count || byIndex.has(index)) return;
      byIndex.set(index, {
        index,
        passed: v['passed'] === true,
        reason: typeof v['reason'] === 'string' ? v['reason'] : '',
      });
    });
  }
  return Array.from(
    { length: count },
    (_, i) =>
      byIndex.get(i + 1) ?? { index: i + 1, passed: false, reason: 'no verdict from the judge' },
  );
}

/** Parse a judge's answer text: JSON, JSON in a code fence, or the first JSON object with a score. */
export function parseJudgeAnswer(content: string, assertionCount: number): JudgeResult {
  let parsed: Record<string, unknown> | undefined;
  try {
    const direct: unknown = JSON.parse(content);
    if (isJsonObject(direct)) parsed = direct;
  } catch {
    parsed = findJsonObject(content);
  }
  if (!parsed)
    throw new Error(
      `could not find a JSON verdict in the judge's answer: ${content.slice(0, 200)}`,
    );
  const score = Number(parsed['score']);
  if (!Number.isFinite(score))
    throw new Error(`the judge's score is not a number: ${JSON.stringify(parsed['score'])}`);
  const result: JudgeResult = {
    score: Math.min(1, Math.max(0, score)),
    reason: typeof parsed['reason'] === 'string' ? parsed['reason'] : '',
  };
  if (assertionCount > 0)
    result.nl_assertion_verdicts = normalizeVerdicts(
      parsed['nl_assertion_verdicts'],
      assertionCount,
    );
  return result;
}

/** A judge behind an OpenAI-compatible chat-completions endpoint. */
export class OpenAIJudge implements Judge {
  readonly threshold: number;
  readonly model: string;
  readonly #client: OpenAI;
  readonly #options: OpenAIJudgeOptions;

  constructor(options: OpenAIJudgeOptions) {
    if (!options.baseURL) throw new Error('OpenAIJudge needs a baseURL');
    if (!options.model) throw new Error('OpenAIJudge needs a model');
    this.#options = options;
    this.model = options.model;
    this.threshold = options.threshold ?? DEFAULT_JUDGE_THRESHOLD;
    this.#client = createOpenAIClient({
      baseURL: options.baseURL.replace(/\/+$/, '').replace(/\/chat\/completions$/, ''),
      apiKey: options.apiKey,
      apiKeyEnv: options.apiKeyEnv ?? DEFAULT_JUDGE_API_KEY_ENV,
      env: options.env,
      timeoutMs: options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? 2,
      fetch: options.fetch,
    });
  }

  async judge(request: JudgeRequest, options: { signal?: AbortSignal } = {}): Promise<JudgeResult> {
    const o = this.#options;
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      ...o.extraBody,
      model: o.model,
      messages: [
        { role: 'system', content: o.systemPrompt ?? JUDGE_SYSTEM_PROMPT },
        {
          role: 'user',
          content: buildJudgeUserContent(request, {
            includeConversation: o.includeConversation ?? false,
            compactContext: o.compactContext ?? false,
          }),
        },
      ],
      temperature: o.temperature ?? 0,
      stream: false,
    };
    if (o.topP !== undefined) body.top_p = o.topP;
    if (o.maxTokens !== undefined) body.max_tokens = o.maxTokens;
    if (o.seed !== undefined) body.seed = o.seed;
    const count = request.nlAssertions.length;
    try {
      const completion = await this.#client.chat.completions.create(
        body,
        options.signal ? { signal: options.signal } : undefined,
      );
      const content = completion.choices[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '')
        throw new Error('the judge returned no text');
      return { ...parseJudgeAnswer(content, count), model: o.model };
    } catch (error) {
      const failed: JudgeResult = {
        score: 0,
        reason: `Error: ${errorMessage(error)}`,
        error: errorMessage(error),
        model: o.model,
      };
      if (count > 0) failed.nl_assertion_verdicts = normalizeVerdicts([], count);
      return failed;
    }
  }
}

/** Judge settings as a run configures them; a judge exists only when `baseURL` and `model` are set. */
export type JudgeConfig = Partial<OpenAIJudgeOptions>;

/** An {@link OpenAIJudge} when configured (base URL and model), otherwise `undefined` (judge off). */
export function createJudge(config: JudgeConfig | undefined): Judge | undefined {
  if (!config?.baseURL || !config.model) return undefined;
  return new OpenAIJudge({ ...config, baseURL: config.baseURL, model: config.model });
}
