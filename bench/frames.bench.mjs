// Benchmark: Pipecat frame codec throughput (ours) against @bufbuild/protobuf used raw on the
// same generated schema, measured in the same run.
//
//   npm run build && node bench/frames.bench.mjs [seconds-per-case]
//
// Two payloads: a typical RTVI MessageFrame (a `bot-output` server event, ~200 bytes of JSON)
// and a 1,920-byte audio frame (20 ms of 48 kHz mono s16le). For each, encode and decode are
// timed separately (the message encode also with `pooled: true`, as the bot server sends):
//   ours  encodeFrame(value) / decodeFrame(bytes)   (a MessageFrame and a plain audio frame are
//         written directly, a plain audio frame is read directly; the rest goes through
//         create + toBinary, fromBinary + value mapping)
//   raw   toBinary(FrameSchema, create(FrameSchema, init)) / fromBinary(FrameSchema, bytes)
// and, for the message, the whole RTVI path:
//   ours  encodeRtviFrame(envelope) / decodeRtviFrame(bytes)  (JSON + frame + envelope validation)
//   raw   JSON.stringify + raw encode / raw decode + JSON.parse (no validation)
// Each case runs in timed rounds of a fixed count until `seconds` have passed (default 1.5);
// the median round gives messages/s and MB/s (frame bytes). In-process, bounded.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { emitMeasured, median, printTable, ratio, watchdog } from './lib/common.mjs';

watchdog('frames bench', 120);
const seconds = Number(process.argv[2] ?? 1.5);
// FrameSchema is the generated schema the codec itself uses: the raw baseline runs on it too.
const { FrameSchema, decodeFrame, decodeRtviFrame, encodeFrame, encodeRtviFrame } =
  await import('@scenaro/sdk/protocol');

const envelope = {
  label: 'rtvi-ai',
  type: 'bot-output',
  data: {
    text: 'Your flight HAT170 from LAX to JFK on May 22 is confirmed. Anything else I can do for you?',
    aggregated_by: 'sentence',
    spoken: false,
  },
};
const messageValue = { kind: 'message', data: JSON.stringify(envelope) };
const audio = new Uint8Array(1920);
for (let i = 0; i < audio.length; i++) audio[i] = (i * 31) & 0xff;
const audioValue = { kind: 'audio', audio, sampleRate: 48000, numChannels: 1 };

const rawInit = {
  message: { frame: { case: 'message', value: { data: messageValue.data } } },
  audio: {
    frame: {
      case: 'audio',
      value: { id: 0n, name: '', audio, sampleRate: 48000, numChannels: 1 },
    },
  },
};
const bytes = {
  message: encodeFrame(messageValue),
  audio: encodeFrame(audioValue),
  rtvi: encodeRtviFrame(envelope),
};
// Same bytes both ways: the comparison is like for like.
for (const kind of ['message', 'audio']) {
  const raw = toBinary(FrameSchema, create(FrameSchema, rawInit[kind]));
  if (Buffer.compare(Buffer.from(raw), Buffer.from(bytes[kind])) !== 0)
    throw new Error(`${kind}: ours and raw encode differently`);
}

let sink = 0;
/** The raw library's encode of `init`. */
const rawEncode = (init) => () => (sink += toBinary(FrameSchema, create(FrameSchema, init)).length);
/** The raw library's decode of `frame`, measured by the length of the field `pick` takes. */
const rawDecode = (frame, pick) => () =>
  (sink += pick(fromBinary(FrameSchema, frame).frame.value).length);
