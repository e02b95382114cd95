/**
 * A {@link BaseVoice} driven by the test: it "connects" at once, its microphone does what the
 * test says, and the test plays the connection's events through public methods.
 */
import { BaseVoice } from '../voice/base-voice.js';

/** A voice whose connection is the test. */
export class FakeVoice extends BaseVoice {
  /** What the voice asked of its connection, in order. */
  readonly calls: string[] = [];
  /** Thrown by the microphone when it is turned on (e.g. a `NotAllowedError`). */
  micFailure: unknown;

  protected async open(): Promise<void> {
    this.calls.push('open');
  }
  protected async close(): Promise<void> {
    this.calls.push('close');
  }
  protected async applyMic(enabled: boolean): Promise<void> {
    this.calls.push(`mic ${enabled ? 'on' : 'off'}`);
    if (enabled && this.micFailure !== undefined) throw this.micFailure;
  }
  protected async applyMute(muted: boolean): Promise<void> {
    this.calls.push(`mute ${muted}`);
  }
  protected override detach(): void {
    this.calls.push('detach');
  }

  /** The bot heard the user say `text`. */
  hear(text: string, final: boolean): void {
    this.userTranscript(text, final);
  }
  /** The user started or stopped speaking. */
  userTalks(speaking: boolean): void {
    this.userSpeaking(speaking);
  }
  /** The bot started or stopped speaking. */
  botTalks(speaking: boolean): void {
    this.botSpeaking(speaking);
  }
  /** The bot spoke `text`. */
  botSays(text: string): void {
    this.botSpoke(text);
  }
  /** The bot says it was interrupted. */
  interrupted(): void {
    this.botInterrupted(false);
  }
  /** The connection dropped. */
  drop(): void {
    this.closed();
  }
}
