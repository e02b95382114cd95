/**
 * Shared helpers of the harness tests.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvalDomain, Scenario } from '@scenaro/domains';
import { runEvaluation } from '../src/index.js';
import type { EvaluationOptions, EvaluationResult } from '../src/index.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedData = resolve(repoRoot, '../shared/eval-data');
export const hasSharedData = existsSync(join(sharedData, 'reference_scenarios.json'));
if (!hasSharedData) {
  console.warn(`tau2 evaluation tests skipped: no tau2 data at ${sharedData}`);
}

/** A fresh output folder. */
export function tempOutput(prefix = 'scenaro-eval-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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
