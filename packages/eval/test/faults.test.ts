// Faults during an evaluation run: the agent bot dies mid-run and comes back on the same port.
// The runner's infrastructure retries must complete every scenario, none lost and none run twice
// (exactly one result folder and one finished line per scenario, every one passing).
//
// 1. In process: the agent BotServer is closed with no grace period (every socket closed with
//    1001 while conversations are in flight), then a new one listens on the same port.
// 2. Out of process: the agent bot runs in a child process (built dist) that is SIGKILLed
//    (sockets reset, no close frame), then started again on the same port.
//
// Both need the tau2 data (../shared/eval-data); the second also needs `npm run build`.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BotServer,
  DomainRegistry,
  createConversationEngine,
  createReferenceAgentModel,
  createScriptedUserModel,
  silentLogger,
} from '@scenaro/agent';
import { builtInDomains, registerDomains, runEvaluation } from '../src/index.js';
import type { EvaluationResult } from '../src/index.js';
import { hasSharedData, repoRoot, sharedData, tempOutput } from './helpers.js';

const built =
  existsSync(join(repoRoot, 'packages/eval/dist/index.js')) &&
  existsSync(join(repoRoot, 'packages/agent/dist/index.js'));
if (hasSharedData && !built)
  console.warn(
    '\n!!! faults test: the SIGKILL variant is SKIPPED: run `npm run build` first (packages/*/dist missing) !!!\n',
  );

const DOMAIN = 'tau2_airline';
/** 16 of the 50 airline scenarios: two full waves at concurrency 8. */
const SCENARIOS = Array.from({ length: 16 }, (_, i) => `${DOMAIN}__${i}`);
const CONCURRENCY = 8;
/** Kill the agent once this many scenarios have finished (the next wave is in flight). */
const KILL_AFTER = 5;
/** How long the agent stays down. */
const DOWN_MS = 400;

/** A free loopback port (listen on 0, note it, close). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A bot like the runner's local ones (scripted policies), on `port`. */
async function startBot(role: 'agent' | 'user', port: number): Promise<BotServer> {
  const domains = [builtInDomains().get(DOMAIN)].filter((d) => d !== undefined);
  return new BotServer({
    host: '127.0.0.1',
    port,
    dataRoot: sharedData,
    maxOutgoingBytes: 64 * 1024 * 1024,
    logger: silentLogger,
    shutdownGraceMs: 0,
    registry: registerDomains(new DomainRegistry(), domains),
    conversation: createConversationEngine({
      model: role === 'agent' ? createReferenceAgentModel : createScriptedUserModel,
    }),
  }).listen();
}

/** The same agent bot in a child process, from the built dist. Resolves once it listens. */
async function startChildAgent(port: number): Promise<ChildProcess> {
  const script = `
    import { BotServer, DomainRegistry, createConversationEngine, createReferenceAgentModel, silentLogger } from '@scenaro/agent';
    import { builtInDomains, registerDomains } from '@scenaro/eval';
    const server = await new BotServer({
      host: '127.0.0.1',
      port: ${port},
      dataRoot: ${JSON.stringify(sharedData)},
      maxOutgoingBytes: 64 * 1024 * 1024,
      logger: silentLogger,
      registry: registerDomains(new DomainRegistry(), [builtInDomains().get(${JSON.stringify(DOMAIN)})]),
      conversation: createConversationEngine({ model: createReferenceAgentModel }),
    }).listen();
    console.log('listening ' + server.url);
    setTimeout(() => process.exit(3), 120000); // never outlive the test
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`child agent did not start: ${stderr}`)),
      15_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child agent exited with ${code}: ${stderr}`));
    });
  });
  return child;
}

/** A progress stream that calls `onFinished(count)` after each finished scenario line. */
function watchingStream(onFinished: (count: number) => void) {
  let text = '';
  let finished = 0;
  return {
    write(chunk: string) {
      text += chunk;
      for (const line of chunk.split('\n')) {
        if (/^(PASS|FAIL|N\/A |ERR ) /.test(line)) onFinished(++finished);
      }
      return true;
    },
    text: () => text,
  };
}

