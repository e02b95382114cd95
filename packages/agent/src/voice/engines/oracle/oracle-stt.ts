/**
 * The oracle recognizer: it is told what the other side said instead of recognizing it (an
 * evaluation's bridge sends `oracle-said` once a sentence's audio has been relayed), and hears
 * exactly that, on the audio's timeline. The caller's VAD still starts and ends utterances on
 * the audio; an utterance's final transcript is every text told since the previous final (said
 * texts whose audio has arrived by then, in order), written as a recognizer writes it
 * ("please cancel e h g l p three"). Nothing told, nothing heard: the final is empty, as a real
 * recognizer's is. Texts told while no utterance is open wait for the next one. A text told
 * during an utterance gives an interim transcript of the words told so far.
 *
 * A fault (`swap-digit`) makes it mishear on purpose, the same way every time.
 */
import { INPUT_SAMPLE_RATE } from '../../audio/pcm.js';
import { SpeechEngineOptionError } from '../speech-engine.js';
import type { SpeechToText, SttSession } from '../../stt.js';
import { UtteranceSession } from '../../utterance-session.js';
import { HEARING_FAULT_TRANSFORMS, oracleHears } from './hearing.js';
import type { HearingFault } from './hearing.js';

/** Options of {@link createOracleSpeechToText}. */
export interface OracleSttOptions {
  /** How it mishears on purpose. @default none: it hears exactly what was said */
  fault?: string;
}

class OracleSttSession extends UtteranceSession {
  /** Texts told and not yet heard in a final. */
  readonly #told: string[] = [];

  constructor(private readonly fault: HearingFault | undefined) {
    super(INPUT_SAMPLE_RATE);
  }

  protected onAudio(): void {}

  told(text: string): void {
    if (this.closed || text.trim() === '') return;
    this.#told.push(text.trim());
    const open = this.current;
    if (open) this.emitInterim(open, oracleHears(this.#told.join(' '), this.fault));
  }

  protected transcribe(): Promise<string> {
    const heard = this.#told.splice(0);
    return Promise.resolve(oracleHears(heard.join(' '), this.fault));
  }

  close(): Promise<void> {
    this.closed = true;
    this.#told.length = 0;
    return Promise.resolve();
  }
}

/** The oracle recognizer; `fault` must be one of its faults (a `SpeechEngineOptionError` otherwise). */
export function createOracleSpeechToText(options: OracleSttOptions = {}): SpeechToText {
  const { fault } = options;
  if (fault !== undefined && !Object.hasOwn(HEARING_FAULT_TRANSFORMS, fault))
    throw new SpeechEngineOptionError(
      'fault',
      `no hearing fault '${fault}'; the faults: ${Object.keys(HEARING_FAULT_TRANSFORMS).join(', ')}`,
    );
  return {
    name: 'oracle',
    sampleRate: INPUT_SAMPLE_RATE,
    toldText: true,
    check: () => Promise.resolve(),
    openSession: (): Promise<SttSession> =>
      Promise.resolve(new OracleSttSession(fault as HearingFault | undefined)),
    close: () => Promise.resolve(),
  };
}
