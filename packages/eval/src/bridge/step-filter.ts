/**
 * What the audio timeline lets a filter see and shape: every step's chunks in both directions
 * (see `AudioTimeline`).
 *
 * @module
 */
import type { BotRole } from './types.js';

/** A chunk of a bot's speech as queued: its PCM and the segment it belongs to. */
export interface Chunk {
  pcm: Uint8Array;
  tag: number | undefined;
}

/** What one step relays. */
export interface StepOutput {
  /** Sent to the agent (the user's stream as heard) and recorded as the user's channel. */
  toAgent: Uint8Array;
  /** Sent to the user (the agent's stream as heard). */
  toUser: Uint8Array;
  /** Recorded as the agent's channel. */
  agentRecord: Uint8Array;
}

/** Sees and shapes every step (see the module's description). */
export interface StepFilter {
  /** The chunks of the step at `position` (undefined: silence) become what is sent and recorded. */
  step(position: number, user: Chunk | undefined, agent: Chunk | undefined): StepOutput;
  /** Fast clock: may the step at `position` be taken (`queued`: a stream has speech waiting)? */
  mayStep(position: number, queued: Record<BotRole, boolean>): boolean;
  /** May `source` start a burst of speech at `position`? */
  mayStart(source: BotRole, position: number): boolean;
  /**
   * Fast clock: does the next speech of `source` answer a turn whose place is still ahead of
   * `position` (it waits there, if the timeline would go on without it)?
   */
  holds?(source: BotRole, position: number): boolean;
  /** Fast clock: the filter has more to send at `position` (steps go on with nothing queued). */
  busy(position: number): boolean;
  /** What the filter waits for, in a few words (for a diagnostic). */
  describe?(): string | undefined;
}
