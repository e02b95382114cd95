import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAITestServer } from '@scenaro/agent/testing';
import type { OpenAITestServer } from '@scenaro/agent/testing';
import {
  buildJudgeUserContent,
  createJudge,
  JUDGE_SYSTEM_PROMPT,
  normalizeVerdicts,
  OpenAIJudge,
  parseJudgeAnswer,
} from './judge.js';
import type { JudgeRequest } from './judge.js';
import { scoreScenario } from './nemo.js';
import { makeRun, makeScenario } from '../test-support/scoring-fixtures.js';

const request: JudgeRequest = {
  scenarioName: 'tau2_retail__1',
  reference: { actions: [{ name: 'refund', arguments: { amount: 5244 } }] },
  prediction: { actions: [] },
  conversation: [
    { role: 'agent', text: 'Hi <b>there</b>' },
    { role: 'user', text: 'Refund me' },
  ],
  agentContext: [{ role: 'system', content: 'policy' }],
  userContext: [],
  nlAssertions: ['Agent refunds $5244.', 'Agent is polite.'],
};

describe('judge prompt and answer parsing', () => {
  it('builds the tagged user message', () => {
    const text = buildJudgeUserContent(request);
    expect(text).toContain('<reference>\n{\n  "actions"');
    expect(text).toContain('<prediction>');
    expect(text).toContain(
      '<nl_assertions>\n1. Agent refunds $5244.\n2. Agent is polite.\n</nl_assertions>',
    );
    expect(text).toContain('<agent_context_history>');
    expect(text).not.toContain('<user_context_history>');
    expect(text).not.toContain('<conversation>');
    expect(buildJudgeUserContent(request, { includeConversation: true })).toContain(
      '<conversation>\n[agent]: Hi <b>there</b>\n[user]: Refund me\n</conversation>',
    );
  });

  it('compacts long contexts when asked', () => {
    const long = {
      ...request,
      agentContext: Array.from({ length: 50 }, (_, i) => ({
        role: 'user',
        content: `${i}:${'x'.repeat(3000)}`,
      })),
    };
    const text = buildJudgeUserContent(long, { compactContext: true });
    expect(text).not.toContain('"0:x');
    expect(text).toContain('"49:x');
    expect(text).toContain('more characters]');
  });

  it('parses plain JSON, fenced JSON and JSON inside prose', () => {
    expect(parseJudgeAnswer('{"score": 0.8, "reason": "ok"}', 0)).toEqual({
      score: 0.8,
      reason: 'ok',
    });
    expect(
      parseJudgeAnswer('Here:\n```json\n{"score": 1, "reason": "a {brace} in text"}\n```', 0),
    ).toEqual({ score: 1, reason: 'a {brace} in text' });
    expect(parseJudgeAnswer('I think {not json} then {"score": "0.5"} done', 0).score).toBe(0.5);
    expect(parseJudgeAnswer('{"score": 7}', 0).score).toBe(1);
    expect(() => parseJudgeAnswer('no verdict here', 0)).toThrow(/could not find/);
    expect(() => parseJudgeAnswer('{"score": "high"}', 0)).toThrow(/not a number/);
  });

  it('normalises verdicts to one per assertion', () => {
    expect(
      normalizeVerdicts(
        [{ index: 2, passed: true, reason: 'b' }, { index: 9, passed: true }, 'junk'],
        3,
      ),
    ).toEqual([
      { index: 1, passed: false, reason: 'no verdict from the judge' },
      { index: 2, passed: true, reason: 'b' },
      { index: 3, passed: false, reason: 'no verdict from the judge' },
    ]);
    expect(
      normalizeVerdicts([{ passed: true }, { passed: 'yes' }], 2).map((v) => v.passed),
    ).toEqual([true, false]);
    expect(normalizeVerdicts(undefined, 1)).toHaveLength(1);
  });

  it('is off unless a base URL and a model are configured', () => {
    expect(createJudge(undefined)).toBeUndefined();
    expect(createJudge({ model: 'm' })).toBeUndefined();
    expect(createJudge({ baseURL: 'http://127.0.0.1:1/v1' })).toBeUndefined();
    expect(createJudge({ baseURL: 'http://127.0.0.1:1/v1', model: 'm' })).toBeInstanceOf(
      OpenAIJudge,
    );
  });
});

