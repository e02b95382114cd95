/**
 * The thread that has the speech engines' processes (PocketSphinx recognizers, eSpeak NG runs)
 * started and owns their pipes. Starting a process blocks the thread that starts it until the
 * child has replaced itself with its program (libuv forks, then waits for the exec), 13-33 ms on
 * a busy machine: too long for a server's event loop, where every other session's requests would
 * wait behind it. And a fork of the server stalls all its threads that touch fresh memory while
 * it copies the server's page tables, so the processes are started by a small launcher process
 * (`process-launcher.ts`, itself started once by this thread), which hands their pipes over.
 * One worker thread per process relays what they say (lines of log, output as lines or bytes,
 * errors, exits) and what they are given (input, acknowledged once written to the pipe so a
 * writer can wait for it; its end; a signal). Should the launcher end, the processes it started
 * are killed and reported gone; the next start starts a new launcher.
 *
 * The worker does not keep Node's event loop alive while no process held by its owner runs (see
 * {@link HostedProcess.hold}). Should the thread end, every process it started is reported gone.
 */
import { Worker } from 'node:worker_threads';
import { LAUNCHER_SOURCE } from './process-launcher.js';

// CommonJS, evaluated in the worker. Acknowledgements of writes are gathered per turn of its
// loop: one message per process however many writes it took.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const { createInterface } = require('node:readline');
const LAUNCHER_SOURCE = ${JSON.stringify(LAUNCHER_SOURCE)};
const children = new Map();
let acks = new Map();
const flush = () => {
  const done = acks;
  acks = new Map();
  for (const [id, bytes] of done) parentPort.postMessage({ id, ev: 'ack', bytes });
};
const ack = (id, bytes) => {
  if (acks.size === 0) setImmediate(flush);
  acks.set(id, (acks.get(id) || 0) + bytes);
};
const post = (id, ev, fields) => parentPort.postMessage({ id, ev, ...fields });
const failed = (id, message, code) => post(id, 'error', { message, code });
// A child is closed once it has exited and its output pipes are read to their end.
const settle = (child, what) => {
  if (!child.waiting.delete(what) || child.waiting.size > 0) return;
  children.delete(child.id);
  if (child.stdin) child.stdin.destroy();
  post(child.id, 'close', child.exit);
};
const exited = (child, code, signal) => {
  child.exit = child.exit || { code, signal };
  settle(child, 'exit');
};
// Pipes that will never come (no process, or the launcher gone): writes are let go, and the
// close waits only for the pipes that came.
const unpiped = (child) => {
  for (const [, done] of child.queued) done();
  child.queued = [];
  child.unpiped = true;
  if (!child.stdout) child.waiting.delete('stdout');
  if (!child.stderr) child.waiting.delete('stderr');
};
let launcher;
const theLauncher = () => {
  if (launcher) return launcher;
  const started = spawn(process.execPath, ['-e', LAUNCHER_SOURCE], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const gone = (why) => {
    if (launcher !== started) return;
    launcher = undefined;
    for (const child of [...children.values()]) {
      failed(child.id, why);
      if (child.pid !== undefined) {
        try { process.kill(-child.pid, 'SIGKILL'); } catch {}
      }
      unpiped(child);
      exited(child, null, null);
    }
  };
  started.on('error', (error) => gone('the process launcher failed: ' + error.message));
  started.on('exit', (code, signal) => gone('the process launcher ended (' + (signal || code) + ')'));
  started.on('message', (message, handle) => {
    const child = children.get(message.id);
    if (!child) {
      if (handle) handle.destroy();
      return;
    }
    if (message.ev === 'spawned') {
      child.pid = message.pid;
      if (message.pid === undefined) unpiped(child);
      post(child.id, 'spawned', { pid: message.pid });
    } else if (message.ev === 'stdio') {
      if (handle) piped(child, message.fd, handle);
      else if (message.fd > 0) settle(child, message.fd === 2 ? 'stderr' : 'stdout');
    } else if (message.ev === 'error') {
      failed(child.id, message.message, message.code);
    } else if (message.ev === 'exit') {
      exited(child, message.code, message.signal);
    }
  });
  launcher = started;
  return started;
};
const piped = (child, fd, socket) => {
  if (fd === 0) {
    child.stdin = socket;
    socket.on('error', (error) => post(child.id, 'stdin-error', { message: error.message }));
    for (const [data, done] of child.queued) socket.write(data, done);
    child.queued = [];
    if (child.ending) socket.end();
    return;
  }
  socket.on('error', () => {});
  socket.once('close', () => settle(child, fd === 2 ? 'stderr' : 'stdout'));
  if (fd === 2) {
    child.stderr = socket;
    createInterface({ input: socket }).on('line', (line) => post(child.id, 'stderr', { line }));
  } else if (child.bytes) {
    child.stdout = socket;
    socket.on('data', (chunk) => {
      const data = new Uint8Array(chunk);
      parentPort.postMessage({ id: child.id, ev: 'data', data }, [data.buffer]);
    });
  } else {
    child.stdout = socket;
    createInterface({ input: socket }).on('line', (line) => post(child.id, 'stdout', { line }));
  }
};
const start = ({ id, file, args, nice, bytes }) => {
  const child = {
    id, bytes, pid: undefined, stdin: undefined, stdout: undefined, stderr: undefined,
    queued: [], ending: false, unpiped: false, exit: undefined,
    waiting: new Set(['exit', 'stdout', 'stderr']),
  };
  children.set(id, child);
  theLauncher().send({ op: 'start', id, file, args, nice });
};
parentPort.on('message', (message) => {
  if (message.op === 'start') return start(message);
  const child = children.get(message.id);
  if (message.op === 'write') {
    const bytes = message.data.byteLength;
    const done = () => ack(message.id, bytes);
    if (!child || child.unpiped || (child.stdin && child.stdin.destroyed)) return done();
    if (child.stdin) child.stdin.write(message.data, done);
    else child.queued.push([message.data, done]);
  } else if (message.op === 'end') {
    if (!child) return;
    if (child.stdin) child.stdin.end();
    else child.ending = true;
  } else if (message.op === 'kill') {
    if (child && launcher) launcher.send({ op: 'kill', id: message.id, signal: message.signal });
  }
});
theLauncher();
`;

/** What the owner of a {@link HostedProcess} hears of it, in the order it happened. */
export interface HostedProcessEvents {
  /** It was started, as process `pid` (undefined: it could not be). */
  spawned?(pid: number | undefined): void;
  /** A line of its standard output (unless its output is read as bytes). */
  stdout?(line: string): void;
  /** A piece of its standard output, when it is read as bytes. */
  data?(chunk: Uint8Array): void;
  /** A line of its standard error. */
  stderr?(line: string): void;
  /** Writing to its input failed. */
  stdinError?(error: Error): void;
  /** It could not be started (`code` as Node's, e.g. `ENOENT`), or the thread running it ended. */
  error(error: Error & { code?: string }): void;
  /** `bytes` of what was written have gone into its input pipe. */
  written?(bytes: number): void;
  /** It has exited and its output has been read (always the last event). */
  closed(code: number | null, signal: NodeJS.Signals | null): void;
}

/** How a {@link HostedProcess} runs. */
export interface HostedProcessOptions {
  /**
   * Its CPU priority as a `nice` value (default 0, as this process). It runs in a session of its
   * own, so on Linux its scheduling group (`/proc/<pid>/autogroup`) is given the value too: with
   * autogroups on, a process's own nice value counts only against its group.
   */
  nice?: number;
  /** Read its standard output as bytes (`events.data`), not lines (default false). */
  bytes?: boolean;
}

type WorkerEvent =
  | { id: number; ev: 'spawned'; pid: number | undefined }
  | { id: number; ev: 'stdout' | 'stderr'; line: string }
  | { id: number; ev: 'data'; data: Uint8Array }
  | { id: number; ev: 'stdin-error'; message: string }
  | { id: number; ev: 'error'; message: string; code?: string }
  | { id: number; ev: 'ack'; bytes: number }
  | { id: number; ev: 'close'; code: number | null; signal: NodeJS.Signals | null };

/** The worker, the processes it runs for us, and those of them that keep the loop alive. */
interface Host {
  worker: Worker;
  processes: Map<number, HostedProcessEvents>;
  held: Set<number>;
}

/** The process thread's young generation, MB. */
const YOUNG_GENERATION_MB = 4;

let host: Host | undefined;
let nextId = 1;

function dispatch(events: HostedProcessEvents, event: WorkerEvent): void {
  switch (event.ev) {
    case 'spawned':
      return events.spawned?.(event.pid);
    case 'stdout':
      return events.stdout?.(event.line);
    case 'data':
      return events.data?.(event.data);
    case 'stderr':
      return events.stderr?.(event.line);
    case 'stdin-error':
      return events.stdinError?.(new Error(event.message));
    case 'error':
      return events.error(Object.assign(new Error(event.message), { code: event.code }));
    case 'ack':
      return events.written?.(event.bytes);
    case 'close':
      return events.closed(event.code, event.signal);
  }
}

function theHost(): Host {
  if (host) return host;
  // Everything it handles is short-lived (lines, audio on its way to a pipe): a small young
  // generation keeps what it has freed from staying resident.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // None of this process's flags: `--input-type=module` would read the source as a module.
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  worker.unref();
  const started: Host = { worker, processes: new Map(), held: new Set() };
  const forget = (id: number): void => {
    started.processes.delete(id);
    if (started.held.delete(id) && started.held.size === 0) worker.unref();
  };
  worker.on('message', (event: WorkerEvent) => {
    const events = started.processes.get(event.id);
    if (!events) return;
    if (event.ev === 'close') forget(event.id);
    dispatch(events, event);
  });
  const gone = (error: Error): void => {
    if (host === started) host = undefined;
    for (const [id, events] of [...started.processes]) {
      forget(id);
      events.error(error);
      events.closed(null, null);
    }
  };
  worker.on('error', (error) => gone(new Error(`the process thread failed: ${error.message}`)));
  worker.on('exit', (code) => gone(new Error(`the process thread ended (code ${code})`)));
  host = started;
  return started;
}

/** A process started and run by the process thread, in a process group of its own. */
export class HostedProcess {
  readonly #id = nextId++;
  readonly #host: Host;
  /** What was written and not yet posted to the process thread: its first `#inputBytes`. */
  #input: Uint8Array<ArrayBuffer> | undefined;
  #inputBytes = 0;

  constructor(
    file: string,
    args: readonly string[],
    events: HostedProcessEvents,
    options: HostedProcessOptions = {},
  ) {
    this.#host = theHost();
    this.#host.processes.set(this.#id, events);
    this.hold(true);
    const nice = Math.min(19, Math.max(-20, Math.round(options.nice ?? 0)));
    const bytes = options.bytes ?? false;
    this.#host.worker.postMessage({
      op: 'start',
      id: this.#id,
      file,
      args: [...args],
      nice,
      bytes,
    });
  }

  /**
   * Give it `data` (copied; `events.written` says when it is in the pipe). What is written in one
   * turn of the event loop goes to the process thread as one message at the turn's end: a client
   * sending audio faster than real time has hundreds of frames heard in a turn.
   */
  write(data: Uint8Array): void {
    const bytes = this.#inputBytes + data.byteLength;
    if (!this.#input) setImmediate(this.#post);
    if (!this.#input || bytes > this.#input.byteLength) {
      const grown = new Uint8Array(Math.max(bytes, 2 * (this.#input?.byteLength ?? 0)));
      if (this.#input) grown.set(this.#input.subarray(0, this.#inputBytes));
      this.#input = grown;
    }
    this.#input.set(data, this.#inputBytes);
    this.#inputBytes = bytes;
  }

  /** Close its input (it is held again: whoever ends it may wait for it to exit). */
  end(): void {
    this.hold(true);
    this.#post();
    this.#host.worker.postMessage({ op: 'end', id: this.#id });
  }

  /**
   * Signal its process group. It is held again until it has exited: whoever stops a process
   * that waited unheld may wait for its exit, and with nothing else to do Node would end first.
   */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    this.hold(true);
    this.#post();
    this.#host.worker.postMessage({ op: 'kill', id: this.#id, signal });
  }

  /** Whether it keeps Node's event loop alive until it exits (it does when started). */
  hold(held: boolean): void {
    const { worker, processes, held: holding } = this.#host;
    if (!processes.has(this.#id)) return;
    if (held) {
      holding.add(this.#id);
      worker.ref();
    } else if (holding.delete(this.#id) && holding.size === 0) worker.unref();
  }

  /** Post what was written to the process thread, in one piece. */
  readonly #post = (): void => {
    const input = this.#input;
    if (!input) return;
    const data = input.subarray(0, this.#inputBytes);
    this.#input = undefined;
    this.#inputBytes = 0;
    this.#host.worker.postMessage({ op: 'write', id: this.#id, data }, [input.buffer]);
  };
}
