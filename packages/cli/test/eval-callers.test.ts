// `scenaro eval --mode audio --audio-clock fast` with realistic callers, on the offline engines
// (PocketSphinx and Flite): the caller flags and their refusals, a `regular` run's caller events,
// panel files and report, the same wav and panel from the same seed, and the agent's
// `--interruption min-words:3` talking through a backchannel that `any` stops for.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pocketsphinxMissing } from '@scenaro/agent/testing';
import { cliBuilt, killCliChildren, repoRoot, runCliToEnd } from './built-cli.js';

const dataRoot = resolve(repoRoot, '../shared/eval-data');
const hasData = existsSync(join(dataRoot, 'tau2_airline', 'tasks_voice.json'));
if (!hasData) console.warn(`eval-callers tests skipped: no tau2 data at ${dataRoot}`);
const canHear = (await pocketsphinxMissing('the eval-callers runs')) === undefined;
const built = cliBuilt('packages/cli/test/eval-callers.test.ts');

afterAll(() => killCliChildren());

const audio = ['eval', '--mode', 'audio', '--audio-clock', 'fast', '--domain', 'tau2_airline'];

interface ScoredEvent {
  category: string;
  outcome: string;
  cut_short?: boolean;
}

interface Figure {
  value: number | null;
  numerator?: number;
  denominator?: number;
}

function json<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

