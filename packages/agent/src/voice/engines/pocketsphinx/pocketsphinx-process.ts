/**
 * One `pocketsphinx_continuous` process, from its start (it loads its models,
 * then waits for audio) to its exit. It reads a real pipe: Node's child stdin
 * is a socket, which `-infile /dev/stdin` cannot open, so bash's process
 * substitution puts a `cat` in between; the recognizer replaces the shell, so
 * its exit is the child's exit. Recognizer and `cat` run in their own process
 * group, killed together. The process is started by the engines' launcher and
 * its pipes are owned by their process thread (`process-host.ts`), never by the
 * thread running the event loop, whose other work would wait out each start.
 *
 * A process can wait unreferenced (it does not keep Node's event loop alive)
 * until a session takes it; it ends by itself when this process's end of its
 * stdin closes, so it never outlives the process that started it. One that has
 * not loaded its models within its start timeout is killed, so no start waits
 * forever.
 *
 * Audio written waits (on its way, then in the process thread's stream
 * buffer) while the recognizer lags; `write` says when 16 KiB or more of it is
 * not yet in the pipe (its promise resolves once all of it is), so a feeder
 * that waits keeps it bounded.
 */
import { readFileSync } from 'node:fs';
import { HostedProcess } from '../process-host.js';
import type { HostedProcessEvents } from '../process-host.js';

/** The line `pocketsphinx_continuous` logs (with the path it was started by) when its models are loaded. */
const READY_LINE = /continuous\.c\(\d+\): \S*pocketsphinx_continuous COMPILED ON/;

/** How a recognizer process ended. */
export interface RecognizerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What a recognizer is doing (see {@link RecognizerProcess.activity}). */
export interface RecognizerActivity {
  /** CPU time used so far (clock ticks). */
  cpu: number;
  /** It is running or waiting for a core (not waiting for input). */
  runnable: boolean;
}

/** What the owner of a {@link RecognizerProcess} hears from it. */
export interface RecognizerListener {
  /** A line of its standard output (the results). */
  stdout(line: string): void;
  /** A line of its log (standard error). */
  stderr(line: string): void;
  /** It could not be started, or writing to it failed. */
  error(error: Error): void;
}

const QUIET: RecognizerListener = { stdout: () => {}, stderr: () => {}, error: () => {} };

/** Options of a {@link RecognizerProcess}. */
export interface RecognizerProcessOptions {
  /** Kill it if it has not loaded its models (logged its ready line) after this long (ms). */
  startTimeoutMs?: number;
  /**
   * Its CPU priority as a `nice` value (0 as this process; higher yields the CPU sooner). A
   * recognizer decoding a backlog then never starves the server's event loop of a busy core.
   */
  nice?: number;
}

const DRAINED: Promise<void> = Promise.resolve();

/** Bytes written and not yet in the pipe at which `write` asks its caller to wait. */
const HIGH_WATER_BYTES = 16 * 1024;

/** A started `pocketsphinx_continuous`. */
export class RecognizerProcess {
  readonly #process: HostedProcess;
  readonly #stderrTail: string[] = [];
  #listener: RecognizerListener = QUIET;
  #pid: number | undefined;
  #ready = false;
  #exit: RecognizerExit | undefined;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bytes written and not yet in the pipe. */
  #unwritten = 0;
  #drained: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Why it was stopped before it could load, if it was. */
  #startFailure: string | undefined;
  /** Resolves once the process has exited and its output has been read. */
  readonly exited: Promise<RecognizerExit>;

