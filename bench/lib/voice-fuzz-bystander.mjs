// The bystander of bench/voice-fuzz.bench.mjs's flood phase, on its own thread: a session that
// sends only control requests (one at a time, 20 ms apart) and posts each answer's latency with
// the time it was sent. On its own event loop, its latencies are the server's, not those of the
// thread that sends the floods (on one loop, a request's answer waits behind the flood's sends).
import { parentPort, workerData } from 'node:worker_threads';
import { Connection, nextRequestId, sleep, stats } from './voice-fuzz-client.mjs';
import { controlRequest } from './voice-fuzz-input.mjs';

const now = () => performance.timeOrigin + performance.now();
const latencies = [];
const bystander = new Connection(workerData.url, latencies);
let running = true;
parentPort.on('message', (message) => {
  if (message === 'stop') running = false;
});
await bystander.open();
bystander.handshake();
await bystander.settle();
parentPort.postMessage({ ready: true });
while (running && !bystander.closed) {
  const id = `b${nextRequestId()}`;
  const answers = latencies.length;
  const at = now();
  bystander.request(controlRequest(id), id);
  await bystander.settle();
  if (latencies.length > answers) parentPort.postMessage({ at, ms: latencies.at(-1) });
  await sleep(20);
}
await bystander.leave('disconnect-bot');
parentPort.postMessage({
  done: true,
  answered: stats.answered,
  late: stats.late,
  lateIds: stats.lateIds,
  errors: stats.errors,
});
