import { describe, expect, it } from 'vitest';
import { getDictHash } from '@scenaro/agent/scenario';
import { parseFinalResponseText } from '@scenaro/sdk/protocol';
import {
  agentSession,
  callTool,
  hasSuiteData,
  nemoDataRoot,
  plain,
  registryOf,
} from '../test-support/nemo-data.js';
import { readSuiteScenarios } from './common/suite-data.js';
import { nemoDefaultSuites } from './default-suites.js';

const COUNTS: Record<string, number> = {
  restaurant: 11,
  fastbite: 1,
  customer_service: 10,
  qa: 10,
  simple_qa: 3,
};

for (const suite of nemoDefaultSuites) {
  describe.skipIf(!hasSuiteData(suite.name))(
    `${suite.name}: scenarios and derived gold calls`,
    () => {
      it('loads every scenario with NeMo’s prompts, tools JSON and scoring', async () => {
        const entries = await readSuiteScenarios(nemoDataRoot, suite.name);
        const scenarios = await suite.loadScenarios(nemoDataRoot);
        expect(scenarios).toHaveLength(COUNTS[suite.name] as number);
        for (const s of scenarios) {
          const entry = entries[s.name];
          expect(entry, s.name).toBeDefined();
          expect(s.domain).toBe(suite.name);
          expect(s.agent.prompt).toBe(entry?.agent_prompt);
          expect(s.user.prompt).toBe(entry?.user_prompt);
          expect(Object.keys(s.agent.tools)).toEqual(Object.keys(entry?.agent_tools ?? {}));
          expect(s.agent.toolDomain).toBe('default');
          expect(s.successSignals).toEqual(entry?.success_signals);
          expect(s.referenceAnswer).toEqual(entry?.reference_answer);
        }
      });

      it('replays every derived gold call with NeMo’s results, pushes and end state', async () => {
        const registry = registryOf(nemoDefaultSuites);
        const entries = await readSuiteScenarios(nemoDataRoot, suite.name);
        for (const scenario of await suite.loadScenarios(nemoDataRoot)) {
          const entry = entries[scenario.name];
          if (!entry) throw new Error(`no entry ${scenario.name}`);
          const state = await agentSession(scenario, registry);
          const finals: unknown[] = [];
          for (const gold of entry.replay.actions) {
            const { outcome, messages } = await callTool(state, gold.name, gold.arguments);
            expect(plain(outcome.modelResult), `${scenario.name} ${gold.name}`).toEqual(
              plain(gold.result),
            );
            expect(plain(messages), `${scenario.name} ${gold.name}`).toEqual(
              plain(gold.server_messages),
            );
            for (const m of messages) {
              const final = parseFinalResponseText(String(m['text'] ?? ''));
              if (final !== undefined) finals.push(final);
            }
          }
          expect(plain(finals), scenario.name).toEqual(plain(entry.replay.final_responses ?? []));
          expect(state.actions, scenario.name).toEqual([]);
          expect(state.db, scenario.name).toBeUndefined();
          if (typeof entry.expected_state_hash === 'string') {
            const key = suite.name === 'customer_service' ? 'accounts' : 'waitlist';
            expect(getDictHash({ [key]: state.shared[key] }), scenario.name).toBe(
              entry.expected_state_hash,
            );
          }
        }
      });
    },
  );
}
