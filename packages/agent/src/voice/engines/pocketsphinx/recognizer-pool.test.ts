import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  STAND_IN_READY,
  writeStandInRecognizer,
} from '../../../test-support/stand-in-recognizer.js';
import { silencePcm16 } from '../../audio/pcm.js';
import { RecognizerProcess } from './pocketsphinx-process.js';
import { createPocketsphinxSpeechToText, mergeRecognizerArgs } from './pocketsphinx-stt.js';
import { RecognizerPool } from './recognizer-pool.js';

describe('recognizer pool', () => {
  let dir: string;
  let binary: string;
  let pidFile: string;
  let readyFile: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenaro-pool-test-'));
    pidFile = join(dir, 'pids');
    readyFile = join(dir, 'ready');
    // A stand-in recognizer: notes its pid, "loads" for 200 ms, logs the ready line, reads its input.
    binary = await writeStandInRecognizer(join(dir, 'recognizer.sh'), [
      `echo $$ >> ${pidFile}`,
      'sleep 0.2',
      STAND_IN_READY,
      `echo $$ >> ${readyFile}`,
      'cat > /dev/null',
    ]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function pids(file: string): Promise<number[]> {
    const text = await readFile(file, 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map(Number);
  }
  const started = (): Promise<number[]> => pids(pidFile);
  const loaded = (): Promise<number[]> => pids(readyFile);
  /** Timing on a loaded machine: processes start and exit late. */
  const patient = { timeout: 10_000 };

  async function reset(): Promise<void> {
    await writeFile(pidFile, '');
    await writeFile(readyFile, '');
  }

  const start = (): RecognizerProcess => new RecognizerProcess(binary, []);

  it('starts nothing before the first take, then keeps `size` loaded processes, one load at a time', async () => {
    await reset();
    const pool = new RecognizerPool({ size: 2, idleMs: 60_000, start });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await started()).toEqual([]);
    expect(pool.waiting).toBe(0);

    const first = pool.take(); // none waiting: a new process, and the pool starts filling
    expect(pool.waiting).toBe(1);
    await expect.poll(started, patient).toHaveLength(2); // the first take's own and one spare loading
    await expect.poll(started, patient).toHaveLength(3); // the second after it loaded
    await expect.poll(() => pool.waiting).toBe(2);
    const spares = (await started()).filter((pid) => pid !== first.pid);
    await expect.poll(loaded, patient).toHaveLength(3); // both loaded
    await new Promise((resolve) => setTimeout(resolve, 100)); // and their ready lines read
    expect(await started()).toHaveLength(3);

    // Each take gets its own loaded process, never one another take has.
    const second = pool.take();
    const third = pool.take();
    expect(second.ready && third.ready).toBe(true);
    const owned = [first.pid, second.pid, third.pid];
    expect(new Set(owned).size).toBe(3);
    expect([second.pid, third.pid].sort()).toEqual([...spares].sort());
    // Refilled one at a time in the background.
    expect(pool.waiting).toBe(1);
    await expect.poll(() => pool.waiting, patient).toBe(2);

    // Closing kills the waiting processes, not the ones taken. (A process is counted as soon as
    // it is spawned; its script notes its pid when the shell gets to run it.)
    const spawnedSince = async () => (await started()).filter((pid) => !owned.includes(pid));
    await expect.poll(spawnedSince, patient).toHaveLength(2);
    const waiting = await spawnedSince();
    await pool.close();
    expect(pool.waiting).toBe(0);
    for (const pid of waiting) expect(alive(pid)).toBe(false);
    for (const process of [first, second, third]) {
      expect(process.running).toBe(true);
      process.end();
      await process.exited;
      expect(alive(process.pid!)).toBe(false);
    }
    // A take after close starts its own and refills nothing.
    const late = pool.take();
    expect(pool.waiting).toBe(0);
    late.end();
    await late.exited;
  });

  /** A pool of one spare after its first take: the pool, the taken process, the spare's pid. */
  async function poolOfOne(idleMs: number) {
    await reset();
    const pool = new RecognizerPool({ size: 1, idleMs, start });
    const taken = pool.take();
    await expect.poll(started, patient).toHaveLength(2);
    const spare = (await started()).find((pid) => pid !== taken.pid);
    return { pool, taken, spare };
  }

  it('kills its waiting processes after idleMs without a take', async () => {
    const { pool, taken, spare } = await poolOfOne(1500);
    expect(alive(spare!)).toBe(true);
    await expect.poll(() => pool.waiting, patient).toBe(0);
    await expect.poll(() => alive(spare!), patient).toBe(false);
    expect(taken.running).toBe(true);
    taken.kill();
    await taken.exited;
    await pool.close();
  });

  it('forgets a process that dies while waiting, without restarting it in a loop', async () => {
    const { pool, taken, spare } = await poolOfOne(60_000);
    process.kill(-spare!, 'SIGKILL');
    await expect.poll(() => pool.waiting, patient).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await started()).toHaveLength(2);
    taken.kill();
    await pool.close();
  });

  it('gives each PocketSphinx session its own recognizer and leaves none running once closed', async () => {
    await reset();
    const stt = createPocketsphinxSpeechToText({
      binary,
      hmm: dir,
      lm: binary,
      dict: binary,
      poolSize: 2,
    });
    await stt.check();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await started()).toEqual([]); // checking starts nothing
    const sessions = [await stt.openSession(), await stt.openSession()];
    await new Promise((resolve) => setTimeout(resolve, 500));
    sessions.push(await stt.openSession(), await stt.openSession());
    for (const session of sessions) await session.write(silencePcm16(1600));
    await Promise.all(sessions.map((session) => session.close()));
    await stt.close();
    const pids = await started();
    expect(pids.length).toBeGreaterThanOrEqual(sessions.length);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });
});

describe('recognizer options', () => {
  it('replaces a default option named again, keeps the others', () => {
    const defaults = ['-vad_threshold', '3.0', '-maxwpf', '10'];
    expect(mergeRecognizerArgs(defaults, [])).toEqual(defaults);
    expect(mergeRecognizerArgs(defaults, ['-vad_threshold', '2.0', '-ds', '2'])).toEqual([
      '-maxwpf',
      '10',
      '-vad_threshold',
      '2.0',
      '-ds',
      '2',
    ]);
  });
});
