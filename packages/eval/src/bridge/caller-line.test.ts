import { describe, expect, it } from 'vitest';
import { controlEffects } from '../caller/config.js';
import type { CallerEffects } from '../caller/config.js';
import { createStandInSounds } from '../caller/sound-bank.js';
import { CHUNK_SAMPLES, RELAY_SAMPLE_RATE, SILENCE_CHUNK } from './audio-timeline.js';
import { CallerLine, continuerFits } from './caller-line.js';
import type { CallerLineEvent } from './caller-line.js';
import type { Chunk } from './step-filter.js';

const sounds = await createStandInSounds({ sampleRate: RELAY_SAMPLE_RATE, names: [] });

/** A chunk of a 300 Hz tone (speech enough for the line). */
function tone(tag: number | undefined): Chunk {
  const pcm = new Uint8Array(CHUNK_SAMPLES * 2);
  const view = new DataView(pcm.buffer);
  for (let i = 0; i < CHUNK_SAMPLES; i++)
    view.setInt16(i * 2, Math.round(3000 * Math.sin((2 * Math.PI * 300 * i) / 16000)), true);
  return { pcm, tag };
}

/** Half a second of "mm-hmm". */
const mmHmm = tone(undefined).pcm;
const backchannel = new Uint8Array(mmHmm.length * 31);
for (let i = 0; i < 31; i++) backchannel.set(mmHmm, i * mmHmm.length);

function behaviour(interrupts: boolean): CallerEffects {
  const effects = controlEffects('matt_delaney');
  effects.backchannel_min_threshold = 2;
  effects.enable_interruptions = interrupts;
  effects.persona_config = {
    verbosity: 'minimal',
    interrupt_tendency: interrupts ? 'interrupts' : 'waits',
  };
  return effects;
}

type Sentences = readonly { text: string; chunks: number }[];

function line(effects: CallerEffects, seed: number, sentences?: Sentences): CallerLine {
  return new CallerLine({
    effects,
    seed,
    sounds,
    backchannels: new Map(['mm-hmm', 'okay', 'right'].map((t) => [t, backchannel])),
    tailChunks: 100,
    ...(sentences ? { agentSentences: (tag: number) => (tag === 7 ? sentences : []) } : {}),
  });
}

/** `seconds` of the agent speaking (segment 7) and the caller quiet, step by step. */
function agentSpeaks(l: CallerLine, seconds: number, from = 0) {
  const steps = Math.round((seconds * RELAY_SAMPLE_RATE) / CHUNK_SAMPLES);
  const heard: Uint8Array[] = [];
  for (let n = 0; n < steps; n++)
    heard.push(l.step(from + n * CHUNK_SAMPLES, undefined, tone(7)).toAgent);
  return heard;
}

const kinds = (events: readonly CallerLineEvent[]) => events.map((e) => e.kind);

describe('the caller line', () => {
  it('backchannels while the agent speaks past the threshold, in its voice, on the telephone line', () => {
    const l = line(behaviour(false), 11);
    const heard = agentSpeaks(l, 30);
    const events = l.finish();
    const said = events.filter((e) => e.kind === 'backchannel');
    expect(said.length).toBeGreaterThan(0);
    for (const e of said) {
      expect(e.start).toBeGreaterThanOrEqual(2);
      expect(e.end - e.start).toBeCloseTo((31 * CHUNK_SAMPLES) / RELAY_SAMPLE_RATE, 2);
      // What the agent hears there is the backchannel through the channel, not silence.
      const at = Math.round((e.start * RELAY_SAMPLE_RATE) / CHUNK_SAMPLES) + 5;
      expect(heard[at]!.some((b) => b !== 0)).toBe(true);
    }
    expect(kinds(events)).toContain('telephony');
    // Not a word before the threshold.
    expect(heard.slice(0, 100).every((c) => c.every((b) => b === 0 || b === 255))).toBe(true);
  });

  it('the same seed gives the same bytes and events, another seed other moments', () => {
    const run = (seed: number) => {
      const l = line(behaviour(false), seed);
      const heard = Buffer.concat(agentSpeaks(l, 30));
      return { heard, events: JSON.stringify(l.finish()) };
    };
    const a = run(11);
    const b = run(11);
    expect(a.heard.equals(b.heard)).toBe(true);
    expect(a.events).toBe(b.events);
    expect(run(12).events).not.toBe(a.events);
  });

  it('an interrupting caller stops hearing the agent and holds the timeline until its answer', () => {
    // The first seed whose plan cuts into the agent's first turn.
    for (let seed = 1; seed < 200; seed++) {
      const l = line(behaviour(true), seed);
      let cutAt: number | undefined;
      for (let n = 0; n < 600 && cutAt === undefined; n++) {
        const out = l.step(n * CHUNK_SAMPLES, undefined, tone(3));
        if (l.holding) cutAt = n * CHUNK_SAMPLES;
        else expect(out.toUser).not.toBe(SILENCE_CHUNK);
      }
      if (cutAt === undefined) continue;
      const holdAt = cutAt + 100 * CHUNK_SAMPLES;
      // The user bot hears silence from the cut on; the agent's speech is still recorded.
      const after = l.step(cutAt + CHUNK_SAMPLES, undefined, tone(3));
      expect(after.toUser).toBe(SILENCE_CHUNK);
      expect(after.agentRecord).not.toBe(SILENCE_CHUNK);
      expect(l.mayStep(holdAt - CHUNK_SAMPLES, { agent: true, user: false })).toBe(true);
      expect(l.mayStep(holdAt, { agent: true, user: false })).toBe(false);
      expect(l.mayStep(holdAt, { agent: true, user: true })).toBe(true);
      expect(l.mayStart('user', holdAt - CHUNK_SAMPLES)).toBe(false);
      expect(l.mayStart('user', holdAt)).toBe(true);
      // The answer starts while the agent still speaks: an interruption over the answer.
      for (let n = 0; n < 50; n++) l.step(holdAt + n * CHUNK_SAMPLES, tone(4), tone(3));
      l.step(holdAt + 50 * CHUNK_SAMPLES, undefined, undefined);
      const cut = l.finish().find((e) => e.kind === 'interruption');
      expect(cut).toMatchObject({
        start: holdAt / RELAY_SAMPLE_RATE,
        end: (holdAt + 50 * CHUNK_SAMPLES) / RELAY_SAMPLE_RATE,
      });
      expect(l.holding).toBe(false);
      return;
    }
    throw new Error('no seed below 200 interrupts');
  });

  it('a caller who waits never cuts in', () => {
    for (let seed = 1; seed < 20; seed++) {
      const l = line(behaviour(false), seed);
      agentSpeaks(l, 20);
      expect(l.holding).toBe(false);
      expect(kinds(l.finish())).not.toContain('interruption');
    }
  });
});

