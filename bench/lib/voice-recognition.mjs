// Offline recognition for the voice benchmark: accuracy and CPU of the recognizer alone, as the
// evaluation harness's fast-clock audio mode runs it. The spoken user turns of one voice make one
// continuous 16 kHz stream (a silent lead, each turn followed by silence), segmented by the
// WebRTC VAD as the server does, and written to one PocketSphinx session as fast as it takes it.
// Per run: the word errors of the finals (corpusWordErrors), the recognizer's CPU (its process,
// counted once reaped: this process's cutime + cstime), the CPU it had used when the first final
// came (model load, the lead and the first utterance), and the audio it heard.
import {
  corpusWordErrors,
  createPocketsphinxSpeechToText,
  createWebRtcVad,
  INPUT_CHUNK_MS,
  INPUT_SAMPLE_RATE,
  pcm16ToInt16,
} from '@scenaro/agent/voice';
import { reapedChildrenMs, treeCpu } from './proc-cpu.mjs';

const CHUNK_BYTES = ((INPUT_SAMPLE_RATE * INPUT_CHUNK_MS) / 1000) * 2;

/** CPU ms of the live processes below this one (the recognizer while it runs). */
function liveChildrenMs() {
  let ms = 0;
  for (const { ms: spent, root } of treeCpu(process.pid).values()) if (!root) ms += spent;
  return ms;
}

/** `pcm` (16-bit) scaled so that its loudest sample is `peak` of full scale. */
export function scaleToPeak(pcm, peak) {
  const samples = pcm16ToInt16(pcm);
  let max = 1;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  const gain = (peak * 32767) / max;
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = Math.round(samples[i] * gain);
  return new Uint8Array(out.buffer);
}

/** Peak and RMS of `pcm` in dBFS (speech only: samples above -60 dBFS in 16 ms chunks). */
export function levelOf(pcm) {
  const samples = pcm16ToInt16(pcm);
  let peak = 0;
  let sum = 0;
  let count = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const chunk = CHUNK_BYTES / 2;
  for (let i = 0; i < samples.length; i += chunk) {
    let e = 0;
    const end = Math.min(samples.length, i + chunk);
    for (let j = i; j < end; j++) e += samples[j] * samples[j];
    if (Math.sqrt(e / (end - i)) > 32.767) {
      sum += e;
      count += end - i;
    }
  }
  const db = (x) => 20 * Math.log10(x / 32767);
  return { peak_dbfs: db(peak), rms_dbfs: count ? db(Math.sqrt(sum / count)) : -Infinity };
}

/**
 * One stream through one recognizer session: `turns` ({text, pcm} at 16 kHz), each scaled to
 * `peak` when given, `leadMs` of silence first and `gapMs` after each turn. `sttOptions` are
 * the PocketsphinxOptions.
 */
export async function recognizeStream(
  turns,
  { sttOptions = {}, peak, leadMs = 1000, gapMs = 1500 },
) {
  const silence = (ms) => new Uint8Array(Math.round((INPUT_SAMPLE_RATE * ms) / 1000) * 2);
  const parts = [silence(leadMs)];
  for (const turn of turns)
    parts.push(peak ? scaleToPeak(turn.pcm, peak) : turn.pcm, silence(gapMs));
  const stream = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    stream.set(p, at);
    at += p.byteLength;
  }
  const stt = createPocketsphinxSpeechToText(sttOptions);
  const vad = await createWebRtcVad({ sampleRate: INPUT_SAMPLE_RATE });
  const cpu0 = reapedChildrenMs();
  const t0 = performance.now();
  const session = await stt.openSession();
  const finals = [];
  let firstFinalCpuMs;
  for (let offset = 0; offset < stream.byteLength; offset += CHUNK_BYTES) {
    const chunk = stream.subarray(offset, offset + CHUNK_BYTES);
    const events = vad.process(chunk);
    session.write(chunk);
    for (const event of events) {
      if (event.type === 'speech-start') session.startUtterance(event.sample);
      else {
        finals.push(
          session.endUtterance(event.sample).then((t) => {
            firstFinalCpuMs ??= liveChildrenMs();
            return t;
          }),
        );
      }
    }
  }
  const heard = await Promise.all(finals);
  await session.close();
  await stt.close();
  vad.close();
  const wallMs = performance.now() - t0;
  const cpuMs = reapedChildrenMs() - cpu0;
  const audioS = stream.byteLength / 2 / INPUT_SAMPLE_RATE;
  const pair = {
    reference: turns.map((t) => t.text).join(' '),
    hypothesis: heard.map((t) => t.text).join(' '),
  };
  return {
    audio_s: audioS,
    wall_ms: wallMs,
    cpu_ms: cpuMs,
    first_final_cpu_ms: firstFinalCpuMs,
    utterances: heard.length,
    pair,
    errors: corpusWordErrors([pair]),
    level: levelOf(stream),
  };
}

