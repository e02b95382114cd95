/**
 * eSpeak NG (Debian `espeak-ng`), run once per sentence: the sentence goes to its standard input
 * and it writes a WAV (22050 Hz mono 16-bit) to its standard output, which is resampled to the
 * rate asked for and yielded in 40 ms frames. Its English voices carry accents (`en-us`, `en-gb`,
 * `en-gb-scotland`, `en-gb-x-rp`, `en-gb-x-gbclan`, `en-029`, ...); it speaks many other
 * languages too (`espeak-ng --voices`). Formant synthesis: robotic, small and fast.
 *
 * A sentence that takes longer than `timeoutMs` is cut (its process killed) and fails with a
 * `SpeechEngineError` coded `timeout`; aborting kills the process and throws the signal's reason.
 * The processes are started by the engines' process thread (`process-host.ts`), so a start does
 * not hold up the event loop.
 */
import { OUTPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import { wavToOutputFrames } from '../../audio/wav-frames.js';
import {
  abortReason,
  SpeechEngineError,
  SpeechEngineUnavailableError,
} from '../../engine-errors.js';
import type { SynthesizeOptions, TextToSpeech } from '../../tts.js';
import { HostedProcess } from '../process-host.js';
import { SpeechEngineOptionError } from '../speech-engine.js';

/** Options of the eSpeak NG synthesizer. */
export interface EspeakNgTtsOptions {
  /** Voice: a language and accent such as `en-gb-scotland` (default `en-us`). */
  voice?: string;
  /** Speaking rate in words per minute, 80-450 (default 175). */
  rate?: number;
  /** Pitch, 0-99 (default 50). */
  pitch?: number;
  /** Output sample rate (default 24000). */
  sampleRate?: number;
  /** The program: a name looked up on PATH or a path (default `espeak-ng`). */
  binary?: string;
  /** Longest one sentence may take to synthesize, in ms (default 10000). */
  timeoutMs?: number;
}

/** The rate eSpeak NG writes its WAV at. */
export const ESPEAK_NG_SAMPLE_RATE = 22_050;

const DEBIAN_HINT = 'install the Debian package espeak-ng (apt-get install espeak-ng)';

/** What one run of the program left. */
interface Run {
  code: number | null;
  stdout: Uint8Array;
  stderr: string;
}

class EspeakNgTextToSpeech implements TextToSpeech {
  readonly name = 'espeak-ng';
  readonly sampleRate: number;
  private readonly voice: string;
  private readonly rate: number;
  private readonly pitch: number;
  private readonly binary: string;
  private readonly timeoutMs: number;
  private readonly running = new Set<() => void>();
  private checked: Promise<void> | undefined;
  private closed = false;

  constructor(options: EspeakNgTtsOptions) {
    this.voice = options.voice ?? 'en-us';
    this.rate = options.rate ?? 175;
    this.pitch = options.pitch ?? 50;
    this.sampleRate = options.sampleRate ?? OUTPUT_SAMPLE_RATE;
    this.binary = options.binary ?? 'espeak-ng';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    if (!/^[A-Za-z0-9][A-Za-z0-9_+/.-]*$/.test(this.voice))
      throw new RangeError(
        `eSpeak NG voice must be a voice name such as en-us, got '${this.voice}'`,
      );
    if (!(Number.isInteger(this.rate) && this.rate >= 80 && this.rate <= 450))
      throw new RangeError(`eSpeak NG rate must be an integer from 80 to 450, got ${this.rate}`);
    if (!(Number.isInteger(this.pitch) && this.pitch >= 0 && this.pitch <= 99))
      throw new RangeError(`eSpeak NG pitch must be an integer from 0 to 99, got ${this.pitch}`);
    if (!(this.timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0, got ${this.timeoutMs}`);
  }

  /**
   * Resolves when the program is installed and has the voice; rejects with a
   * `SpeechEngineUnavailableError` naming the package otherwise, or a `SpeechEngineOptionError`
   * for a voice it does not have.
   */
  check(): Promise<void> {
    this.checked ??= (async () => {
      const run = await this.run(['-q', '-v', this.voice, 'a'], '', undefined);
      if (run.code !== 0) {
        if (/voice does not exist/i.test(run.stderr))
          throw new SpeechEngineOptionError(
            'voice',
            `espeak-ng has no voice '${this.voice}' (its voices: espeak-ng --voices)`,
          );
        throw this.failure(run);
      }
    })();
    this.checked.catch(() => {
      this.checked = undefined; // checked again next time: it may have been installed since
    });
    return this.checked;
  }

  async warm(): Promise<void> {
    await this.check();
  }

  async *synthesize(text: string, options: SynthesizeOptions = {}): AsyncIterable<Uint8Array> {
    const { signal } = options;
    if (this.closed)
      throw new SpeechEngineError('eSpeak NG synthesizer closed', { engine: 'espeak-ng' });
    if (signal?.aborted) throw abortReason(signal);
    const spoken = text.replace(/\s+/g, ' ').trim();
    if (spoken === '') return;
    const args = ['--stdout', '--stdin', '-b', '1', '-v', this.voice];
    args.push('-s', String(this.rate), '-p', String(this.pitch));
    const run = await this.run(args, spoken, signal);
    if (signal?.aborted) throw abortReason(signal);
    if (run.code !== 0) throw this.failure(run);
    yield* wavToOutputFrames(run.stdout, this.sampleRate, signal);
  }

  close(): Promise<void> {
    this.closed = true;
    for (const kill of this.running) kill();
    return Promise.resolve();
  }

  /** The error of a run that failed. */
  private failure(run: Run): SpeechEngineError {
    const said = run.stderr.trim().split('\n').slice(-3).join(' | ');
    return new SpeechEngineError(
      `espeak-ng exited with code ${run.code}${said ? `: ${said}` : ''}`,
      { engine: 'espeak-ng' },
    );
  }

  /** Run the program with `input` on its standard input, within the deadline. */
  private run(args: string[], input: string, signal: AbortSignal | undefined): Promise<Run> {
    return new Promise<Run>((resolve, reject) => {
      const stdout: Uint8Array[] = [];
      let stderr = '';
      let settled = false;
      const finish = (error: Error | undefined, run?: Run): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.running.delete(kill);
        if (error) {
          child.kill('SIGKILL');
          reject(error);
        } else resolve(run!);
      };
      const child = new HostedProcess(
        this.binary,
        args,
        {
          data: (chunk) => stdout.push(chunk),
          stderr: (line) => {
            if (stderr.length < 4096) stderr += `${line}\n`;
          },
          error: (error) =>
            finish(
              error.code === 'ENOENT'
                ? new SpeechEngineUnavailableError(
                    `eSpeak NG is not installed (no ${this.binary} on PATH): ${DEBIAN_HINT}`,
                    { engine: 'espeak-ng', cause: error },
                  )
                : new SpeechEngineError(`espeak-ng could not start: ${error.message}`, {
                    engine: 'espeak-ng',
                    cause: error,
                  }),
            ),
          closed: (code) =>
            finish(undefined, { code, stdout: new Uint8Array(Buffer.concat(stdout)), stderr }),
        },
        { bytes: true },
      );
      const kill = (): void =>
        finish(new SpeechEngineError('eSpeak NG synthesizer closed', { engine: 'espeak-ng' }));
      const onAbort = (): void => finish(abortReason(signal!));
      const timer = setTimeout(
        () =>
          finish(
            new SpeechEngineError(`espeak-ng took longer than ${this.timeoutMs} ms`, {
              engine: 'espeak-ng',
              code: 'timeout',
              retryable: true,
            }),
          ),
        this.timeoutMs,
      );
      this.running.add(kill);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.write(new TextEncoder().encode(input));
      child.end();
    });
  }
}

/** An eSpeak NG synthesizer; each sentence runs the program once. */
export function createEspeakNgTextToSpeech(options: EspeakNgTtsOptions = {}): TextToSpeech {
  return new EspeakNgTextToSpeech(options);
}
