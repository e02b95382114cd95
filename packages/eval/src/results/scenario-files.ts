/**
 * The per-scenario files the reference harness writes (names and formats as it
 * has them), plus our own `db_diff.json` and, in audio mode, `conversation_log.wav`.
 */
import { join } from 'node:path';
import type { Scenario } from '@scenaro/domains';
import type { ScenarioRun, Turn } from '../bridge/types.js';
import { CONVERSATION_WAV } from '../scoring/audio-metrics.js';
import type { DbDiffReport, ScenarioMetrics } from '../scoring/types.js';
import { writeFileAtomic, writeJsonAtomic } from './files.js';

function pad(n: number, width: number, decimals: number): string {
  return n.toFixed(decimals).padStart(width);
}

/** `conversation_log.txt`: one line per turn, latency lines, and the stop reason. */
export function conversationLog(turns: readonly Turn[], stopReason: string): string {
  const lines: string[] = [];
  for (const turn of turns) {
    lines.push(
      `[${pad(turn.start, 7, 3)}s - ${pad(turn.end, 7, 3)}s] (${(turn.end - turn.start).toFixed(3)}s) ${turn.role.toUpperCase()}: ${turn.text.replace(/\n/g, ' ')}`,
    );
    if (turn.latencyMs !== undefined)
      lines.push(`  → Response latency: ${turn.latencyMs.toFixed(1)}ms`);
  }
  lines.push('', `Stop reason: ${stopReason}`);
  return `${lines.join('\n')}\n`;
}

/** The agent's actions with their side, as the reference's pull path records them. */
export function agentActions(run: ScenarioRun): unknown[] {
  return (run.agentSummary?.actions ?? []).map((a) => ({ side: 'agent', ...a }));
}

/** `final_agent_response.json`: push-path payloads when there are any, else the pull path. */
export function finalAgentResponse(run: ScenarioRun): unknown {
  if (run.finalResponses.length > 0) {
    return run.finalResponses.map((r) =>
      r !== null && typeof r === 'object' ? r : { message: r },
    );
  }
  return [{ actions: agentActions(run) }];
}

/** Write everything about one scenario into `dir`; `metrics.json` last, so its presence means "done". */
export async function writeScenarioFiles(
  dir: string,
  scenario: Scenario,
  run: ScenarioRun,
  metrics: ScenarioMetrics,
  extra: { dbDiff?: DbDiffReport; wav?: Uint8Array } = {},
): Promise<void> {
  const config = join(dir, 'scenario_config');
  await Promise.all([
    writeJsonAtomic(join(config, 'metadata.json'), {
      name: scenario.name,
      domain: scenario.domain,
      source: scenario.source,
      description: scenario.description ?? null,
      max_duration: scenario.maxDurationSeconds,
      success_signals: scenario.successSignals,
      initialization_actions: scenario.initializationActions,
      db_state_assertions: scenario.dbStateAssertions,
      nl_assertions: scenario.nlAssertions,
      agent_tool_domain: scenario.agent.toolDomain,
      user_tool_domain: scenario.user.toolDomain,
      shared_state_init_agent: JSON.stringify(scenario.agent.sharedStateInit),
      shared_state_init_user: JSON.stringify(scenario.user.sharedStateInit),
    }),
    writeJsonAtomic(
      join(config, 'reference_answer.json'),
      scenario.referenceAnswer ?? { actions: scenario.referenceActions },
    ),
    writeFileAtomic(join(config, 'agent_prompt.txt'), scenario.agent.prompt),
    writeFileAtomic(join(config, 'user_prompt.txt'), scenario.user.prompt),
    writeJsonAtomic(join(config, 'agent_tools.json'), JSON.stringify(scenario.agent.tools)),
    writeJsonAtomic(join(config, 'user_tools.json'), JSON.stringify(scenario.user.tools)),
    writeFileAtomic(join(dir, 'bridge_log.txt'), `${run.bridgeLog.join('\n')}\n`),
    writeFileAtomic(join(dir, 'conversation_log.txt'), conversationLog(run.turns, run.stopReason)),
    writeJsonAtomic(join(dir, 'final_agent_response.json'), finalAgentResponse(run)),
    writeFileAtomic(
      join(dir, 'final_scenario_db_hash.txt'),
      `db_hash: ${run.agentSummary?.db_hash ?? 'None'}\n` +
        (run.userSummary?.db_hash ? `user_db_hash: ${run.userSummary.db_hash}\n` : ''),
    ),
    writeJsonAtomic(join(dir, 'bot_logs_agent', 'llm_context.json'), run.agentContext ?? []),
    writeJsonAtomic(join(dir, 'bot_logs_user', 'llm_context.json'), run.userContext ?? []),
    ...(extra.dbDiff !== undefined
      ? [writeJsonAtomic(join(dir, 'db_diff.json'), extra.dbDiff)]
      : []),
    ...(extra.wav ? [writeFileAtomic(join(dir, CONVERSATION_WAV), extra.wav)] : []),
  ]);
  await writeJsonAtomic(join(dir, 'metrics.json'), metrics);
}
