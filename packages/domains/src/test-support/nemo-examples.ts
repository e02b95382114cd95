/**
 * Every worked example of a NeMo suite's `tools.json` as a test: the same call on a fresh state
 * of the named scenario (after its setup calls) must deliver the same result, record the same
 * action, push the same server messages and leave the same end state (db hash or shared state).
 *
 * @module
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getDictHash } from '@scenaro/agent/scenario';
import type { DomainRegistry } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario } from '../scenario.js';
import {
  agentSession,
  callTool,
  hasSuiteData,
  nemoDataRoot,
  plain,
  readToolsJson,
  registryOf,
} from './nemo-data.js';

/** Test every example of `suite`'s tools; `domains` must hold every scenario the examples name. */
export function describeToolExamples(suite: string, domains: () => readonly EvalDomain[]): void {
  const present = hasSuiteData(suite);
  describe.skipIf(!present)(`${suite}: every tools.json example`, () => {
    const scenarios = new Map<string, Scenario>();
    let registry: DomainRegistry;
    beforeAll(async () => {
      registry = registryOf(domains());
      for (const domain of domains()) {
        for (const s of await domain.loadScenarios(nemoDataRoot)) scenarios.set(s.name, s);
      }
    });
    const tools = present ? readToolsJson(suite).tools : [];
    for (const tool of tools) {
      it(`${tool.name}: schema as the model sees it`, () => {
        // Looked up as a bot binding it for the scenario of the first example does.
        const scenario = scenarios.get(tool.examples[0]?.scenario_state ?? '');
        const found = registry.findTool(
          scenario?.agent.toolDomain ?? tool.registry_domain,
          tool.name,
        );
        expect(found?.tool.name).toBe(tool.name);
        const kwargs = scenario?.agent.tools[tool.name] ?? {};
        const shown = found?.tool.describe?.(kwargs) ?? found?.tool;
        expect(shown?.description).toBe(tool.description);
        expect(plain(shown?.parameters)).toEqual(tool.parameters);
      });
      tool.examples.forEach((example, i) => {
        it(`${tool.name} #${i + 1}: ${example.note}`, async () => {
          const scenario = scenarios.get(example.scenario_state);
          if (!scenario) throw new Error(`no scenario ${example.scenario_state}`);
          const state = await agentSession(scenario, registry);
          for (const setup of example.setup_calls)
            await callTool(state, setup.name, setup.arguments);
          const before = state.actions.length;
          const { outcome, messages } = await callTool(state, tool.name, example.arguments);
          expect(plain(outcome.modelResult)).toEqual(plain(example.result));
          expect(plain(state.actions.slice(before))).toEqual(
            example.action_record === null ? [] : [plain(example.action_record)],
          );
          expect(plain(messages)).toEqual(plain(example.server_messages));
          if (example.db_hash_after !== undefined) {
            expect(getDictHash(state.db)).toBe(example.db_hash_after);
          }
          for (const [key, value] of Object.entries(example.state_after ?? {})) {
            expect(plain(state.shared[key]), `shared state '${key}'`).toEqual(plain(value));
          }
        });
      });
    }
  });
}
