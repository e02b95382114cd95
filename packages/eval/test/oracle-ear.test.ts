// Audio mode with the oracle ear (`--stt oracle`), on the fast clock with the real local bots
// (Flite voices, the WebRTC VAD, the listening policies): each bot hears exactly what the other
// said, so airline scenarios pass as the gold plan dictates; with `--stt-fault swap-digit` a
// scenario whose plan needs the caller's reservation id shows the mishearing (a clarification
// turn, and a failure attributed to the misheard code in metrics.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oracleHears } from '@scenaro/agent/voice';
import { localSpeechSettings, runEvaluation } from '../src/index.js';
import type { EvaluationOptions, ScenarioMetrics } from '../src/index.js';
import { collectingStream, hasSharedData, sharedData, tempOutput } from './helpers.js';

function airline(
  runId: string,
  scenarios: string[],
  speech: EvaluationOptions['speech'],
): ReturnType<typeof runEvaluation> {
  return runEvaluation({
    domains: ['tau2_airline'],
    scenarios,
    dataRoot: sharedData,
    outputDir: tempOutput('scenaro-oracle-'),
    runId,
    concurrency: 2,
    mode: 'audio',
    audioClock: 'fast',
    ...(speech ? { speech } : {}),
    progressStream: collectingStream(),
  });
}

/** What a scenario's segments said and heard, by role. */
function segments(metrics: ScenarioMetrics) {
  return metrics.audio?.segments ?? [];
}

describe.skipIf(!hasSharedData)('audio mode with the oracle ear', () => {
  it('passes airline scenarios, each bot hearing exactly what the other said', async () => {
    const chosen = ['tau2_airline__11', 'tau2_airline__12', 'tau2_airline__40'];
    const result = await airline('oracle', chosen, localSpeechSettings({ stt: 'oracle' }));
    expect(result.metrics.map((m) => [m.scenario_name, m.is_successful])).toEqual(
      chosen.map((name) => [name, true]),
    );
    for (const metrics of result.metrics) {
      // A write was made with the caller's reservation code, heard as it was said.
      expect(metrics.actions.agent.length, metrics.scenario_name).toBeGreaterThan(0);
      const heard = segments(metrics).filter((s) => s.heard !== '');
      expect(heard.length, metrics.scenario_name).toBeGreaterThan(4);
      for (const segment of heard) expect(segment.heard).toBe(oracleHears(segment.said));
      // Nobody asked to repeat or spell: nothing was misheard.
      for (const segment of segments(metrics))
        expect(segment.said).not.toMatch(/did not get your|spell it|that's not right/i);
    }
  }, 300_000);

  it('with swap-digit, a misheard reservation code is asked for again and fails the scenario', async () => {
    // The caller gives its reservation code 3RK2T9 (no user id): the agent must hear it.
    const result = await airline(
      'swap-digit',
      ['tau2_airline__40'],
      localSpeechSettings({ stt: 'oracle', sttFault: 'swap-digit' }),
    );
    const [metrics] = result.metrics;
    expect(metrics?.is_successful).toBe(false);
    const said = segments(metrics!);
    // The agent heard a code one digit off, and asked for it again.
    const userSaidCode = said.find(
      (s) => s.role === 'user' && /three, R, K, two, T, nine/.test(s.said),
    );
    expect(userSaidCode?.heard).toMatch(/r k .* t /);
    expect(userSaidCode?.heard).not.toContain('three r k two t nine');
    expect(said.some((s) => s.role === 'agent' && /spell it/.test(s.said))).toBe(true);
    // metrics.json names the misheard code as the cause.
    const written = JSON.parse(
      readFileSync(join(result.runDir, 'tau2_airline__40', 'metrics.json'), 'utf8'),
    ) as ScenarioMetrics;
    const attribution = written.failure_attribution;
    expect(attribution).toMatchObject({
      class: 'mishearing',
      kind: 'code',
      entity: { kind: 'code', said: '3RK2T9', speaker: 'user' },
    });
    const heard = (attribution?.entity as { heard: string }).heard;
    expect(heard).toMatch(/^\d?RK\d?T\d$/);
    expect(heard).not.toBe('3RK2T9');
    // One digit, and one only, differs.
    expect([...heard].filter((c, i) => c !== '3RK2T9'[i])).toHaveLength(1);
  }, 300_000);
});
