/**
 * The offline default speech recognizer: CMU PocketSphinx from Debian
 * (`pocketsphinx` + `pocketsphinx-en-us`), one long-running
 * `pocketsphinx_continuous` process per session fed the whole 16 kHz stream,
 * silence included. Recognition quality depends on that: the recognizer's
 * cepstral normalisation adapts to the speaker over the session, so one
 * process per session beats a process per utterance.
 *
 * The process reads a real pipe (Node's child stdin is a socket, which
 * `-infile /dev/stdin` cannot open; bash's process substitution makes one), segments speech with its own VAD and
 * prints each segment's words with stream times. Words are assigned to the
 * caller's utterances by those times; an ended utterance is final once the
 * recognizer has printed a segment reaching past its end (about 0.3-0.6 s of
 * audio after the speech stopped), or after `finalTimeoutMs` of waiting when
 * it prints nothing and uses no CPU (the caller's VAD heard speech the
 * recognizer did not, or the stream stopped right after the speech).
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { SpeechEngineError, SpeechEngineUnavailableError } from './engine-errors.js';
import { INPUT_SAMPLE_RATE, msToSamples } from './pcm.js';
import { PocketsphinxOutputParser } from './pocketsphinx-output.js';
import type { RecognizedSegment, RecognizedWord } from './pocketsphinx-output.js';
import type { SpeechToText, SttSession } from './stt.js';
import { UtteranceSession } from './utterance-session.js';
import type { TrackedUtterance } from './utterance-session.js';

const DEBIAN_HINT =
  'install the Debian packages pocketsphinx and pocketsphinx-en-us (apt-get install pocketsphinx pocketsphinx-en-us)';

/** Where Debian's `pocketsphinx-en-us` puts the US English model. */
export const DEBIAN_POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';

/** Options of the PocketSphinx recognizer. */
export interface PocketsphinxOptions {
  /** The recognizer program: a name looked up on PATH or a path (default `pocketsphinx_continuous`). */
  binary?: string;
  /** Acoustic model directory (default Debian's `…/en-us/en-us`). */
  hmm?: string;
  /** Language model (default Debian's `…/en-us/en-us.lm.bin`). */
  lm?: string;
  /** Pronunciation dictionary (default Debian's `…/en-us/cmudict-en-us.dict`). */
  dict?: string;
  /** Extra command-line options, e.g. `['-maxhmmpf', '3000']` (decoder speed/accuracy trade-offs). */
  extraArgs?: string[];
  /** How far outside an utterance's bounds a word may lie and still belong to it (default 300 ms). */
  boundaryMarginMs?: number;
  /**
   * How long an ended utterance waits for the recognizer when it prints
   * nothing at all, before its final is given as is (wall clock, restarted by
   * any output of the recognizer, and extended while the recognizer is using
   * CPU, i.e. still decoding on a busy machine; default 3000 ms).
   */
  finalTimeoutMs?: number;
}

interface ResolvedOptions {
  binary: string;
  hmm: string;
  lm: string;
  dict: string;
  extraArgs: string[];
  boundaryMarginMs: number;
  finalTimeoutMs: number;
}

