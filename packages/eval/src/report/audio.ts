/**
 * The audio-mode parts of the report: for the run, the word error rate of each side's speech to
 * text, barge-ins and the time to first byte of each processor; for each scenario, a player of its
 * recording (linked, not inlined, so a run of hundreds of scenarios stays light), the turn
 * timeline, its word error rates, and the turns whose heard text differs from the said text.
 */
import { basename } from 'node:path';
import type { AudioMetrics, AudioSegmentMetrics, ScenarioMetrics } from '../scoring/types.js';
import { esc, ms, pct } from './format.js';

/** The audio metrics of a scenario, when it ran in audio mode. */
export function audioOf(m: ScenarioMetrics): AudioMetrics | undefined {
  const audio = m.audio;
  return audio && Array.isArray(audio.segments) ? audio : undefined;
}

function pooledWer(list: readonly AudioMetrics[], side: 'agent_stt' | 'user_stt'): number | null {
  let errors = 0;
  let words = 0;
  for (const a of list) {
    const w = a.wer[side];
    errors += w.substitutions + w.deletions + w.insertions;
    words += w.reference_words;
  }
  return words === 0 ? null : errors / words;
}

/** The run's audio section ('' when no scenario ran in audio mode). */
export function audioOverview(metrics: readonly ScenarioMetrics[]): string {
  const runs = metrics
    .map((m) => ({ m, audio: audioOf(m) }))
    .filter((r): r is { m: ScenarioMetrics; audio: AudioMetrics } => r.audio !== undefined);
  if (runs.length === 0) return '';
  const audios = runs.map((r) => r.audio);
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
  const stageRows = [...stages.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(
      ([key, s]) =>
        `<tr><td>${esc(key)}</td><td>${s.count}</td><td>${esc(ms(s.sum / s.count))}</td><td>${esc(ms(s.max))}</td></tr>`,
    )
    .join('');
  const werRows = runs
    .map(
      ({ m, audio }) =>
        `<tr><td>${esc(m.scenario_name)}</td><td>${esc(pct(audio.wer.agent_stt.wer))}</td><td>${esc(pct(audio.wer.user_stt.wer))}</td><td>${audio.barge_ins}</td><td>${audio.audio_seconds.toFixed(1)} s</td></tr>`,
    )
    .join('');
  const bargeIns = audios.reduce((n, a) => n + a.barge_ins, 0);
  return (
    `<h2>Audio</h2><p class="muted">Clock ${esc([...new Set(audios.map((a) => a.clock))].join(', '))} · ` +
    `word error rate of what the agent heard ${esc(pct(pooledWer(audios, 'agent_stt')))}, ` +
    `of what the user heard ${esc(pct(pooledWer(audios, 'user_stt')))} · ${bargeIns} barge-in(s)</p>` +
    `<div class="grid"><section><h3>Time to first byte by stage</h3><table><thead><tr><th>side · processor</th><th>n</th><th>mean</th><th>max</th></tr></thead><tbody>${stageRows}</tbody></table></section>` +
    `<section><h3>Word error rate by scenario</h3><div class="scroll"><table><thead><tr><th>scenario</th><th>agent heard</th><th>user heard</th><th>barge-ins</th><th>audio</th></tr></thead><tbody>${werRows}</tbody></table></div></section></div>`
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

/** A scenario's audio details ('' for a text-mode scenario). */
export function audioDetails(m: ScenarioMetrics): string {
  const audio = audioOf(m);
  if (!audio) return '';
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
  return (
    `<h4>Audio</h4><audio controls preload="none" src="${esc(`${encodeURIComponent(folder)}/${audio.wav}`)}"></audio>` +
    `<p class="muted">left: user → agent, right: agent → user · ${audio.audio_seconds.toFixed(1)} s · ` +
    `agent heard ${esc(pct(audio.wer.agent_stt.wer))} WER, user heard ${esc(pct(audio.wer.user_stt.wer))} WER · ${audio.barge_ins} barge-in(s)</p>` +
    timeline(audio.segments, audio.audio_seconds) +
    `<h4>Heard differently</h4>${pairs}`
  );
}
