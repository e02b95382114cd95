// Benchmark: per-call overhead of a frontend tool call through the SDK, over the in-memory
// loopback transport with zero simulated latency, against a bare async function call.
//
//   npx tsc -b packages/sdk packages/agent && node bench/frontend-tool.bench.mjs [calls]
//
// Three paths run the same handler (schema-validated args in the session paths):
//   bare     `await handler(requestId, args, settings, collections, ctx)`
//   session  agent-side `transport.performRpc` with a pre-built RpcToolRequest -> ScenaroSession
//            (parse, ajv validation, AbortController, deadline timer, JSON answer, size guard)
//   caller   `FrontendToolCaller.call()` -> the same path, plus request building, its own deadline
//            timer and response parsing (what an agent actually does)
// Calls run one after another. Each sample times a batch of BATCH calls with performance.now()
// and divides, so timer resolution does not dominate the sub-microsecond bare call; median and
// p99 are over those per-call batch averages. Bounded, in-process, exits by itself.
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(path.join(repoRoot, p)).href;
const { ScenaroSession, CollectionStore, createLoopbackPair, silentLogger } = await import(
  dist('packages/sdk/dist/index.js')
);
const { FrontendToolCaller } = await import(
  dist('packages/agent/dist/rpc/frontend-tool-caller.js')
);

const CALLS = Number(process.argv[2] ?? 20000);
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

const { agent, user } = createLoopbackPair({ latencyMs: 0 });
const session = new ScenaroSession({
  transport: user,
  config: { tools: [tool], settings },
  handlers: { [tool.name]: handler },
  collections,
  activity: false,
  logger: silentLogger,
});
session.start();
const caller = new FrontendToolCaller({
  transport: agent,
  destinationIdentity: 'user',
  logger: silentLogger,
});

let sequence = 0;
const controller = new AbortController();
const ctx = { signal: controller.signal, tool, callerIdentity: 'agent', deadline: 0 };
const paths = {
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

async function measure(run) {
  for (let i = 0; i < WARMUP; i++) await run();
  const perCall = [];
  for (let done = 0; done < CALLS; done += BATCH) {
    const t0 = performance.now();
    for (let i = 0; i < BATCH; i++) await run();
    perCall.push(((performance.now() - t0) * 1000) / BATCH);
  }
  perCall.sort((a, b) => a - b);
  const at = (q) => perCall[Math.min(perCall.length - 1, Math.floor(q * perCall.length))];
  return { median: at(0.5), p99: at(0.99) };
}

const results = {};
for (const [name, run] of Object.entries(paths)) results[name] = await measure(run);

const fmt = (n) => n.toFixed(2).padStart(9);
console.log(
  `frontend tool call overhead, loopback transport, 0 ms latency (${CALLS} calls per path, batches of ${BATCH}; node ${process.version})`,
);
console.log('path         median µs/call     p99 µs/call   median vs bare');
for (const [name, { median, p99 }] of Object.entries(results)) {
  const ratio = median / results.bare.median;
  console.log(
    `${name.padEnd(10)} ${fmt(median)}       ${fmt(p99)}       ${ratio.toFixed(1).padStart(8)}x`,
  );
}
console.log(
  `overhead per call (session - bare): ${(results.session.median - results.bare.median).toFixed(2)} µs median; ` +
    `(caller - bare): ${(results.caller.median - results.bare.median).toFixed(2)} µs median`,
);

session.stop();
if (
  session.inflightCount !== 0 ||
  caller.pendingCount !== 0 ||
  user.registeredMethods.length !== 0
) {
  console.error('leak: calls or registrations left behind');
  process.exit(1);
}