describe("a listener's backchannels (use_llm_backchannel)", () => {
  const statement = 'I found your reservation for the flight to Boston.';
  it('fit after two substantive sentences of a turn with no question, four after the last one', () => {
    const cases: [string[], number, boolean][] = [
      [[statement], 1, false],
      [[statement, statement], 2, true],
      [['Thank you.', statement], 2, false],
      [['Let me check.', statement, statement], 3, true],
      [[statement, 'Could you spell your user id for me, please?'], 2, false],
      [['Which flight would you like?', statement, statement], 3, false],
      // After a backchannel (`since` below all of them): four substantive ones since it.
      [[statement, statement, statement, statement, statement], 3, false],
      [[statement, statement, statement, statement, statement, statement], 4, true],
      [[statement, statement, 'Okay.', statement, statement, statement], 4, false],
    ];
    for (const [said, since, fits] of cases)
      expect([said, since, continuerFits(said, since)]).toEqual([said, since, fits]);
  });

  /** A turn of segment 7: sentences ending at 50, 150, 250, 350, 450 chunks (16 ms each). */
  const turn = (last: string): Sentences =>
    [statement, statement, statement, statement, last].map((text, i) => ({
      text,
      chunks: 50 + i * 100,
    }));
  const listening = () => {
    const effects = behaviour(false);
    effects.use_llm_backchannel = true;
    return effects;
  };
  const backchannels = (l: CallerLine) =>
    l
      .finish()
      .filter((e) => e.kind === 'backchannel')
      .map((e) => e.start);

  it('start where an agent sentence starts, past the threshold, never after a question', () => {
    let said = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const l = line(listening(), seed, turn(statement));
      agentSpeaks(l, (500 * CHUNK_SAMPLES) / RELAY_SAMPLE_RATE);
      const starts = backchannels(l).map((s) =>
        Math.round((s * RELAY_SAMPLE_RATE) / CHUNK_SAMPLES),
      );
      // Threshold 2 s (125 chunks): the starts of sentences 3 and 5 (4 is too soon after 3).
      for (const at of starts) expect([150, 250, 350, 450]).toContain(at);
      if (starts.includes(150)) expect(starts).not.toContain(250);
      said += starts.length;
    }
    expect(said).toBeGreaterThan(10);
    // The same turns with a question second: no backchannel in any of them.
    for (let seed = 1; seed <= 30; seed++) {
      const sentences = turn(statement).map((s, i) => (i === 1 ? { ...s, text: 'And you?' } : s));
      const l = line(listening(), seed, sentences);
      agentSpeaks(l, (500 * CHUNK_SAMPLES) / RELAY_SAMPLE_RATE);
      expect(backchannels(l)).toEqual([]);
    }
  });

  it("are at seeded moments of audio time without it (tau2's Poisson policy)", () => {
    const starts = new Set<number>();
    for (let seed = 1; seed <= 10; seed++) {
      const l = line(behaviour(false), seed, turn(statement));
      agentSpeaks(l, (500 * CHUNK_SAMPLES) / RELAY_SAMPLE_RATE);
      for (const s of backchannels(l))
        starts.add(Math.round((s * RELAY_SAMPLE_RATE) / CHUNK_SAMPLES));
    }
    expect([...starts].some((at) => ![150, 250, 350, 450].includes(at))).toBe(true);
  });
});