  constructor(binary: string, args: readonly string[], options: RecognizerProcessOptions = {}) {
    let exited!: (exit: RecognizerExit) => void;
    this.exited = new Promise((resolve) => (exited = resolve));
    const script = 'exec "$0" "$@" < <(exec cat 2>/dev/null)';
    const events: HostedProcessEvents = {
      spawned: (pid) => (this.#pid = pid),
      stdout: (line) => this.#listener.stdout(line),
      stderr: (line) => {
        if (!this.#ready && READY_LINE.test(line)) {
          this.#ready = true;
          clearTimeout(this.#startTimer);
        }
        this.#stderrTail.push(line);
        if (this.#stderrTail.length > 20) this.#stderrTail.shift();
        this.#listener.stderr(line);
      },
      stdinError: (error) => this.#listener.error(error),
      error: (error) => {
        this.#listener.error(error);
        this.#exit ??= { code: null, signal: null };
        this.#settle();
        exited(this.#exit);
      },
      written: (bytes) => {
        this.#unwritten -= bytes;
        if (this.#unwritten <= 0) this.#settle();
      },
      closed: (code, signal) => {
        this.#exit ??= { code, signal };
        this.#settle();
        exited(this.#exit);
      },
    };
    const nice = options.nice ?? 0;
    this.#process = new HostedProcess('bash', ['-c', script, binary, ...args], events, { nice });
    void this.exited.then(() => clearTimeout(this.#startTimer));
    if (options.startTimeoutMs !== undefined) this.#armStart(options.startTimeoutMs);
  }

  /** Wake a writer waiting for the input to drain. */
  #settle(): void {
    const drained = this.#drained;
    this.#drained = undefined;
    drained?.resolve();
  }

  #armStart(timeoutMs: number): void {
    this.#startTimer = setTimeout(() => {
      if (this.#ready || !this.running) return;
      this.#startFailure = `it did not load its models within ${timeoutMs} ms`;
      this.kill();
    }, timeoutMs);
    this.#startTimer.unref();
  }

  /** Why it was killed before it loaded (its start timeout passed), if it was. */
  get startFailure(): string | undefined {
    return this.#startFailure;
  }

  /** The recognizer's process id (undefined if it could not be started). */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** True once its models are loaded and it reads audio. */
  get ready(): boolean {
    return this.#ready;
  }

  /** True until it has exited. */
  get running(): boolean {
    return this.#exit === undefined;
  }

  /** The last error lines it logged (at most `count`). */
  errorLines(count = 3): string[] {
    return this.#stderrTail.filter((l) => /ERROR|FATAL/.test(l)).slice(-count);
  }

  /** Hand its output to `listener` (one owner at a time). */
  listen(listener: RecognizerListener): void {
    this.#listener = listener;
  }

  /**
   * Whether the process keeps Node's event loop alive: a waiting process does not, one a
   * session uses does (as any child process).
   */
  hold(held: boolean): void {
    this.#process.hold(held);
  }

  /**
   * Give it audio. Resolves at once while the audio waiting for it is under the stream's
   * high-water mark, else once that has drained (or the process has gone); never rejects
   * (a failed write is reported to the listener's `error`).
   */
  write(pcm: Uint8Array): Promise<void> {
    if (this.#exit !== undefined) return DRAINED;
    this.#unwritten += pcm.length;
    this.#process.write(pcm);
    if (this.#unwritten < HIGH_WATER_BYTES) return DRAINED;
    if (!this.#drained) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#drained = { promise, resolve };
    }
    return this.#drained.promise;
  }

  /** End its input: it recognizes what it was given and exits. */
  end(): void {
    if (this.#exit === undefined) this.#process.end();
  }

  /**
   * Its CPU time so far (clock ticks) and whether it wants a core now (runnable, running or
   * waiting for one), from `/proc/<pid>/stat` (Linux; undefined elsewhere). A recognizer starved
   * by busier work (it runs at a higher nice value) gains no CPU time for a while but stays
   * runnable: it is not taken for one that has heard everything and waits for input.
   */
  activity(): RecognizerActivity | undefined {
    const pid = this.#pid;
    if (pid === undefined) return undefined;
    try {
      // Fields after the parenthesised command name: the state is the 1st, utime and stime the
      // 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return { cpu: Number(fields[11]) + Number(fields[12]), runnable: fields[0] === 'R' };
    } catch {
      return undefined;
    }
  }

  /** Stop it now (the recognizer and its `cat`). */
  kill(): void {
    if (this.running) this.#process.kill();
  }
}
