/**
 * The audio-mode parts of the report: for the run, the entity accuracy and the word error rate
 * (raw and normalized) of each side's speech to text, clarification turns, failures traced to a
 * misheard entity, barge-ins and the time to first byte of each processor; for each scenario, a
 * player of its recording (linked, not inlined, so a run of hundreds of scenarios stays light),
 * the turn timeline, its figures, the values heard wrong, the clarification turns, and the turns
 * whose heard text differs from the said text.
 */
import { basename } from 'node:path';
import { audioAggregate, audioOf, completeAudio } from '../scoring/audio-aggregate.js';
import type { PooledEntityAccuracy, PooledWordErrors } from '../scoring/audio-aggregate.js';
import type {
  AudioMetrics,
  AudioSegmentMetrics,
  EntityAccuracySide,
  ScenarioMetrics,
  StoredWordErrors,
} from '../scoring/types.js';
import { esc, ms, pct } from './format.js';

export { audioOf } from '../scoring/audio-aggregate.js';

/** "85.7% (6/7)". */
function accuracy(a: PooledEntityAccuracy | EntityAccuracySide): string {
  return `${pct(a.accuracy)} (${a.heard_right}/${a.said})`;
}

/** A word error rate, N/A over no reference words. */
function rate(w: PooledWordErrors | StoredWordErrors): string {
  return pct(w.reference_words === 0 ? null : w.wer);
}

/** The audio results of a run, their figures completed. */
function audioResults(metrics: readonly ScenarioMetrics[]) {
  return metrics.flatMap((m) => {
    const audio = audioOf(m);
    return audio ? [{ m, audio: completeAudio(audio) }] : [];
  });
}

