/**
 * The PocketSphinx adapter when its recognizer misbehaves, with stand-in
 * recognizers (shell scripts speaking the real program's protocol): one that
 * floods output while many finals wait, one that reads slowly, one that
 * crashes, one that never loads, one that stamps its words late.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  alive,
  STAND_IN_READY as READY,
  writeStandInRecognizer,
} from '../../../test-support/stand-in-recognizer.js';
import { silencePcm16 } from '../../audio/pcm.js';
import { RecognizerProcess } from './pocketsphinx-process.js';
import { PocketsphinxSession } from './pocketsphinx-session.js';
import { createPocketsphinxSpeechToText } from './pocketsphinx-stt.js';
import type { PocketsphinxOptions } from './pocketsphinx-stt.js';
import type { SttSession } from '../../stt.js';

/** 16 ms of the stream, as the browser sends it. */
const FRAME = silencePcm16(256);
/** Timing on a loaded machine: processes start and exit late. */
const patient = { timeout: 15_000 };

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The session's own class, for what only it has (write's promise, the recognizer's pid). */
function own(session: SttSession): PocketsphinxSession {
  if (!(session instanceof PocketsphinxSession)) throw new Error('not a PocketSphinx session');
  return session;
}

describe('PocketSphinx adapter faults', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenaro-ps-faults-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  /** What the test opened (engines, sessions), closed after it: the last opened first. */
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const closable of opened.splice(0).reverse()) await closable.close();
    vi.restoreAllMocks();
  });

  /** A stand-in recognizer running `lines` (a shell script). */
  const recognizer = (name: string, lines: string[]): Promise<string> =>
    writeStandInRecognizer(join(dir, name), lines);

  /**
   * A session of the engine with the stand-in `binary` (the model options only have to name
   * readable files); the session and the engine are closed after the test.
   */
  async function open(binary: string, options: PocketsphinxOptions = {}): Promise<SttSession> {
    const stt = createPocketsphinxSpeechToText({
      binary,
      hmm: dir,
      lm: binary,
      dict: binary,
      poolSize: 0,
      ...options,
    });
    opened.push(stt);
    const session = await stt.openSession();
    opened.push(session);
    return session;
  }

  /**
   * Feed 16 ms frames in real time for `ms` (as a live stream does), collecting what `write`
   * throws.
   */
  async function stream(session: SttSession, ms: number, errors: unknown[]): Promise<void> {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      try {
        await own(session).write(FRAME);
      } catch (error) {
        errors.push(error);
      }
      await pause(16);
    }
  }

  it("reads the recognizer's activity a bounded number of times, not once per line per waiting final", async () => {
    const lines = 1000;
    const binary = await recognizer('flood.sh', [
      READY,
      'head -c 3200 > /dev/null',
      `i=0; while [ $i -lt ${lines} ]; do echo "INFO: ngram_search.c(874): bestpath" >&2; echo "noise"; i=$((i + 1)); done`,
      'cat > /dev/null',
    ]);
    const session = await open(binary, { finalTimeoutMs: 400 });
    const reads = vi.spyOn(RecognizerProcess.prototype, 'activity');
    // 100 finals the recognizer never reaches, waiting while it prints 2000 lines.
    const finals = [];
    for (let i = 0; i < 100; i++) {
      session.startUtterance(16_000 + i * 1600);
      finals.push(session.endUtterance(16_000 + i * 1600 + 800));
    }
    await own(session).write(silencePcm16(1600));
    const transcripts = await Promise.all(finals);
    expect(transcripts.map((t) => t.text)).toEqual(finals.map(() => ''));
    // Once per start of the timer and once per expiry (a handful; a loaded machine that stretches
    // the flood over seconds adds one per timeout), where re-arming every final on every line
    // read it 200,000 times.
    expect(reads.mock.calls.length).toBeLessThan(200);
  });

  /**
   * A final asked for from a stand-in that reads its audio, runs `work` (printing nothing), then
   * waits for input: how long the final took, and whether the work was done by then.
   */
  async function finalAfter(name: string, work: string[]) {
    const done = join(dir, `${name}-done`);
    const binary = await recognizer(`${name}.sh`, [
      READY,
      'head -c 3200 > /dev/null',
      ...work,
      `touch ${done}`,
      'cat > /dev/null',
    ]);
    const session = await open(binary, { finalTimeoutMs: 300 });
    session.startUtterance(16_000);
    const final = session.endUtterance(32_000);
    await own(session).write(silencePcm16(1600));
    const started = performance.now();
    await expect(final).resolves.toMatchObject({ text: '' });
    const waited = performance.now() - started;
    const workDone = await readFile(done, 'utf8').then(
      () => true,
      () => false,
    );
    return { waited, workDone };
  }

  it('keeps a final waiting while the recognizer decodes silently, and gives it once it stops', async () => {
    // Busy for a second or more (CPU, no output), then idle.
    const { waited, workDone } = await finalAfter('busy', [
      'i=0; while [ $i -lt 1500000 ]; do i=$((i + 1)); done',
    ]);
    expect(workDone).toBe(true);
    expect(waited).toBeGreaterThan(300);
  });

  it('keeps a final waiting while the recognizer waits for a core, and gives it once it is done', async () => {
    // A busy process at normal priority pinned to this one's core for 1.5 s, and this one in
    // the idle class behind it until then: it wants the core all that time and hardly gets it.
    const { workDone } = await finalAfter('starved', [
      'cpu=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*\\([0-9]*\\).*/\\1/p" /proc/$$/status)',
      'taskset -cp "$cpu" $$ > /dev/null',
      'timeout 1.5 taskset -c "$cpu" sh -c "while :; do :; done" &',
      '(sleep 1.5; chrt -o -p 0 $$) &',
      'chrt -i -p 0 $$',
      'i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done',
    ]);
    expect(workDone).toBe(true);
  });

  it('holds back a writer while the recognizer does not read: what waits for it stays bounded', async () => {
    const go = join(dir, 'go');
    const binary = await recognizer('slow.sh', [
      READY,
      `while [ ! -f ${go} ]; do sleep 0.05; done`,
      'cat > /dev/null',
    ]);
    const session = own(await open(binary));
    const flood = 8 * 1024 * 1024;
    let accepted = 0;
    const writer = (async () => {
      while (accepted < flood) {
        await session.write(FRAME);
        accepted += FRAME.length;
      }
    })();
    // Let it write until it is held back (pipes and `cat` hold a few hundred KB).
    let last = -1;
    while (accepted !== last) {
      last = accepted;
      await pause(300);
    }
    expect(accepted).toBeLessThan(1024 * 1024);
    await writeFile(go, '');
    await writer; // and once the recognizer reads, it all goes through
    expect(accepted).toBe(flood);
  });

  it('replaces a recognizer that dies, a bounded number of times, reporting the give-up once', async () => {
    const starts = join(dir, 'crash-starts');
    const binary = await recognizer('crash.sh', [
      `echo $$ >> ${starts}`,
      READY,
      'head -c 3200 > /dev/null',
      'echo "ERROR: acmod.c(83): model broken" >&2',
      'exit 1',
    ]);
    const session = await open(binary, { maxRestartsPerMinute: 2 });
    const errors: unknown[] = [];
    session.startUtterance(0);
    const final = session.endUtterance(1600).catch((error: unknown) => errors.push(error));
    await expect
      .poll(async () => {
        await stream(session, 100, errors);
        return errors.some((e) => /not restarted again/.test(String(e)));
      }, patient)
      .toBe(true);
    const count = errors.length;
    await stream(session, 500, errors); // gave up: heard no more, said so once
    expect(errors.length).toBe(count);
    expect(errors.length).toBeLessThanOrEqual(3); // one per death at most
    expect(String(errors.at(-1))).toMatch(
      /PocketSphinx failed: it exited \(code 1\) ERROR: acmod.c\(83\): model broken; not restarted again \(2 restarts within 60 s\)/,
    );
    const pids = (await readFile(starts, 'utf8')).split('\n').filter(Boolean);
    expect(pids).toHaveLength(3); // the first and two replacements
    await final;
    session.startUtterance();
    await expect(session.endUtterance()).resolves.toMatchObject({ text: '' });
  });

  it('kills a recognizer that never loads and reports it within the start timeout', async () => {
    const pidFile = join(dir, 'stuck-pid');
    const binary = await recognizer('stuck.sh', [`echo $$ > ${pidFile}`, 'exec sleep 60']);
    const started = performance.now();
    const session = await open(binary, { startTimeoutMs: 500, maxRestartsPerMinute: 0 });
    const errors: unknown[] = [];
    session.startUtterance(0);
    const final = session.endUtterance(1600);
    await expect
      .poll(async () => {
        await stream(session, 50, errors);
        return errors.length;
      }, patient)
      .toBe(1);
    expect(performance.now() - started).toBeLessThan(10_000); // 500 ms and a loaded machine
    expect(String(errors[0])).toMatch(/did not load its models within 500 ms; not restarted/);
    await expect(final).resolves.toMatchObject({ text: '' });
    const pid = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), patient).toBe(false);
  });

  it('places a segment stamped later than the audio fed onto the utterance waiting for it', async () => {
    // 15 s fed: 10.4 s of silence, speech to 14 s, then the recognizer prints the utterance
    // stamped 14.6 s late (as PocketSphinx has after a long leading silence).
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    const stamps = words.map((word, i) => `${word} ${25.1 + i * 0.5} ${25.5 + i * 0.5} 1.0`);
    const binary = await recognizer('late.sh', [
      READY,
      'head -c 480000 > /dev/null',
      `printf '%s\\n' '${words.join(' ')}' '<s> 25.0 25.1 1.0' ${stamps.map((s) => `'${s}'`).join(' ')} '</s> 28.1 28.6 1.0'`,
      'cat > /dev/null',
    ]);
    const session = await open(binary, { finalTimeoutMs: 5000 });
    await own(session).write(silencePcm16(166_400));
    session.startUtterance(166_400);
    await own(session).write(silencePcm16(57_600));
    const final = session.endUtterance(224_000);
    await own(session).write(silencePcm16(16_000));
    await expect(final).resolves.toMatchObject({ text: words.join(' ') });
  });
});