/** An option set as the bench prints it (options added to the adapter's defaults). */
const label = (args) => (args.length ? args.join(' ') : 'DEFAULT_POCKETSPHINX_ARGS');

/**
 * The WER part: each option set (`sets`, lists of pocketsphinx_continuous options) at each
 * input level (`peaks`: undefined = as spoken, or a peak amplitude as a share of full scale),
 * over the turns of every voice (`voiceTurns`: [{voice, turns}]), one session per voice, run
 * one after another so each recognizer's CPU is its own. Prints one table; returns the rows.
 */
export async function recognitionTable(voiceTurns, sets, peaks, print) {
  const rows = [];
  for (const args of sets) {
    for (const peak of peaks) {
      const runs = [];
      for (const { voice, turns } of voiceTurns) {
        runs.push({
          voice,
          ...(await recognizeStream(turns, { sttOptions: { extraArgs: args, poolSize: 0 }, peak })),
        });
      }
      const errors = corpusWordErrors(runs.map((r) => r.pair));
      const audioS = runs.reduce((n, r) => n + r.audio_s, 0);
      const cpuMs = runs.reduce((n, r) => n + r.cpu_ms, 0);
      const row = {
        options: label(args),
        peak: peak ?? null,
        rms_dbfs: runs.reduce((n, r) => n + r.level.rms_dbfs, 0) / runs.length,
        errors,
        per_voice_wer: Object.fromEntries(runs.map((r) => [r.voice, r.errors.wer])),
        audio_s: audioS,
        cpu_ms: cpuMs,
        cpu_per_audio_s: cpuMs / 1000 / audioS,
        first_final_cpu_ms: runs.map((r) => r.first_final_cpu_ms),
        realtime_factor_wall: runs.reduce((n, r) => n + r.wall_ms, 0) / 1000 / audioS,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
  print(
    `PocketSphinx offline: ${voiceTurns.length} voices (${voiceTurns.map((v) => v.voice).join(', ')}), ` +
      `${rows[0]?.errors.referenceWords} words each level; options added to DEFAULT_POCKETSPHINX_ARGS; ` +
      'CPU = recognizer CPU s per s of audio',
    [
      'options',
      'level',
      'speech RMS dBFS',
      'WER',
      'subst/del/ins',
      ...voiceTurns.map((v) => `WER ${v.voice}`),
      'CPU per audio s',
      'CPU to 1st final ms',
      'wall per audio s',
    ],
    rows.map((r) => [
      r.options,
      r.peak ? `peak ${r.peak}` : 'as spoken',
      r.rms_dbfs.toFixed(1),
      `${(r.errors.wer * 100).toFixed(1)} %`,
      `${r.errors.substitutions}/${r.errors.deletions}/${r.errors.insertions}`,
      ...voiceTurns.map((v) => `${(r.per_voice_wer[v.voice] * 100).toFixed(1)} %`),
      r.cpu_per_audio_s.toFixed(3),
      r.first_final_cpu_ms.map((ms) => (ms === undefined ? '-' : Math.round(ms))).join(' / '),
      r.realtime_factor_wall.toFixed(3),
    ]),
  );
  return rows;
}
