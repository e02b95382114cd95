import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '@scenaro/sdk';
import type { Logger } from '@scenaro/sdk';
import { UtteranceSession } from './utterance-session.js';
import type { TrackedUtterance } from './utterance-session.js';
import { UserListener } from './user-listener.js';
import type { ListenerSink, UserListenerOptions } from './user-listener.js';
import type { Vad, VadEvent } from './audio/vad.js';

/** A VAD that reports what the test queues, whatever the audio. */
class ScriptedVad implements Vad {
  readonly sampleRate = 16_000;
  samples = 0;
  speaking = false;
  next: VadEvent[] = [];
  process(pcm: Uint8Array): VadEvent[] {
    this.samples += pcm.length / 2;
    const events = this.next;
    this.next = [];
    for (const e of events) this.speaking = e.type === 'speech-start';
    return events;
  }
  reset(): void {
    this.samples = 0;
    this.speaking = false;
  }
  close(): void {}
}

/** An STT session whose interim and final words the test sets. */
class ScriptedStt extends UtteranceSession {
  finalText = '';
  /** Finals by utterance number (else `finalText`). */
  finals = new Map<number, string>();
  /** Finals never come (a recognizer far behind). */
  hang = false;
  /** Utterances whose final fails. */
  failing = new Set<number>();
  /** Start and end sample of every ended utterance. */
  readonly ended: [number, number][] = [];
  constructor() {
    super(16_000);
  }
  protected onAudio(): void {}
  protected async transcribe(utterance: TrackedUtterance): Promise<string> {
    this.ended.push([utterance.startSample, utterance.endSample!]);
    if (this.hang) return new Promise<never>(() => {});
    if (this.failing.has(utterance.utterance)) throw new Error('recognizer crashed');
    return this.finals.get(utterance.utterance) ?? this.finalText;
  }
  interim(text: string): void {
    if (this.current) this.emitInterim(this.current as TrackedUtterance, text);
  }
  async close(): Promise<void> {}
}

describe('UserListener dictation', () => {
  it('sends interim transcripts while dictating, returns the final without a turn', async () => {
    const vad = new ScriptedVad();
    const stt = new ScriptedStt();
    const emitted: [string, unknown][] = [];
    const turns: string[] = [];
    const listener = new UserListener({
      vad,
      stt,
      sink: {
        emit: (type, data) => emitted.push([type, data]),
        speechStarted: () => turns.push('barge-in'),
        utterance: (text) => turns.push(text),
        error: (err) => {
          throw err;
        },
      },
    });
    listener.startDictation('d1');
    vad.next = [{ type: 'speech-start', sample: 0, detectedAt: 3200 }];
    await listener.write(new Uint8Array(640));
    stt.interim('two bottles');
    stt.finalText = 'two bottles of chablis';
    expect(await listener.endDictation('d1')).toBe('two bottles of chablis');
    const transcriptions = emitted.filter(([type]) => type === 'user-transcription');
    expect(transcriptions).toEqual([
      ['user-transcription', expect.objectContaining({ text: 'two bottles', final: false })],
    ]);
    // Speech in a dictation neither interrupts the bot nor takes a turn.
    expect(turns).toEqual([]);
    await listener.close();
  });
});

/** What a listener sent: RTVI events, turns (and barge-ins), errors. */
function recordingSink() {
  const emitted: [string, unknown][] = [];
  const turns: string[] = [];
  const marks: number[] = [];
  const sink: ListenerSink = {
    emit: (type, data) => emitted.push([type, data]),
    speechStarted: () => turns.push('barge-in'),
    utterance: (text, m) => {
      turns.push(text);
      marks.push(m.endSample);
    },
    unheard: (m) => turns.push(`unheard ${m.startSample}-${m.endSample}`),
    error: (err) => {
      throw err;
    },
  };
  return { sink, emitted, turns, marks };
}

/** A logger that keeps its warnings. */
function warningLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { ...silentLogger, warn: (_fields, message) => warnings.push(message ?? '') },
  };
}

function listen(stt: ScriptedStt, options: Partial<UserListenerOptions> = {}) {
  const vad = new ScriptedVad();
  const recorded = recordingSink();
  const listener = new UserListener({ vad, stt, sink: recorded.sink, ...options });
  return { vad, listener, ...recorded };
}

/** 20 ms of audio at 16 kHz. */
const FRAME = new Uint8Array(640);

/**
 * Dictation `d1`, in which the recognizer heard `words` so far, ended: what it has answered (no
 * answer yet: undefined).
 */
async function endedDictation(
  listener: UserListener,
  stt: ScriptedStt,
  words: string,
): Promise<() => string | undefined> {
  listener.startDictation('d1');
  await listener.write(FRAME);
  stt.interim(words);
  let answer: string | undefined;
  void listener.endDictation('d1').then((text) => (answer = text));
  return () => answer;
}

