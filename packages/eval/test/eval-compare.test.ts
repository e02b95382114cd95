// A normal airline run against one whose scripted agent drops its plan's last action: compare
// flips exactly the scenarios whose end state that action changes, and each is attributed to an
// agent action error naming the dropped action; a run compared with itself moves nothing.
import { describe, expect, it } from 'vitest';
import { DbCache } from '@scenaro/agent/scenario';
import { builtInDomains } from '@scenaro/domains';
import { compareRuns, computeExpected, loadRun, registryFor, runEvaluation } from '../src/index.js';
import { collectingStream, hasSharedData, runCommerce, sharedData, tempOutput } from './helpers.js';

describe.skipIf(!hasSharedData)('compare and failure attribution on tau2 airline', () => {
  it(
    'flips exactly the scenarios the dropped write breaks, naming it',
    { timeout: 240_000 },
    async () => {
      const output = tempOutput('scenaro-compare-');
      const base = {
        domains: ['tau2_airline'],
        dataRoot: sharedData,
        outputDir: output,
        concurrency: 4,
      };
      const good = await runEvaluation({
        ...base,
        runId: 'good',
        progressStream: collectingStream(),
      });
      const faulty = await runEvaluation({
        ...base,
        runId: 'faulty',
        faults: ['drop-last-action'],
        progressStream: collectingStream(),
      });
      const [a, b] = await Promise.all([loadRun(good.runDir), loadRun(faulty.runDir)]);
      const self = compareRuns(a, a);
      expect([self.fixed, self.broken, self.verdict]).toEqual([0, 0, 'no-change']);
      expect(self.pass_rate_delta!.ci95).toEqual([0, 0]);

      // A plan is broken when its last agent action is a write and the end state without it
      // differs from the one the run is scored against.
      const domain = builtInDomains().get('tau2_airline')!;
      const registry = registryFor(domain);
      const source = { dataRoot: sharedData, dbCache: new DbCache() };
      const dropped = new Map<string, { name: string }>();
      for (const s of await domain.loadScenarios(sharedData)) {
        const last = s.referenceActions.filter((r) => r.side === 'agent').at(-1);
        if (!last || registry.findTool(s.domain, last.name)?.tool.kind !== 'write') continue;
        const full = await computeExpected(s, domain, source);
        const cut = await computeExpected(
          {
            ...s,
            expectedDbHash: null,
            expectedUserDbHash: null,
            referenceActions: s.referenceActions.filter((r) => r !== last),
          },
          domain,
          source,
        );
        if (full.dbHash !== cut.dbHash || full.userDbHash !== cut.userDbHash)
          dropped.set(s.name, last);
      }
      expect(dropped.size).toBeGreaterThan(10);

      const c = compareRuns(a, b);
      const broken = c.scenarios.filter((s) => s.flip === 'broken').map((s) => s.scenario);
      expect(broken.sort()).toEqual([...dropped.keys()].sort());
      expect(c.fixed).toBe(0);
      expect(c.verdict).toBe('regressed');
      for (const m of b.metrics.filter((x) => x.is_successful === false)) {
        const attribution = m.failure_attribution!;
        expect(attribution.class, `${m.scenario_name}: ${attribution.summary}`).toBe(
          'agent_action',
        );
        expect(attribution.kind).toBe('missing_action');
        expect(attribution.expected_action!.name).toBe(dropped.get(m.scenario_name)!.name);
        expect(attribution.summary).toContain(`missing ${dropped.get(m.scenario_name)!.name}(`);
      }
      expect(b.metrics.every((x) => x.is_successful === false || !x.failure_attribution)).toBe(
        true,
      );
    },
  );
});

describe('compare with repeated trials', () => {
  it(
    'two runs of the same agent with --trials 4 claim no regression',
    { timeout: 240_000 },
    async () => {
      const output = tempOutput('scenaro-trials-');
      const scenarios = [
        'commerce__checkout_with_card',
        'commerce__selection_to_cart',
        'commerce__shortlist_then_drop',
      ];
      const run = (runId: string) =>
        runCommerce(output, runId, { scenarios, trials: 4, concurrency: 2 });
      const [first, second] = [await run('first'), await run('second')];
      const c = compareRuns(await loadRun(first.runDir), await loadRun(second.runDir));
      expect(c.paired_trials).toBe(12);
      expect(c.noise_floor).not.toBeNull();
      expect(c.verdict).not.toBe('regressed');
      expect(c.broken).toBe(0);
    },
  );
});
