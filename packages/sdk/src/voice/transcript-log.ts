/**
 * The transcript log of a voice conversation: the user's words as they are recognized (an
 * interim line replaced by the next interim, then fixed by the final) and the bot's reply as it
 * is spoken (one line per reply, growing sentence by sentence, marked when interrupted).
 * Immutable snapshots: every change makes a new array.
 */
import { joinDictated } from './dictation-controller.js';
import type { TranscriptEntry } from './types.js';

type UserEntry = Extract<TranscriptEntry, { role: 'user' }>;
type BotEntry = Extract<TranscriptEntry, { role: 'bot' }>;

/** The log; `entries` is a new array after every change. */
export class TranscriptLog {
  #entries: readonly TranscriptEntry[] = [];
  #nextId = 1;
  /** The user line still being recognized. */
  #interimUser: number | undefined;
  /** The bot line of the reply being spoken. */
  #speakingBot: number | undefined;
  readonly #limit: number;

  constructor(limit = 200) {
    this.#limit = limit;
  }

  get entries(): readonly TranscriptEntry[] {
    return this.#entries;
  }

  /** A user transcript; returns true when the log changed. */
  user(text: string, final: boolean): boolean {
    const trimmed = text.trim();
    const id = this.#interimUser;
    if (id !== undefined) {
      if (final) this.#interimUser = undefined;
      if (!trimmed && final) {
        this.#entries = this.#entries.filter((e) => e.id !== id);
        return true;
      }
      if (!trimmed) return false;
      this.#replace(id, (e) => ({ ...(e as UserEntry), text: trimmed, final }));
      return true;
    }
    if (!trimmed) return false;
    const added = this.#add({ role: 'user', text: trimmed, final });
    if (!final) this.#interimUser = added;
    return true;
  }

  /** A piece of the bot's reply was spoken. */
  botSpoke(text: string): boolean {
    if (!text.trim()) return false;
    const id = this.#speakingBot;
    if (id === undefined) {
      this.#speakingBot = this.#add({
        role: 'bot',
        text: text.trim(),
        final: false,
        interrupted: false,
      });
      return true;
    }
    this.#replace(id, (e) => ({ ...(e as BotEntry), text: joinDictated(e.text, text) }));
    return true;
  }

  /** The bot stopped speaking (the reply is over, or was cut); `interrupted` marks the line. */
  botStopped(interrupted = false): boolean {
    const id = this.#speakingBot;
    this.#speakingBot = undefined;
    if (id === undefined) return false;
    this.#replace(id, (e) => ({ ...(e as BotEntry), final: true, interrupted }));
    return true;
  }

  /** The reply being spoken was cut: its line is closed and marked. False when none was spoken. */
  botInterrupted(): boolean {
    return this.botStopped(true);
  }

  /** Close the lines still open (a disconnect). */
  settle(): boolean {
    let changed = this.botStopped(false);
    const id = this.#interimUser;
    this.#interimUser = undefined;
    if (id !== undefined) {
      this.#replace(id, (e) => ({ ...e, final: true }));
      changed = true;
    }
    return changed;
  }

  #add(entry: Omit<UserEntry, 'id'> | Omit<BotEntry, 'id'>): number {
    const id = this.#nextId++;
    this.#entries = [...this.#entries, { ...entry, id } as TranscriptEntry].slice(-this.#limit);
    return id;
  }

  #replace(id: number, patch: (entry: TranscriptEntry) => TranscriptEntry): void {
    this.#entries = this.#entries.map((e) => (e.id === id ? patch(e) : e));
  }
}
