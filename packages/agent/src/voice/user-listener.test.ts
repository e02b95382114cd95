import { describe, expect, it } from 'vitest';
import { UtteranceSession } from './utterance-session.js';
import type { TrackedUtterance } from './utterance-session.js';
import { UserListener } from './user-listener.js';
import type { Vad, VadEvent } from './vad.js';

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
  reset(): void {}
  close(): void {}
}

/** An STT session whose interim and final words the test sets. */
class ScriptedStt extends UtteranceSession {
  finalText = '';
  constructor() {
    super(16_000);
  }
  protected onAudio(): void {}
  protected async transcribe(): Promise<string> {
    return this.finalText;
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
    listener.write(new Uint8Array(640));
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
