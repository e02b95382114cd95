/**
 * Shared helpers of the harness tests.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BotServer, silentLogger } from '@scenaro/agent';
import type { ConversationHost } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent/voice';
import type { EvalDomain, Scenario } from '@scenaro/domains';
import { runEvaluation } from '../src/index.js';
import type { EvaluationOptions, EvaluationResult } from '../src/index.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedData = resolve(repoRoot, '../shared/eval-data');
export const hasSharedData = existsSync(join(sharedData, 'reference_scenarios.json'));
if (!hasSharedData) {
  console.warn(`tau2 evaluation tests skipped: no tau2 data at ${sharedData}`);
}

/** The `scenaro` command (its bin script), and whether it is built (`packages/cli/dist`). */
export const cli = join(repoRoot, 'packages/cli/bin/scenaro.js');
export const cliBuilt = existsSync(join(repoRoot, 'packages/cli/dist/bin.js'));

/** A fresh output folder. */
export function tempOutput(prefix = 'scenaro-eval-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The scenarios of a run folder whose metrics are written (a killed attempt's folders aside), sorted. */
export function finishedScenarios(runDir: string): string[] {
  if (!existsSync(runDir)) return [];
  return readdirSync(runDir)
    .filter((name) => !name.includes('.killed.') && existsSync(join(runDir, name, 'metrics.json')))
    .sort();
}

/** When each scenario's metrics.json was written, to tell later that none of them ran again. */
export function metricsTimes(runDir: string, names: readonly string[]): Map<string, number> {
  return new Map(names.map((name) => [name, statSync(join(runDir, name, 'metrics.json')).mtimeMs]));
}

/** Every scenario of `times` still has its metrics.json as it was: it did not run again. */
export function expectNotRunAgain(runDir: string, times: ReadonlyMap<string, number>): void {
  for (const [name, mtime] of times)
    expect(statSync(join(runDir, name, 'metrics.json')).mtimeMs, `${name} ran twice`).toBe(mtime);
}

/** The rows of a run's all_metrics.json. */
export function summaryRows(runDir: string): unknown[] {
  return JSON.parse(readFileSync(join(runDir, 'all_metrics.json'), 'utf8')) as unknown[];
}

/** A stream that collects what the progress display writes. */
export function collectingStream(): { write(text: string): boolean; text: () => string } {
  let buffer = '';
  return {
    write(text: string) {
      buffer += text;
      return true;
    },
    text: () => buffer,
  };
}

/**
 * A run of the commerce scenarios (their shipped data; the data root given does not exist) into
 * `output` at concurrency 4; `options` add to or override that.
 */
export function runCommerce(
  output: string,
  runId: string,
  options: Partial<EvaluationOptions> = {},
): Promise<EvaluationResult> {
  return runEvaluation({
    domains: ['commerce'],
    dataRoot: join(output, 'no-tau2-data'),
    outputDir: output,
    runId,
    concurrency: 4,
    progressStream: collectingStream(),
    ...options,
  });
}

/** A domain with no tools or data, for bridge tests with hand-made bots. */
export const plainDomain: EvalDomain = {
  name: 'plain',
  module: { name: 'plain' },
  loadScenarios: async () => [],
};

/** A scenario of {@link plainDomain}: no tools, no actions, a clean exit is success. */
export function plainScenario(
  name: string,
  options: { maxDurationSeconds: number; userInstructions: string },
): Scenario {
  const side = { prompt: 'Be brief.', tools: {}, toolDomain: 'default', sharedStateInit: {} };
  return {
    name: `plain__${name}`,
    domain: 'plain',
    source: 'test',
    successSignals: ['clean_exit'],
    agent: side,
    user: side,
    initializationActions: [],
    referenceActions: [],
    dbStateAssertions: [],
    nlAssertions: [],
    ...options,
  };
}

/** How a test voice bot answers each thing it hears (the kickoff counts for the agent). */
export type VoiceBehaviour = (host: ConversationHost, turn: number, server: BotServer) => void;

/** Speak a whole reply. */
export function speak(host: ConversationHost, text: string): void {
  host.speech?.text(text);
  host.speech?.end();
}

/** A bot server with `voice` whose conversation is `behaviour`; added to `servers` to close. */
export async function voiceBot(
  behaviour: VoiceBehaviour,
  voice: VoiceOptions,
  servers: BotServer[],
): Promise<BotServer> {
  const server: BotServer = await new BotServer({
    port: 0,
    logger: silentLogger,
    voice,
    conversation: (host) => {
      let turns = 0;
      return { onUserText: () => behaviour(host, ++turns, server) };
    },
  }).listen();
  servers.push(server);
  return server;
}