/** Every scenario exactly once, every one passed, and the fault really hit running scenarios. */
function expectCompleteOnce(result: EvaluationResult, progress: string): void {
  // one finished line per scenario
  const finishedLines = progress.split('\n').filter((l) => /^(PASS|FAIL|N\/A |ERR ) /.test(l));
  const finishedNames = finishedLines.map((l) => l.split(' ')[1]);
  expect(finishedNames.sort()).toEqual([...SCENARIOS].sort());
  expect(finishedLines.every((l) => l.startsWith('PASS '))).toBe(true);
  // the kill interrupted scenarios, which were retried
  const retries = progress.split('\n').filter((l) => l.startsWith('retrying '));
  expect(retries.length).toBeGreaterThan(0);
  expect(retries.length).toBeLessThanOrEqual(CONCURRENCY * 2);
  // result folders: exactly one per scenario, nothing set aside, no temp files
  const entries = readdirSync(result.runDir, { withFileTypes: true });
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  expect(dirs.sort()).toEqual([...SCENARIOS].sort());
  expect(entries.filter((e) => e.name.endsWith('.tmp'))).toEqual([]);
  for (const name of SCENARIOS) {
    const metrics = JSON.parse(
      readFileSync(join(result.runDir, name, 'metrics.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(metrics['scenario_name']).toBe(name);
    expect(metrics['is_successful'], name).toBe(true);
  }
  // the run's own records: each scenario once
  const all = JSON.parse(readFileSync(join(result.runDir, 'all_metrics.json'), 'utf8')) as unknown;
  const names = JSON.stringify(all).match(/"scenario_name":"[^"]+"/g) ?? [];
  expect(new Set(names).size).toBe(SCENARIOS.length);
  expect(result.metrics.map((m) => m['scenario_name']).sort()).toEqual([...SCENARIOS].sort());
  expect(result.ran).toBe(SCENARIOS.length);
  expect(result.resumed).toBe(0);
  console.log(
    `faults: ${SCENARIOS.length} scenarios, ${retries.length} retried after the kill:\n  ` +
      retries.join('\n  '),
  );
}

describe.skipIf(!hasSharedData)('an eval run whose agent bot dies mid-run', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('completes every scenario once when the agent server is stopped and restarted', async () => {
    const port = await freePort();
    const user = await startBot('user', 0);
    let agent = await startBot('agent', port);
    cleanups.push(() => user.close());
    cleanups.push(() => agent.close());
    let killed: Promise<void> | undefined;
    const progress = watchingStream((count) => {
      if (count !== KILL_AFTER || killed) return;
      killed = (async () => {
        expect(agent.sessionCount).toBeGreaterThan(0); // conversations are in flight
        await agent.close();
        await new Promise((r) => setTimeout(r, DOWN_MS));
        agent = await startBot('agent', port);
      })();
    });
    const output = tempOutput('scenaro-faults-');
    const result = await runEvaluation({
      domains: [DOMAIN],
      scenarios: SCENARIOS,
      dataRoot: sharedData,
      outputDir: output,
      runId: 'agent-restarted',
      concurrency: CONCURRENCY,
      agentUrl: `ws://127.0.0.1:${port}`,
      userUrl: user.url,
      retries: 3,
      progressStream: progress,
    });
    expect(killed).toBeDefined();
    await killed;
    expectCompleteOnce(result, progress.text());
  }, 90_000);

  it.skipIf(!built)(
    'completes every scenario once when the agent process is SIGKILLed and restarted',
    async () => {
      const port = await freePort();
      const user = await startBot('user', 0);
      cleanups.push(() => user.close());
      let child = await startChildAgent(port);
      cleanups.push(() => {
        child.kill('SIGKILL');
      });
      let killed: Promise<void> | undefined;
      const progress = watchingStream((count) => {
        if (count !== KILL_AFTER || killed) return;
        killed = (async () => {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
          await new Promise((r) => setTimeout(r, DOWN_MS));
          child = await startChildAgent(port);
        })();
      });
      const output = tempOutput('scenaro-faults-');
      const result = await runEvaluation({
        domains: [DOMAIN],
        scenarios: SCENARIOS,
        dataRoot: sharedData,
        outputDir: output,
        runId: 'agent-sigkilled',
        concurrency: CONCURRENCY,
        agentUrl: `ws://127.0.0.1:${port}`,
        userUrl: user.url,
        retries: 3,
        progressStream: progress,
      });
      expect(killed).toBeDefined();
      await killed;
      expectCompleteOnce(result, progress.text());
    },
    90_000,
  );
});
