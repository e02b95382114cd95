// The table bench/voice-fuzz.bench.mjs prints, made from its result object alone.
import { printTable } from './common.mjs';

export const round = (x) => Math.round(x * 10) / 10;

/** The stages of the flood phase, as the table names them. */
const STAGE_NAMES = {
  before: 'the 3 s before the floods',
  small: 'the 512-byte-frame flood',
  large: 'the largest-frame flood',
  after: 'the 5 s after the floods',
};

/** Print the table of a run from its `result` (what `emitResult` records). */
export function printFuzzTable(result) {
  const fuzzLoad = result.fuzz_load;
  const { requests_after_a_flood: after, requests_without_a_flood: other } = result;
  const errors = result.errors_received;
  printTable(
    `voice-fuzz: ${result.frames} hostile frames over ${result.connections} connections (${result.max_voice_sessions} may listen), then a 2 x 10 min flood beside a bystander`,
    ['measure', 'value'],
    [
      [
        'frames (fuzz phase)',
        `${result.frames} in ${result.fuzz_seconds} s (${result.frames_per_s}/s)`,
      ],
      ['frames (warm-up / flood phase)', `${result.warmup_frames} / ${result.flood_phase_frames}`],
      ['connections opened (never ready)', `${result.connects} (${result.never_ready})`],
      ['30 s floods in the fuzz phase', result.floods_30s],
      [
        'fuzz phase: server loop p99 / max, CPU',
        `${round(fuzzLoad.server_loop_p99_ms)} / ${round(fuzzLoad.server_loop_max_ms)} ms; server ${fuzzLoad.server_cpu_pct} %, ` +
          `recognizers ${fuzzLoad.recognizers_cpu_pct} %, machine ${fuzzLoad.machine_busy_pct} %`,
      ],
      ['requests answered (late or unanswered)', `${result.requests_answered} (${result.late})`],
      [
        'late: requests sent <= 15 s after a flood on their connection / others',
        `${after.late} of ${after.requests} / ${other.late} of ${other.requests}`,
      ],
      [
        'request latency p50 / p99 / max',
        `${result.p50_ms} / ${result.p99_ms} / ${result.max_ms} ms`,
      ],
      [
        'bystander requests during the floods, p50 / p99 / max',
        `${result.bystander_requests}, ${result.bystander_p50_ms} / ${result.bystander_p99_ms} / ${result.bystander_max_ms} ms`,
      ],
      ...Object.entries(result.bystander_by_stage).map(([name, s]) => [
        `  ${STAGE_NAMES[name]}`,
        `${s.requests}, ${s.p50_ms} / ${s.p99_ms} / ${s.max_ms} ms; server loop p99 ${round(s.server_loop_p99_ms)} ms, ` +
          `CPU: server ${s.server_cpu_pct} %, recognizers ${s.recognizers_cpu_pct} %, machine ${s.machine_busy_pct} %`,
      ]),
      [
        'flood: 512-byte frames (time to send)',
        `${result.small_flood_frames} (${result.small_flood_s} s)`,
      ],
      [
        'flood: largest frames (audio bytes, time to send)',
        `${result.large_flood_frames} x ${result.large_frame_audio_bytes} B (${result.large_flood_s} s)` +
          (result.large_flood_connection_closed ? ', connection closed' : ''),
      ],
      [
        'final transcripts / bot audio frames received',
        `${result.final_transcripts} / ${result.bot_audio_frames}`,
      ],
      ['recognizers killed', result.recognizers_killed],
      [
        'live recognizers max / mean (limit)',
        `${result.recognizers_max} / ${result.recognizers_mean} (${result.recognizers_limit})`,
      ],
      ['server descendants max', result.descendants_max],
      ['audio dropped by the server (shed)', `${result.server_metrics.audio_dropped_s} s`],
      [
        'errors: voice limit / bad audio / shed',
        `${errors.voice_limit} / ${errors.bad_audio} / ${errors.shed}`,
      ],
      [
        'errors: recognizer / bad frame / other',
        `${errors.recognizer} / ${errors.bad_frame} / ${errors.other}`,
      ],
      [
        'most errors on one connection: bad audio / shed / recognizer',
        ['bad_audio', 'shed', 'recognizer']
          .map((k) => result.max_errors_per_connection[k] ?? 0)
          .join(' / '),
      ],
      [
        'server RSS idle / start / peak',
        `${result.rss_idle_mb} / ${result.rss_start_mb} / ${result.rss_peak_mb} MB`,
      ],
      [
        'server RSS after fuzz / after all left',
        `${result.rss_after_fuzz_mb} / ${result.rss_after_mb} MB (${result.rss_growth_pct} %)`,
      ],
      [
        'server JS heap / external: start, after all left',
        `${result.heap_start_mb} / ${result.external_start_mb} MB, ${result.heap_after_mb} / ${result.external_after_mb} MB`,
      ],
    ],
  );
}
