/**
 * The interaction panel's files of a full-duplex audio run: per scenario `interaction_metrics.json`
 * (the panel of its timeline: the relayed speech, the caller's events and the agent's tool calls)
 * and, with caller effects, `caller_effects.json` (the caller's config, seed, voice and every
 * event of its line); per run `interaction_metrics.json` (the scenarios' panels pooled).
 *
 * @module
 */
import { join } from 'node:path';
import type { AudioRecord } from '../bridge/types.js';
import type { CallerLineEvent } from '../bridge/caller-line.js';
import { countOf } from '../interaction/figures.js';
import { aggregateInteraction, interactionMetrics } from '../interaction/panel.js';
import { timelineFromAudio } from '../interaction/timeline.js';
import type {
  CallerEvent,
  InteractionPanel,
  InteractionScenarioPanel,
} from '../interaction/types.js';
import { writeJsonAtomic } from '../results/files.js';
import type { CallerSummary, ScenarioMetrics } from '../scoring/types.js';
import type { ScenarioCallerSetup } from './caller-run.js';

export const INTERACTION_METRICS_FILE = 'interaction_metrics.json';
export const CALLER_EFFECTS_FILE = 'caller_effects.json';

/** The caller's line events as the panel reads them (the effects that are no speech left out). */
export function panelEvents(events: readonly CallerLineEvent[]): CallerEvent[] {
  const out: CallerEvent[] = [];
  for (const e of events) {
    const span = { start: e.start, end: e.end };
    if (e.kind === 'backchannel') out.push({ kind: 'backchannel', ...span, text: e.detail.text });
    else if (e.kind === 'interruption') out.push({ kind: 'interruption', ...span });
    else if (e.kind === 'vocal_tic') out.push({ kind: 'vocal_tic', ...span, text: e.detail.text });
    else if (e.kind === 'non_directed_phrase')
      out.push({ kind: 'non_directed', ...span, text: e.detail.text });
    else if (e.kind === 'noise_burst') out.push({ kind: 'noise_burst', ...span });
  }
  return out;
}

/** The panel of a scenario's recording. */
export function scenarioPanel(audio: AudioRecord): InteractionScenarioPanel {
  return interactionMetrics(
    timelineFromAudio(audio, {
      events: panelEvents(audio.callerEvents ?? []),
      ...(audio.toolCalls ? { toolCalls: audio.toolCalls.map((at) => ({ at })) } : {}),
    }),
  );
}

/**
 * Write a scenario's panel (and its caller's file) into `dir`; what `metrics.json` gets of
 * them. Nothing for a scenario without a recording (it failed before the conversation).
 */
export async function writeScenarioInteraction(
  dir: string,
  audio: AudioRecord | undefined,
  setup: ScenarioCallerSetup | undefined,
): Promise<Pick<ScenarioMetrics, 'interaction' | 'caller'>> {
  const out: Pick<ScenarioMetrics, 'interaction' | 'caller'> = {};
  if (setup) {
    const { caller } = setup;
    const events = audio?.callerEvents ?? [];
    const summary: CallerSummary = {
      task_id: caller.taskId,
      complexity: caller.complexity,
      persona: caller.effects.persona_name,
      seed: caller.seed,
      from: caller.from,
      ...(setup.voice ? { voice: setup.voice } : {}),
      events: countOf(events.map((e) => e.kind)),
    };
    await writeJsonAtomic(join(dir, CALLER_EFFECTS_FILE), {
      ...summary,
      effects: caller.effects,
      events,
    });
    out.caller = summary;
  }
  if (audio) {
    const panel = scenarioPanel(audio);
    await writeJsonAtomic(join(dir, INTERACTION_METRICS_FILE), panel);
    const { events: _events, ...pooled } = panel;
    out.interaction = pooled;
  }
  return out;
}

/** The run's panel, pooled from its scenarios' (undefined when none has one), written to `dir`. */
export async function writeRunInteraction(
  dir: string,
  metrics: readonly ScenarioMetrics[],
): Promise<InteractionPanel | undefined> {
  const panels = metrics.map((m) => m.interaction).filter((p): p is InteractionPanel => !!p);
  if (panels.length === 0) return undefined;
  const panel = aggregateInteraction(panels);
  await writeJsonAtomic(join(dir, INTERACTION_METRICS_FILE), panel);
  return panel;
}
