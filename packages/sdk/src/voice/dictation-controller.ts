/**
 * Dictation into a text box (the composer): start asks the agent to take the microphone's stream
 * as one dictated utterance (`composer_start_dictation`), the interim words show as they are
 * recognized, end fetches the final text (`composer_end_dictation`), cancel drops it
 * (`composer_cancel_dictation`) and gives back what the box held before. Each call waits its
 * protocol timeout (10 s / 15 s / 8 s); a timeout becomes a polite message in the state.
 *
 * The microphone is turned on for the dictation (after the agent has started it, so no word is
 * lost) and back off after, unless it was on already.
 */
import { errorMessage } from '../util/index.js';
import { DictationTimeoutError } from '../session/composer.js';
import type { ComposerDictation, DictationAction } from '../session/composer.js';
import type { UserTranscript, Voice } from './types.js';

/** Where a dictation stands. */
export type DictationPhase = 'idle' | 'starting' | 'listening' | 'ending' | 'cancelling';

/** What a composer renders while dictating. */
export interface DictationState {
  phase: DictationPhase;
  /** The text of the box when the dictation started (what cancel gives back). */
  before: string;
  /** The words recognized so far (interim). */
  interim: string;
  /** What went wrong with the last call, in words fit to show. */
  error: string | undefined;
}

/** Options of a {@link DictationController}. */
export interface DictationControllerOptions {
  /** The session's dictation calls (`session.composer`). */
  composer: ComposerDictation;
  /** The voice connection whose microphone feeds the dictation and whose transcripts are shown. */
  voice: Voice;
}

const IDLE: DictationState = { phase: 'idle', before: '', interim: '', error: undefined };

/** Text before and dictated text, joined by one space. */
export function joinDictated(before: string, dictated: string): string {
  const add = dictated.trim();
  if (!add) return before;
  return before.trim() ? `${before.replace(/\s+$/, '')} ${add}` : add;
}

function timeoutMessage(action: DictationAction, seconds: number): string {
  switch (action) {
    case 'start':
      return `Sorry, the assistant did not answer within ${seconds} seconds, so dictation did not start. Please try again, or type your message.`;
    case 'end':
      return `Sorry, the assistant did not send your words within ${seconds} seconds. Your text is as it was; please try again, or type your message.`;
    case 'cancel':
      return `Dictation stopped, but the assistant did not confirm within ${seconds} seconds. Your text is as it was.`;
  }
}

function failureMessage(action: DictationAction, error: unknown): string {
  if (error instanceof DictationTimeoutError) {
    return timeoutMessage(action, Math.round(error.timeoutMs / 1000));
  }
  const detail = errorMessage(error);
  const what = { start: 'start', end: 'finish', cancel: 'cancel' }[action];
  return `Sorry, dictation could not ${what}: ${detail}.`;
}

/** One composer's dictation. */
export class DictationController {
  readonly #composer: ComposerDictation;
  readonly #voice: Voice;
  readonly #listeners = new Set<() => void>();
  #state: DictationState = IDLE;
  #releaseTranscripts: (() => void) | undefined;
  /** The microphone was turned on for this dictation (and goes off after it). */
  #ownsMic = false;
  #starting: Promise<boolean> | undefined;

  constructor(options: DictationControllerOptions) {
    this.#composer = options.composer;
    this.#voice = options.voice;
  }

  getSnapshot = (): DictationState => this.#state;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** True from start until the dictation is over. */
  get active(): boolean {
    return this.#state.phase !== 'idle';
  }

  /** Start dictating into a box that holds `before`. Resolves false when it could not start. */
  start(before: string): Promise<boolean> {
    if (this.active) return Promise.resolve(false);
    this.#set({ phase: 'starting', before, interim: '', error: undefined });
    this.#releaseTranscripts = this.#voice.captureTranscripts((t) => this.#heard(t));
    const starting = this.#start();
    this.#starting = starting;
    return starting;
  }

  async #start(): Promise<boolean> {
    try {
      await this.#composer.startDictation();
    } catch (error) {
      this.#finish(failureMessage('start', error));
      return false;
    }
    if (this.#voice.state.mic !== 'on') {
      this.#ownsMic = true;
      if (!(await this.#voice.setMicEnabled(true))) {
        const why = this.#voice.state.micError?.message ?? 'The microphone could not start.';
        await this.#composer.cancelDictation().catch(() => undefined);
        this.#finish(why);
        return false;
      }
    }
    // An end or cancel asked meanwhile waits for this start and goes on from there.
    if (this.#state.phase === 'starting') this.#set({ phase: 'listening' });
    return true;
  }

  /**
   * End the dictation: resolves with the box's new text (`before` and the dictated words), or
   * undefined when it did not start or the agent did not answer (the state then says why; the
   * box keeps `before`).
   */
  async end(): Promise<string | undefined> {
    if (this.#state.phase !== 'listening' && this.#state.phase !== 'starting') return undefined;
    const { before } = this.#state;
    this.#set({ phase: 'ending' });
    if (!(await this.#started())) return undefined;
    try {
      const result = await this.#composer.endDictation();
      const text = joinDictated(before, result.transcript ?? this.#state.interim);
      this.#finish(undefined);
      return text;
    } catch (error) {
      this.#finish(failureMessage('end', error));
      return undefined;
    }
  }

  /** Cancel the dictation: resolves with the text the box held before it. */
  async cancel(): Promise<string> {
    const { before, phase } = this.#state;
    if (phase !== 'listening' && phase !== 'starting') return before;
    this.#set({ phase: 'cancelling' });
    if (!(await this.#started())) return before;
    let error: string | undefined;
    try {
      await this.#composer.cancelDictation();
    } catch (err) {
      error = failureMessage('cancel', err);
    }
    this.#finish(error);
    return before;
  }

  /** Wait for a start still under way; false when it failed (and already finished). */
  async #started(): Promise<boolean> {
    const starting = this.#starting;
    this.#starting = undefined;
    return starting ? starting : true;
  }

  /** Forget the last error message. */
  dismissError(): void {
    if (this.#state.error !== undefined) this.#set({ error: undefined });
  }

  #heard(transcript: UserTranscript): void {
    if (this.#state.phase === 'idle') return;
    if (transcript.text.trim()) this.#set({ interim: transcript.text.trim() });
  }

  #finish(error: string | undefined): void {
    this.#releaseTranscripts?.();
    this.#releaseTranscripts = undefined;
    if (this.#ownsMic) {
      this.#ownsMic = false;
      void this.#voice.setMicEnabled(false);
    }
    this.#set({ ...IDLE, error });
  }

  #set(patch: Partial<DictationState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }
}