async function findExecutable(name: string): Promise<string | undefined> {
  const candidates = name.includes('/')
    ? [name]
    : (process.env['PATH'] ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function checkInstalled(options: ResolvedOptions): Promise<string> {
  const binary = await findExecutable(options.binary);
  if (!binary) {
    throw new SpeechEngineUnavailableError(
      `PocketSphinx is not installed (no ${options.binary} on PATH): ${DEBIAN_HINT}`,
      { engine: 'pocketsphinx' },
    );
  }
  for (const file of [options.hmm, options.lm, options.dict]) {
    try {
      await access(file, constants.R_OK);
    } catch {
      throw new SpeechEngineUnavailableError(
        `PocketSphinx model file ${file} is missing: ${DEBIAN_HINT}`,
        { engine: 'pocketsphinx' },
      );
    }
  }
  return binary;
}

interface PendingFinal {
  utterance: TrackedUtterance;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The line `pocketsphinx_continuous` logs (with the path it was started by) when its models are loaded. */
const READY_LINE = /continuous\.c\(\d+\): \S*pocketsphinx_continuous COMPILED ON/;

class PocketsphinxSession extends UtteranceSession {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly parser = new PocketsphinxOutputParser();
  /** Utterances that may still receive words, with the words they got. */
  private readonly utterances = new Map<
    number,
    { utterance: TrackedUtterance; words: RecognizedWord[] }
  >();
  private readonly pending = new Map<number, PendingFinal>();
  /** Stream position (samples) the recognizer has printed results up to. */
  private processed = 0;
  private readonly stderrTail: string[] = [];
  private failure: Error | undefined;
  private readonly exited: Promise<void>;
  /** Set once the models are loaded and recognition runs (the program logs its build line). */
  private ready = false;

  constructor(
    binary: string,
    private readonly options: ResolvedOptions,
  ) {
    super(INPUT_SAMPLE_RATE);
    const args = [
      '-infile', '/dev/stdin',
      '-samprate', String(INPUT_SAMPLE_RATE),
      '-time', 'yes',
      // Noise of half a bit keeps digital silence from skewing the cepstral mean; seeded, so runs repeat.
      '-dither', 'yes',
      '-seed', '1',
      '-hmm', options.hmm,
      '-lm', options.lm,
      '-dict', options.dict,
      ...options.extraArgs,
    ]; // prettier-ignore
    // `cat` turns the stdin socket into a pipe the recognizer can open as a file; the
    // recognizer replaces the shell, so its exit is the child's exit.
    this.child = spawn(
      'bash',
      ['-c', 'exec "$0" "$@" < <(exec cat 2>/dev/null)', binary, ...args],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      },
    );
    this.child.stdin.on('error', (error) => this.fail(error));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.active();
      for (const segment of this.parser.push(line)) this.onSegment(segment);
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      if (!this.ready && READY_LINE.test(line)) this.ready = true;
      this.active();
      this.stderrTail.push(line);
      if (this.stderrTail.length > 20) this.stderrTail.shift();
    });
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => {
        this.fail(error);
        resolve();
      });
      this.child.on('close', (code, signal) => {
        for (const segment of this.parser.finish()) this.onSegment(segment);
        if (!this.closed) {
          const errors = this.stderrTail.filter((l) => /ERROR|FATAL/.test(l)).slice(-3);
          const how = signal ?? `code ${code}`;
          this.fail(new Error(`pocketsphinx exited (${how}) ${errors.join(' | ')}`.trim()));
        }
        // Closing: everything written has been recognised.
        this.processed = Number.POSITIVE_INFINITY;
        this.settle();
        resolve();
      });
    });
  }

  protected onAudio(pcm: Uint8Array): void {
    if (this.failure) throw this.failure;
    this.child.stdin.write(pcm);
  }

  protected override onStart(utterance: TrackedUtterance): void {
    this.utterances.set(utterance.utterance, { utterance, words: [] });
  }

  protected transcribe(utterance: TrackedUtterance): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const final: PendingFinal = { utterance, resolve, reject, timer: undefined };
      this.pending.set(utterance.utterance, final);
      this.settle();
      if (this.pending.has(utterance.utterance)) this.arm(final);
    });
  }

  /** The recognizer printed something: it is alive, so the finals' waits start over. */
  private active(): void {
    for (const final of this.pending.values()) this.arm(final);
  }

  /**
   * Give `final` as it is after `finalTimeoutMs` without a word from the
   * recognizer (counted once its models are loaded: loading prints nothing
   * for seconds on a busy machine).
   */
  private arm(final: PendingFinal): void {
    clearTimeout(final.timer);
    if (!this.ready) return;
    let cpu = this.cpuTicks();
    const expire = (): void => {
      // Still decoding (a busy machine delays its output): wait on while it works.
      const now = this.cpuTicks();
      if (now !== undefined && cpu !== undefined && now > cpu) {
        cpu = now;
        final.timer = setTimeout(expire, this.options.finalTimeoutMs);
        return;
      }
      this.pending.delete(final.utterance.utterance);
      final.resolve(this.finish(final.utterance));
    };
    final.timer = setTimeout(expire, this.options.finalTimeoutMs);
  }

  /** CPU time the recognizer has used, in clock ticks (Linux `/proc`; undefined elsewhere). */
  private cpuTicks(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined) return undefined;
    try {
      // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]);
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin.end();
    const killer = setTimeout(() => this.kill(), this.options.finalTimeoutMs);
    await this.exited;
    clearTimeout(killer);
    for (const final of this.pending.values()) {
      clearTimeout(final.timer);
      final.resolve(this.finish(final.utterance));
    }
    this.pending.clear();
  }

  private onSegment(segment: RecognizedSegment): void {
    const margin = msToSamples(this.options.boundaryMarginMs, this.sampleRate);
    const touched = new Set<number>();
    for (const word of segment.words) {
      const mid = ((word.start + word.end) / 2) * this.sampleRate;
      let best: { id: number; distance: number } | undefined;
      for (const [id, { utterance }] of this.utterances) {
        const end = utterance.endSample ?? Number.POSITIVE_INFINITY;
        const distance =
          mid < utterance.startSample ? utterance.startSample - mid : Math.max(0, mid - end);
        if (distance <= margin && (!best || distance < best.distance)) best = { id, distance };
      }
      if (!best) continue;
      this.utterances.get(best.id)!.words.push(word);
      touched.add(best.id);
    }
    this.processed = Math.max(this.processed, Math.round(segment.end * this.sampleRate));
    for (const id of touched) {
      const entry = this.utterances.get(id)!;
      if (!this.pending.has(id)) this.emitInterim(entry.utterance, this.text(entry.words));
    }
    this.settle();
  }

  /** Resolve the finals the recognizer has gone past. */
  private settle(): void {
    // A segment ends a little after the speech in it; a caller's end within 200 ms of it is covered.
    const slack = msToSamples(200, this.sampleRate);
    for (const [id, final] of this.pending) {
      if (this.processed + slack < (final.utterance.endSample ?? 0)) continue;
      clearTimeout(final.timer);
      this.pending.delete(id);
      final.resolve(this.finish(final.utterance));
    }
  }

  private finish(utterance: TrackedUtterance): string {
    const entry = this.utterances.get(utterance.utterance);
    this.utterances.delete(utterance.utterance);
    return entry ? this.text(entry.words) : '';
  }

  private text(words: RecognizedWord[]): string {
    return words.map((w) => w.word).join(' ');
  }

  private fail(cause: Error): void {
    if (this.failure) return;
    this.failure = new SpeechEngineError(`PocketSphinx failed: ${cause.message}`, {
      engine: 'pocketsphinx',
      cause,
    });
    for (const final of this.pending.values()) {
      clearTimeout(final.timer);
      final.reject(this.failure);
    }
    this.pending.clear();
    this.kill();
  }

  private kill(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      process.kill(-pid, 'SIGTERM'); // the recognizer and its cat (their own process group)
    } catch {
      // already gone
    }
  }
}

/** The PocketSphinx recognizer; `check()` says whether the Debian packages are installed. */
export function createPocketsphinxSpeechToText(options: PocketsphinxOptions = {}): SpeechToText {
  const resolved: ResolvedOptions = {
    binary: options.binary ?? 'pocketsphinx_continuous',
    hmm: options.hmm ?? `${DEBIAN_POCKETSPHINX_MODEL}/en-us`,
    lm: options.lm ?? `${DEBIAN_POCKETSPHINX_MODEL}/en-us.lm.bin`,
    dict: options.dict ?? `${DEBIAN_POCKETSPHINX_MODEL}/cmudict-en-us.dict`,
    extraArgs: options.extraArgs ?? [],
    boundaryMarginMs: options.boundaryMarginMs ?? 300,
    finalTimeoutMs: options.finalTimeoutMs ?? 3000,
  };
  let installed: Promise<string> | undefined;
  const check = (): Promise<string> => (installed ??= checkInstalled(resolved));
  return {
    name: 'pocketsphinx',
    sampleRate: INPUT_SAMPLE_RATE,
    check: async () => {
      await check();
    },
    openSession: async (): Promise<SttSession> => new PocketsphinxSession(await check(), resolved),
    close: () => Promise.resolve(),
  };
}
