// Spelled answers in a recorded audio run: what the general language model heard (each
// segment's `heard` in the run's metrics, the session recognizer's words) against the spelling
// grammar's decode of the same audio (what PocketSphinx does after a prompt to spell, when the
// general model heard the spelling alphabet). A spelled answer is a caller segment right after an
// agent segment that asked to spell; a read-back is right when the id or code parsed from it
// (alphabet words as letters, number words as digits) is the one parsed from what was said.
//
//   npm run build && node bench/spelled-answers.bench.mjs <run dir recorded with --pocketsphinx-spelling off>
//   node bench/spelled-answers.bench.mjs <run dir> --args "-remove_noise no"   (options for the grammar's decoder)
//
// 'grammar alone' decodes every spelled answer with the grammar, whatever the general model heard
// (on a run recorded with the grammar on, the only column that compares decoder options).
//
// Offline and bounded: one PocketSphinx run of a few seconds per spelled answer.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  decodeSpelling,
  decodeWav,
  DEBIAN_POCKETSPHINX_MODEL,
  expectedSpeech,
  NATO_ALPHABET,
  parseSpokenCode,
  parseSpokenId,
  worthSpellingDecode,
} from '@scenaro/agent/voice';
import { emitResult, machineLine, watchdog } from './lib/common.mjs';

const runDir = process.argv[2];
const argsAt = process.argv.indexOf('--args');
const extraArgs = argsAt > 0 ? (process.argv[argsAt + 1] ?? '').split(/\s+/).filter(Boolean) : [];
if (!runDir || !existsSync(runDir)) {
  console.error('usage: node bench/spelled-answers.bench.mjs <run dir of an audio eval>');
  process.exit(2);
}
watchdog('spelled-answers', 1200);

const decoder = {
  binary: 'pocketsphinx_continuous',
  args: [
    '-samprate', '16000',
    '-hmm', `${DEBIAN_POCKETSPHINX_MODEL}/en-us`,
    '-dict', `${DEBIAN_POCKETSPHINX_MODEL}/cmudict-en-us.dict`,
    ...extraArgs,
  ], // prettier-ignore
  dict: `${DEBIAN_POCKETSPHINX_MODEL}/cmudict-en-us.dict`,
  nice: 0,
};

/** The id or code spelled in `text`, alphabet words read as letters. */
function readBack(text) {
  const words = text
    .toLowerCase()
    .replace(/[,.?!]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => NATO_ALPHABET[w]?.toLowerCase() ?? w);
  const spelled = words.slice(words.lastIndexOf('spelled') + 1).join(' ');
  return parseSpokenId(spelled) ?? parseSpokenCode(spelled)?.toLowerCase();
}

const counts = { answers: 0, general: 0, grammar: 0, alone: 0, tried: 0, ms: 0 };
for (const name of readdirSync(runDir).sort()) {
  const metricsFile = join(runDir, name, 'metrics.json');
  const wavFile = join(runDir, name, 'conversation_log.wav');
  if (!existsSync(metricsFile) || !existsSync(wavFile)) continue;
  const segments = JSON.parse(readFileSync(metricsFile, 'utf8')).audio?.segments ?? [];
  const wav = decodeWav(readFileSync(wavFile));
  const channels = wav.channels;
  const samples = new Int16Array(wav.pcm.buffer, wav.pcm.byteOffset, wav.pcm.length >> 1);
  for (let i = 1; i < segments.length; i++) {
    const [prompt, answer] = [segments[i - 1], segments[i]];
    if (prompt.role !== 'agent' || answer.role !== 'user') continue;
    const sentences = prompt.said.split(/(?<=[.!?])\s+/);
    if (!sentences.some((s) => expectedSpeech(s) === 'spelling')) continue;
    const want = readBack(answer.said);
    if (!want) continue;
    // The caller's channel (the first), 0.3 s either side, as the recognizer keeps it.
    const from = Math.max(0, Math.round((answer.start - 0.3) * wav.sampleRate));
    const to = Math.min(samples.length / channels, Math.round((answer.end + 0.3) * wav.sampleRate));
    const mono = new Int16Array(to - from);
    for (let k = 0; k < mono.length; k++) mono[k] = samples[(from + k) * channels];
    const started = performance.now();
    const grammar = await decodeSpelling(decoder, new Uint8Array(mono.buffer));
    counts.ms += performance.now() - started;
    const tried = worthSpellingDecode(answer.heard);
    counts.answers++;
    counts.tried += tried;
    counts.general += readBack(answer.heard) === want;
    counts.grammar += readBack(tried ? grammar : answer.heard) === want;
    counts.alone += readBack(grammar) === want;
    if (process.env.SHOW) console.log(name, want, '|', answer.heard, '|', grammar);
  }
}
const pct = (n) => `${((100 * n) / Math.max(1, counts.answers)).toFixed(1)} %`;
console.log(
  `spelled answers in ${runDir}, grammar decoder options: ${extraArgs.join(' ') || '(none)'}\n${machineLine()}`,
);
console.log(
  `| read back right | general model (as heard) | with the spelling grammar | grammar alone | grammar tried | ms per grammar decode |`,
);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: |`);
console.log(
  `| ${counts.answers} answers | ${counts.general} (${pct(counts.general)}) | ${counts.grammar} (${pct(counts.grammar)}) | ${counts.alone} (${pct(counts.alone)}) | ${counts.tried} | ${Math.round(counts.ms / Math.max(1, counts.answers))} |`,
);
emitResult({ ...counts, ratio: counts.grammar / Math.max(1, counts.general) });
