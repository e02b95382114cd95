// Benchmark: per-call overhead of a frontend tool call through the SDK, against a bare function
// call and against the control-plane round trip, measured in the same run.
//
//   npm run build && node bench/frontend-tool.bench.mjs [calls]
//
// Loopback (in-memory LiveKit-semantics transport, zero simulated latency), the same handler
// (schema-validated args in the session paths):
//   bare      `await handler(requestId, args, settings, collections, ctx)`
//   session   agent-side `transport.performRpc` with a pre-built RpcToolRequest -> ScenaroSession
//             (parse, ajv validation, AbortController, deadline timer, JSON answer, size guard)
//   caller    `FrontendToolCaller.call()` -> the same path, plus request building, its own
//             deadline timer and response parsing (what an agent actually does)
// Calls run one after another; each sample times a batch of BATCH calls and divides, so timer
// resolution does not dominate the sub-microsecond bare call.
//
// RTVI (real loopback WebSocket, the bot server and the "browser" in this one process):
//   rtvi tool         a BotServer session's FrontendToolCaller over its RTVI RpcTransport ->
//                     server-message push -> the real @pipecat-ai/client-js -> ScenaroSession on
//                     @scenaro/sdk/rtvi -> client-message answer -> the caller
//   control (client)  the control-plane round trip on the same client:
//                     `sendClientRequest('get_scenario_summary')`
//   control (raw ws)  the same request from a raw ws client (protobuf frames, no client-js)
// each call timed on its own (p50, p99). Bounded, loopback only, exits by itself.
import { emitMeasured, percentile, printTable, ratio, watchdog } from './lib/common.mjs';

watchdog('frontend-tool bench', 180);
const { ScenaroSession, CollectionStore, createLoopbackPair, silentLogger } =
  await import('@scenaro/sdk');
const { createRtviTransport } = await import('@scenaro/sdk/rtvi');
const {
  BotServer,
  FrontendToolCaller,
  silentLogger: silentAgentLogger,
} = await import('@scenaro/agent');
const { connectPipecatClient } = await import('@scenaro/agent/testing');
const { clientMessage, clientReady } = await import('@scenaro/sdk/protocol');
const { openClient } = await import('./lib/sessions.mjs');
// websocket-transport's reconnecting socket logs every event to console.debug.
console.debug = () => {};

const CALLS = Number(process.argv[2] ?? 20000);
const SOCKET_CALLS = Math.max(200, Math.round(CALLS / 10));
const BATCH = 50;
const WARMUP = 2000;

const tool = {
  name: 'search_collection_items',
  description: 'Search the catalog',
  parameters: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } },
    required: ['query'],
  },
  feature: 'catalog',
};
const settings = { shop: 'caviste' };
const collections = new CollectionStore({ cart: [] });
const handler = async (requestId, args) => ({
  requestId,
  response: { code: 'SUCCESS', data: { items: [args.query], count: 1 } },
  componentData: { query: args.query },
});
const args = { query: 'chablis', limit: 5 };
const newSession = (transport) =>
  new ScenaroSession({
    transport,
    config: { tools: [tool], settings },
    handlers: { [tool.name]: handler },
    collections,
    activity: false,
    logger: silentLogger,
  });

// --- loopback ---------------------------------------------------------------------------------
const { agent, user } = createLoopbackPair({ latencyMs: 0 });
const session = newSession(user);
session.start();
const caller = new FrontendToolCaller({
  transport: agent,
  destinationIdentity: 'user',
  logger: silentLogger,
});

let sequence = 0;
const controller = new AbortController();
const ctx = { signal: controller.signal, tool, callerIdentity: 'agent', deadline: 0 };
const loopbackPaths = {
  bare: async () => {
    const result = await handler(`r${++sequence}`, args, settings, collections, ctx);
    if (result.response.code !== 'SUCCESS') throw new Error('bare call failed');
  },
  session: async () => {
    const payload = await agent.performRpc({
      destinationIdentity: 'user',
      method: tool.name,
      payload: JSON.stringify({ requestId: `r${++sequence}`, tool: tool.name, args, sentAt: 0 }),
      responseTimeoutMs: 10000,
    });
    if (!payload.includes('"SUCCESS"')) throw new Error(`session call failed: ${payload}`);
  },
  caller: async () => {
    const response = await caller.call(tool, args);
    if (response.code !== 'SUCCESS')
      throw new Error(`caller call failed: ${JSON.stringify(response)}`);
  },
};