describe('UserListener dictation whose final is late', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers with the interim words at the deadline, and logs it', async () => {
    vi.useFakeTimers();
    const stt = new ScriptedStt();
    stt.hang = true;
    const { logger, warnings } = warningLogger();
    const { listener } = listen(stt, { dictationFinalMs: 3000, logger });
    const answer = await endedDictation(listener, stt, 'two bottles of');
    await vi.advanceTimersByTimeAsync(2999);
    expect(answer()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer()).toBe('two bottles of');
    expect(warnings).toEqual([expect.stringMatching(/late/)]);
    // The next dictation is a new utterance, whatever the late one does.
    stt.hang = false;
    stt.finalText = 'a case of merlot';
    listener.startDictation('d2');
    await listener.write(FRAME);
    await expect(listener.endDictation('d2')).resolves.toBe('a case of merlot');
    await listener.close();
  });

  it("answers inside the page's 15 s end timeout by default", async () => {
    vi.useFakeTimers();
    const stt = new ScriptedStt();
    stt.hang = true;
    const { listener } = listen(stt);
    const answer = await endedDictation(listener, stt, 'hello');
    await vi.advanceTimersByTimeAsync(14_000);
    expect(answer()).toBe('hello');
    await listener.close();
  });
});

describe('UserListener maximum utterance length', () => {
  it('cuts speech that never stops into turns of the maximum length', async () => {
    const stt = new ScriptedStt();
    for (let n = 1; n <= 9; n++) stt.finals.set(n, `part ${n}`);
    const { vad, listener, turns, marks, emitted } = listen(stt, { maxUtteranceMs: 1000 });
    vad.next = [{ type: 'speech-start', sample: 0, detectedAt: 320 }];
    for (let i = 0; i < 175; i++) await listener.write(FRAME); // 3.5 s, the VAD never stops
    await vi.waitFor(() => expect(turns).toHaveLength(4), { timeout: 15_000 });
    expect(turns).toEqual(['barge-in', 'part 1', 'part 2', 'part 3']);
    expect(stt.ended).toEqual([
      [0, 16_000],
      [16_000, 32_000],
      [32_000, 48_000],
    ]);
    expect(marks).toEqual([16_000, 32_000, 48_000]);
    // The speech goes on: no stop, and the open utterance still ends at the VAD's stop.
    expect(
      emitted.filter(([type]) => type.startsWith('user-') && type.endsWith('speaking')),
    ).toEqual([['user-started-speaking', undefined]]);
    vad.next = [{ type: 'speech-stop', sample: 56_000, detectedAt: 56_320 }];
    await listener.write(FRAME);
    await vi.waitFor(() => expect(turns).toHaveLength(5), { timeout: 15_000 });
    expect(stt.ended.at(-1)).toEqual([48_000, 56_000]);
    await listener.close();
  });

  it('cuts a long dictation into parts and answers their words joined', async () => {
    const stt = new ScriptedStt();
    stt.finals.set(1, 'one');
    stt.finals.set(2, 'two');
    stt.finals.set(3, 'three');
    const { listener, turns, emitted } = listen(stt, { maxUtteranceMs: 1000 });
    listener.startDictation('d1');
    for (let i = 0; i < 60; i++) await listener.write(FRAME); // 1.2 s
    await vi.waitFor(() => expect(stt.ended).toHaveLength(1), { timeout: 15_000 });
    await new Promise((resolve) => setImmediate(resolve));
    // The interim words shown in the composer keep the earlier part's.
    stt.interim('tw');
    for (let i = 0; i < 60; i++) await listener.write(FRAME); // 2.4 s
    expect(await listener.endDictation('d1')).toBe('one two three');
    expect(stt.ended).toEqual([
      [0, 16_000],
      [16_000, 32_000],
      [32_000, 38_400],
    ]);
    const interims = emitted.filter(([type]) => type === 'user-transcription');
    expect(interims).toEqual([
      ['user-transcription', expect.objectContaining({ text: 'one tw', final: false })],
    ]);
    expect(turns).toEqual([]);
    await listener.close();
  });

  it('reports a part that failed when the dictation ends, not before', async () => {
    const stt = new ScriptedStt();
    stt.failing.add(1);
    stt.finalText = 'two';
    const { listener } = listen(stt, { maxUtteranceMs: 1000 });
    listener.startDictation('d1');
    for (let i = 0; i < 60; i++) await listener.write(FRAME);
    await vi.waitFor(() => expect(stt.ended).toHaveLength(1), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(listener.endDictation('d1')).rejects.toThrow('recognizer crashed');
    await listener.close();
  });
});

describe('UserListener stream break', () => {
  it('ends the open utterance at the break; speech after it opens a new one', async () => {
    const stt = new ScriptedStt();
    stt.finals.set(1, 'i want to change');
    stt.finals.set(2, 'what is the status of my order');
    const { vad, listener, turns, emitted } = listen(stt);
    const resets = vi.spyOn(vad, 'reset');
    vad.next = [{ type: 'speech-start', sample: 3200, detectedAt: 6400 }];
    for (let i = 0; i < 50; i++) await listener.write(FRAME); // 1 s
    listener.streamBroken();
    expect(resets).toHaveBeenCalledOnce();
    expect(listener.samples).toBe(16_000);
    // After the break the VAD counts from 0 again; positions stay the stream's.
    vad.next = [{ type: 'speech-start', sample: 0, detectedAt: 3200 }];
    for (let i = 0; i < 50; i++) await listener.write(FRAME);
    vad.next = [{ type: 'speech-stop', sample: 12_800, detectedAt: 16_000 }];
    await listener.write(FRAME);
    const said = () => turns.filter((t) => t !== 'barge-in');
    await vi.waitFor(() => expect(said()).toHaveLength(2), { timeout: 15_000 });
    expect(said()).toEqual(['i want to change', 'what is the status of my order']);
    expect(turns.filter((t) => t === 'barge-in')).toHaveLength(2);
    expect(stt.ended).toEqual([
      [3200, 16_000],
      [16_000, 28_800],
    ]);
    const speaking = emitted.filter(([type]) => type.endsWith('-speaking')).map(([type]) => type);
    expect(speaking).toEqual([
      'user-started-speaking',
      'user-stopped-speaking',
      'user-started-speaking',
      'user-stopped-speaking',
    ]);
    await listener.close();
  });

  it('takes no turn for a break in silence and leaves an open dictation open', async () => {
    const stt = new ScriptedStt();
    stt.finalText = 'dictated';
    const { listener, turns, emitted } = listen(stt);
    await listener.write(FRAME);
    listener.streamBroken();
    expect(stt.ended).toEqual([]);
    listener.startDictation('d1');
    await listener.write(FRAME);
    listener.streamBroken();
    await listener.write(FRAME);
    expect(listener.dictating).toBe(true);
    expect(await listener.endDictation('d1')).toBe('dictated');
    expect(stt.ended).toEqual([[640 / 2, 960]]);
    expect(turns).toEqual([]);
    expect(emitted).toEqual([]);
    await listener.close();
  });
});

describe('UserListener speech heard as nothing', () => {
  /** Speech from `start` to `stop` (samples), then 20 ms of silence. */
  async function utterance(vad: ScriptedVad, listener: UserListener, start: number, stop: number) {
    vad.next = [{ type: 'speech-start', sample: start, detectedAt: start }];
    while (listener.samples < stop) await listener.write(FRAME);
    vad.next = [{ type: 'speech-stop', sample: stop, detectedAt: stop }];
    await listener.write(FRAME);
  }

  it('reports a second of speech with an empty final as unheard, not a shorter noise', async () => {
    const stt = new ScriptedStt();
    const { vad, listener, turns } = listen(stt);
    await utterance(vad, listener, 0, 15_680); // 0.98 s: a noise
    await utterance(vad, listener, 16_000, 32_000); // 1 s
    stt.finals.set(3, 'yes');
    await utterance(vad, listener, 40_000, 48_000);
    await vi.waitFor(() => expect(turns.at(-1)).toBe('yes'), { timeout: 15_000 });
    expect(turns).toEqual(['barge-in', 'barge-in', 'unheard 16000-32000', 'barge-in', 'yes']);
    await listener.close();
  });

  it('does not report it while more speech is open or awaited after it', async () => {
    const stt = new ScriptedStt();
    stt.finals.set(2, 'my user id is');
    const { vad, listener, turns } = listen(stt);
    let release!: () => void;
    const late = new Promise<void>((resolve) => (release = resolve));
    const transcribe = stt['transcribe'].bind(stt);
    vi.spyOn(stt as unknown as { transcribe: typeof transcribe }, 'transcribe').mockImplementation(
      async (u) => {
        if (u.utterance === 1) await late;
        return transcribe(u);
      },
    );
    await utterance(vad, listener, 0, 32_000);
    vad.next = [{ type: 'speech-start', sample: 33_000, detectedAt: 33_000 }];
    await listener.write(FRAME);
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    vad.next = [{ type: 'speech-stop', sample: 48_000, detectedAt: 48_000 }];
    while (listener.samples < 48_000) await listener.write(FRAME);
    await listener.write(FRAME);
    await vi.waitFor(() => expect(turns.at(-1)).toBe('my user id is'), { timeout: 15_000 });
    expect(turns).toEqual(['barge-in', 'barge-in', 'my user id is']);
    await listener.close();
  });
});
