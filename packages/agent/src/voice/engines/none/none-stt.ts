/**
 * The `none` speech recognizer: it hears nothing. Every utterance's final
 * transcript is empty; for pipelines that only need the VAD's turn-taking
 * (or get the user's text another way).
 */
import { INPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import type { SpeechToText, SttSession } from '../../stt.js';
import { UtteranceSession } from '../../utterance-session.js';

class NoneSttSession extends UtteranceSession {
  protected onAudio(): void {}

  protected transcribe(): Promise<string> {
    return Promise.resolve('');
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** A recognizer whose transcripts are always empty. */
export function createNoneSpeechToText(): SpeechToText {
  return {
    name: 'none',
    sampleRate: INPUT_SAMPLE_RATE,
    check: () => Promise.resolve(),
    openSession: (): Promise<SttSession> => Promise.resolve(new NoneSttSession(INPUT_SAMPLE_RATE)),
    close: () => Promise.resolve(),
  };
}