async function measureBatched(run) {
  for (let i = 0; i < WARMUP; i++) await run();
  const perCall = [];
  for (let done = 0; done < CALLS; done += BATCH) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) await run();
    perCall.push(((performance.now() - t0) * 1000) / BATCH);
  }
  perCall.sort((a, b) => a - b);
  return { p50: percentile(perCall, 0.5), p99: percentile(perCall, 0.99), calls: CALLS };
}

async function measureEach(run, calls) {
  for (let i = 0; i < Math.min(500, calls); i++) await run();
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await run();
    samples.push((performance.now() - t0) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), calls };
}

const results = {};
for (const [name, run] of Object.entries(loopbackPaths)) results[name] = await measureBatched(run);
session.stop();
if (
  session.inflightCount !== 0 ||
  caller.pendingCount !== 0 ||
  user.registeredMethods.length !== 0
) {
  console.error('leak: calls or registrations left behind');
  process.exit(1);
}

// --- RTVI over a real socket --------------------------------------------------------------------
let botSession;
const server = await new BotServer({
  host: '127.0.0.1',
  port: 0,
  logger: silentAgentLogger,
  onSession: (s) => {
    botSession ??= s;
  },
}).listen();
const pipecat = await connectPipecatClient(server.url);
const client = pipecat.client;
const browser = newSession(createRtviTransport(client));
browser.start();
const announced = performance.now();
while (!botSession?.rpc.hasRemoteMethod(tool.name)) {
  if (performance.now() - announced > 5000)
    throw new Error('the browser never announced its tools');
  await new Promise((r) => setTimeout(r, 5));
}
const rtviCaller = new FrontendToolCaller({
  transport: botSession.rpc,
  destinationIdentity: botSession.rpc.remoteIdentity,
  logger: silentLogger,
});
const raw = await openClient(server.url);
await raw.exchange(clientReady('ready_raw', { library: 'bench' }));
const socketPaths = {
  'rtvi tool': async () => {
    const response = await rtviCaller.call(tool, args);
    if (response.code !== 'SUCCESS')
      throw new Error(`rtvi call failed: ${JSON.stringify(response)}`);
  },
  'control (client)': async () => {
    const reply = await client.sendClientRequest('get_scenario_summary', {});
    if (reply?.db_hash !== null) throw new Error(`unexpected summary ${JSON.stringify(reply)}`);
  },
  'control (raw ws)': async () => {
    const reply = await raw.exchange(
      clientMessage(`raw_${++sequence}`, 'get_scenario_summary', {}),
    );
    if (reply.type !== 'server-response') throw new Error(`unexpected ${JSON.stringify(reply)}`);
  },
};
for (const [name, run] of Object.entries(socketPaths))
  results[name] = await measureEach(run, SOCKET_CALLS);
browser.stop();
raw.terminate();
await pipecat.disconnect();
await server.close();

const baseline = (name) => (name in loopbackPaths ? results.bare : results['control (client)']);
printTable(
  'frontend tool call overhead vs a bare call and vs the control-plane round trip',
  ['path', 'transport', 'calls', 'p50 µs/call', 'p99 µs/call', 'p50 vs baseline', 'baseline'],
  Object.entries(results).map(([name, r]) => [
    name,
    name in loopbackPaths ? 'loopback (batched)' : 'RTVI socket (each)',
    r.calls,
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    ratio(r.p50, baseline(name).p50),
    name in loopbackPaths ? 'bare' : 'control (client)',
  ]),
);
console.log(
  `overhead per call (loopback, p50): session - bare ${(results.session.p50 - results.bare.p50).toFixed(2)} µs, ` +
    `caller - bare ${(results.caller.p50 - results.bare.p50).toFixed(2)} µs; ` +
    `RTVI tool call / control-plane round trip on the same client: ${ratio(results['rtvi tool'].p50, results['control (client)'].p50)} (p50)`,
);
emitMeasured({ results });
