import { describe, expect, it } from 'vitest';
import {
  AUDIO_PER_TURN,
  AUDIO_TURN_MS,
  ConnectionReader,
  MAX_AUDIO_PER_TURN,
  MAX_WAITING,
  MAX_WAITING_BYTES,
} from './connection-reader.js';
import type { TakenKind } from './connection-reader.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A reader whose messages are their kind, recording what it took and each pause. Its clock moves
 * only as messages are taken: `costMs` each.
 */
function reader(costMs = 0) {
  const taken: string[] = [];
  const pauses: boolean[] = [];
  let clock = 0;
  const r = new ConnectionReader(
    (paused) => pauses.push(paused),
    () => clock,
  );
  r.take = (data) => {
    const kind = String(data) as TakenKind;
    taken.push(kind);
    clock += costMs;
    return kind;
  };
  const push = (kind: TakenKind, count = 1) => {
    for (let i = 0; i < count; i++) r.push(Buffer.from(kind), true);
  };
  return { r, taken, pauses, push };
}

describe('ConnectionReader', () => {
  it('takes cheap audio in large batches, so a request behind 30 s of audio is read within a few turns', async () => {
    const { taken, push } = reader(0.001);
    push('audio', 1875); // 30 s of 16 ms frames
    push('other');
    expect(taken).toHaveLength(MAX_AUDIO_PER_TURN);
    let turns = 0;
    while (taken.length < 1876) {
      await turn();
      turns++;
    }
    expect(turns).toBe(Math.ceil(1876 / MAX_AUDIO_PER_TURN) - 1);
  });

  it('ends a turn of audio once it has taken its time, never before its first batch', async () => {
    const slow = reader(AUDIO_TURN_MS / 8);
    slow.push('audio', 100);
    expect(slow.taken).toHaveLength(AUDIO_PER_TURN); // 4 ms, but the first batch is always taken
    const costly = reader(AUDIO_TURN_MS / 64);
    costly.push('audio', 400);
    expect(costly.taken).toHaveLength(64);
    await turn();
    expect(costly.taken).toHaveLength(128);
  });

  it('gives the event loop a turn after every other message, in arrival order', async () => {
    const { taken, push } = reader();
    push('other');
    push('other');
    push('audio', 3);
    push('other');
    push('audio');
    expect(taken).toEqual(['other']);
    await turn();
    expect(taken).toEqual(['other', 'other']);
    await turn();
    expect(taken).toEqual(['other', 'other', 'audio', 'audio', 'audio', 'other']);
    await turn();
    expect(taken).toHaveLength(7);
  });

  it('stops reading the socket past its bound and reads again at a quarter of it', async () => {
    const { r, pauses, push } = reader();
    push('other', MAX_WAITING + 2);
    expect(pauses).toEqual([true]);
    while (r.waiting > MAX_WAITING / 4) await turn();
    expect(pauses).toEqual([true, false]);
  });

  it('stops reading the socket past its bound in bytes, long before its bound in messages', async () => {
    const pauses: boolean[] = [];
    const r = new ConnectionReader((paused) => pauses.push(paused));
    r.take = () => 'other';
    const large = Buffer.alloc(MAX_WAITING_BYTES / 4 + 1); // just over 1 MiB
    for (let i = 0; i < 6; i++) r.push(large, true); // the first is taken at once
    expect(r.waiting).toBe(5);
    expect(pauses).toEqual([true]);
    while (r.waitingBytes > MAX_WAITING_BYTES / 4) await turn();
    expect(pauses).toEqual([true, false]);
    expect(r.waiting).toBe(0);
  });

  it('hands the session nothing while it has paused its input, then what waited, in order', async () => {
    const { r, taken, push } = reader();
    r.setPaused('session', true);
    push('audio', 2);
    push('other');
    await turn();
    expect(taken).toEqual([]);
    r.setPaused('session', false);
    await turn();
    expect(taken).toEqual(['audio', 'audio', 'other']);
  });

  it('reads the socket only while no reason holds it', () => {
    const { r, pauses } = reader();
    r.setPaused('session', true);
    r.setPaused('waiting', true);
    r.setPaused('session', false);
    expect(pauses).toEqual([true]);
    r.setPaused('waiting', false);
    expect(pauses).toEqual([true, false]);
  });
});
