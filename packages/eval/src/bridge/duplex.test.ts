// A caller's cut-in holds the timeline for the user bot's answer; when the bot has nothing it
// could answer (it was speaking itself, or between utterances, when it stopped hearing the agent),
// its ears say so at the hold's place and the line goes on there instead of waiting for ever.
import { afterEach, describe, expect, it } from 'vitest';
import { controlEffects } from '../caller/config.js';
import { createStandInSounds } from '../caller/sound-bank.js';
import { CHUNK_SAMPLES, RELAY_SAMPLE_RATE } from './audio-timeline.js';
import type { AudioTimeline } from './audio-timeline.js';
import type { BotConnection } from './bot-connection.js';
import type { HeardReport } from './bot-events.js';
import { Duplex } from './duplex.js';
import type { Chunk } from './step-filter.js';

const sounds = await createStandInSounds({ sampleRate: RELAY_SAMPLE_RATE, names: [] });
const none = { agent: false, user: false };

function tone(tag: number): Chunk {
  const pcm = new Uint8Array(CHUNK_SAMPLES * 2);
  const view = new DataView(pcm.buffer);
  for (let i = 0; i < CHUNK_SAMPLES; i++)
    view.setInt16(i * 2, Math.round(3000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), true);
  return { pcm, tag };
}

const made: Duplex[] = [];
afterEach(() => {
  for (const duplex of made.splice(0)) duplex.dispose();
});

/** The user bot's state as the relay sees it, and what the duplex did. */
interface Bench {
  duplex: Duplex;
  pokes: number;
  logged: string[];
  awaitingFinal: boolean;
  silent: boolean;
}

/** A duplex whose caller cuts into the agent's first turn (the first seed that does). */
function cuttingIn(): { bench: Bench; holdAt: number } {
  for (let seed = 1; seed < 200; seed++) {
    const effects = controlEffects('matt_delaney');
    effects.enable_interruptions = true;
    effects.persona_config = { verbosity: 'minimal', interrupt_tendency: 'interrupts' };
    const timeline = {
      poke: () => void bench.pokes++,
      cut: () => undefined,
    } as unknown as AudioTimeline;
    const bench: Bench = {
      duplex: undefined as unknown as Duplex,
      pokes: 0,
      logged: [],
      awaitingFinal: false,
      silent: true,
    };
    bench.duplex = new Duplex(
      { caller: { effects, seed, sounds, backchannels: new Map() } },
      {
        timeline: () => timeline,
        bot: () =>
          ({ request: () => new Promise<never>(() => undefined) }) as unknown as BotConnection,
        log: (line) => bench.logged.push(line),
        tailMs: 1600,
        awaitingFinal: () => bench.awaitingFinal,
        silent: () => bench.silent,
      },
    );
    made.push(bench.duplex);
    const filter = bench.duplex.filter();
    for (let n = 0; n < 600; n++) {
      filter.step(n * CHUNK_SAMPLES, undefined, tone(3));
      const holdAt = bench.duplex.line?.holdAt;
      if (holdAt !== undefined) return { bench, holdAt };
    }
  }
  throw new Error('no seed below 200 cuts in');
}

function report(
  bench: Bench,
  samples: number,
  more: Partial<HeardReport> = {},
  role: 'agent' | 'user' = 'user',
): void {
  const heard = bench.duplex.handlers([], () => 0)['heard-through'];
  heard?.(role, {
    kind: 'heard-through',
    samples,
    sampleRate: 16_000,
    speaking: false,
    waiting: false,
    ...more,
  });
}

describe('a cut-in the user bot cannot answer', () => {
  it('goes on at the hold once the bot reports it quiet there, with nothing under way', () => {
    const { bench, holdAt } = cuttingIn();
    const filter = bench.duplex.filter();
    // The agent's ears are not what holds the timeline here.
    report(bench, holdAt, { speaking: true }, 'agent');
    expect(filter.mayStep(holdAt, none)).toBe(false);
    // Not yet heard through the hold, or something still to come: the line waits.
    report(bench, holdAt - CHUNK_SAMPLES);
    report(bench, holdAt, { waiting: true });
    report(bench, holdAt, { speaking: true });
    bench.awaitingFinal = true;
    report(bench, holdAt);
    bench.awaitingFinal = false;
    bench.silent = false;
    report(bench, holdAt);
    expect(bench.duplex.line?.holding).toBe(true);
    expect(filter.mayStep(holdAt, none)).toBe(false);
    // Heard through the hold, quiet, no turn; then its own speech has all been relayed (no
    // report comes for that): nothing will come.
    bench.silent = true;
    const pokes = bench.pokes;
    bench.duplex.drained('user', bench.duplex.segment('user', 0), 1000);
    expect(bench.duplex.line?.holding).toBe(false);
    expect(filter.mayStep(holdAt, none)).toBe(true);
    expect(bench.pokes).toBeGreaterThan(pokes);
    expect(bench.logged.join('\n')).toContain(`nothing to answer at ${holdAt}`);
    // No interruption happened: none is reported.
    filter.step(holdAt, tone(5), tone(3));
    expect(bench.duplex.events().map((e) => e.kind)).not.toContain('interruption');
  });

  it('the report of a sample rate other than the relay’s is read in relay samples', () => {
    const { bench, holdAt } = cuttingIn();
    // 8 kHz ears: the hold's place is half as many of their samples.
    report(bench, holdAt / 2 - 1, { sampleRate: 8000 });
    expect(bench.duplex.line?.holding).toBe(true);
    report(bench, holdAt / 2, { sampleRate: 8000 });
    expect(bench.duplex.line?.holding).toBe(false);
  });
});
