// The lockstep's held turns (`holdTurns`, the real-time clock's relay): each reply to a turn
// keeps the turn's place until it plays, although the bot's ears report on once the reply has
// started; a turn given up without a reply holds nothing; two turns keep two places.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_SAMPLES } from './audio-timeline.js';
import { Lockstep } from './lockstep.js';

const WINDOW = 20 * CHUNK_SAMPLES;
const none = { agent: false, user: false };
const queuedAgent = { agent: true, user: false };

const made: Lockstep[] = [];
afterEach(() => {
  for (const step of made.splice(0)) step.dispose();
});

function lockstep(holdTurns: boolean, awaitingFinal: () => boolean = () => false) {
  const timeline = { poke: () => undefined, cut: () => undefined };
  const step = new Lockstep({
    timeline: () => timeline,
    // Playback marks are not looked at here: the bot never answers them.
    bot: () => ({ request: () => new Promise<never>(() => undefined) }),
    log: () => undefined,
    awaitingFinal,
    holdTurns,
  });
  made.push(step);
  // Both bots have heard 10,000 samples; the agent takes a turn held at 20,000.
  for (const role of ['agent', 'user'] as const)
    step.heard(role, { samples: 10_000, sampleRate: 16_000, speaking: false, waiting: false });
  step.heard('agent', {
    samples: 10_000,
    sampleRate: 16_000,
    speaking: false,
    waiting: true,
    turnAt: 20_000,
  });
  return step;
}

/** The bots' ears move on to `samples` (the agent's reply has started, or not). */
function moveOn(step: Lockstep, samples: number) {
  for (const role of ['agent', 'user'] as const)
    step.heard(role, { samples, sampleRate: 16_000, speaking: false, waiting: false });
}

describe('Lockstep with held turns', () => {
  it('goes on to the held place and a window past it, where the reply finds it', () => {
    const step = lockstep(true);
    expect(step.busy(20_000 + WINDOW - 1)).toBe(true);
    expect(step.busy(20_000 + WINDOW)).toBe(false);
    // The reply started; the ears report on; without the reply queued, the place holds.
    step.replyStarted('agent');
    moveOn(step, 30_000);
    expect(step.mayStep(20_000 + WINDOW - 1, none)).toBe(true);
    expect(step.mayStep(20_000 + WINDOW, none)).toBe(false);
    expect(step.mayStep(20_000 + WINDOW, queuedAgent)).toBe(true);
    // Once the reply plays, the ears' reports count again.
    step.playing('agent', 1, 20_000 + WINDOW);
    expect(step.mayStep(30_000 + WINDOW - 1, none)).toBe(true);
    expect(step.busy(20_000)).toBe(false);
  });

  it('lets go of a turn that ended without a reply', () => {
    const step = lockstep(true);
    moveOn(step, 30_000);
    expect(step.mayStep(30_000 + WINDOW - 1, none)).toBe(true);
    expect(step.busy(20_000)).toBe(false);
  });

  it('without held turns (full speed), the reports alone count', () => {
    const step = lockstep(false);
    step.replyStarted('agent');
    moveOn(step, 30_000);
    expect(step.mayStep(30_000 + WINDOW - 1, none)).toBe(true);
    expect(step.busy(20_000)).toBe(false);
  });

  it('keeps each reply at its own turn when a second turn waits behind the first', () => {
    const step = lockstep(true);
    const report = (samples: number, turnAt?: number) =>
      step.heard('agent', {
        samples,
        sampleRate: 16_000,
        speaking: false,
        waiting: turnAt !== undefined,
        ...(turnAt !== undefined ? { turnAt } : {}),
      });
    // The first reply starts; the report moves on to the second turn, held at 40,000.
    const first = step.replyStarted('agent');
    report(30_000, 40_000);
    expect(step.holds('agent', 20_000 + WINDOW - 1)).toBe(true);
    expect(step.holds('agent', 20_000 + WINDOW)).toBe(false);
    expect(step.mayStep(20_000 + WINDOW, none)).toBe(false);
    // The first plays; the second reply starts and keeps the second place.
    step.playing('agent', first, 20_000 + WINDOW);
    const second = step.replyStarted('agent');
    moveOn(step, 50_000);
    expect(step.holds('agent', 40_000 + WINDOW - 1)).toBe(true);
    expect(step.busy(40_000 + WINDOW - 1)).toBe(true);
    expect(step.mayStep(40_000 + WINDOW, none)).toBe(false);
    step.playing('agent', second, 40_000 + WINDOW);
    expect(step.holds('agent', 40_000)).toBe(false);
    expect(step.mayStep(50_000, none)).toBe(true);
  });

  it('a reply that ended without playing holds nothing', () => {
    const step = lockstep(true);
    const reply = step.replyStarted('agent');
    moveOn(step, 30_000);
    expect(step.mayStep(20_000 + WINDOW, none)).toBe(false);
    step.unplayed('agent', reply);
    expect(step.mayStep(30_000 + WINDOW - 1, none)).toBe(true);
  });

  it('an interrupted bot holds nothing for the replies that were cut', () => {
    const step = lockstep(true);
    step.replyStarted('agent');
    moveOn(step, 30_000);
    step.interrupted('agent', 0);
    expect(step.holds('agent', 20_000)).toBe(false);
    expect(step.mayStep(30_000 + WINDOW - 1, none)).toBe(true);
  });

  it('goes on to the latest utterance hold (settle_at) whether its final came early or late', () => {
    for (const holdTurns of [false, true]) {
      const step = lockstep(holdTurns);
      // The user's utterance ended at 12,000 (held to 37,600); its final came at once, no turn.
      step.heard('user', {
        samples: 12_000,
        sampleRate: 16_000,
        speaking: false,
        waiting: false,
        settleAt: 37_600,
      });
      expect(step.busy(37_600 + WINDOW - 1)).toBe(true);
      // Past it, nothing keeps the timeline going (the agent's turn aside).
      expect(step.busy(100_000)).toBe(false);
    }
  });
});

describe("Lockstep when a bot's ears stop reporting", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('waits for a final however long it takes, and goes on without ears that just stopped', () => {
    vi.useFakeTimers();
    let waiting = true;
    const step = lockstep(false, () => waiting);
    moveOn(step, 10_000);
    const past = 10_000 + WINDOW;
    expect(step.mayStep(past, none)).toBe(false);
    // A minute without a report while the final is due: still held (the bot's recognizer is
    // slow, not gone), so nothing floods it and no wall time decides.
    vi.advanceTimersByTime(60_000);
    expect(step.mayStep(past, none)).toBe(false);
    // Nothing due: past the ears' timeout, the relay goes on without them.
    waiting = false;
    expect(step.mayStep(past, none)).toBe(true);
  });
});
