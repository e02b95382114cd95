/**
 * One `pocketsphinx_continuous` process, from its start (it loads its models,
 * then waits for audio) to its exit. It reads a real pipe: Node's child stdin
 * is a socket, which `-infile /dev/stdin` cannot open, so bash's process
 * substitution puts a `cat` in between; the recognizer replaces the shell, so
 * its exit is the child's exit. Recognizer and `cat` run in their own process
 * group, killed together.
 *
 * A process can wait unreferenced (it does not keep Node's event loop alive)
 * until a session takes it; it ends by itself when this process's end of its
 * stdin closes, so it never outlives the process that started it. One that has
 * not loaded its models within its start timeout is killed, so no start waits
 * forever.
 *
 * Audio written waits in Node's stream buffer while the recognizer lags;
 * `write` says when that buffer is over its high-water mark (its promise
 * resolves once it has drained), so a feeder that waits keeps it bounded.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';

/** The line `pocketsphinx_continuous` logs (with the path it was started by) when its models are loaded. */
const READY_LINE = /continuous\.c\(\d+\): \S*pocketsphinx_continuous COMPILED ON/;

/** How a recognizer process ended. */
export interface RecognizerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
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

/** Give process `pid` the `nice` value `nice` (best effort: a process gone or not ours keeps its own). */
function lowerPriority(pid: number | undefined, nice: number): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, Math.max(-20, Math.round(nice))));
  } catch {
    // exited already, or not allowed: it runs at the default priority
  }
}

/** A started `pocketsphinx_continuous`. */
export class RecognizerProcess {
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #stderrTail: string[] = [];
  #listener: RecognizerListener = QUIET;
  #ready = false;
  #exit: RecognizerExit | undefined;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  #drained: Promise<void> | undefined;
  /** Why it was stopped before it could load, if it was. */
  #startFailure: string | undefined;
  /** Resolves once the process has exited and its output has been read. */
  readonly exited: Promise<RecognizerExit>;

  constructor(binary: string, args: readonly string[], options: RecognizerProcessOptions = {}) {
    this.#child = spawn(
      'bash',
      ['-c', 'exec "$0" "$@" < <(exec cat 2>/dev/null)', binary, ...args],
      { stdio: ['pipe', 'pipe', 'pipe'], detached: true },
    );
    if (options.nice) lowerPriority(this.#child.pid, options.nice);
    this.#child.stdin.on('error', (error) => this.#listener.error(error));
    createInterface({ input: this.#child.stdout }).on('line', (line) =>
      this.#listener.stdout(line),
    );
    createInterface({ input: this.#child.stderr }).on('line', (line) => {
      if (!this.#ready && READY_LINE.test(line)) {
        this.#ready = true;
        clearTimeout(this.#startTimer);
      }
      this.#stderrTail.push(line);
      if (this.#stderrTail.length > 20) this.#stderrTail.shift();
      this.#listener.stderr(line);
    });
    this.exited = new Promise((resolve) => {
      this.#child.on('error', (error) => {
        this.#listener.error(error);
        this.#exit ??= { code: null, signal: null };
        resolve(this.#exit);
      });
      this.#child.on('close', (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      });
    });
    void this.exited.then(() => clearTimeout(this.#startTimer));
    if (options.startTimeoutMs !== undefined) this.#armStart(options.startTimeoutMs);
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
    return this.#child.pid;
  }

  /** True once its models are loaded and it reads audio. */
  get ready(): boolean {
    return this.#ready;
  }

  /** True until it has exited. */
  get running(): boolean {
    return this.#exit === undefined && this.#child.exitCode === null && !this.#child.signalCode;
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
    const handles: (Socket | { ref(): void; unref(): void })[] = [
      this.#child,
      this.#child.stdin as unknown as Socket,
      this.#child.stdout as unknown as Socket,
      this.#child.stderr as unknown as Socket,
    ];
    for (const handle of handles) {
      if (held) handle.ref();
      else handle.unref();
    }
  }

  /**
   * Give it audio. Resolves at once while the audio waiting for it is under the stream's
   * high-water mark, else once that has drained (or the process has gone); never rejects
   * (a failed write is reported to the listener's `error`).
   */
  write(pcm: Uint8Array): Promise<void> {
    const stdin = this.#child.stdin;
    if (stdin.write(pcm) || stdin.destroyed) return DRAINED;
    this.#drained ??= new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.#drained = undefined;
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
    return this.#drained;
  }

  /** End its input: it recognizes what it was given and exits. */
  end(): void {
    this.#child.stdin.end();
  }

  /** CPU time it has used, in clock ticks (Linux `/proc`; undefined elsewhere). */
  cpuTicks(): number | undefined {
    const pid = this.#child.pid;
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

  /** Stop it now (the recognizer and its `cat`). */
  kill(): void {
    const pid = this.#child.pid;
    if (pid === undefined || !this.running) return;
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
