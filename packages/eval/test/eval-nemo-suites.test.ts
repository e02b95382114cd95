// NeMo's suites besides tau2, run end to end through real bots with the scripted policies.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAITestServer } from '@scenaro/agent/testing';
import type { OpenAITestServer } from '@scenaro/agent/testing';
import { runEvaluation } from '../src/index.js';
import type { EvaluationOptions, ScenarioMetrics } from '../src/index.js';
import { collectingStream, hasSharedData, sharedData, tempOutput } from './helpers.js';

function run(domain: string, options: Partial<EvaluationOptions> = {}) {
  return runEvaluation({
    domains: [domain],
    dataRoot: sharedData,
    outputDir: tempOutput(),
    runId: domain,
    concurrency: 8,
    progressStream: collectingStream(),
    ...options,
  });
}

function failures(metrics: readonly ScenarioMetrics[]): string[] {
  return metrics
    .filter((m) => m.is_successful !== true)
    .map(
      (m) =>
        `${m.scenario_name}: ${JSON.stringify(m.success_breakdown)} ${m.not_scored_reason ?? ''}`,
    );
}

describe.skipIf(!hasSharedData)('scenaro eval on the NeMo suites (scripted policies)', () => {
  it('eva_airline: every scenario succeeds by db hash and clean exit', async () => {
    const result = await run('eva_airline');
    expect(result.metrics).toHaveLength(50);
    expect(failures(result.metrics)).toEqual([]);
    for (const m of result.metrics) expect(m.db_state_match).toBe(true);
  }, 180_000);

  for (const [domain, count] of [
    ['restaurant', 11],
    ['fastbite', 1],
    ['customer_service', 10],
  ] as const) {
    it(`${domain}: every scenario succeeds by action match and clean exit`, async () => {
      const result = await run(domain);
      expect(result.metrics).toHaveLength(count);
      expect(failures(result.metrics)).toEqual([]);
      for (const m of result.metrics) expect(m['is_action_match']).toBe(true);
    }, 120_000);
  }

  describe('qa and simple_qa (judged)', () => {
    let judge: OpenAITestServer;
    beforeAll(async () => {
      judge = await startOpenAITestServer();
      judge.respond(() => ({
        text: JSON.stringify({ score: 1, reason: 'the saved answer is right' }),
      }));
    });
    afterAll(async () => {
      await judge.close();
    });

    for (const [domain, count] of [
      ['qa', 10],
      ['simple_qa', 3],
    ] as const) {
      it(`${domain}: not scored without a judge, never failed`, async () => {
        const result = await run(domain);
        expect(result.metrics).toHaveLength(count);
        for (const m of result.metrics) {
          expect(m['is_successful'], String(m['scenario_name'])).toBe('N/A');
          expect(String(m['not_scored_reason'])).toMatch(/judge/);
          expect(m['clean_exit']).toBe(true);
        }
      }, 120_000);

      it(`${domain}: every scenario passes with the local test server as judge`, async () => {
        const before = judge.requests.length;
        const result = await run(domain, {
          judge: { baseURL: judge.baseURL, model: 'judge-model', apiKey: 'test-key' },
        });
        expect(result.metrics).toHaveLength(count);
        expect(failures(result.metrics)).toEqual([]);
        for (const m of result.metrics) expect(m['judge_passed']).toBe(true);
        // One row per suite in the report's domain table (simple_qa's names have no `__`).
        expect(Object.keys(result.aggregate.per_domain)).toEqual([domain]);
        const report = readFileSync(join(result.runDir, 'report.html'), 'utf8');
        expect(report).toContain(`<tr><td>${domain}</td>`);
        const asked = judge.requests.slice(before);
        expect(asked).toHaveLength(count);
        const user = String(asked[0]?.messages[1]?.['content']);
        expect(user).toMatch(/<reference>[\s\S]*"question"[\s\S]*<\/reference>/);
        expect(user).toMatch(/<prediction>[\s\S]*"answer"[\s\S]*<\/prediction>/);
      }, 120_000);
    }
  });
});
