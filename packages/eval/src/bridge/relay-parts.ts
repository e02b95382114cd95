/**
 * The audio relay's bookkeeping (`audio-relay.ts`): a segment while it is spoken and relayed,
 * what a bot reported hearing, and a wait for a bot to take its turn.
 *
 * @module
 */
import type { DuplexSegment } from './duplex.js';
import type { BotRole, BotTurn } from './types.js';

/** A segment while it is being spoken and relayed. */
export interface OpenSegment {
  tag: number;
  role: BotRole;
  said: string;
  heard: string[];
  startSample?: number;
  endSample?: number;
  /** Where the timeline was when its first audio reached the relay. */
  arrivalSample?: number;
  stopped: boolean;
  /** Utterances the other bot had heard when the segment began. */
  earsAtStart: number;
  /** Chunks relayed. */
  sent: number;
  duplex?: DuplexSegment;
}

/** What a bot reported hearing: its VAD's utterances and its final transcripts. */
export interface Ears {
  speaking: boolean;
  utterances: number;
  finals: number;
}

export interface Waiter {
  role: BotRole;
  deadline: number;
  /** When (`performance.now()`) the bot must have started speaking. */
  respondBy: number;
  timer: ReturnType<typeof setTimeout>;
  /** Segments before the wait began. */
  segmentsBefore: number;
  resolve: (turn: BotTurn | 'timeout') => void;
}
