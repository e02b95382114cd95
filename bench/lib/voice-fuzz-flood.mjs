// Phase 3 of bench/voice-fuzz.bench.mjs: a bystander's control requests, one at a time, while
// one session floods 10 minutes of audio at once in 512-byte frames and another 10 minutes in
// frames of the server's largest message; the bystander (on its own thread:
// voice-fuzz-bystander.mjs) has its latencies kept by stage.
import { setImmediate } from 'node:timers';
import { Worker } from 'node:worker_threads';
import { DEFAULT_MAX_MESSAGE_BYTES } from '@scenaro/agent';
import { BYTES_PER_SECOND, Connection, flood, sleep, stats } from './voice-fuzz-client.mjs';
import { audioFrame, pcm } from './voice-fuzz-input.mjs';

const now = () => performance.timeOrigin + performance.now();

/** Audio bytes of the largest audio frame the server takes (the frame within the message limit). */
function largestAudioBytes() {
  let bytes = DEFAULT_MAX_MESSAGE_BYTES & ~1;
  while (audioFrame(new Uint8Array(bytes)).length > DEFAULT_MAX_MESSAGE_BYTES) bytes -= 2;
  return bytes;
}

/**
 * Run the flood phase against the server at `url`; `stageMark()` marks a stage's start and its
 * `end()` gives what the server did during it.
 */
export async function floodPhase(url, stageMark) {
  const worker = new Worker(new URL('./voice-fuzz-bystander.mjs', import.meta.url), {
    workerData: { url },
  });
  /** Each answer to the bystander: when its request was sent, how long the answer took. */
  const answers = [];
  let connected;
  const ready = new Promise((resolve) => (connected = resolve));
  const done = new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (message.ready) connected();
      else if (message.done) resolve(message);
      else answers.push(message);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the bystander thread exited (${code})`)));
  });
  await Promise.race([ready, done]);
  const small = new Connection(url);
  const large = new Connection(url);
  for (const conn of [small, large]) {
    await conn.open();
    conn.handshake();
    await conn.settle();
  }
  /** When each stage began (the bystander's latencies are sorted into stages by send time). */
  const starts = [];
  const load = {};
  const begin = (name) => starts.push([name, now()]);
  // A baseline: the same requests for 3 s before any flood.
  begin('before');
  let mark = await stageMark();
  await sleep(3000);
  load.before = await mark.end();
  const result = { small_frames: 0, large_frames: 0, large_frame_bytes: largestAudioBytes() };
  // 10 minutes of audio at once in 16 ms frames.
  begin('small');
  mark = await stageMark();
  const t0 = performance.now();
  await flood(small, 600, () => result.small_frames++);
  await small.drain(0);
  result.small_flood_s = (performance.now() - t0) / 1000;
  load.small = await mark.end();
  // 10 minutes of audio in frames of the largest message.
  const big = audioFrame(pcm(result.large_frame_bytes));
  begin('large');
  mark = await stageMark();
  const t1 = performance.now();
  for (let sentBytes = 0; sentBytes < 600 * BYTES_PER_SECOND && !large.closed;) {
    large.send(big);
    result.large_frames++;
    sentBytes += result.large_frame_bytes;
    await large.drain(2 * 1024 * 1024);
    await new Promise((r) => setImmediate(r));
  }
  await large.drain(0);
  result.large_flood_s = (performance.now() - t1) / 1000;
  result.large_closed = large.closed;
  load.large = await mark.end();
  // The server works off the queues (10 s each at most) while the bystander goes on.
  begin('after');
  mark = await stageMark();
  await sleep(5000);
  load.after = await mark.end();
  begin('end');
  worker.postMessage('stop');
  const bystanderStats = await done;
  await worker.terminate();
  stats.answered += bystanderStats.answered;
  stats.late.push(...bystanderStats.late);
  stats.lateIds.push(...bystanderStats.lateIds);
  for (const [kind, count] of Object.entries(bystanderStats.errors)) stats.errors[kind] += count;
  /** The bystander's latencies by what the floods were doing. */
  const stages = { before: [], small: [], large: [], after: [] };
  for (const { at, ms } of answers) {
    const stage = starts.findLast(([, start]) => start <= at)?.[0];
    if (stage in stages) stages[stage].push(ms);
  }
  await small.leave('disconnect-bot');
  await large.leave('disconnect-bot');
  for (const list of Object.values(stages)) list.sort((a, b) => a - b);
  // What the check is on: from the first flood's start to 5 s after the last.
  const flooded = [...stages.small, ...stages.large, ...stages.after].sort((a, b) => a - b);
  return { ...result, bystander: flooded, stages, load };
}
