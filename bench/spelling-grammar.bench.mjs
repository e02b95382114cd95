// Does a spelling grammar help PocketSphinx hear a spelled code? A caller spells reservation-style
// codes (six letters and digits, as "M, zero, five, K, N, L" and in NATO words); Flite says them;
// PocketSphinx recognizes each with its general language model (the default) and with a JSGF
// grammar of letters, NATO words and digits (what an IVR switches to when it asks for spelling).
//
//   npm run build && node bench/spelling-grammar.bench.mjs [codes] [--voice slt]
//
// Prints exact-code accuracy and character error rate per style and model, and the grammar's
// ratio against the language model measured in the same run. Offline and bounded: `codes`
// (default 40) recognitions per style and model, each of a few seconds of audio.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  NATO_ALPHABET,
  createFliteTextToSpeech,
  encodeWav,
  parseSpokenCode,
  sayCode,
} from '@scenaro/agent/voice';
import { speak } from '@scenaro/agent/testing';

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 40);
const voice = args.includes('--voice') ? args[args.indexOf('--voice') + 1] : 'slt';
const MODEL = '/usr/share/pocketsphinx/model/en-us';

// Seeded codes: letters and digits, at least one of each, as reservation codes are.
let seed = 20261205;
const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const codes = [];
while (codes.length < count) {
  const code = Array.from({ length: 6 }, () => ALNUM[Math.floor(random() * ALNUM.length)]).join('');
  if (/\d/.test(code) && /[A-Z]/.test(code)) codes.push(code);
}
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
// NATO_ALPHABET maps each word heard to its letter; a caller says the first word of each letter.
const natoWord = new Map();
for (const [word, letter] of Object.entries(NATO_ALPHABET))
  if (!natoWord.has(letter)) natoWord.set(letter, word);
const nato = (code) =>
  [...code].map((c) => (/\d/.test(c) ? DIGITS[Number(c)] : (natoWord.get(c) ?? c))).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'spelling-'));
const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
const dictionary = new Set(
  readFileSync(join(MODEL, 'cmudict-en-us.dict'), 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[0]),
);
const natoWords = Object.keys(NATO_ALPHABET).filter((w) => dictionary.has(w));
const grammar = join(dir, 'spell.gram');
writeFileSync(
  grammar,
  `#JSGF V1.0;\ngrammar spell;\npublic <spell> = <item>+;\n<item> = ${[...letters, ...natoWords, ...DIGITS, 'oh'].join(' | ')};\n`,
);

// The grammar is tried with PocketSphinx's word insertion penalty and with a stronger one: a
// grammar of single letters otherwise fills pauses with short words.
const MODELS = {
  lm: { label: 'language model (default)', args: () => ['-lm', join(MODEL, 'en-us.lm.bin')] },
  jsgf: { label: 'spelling grammar (JSGF)', args: () => ['-jsgf', grammar] },
  'jsgf-wip': { label: 'grammar, -wip 1e-4', args: () => ['-jsgf', grammar, '-wip', '1e-4'] },
};

function recognize(wav, modelName) {
  const model = MODELS[modelName].args();
  const run = spawnSync(
    'pocketsphinx_continuous',
    [
      '-hmm',
      join(MODEL, 'en-us'),
      '-dict',
      join(MODEL, 'cmudict-en-us.dict'),
      ...model,
      '-infile',
      wav,
      '-logfn',
      '/dev/null',
    ],
    { encoding: 'utf8' },
  );
  if (run.error) throw run.error;
  return run.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
}

function editDistance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
  return d[a.length][b.length];
}

const tts = createFliteTextToSpeech({ voice });
const styles = { letters: (c) => sayCode(c), nato };
const rows = [];
for (const [style, say] of Object.entries(styles)) {
  const score = Object.fromEntries(
    Object.keys(MODELS).map((name) => [name, { exact: 0, errors: 0, ms: 0 }]),
  );
  for (const [i, code] of codes.entries()) {
    const wav = join(dir, `${style}-${i}.wav`);
    writeFileSync(
      wav,
      encodeWav({ pcm: await speak(tts, say(code)), sampleRate: 16000, channels: 1 }),
    );
    for (const name of Object.keys(MODELS)) {
      const started = performance.now();
      const heard = recognize(wav, name);
      score[name].ms += performance.now() - started;
      const got = parseSpokenCode(heard) ?? heard.replace(/\s+/g, '').toUpperCase();
      if (process.env.SHOW) console.log(style, name, code, JSON.stringify(heard), got);
      if (got === code) score[name].exact++;
      score[name].errors += editDistance(got, code);
    }
  }
  for (const name of Object.keys(MODELS))
    rows.push({
      style,
      name,
      model: MODELS[name].label,
      exact: score[name].exact / codes.length,
      cer: score[name].errors / (codes.length * 6),
      msPerCode: score[name].ms / codes.length,
    });
}
await tts.close?.();
rmSync(dir, { recursive: true, force: true });

console.log(`spelled codes: ${codes.length} per style, Flite voice ${voice}, PocketSphinx en-us`);
console.log('style    model                       exact   char errors  ms/code');
for (const r of rows)
  console.log(
    `${r.style.padEnd(8)} ${r.model.padEnd(27)} ${(r.exact * 100).toFixed(1).padStart(5)}%  ${(r.cer * 100).toFixed(1).padStart(6)}%     ${r.msPerCode.toFixed(0).padStart(5)}`,
  );
for (const style of Object.keys(styles)) {
  const lm = rows.find((r) => r.style === style && r.name === 'lm');
  for (const r of rows.filter((x) => x.style === style && x.name !== 'lm'))
    console.log(
      `${style}: ${r.model} vs language model: exact ${(r.exact * 100).toFixed(1)}% vs ${(lm.exact * 100).toFixed(1)}%, ` +
        `char errors x${(r.cer / Math.max(lm.cer, 1e-9)).toFixed(2)}`,
    );
}