/** Time to first byte per side and processor, pooled over the run. */
function stageTable(audios: readonly AudioMetrics[]): string {
  const stages = new Map<string, { count: number; sum: number; max: number }>();
  for (const a of audios) {
    for (const side of ['agent', 'user'] as const) {
      for (const [processor, stats] of Object.entries(a.ttfb[side] ?? {})) {
        if (stats.count <= 0) continue;
        const key = `${side} · ${processor}`;
        const entry = stages.get(key) ?? { count: 0, sum: 0, max: 0 };
        entry.count += stats.count;
        entry.sum += stats.mean_ms * stats.count;
        entry.max = Math.max(entry.max, stats.max_ms);
        stages.set(key, entry);
      }
    }
  }
  const rows = [...stages.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(
      ([key, s]) =>
        `<tr><td>${esc(key)}</td><td>${s.count}</td><td>${esc(ms(s.sum / s.count))}</td><td>${esc(ms(s.max))}</td></tr>`,
    )
    .join('');
  return `<section><h3>Time to first byte by stage</h3><table><thead><tr><th>side · processor</th><th>n</th><th>mean</th><th>max</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The run's audio section ('' when no scenario ran in audio mode). */
export function audioOverview(metrics: readonly ScenarioMetrics[]): string {
  const run = audioAggregate(metrics);
  const runs = audioResults(metrics);
  if (!run || runs.length === 0) return '';
  const audios = runs.map((r) => r.audio);
  const c = run.clarifications;
  const figures: [string, string][] = [
    ['entity accuracy, agent heard', accuracy(run.entity_accuracy.agent_stt)],
    ['entity accuracy, user heard', accuracy(run.entity_accuracy.user_stt)],
    [
      'WER agent heard, raw / normalized',
      `${rate(run.wer.agent_stt)} / ${rate(run.normalized_wer.agent_stt)}`,
    ],
    [
      'WER user heard, raw / normalized',
      `${rate(run.wer.user_stt)} / ${rate(run.normalized_wer.user_stt)}`,
    ],
    [
      'clarification turns',
      `${c.total} (${c.per_scenario.toFixed(2)} per scenario; agent ${c.agent}, user ${c.user})`,
    ],
    ['failures traced to a misheard entity', String(run.misheard_failures)],
    ['barge-ins', String(run.barge_ins)],
  ];
  const figureRows = figures
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join('');
  const scenarioRows = runs
    .map(
      ({ m, audio }) =>
        `<tr><td>${esc(m.scenario_name)}</td><td>${esc(accuracy(audio.entity_accuracy.agent_stt))}</td><td>${esc(accuracy(audio.entity_accuracy.user_stt))}</td>` +
        `<td>${esc(rate(audio.wer.agent_stt))} / ${esc(rate(audio.normalized_wer.agent_stt))}</td><td>${esc(rate(audio.wer.user_stt))} / ${esc(rate(audio.normalized_wer.user_stt))}</td>` +
        `<td>${audio.clarifications.total}</td><td>${m.failure_attribution?.class === 'mishearing' ? '<span class="tag bad">misheard</span>' : ''}</td>` +
        `<td>${audio.barge_ins}</td><td>${audio.audio_seconds.toFixed(1)} s</td></tr>`,
    )
    .join('');
  return (
    `<h2>Audio</h2><p class="muted">Clock ${esc([...new Set(audios.map((a) => a.clock))].join(', '))} · ` +
    `word error rate of what the agent heard ${esc(rate(run.wer.agent_stt))}, ` +
    `of what the user heard ${esc(rate(run.wer.user_stt))} · ${run.barge_ins} barge-in(s)</p>` +
    `<div class="grid"><section><h3>Speech between the bots</h3><table class="kv"><tbody>${figureRows}</tbody></table>` +
    `<p class="muted">Entity accuracy: of the ids, codes, names, numbers, dates and amounts one side said, those the other heard as said. Normalized WER compares both texts in one spoken form.</p></section>` +
    `${stageTable(audios)}</div>` +
    `<section><h3>Audio by scenario</h3><div class="scroll"><table><thead><tr><th>scenario</th><th>entities agent heard</th><th>entities user heard</th><th>WER agent heard (raw / norm.)</th><th>WER user heard (raw / norm.)</th><th>clarifications</th><th>cause</th><th>barge-ins</th><th>audio</th></tr></thead><tbody>${scenarioRows}</tbody></table></div></section>`
  );
}

/** A two-lane timeline of the segments (user above, agent below). */
function timeline(segments: readonly AudioSegmentMetrics[], seconds: number): string {
  const width = 640;
  const total = Math.max(seconds, ...segments.map((s) => s.end), 1);
  const x = (t: number) => ((t / total) * (width - 50) + 45).toFixed(1);
  const bars = segments
    .map((s) => {
      const y = s.role === 'user' ? 6 : 30;
      const w = Math.max(1, ((s.end - s.start) / total) * (width - 50));
      return `<rect x="${x(s.start)}" y="${y}" width="${w.toFixed(1)}" height="18" class="bar ${s.role === 'agent' ? 'good' : 'neutral'}"><title>${esc(`${s.role} ${s.start.toFixed(1)}-${s.end.toFixed(1)} s: ${s.said}`)}</title></rect>`;
    })
    .join('');
  return (
    `<svg class="chart" viewBox="0 0 ${width} 60" role="img" aria-label="turn timeline" preserveAspectRatio="xMinYMin meet">` +
    `<text x="40" y="19" text-anchor="end" class="lbl">user</text><text x="40" y="43" text-anchor="end" class="lbl">agent</text>${bars}` +
    `<text x="${width - 5}" y="58" text-anchor="end" class="val">${total.toFixed(0)} s</text></svg>`
  );
}

/** The values one side said and the other heard wrong, both sides. */
function misheardTable(audio: AudioMetrics): string {
  const rows = (['agent_stt', 'user_stt'] as const).flatMap((side) =>
    audio.entity_accuracy[side].misheard.map(
      (e) =>
        `<tr><td>${esc(side === 'agent_stt' ? 'user → agent' : 'agent → user')}</td><td>${e.turn}</td><td>${esc(e.kind)}</td><td>${esc(e.said)}</td>` +
        `<td>${e.heard === null ? '<span class="muted">nothing of its kind</span>' : esc(e.heard)}</td></tr>`,
    ),
  );
  if (rows.length === 0) return '';
  return `<h4>Values heard wrong</h4><div class="scroll"><table><thead><tr><th>said → heard</th><th>turn</th><th>kind</th><th>said</th><th>heard</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

/** The clarification turns, with what was said in them. */
function clarificationList(audio: AudioMetrics): string {
  const turns = audio.clarifications.turns;
  if (turns.length === 0) return '';
  const rows = turns
    .map(
      (t) =>
        `<tr><td>${t.turn} <span class="muted">${t.at.toFixed(1)} s</span></td><td>${esc(t.role)}</td><td>${esc(t.kind)}</td><td>${esc(audio.segments[t.turn]?.said ?? '')}</td></tr>`,
    )
    .join('');
  return `<h4>Clarification turns</h4><div class="scroll"><table><thead><tr><th>turn</th><th>who</th><th>kind</th><th>said</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A scenario's audio details ('' for a text-mode scenario). */
export function audioDetails(m: ScenarioMetrics): string {
  const stored = audioOf(m);
  if (!stored) return '';
  const audio = completeAudio(stored);
  const folder = m.scenario_directory ? basename(m.scenario_directory) : m.scenario_name;
  const differ = audio.segments.filter((s) => s.wer > 0);
  const pairs =
    differ.length === 0
      ? '<p class="muted">Every turn was heard as said.</p>'
      : `<div class="scroll"><table><thead><tr><th>turn</th><th>said</th><th>heard</th><th>WER</th></tr></thead><tbody>${differ
          .map(
            (s) =>
              `<tr><td>${esc(s.role)} ${s.start.toFixed(1)} s</td><td>${esc(s.said)}</td><td>${esc(s.heard)}</td><td>${esc(pct(s.wer))}</td></tr>`,
          )
          .join('')}</tbody></table></div>`;
  const e = audio.entity_accuracy;
  return (
    `<h4>Audio</h4><audio controls preload="none" src="${esc(`${encodeURIComponent(folder)}/${audio.wav}`)}"></audio>` +
    `<p class="muted">left: user → agent, right: agent → user · ${audio.audio_seconds.toFixed(1)} s · ` +
    `agent heard ${esc(pct(audio.wer.agent_stt.wer))} WER (normalized ${esc(rate(audio.normalized_wer.agent_stt))}), ` +
    `user heard ${esc(pct(audio.wer.user_stt.wer))} WER (normalized ${esc(rate(audio.normalized_wer.user_stt))}) · ${audio.barge_ins} barge-in(s)</p>` +
    `<p class="muted">Entity accuracy: agent heard ${esc(accuracy(e.agent_stt))}, user heard ${esc(accuracy(e.user_stt))} · ` +
    `${audio.clarifications.total} clarification turn(s)</p>` +
    timeline(audio.segments, audio.audio_seconds) +
    misheardTable(audio) +
    clarificationList(audio) +
    `<h4>Heard differently</h4>${pairs}`
  );
}

/** A scenario's audio cells on its summary line ('' for a text-mode scenario). */
export function audioCells(m: ScenarioMetrics): string {
  const stored = audioOf(m);
  if (!stored) return '';
  const { entity_accuracy: e, clarifications } = completeAudio(stored);
  return (
    `<span class="cell" title="values heard as said: agent heard, user heard">entities ${e.agent_stt.heard_right}/${e.agent_stt.said} · ${e.user_stt.heard_right}/${e.user_stt.said}</span>` +
    `<span class="cell">${clarifications.total} clarification(s)</span>`
  );
}