const cases = [
  ['message', 'encode', 'ours', () => (sink += encodeFrame(messageValue).length)],
  ['message', 'encode', 'raw', rawEncode(rawInit.message)],
  [
    'message, pooled',
    'encode',
    'ours',
    () => (sink += encodeFrame(messageValue, { pooled: true }).length),
  ],
  ['message, pooled', 'encode', 'raw', rawEncode(rawInit.message)],
  ['message', 'decode', 'ours', () => (sink += decodeFrame(bytes.message).data.length)],
  ['message', 'decode', 'raw', rawDecode(bytes.message, (v) => v.data)],
  ['audio', 'encode', 'ours', () => (sink += encodeFrame(audioValue).length)],
  ['audio', 'encode', 'raw', rawEncode(rawInit.audio)],
  ['audio', 'decode', 'ours', () => (sink += decodeFrame(bytes.audio).audio.length)],
  ['audio', 'decode', 'raw', rawDecode(bytes.audio, (v) => v.audio)],
  ['rtvi message', 'encode', 'ours', () => (sink += encodeRtviFrame(envelope).length)],
  [
    'rtvi message',
    'encode',
    'raw',
    () =>
      (sink += toBinary(
        FrameSchema,
        create(FrameSchema, {
          frame: { case: 'message', value: { data: JSON.stringify(envelope) } },
        }),
      ).length),
  ],
  [
    'rtvi message',
    'decode',
    'ours',
    () => (sink += decodeRtviFrame(bytes.rtvi).message.type.length),
  ],
  [
    'rtvi message',
    'decode',
    'raw',
    () => (sink += JSON.parse(fromBinary(FrameSchema, bytes.rtvi).frame.value.data).type.length),
  ],
];
const frameBytes = {
  message: bytes.message.length,
  'message, pooled': bytes.message.length,
  audio: bytes.audio.length,
  'rtvi message': bytes.rtvi.length,
};

/** Ours and raw of one case in alternating timed rounds (same JIT and GC conditions); medians. */
function measurePair(ours, raw) {
  const ROUND = 2000;
  for (let i = 0; i < 20_000; i++) {
    ours();
    raw();
  }
  const rates = { ours: [], raw: [] };
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end || rates.ours.length < 5) {
    for (const [name, fn] of [
      ['ours', ours],
      ['raw', raw],
    ]) {
      const t0 = performance.now();
      for (let i = 0; i < ROUND; i++) fn();
      rates[name].push((ROUND * 1000) / (performance.now() - t0));
    }
  }
  return { ours: median(rates.ours), raw: median(rates.raw) };
}

const results = [];
for (const [payload, op, impl, fn] of cases) {
  if (impl !== 'ours') continue;
  const raw = cases.find((c) => c[0] === payload && c[1] === op && c[2] === 'raw')[3];
  const rates = measurePair(fn, raw);
  for (const name of ['ours', 'raw'])
    results.push({
      payload,
      op,
      impl: name,
      bytes: frameBytes[payload],
      per_second: rates[name],
      mb_per_second: (rates[name] * frameBytes[payload]) / 1e6,
    });
}
if (sink === 0) throw new Error('nothing measured');

const rows = [];
for (const payload of ['message', 'message, pooled', 'audio', 'rtvi message']) {
  for (const op of ['encode', 'decode']) {
    const ours = results.find((r) => r.payload === payload && r.op === op && r.impl === 'ours');
    const raw = results.find((r) => r.payload === payload && r.op === op && r.impl === 'raw');
    if (!ours || !raw) continue; // the pooled variant is an encode-only case
    rows.push({
      payload,
      op,
      bytes: ours.bytes,
      ours,
      raw,
      ratio: raw.per_second / ours.per_second,
    });
  }
}
printTable(
  `frame codec throughput, ours vs @bufbuild/protobuf raw (median of rounds)`,
  [
    'payload',
    'op',
    'frame bytes',
    'ours msg/s',
    'ours MB/s',
    'raw msg/s',
    'raw MB/s',
    'ours time / raw',
  ],
  rows.map((r) => [
    r.payload,
    r.op,
    r.bytes,
    Math.round(r.ours.per_second).toLocaleString('en-US'),
    r.ours.mb_per_second.toFixed(1),
    Math.round(r.raw.per_second).toLocaleString('en-US'),
    r.raw.mb_per_second.toFixed(1),
    ratio(r.raw.per_second, r.ours.per_second),
  ]),
);
console.log(
  'ours time / raw: time per message of ours over the raw library (1.00x = no overhead; below 1: ours is faster).',
);
emitMeasured({
  rows: rows.map((r) => ({
    payload: r.payload,
    op: r.op,
    bytes: r.bytes,
    ours_per_second: r.ours.per_second,
    ours_mb_per_second: r.ours.mb_per_second,
    raw_per_second: r.raw.per_second,
    raw_mb_per_second: r.raw.mb_per_second,
    time_ratio: r.ratio,
  })),
});