describe('OpenAIJudge against a local OpenAI-compatible server', () => {
  let server: OpenAITestServer;
  beforeAll(async () => {
    server = await startOpenAITestServer({ apiKey: 'judge-key' });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => server.reset());

  it('sends one chat completion and parses the verdicts', async () => {
    server.enqueue({
      text: JSON.stringify({
        score: 0.92,
        reason: 'refund done',
        nl_assertion_verdicts: [
          { index: 1, passed: true, reason: 'said $5244' },
          { index: 2, passed: false, reason: 'curt' },
        ],
      }),
    });
    const judge = new OpenAIJudge({
      baseURL: `${server.baseURL}/chat/completions`,
      model: 'judge-model',
      apiKeyEnv: 'MY_JUDGE_KEY',
      env: { MY_JUDGE_KEY: 'judge-key' },
      seed: 42,
      extraBody: { chat_template_kwargs: { enable_thinking: true }, model: 'ignored' },
    });
    const result = await judge.judge(request);
    expect(result).toEqual({
      score: 0.92,
      reason: 'refund done',
      nl_assertion_verdicts: [
        { index: 1, passed: true, reason: 'said $5244' },
        { index: 2, passed: false, reason: 'curt' },
      ],
      model: 'judge-model',
    });
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0];
    expect(body?.model).toBe('judge-model');
    expect(body?.['seed']).toBe(42);
    expect(body?.['temperature']).toBe(0);
    expect(body?.['chat_template_kwargs']).toEqual({ enable_thinking: true });
    expect(body?.messages[0]).toEqual({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    expect(String(body?.messages[1]?.['content'])).toContain('<nl_assertions>');
    expect(server.calls[0]?.headers.authorization).toBe('Bearer judge-key');
  });

  it('returns an error result (not a throw) on HTTP errors and timeouts', async () => {
    server.enqueue({ error: { status: 500, message: 'boom', shouldRetry: false } });
    const judge = new OpenAIJudge({
      baseURL: server.baseURL,
      model: 'm',
      apiKey: 'judge-key',
      maxRetries: 0,
    });
    const failed = await judge.judge(request);
    expect(failed.error).toMatch(/boom|500/);
    expect(failed.score).toBe(0);
    expect(failed.nl_assertion_verdicts?.every((v) => !v.passed)).toBe(true);

    server.enqueue({ hang: true });
    const slow = new OpenAIJudge({
      baseURL: server.baseURL,
      model: 'm',
      apiKey: 'judge-key',
      maxRetries: 0,
      timeoutMs: 200,
    });
    const timedOut = await slow.judge(request);
    expect(timedOut.error).toMatch(/time/i);

    server.enqueue({ text: 'I refuse to answer in JSON' });
    const prose = await judge.judge(request);
    expect(prose.error).toMatch(/could not find a JSON verdict/);

    const unauthorized = new OpenAIJudge({
      baseURL: server.baseURL,
      model: 'm',
      apiKey: 'wrong',
      maxRetries: 0,
    });
    server.enqueue({ text: '{"score": 1}' });
    expect((await unauthorized.judge(request)).error).toMatch(/401|API key/i);
  });

  it('drives the scorer end to end', async () => {
    server.enqueue({ text: '{"score": 0.95, "reason": "good"}' });
    const judge = createJudge({
      baseURL: server.baseURL,
      model: 'judge-model',
      apiKey: 'judge-key',
    });
    const m = await scoreScenario({
      scenario: makeScenario({ successSignals: ['judge_passed', 'clean_exit'] }),
      run: makeRun(),
      predicates: () => undefined,
      ...(judge ? { judge } : {}),
    });
    expect(m.judge_score).toBe(0.95);
    expect(m.judge_passed).toBe(true);
    expect(m.is_successful).toBe(true);
    expect(m.judge?.model).toBe('judge-model');
  });
});