describe.skipIf(!built)('scenaro eval caller flags', { timeout: 60_000 }, () => {
  const output = mkdtempSync(join(tmpdir(), 'scenaro-callers-flags-'));
  const refused = async (args: string[], message: RegExp) => {
    const run = await runCliToEnd([...args, '--output-dir', output, '--data-root', dataRoot]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
  };

  it('refuses them in text mode', async () => {
    await refused(
      ['eval', '--speech-complexity', 'regular'],
      /--speech-complexity needs --mode audio/,
    );
    await refused(['eval', '--interruption', 'min-words:3'], /--interruption needs --mode audio/);
  });

  it('refuses them with bots given by URL', async () => {
    await refused(
      [
        ...audio,
        '--speech-complexity',
        'regular',
        '--agent-url',
        'ws://127.0.0.1:1',
        '--user-url',
        'ws://127.0.0.1:2',
      ],
      /is for the local bots/,
    );
  });

  it('refuses bad values, naming the flag', async () => {
    await refused([...audio, '--speech-complexity', 'regular,loud'], /unknown preset 'loud'/);
    await refused([...audio, '--interruption', 'min-words:0'], /--interruption: .*min-words:N/);
    await refused([...audio, '--noise-dir', output], /--noise-dir needs --speech-complexity/);
    const bad = join(output, 'bad.json');
    writeFileSync(bad, JSON.stringify({ source_effects_config: { noise_snr_db: 'loud' } }));
    await refused(
      [...audio, '--caller-effects', bad],
      /--caller-effects .*bad\.json: source_effects_config\.noise_snr_db/,
    );
    await refused(
      [...audio, '--caller-effects', bad, '--speech-complexity', 'regular'],
      /--caller-effects|--speech-complexity/,
    );
  });
});

describe.skipIf(!built || !hasData || !canHear)(
  'scenaro eval with realistic callers',
  { timeout: 900_000 },
  () => {
    const output = mkdtempSync(join(tmpdir(), 'scenaro-callers-'));
    const run = async (id: string, ...flags: string[]) => {
      const result = await runCliToEnd(
        [...audio, '--data-root', dataRoot, '--output-dir', output, '--run-id', id, ...flags],
        600_000,
      );
      expect(result.code, result.stderr).toBe(0);
      return join(output, id);
    };

    it('a regular run records the caller line, the panel files and the report section', async () => {
      const dir = await run(
        'regular',
        ...['--speech-complexity', 'regular', '--scenarios', 'tau2_airline__0,tau2_airline__2'],
        ...['--concurrency', '2'],
      );
      const kinds = new Set<string>();
      for (const scenario of ['tau2_airline__0', 'tau2_airline__2']) {
        const caller = json<{
          complexity: string;
          from: string;
          persona: string;
          events: { kind: string; start: number; end: number }[];
        }>(join(dir, scenario, 'caller_effects.json'));
        expect(caller.complexity).toBe('regular');
        expect(caller.from).toBe('tasks_voice');
        for (const e of caller.events) {
          expect(e.end).toBeGreaterThanOrEqual(e.start);
          kinds.add(e.kind);
        }
        const panel = json<{ response_rate: Figure; version: number }>(
          join(dir, scenario, 'interaction_metrics.json'),
        );
        expect(panel.version).toBe(1);
        expect(panel.response_rate.denominator).toBeGreaterThan(0);
        const metrics = json<{ caller?: { persona: string }; interaction?: unknown }>(
          join(dir, scenario, 'metrics.json'),
        );
        expect(metrics.caller?.persona).toBe(caller.persona);
        expect(metrics.interaction).toBeDefined();
      }
      // Every scenario has the channel and the room; a regular caller also does things.
      expect(kinds).toContain('telephony');
      expect(kinds).toContain('background_noise');
      expect(
        [...kinds].some((k) => ['backchannel', 'interruption', 'noise_burst'].includes(k)),
      ).toBe(true);
      const pooled = json<{ counts: { scenarios: number } }>(join(dir, 'interaction_metrics.json'));
      expect(pooled.counts.scenarios).toBe(2);
      const report = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(report).toContain('<h2>Interaction</h2>');
      expect(report).toContain('regular · ');
      const args = json<{ invocations: { parsed_args: Record<string, unknown> }[] }>(
        join(dir, 'run_args.json'),
      );
      expect(args.invocations[0]!.parsed_args).toMatchObject({ speechComplexity: ['regular'] });
    });

    it('gives the same recording and panel for the same seed, and min-words:3 talks through the backchannel any stops for', async () => {
      // `__13`: its agent says two statements before a question, where the caller's listener
      // backchannels (control_behavior decides backchannels as tau2's user model would).
      const scenario = 'tau2_airline__13';
      const flags = ['--speech-complexity', 'control_behavior', '--scenarios', scenario];
      const first = join(await run('any-1', ...flags), scenario);
      const second = join(await run('any-2', ...flags), scenario);
      for (const file of [
        'conversation_log.wav',
        'interaction_metrics.json',
        'caller_effects.json',
      ])
        expect(readFileSync(join(second, file)).equals(readFileSync(join(first, file))), file).toBe(
          true,
        );

      const events = json<{ events: { kind: string }[] }>(join(first, 'caller_effects.json'));
      expect(events.events.filter((e) => e.kind === 'backchannel').length).toBeGreaterThan(0);
      const any = json<{ selectivity_backchannel: Figure; events: ScoredEvent[] }>(
        join(first, 'interaction_metrics.json'),
      );
      const minWords = json<{ selectivity_backchannel: Figure }>(
        join(
          await run('min-words', ...flags, '--interruption', 'min-words:3'),
          scenario,
          'interaction_metrics.json',
        ),
      );
      // The backchannel falls in the agent's speech both times: any yields to it, min-words:3 not.
      expect(any.selectivity_backchannel.denominator).toBeGreaterThan(0);
      expect(any.selectivity_backchannel.value).toBe(0);
      // And it yielded (its speech was cut), not merely finished a sentence.
      const errors = any.events.filter((e) => e.category === 'backchannel');
      expect(errors.every((e) => e.outcome === 'error' && e.cut_short === true)).toBe(true);
      expect(minWords.selectivity_backchannel.denominator).toBe(
        any.selectivity_backchannel.denominator,
      );
      expect(minWords.selectivity_backchannel.value).toBe(1);
    });
  },
);
