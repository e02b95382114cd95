/**
 * The signals that need the LLM judge: its score against the threshold (`judge_passed`) and its
 * verdicts on the scenario's natural-language assertions.
 *
 * @module
 */
import type { Scenario, SuccessSignal } from '@scenaro/domains';
import type { JudgeResult } from './judge.js';
import { normalizeScenarioPayload } from './match.js';
import type { ScoreInput } from './score-input.js';
import { passRate } from './statistics.js';
import type { NlAssertionVerdict, ScenarioMetrics } from './types.js';
import { errorMessage } from '@scenaro/sdk/util';

/** What the judge said, as `metrics.json` stores it. */
export type JudgeFields = Pick<
  ScenarioMetrics,
  'nl_assertion_pass_rate' | 'nl_assertion_verdicts' | 'judge_score' | 'judge_passed' | 'judge'
>;

/** The judge's part of the signals. */
export interface JudgeSignals {
  fields: JudgeFields;
  /** Judge-dependent signals the scenario gates on. */
  needsJudge: SuccessSignal[];
  /** The judge's answer, when it was called. */
  judgeResult?: JudgeResult;
  /** Why the judge result is missing or unusable, when it is. */
  judgeUnavailable?: string;
}

/** What the judge compares: the action match's reference and prediction. */
export interface JudgedActions {
  reference: unknown;
  prediction: unknown[] | undefined;
}

/** Signals that need the judge (when the scenario whitelists them and they have something to judge). */
export function judgeDependentSignals(scenario: Scenario): SuccessSignal[] {
  const out: SuccessSignal[] = [];
  if (scenario.successSignals.includes('judge_passed')) out.push('judge_passed');
  if (scenario.successSignals.includes('nl_assertion') && scenario.nlAssertions.length > 0)
    out.push('nl_assertion');
  return out;
}

/**
 * Ask the judge when it is configured and the scenario needs it (or has NL assertions, or
 * `judgeAll`), unless the run failed or stalled: then its verdict could not change the outcome.
 */
export async function judgeSignals(
  input: ScoreInput,
  actions: JudgedActions,
  stalled: boolean,
): Promise<JudgeSignals> {
  const needsJudge = judgeDependentSignals(input.scenario);
  const { judgeResult, judgeUnavailable } = await askJudge(input, actions, {
    wanted:
      (input.judgeAll ?? false) || needsJudge.length > 0 || input.scenario.nlAssertions.length > 0,
    stalled,
  });
  const signals: JudgeSignals = { fields: judgeFields(input, judgeResult), needsJudge };
  if (judgeResult !== undefined) signals.judgeResult = judgeResult;
  if (judgeUnavailable !== undefined) signals.judgeUnavailable = judgeUnavailable;
  return signals;
}

async function askJudge(
  input: ScoreInput,
  actions: JudgedActions,
  when: { wanted: boolean; stalled: boolean },
): Promise<{ judgeResult?: JudgeResult; judgeUnavailable?: string }> {
  const { scenario, run, judge } = input;
  if (!when.wanted) return {};
  if (!judge) return { judgeUnavailable: 'no LLM judge is configured' };
  if (run.failure) return { judgeUnavailable: 'the run failed; the judge was not called' };
  if (when.stalled) return { judgeUnavailable: 'the agent stalled; the judge was not called' };
  let judgeResult: JudgeResult;
  try {
    judgeResult = await judge.judge(
      {
        scenarioName: scenario.name,
        reference: normalizeScenarioPayload(actions.reference),
        prediction:
          actions.prediction === undefined
            ? undefined
            : normalizeScenarioPayload(actions.prediction),
        conversation: run.turns.map((t) => ({ role: t.role, text: t.text })),
        agentContext: run.agentContext,
        userContext: run.userContext,
        nlAssertions: scenario.nlAssertions,
      },
      input.signal ? { signal: input.signal } : {},
    );
  } catch (error) {
    judgeResult = {
      score: 0,
      reason: 'judge call threw',
      error: errorMessage(error),
    };
  }
  return judgeResult.error !== undefined
    ? { judgeResult, judgeUnavailable: `the judge failed: ${judgeResult.error}` }
    : { judgeResult };
}

function judgeFields(input: ScoreInput, judgeResult: JudgeResult | undefined): JudgeFields {
  const usable = judgeResult?.error === undefined ? judgeResult : undefined;
  const judgeScore = usable ? usable.score : null;
  const nlVerdicts = usable ? nlAssertionVerdicts(input.scenario, usable) : [];
  return {
    nl_assertion_pass_rate: passRate(nlVerdicts),
    nl_assertion_verdicts: nlVerdicts,
    judge_score: judgeScore,
    judge_passed: judgeScore === null ? 'N/A' : judgeScore >= (input.judge?.threshold ?? 0.9),
    judge:
      judgeResult === undefined
        ? null
        : {
            score: judgeScore,
            reason: judgeResult.reason,
            model: judgeResult.model ?? input.judge?.model ?? null,
            error: judgeResult.error ?? null,
          },
  };
}

/** The judge's verdict on each NL assertion, in the scenario's order. */
function nlAssertionVerdicts(scenario: Scenario, result: JudgeResult): NlAssertionVerdict[] {
  return scenario.nlAssertions.map((assertion, i) => {
    const v = result.nl_assertion_verdicts?.[i];
    return {
      index: i + 1,
      assertion,
      passed: v?.passed === true,
      reason: v?.reason ?? 'no verdict from the judge',
    };
  });
}
